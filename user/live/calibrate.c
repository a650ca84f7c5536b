// SPDX-License-Identifier: GPL-2.0
/*
 * Calibration: nanoseconds per visited exit-rule entry on this machine.
 *
 * audit_filter_syscall() (inlined into __audit_filter_op() on recent
 * kernels) visits every entry of the exit list for a syscall no rule names,
 * testing one bit of each rule's mask. Timing getpid(2) with 1..N rules that
 * all name openat therefore measures exactly that per-entry cost, and the
 * jump from 0 rules (dummy context, no filtering at all) to 1 rule is the
 * fixed price of a non-dummy context.
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
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <libaudit.h>
#include "audit/netlink.h"
#include "live/calibrate.h"
#include "live/calltime.h"
#include "live/getpid_timing.h"

/* Rules calibrate_run_on_cpu() adds match uid 4600001.., which no task has. */
#define CALIB_UID_BASE 4600000

/* Timing in the child: rounds of getpid calls, median ns per call. */
#define BENCH_ROUNDS 15
#define BENCH_WARMUP 2
#define BENCH_TARGET_NS 10e6 /* about 10 ms per round */
/*
 * Up, down, up... through the rule counts. Each point keeps the lowest of
 * its pass medians: disturbances (another task's syscall tracer, a noisy
 * neighbour) only ever add time, and rarely hit the same point in every pass.
 */
#define PASSES 5

/* ------------------------------------------------------- the rule list --- */

struct saved_rules {
	struct audit_rule_data **rec; /* copies of the records, in listing order */
	size_t *len;
	size_t n;
};

static void saved_rules_free(struct saved_rules *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->rec[i]);
	free(s->rec);
	free(s->len);
	memset(s, 0, sizeof(*s));
}

/* A record is kept whole: header plus string buffer, as it is sent back. */
static int saved_rules_push(const struct audit_rule_data *d, size_t listed, void *arg)
{
	size_t len = sizeof(*d) + d->buflen;
	struct saved_rules *s = arg;
	struct audit_rule_data **rec;
	size_t *lens;

	(void)listed;
	rec = realloc(s->rec, (s->n + 1) * sizeof(*rec));
	if (!rec)
		return -ENOMEM;
	s->rec = rec;
	lens = realloc(s->len, (s->n + 1) * sizeof(*lens));
	if (!lens)
		return -ENOMEM;
	s->len = lens;
	s->rec[s->n] = malloc(len);
	if (!s->rec[s->n])
		return -ENOMEM;
	memcpy(s->rec[s->n], d, len);
	s->len[s->n] = len;
	s->n++;
	return 0;
}

/* Every record of AUDIT_LIST_RULES, in the kernel's order. */
static int list_rules(int fd, struct saved_rules *out)
{
	int ret;

	memset(out, 0, sizeof(*out));
	ret = auditnl_list_rules(fd, saved_rules_push, out);
	if (ret)
		saved_rules_free(out);
	return ret;
}

static bool same_rules(const struct saved_rules *a, const struct saved_rules *b, size_t *first_diff)
{
	size_t i;

	for (i = 0; i < a->n && i < b->n; i++)
		if (a->len[i] != b->len[i] || memcmp(a->rec[i], b->rec[i], a->len[i]))
			break;
	*first_diff = i;
	return a->n == b->n && i == a->n;
}

static bool is_calib_rule(const struct audit_rule_data *d)
{
	return memmem(d->buf, d->buflen, CALIBRATION_KEY, strlen(CALIBRATION_KEY)) != NULL;
}

/* "-a always,LIST [-F arch=ARCH] -F uid=UID -k auditskip-calibrate" (arch 0: none) */
static struct audit_rule_data *uid_rule(unsigned int list, __u32 arch, __u32 uid)
{
	size_t keylen = strlen(CALIBRATION_KEY);
	struct audit_rule_data *d = calloc(1, sizeof(*d) + keylen);
	unsigned int f = 0;

