// SPDX-License-Identifier: GPL-2.0
/*
 * Calibration: nanoseconds per visited exit-rule entry on this machine.
 *
 * audit_filter_syscall() (inlined into __audit_filter_op() on recent
 * kernels) visits every entry of the exit list for a syscall no rule names,
 * testing one bit of each rule's mask. Timing getpid(2) with 1..N rules that
 * all name openat therefore measures exactly that per-entry cost, and the
 * jump from 0 rules (dummy context, no filtering at all) to 1 rule is the
 * fixed price of a non-dummy context. Rules that name getpid but cannot
 * match it then price what an entry whose bit is set adds: the evaluation
 * of its fields (calibrate_evals.c).
 *
 * The machine's own rules are taken off for the measurement and put back in
 * their order afterwards, so the list must be saved first: with audit locked
 * (enabled 2) nothing is touched.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <sys/utsname.h>
#include "live/calibrate.h"
#include "live/calibrate_internal.h"

/* The calibration from the points; -EAGAIN (with `out` filled) if no cost showed. */
static int summarise(const struct calibration_point *pts, int npts, double empty_walk_ns,
		     int max_rules, struct calibration *out)
{
	struct utsname u;

	memset(out, 0, sizeof(*out));
	out->ns_per_entry = calibration_fit_slope(pts, npts);
	out->ns_empty_walk = empty_walk_ns;
	out->ns_context = empty_walk_ns - pts[0].ns;
	if (out->ns_context < 0)
		out->ns_context = 0;
	out->rules_used = max_rules;
	uname(&u);
	snprintf(out->kernel, sizeof(out->kernel), "%s", u.release);
	out->when = time(NULL);
	out->npoints = npts;
	memcpy(out->points, pts, npts * sizeof(pts[0]));
	if (out->ns_per_entry <= 0)
		fprintf(stderr,
			"calibrate: no positive per-entry cost measured (slope %.3f ns): "
			"the machine is too noisy, try again\n",
			out->ns_per_entry);
	if (out->ns_context == 0)
		fprintf(stderr,
			"calibrate: note: an empty exit walk cost no more than no rules, so "
			"contexts were not dummy without rules (stale audit_n_rules after an "
			"automatically removed watch or tree?) or the machine is noisy; "
			"ns_context is unknown (0)\n");
	return out->ns_per_entry > 0 ? 0 : -EAGAIN;
}

/*
 * The walk's call is part of a non-dummy context's cost: timed above it,
 * one of the two is noise (TCG's clock steps), and the time model would
 * price the skip with it. -EAGAIN, as for a slope noise turned negative.
 */
static int walk_call_within_context(const struct calibration *c)
{
	if (!c->walk_call_timed || c->ns_context <= 0 || c->ns_walk_call < c->ns_context)
		return 0;
	fprintf(stderr,
		"calibrate: the walk's call timed at %.1f ns, more than a whole non-dummy context "
		"(%.1f ns): the machine is too noisy, try again\n",
		c->ns_walk_call, c->ns_context);
	return -EAGAIN;
}

int calibrate_run_on_cpu(int max_rules, int cpu, bool verbose, struct calibration *out)
{
	struct calib_run r = { .fd = -1, .verbose = verbose };
	struct calibration_point pts[CALIBRATION_MAX_POINTS];
	int counts[CALIBRATION_MAX_POINTS], npts, nmeasured = 0, err, ret;
	double empty_walk_ns = 0;

	if (max_rules < 1 || max_rules > 10000) {
		fprintf(stderr, "calibrate: max_rules must be 1..10000, not %d\n", max_rules);
		return -EINVAL;
	}
	err = calib_open_audit(&r);
	if (!err)
		err = calib_save_rules(&r);
	if (err) {
		calib_run_free(&r);
		return err;
	}
	calib_catch_signals(&r);
	err = calib_take_policy_off(&r);
	if (!err) {
		npts = calib_rule_counts(max_rules, counts);
		r.cpu = cpu < 0 ? sched_getcpu() : cpu;
		r.rt = calib_probe_rt(verbose);
		err = calib_measure(&r, counts, npts, pts, &nmeasured, &empty_walk_ns);
		if (!err)
			err = summarise(pts, nmeasured, empty_walk_ns, max_rules, out);
		if (!err)
			err = calib_measure_evaluations(&r, max_rules, out);
		if (!err || err == -EAGAIN)
			out->walk_call_timed = calib_measure_walk_call(&r, &out->ns_walk_call);
		if (!err)
			err = walk_call_within_context(out);
		if (!err)
			err = calib_measure_counting(&r, out);
		if (!err)
			err = calib_check_undisturbed(r.fd, calib_rules_in_list(&r));
	}
	ret = calib_put_policy_back(&r);
	calib_release_signals(&r);
	if (err == -EINTR)
		fprintf(stderr, "calibrate: stopped by %s before the end: nothing saved; %s\n",
			strsignal(calib_stopped()),
			ret ? "the rules could NOT all be put back (see above)" :
			      "the rule list and audit's enabled flag are as they were");
	calib_run_free(&r);
	return err ?: ret;
}
