// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE /* qsort_r */
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "output/whatif_report.h"
#include "output/json_out.h"
#include "output/designs_report.h"
#include "output/rule_cost_table.h"
#include "audit/syscalls.h"

/* The counters a prediction has, named as counting names them (counters.h). */
static const enum counter_id predicted[] = {
	COUNTER_ID_walks,
	COUNTER_ID_skippable_walks,
	COUNTER_ID_needless_rule_visits,
	COUNTER_ID_skippable_arch_mask,
	COUNTER_ID_skippable_perm_mask,
};
#define NR_PREDICTED (sizeof(predicted) / sizeof(predicted[0]))

static const char *rules_label(const struct whatif_run *w)
{
	return strcmp(w->rules_path, "-") ? w->rules_path : "the rules loaded now";
}

static double share(__u64 part, __u64 whole)
{
	return whole ? 100.0 * part / whole : 0;
}

static double slot_saved_ns(const struct whatif_run *w, const struct scan_counts *c)
{
	return c->skippable_walks * calibration_walk_ns(w->calib, w->pred->exit_rules);
}

/* `ns` per second of the profiled run, 0 for a profile of no length. */
static double per_second(const struct whatif_run *w, double ns)
{
	return w->profile->seconds > 0 ? ns / w->profile->seconds : 0;
}

/* The patch's time saved per second of the profiled run. */
static double saved_per_s(const struct whatif_run *w)
{
	return per_second(w, prediction_saved_ns(w->pred, w->calib, COUNTER_ID_skippable_walks));
}

/* Why design k saves nothing here, NULL where it can save. */
static void add_counters(json_object *o, const struct scan_counts *c)
{
	for (size_t i = 0; i < NR_PREDICTED; i++)
		add_u64(o, counters[predicted[i]].name, counter_value(c, predicted[i]));
}

/* Why the prediction may differ from a loaded run, one line each. */
static json_object *notes_json(const struct whatif_run *w)
{
	const struct prediction *pr = w->pred;
	json_object *a = json_object_new_array();
	char line[600];

	if (pr->audit_disabled)
		json_object_array_add(
			a,
			json_object_new_string(
				"the rules end with -e 0: audit is disabled once they are loaded, nothing walks"));
	else if (pr->task_never)
		json_object_array_add(
			a,
			json_object_new_string(
				"an unconditional never,task rule: tasks forked after it get no audit context, nothing walks"));
	else if (!pr->walks_at_all)
		json_object_array_add(
			a,
			json_object_new_string(
				"no rule counts in audit_n_rules: contexts stay dummy, nothing walks"));
	if (pr->conditional_task_rules) {
		snprintf(
			line, sizeof(line),
			"%zu task rules with fields: assumed to leave every profiled task its context",
			pr->conditional_task_rules);
		json_object_array_add(a, json_object_new_string(line));
	}
	/* What reading the rules file noted: control lines, rules this kernel would refuse. */
	for (size_t i = 0; i < w->rules->nnotes; i++) {
		snprintf(line, sizeof(line), "rules file: %s", w->rules->notes[i]);
		json_object_array_add(a, json_object_new_string(line));
	}
	if (w->profile->uring_enter_calls) {
		snprintf(
			line, sizeof(line),
			"%llu io_uring_enter calls: the ops they ran inline walk the lists again, not in the profile",
			(unsigned long long)w->profile->uring_enter_calls);
		json_object_array_add(a, json_object_new_string(line));
	}
	return a;
}

static json_object *calibration_json(const struct whatif_run *w)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "calibrated", json_object_new_boolean(w->calib_from != NULL));
	add_str_or_null(o, "file", w->calib_from);
	json_object_object_add(o, "ns_per_entry", json_rounded(w->calib->ns_per_entry, 2));
	json_object_object_add(o, "walk_ns",
			       json_rounded(calibration_walk_ns(w->calib, w->pred->exit_rules), 2));
	return o;
}

