/* SPDX-License-Identifier: GPL-2.0 */
/* The BPF side's per-CPU count maps, read into the model's sums. */
#ifndef __COUNTS_READ_H
#define __COUNTS_READ_H

#include "model/counts.h"
#include "model/duty.h"

/* Sums every CPU's counters of the first `slots` of a per-CPU counts map; 0 or -errno. */
int counts_read(int map_fd, __u32 slots, struct counts_snapshot *s);
/*
 * The same, and each CPU's walks and skippable walks into
 * cpus[0..libbpf_num_possible_cpus()) (their idle_s left as they are;
 * NULL: not wanted), from the one read; 0 or -errno.
 */
int counts_read_cpus(int map_fd, __u32 slots, struct counts_snapshot *s,
		     struct duty_cpu_edge *cpus);
/* Fills hist[NR_COUNT_SLOTS] from the walk_hist map; 0 or -errno. */
int hist_read(int map_fd, slot_hist *hist);
/* Every name in the comms map, most skippable walks first; 0 or -errno. */
int comms_read(int map_fd, struct comm_row **rows, size_t *n);

#endif /* __COUNTS_READ_H */
