/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the parts of the calibration run share (calibrate.h is the
 * interface): the run's state, and each part's steps. calibrate.c runs
 * them in order; calibrate_policy.c saves the machine's rules, takes them
 * off and puts them back exactly; calibrate_rules.c adds and deletes the
 * calibration's own rules; calibrate_measure.c measures the points;
 * calibrate_timing.c times getpid in a child.
 */
#ifndef __CALIBRATE_INTERNAL_H
#define __CALIBRATE_INTERNAL_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <libaudit.h>
#include "model/calibration.h"

/* Passes up and down the points; each point keeps its lowest pass median. */
#define CALIB_PASSES 5
/* Pairs of getpid rounds that price counting (counting_price.h). */
#define CALIB_PRICE_PAIRS 48
/* The calibration's rules match uid CALIB_UID_BASE + 1.., which no task has. */
#define CALIB_UID_BASE 4600000

/* The machine's rule list, as AUDIT_LIST_RULES gave it. */
struct saved_rules {
	struct audit_rule_data **rec; /* copies of the records, in listing order */
	size_t *len;
	size_t n;
};

/* One calibration run, from the saved policy to its restore. */
struct calib_run {
	int fd; /* audit netlink socket */
	bool verbose;
	unsigned int enabled; /* audit's flag as found */
	bool enabled_by_us;
	struct saved_rules saved;
	bool *removed;			 /* saved.rec[i] was taken off */
	int loaded;			 /* calibration rules in the list now */
	bool empty_walk_loaded;		 /* and the empty-walk rule */
	enum eval_kind eval_kind;	 /* the evaluation rules in the list now, */
	int eval_loaded;		 /* and how many */
	char scratch_dir[128];		 /* for the dir and exe kinds, "" when there is none */
	int cpu;			 /* where the children time */
	bool rt;			 /* the children may run SCHED_FIFO */
	struct sigaction old_actions[4]; /* of calib_signals[], while calibrate catches them */
};

/* calibrate_policy.c: the socket and audit's flag; refuses a locked audit. */
int calib_open_audit(struct calib_run *r);
/* A copy of the machine's rule list to put back; refuses if calibration rules are in it. */
int calib_save_rules(struct calib_run *r);
/*
 * From here on the machine's policy is changed: SIGINT, SIGTERM, SIGHUP and
 * SIGQUIT only ask the measurement to stop (calib_stopped()), so that the
 * policy is always put back; calib_release_signals() ends that.
 */
void calib_catch_signals(struct calib_run *r);
void calib_release_signals(struct calib_run *r);
/* The signal that asked the run to stop, 0: none. */
int calib_stopped(void);
/* Audit on, the saved rules off (last first), each noted for the restore. */
int calib_take_policy_off(struct calib_run *r);
/* -EBUSY, said, when the list holds anything but our `loaded` rules or audit is not on. */
int calib_check_undisturbed(int fd, int loaded);
/* The rules as they were, verified, then audit's flag as it was. */
int calib_put_policy_back(struct calib_run *r);
void calib_run_free(struct calib_run *r);

/*
 * calibrate_counting.c: what the best attach mode's counting programs add to
 * a getpid (out->counting_mode, out->ns_counting); left unmeasured, said
 * why, where no mode loads. 0 or -errno.
 */
int calib_measure_counting(struct calib_run *r, struct calibration *out);
/* calibrate_rules.c: whether a record is one of the calibration's rules. */
bool calib_rule_is_ours(const struct audit_rule_data *d);
/* Every calibration rule in the list now, by the run's own account. */
int calib_rules_in_list(const struct calib_run *r);
/* Brings the number of calibration rules from *loaded to `want`. */
int calib_rules_set(int fd, int *loaded, int want);
/* The empty-walk task rule added (want) or deleted, if it is not so already. */
int calib_empty_walk_set(struct calib_run *r, bool want);
/* Every rule the run added deleted (one already gone is no error); the first error. */
int calib_rules_remove(struct calib_run *r);

/* calibrate_evals.c: the keyless never rule of the match kind (no key to tell it by). */
bool calib_rule_is_eval_match(const struct audit_rule_data *d);
/*
 * ns per evaluation of each kind into c's ns_eval, from 32 rules (fewer if
 * max_rules is; one for EVAL_MATCH), priced against c's curve.
 */
int calib_measure_evaluations(struct calib_run *r, int max_rules, struct calibration *c);
/* The evaluation rules deleted (one already gone is no error), else the error. */
int calib_eval_rules_remove(struct calib_run *r);
/* The dir and exe kinds' directory removed, once no evaluation rule is left. */
int calib_scratch_dir_remove(struct calib_run *r);

/*
 * calibrate_timing.c: the median getpid latency, wall clock, in a child
 * forked now on the run's CPU (getpid_timing.h).
 */
int calib_time_getpid(const struct calib_run *r, double *ns);
/* Whether the children may run SCHED_FIFO. */
bool calib_probe_rt(bool verbose);

/* calibrate_measure.c: the points to measure for max_rules, into counts; their number. */
int calib_rule_counts(int max_rules, int *counts);
/* Every point in every pass, each keeping its lowest pass median. */
int calib_measure(struct calib_run *r, const int *counts, int npts, struct calibration_point *pts,
		  int *nout, double *empty_walk_ns);
/* The call the skip would save, timed with fentry where it can be; false where not. */
bool calib_measure_walk_call(struct calib_run *r, double *ns);

#endif /* __CALIBRATE_INTERNAL_H */
