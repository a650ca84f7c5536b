// SPDX-License-Identifier: GPL-2.0
/* The cost per exit rule: see rule_cost_table.h. */
#define _GNU_SOURCE /* qsort_r */
#include <stdlib.h>
#include "output/json_out.h"
#include "output/rule_cost_table.h"

static double per_second(const struct rule_cost_view *v, double ns)
{
	return v->seconds > 0 ? ns / v->seconds : 0;
}

/* Dearest first, then most evaluated (all alike when they are not priced), then in order. */
static int by_cost(const void *a, const void *b, void *arg)
{
	const struct rule_cost *cost = arg;
	size_t i = *(const size_t *)a, j = *(const size_t *)b;

	if (cost[i].ns != cost[j].ns)
		return cost[i].ns < cost[j].ns ? 1 : -1;
	if (cost[i].evaluations != cost[j].evaluations)
		return cost[i].evaluations < cost[j].evaluations ? 1 : -1;
	return i < j ? -1 : i > j;
}

size_t *rule_costs_order(const struct rule_cost_view *v, size_t *n)
{
	const struct ruleset *rs = v->rules;
	size_t *order = calloc(rs->n ? rs->n : 1, sizeof(*order));

	*n = 0;
	if (!order)
		return NULL;
	for (size_t i = 0; i < rs->n; i++)
		if (rule_on_exit_list(&rs->rules[i]))
			order[(*n)++] = i;
	qsort_r(order, *n, sizeof(*order), by_cost, v->costs->rule);
	return order;
}

void rule_costs_print(FILE *out, const struct rule_cost_view *v)
{
	const struct rule_costs *rc = v->costs;
	size_t n, *order = rule_costs_order(v, &n);

	if (!order)
		return;
	fprintf(out,
		"\nCost per exit rule, dearest first. VISITS: walks that reached its entry;\n"
		"EVALS: of those, walks its mask sent into its fields;\n%s\n"
		"NS/S: its share of the visits' time and its evaluations per second; %%CPU: of one CPU.\n"
		"%s\n%s\n",
		v->own_arch ?
			"OWN ARCH: of those, on the rule's arch." :
		rc->exact ?
			"MATCHES: walks it ended." :
			"MATCHES: walks it ended; n/a: this mode cannot see where a walk ended.",
		calibration_prices_evaluations(v->calib) ?
			"Evaluations priced per field kind." :
			"Evaluations NOT priced (the calibration has no evaluation prices: run\n"
			"'auditskip calibrate'); ranked by them.",
		rc->exact ?
			"Exact: the kernel said at which rule each matched walk stopped." :
			"A walk stops at the first rule that matches: behind one that can, upper bounds.");
	fprintf(out, "  %10s %7s %12s %12s %12s  %s\n", "NS/S", "%CPU", "VISITS", "EVALS",
		v->own_arch ? "OWN ARCH" : "MATCHES", "RULE");
	for (size_t k = 0; k < n && k < (size_t)v->top; k++) {
		const struct rule_cost *c = &rc->rule[order[k]];
		char last[24] = "n/a";

		if (v->own_arch || rc->exact)
			snprintf(last, sizeof(last), "%llu",
				 (unsigned long long)(v->own_arch ? v->own_arch[order[k]] :
								    c->matches));
		fprintf(out, "  %10.0f %7.4f %12llu %12llu %12s  %s\n", per_second(v, c->ns),
			per_second(v, c->ns) / 1e7, (unsigned long long)c->visits,
			(unsigned long long)c->evaluations, last, v->rules->rules[order[k]].text);
	}
	if (n > (size_t)v->top)
		fprintf(out, "  ... and %zu more exit rules (%s shows more, --json all)\n",
			n - v->top, v->more);
	fprintf(out,
		"  all walks: %.0f ns/s (%.4f%% of one CPU), %.0f ns/s of it the walk's own call\n",
		per_second(v, rc->walks_ns), per_second(v, rc->walks_ns) / 1e7,
		per_second(v, rc->calls_ns));
	free(order);
}

json_object *rule_costs_json(const struct rule_cost_view *v)
{
	json_object *rules = json_object_new_array();

	for (size_t i = 0; i < v->rules->n; i++) {
		const struct audit_rule *r = &v->rules->rules[i];
		const struct rule_cost *c = &v->costs->rule[i];
		json_object *e = json_object_new_object();

		if (!rule_on_exit_list(r))
			continue;
		json_object_object_add(e, "rule", json_object_new_uint64(i + 1));
		add_str(e, "text", r->text);
		add_str_or_null(e, "key", r->key[0] ? r->key : NULL);
		add_u64(e, "visits", c->visits);
		add_u64(e, "evaluations", c->evaluations);
		/* null where the mode cannot see where a walk ended. */
		json_object_object_add(e, "matches",
				       v->costs->exact ? json_object_new_uint64(c->matches) : NULL);
		json_object_object_add(e, "cost_ns", json_rounded(c->ns, 0));
		json_object_object_add(e, "cost_ns_per_s", json_rounded(per_second(v, c->ns), 1));
		json_object_array_add(rules, e);
	}
	return rules;
}
