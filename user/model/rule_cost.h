/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where a workload's exit walks spend their time, rule by rule: each exit
 * rule's visits (walks that reached its entry), evaluations (visits whose
 * mask had the syscall's bit, so its fields ran), matches, and what they
 * cost, priced with the calibration (visits on its curve, evaluations by
 * field kind, eval_price.h). Exact where it is known at which rule each
 * walk stopped (outcome modes with --per-rule); else a walk is taken to
 * reach every rule up to one that passes for sure, so behind a rule that
 * can match at run time the counts are upper bounds.
 */
#ifndef __RULE_COST_H
#define __RULE_COST_H

#include <stdbool.h>
#include "audit/ruleset.h"
#include "model/calibration.h"

struct rule_cost {
	__u64 visits, evaluations, matches;
	double ns; /* its share of the visits' time, and its evaluations */
};

/* Walks of slot `slot` (arch * NR_SLOTS + nr) that rule `rule` of the set matched. */
struct rule_match_count {
	__u32 slot;
	size_t rule;
	__u64 walks;
};

/* The walks to cost: per slot, and where known, the rule each match stopped at. */
struct walk_tally {
	const __u64 *walks;			/* NR_COUNT_SLOTS */
	bool exact;				/* the rule each match stopped at is known: */
	const struct rule_match_count *matches; /* by slot, then rule */
	size_t nmatches;
};

struct rule_costs {
	struct rule_cost *rule; /* per rule of the set, in its order (zero off the exit list) */
	double walks_ns;	/* every walk: the rules' costs and the walk's own call */
	double calls_ns;	/* of that, the call each walk makes (ns_walk_call) */
	bool exact;		/* from the matches, not bounds */
};

/* 0 or -ENOMEM; rule_costs_free() releases it. */
int rule_costs_make(const struct ruleset *rs, const struct walk_tally *t,
		    const struct calibration *c, struct rule_costs *out);
void rule_costs_free(struct rule_costs *rc);

#endif /* __RULE_COST_H */