	if (!d)
		return NULL;
	d->flags = list;
	d->action = AUDIT_ALWAYS;
	if (arch) {
		d->fields[f] = AUDIT_ARCH;
		d->values[f] = arch;
		d->fieldflags[f++] = AUDIT_EQUAL;
	}
	d->fields[f] = AUDIT_UID;
	d->values[f] = uid;
	d->fieldflags[f++] = AUDIT_EQUAL;
	d->fields[f] = AUDIT_FILTERKEY;
	d->values[f] = keylen;
	d->fieldflags[f++] = AUDIT_EQUAL;
	memcpy(d->buf, CALIBRATION_KEY, keylen);
	d->buflen = keylen;
	d->field_count = f;
	return d;
}

/* "-a always,exit -F arch=b64 -S openat -F uid=N -k auditskip-calibrate" */
static struct audit_rule_data *calib_rule(int i)
{
	struct audit_rule_data *d =
		uid_rule(AUDIT_FILTER_EXIT, audit_machine_to_elf(audit_detect_machine()),
			 CALIB_UID_BASE + i);
	int nr = SYS_openat;

	if (d)
		d->mask[nr / 32] |= 1U << (nr % 32);
	return d;
}

/*
 * "-a always,task -F uid=N -k auditskip-calibrate": counted in audit_n_rules,
 * so contexts are not dummy, but on the task list, which only fork filters
 * on: every syscall walks an empty exit list. It never matches, so forks
 * are not audited differently.
 */
static struct audit_rule_data *empty_walk_rule(void)
{
	return uid_rule(AUDIT_FILTER_TASK, 0, CALIB_UID_BASE);
}

static int change_rule(int fd, struct audit_rule_data *d, bool add)
{
	int ret;

	if (!d)
		return -ENOMEM;
	ret = add ? auditnl_add_rule(fd, d) : auditnl_delete_rule(fd, d);
	free(d);
	return ret;
}

static int add_calib_rule(int fd, int i)
{
	return change_rule(fd, calib_rule(i), true);
}

static int del_calib_rule(int fd, int i)
{
	return change_rule(fd, calib_rule(i), false);
}

/* Brings the number of calibration rules from *loaded to `want`. */
static int set_calib_rules(int fd, int *loaded, int want)
{
	int ret;

	while (*loaded < want) {
		ret = add_calib_rule(fd, *loaded + 1);
		if (ret) {
			fprintf(stderr, "calibrate: cannot add calibration rule %d: %s\n",
				*loaded + 1, strerror(-ret));
			return ret;
		}
		(*loaded)++;
	}
	while (*loaded > want) {
		ret = del_calib_rule(fd, *loaded);
		if (ret) {
			fprintf(stderr, "calibrate: cannot delete calibration rule %d: %s\n",
				*loaded, strerror(-ret));
			return ret;
		}
		(*loaded)--;
	}
	return 0;
}

/* The raw `enabled` value of AUDIT_GET: 0, 1 or 2 (locked). */
static int read_enabled(int fd, unsigned int *enabled)
{
	struct audit_status st;
	int ret = auditnl_get_status(fd, &st);

	if (!ret)
		*enabled = st.enabled;
	return ret;
}

/*
 * Someone else changing audit while we measure (a test suite, auditd
 * reloading rules) makes the numbers meaningless and the restore unsafe: the
 * list must hold exactly our `loaded` rules and audit must still be on.
 */
static int check_undisturbed(int fd, int loaded)
{
	struct saved_rules now;
	unsigned int enabled = 0;
	bool ours = true;
	int ret;

	ret = read_enabled(fd, &enabled);
	if (ret)
		return ret;
	ret = list_rules(fd, &now);
	if (ret)
		return ret;
	for (size_t i = 0; i < now.n; i++)
		if (!is_calib_rule(now.rec[i]))
			ours = false;
	if (enabled != 1 || !ours || now.n != (size_t)loaded) {
		fprintf(stderr,
			"calibrate: audit was changed by another process during "
			"calibration (enabled %u, %zu rules loaded, %d expected%s)\n",
			enabled, now.n, loaded, ours ? "" : ", some not ours");
		ret = -EBUSY;
	}
	saved_rules_free(&now);
	return ret;
}

/* -------------------------------------------------------------- timing --- */

