/* SPDX-License-Identifier: GPL-2.0 */
/* Text and JSON reports. */
#ifndef __REPORT_H
#define __REPORT_H

#include <stdbool.h>
#include <stdio.h>
#include "auditskip.h"
#include "live/calibrate.h"
#include "model/counts.h"
#include "model/resync.h"
#include "audit/ruleset.h"
#include "model/stale.h"

/* How a run counts and reports: set once, before the first report. */
struct report_settings {
	FILE *out;
	bool json;
	int top;
	const char *kernel;
	const char *mode;
	const char *blind; /* what the mode cannot see */
	const char *mirror_how;
	const char *scope;		 /* whole machine, pid N, or the command */
	bool outcomes;			 /* the mode sees whether a rule matched */
	bool uring;			 /* the mode sees io_uring walks */
	int comm_top;			 /* --per-comm: how many names to show, 0: off */
	bool timing;			 /* --timing: walk times measured */
	const struct calibration *calib; /* time model; never NULL */
	const char *calib_from;		 /* the file it came from, NULL: the default */
	int ncpus;			 /* for the CPU share of the time saved */
	bool infers_exit_walks;		 /* tracepoint mode: exit walks judged at entry */
};

/* What every sync refreshes from the kernel and the BPF side. */
struct report_state {
	const struct ruleset *rules; /* from netlink, for names and keys */
	struct mask_mirror mirror;   /* as the BPF side classifies now */
	__u64 missed_total;
	__u64 lost_descendants; /* `-- COMMAND` descendants the tracked map had no room for */
	struct missed_match missed[MISSED_LOG];
	struct stale_report stale;
	const struct comm_row *comms; /* --per-comm: most skippable first */
	size_t ncomms;
	__u64 comms_lost; /* walks of names the map had no room for */
	__u64 clock_ns;	  /* --timing: the clock read's cost taken off each walk */
	__u64 exit_walks_inferred;
	__u64 uring_enter_walks;
	__u64 walks_switched_out;    /* outcome modes: matched or timed walks not paired */
	const slot_hist *hist;	     /* --timing: walk-time histograms by slot, else NULL */
	const char *perm_classes;    /* where the perm-narrowed mask's classes come from */
	const struct resync *resync; /* when the rules were listed, and why */
	const __u64 *notifications;  /* AUDIT_CONFIG_CHANGE records heard */
};

struct report_ctx {
	struct report_settings cfg;
	struct report_state live;
};

/*
 * Without a calibration: 2.8 ns per visited entry, the slope between 128 and
 * 256 rules in the patch series' cover letter ((791 - 428) / 128).
 */
#define DEFAULT_NS_PER_ENTRY 2.8

void report_start(const struct report_ctx *r);
void report_interval(const struct report_ctx *r, const struct walk_counts *delta, double seconds);
/* command_status: the command's exit status, or -1 without a command. */
void report_summary(const struct report_ctx *r, const struct walk_counts *total, double seconds,
		    int command_status);
/* Estimated nanoseconds the fast path would have saved over these walks. */
double report_saved_ns(const struct report_ctx *r, const struct counts_snapshot *s);
/* `auditskip rules` */
void report_rules(FILE *out, const struct ruleset *rs, bool json);

#endif /* __REPORT_H */
