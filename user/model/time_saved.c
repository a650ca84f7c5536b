// SPDX-License-Identifier: GPL-2.0
#include "model/time_saved.h"

double time_saved_slot_ns(const struct calibration *c, const struct scan_counts *slot)
{
	if (!slot->skippable_walks)
		return 0;
	return slot->skippable_walks *
	       calibration_walk_ns(c, (double)slot->needless_rule_visits / slot->skippable_walks);
}

double time_saved_ns(const struct calibration *c, const struct counts_snapshot *s)
{
	double ns = 0;

	for (unsigned int i = 0; i < NR_COUNT_SLOTS; i++)
		ns += time_saved_slot_ns(c, &s->slot[i]);
	return ns;
}

double time_saved_mask_ns(const struct calibration *c, const struct counts_snapshot *s,
			  enum counter_id skipped, unsigned int exit_rules)
{
	__u64 skips = counter_value(&s->total, skipped);
	__u64 beyond = skips > s->total.skippable_walks ? skips - s->total.skippable_walks : 0;

	return time_saved_ns(c, s) + beyond * calibration_walk_ns(c, exit_rules);
}

double time_saved_cpu_share(double ns, double seconds, int ncpus)
{
	return seconds > 0 ? ns / (seconds * 1e9 * ncpus) : 0;
}

double time_stale_cost_ns(const struct calibration *c, __u64 syscalls)
{
	return syscalls * c->ns_context;
}
