// SPDX-License-Identifier: GPL-2.0
/* Two rule sets, rule by rule: see rule_compare.h. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "model/rule_compare.h"

static int by_difference(const void *x, const void *y)
{
	const struct rule_pair *p = x, *q = y;
	double dp = fabs(p->ns_b - p->ns_a), dq = fabs(q->ns_b - q->ns_a);

	if (dp != dq)
		return dp < dq ? 1 : -1;
	return p->place < q->place ? -1 : p->place > q->place;
}

int rule_compare_make(const struct ruleset *a, const struct rule_costs *ca, const struct ruleset *b,
		      const struct rule_costs *cb, struct rule_comparison *out)
{
	bool *taken = calloc(b->n ? b->n : 1, sizeof(*taken));
	struct rule_pair *pair = calloc(a->n + b->n ? a->n + b->n : 1, sizeof(*pair));
	size_t n = 0;

	memset(out, 0, sizeof(*out));
	if (!taken || !pair) {
		free(taken);
		free(pair);
		return -ENOMEM;
	}
	for (size_t i = 0; i < a->n; i++) {
		struct rule_pair *p = &pair[n];

		p->place = n++;
		p->a = &a->rules[i];
		p->ns_a = ca->rule[i].ns;
		for (size_t j = 0; j < b->n; j++)
			if (!taken[j] && !strcmp(a->rules[i].text, b->rules[j].text)) {
				taken[j] = true;
				p->b = &b->rules[j];
				p->ns_b = cb->rule[j].ns;
				break;
			}
	}
	for (size_t j = 0; j < b->n; j++) {
		if (taken[j])
			continue;
		pair[n] =
			(struct rule_pair){ .b = &b->rules[j], .ns_b = cb->rule[j].ns, .place = n };
		n++;
	}
	free(taken);
	qsort(pair, n, sizeof(*pair), by_difference);
	out->pair = pair;
	out->n = n;
	return 0;
}

void rule_comparison_free(struct rule_comparison *c)
{
	free(c->pair);
	memset(c, 0, sizeof(*c));
}
