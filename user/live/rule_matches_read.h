/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --per-rule: at which exit rule the matched walks stopped, read from the
 * BPF side (matches by priority, the list's priorities in order) and named
 * by the listed rule set.
 */
#ifndef __RULE_MATCHES_READ_H
#define __RULE_MATCHES_READ_H

#include <stdbool.h>
#include "audit/ruleset.h"
#include "model/rule_cost.h"

struct rule_match_reading {
	struct rule_match_count *matches; /* by slot, then rule */
	size_t n;
	bool placed;	/* the list's priorities fit the listed exit rules */
	__u64 unplaced; /* matches of a priority not on the list as listed */
};

/*
 * exit_rules: the entries the last rebuild walked (the mirror's count).
 * 0, or -errno; out is filled either way (empty on error).
 */
int rule_matches_read(int matches_fd, int prios_fd, __u32 exit_rules, const struct ruleset *rs,
		      struct rule_match_reading *out);
void rule_match_reading_free(struct rule_match_reading *r);

#endif /* __RULE_MATCHES_READ_H */