/* The child's work: median ns of a getpid call, pinned to `cpu` and SCHED_FIFO if `rt`. */
static double child_median_getpid_ns(int cpu, bool rt)
{
	double v[BENCH_ROUNDS];
	long n;

	if (cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		sched_setaffinity(0, sizeof(set), &set);
	}
	/*
	 * Real-time priority where allowed: on a busy machine, rounds cut by
	 * preemption would swamp a few ns per entry. The kernel's RT throttling
	 * (sched_rt_runtime_us) still leaves other tasks 5%.
	 */
	if (rt) {
		struct sched_param sp = { .sched_priority = 1 };

		sched_setscheduler(0, SCHED_FIFO, &sp);
	}
	/* Size the rounds from a short probe so slow lists stay quick. */
	n = (long)(BENCH_TARGET_NS / getpid_round_ns(2000));
	if (n < 1000)
		n = 1000;
	for (int i = 0; i < BENCH_WARMUP; i++)
		getpid_round_ns(n);
	for (int i = 0; i < BENCH_ROUNDS; i++)
		v[i] = getpid_round_ns(n);
	sort_values(v, BENCH_ROUNDS);
	return percentile(v, BENCH_ROUNDS, 50);
}

/*
 * Median getpid latency in a child forked now: audit_alloc() gives a task
 * an audit context only if audit was enabled when it was forked, so the
 * calling process itself may well be unaudited.
 */
