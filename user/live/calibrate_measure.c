// SPDX-License-Identifier: GPL-2.0
/*
 * The calibration's measurements: getpid latency at each rule count, in
 * passes up and down the counts, each point keeping its lowest pass; and
 * the call that walks an empty exit list, timed with fentry.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "live/calibrate_internal.h"
#include "live/calltime.h"

/*
 * Up, down, up... through the rule counts (CALIB_PASSES). Each point keeps
 * the lowest of its pass medians: disturbances (another task's syscall
 * tracer, a noisy neighbour) only ever add time, and rarely hit the same
 * point in every pass.
 */

/* 0, 1, then max/4 steps: 0 1 16 32 48 64 for 64. */
/* A point of the sequence, not a rule count: one never-matching task rule only. */
#define EMPTY_WALK (-1)

/* The points measured: 0, EMPTY_WALK, 1, then up to max_rules in quarters. */
int calib_rule_counts(int max_rules, int *counts)
{
	int n = 0, step = max_rules / 4;

	counts[n++] = 0;
	counts[n++] = EMPTY_WALK;
	counts[n++] = 1;
	if (step < 1)
		step = 1;
	for (int r = step; r <= max_rules && n < CALIBRATION_MAX_POINTS; r += step)
		if (r > 1)
			counts[n++] = r;
	if (counts[n - 1] != max_rules && max_rules > 1 && n < CALIBRATION_MAX_POINTS)
		counts[n++] = max_rules;
	return n;
}

/* getpid latency with `rules` calibration rules loaded (EMPTY_WALK: the task rule), in one pass. */
static int measure_point(struct calib_run *r, int rules, int pass, double *ns)
{
	int err = calib_empty_walk_set(r, rules == EMPTY_WALK);

	if (!err)
		err = calib_rules_set(r->fd, &r->loaded, rules == EMPTY_WALK ? 0 : rules);
	if (err)
		return err;
	err = calib_time_getpid(r, ns);
	if (err) {
		fprintf(stderr, "calibrate: timing child failed: %s\n", strerror(-err));
		return err;
	}
	err = calib_check_undisturbed(r->fd, calib_rules_in_list(r));
	if (err)
		return err;
	if (!r->verbose)
		return 0;
	if (rules == EMPTY_WALK)
		fprintf(stderr, "calibrate: pass %d, empty exit list: %.1f ns\n", pass + 1, *ns);
	else
		fprintf(stderr, "calibrate: pass %d, %3d rules: %.1f ns\n", pass + 1, rules, *ns);
	return 0;
}

/*
 * Every point in every pass; each point keeps its lowest pass median. The
 * rule-count points go to pts (*nout of them), the empty walk's apart.
 */
int calib_measure(struct calib_run *r, const int *counts, int npts, struct calibration_point *pts,
		  int *nout, double *empty_walk_ns)
{
	double samples[CALIBRATION_MAX_POINTS][CALIB_PASSES];
	int err;

	for (int pass = 0; pass < CALIB_PASSES; pass++) {
		for (int k = 0; k < npts; k++) {
			int i = pass % 2 ? npts - 1 - k : k;

			if (calib_stopped())
				return -EINTR;
			err = measure_point(r, counts[i], pass, &samples[i][pass]);
			if (err)
				return err;
		}
	}
	*empty_walk_ns = 0;
	*nout = 0;
	for (int i = 0; i < npts; i++) {
		double best = samples[i][0];

		for (int pass = 1; pass < CALIB_PASSES; pass++)
			if (samples[i][pass] < best)
				best = samples[i][pass];
		if (counts[i] == EMPTY_WALK) {
			*empty_walk_ns = best;
			continue;
		}
		pts[*nout].rules = counts[i];
		pts[*nout].ns = best;
		(*nout)++;
	}
	return 0;
}

/*
 * Work for calltime_bodies_ns(): getpid calls in a child forked with audit
 * on (a non-dummy context).
 */
static void getpid_in_child(void *unused)
{
	pid_t pid = fork();

	(void)unused;
	if (pid == 0) {
		for (int i = 0; i < 20000; i++)
			syscall(SYS_getpid);
		_exit(0);
	}
	if (pid > 0)
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
}

/*
 * What the latency curve cannot show: the call the patch skips, with an
 * empty exit list. audit_filter_syscall() where the kernel has it (6.1),
 * otherwise the two calls it was inlined into: auditd_test_task() and
 * __audit_filter_op(). False when fentry cannot time them here (the reason
 * said with -v).
 */
bool calib_measure_walk_call(struct calib_run *r, double *ns)
{
	static const char *const whole[] = { "audit_filter_syscall" };
	static const char *const parts[] = { "auditd_test_task", "__audit_filter_op" };
	int err;

	err = calib_empty_walk_set(r, true) ?: calib_rules_set(r->fd, &r->loaded, 0);
	if (err)
		return false;
	err = calltime_bodies_ns(whole, 1, getpid_in_child, NULL, ns);
	if (err == -ENOENT)
		err = calltime_bodies_ns(parts, 2, getpid_in_child, NULL, ns);
	if (err) {
		if (r->verbose)
			fprintf(stderr,
				"calibrate: the walk's call is not timed here (%s): predictions "
				"leave its cost out\n",
				strerror(-err));
		return false;
	}
	if (r->verbose)
		fprintf(stderr, "calibrate: the call that walks an empty exit list: %.1f ns\n",
			*ns);
	return true;
}
