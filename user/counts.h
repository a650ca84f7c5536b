/* SPDX-License-Identifier: GPL-2.0 */
/* The per-CPU walk counters, summed and differenced. */
#ifndef __COUNTS_H
#define __COUNTS_H

#include "auditskip.h"

/* Slots by arch and number (arch * NR_SLOTS + nr); io_uring ops use the first NR_SLOTS. */
struct counts_snapshot {
	struct scan_counts slot[NR_COUNT_SLOTS];
	struct scan_counts total;
};

/* Walks of both lists __audit_filter_op() serves for syscalls and io_uring. */
struct walk_counts {
	struct counts_snapshot exit;
	struct counts_snapshot uring; /* io_uring ops; filter-op mode only */
};

/* Sums every CPU's counters of the first `slots` of a per-CPU counts map; 0 or -errno. */
int counts_read(int map_fd, __u32 slots, struct counts_snapshot *s);
/* SCAN_COUNTERS as a table, for the report and the metrics. */
struct counter_info {
	const char *name; /* field, JSON key, metric auditskip_NAME_total */
	enum counter_kind kind;
	enum counter_metric metric;
	const char *label; /* text report */
	const char *help;
};
extern const struct counter_info counters[NR_COUNTERS];
__u64 counter_value(const struct scan_counts *c, enum counter_id id);
/* d = now - then, slot by slot. */
void walks_subtract(struct walk_counts *d, const struct walk_counts *now,
		    const struct walk_counts *then);

/* --timing: each exit-list slot's walk-time histogram, summed over CPUs. */
typedef struct hist_value slot_hist[HIST_BUCKETS];

/* Fills hist[NR_COUNT_SLOTS] from the walk_hist map; 0 or -errno. */
int hist_read(int map_fd, slot_hist *hist);

/* --per-comm: one process name's walks, summed over CPUs. */
struct comm_row {
	char comm[COMM_LEN];
	struct comm_counts c;
};

/* Every name in the comms map, most skippable walks first; 0 or -errno. */
int comms_read(int map_fd, struct comm_row **rows, size_t *n);

#endif /* __COUNTS_H */
