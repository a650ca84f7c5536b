/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the fast path would have saved, from the time model: one estimate
 * that the reports and the metrics all show.
 */
#ifndef __TIME_SAVED_H
#define __TIME_SAVED_H

#include "model/calibration.h"
#include "model/counts.h"

/* One slot's skippable walks times what one walk over their mean list length costs. */
double time_saved_slot_ns(const struct calibration *c, const struct scan_counts *slot);
/* The same over every slot of a snapshot. */
double time_saved_ns(const struct calibration *c, const struct counts_snapshot *s);
/*
 * What a sharper mask (skipped: COUNTER_ID_skippable_arch_mask or _perm_mask)
 * would save: the patch's own saving, and each walk it skips beyond the patch
 * at the price of visiting all `exit_rules` (a safe mask skips only walks that
 * match nothing, and those visit every rule).
 */
double time_saved_mask_ns(const struct calibration *c, const struct counts_snapshot *s,
			  enum counter_id skipped, unsigned int exit_rules);
/* `ns` saved over `seconds` as a share of `ncpus` CPUs' time; 0 without time. */
double time_saved_cpu_share(double ns, double seconds, int ncpus);
/* What `syscalls` stale contexts cost: the fixed price of a non-dummy context each. */
double time_stale_cost_ns(const struct calibration *c, __u64 syscalls);

#endif /* __TIME_SAVED_H */
