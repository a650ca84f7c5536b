/* SPDX-License-Identifier: GPL-2.0 */
/* The walk counters: summed over CPUs and differenced between reads. */
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

/* to += c, counter by counter. */
void counts_add(struct scan_counts *to, const struct scan_counts *c);
/* One slot's per-CPU counters (ncpu of them) added into s's slot k and total. */
void counts_add_slot(struct counts_snapshot *s, __u32 k, const struct count_slot *per_cpu,
		     int ncpu);
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

/* --per-comm: one process name's walks, summed over CPUs. */
struct comm_row {
	char comm[COMM_LEN];
	struct comm_counts c;
};

/* One name's per-CPU counts (ncpu of them) added into its row. */
void comm_row_add(struct comm_row *row, const char *key, const struct comm_counts *per_cpu,
		  int ncpu);
/* Most skippable walks first, then most walks. */
void comms_sort(struct comm_row *rows, size_t n);

#endif /* __COUNTS_H */
