/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a rule set would cost on a recorded workload (profile.h), computed
 * without loading it: the walks audit would make, which of them the
 * patch's aggregate mask and the sharper what-if masks (whatif.h) would
 * skip, the rule entries the skippable ones visit, and how often each
 * exit rule's mask sends a walk into the full field check.
 */
#ifndef __PREDICTION_H
#define __PREDICTION_H

#include <stdbool.h>
#include "auditskip.h"
#include "model/calibration.h"
#include "model/profile.h"
#include "audit/ruleset.h"

struct prediction {
	/* Per slot (arch * NR_SLOTS + nr): walks, skippable_walks, needless_rule_visits,
	 * skippable_arch_mask, skippable_perm_mask; the others stay 0. */
	struct scan_counts slot[NR_COUNT_SLOTS];
	struct scan_counts total;
	size_t exit_rules;
	unsigned int mask_bits, native_arch_mask_bits, compat_arch_mask_bits;
	/* Per arch (ARCH_NATIVE, ARCH_COMPAT): the archperm designs' masks. */
	unsigned int perm_mask_bits[NR_ARCHES], entry_mask_bits[NR_ARCHES];
	/*
	 * Whether the profiled calls walk at all: a rule that counts in
	 * audit_n_rules makes contexts non-dummy, and an unconditional
	 * `never,task` rule leaves new tasks without a context.
	 */
	bool walks_at_all;
	bool task_never;	       /* an unconditional never,task rule */
	bool audit_disabled;	       /* the rules file ends with -e 0: audit stays off */
	size_t conditional_task_rules; /* task rules with fields: assumed to exempt no task */
	/*
	 * Per rule of the set (0 off the exit list): profiled calls whose bit is
	 * set in the rule's mask, any arch (audit_in_mask() tests the bit only;
	 * the arch field is one of the fields then checked), and of those the
	 * calls on the rule's own arch. A walk stops at the first rule that
	 * matches, so for rules after one that can match these are upper bounds.
	 */
	__u64 *field_checks;
	__u64 *field_checks_own_arch;
};

/*
 * kc: audit's classes as the running kernel holds them, or NULL for the
 * tables (what counting uses where kallsyms lacks `classes`). 0 or -ENOMEM.
 */
int prediction_make(const struct ruleset *rs, const struct profile *p,
		    const struct kernel_classes *kc, struct prediction *out);
void prediction_free(struct prediction *pr);
/* Time the skips would save on these walks, priced by the time model. */
double prediction_saved_ns(const struct prediction *pr, const struct calibration *c,
			   enum counter_id skipped);

#endif /* __PREDICTION_H */