static int time_getpid_in_child(int cpu, bool rt, double *ns)
{
	int pipefd[2], status;
	ssize_t got;
	pid_t pid;

	if (pipe(pipefd))
		return -errno;
	pid = fork();
	if (pid < 0) {
		int err = -errno;

		close(pipefd[0]);
		close(pipefd[1]);
		return err;
	}
	if (pid == 0) {
		double result = child_median_getpid_ns(cpu, rt);

		_exit(write(pipefd[1], &result, sizeof(result)) == sizeof(result) ? 0 : 1);
	}
	close(pipefd[1]);
	do
		got = read(pipefd[0], ns, sizeof(*ns));
	while (got < 0 && errno == EINTR);
	close(pipefd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (got != sizeof(*ns) || !WIFEXITED(status) || WEXITSTATUS(status))
		return -EIO;
	return 0;
}

/* Whether the children may run SCHED_FIFO: tried once here, then undone. */
static bool probe_rt(bool verbose)
{
	struct sched_param sp = { .sched_priority = 1 };

	if (sched_setscheduler(0, SCHED_FIFO, &sp) == 0) {
		sp.sched_priority = 0;
		sched_setscheduler(0, SCHED_OTHER, &sp);
		return true;
	}
	if (verbose)
		fprintf(stderr,
			"calibrate: no real-time priority (%s): timing at normal priority\n",
			strerror(errno));
	return false;
}

/* 0, 1, then max/4 steps: 0 1 16 32 48 64 for 64. */
/* A point of the sequence, not a rule count: one never-matching task rule only. */
#define EMPTY_WALK (-1)

/* The points measured: 0, EMPTY_WALK, 1, then up to max_rules in quarters. */
static int rule_counts(int max_rules, int *counts)
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

/* ------------------------------------------------------------- the run --- */

struct calib_run {
	int fd; /* audit netlink socket */
	bool verbose;
	unsigned int enabled; /* audit's flag as found */
	bool enabled_by_us;
	struct saved_rules saved;
	bool *removed;		/* saved.rec[i] was taken off */
	int loaded;		/* calibration rules in the list now */
	bool empty_walk_loaded; /* and the empty-walk rule */
	int cpu;		/* where the children time */
	bool rt;		/* the children may run SCHED_FIFO */
	sigset_t old_mask;
};

static void run_free(struct calib_run *r)
{
	free(r->removed);
	saved_rules_free(&r->saved);
	auditnl_close(r->fd);
}

/* The socket and audit's flag; refuses a locked audit, whose rules cannot be put back. */
static int open_audit(struct calib_run *r)
{
	int ret;

	r->fd = auditnl_open();
	if (r->fd < 0) {
		fprintf(stderr, "calibrate: cannot open the audit netlink socket: %s\n",
			strerror(-r->fd));
		return r->fd;
	}
	ret = read_enabled(r->fd, &r->enabled);
	if (ret) {
		fprintf(stderr, "calibrate: cannot read audit status: %s\n", strerror(-ret));
		return ret;
	}
	if (r->enabled == 2) {
		fprintf(stderr,
			"calibrate: audit is locked (enabled 2): the rule list cannot be "
			"changed and restored, so nothing was touched\n");
		return -EPERM;
	}
	return 0;
}

/* A copy of the machine's rule list to put back; refuses if calibration rules are in it. */
static int save_rules(struct calib_run *r)
{
	int ret = list_rules(r->fd, &r->saved);

	if (ret) {
		fprintf(stderr, "calibrate: cannot save the rule list (%s): nothing was touched\n",
			strerror(-ret));
		return ret;
	}
	for (size_t i = 0; i < r->saved.n; i++) {
		if (is_calib_rule(r->saved.rec[i])) {
			fprintf(stderr,
				"calibrate: rules with key %s are loaded already (another "
				"calibration running, or left over?): nothing was touched\n",
				CALIBRATION_KEY);
			return -EBUSY;
		}
	}
	r->removed = calloc(r->saved.n + 1, sizeof(*r->removed));
	return r->removed ? 0 : -ENOMEM;
}

/* From here on the machine's policy is changed: no signal may cut it short. */
static void hold_signals(struct calib_run *r)
{
	sigset_t hold;

	sigemptyset(&hold);
	sigaddset(&hold, SIGINT);
	sigaddset(&hold, SIGTERM);
	sigaddset(&hold, SIGHUP);
	sigaddset(&hold, SIGQUIT);
	sigprocmask(SIG_BLOCK, &hold, &r->old_mask);
}

/* Audit on, the saved rules off (last first), each noted for the restore. */
static int take_policy_off(struct calib_run *r)
{
	int ret;

	if (r->verbose)
		fprintf(stderr, "calibrate: saved %zu rules, audit enabled %u\n", r->saved.n,
			r->enabled);
	if (!r->enabled) {
		ret = auditnl_set_enabled(r->fd, 1);
		if (ret) {
			fprintf(stderr, "calibrate: cannot enable audit: %s\n", strerror(-ret));
			return ret;
		}
		r->enabled_by_us = true;
	}
	for (size_t i = r->saved.n; i-- > 0;) {
		ret = auditnl_delete_rule(r->fd, r->saved.rec[i]);
		if (ret) {
			fprintf(stderr, "calibrate: cannot delete saved rule %zu: %s\n", i + 1,
				strerror(-ret));
			return ret;
		}
		r->removed[i] = true;
	}
	return 0;
}

static int set_empty_walk_rule(struct calib_run *r, bool want)
{
	int ret;

	if (r->empty_walk_loaded == want)
		return 0;
	ret = change_rule(r->fd, empty_walk_rule(), want);
	if (ret) {
		fprintf(stderr, "calibrate: cannot %s the empty-walk task rule: %s\n",
			want ? "add" : "delete", strerror(-ret));
		return ret;
	}
	r->empty_walk_loaded = want;
	return 0;
}

/* getpid latency with `rules` calibration rules loaded (EMPTY_WALK: the task rule), in one pass. */
static int measure_point(struct calib_run *r, int rules, int pass, double *ns)
{
	int err = set_empty_walk_rule(r, rules == EMPTY_WALK);

	if (!err)
		err = set_calib_rules(r->fd, &r->loaded, rules == EMPTY_WALK ? 0 : rules);
	if (err)
		return err;
	err = time_getpid_in_child(r->cpu, r->rt, ns);
	if (err) {
		fprintf(stderr, "calibrate: timing child failed: %s\n", strerror(-err));
		return err;
	}
	err = check_undisturbed(r->fd, r->loaded + r->empty_walk_loaded);
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
static int measure(struct calib_run *r, const int *counts, int npts, struct calibration_point *pts,
		   int *nout, double *empty_walk_ns)
{
	double samples[CALIBRATION_MAX_POINTS][PASSES];
	int err;

	for (int pass = 0; pass < PASSES; pass++) {
		for (int k = 0; k < npts; k++) {
			int i = pass % 2 ? npts - 1 - k : k;

			err = measure_point(r, counts[i], pass, &samples[i][pass]);
			if (err)
				return err;
		}
	}
	*empty_walk_ns = 0;
	*nout = 0;
	for (int i = 0; i < npts; i++) {
		double best = samples[i][0];

		for (int pass = 1; pass < PASSES; pass++)
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
static bool measure_walk_call(struct calib_run *r, double *ns)
{
	static const char *const whole[] = { "audit_filter_syscall" };
	static const char *const parts[] = { "auditd_test_task", "__audit_filter_op" };
	int err;

	err = set_empty_walk_rule(r, true) ?: set_calib_rules(r->fd, &r->loaded, 0);
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
 * Puts the saved list back: calibration rules off, saved records re-added in
 * listing order (the kernel cleared any prepend flag when it first added
 * them, so appending rebuilds each list's order), then compared record by
 * record with a fresh listing.
 */
static int restore_rules(struct calib_run *r)
{
	const struct saved_rules *saved = &r->saved;
	struct saved_rules now;
	int ret, err = 0;
	size_t diff;

	if (r->empty_walk_loaded) {
		ret = change_rule(r->fd, empty_walk_rule(), false);
		if (ret && ret != -ENOENT) {
			fprintf(stderr, "calibrate: cannot delete the empty-walk task rule: %s\n",
				strerror(-ret));
			err = ret;
		}
		r->empty_walk_loaded = false;
	}
	for (int i = r->loaded; i >= 1; i--) {
		ret = del_calib_rule(r->fd, i);
		if (ret && ret != -ENOENT) {
			fprintf(stderr, "calibrate: cannot delete calibration rule %d: %s\n", i,
				strerror(-ret));
			err = err ?: ret;
		}
	}
	r->loaded = 0;
	for (size_t i = 0; i < saved->n; i++) {
		if (!r->removed[i])
			continue;
		ret = auditnl_add_rule(r->fd, saved->rec[i]);
		if (ret) {
			fprintf(stderr, "calibrate: CANNOT RESTORE saved rule %zu of %zu: %s\n",
				i + 1, saved->n, strerror(-ret));
			err = err ?: ret;
		}
	}
	ret = list_rules(r->fd, &now);
	if (ret) {
		fprintf(stderr, "calibrate: cannot list rules to verify the restore: %s\n",
			strerror(-ret));
		return err ?: ret;
	}
	if (!same_rules(saved, &now, &diff)) {
		fprintf(stderr,
			"calibrate: RULES NOT RESTORED EXACTLY: %zu rules saved, %zu loaded now, "
			"first difference at rule %zu (compare `auditctl -l` with your rule files)\n",
			saved->n, now.n, diff + 1);
		err = err ?: -EIO;
	}
	saved_rules_free(&now);
	return err;
}

/* The rules as they were, then audit's flag as it was. */
static int put_policy_back(struct calib_run *r)
{
	int ret, err = restore_rules(r);

	if (!err && r->verbose)
		fprintf(stderr, "calibrate: %zu saved rules restored and verified\n", r->saved.n);
	if (r->enabled_by_us) {
		ret = auditnl_set_enabled(r->fd, 0);
		if (ret) {
			fprintf(stderr,
				"calibrate: CANNOT DISABLE AUDIT AGAIN: %s "
				"(run `auditctl -e 0`)\n",
				strerror(-ret));
			err = err ?: ret;
		}
	}
	return err;
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
	err = open_audit(&r);
	if (!err)
		err = save_rules(&r);
	if (err) {
		run_free(&r);
		return err;
	}
	hold_signals(&r);
	err = take_policy_off(&r);
	if (!err) {
		npts = rule_counts(max_rules, counts);
		r.cpu = cpu < 0 ? sched_getcpu() : cpu;
		r.rt = probe_rt(verbose);
		err = measure(&r, counts, npts, pts, &nmeasured, &empty_walk_ns);
		if (!err)
			err = summarise(pts, nmeasured, empty_walk_ns, max_rules, out);
		if (!err || err == -EAGAIN)
			out->walk_call_timed = measure_walk_call(&r, &out->ns_walk_call);
		if (!err)
			err = check_undisturbed(r.fd, r.loaded + r.empty_walk_loaded);
	}
	ret = put_policy_back(&r);
	sigprocmask(SIG_SETMASK, &r.old_mask, NULL);
	run_free(&r);
	return err ?: ret;
}
