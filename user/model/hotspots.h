/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `auditskip hotspots`: what a run measured (the BPF sums per syscall, the
 * trampolines' own cost) and the breakdown computed from it, with the
 * hooks' cost taken off each part.
 */
#ifndef __MODEL_HOTSPOTS_H
#define __MODEL_HOTSPOTS_H

#include <stdbool.h>
#include "hotspots_maps.h"

/* The parts a report shows: the timed ones made exclusive, and the rest. */
enum hs_shown {
	HS_SHOW_ENTRY,
	HS_SHOW_WALK,
	HS_SHOW_INODES,
	HS_SHOW_RECORDS,   /* audit_log_exit less the audit_log_start calls in it */
	HS_SHOW_LOG_START, /* audit_log_start on the CPU: buffer, time stamp */
	HS_SHOW_WAIT,	   /* audit_log_start off the CPU: a full backlog's wait, or preempted */
	HS_SHOW_OFF_CPU,   /* the rest of the exit path off the CPU (preempted) */
	HS_SHOW_REST,	   /* the exit path on the CPU less the four timed parts */
	HS_NR_SHOWN,
};

extern const char *const hs_shown_names[HS_NR_SHOWN];

struct hs_row {
	__u32 nr;
	struct hs_stats s;
};

struct hotspots_run {
	char kernel[128];
	bool part_timed[HS_NR_PARTS];
	char why_not[HS_NR_PARTS][160]; /* why a part is not timed here */
	const char *walk_func;		/* the walk's hook, NULL when none */
	double ref_gap_ns;		/* a pair's own share of the interval it times */
	double pair_ns;			/* what one hooked call adds to an interval around it */
	struct hs_row *rows;
	int nrows;
	bool alone_measured; /* the exit path timed once more, with nothing nested */
	__u64 alone_calls, alone_ns;
	__u64 lost_tasks;
	long lost_records; /* audit's lost counter's rise over the run, -1 unknown */
	double seconds;
	int command_status; /* -1: the whole machine */
};

/* One syscall's (or all syscalls') breakdown, ns per call. */
struct hs_breakdown {
	__u64 calls, filtered, records, exits, walks;
	double syscall_ns; /* the syscall's own time, hooks' cost taken off */
	double exit_ns;	   /* the whole exit path, on and off the CPU */
	double exit_on_ns; /* on the CPU: what the exit path timed alone is held to */
	double part_ns[HS_NR_SHOWN];
	bool shown_timed[HS_NR_SHOWN];
};

/* Row `i`'s breakdown; i == -1: all rows summed. */
void hotspots_breakdown(const struct hotspots_run *r, int i, struct hs_breakdown *b);
/* The exit path per call when timed alone, the hooks' own share taken off; <0 unknown. */
double hotspots_alone_ns(const struct hotspots_run *r);
/* Rows ordered by their whole exit path time, then the syscall's (the largest first). */
void hotspots_sort(struct hotspots_run *r);

#endif /* __MODEL_HOTSPOTS_H */