/* --compare: the second set, and every rule of either with its cost in each (null: not in it). */
static json_object *compared_json(const struct whatif_run *w)
{
	const struct whatif_compared *c = w->compared;
	json_object *o, *rules;

	if (!c)
		return NULL;
	o = json_object_new_object();
	rules = json_object_new_array();
	add_str(o, "file", c->path);
	json_object_object_add(o, "walks_ns", json_rounded(c->costs->walks_ns, 0));
	for (size_t k = 0; k < c->by_rule->n; k++) {
		const struct rule_pair *p = &c->by_rule->pair[k];
		const struct audit_rule *r = p->a ? p->a : p->b;
		json_object *e = json_object_new_object();

		add_str(e, "text", r->text);
		json_object_object_add(e, "watch", json_object_new_boolean(r->inode_hash));
		json_object_object_add(e, "cost_ns", p->a ? json_rounded(p->ns_a, 0) : NULL);
		json_object_object_add(e, "compared_cost_ns",
				       p->b ? json_rounded(p->ns_b, 0) : NULL);
		json_object_array_add(rules, e);
	}
	json_object_object_add(o, "rules", rules);
	return o;
}

/* Every rule of the set: where it is, its field checks, its cost. */
static json_object *rules_json(const struct whatif_run *w)
{
	const struct prediction *pr = w->pred;
	json_object *rules = json_object_new_array();

	for (size_t i = 0; i < w->rules->n; i++) {
		const struct audit_rule *r = &w->rules->rules[i];
		json_object *e = json_object_new_object();

		add_str_or_null(e, "text", r->text);
		add_str_or_null(e, "key", r->key);
		json_object_object_add(e, "exit_list",
				       json_object_new_boolean(rule_on_exit_list(r)));
		json_object_object_add(e, "full_mask",
				       json_object_new_boolean(rule_sets_every_bit(r)));
		add_u64(e, "field_checks", pr->field_checks[i]);
		add_u64(e, "field_checks_own_arch", pr->field_checks_own_arch[i]);
		add_u64(e, "visits", w->costs->rule[i].visits);
		json_object_object_add(e, "cost_ns", json_rounded(w->costs->rule[i].ns, 0));
		json_object_object_add(e, "cost_ns_per_s",
				       json_rounded(per_second(w, w->costs->rule[i].ns), 1));
		json_object_array_add(rules, e);
	}
	return rules;
}

/* Every profiled syscall: its calls, the predicted counters and each design's saving. */
static json_object *syscalls_json(const struct whatif_run *w)
{
	const struct prediction *pr = w->pred;
	const struct profile *p = w->profile;
	json_object *sys = json_object_new_array();

	for (unsigned int s = 0; s < NR_COUNT_SLOTS; s++) {
		json_object *e;
		char name[64];

		if (!p->calls[s])
			continue;
		slot_name(s / NR_SLOTS, s % NR_SLOTS, name, sizeof(name));
		e = json_object_new_object();
		add_u64(e, "nr", s % NR_SLOTS);
		add_str_or_null(e, "name", name);
		add_str_or_null(e, "arch", arch_name(s / NR_SLOTS));
		add_u64(e, "calls", p->calls[s]);
		add_counters(e, &pr->slot[s]);
		json_object_object_add(e, "saved_ns",
				       json_rounded(slot_saved_ns(w, &pr->slot[s]), 0));
		json_object_object_add(e, "saved_ns_2023",
				       json_rounded(w->designs->ns[DESIGN_2023][s], 0));
		json_object_object_add(e, "saved_ns_archperm",
				       json_rounded(w->designs->ns[DESIGN_ARCHPERM][s], 0));
		json_object_object_add(e, "saved_ns_archperm_entry",
				       json_rounded(w->designs->ns[DESIGN_ARCHPERM_ENTRY][s], 0));
		json_object_object_add(e, "saved_ns_prefix",
				       json_rounded(w->designs->ns[DESIGN_PREFIX][s], 0));
		json_object_array_add(sys, e);
	}
	return sys;
}

