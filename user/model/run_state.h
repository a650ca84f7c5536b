/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A counting run's state: how it counts, set once before the first report,
 * and what every sync refreshes from the kernel and the BPF side. The
 * session fills it; the text and JSON reports, the metrics page and its
 * textfile read it.
 */
#ifndef __RUN_STATE_H
#define __RUN_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include "auditskip.h"
#include "audit/ruleset.h"
#include "model/calibration.h"
#include "model/counts.h"
#include "model/designs.h"
#include "model/duty.h"
#include "model/resync.h"
#include "model/run_counters.h"
#include "model/rule_cost.h"
#include "model/shadowing.h"
#include "model/stale.h"

/* --per-rule: the most rules a run shows and exports (a bounded label set). */
#define MAX_RULE_METRICS 100

/* How a run counts: set once, before the first report. */
/* run_settings.counting_price where the price is known. */
#define COUNTING_PRICE_CALIBRATED "calibrated"
#define COUNTING_PRICE_MEASURED "measured at start"

struct run_settings {
	const char *kernel;
	const char *mode;
	const char *blind; /* what the mode cannot see */
	const char *mirror_how;
	const char *scope;		 /* whole machine, pid N, or the command */
	bool outcomes;			 /* the mode sees whether a rule matched */
	bool uring;			 /* the mode sees io_uring walks */
	int comm_top;			 /* --per-comm: how many names to show, 0: off */
	int rule_top;			 /* --per-rule: how many rules to show and export, 0: off */
	bool timing;			 /* --timing: walk times measured */
	const struct calibration *calib; /* time model; never NULL */
	const char *calib_from;		 /* the file it came from, NULL: the default */
	/*
	 * What counting adds to a syscall here, NAN: unknown; and where the
	 * price came from: COUNTING_PRICE_CALIBRATED, COUNTING_PRICE_MEASURED
	 * (by the run, at its start), or why it is unknown.
	 */
	double counting_ns;
	const char *counting_price;
	int ncpus;		/* for the CPU share of the time saved */
	bool infers_exit_walks; /* tracepoint mode: exit walks judged at entry */
	bool counts_mirror_lag; /* a loader-kept mirror whose lag BPF can tell */
};

/* What every sync refreshes from the kernel and the BPF side. */
struct run_live {
	const struct ruleset *rules; /* from netlink, for names and keys */
	/* The rules of `rules` a never rule before them silences, NULL: not worked out. */
	const struct shadowing *shadowing;
	struct mask_mirror mirror; /* as the BPF side classifies now */
	__u64 missed_total;
	__u64 lost_descendants; /* `-- COMMAND` descendants the tracked map had no room for */
	struct missed_match missed[MISSED_LOG];
	struct stale_report stale;
	const struct comm_row *comms; /* --per-comm: most skippable first */
	size_t ncomms;
	__u64 comms_lost;		 /* walks of names the map had no room for */
	__u64 clock_ns;			 /* --timing: the clock read's cost taken off each walk */
	__u64 counters[NR_RUN_COUNTERS]; /* run_counters.h: what the mode counts unseen */
	const slot_hist *hist;		 /* --timing: walk-time histograms by slot, else NULL */
	const char *perm_classes;	 /* where the perm-narrowed mask's classes come from */
	const struct resync *resync;	 /* when the rules were listed, and why */
	const __u64 *notifications;	 /* AUDIT_CONFIG_CHANGE records heard */
	/*
	 * --per-rule: each exit rule of `rules` since the start, and why
	 * bounds if not exact; the designs compared on the walks so far.
	 */
	const struct rule_costs *rule_costs;
	const struct design_savings *designs;
	const char *rule_costs_bound;
	__u64 rule_matches_unplaced; /* matches of rules not on the list as listed */
	struct duty_view duty;	     /* the share of time counted, and the estimate for the run */
	double self_cpu_s; /* the loader's own CPU time so far, every thread (getrusage) */
};

struct run_state {
	struct run_settings cfg;
	struct run_live live;
};

#endif /* __RUN_STATE_H */
