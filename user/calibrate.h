/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What one visited exit-rule entry costs on this machine, measured by timing
 * getpid(2) with 0..N exit rules that cannot match it. auditskip multiplies
 * the entries its skippable walks visited by ns_per_entry to turn counts into
 * nanoseconds saved.
 */
#ifndef __CALIBRATE_H
#define __CALIBRATE_H

#include <stdbool.h>

#define CALIBRATION_SCHEMA 1
#define CALIBRATION_MAX_POINTS 16
/* Carried by every rule calibrate_run() adds, so a leftover is recognisable. */
#define CALIBRATION_KEY "auditskip-calibrate"

struct calibration_point {
	int rules;		/* exit rules loaded (0: dummy contexts) */
	double ns;		/* getpid latency: lowest of the passes' medians */
};

struct calibration {
	double ns_per_entry;	/* least-squares slope over the points with rules >= 1 */
	double ns_context;	/* fixed cost of a non-dummy context vs dummy, 0 if unknown */
	int rules_used;		/* most rules loaded while calibrating */
	char kernel[128];	/* uname -r */
	long long when;		/* Unix time */
	/* Extensions: the measurements the fit came from. */
	int npoints;
	struct calibration_point points[CALIBRATION_MAX_POINTS];
};

/*
 * Saves the whole rule list (raw AUDIT_LIST_RULES records), removes it, times
 * getpid in freshly forked children (pinned, SCHED_FIFO where allowed) at 0,
 * 1 and max_rules/4 steps of non-matching exit rules on openat, in 5 passes
 * keeping each point's lowest pass median, then puts the saved list back in
 * its order and verifies it record by record. Enables audit for the run if it was
 * off and restores the flag. Refuses to start when the list cannot be saved
 * (audit locked: enabled 2). SIGINT, SIGTERM and SIGHUP are held until the
 * rules are back. 0 or a negative errno; every failure is printed.
 */
int calibrate_run(int max_rules, bool verbose, struct calibration *out);
/* The same, timing on `cpu` (-1: the CPU the caller runs on). */
int calibrate_run_on_cpu(int max_rules, int cpu, bool verbose, struct calibration *out);

/* JSON via json-c, written to a temporary file and renamed. 0 or -errno. */
int calibration_save(const char *path, const struct calibration *c);
/* 0, -ENOENT (no file), -EINVAL (not a calibration), or another -errno. */
int calibration_load(const char *path, struct calibration *c);
/* /var/lib/auditskip/calibration.json */
const char *calibration_default_path(void);

/*
 * What one walk over `entries` rules that cannot match costs, and so what
 * skipping it saves: the measured latency curve at `entries` less its value
 * at zero entries (a non-dummy context with nothing to walk).
 */
double calibration_walk_ns(const struct calibration *c, double entries);

#endif /* __CALIBRATE_H */