static void print_whatif_json(FILE *out, const struct whatif_run *w)
{
	const struct prediction *pr = w->pred;
	const struct profile *p = w->profile;
	json_object *o = json_object_new_object(), *prof = json_object_new_object();
	json_object *blind = NULL;

	add_str_or_null(o, "type", "whatif");
	json_object_object_add(o, "schema", json_object_new_int(1));
	add_str_or_null(o, "kernel", w->kernel);
	add_str_or_null(o, "rules_file", w->rules_path);
	add_str_or_null(prof, "file", w->profile_path);
	add_str_or_null(prof, "kernel", p->kernel);
	add_str_or_null(prof, "mode", p->mode);
	add_str_or_null(prof, "scope", p->scope);
	json_object_object_add(prof, "seconds", json_rounded(p->seconds, 6));
	json_object_object_add(o, "profile", prof);
	add_u64(o, "exit_rules", pr->exit_rules);
	add_u64(o, "mask_bits", pr->mask_bits);
	add_u64(o, "native_arch_mask_bits", pr->native_arch_mask_bits);
	add_u64(o, "compat_arch_mask_bits", pr->compat_arch_mask_bits);
	add_u64(o, "native_perm_mask_bits", pr->perm_mask_bits[ARCH_NATIVE]);
	add_u64(o, "compat_perm_mask_bits", pr->perm_mask_bits[ARCH_COMPAT]);
	add_u64(o, "native_entry_mask_bits", pr->entry_mask_bits[ARCH_NATIVE]);
	add_u64(o, "compat_entry_mask_bits", pr->entry_mask_bits[ARCH_COMPAT]);
	add_str_or_null(o, "perm_classes", w->perm_classes);
	json_object_object_add(o, "walks_at_all", json_object_new_boolean(pr->walks_at_all));
	add_counters(o, &pr->total);
	json_object_object_add(
		o, "saved_ns",
		json_rounded(prediction_saved_ns(pr, w->calib, COUNTER_ID_skippable_walks), 0));
	json_object_object_add(
		o, "saved_ns_arch_mask",
		json_rounded(prediction_saved_ns(pr, w->calib, COUNTER_ID_skippable_arch_mask), 0));
	json_object_object_add(
		o, "saved_ns_perm_mask",
		json_rounded(prediction_saved_ns(pr, w->calib, COUNTER_ID_skippable_perm_mask), 0));
	json_object_object_add(o, "saved_ns_per_s", json_rounded(saved_per_s(w), 0));
	json_object_object_add(o, "calibration", calibration_json(w));
	json_object_object_add(o, "syscalls", syscalls_json(w));
	json_object_object_add(o, "rules", rules_json(w));
	json_object_object_add(o, "designs", designs_json(w->designs, w->profile->seconds));
	json_object_object_add(o, "compared", compared_json(w));
	json_object_object_add(o, "walks_ns", json_rounded(w->costs->walks_ns, 0));
	json_object_object_add(o, "walk_calls_ns", json_rounded(w->costs->calls_ns, 0));
	json_object_object_add(o, "evaluations_priced",
			       json_object_new_boolean(calibration_prices_evaluations(w->calib)));
	if (p->blind_spots_known) {
		blind = json_object_new_object();
		add_u64(blind, "uring_enter_calls", p->uring_enter_calls);
		add_u64(blind, "exit_calls_inferred", p->exit_calls_inferred);
	}
	json_object_object_add(o, "blind_spots", blind);
	json_object_object_add(o, "notes", notes_json(w));
	fprintf(out, "%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
}

static int by_walks(const void *a, const void *b, void *arg)
{
	const struct prediction *pr = arg;
	__u64 x = pr->slot[*(const unsigned int *)a].walks,
	      y = pr->slot[*(const unsigned int *)b].walks;

	return x < y ? 1 : x > y ? -1 : 0;
}

static void print_syscalls(FILE *out, const struct whatif_run *w)
{
	static unsigned int order[NR_COUNT_SLOTS];
	const struct prediction *pr = w->pred;
	unsigned int n = 0;

	for (unsigned int s = 0; s < NR_COUNT_SLOTS; s++)
		if (pr->slot[s].walks)
			order[n++] = s;
	if (!n)
		return;
	qsort_r(order, n, sizeof(order[0]), by_walks, (void *)pr);
	fprintf(out,
		"\nTop syscalls by predicted walks (skippable under the patch's mask, the\n"
		"per-arch masks, the perm-narrowed masks):\n");
	fprintf(out, "  %5s %-24s %12s %12s %12s %12s %15s\n", "NR", "SYSCALL", "WALKS",
		"SKIPPABLE", "ARCH MASKS", "PERM MASKS", "NEEDLESS VISITS");
	for (unsigned int i = 0; i < n && i < (unsigned int)w->top; i++) {
		const struct scan_counts *c = &pr->slot[order[i]];
		unsigned int arch = order[i] / NR_SLOTS;
		char name[64];

		slot_name(arch, order[i] % NR_SLOTS, name, sizeof(name));
		if (arch != ARCH_NATIVE)
			snprintf(name + strlen(name), sizeof(name) - strlen(name), " (%s)",
				 arch_name(arch));
		fprintf(out, "  %5u %-24s %12llu %12llu %12llu %12llu %15llu\n",
			order[i] % NR_SLOTS, name, (unsigned long long)c->walks,
			(unsigned long long)c->skippable_walks,
			(unsigned long long)c->skippable_arch_mask,
			(unsigned long long)c->skippable_perm_mask,
			(unsigned long long)c->needless_rule_visits);
	}
}

/* Where the walks' time goes: the exit rules that cost the most. */
static void print_rule_costs(FILE *out, const struct whatif_run *w)
{
	if (!w->pred->exit_rules || !w->pred->walks_at_all)
		return;
	rule_costs_print(out, &(struct rule_cost_view){
				      .rules = w->rules,
				      .costs = w->costs,
				      .calib = w->calib,
				      .seconds = w->profile->seconds,
				      .top = w->top,
				      .more = "-n N",
				      .own_arch = w->pred->field_checks_own_arch,
			      });
}

/* --compare: the two sets on the same walks, the rules whose cost differs most first. */
static void print_compared(FILE *out, const struct whatif_run *w)
{
	const struct whatif_compared *c = w->compared;
	const struct rule_comparison *by = c ? c->by_rule : NULL;
	double a = per_second(w, w->costs->walks_ns), b;
	size_t shown = 0;

	if (!by)
		return;
	b = per_second(w, c->costs->walks_ns);
	fprintf(out,
		"\nRule by rule, A: %s, B: %s, on the same walks (NS/S as above; one rule\n"
		"when it reads the same as the kernel lists it; a watch, on the inode hash,\n"
		"costs the exit walk nothing):\n",
		rules_label(w), c->path);
	fprintf(out, "  %10s %10s %10s  %s\n", "A NS/S", "B NS/S", "B - A", "RULE");
	for (size_t k = 0; k < by->n && shown < (size_t)w->top; k++, shown++) {
		const struct rule_pair *p = &by->pair[k];
		const struct audit_rule *r = p->a ? p->a : p->b;
		char ns_a[32] = "-", ns_b[32] = "-";

		if (p->a)
			snprintf(ns_a, sizeof(ns_a), "%.0f", per_second(w, p->ns_a));
		if (p->b)
			snprintf(ns_b, sizeof(ns_b), "%.0f", per_second(w, p->ns_b));
		fprintf(out, "  %10s %10s %+10.0f  %s%s%s\n", ns_a, ns_b,
			per_second(w, p->ns_b - p->ns_a), r->text,
			!p->b ? "  [A only]" :
			!p->a ? "  [B only]" :
				"",
			r->inode_hash ? "  [watch]" : "");
	}
	if (by->n > shown)
		fprintf(out, "  ... and %zu more rules (-n N shows more, --json all)\n",
			by->n - shown);
	fprintf(out,
		"  all walks: A %.0f ns/s, B %.0f ns/s (B - A: %+.0f ns/s, %+.4f%% of one CPU)\n",
		a, b, b - a, (b - a) / 1e7);
}

/* The designs on the same walks, side by side. */
static void print_designs(FILE *out, const struct whatif_run *w)
{
	if (w->pred->walks_at_all)
		designs_print(out, w->designs, w->profile->seconds);
}

static void print_text(FILE *out, const struct whatif_run *w)
{
	const struct prediction *pr = w->pred;
	const struct scan_counts *t = &pr->total;
	const struct profile *p = w->profile;
	json_object *notes = notes_json(w);
	__u64 calls = 0;

	for (unsigned int s = 0; s < NR_COUNT_SLOTS; s++)
		calls += p->calls[s];
	fprintf(out, "What-if (offline: predicted, no rule loaded for it)\n");
	fprintf(out, "  rules:   %s: %zu rules, %zu on the exit list, mask bits set: %u of %d\n",
		rules_label(w), w->rules->n, pr->exit_rules, pr->mask_bits, MASK_BITS);
	fprintf(out, "  profile: %s: %llu calls in %.1f s (kernel %s, mode %s, %s)\n",
		w->profile_path, (unsigned long long)calls, p->seconds, p->kernel, p->mode,
		p->scope[0] ? p->scope : "scope not recorded");
	fprintf(out, "  %-30s %12llu\n", "exit-filter walks", (unsigned long long)t->walks);
	fprintf(out, "  %-30s %12llu  (%.1f%% of walks)\n", "skippable walks (patch's mask)",
		(unsigned long long)t->skippable_walks, share(t->skippable_walks, t->walks));
	fprintf(out, "  %-30s %12llu  (%.1f%%; masks of %u and %u bits)\n",
		"skippable, per-arch masks", (unsigned long long)t->skippable_arch_mask,
		share(t->skippable_arch_mask, t->walks), pr->native_arch_mask_bits,
		pr->compat_arch_mask_bits);
	fprintf(out, "  %-30s %12llu  (%.1f%%; masks of %u and %u bits, %s)\n",
		"skippable, perm-narrowed", (unsigned long long)t->skippable_perm_mask,
		share(t->skippable_perm_mask, t->walks), pr->perm_mask_bits[ARCH_NATIVE],
		pr->perm_mask_bits[ARCH_COMPAT], w->perm_classes);
	fprintf(out, "  %-30s %12llu  (%.1f%%; masks of %u and %u bits, watches too)\n",
		"dummy contexts, entry masks", (unsigned long long)t->skippable_entry_mask,
		share(t->skippable_entry_mask, t->walks), pr->entry_mask_bits[ARCH_NATIVE],
		pr->entry_mask_bits[ARCH_COMPAT]);
	fprintf(out, "  %-30s %12llu  (rule entries the skippable walks visit)\n",
		"needless rule visits", (unsigned long long)t->needless_rule_visits);
	fprintf(out, "  %-30s %12.3f ms  (per-arch masks %.3f ms, perm-narrowed %.3f ms)\n",
		"estimated time saved",
		prediction_saved_ns(pr, w->calib, COUNTER_ID_skippable_walks) / 1e6,
		prediction_saved_ns(pr, w->calib, COUNTER_ID_skippable_arch_mask) / 1e6,
		prediction_saved_ns(pr, w->calib, COUNTER_ID_skippable_perm_mask) / 1e6);
	/* As counting gives it: a rate, comparable between profiles of any length. */
	if (w->profile->seconds > 0)
		fprintf(out, "    that is %.0f ns per second of the profile (%.4f%% of one CPU)\n",
			saved_per_s(w), saved_per_s(w) / 1e7);
	if (w->calib_from)
		fprintf(out, "    calibrated (%s, %s): %.1f ns a walk over %zu rules\n",
			w->calib_from, w->calib->kernel,
			calibration_walk_ns(w->calib, pr->exit_rules), pr->exit_rules);
	else
		fprintf(out,
			"    UNCALIBRATED (no calibration file): %.1f ns per visited entry, the series'\n"
			"    slope from 128 to 256 rules; run 'auditskip calibrate' to measure this machine\n",
			w->calib->ns_per_entry);
	for (size_t i = 0; i < json_object_array_length(notes); i++)
		fprintf(out, "  note: %s\n",
			json_object_get_string(json_object_array_get_idx(notes, i)));
	json_object_put(notes);
	print_designs(out, w);
	print_syscalls(out, w);
	print_rule_costs(out, w);
	print_compared(out, w);
}

void prediction_report(FILE *out, const struct whatif_run *w, bool json)
{
	if (json)
		print_whatif_json(out, w);
	else
		print_text(out, w);
	fflush(out);
}
