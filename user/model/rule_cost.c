// SPDX-License-Identifier: GPL-2.0
/* Each exit rule's share of a workload's walk time: see rule_cost.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "auditskip.h"
#include "model/eval_price.h"
#include "model/rule_cost.h"
#include "model/whatif_masks.h"

/* What each entry of a walk over `length` entries costs to visit, beyond the walk's call. */
static double visit_ns(const struct calibration *c, size_t length)
{
	return length ?
		       (calibration_walk_ns(c, (double)length) - c->ns_walk_call) / (double)length :
		       0;
}

struct slot_walks {
	unsigned int nr;
	__u32 arch;
	__u64 walks;
	bool exact;				  /* where each match stopped is known: */
	const struct rule_match_count *m, *m_end; /* its matches, by rule */
};

/*
 * One slot's walks down the list. Walks that end together share a length,
 * and so a price per visit: `active` sums the walks still going times
 * their price, and drops each group where it ends.
 */
static void cost_slot(const struct ruleset *rs, const struct calibration *c, const size_t *position,
		      size_t exit_rules, const struct slot_walks *w, struct rule_costs *out)
{
	__u64 going = w->walks, unmatched = w->walks;
	const struct rule_match_count *m = w->m;
	double active = 0, match_ns = calibration_eval_ns(c, EVAL_MATCH);

	if (w->exact) {
		for (const struct rule_match_count *g = m; g < w->m_end; g++) {
			active += (double)g->walks * visit_ns(c, position[g->rule] + 1);
			unmatched -= g->walks < unmatched ? g->walks : unmatched;
		}
		active += (double)unmatched * visit_ns(c, exit_rules);
	} else {
		size_t length;

		eval_walk_ns(c, rs, w->arch, w->nr, &length);
		active = (double)going * visit_ns(c, length);
	}
	out->calls_ns += (double)w->walks * c->ns_walk_call;
	for (size_t i = 0; i < rs->n && going; i++) {
		const struct audit_rule *r = &rs->rules[i];
		struct rule_cost *rc = &out->rule[i];
		__u64 ended = 0;
		bool ends, bit;
		double ev, ns;

		if (!rule_on_exit_list(r))
			continue;
		bit = mask_test(r->mask, w->nr);
		ev = eval_price_ns(c, r, w->arch, w->nr, &ends);
		if (w->exact) {
			while (m < w->m_end && m->rule < i)
				m++;
			if (m < w->m_end && m->rule == i)
				ended = m->walks < going ? m->walks : going;
		} else if (ends) {
			ended = going;
		}
		rc->visits += going;
		rc->evaluations += bit ? going : 0;
		rc->matches += ended;
		ns = active + (double)(going - ended) * ev + (double)ended * (ends ? ev : match_ns);
		rc->ns += ns;
		out->walks_ns += ns;
		active -= (double)ended * visit_ns(c, position[i] + 1);
		going -= ended;
	}
}

int rule_costs_make(const struct ruleset *rs, const struct walk_tally *t,
		    const struct calibration *c, struct rule_costs *out)
{
	const struct rule_match_count *m = t->matches, *end = t->matches + t->nmatches;
	size_t *position, exit_rules = 0;
	__u32 elf[NR_ARCHES];

	memset(out, 0, sizeof(*out));
	out->rule = calloc(rs->n ? rs->n : 1, sizeof(*out->rule));
	position = calloc(rs->n ? rs->n : 1, sizeof(*position));
	if (!out->rule || !position) {
		free(position);
		rule_costs_free(out);
		return -ENOMEM;
	}
	for (size_t i = 0; i < rs->n; i++)
		if (rule_on_exit_list(&rs->rules[i]))
			position[i] = exit_rules++;
	out->exact = t->exact;
	whatif_arches(elf);
	for (unsigned int s = 0; s < NR_COUNT_SLOTS; s++) {
		struct slot_walks w = { .nr = s % NR_SLOTS,
					.arch = elf[s / NR_SLOTS],
					.walks = t->walks[s],
					.exact = out->exact };

		if (out->exact) {
			while (m < end && m->slot < s)
				m++;
			w.m = m;
			while (m < end && m->slot == s)
				m++;
			w.m_end = m;
		}
		if (w.walks)
			cost_slot(rs, c, position, exit_rules, &w, out);
	}
	out->walks_ns += out->calls_ns;
	free(position);
	return 0;
}

void rule_costs_free(struct rule_costs *rc)
{
	free(rc->rule);
	rc->rule = NULL;
}
