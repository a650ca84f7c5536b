/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Two rule sets costed on the same walks (rule_cost.h), rule by rule. A
 * rule is the same in both when it reads the same as the kernel lists it
 * (`-w /etc/passwd -p wa` and `-a always,exit -F path=/etc/passwd -F
 * perm=wa` are one rule); its cost may still differ with its place in the
 * list and the walks that reach it.
 */
#ifndef __RULE_COMPARE_H
#define __RULE_COMPARE_H

#include "audit/ruleset.h"
#include "model/rule_cost.h"

struct rule_pair {
	const struct audit_rule *a, *b; /* NULL where that set lacks the rule */
	double ns_a, ns_b;
	size_t place; /* A's rules in order, then B's own */
};

struct rule_comparison {
	struct rule_pair *pair; /* largest difference first, then in A's order, then B's */
	size_t n;
};

/* 0 or -ENOMEM; rule_comparison_free() releases it. */
int rule_compare_make(const struct ruleset *a, const struct rule_costs *ca, const struct ruleset *b,
		      const struct rule_costs *cb, struct rule_comparison *out);
void rule_comparison_free(struct rule_comparison *c);

#endif /* __RULE_COMPARE_H */
