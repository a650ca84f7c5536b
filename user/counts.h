/* SPDX-License-Identifier: GPL-2.0 */
/* The per-CPU walk counters, summed and differenced. */
#ifndef __COUNTS_H
#define __COUNTS_H

#include "auditskip.h"

struct counts_snapshot {
	struct scan_counts slot[NR_SLOTS];
	struct scan_counts total;
};

/* Walks of both lists __audit_filter_op() serves for syscalls and io_uring. */
struct walk_counts {
	struct counts_snapshot exit;
	struct counts_snapshot uring;	/* io_uring ops; filter-op mode only */
};

/* Sums every CPU's counters of a per-CPU counts map; 0 or a negative errno. */
int counts_read(int map_fd, struct counts_snapshot *s);
/* d = now - then, slot by slot. */
void walks_subtract(struct walk_counts *d, const struct walk_counts *now,
		    const struct walk_counts *then);

/* --per-comm: one process name's walks, summed over CPUs. */
struct comm_row {
	char comm[COMM_LEN];
	struct comm_counts c;
};

/* Every name in the comms map, most skippable walks first; 0 or -errno. */
int comms_read(int map_fd, struct comm_row **rows, size_t *n);

#endif /* __COUNTS_H */
