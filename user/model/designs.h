/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Five ways to stop paying for walks no rule needs, priced on the same
 * recorded workload and rules:
 *
 * - the series under study: the OR of the exit rules' masks; a syscall
 *   whose bit is clear skips the walk (the context stays whole);
 * - the 2023 design (Cloudflare, "audit: check syscall bitmap on entry to
 *   avoid extra work", rejected): a count of exit-list rules per syscall
 *   number, watch rules included (they are added under the exit list's
 *   number); when every rule counted in audit_n_rules is such a rule and
 *   none names the syscall, the context is made dummy at entry, which saves
 *   the context's fixed cost as well as the walk;
 * - archperm, the exit form of patches/KVER-archperm: the series' mask
 *   kept per arch, with rules that name every syscall and have perm=
 *   narrowed to the syscalls their classes reach (whatif_masks.perm_mask);
 * - archperm-entry, its entry form: the same masks over watches and inode
 *   rules too (entry_mask) make a context dummy at entry where the 2023
 *   design's bitmap would, and what they leave the exit form skips;
 * - the never,exit prefix on a stock kernel (never_prefix.h): walks it
 *   ends stop at their first entry.
 *
 * (The 2021 design, per-syscall counts of exit rules, skips what the
 * series skips: it is the series' row.)
 */
#ifndef __DESIGNS_H
#define __DESIGNS_H

#include <stdbool.h>
#include "audit/kernel_rule.h"
#include "audit/ruleset.h"
#include "model/calibration.h"
#include "model/never_prefix.h"
#include "model/prediction.h"

enum design {
	DESIGN_SERIES,
	DESIGN_2023,
	DESIGN_ARCHPERM,
	DESIGN_ARCHPERM_ENTRY,
	DESIGN_PREFIX,
	NR_DESIGNS
};

/* "series", "2023", "archperm", "archperm-entry", "prefix": the names in JSON. */
extern const char *const design_names[NR_DESIGNS];
/* What each needs, and what it can change in the records, in words. */
extern const char *const design_needs[NR_DESIGNS];
extern const char *const design_records[NR_DESIGNS];

struct design_savings {
	/* Per slot (arch * NR_SLOTS + nr): the walks each design spares, and the ns saved. */
	__u64 *walks[NR_DESIGNS];
	double *ns[NR_DESIGNS];
	__u64 total_walks[NR_DESIGNS];
	double total_ns[NR_DESIGNS];
	/* Contexts made dummy at entry (2023, archperm-entry), and every walk of the workload. */
	__u64 total_contexts[NR_DESIGNS];
	__u64 all_walks;
	/* Why no context is made dummy here (a task or io_uring rule), NULL where one can be. */
	const char *not_2023;
	/* Why there is no prefix (never_prefix.refused), NULL where there is one. */
	const char *no_prefix;
};

/*
 * The designs on the walks `pr` predicts under `rs`, the prefix built
 * with classes `kc`. 0 or -ENOMEM; design_savings_free().
 */
int design_savings_make(const struct ruleset *rs, const struct prediction *pr,
			const struct kernel_classes *kc, const struct calibration *c,
			struct design_savings *out);
void design_savings_free(struct design_savings *d);

#endif /* __DESIGNS_H */
