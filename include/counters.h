/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every per-syscall counter, defined once. Its name is the BPF field, the
 * JSON key and, where it has one, the metric (auditskip_NAME_total); the
 * label and help are what the text report and the metric's HELP say.
 *
 * X(name, kind, metric, label, help)
 *   kind:   COUNTER_BASE     every mode
 *           COUNTER_OUTCOME  modes that see whether a rule matched
 *           COUNTER_WHATIF   the sharper masks, exit list only
 *           COUNTER_WHATIF_OUTCOME  both of the above
 *           COUNTER_TIMING   --timing
 *   metric: METRIC_PER_SYSCALL, METRIC_TOTAL (no label), METRIC_NONE
 * In the BPF maps walks, skippable_arch_mask and skippable_perm_mask hold only
 * the walks the patch's mask would not skip; reading them adds skippable_walks.
 * skippable_entry_mask counts every walk of a syscall the entry form would
 * give a dummy context (one walk per context on the unpatched kernel).
 */
#ifndef __COUNTERS_H
#define __COUNTERS_H

#define SCAN_COUNTERS(X)                                                                            \
	X(walks, COUNTER_BASE, METRIC_PER_SYSCALL, "exit-filter walks",                             \
	  "Walks of audit's exit filter list in the counted scope.")                                \
	X(skippable_walks, COUNTER_BASE, METRIC_PER_SYSCALL, "skippable walks",                     \
	  "Walks whose syscall bit is clear in the aggregate exit-rule mask: the skip filter "      \
	  "would leave them out.")                                                                  \
	X(needless_rule_visits, COUNTER_BASE, METRIC_PER_SYSCALL, "needless rule visits",           \
	  "Rule entries the skippable walks visited (they match nothing, so they visit every "      \
	  "exit rule).")                                                                            \
	X(needless_despite_mask, COUNTER_OUTCOME, METRIC_NONE, "needless despite mask",             \
	  "Walks whose bit was set in the mask, yet no rule matched.")                              \
	X(missed_matches, COUNTER_OUTCOME, METRIC_TOTAL, "missed matches",                          \
	  "Walks in which a rule matched although the mask's bit was clear; must stay 0.")          \
	X(raced_matches, COUNTER_OUTCOME, METRIC_TOTAL, "raced matches",                            \
	  "Matches of a rule published while the walk ran (the mirror changed meanwhile).")         \
	X(skippable_arch_mask, COUNTER_WHATIF, METRIC_PER_SYSCALL, "skippable, arch masks",         \
	  "Walks one aggregate mask per arch would skip (beyond the patch).")                       \
	X(skippable_perm_mask, COUNTER_WHATIF, METRIC_PER_SYSCALL, "skippable, perm masks",         \
	  "Walks the per-arch masks with perm= rules narrowed to their syscalls would skip "        \
	  "(design archperm).")                                                                     \
	X(skippable_entry_mask, COUNTER_WHATIF, METRIC_PER_SYSCALL, "dummy, entry masks",           \
	  "Syscalls whose context the same masks over watches too would make dummy at entry "       \
	  "(design archperm-entry).")                                                               \
	X(missed_arch_mask, COUNTER_WHATIF_OUTCOME, METRIC_TOTAL, "missed, arch masks",             \
	  "Walks in which a rule matched although the per-arch mask's bit was clear; must stay 0.") \
	X(missed_perm_mask, COUNTER_WHATIF_OUTCOME, METRIC_TOTAL, "missed, perm masks",             \
	  "Walks in which a rule matched although the perm-narrowed mask's bit was clear; must "    \
	  "stay 0.")                                                                                \
	X(missed_entry_mask, COUNTER_WHATIF_OUTCOME, METRIC_TOTAL, "missed, entry masks",           \
	  "Walks in which a rule matched although the entry mask's bit was clear; must stay 0.")    \
	X(measured_walk_ns, COUNTER_TIMING, METRIC_NONE, "measured walk time, ns",                  \
	  "Nanoseconds the walks took between fentry and fexit, less one clock read.")              \
	X(measured_skippable_walk_ns, COUNTER_TIMING, METRIC_NONE,                                  \
	  "measured skippable walk time, ns", "The same for the skippable walks.")

enum counter_kind {
	COUNTER_BASE,
	COUNTER_OUTCOME,
	COUNTER_WHATIF,
	COUNTER_WHATIF_OUTCOME,
	COUNTER_TIMING,
};

enum counter_metric {
	METRIC_NONE,
	METRIC_PER_SYSCALL,
	METRIC_TOTAL
};

enum counter_id {
#define SCAN_COUNTER_ID(name, ...) COUNTER_ID_##name,
	SCAN_COUNTERS(SCAN_COUNTER_ID)
#undef SCAN_COUNTER_ID
	NR_COUNTERS
};

/* Per syscall (or io_uring op) slot, per CPU. */
struct scan_counts {
#define SCAN_COUNTER_FIELD(name, ...) __u64 name;
	SCAN_COUNTERS(SCAN_COUNTER_FIELD)
#undef SCAN_COUNTER_FIELD
};

#endif /* __COUNTERS_H */
