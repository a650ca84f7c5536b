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
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <json-c/json.h>
#include <libaudit.h>
#include "calibrate.h"
#include "getpid_timing.h"

#define DEFAULT_PATH "/var/lib/auditskip/calibration.json"
/* Rules calibrate_run() adds match uid 4600001.., which no task has. */
#define CALIB_UID_BASE 4600000
#define REPLY_TIMEOUT_MS 2000

/* Timing in the child: rounds of getpid calls, median ns per call. */
#define BENCH_ROUNDS 15
#define BENCH_WARMUP 2
#define BENCH_TARGET_NS 10e6	/* about 10 ms per round */
/*
 * Up, down, up... through the rule counts. Each point keeps the lowest of
 * its pass medians: disturbances (another task's syscall tracer, a noisy
 * neighbour) only ever add time, and rarely hit the same point in every pass.
 */
#define PASSES 5

const char *calibration_default_path(void)
{
	return DEFAULT_PATH;
}

/* ------------------------------------------------------------ netlink --- */

/* The next reply, waiting at most REPLY_TIMEOUT_MS; 1, 0 on timeout, -errno. */
static int next_reply(int fd, struct audit_reply *rep)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int ret;

	for (;;) {
		ret = poll(&p, 1, REPLY_TIMEOUT_MS);
		if (ret < 0 && errno == EINTR)
			continue;
		if (ret < 0)
			return -errno;
		if (ret == 0)
			return 0;
		ret = audit_get_reply(fd, rep, GET_REPLY_NONBLOCKING, 0);
		if (ret > 0)
			return 1;
		if (ret < 0 && ret != -EAGAIN)
			return ret;
	}
}

/* The raw `enabled` value of AUDIT_GET: 0, 1 or 2 (locked). */
static int read_enabled(int fd, unsigned int *enabled)
{
	struct audit_reply rep;
	int ret;

	if (audit_request_status(fd) <= 0)
		return errno ? -errno : -EIO;
	for (int tries = 0; tries < 16; tries++) {
		ret = next_reply(fd, &rep);
		if (ret <= 0)
			return ret < 0 ? ret : -ETIMEDOUT;
		if (rep.type == NLMSG_ERROR && rep.error->error)
			return rep.error->error;
		if (rep.type == AUDIT_GET) {
			*enabled = rep.status->enabled;
			return 0;
		}
	}
	return -EIO;
}

struct saved_rules {
	struct audit_rule_data **rec;	/* copies of the records, in listing order */
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

static int saved_rules_push(struct saved_rules *s, const struct audit_rule_data *d, size_t len)
{
	struct audit_rule_data **rec;
	size_t *lens;

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

/*
 * Every record of AUDIT_LIST_RULES, in the kernel's order (list by list, each
 * in its filter order). A record is kept whole: header plus string buffer.
 */
static int list_rules(int fd, struct saved_rules *out)
{
	struct audit_reply rep;
	int ret;

	memset(out, 0, sizeof(*out));
	if (audit_request_rules_list_data(fd) <= 0)
		return errno ? -errno : -EIO;
	for (;;) {
		ret = next_reply(fd, &rep);
		if (ret == 0)
			ret = -ETIMEDOUT;
		if (ret < 0)
			goto fail;
		if (rep.type == NLMSG_DONE)
			return 0;
		if (rep.type == NLMSG_ERROR) {
			if (rep.error->error) {
				ret = rep.error->error;
				goto fail;
			}
			continue;	/* the request's acknowledgement */
		}
		if (rep.type != AUDIT_LIST_RULES)
			continue;
		if (rep.len < (int)sizeof(struct audit_rule_data) ||
		    sizeof(struct audit_rule_data) + rep.ruledata->buflen > (size_t)rep.len) {
			ret = -EPROTO;
			goto fail;
		}
		ret = saved_rules_push(out, rep.ruledata,
				       sizeof(struct audit_rule_data) + rep.ruledata->buflen);
		if (ret)
			goto fail;
	}
fail:
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

/* "-a always,exit -F arch=b64 -S openat -F uid=N -k auditskip-calibrate" */
static struct audit_rule_data *calib_rule(int i)
{
	size_t keylen = strlen(CALIBRATION_KEY);
	struct audit_rule_data *d = calloc(1, sizeof(*d) + keylen);
	int nr = SYS_openat;
	unsigned int f = 0;

	if (!d)
		return NULL;
	d->flags = AUDIT_FILTER_EXIT;
	d->action = AUDIT_ALWAYS;
	d->mask[nr / 32] |= 1U << (nr % 32);
	d->fields[f] = AUDIT_ARCH;
	d->values[f] = audit_machine_to_elf(audit_detect_machine());
	d->fieldflags[f++] = AUDIT_EQUAL;
	d->fields[f] = AUDIT_UID;
	d->values[f] = CALIB_UID_BASE + i;
	d->fieldflags[f++] = AUDIT_EQUAL;
	d->fields[f] = AUDIT_FILTERKEY;
	d->values[f] = keylen;
	d->fieldflags[f++] = AUDIT_EQUAL;
	memcpy(d->buf, CALIBRATION_KEY, keylen);
	d->buflen = keylen;
	d->field_count = f;
	return d;
}

static int add_calib_rule(int fd, int i)
{
	struct audit_rule_data *d = calib_rule(i);
	int ret;

	if (!d)
		return -ENOMEM;
	ret = audit_add_rule_data(fd, d, AUDIT_FILTER_EXIT, AUDIT_ALWAYS);
	free(d);
	return ret < 0 ? ret : 0;
}

static int del_calib_rule(int fd, int i)
{
	struct audit_rule_data *d = calib_rule(i);
	int ret;

	if (!d)
		return -ENOMEM;
	ret = audit_delete_rule_data(fd, d, AUDIT_FILTER_EXIT, AUDIT_ALWAYS);
	free(d);
	return ret < 0 ? ret : 0;
}

/* -------------------------------------------------------------- timing --- */

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
		double v[BENCH_ROUNDS], result;
		long n;

		close(pipefd[0]);
		if (cpu >= 0) {
			cpu_set_t set;

			CPU_ZERO(&set);
			CPU_SET(cpu, &set);
			sched_setaffinity(0, sizeof(set), &set);
		}
		/*
		 * Real-time priority where allowed: on a busy machine, rounds cut
		 * by preemption would swamp a few ns per entry. The kernel's RT
		 * throttling (sched_rt_runtime_us) still leaves other tasks 5%.
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
		result = percentile(v, BENCH_ROUNDS, 50);
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
		if (!memmem(now.rec[i]->buf, now.rec[i]->buflen, CALIBRATION_KEY,
			    strlen(CALIBRATION_KEY)))
			ours = false;
	if (enabled != 1 || !ours || now.n != (size_t)loaded) {
		fprintf(stderr, "calibrate: audit was changed by another process during "
				"calibration (enabled %u, %zu rules loaded, %d expected%s)\n",
			enabled, now.n, loaded, ours ? "" : ", some not ours");
		ret = -EBUSY;
	}
	saved_rules_free(&now);
	return ret;
}

/* Least-squares slope of ns over rules, points with rules >= 1 only. */
static double fit_slope(const struct calibration_point *p, int n)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0;
	int m = 0;

	for (int i = 0; i < n; i++) {
		if (p[i].rules < 1)
			continue;
		sx += p[i].rules;
		sy += p[i].ns;
		m++;
	}
	if (m < 2)
		return 0;
	sx /= m;
	sy /= m;
	for (int i = 0; i < n; i++) {
		if (p[i].rules < 1)
			continue;
		sxx += (p[i].rules - sx) * (p[i].rules - sx);
		sxy += (p[i].rules - sx) * (p[i].ns - sy);
	}
	return sxx > 0 ? sxy / sxx : 0;
}

/* ---------------------------------------------------------- the run --- */

/* 0, 1, then max/4 steps: 0 1 16 32 48 64 for 64. */
static int rule_counts(int max_rules, int *counts)
{
	int n = 0, step = max_rules / 4;

	counts[n++] = 0;
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

/*
 * Puts the saved list back: calibration rules off, saved records re-added in
 * listing order (the kernel cleared any prepend flag when it first added
 * them, so appending rebuilds each list's order), then compared record by
 * record with a fresh listing.
 */
static int restore_rules(int fd, int *loaded, const struct saved_rules *saved,
			 const bool *removed)
{
	struct saved_rules now;
	size_t diff;
	int ret, err = 0;

	for (int i = *loaded; i >= 1; i--) {
		ret = del_calib_rule(fd, i);
		if (ret && ret != -ENOENT) {
			fprintf(stderr, "calibrate: cannot delete calibration rule %d: %s\n", i,
				strerror(-ret));
			err = err ?: ret;
		}
	}
	*loaded = 0;
	for (size_t i = 0; i < saved->n; i++) {
		if (!removed[i])
			continue;
		ret = audit_add_rule_data(fd, saved->rec[i], saved->rec[i]->flags,
					  saved->rec[i]->action);
		if (ret < 0) {
			fprintf(stderr, "calibrate: CANNOT RESTORE saved rule %zu of %zu: %s\n",
				i + 1, saved->n, strerror(-ret));
			err = err ?: ret;
		}
	}
	ret = list_rules(fd, &now);
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

int calibrate_run(int max_rules, bool verbose, struct calibration *out)
{
	return calibrate_run_on_cpu(max_rules, -1, verbose, out);
}

int calibrate_run_on_cpu(int max_rules, int cpu, bool verbose, struct calibration *out)
{
	struct calibration_point pts[CALIBRATION_MAX_POINTS];
	double samples[CALIBRATION_MAX_POINTS][PASSES];
	int counts[CALIBRATION_MAX_POINTS], npts, fd, ret, err = 0, loaded = 0;
	struct saved_rules saved = { 0 };
	unsigned int enabled = 0;
	bool *removed = NULL, enabled_by_us = false, rt = false;
	sigset_t hold, old;
	struct utsname u;

	if (max_rules < 1 || max_rules > 10000) {
		fprintf(stderr, "calibrate: max_rules must be 1..10000, not %d\n", max_rules);
		return -EINVAL;
	}
	fd = audit_open();
	if (fd < 0) {
		err = -errno;
		fprintf(stderr, "calibrate: cannot open the audit netlink socket: %s\n",
			strerror(-err));
		return err;
	}
	ret = read_enabled(fd, &enabled);
	if (ret) {
		fprintf(stderr, "calibrate: cannot read audit status: %s\n", strerror(-ret));
		audit_close(fd);
		return ret;
	}
	if (enabled == 2) {
		fprintf(stderr, "calibrate: audit is locked (enabled 2): the rule list cannot be "
				"changed and restored, so nothing was touched\n");
		audit_close(fd);
		return -EPERM;
	}
	ret = list_rules(fd, &saved);
	if (ret) {
		fprintf(stderr, "calibrate: cannot save the rule list (%s): nothing was touched\n",
			strerror(-ret));
		audit_close(fd);
		return ret;
	}
	for (size_t i = 0; i < saved.n; i++) {
		if (saved.rec[i]->buflen >= strlen(CALIBRATION_KEY) &&
		    memmem(saved.rec[i]->buf, saved.rec[i]->buflen, CALIBRATION_KEY,
			   strlen(CALIBRATION_KEY))) {
			fprintf(stderr, "calibrate: rules with key %s are loaded already (another "
					"calibration running, or left over?): nothing was touched\n",
				CALIBRATION_KEY);
			saved_rules_free(&saved);
			audit_close(fd);
			return -EBUSY;
		}
	}
	removed = calloc(saved.n + 1, sizeof(*removed));
	if (!removed) {
		saved_rules_free(&saved);
		audit_close(fd);
		return -ENOMEM;
	}

	/* From here on the machine's policy is changed: no signal may cut it short. */
	sigemptyset(&hold);
	sigaddset(&hold, SIGINT);
	sigaddset(&hold, SIGTERM);
	sigaddset(&hold, SIGHUP);
	sigaddset(&hold, SIGQUIT);
	sigprocmask(SIG_BLOCK, &hold, &old);

	if (verbose)
		fprintf(stderr, "calibrate: saved %zu rules, audit enabled %u\n", saved.n, enabled);
	if (!enabled) {
		ret = audit_set_enabled(fd, 1);
		if (ret < 0) {
			fprintf(stderr, "calibrate: cannot enable audit: %s\n", strerror(-ret));
			err = ret;
			goto restore;
		}
		enabled_by_us = true;
	}
	for (size_t i = saved.n; i-- > 0;) {
		ret = audit_delete_rule_data(fd, saved.rec[i], saved.rec[i]->flags,
					     saved.rec[i]->action);
		if (ret < 0) {
			fprintf(stderr, "calibrate: cannot delete saved rule %zu: %s\n", i + 1,
				strerror(-ret));
			err = ret;
			goto restore;
		}
		removed[i] = true;
	}

	npts = rule_counts(max_rules, counts);
	if (cpu < 0)
		cpu = sched_getcpu();
	{
		struct sched_param sp = { .sched_priority = 1 };

		/* Probe once here so the child's attempt is known to succeed. */
		rt = sched_setscheduler(0, SCHED_FIFO, &sp) == 0;
		if (rt) {
			sp.sched_priority = 0;
			sched_setscheduler(0, SCHED_OTHER, &sp);
		} else if (verbose) {
			fprintf(stderr, "calibrate: no real-time priority (%s): timing at "
					"normal priority\n",
				strerror(errno));
		}
	}
	for (int pass = 0; pass < PASSES; pass++) {
		bool down = pass % 2;

		for (int k = 0; k < npts; k++) {
			int i = down ? npts - 1 - k : k;

			err = set_calib_rules(fd, &loaded, counts[i]);
			if (err)
				goto restore;
			err = time_getpid_in_child(cpu, rt, &samples[i][pass]);
			if (err) {
				fprintf(stderr, "calibrate: timing child failed: %s\n",
					strerror(-err));
				goto restore;
			}
			err = check_undisturbed(fd, loaded);
			if (err)
				goto restore;
			if (verbose)
				fprintf(stderr, "calibrate: pass %d, %3d rules: %.1f ns\n",
					pass + 1, counts[i], samples[i][pass]);
		}
	}
	for (int i = 0; i < npts; i++) {
		pts[i].rules = counts[i];
		pts[i].ns = samples[i][0];
		for (int pass = 1; pass < PASSES; pass++)
			if (samples[i][pass] < pts[i].ns)
				pts[i].ns = samples[i][pass];
	}

	memset(out, 0, sizeof(*out));
	out->ns_per_entry = fit_slope(pts, npts);
	out->ns_context = pts[1].ns - pts[0].ns - out->ns_per_entry;
	if (out->ns_context < 0)
		out->ns_context = 0;
	out->rules_used = max_rules;
	uname(&u);
	snprintf(out->kernel, sizeof(out->kernel), "%s", u.release);
	out->when = time(NULL);
	out->npoints = npts;
	memcpy(out->points, pts, npts * sizeof(pts[0]));
	if (out->ns_per_entry <= 0) {
		fprintf(stderr, "calibrate: no positive per-entry cost measured (slope %.3f ns): "
				"the machine is too noisy, try again\n",
			out->ns_per_entry);
		err = -EAGAIN;
	}
	if (out->ns_context == 0)
		fprintf(stderr, "calibrate: note: 0 rules cost as much as 1 rule, so contexts "
				"were not dummy without rules (stale audit_n_rules after an "
				"automatically removed watch or tree?) or the machine is noisy; "
				"ns_context is unknown (0)\n");

restore:
	ret = restore_rules(fd, &loaded, &saved, removed);
	if (ret) {
		err = err ?: ret;
	} else if (verbose) {
		fprintf(stderr, "calibrate: %zu saved rules restored and verified\n", saved.n);
	}
	if (enabled_by_us) {
		ret = audit_set_enabled(fd, 0);
		if (ret < 0) {
			fprintf(stderr, "calibrate: CANNOT DISABLE AUDIT AGAIN: %s "
					"(run `auditctl -e 0`)\n",
				strerror(-ret));
			err = err ?: ret;
		}
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	free(removed);
	saved_rules_free(&saved);
	audit_close(fd);
	return err;
}

/* --------------------------------------------------------------- file --- */

int calibration_save(const char *path, const struct calibration *c)
{
	struct json_object *o = json_object_new_object(), *pts = json_object_new_array();
	char tmp[4096], dir[4096], *slash;
	const char *text;
	int fd, err = 0;
	size_t len;

	if (!o || !pts) {
		json_object_put(o);
		json_object_put(pts);
		return -ENOMEM;
	}
	json_object_object_add(o, "schema", json_object_new_int(CALIBRATION_SCHEMA));
	json_object_object_add(o, "ns_per_entry", json_object_new_double(c->ns_per_entry));
	json_object_object_add(o, "ns_context", json_object_new_double(c->ns_context));
	json_object_object_add(o, "rules_used", json_object_new_int(c->rules_used));
	json_object_object_add(o, "kernel", json_object_new_string(c->kernel));
	json_object_object_add(o, "when", json_object_new_int64(c->when));
	for (int i = 0; i < c->npoints && i < CALIBRATION_MAX_POINTS; i++) {
		struct json_object *p = json_object_new_object();

		json_object_object_add(p, "rules", json_object_new_int(c->points[i].rules));
		json_object_object_add(p, "ns", json_object_new_double(c->points[i].ns));
		json_object_array_add(pts, p);
	}
	json_object_object_add(o, "points", pts);
	text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	len = strlen(text);

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = '\0';
		if (mkdir(dir, 0755) && errno != EEXIST) {
			err = -errno;
			goto out;
		}
	}
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp.%d", path, (int)getpid()) >= sizeof(tmp)) {
		err = -ENAMETOOLONG;
		goto out;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		err = -errno;
		goto out;
	}
	if (write(fd, text, len) != (ssize_t)len || write(fd, "\n", 1) != 1 || fsync(fd)) {
		err = errno ? -errno : -EIO;
		close(fd);
		unlink(tmp);
		goto out;
	}
	close(fd);
	if (rename(tmp, path)) {
		err = -errno;
		unlink(tmp);
	}
out:
	json_object_put(o);
	return err;
}

static bool get_number(struct json_object *o, const char *key, double *v)
{
	struct json_object *f;

	if (!json_object_object_get_ex(o, key, &f) ||
	    !(json_object_is_type(f, json_type_double) || json_object_is_type(f, json_type_int)))
		return false;
	*v = json_object_get_double(f);
	return isfinite(*v);
}

int calibration_load(const char *path, struct calibration *c)
{
	struct json_object *o, *f, *pts;
	struct json_tokener *tok;
	struct calibration r = { 0 };
	char buf[8192];
	size_t len;
	double v;
	FILE *fp;
	int err = -EINVAL;

	fp = fopen(path, "re");
	if (!fp)
		return -errno;
	len = fread(buf, 1, sizeof(buf) - 1, fp);
	if (ferror(fp)) {
		fclose(fp);
		return -EIO;
	}
	if (!feof(fp)) {	/* far larger than any calibration */
		fclose(fp);
		return -EINVAL;
	}
	fclose(fp);
	buf[len] = '\0';

	tok = json_tokener_new();
	if (!tok)
		return -ENOMEM;
	o = json_tokener_parse_ex(tok, buf, (int)len);
	if (!o || json_tokener_get_error(tok) != json_tokener_success ||
	    !json_object_is_type(o, json_type_object))
		goto out;
	/* One object and nothing after it but white space. */
	for (size_t i = json_tokener_get_parse_end(tok); i < len; i++)
		if (!strchr(" \t\r\n", buf[i]))
			goto out;
	if (!get_number(o, "schema", &v) || v != CALIBRATION_SCHEMA)
		goto out;
	if (!get_number(o, "ns_per_entry", &r.ns_per_entry) || r.ns_per_entry < 0)
		goto out;
	if (!get_number(o, "ns_context", &r.ns_context) || r.ns_context < 0)
		goto out;
	if (!json_object_object_get_ex(o, "rules_used", &f) ||
	    !json_object_is_type(f, json_type_int) || json_object_get_int(f) < 1)
		goto out;
	r.rules_used = json_object_get_int(f);
	if (!json_object_object_get_ex(o, "when", &f) || !json_object_is_type(f, json_type_int))
		goto out;
	r.when = json_object_get_int64(f);
	if (!json_object_object_get_ex(o, "kernel", &f) ||
	    !json_object_is_type(f, json_type_string) ||
	    (size_t)json_object_get_string_len(f) >= sizeof(r.kernel))
		goto out;
	snprintf(r.kernel, sizeof(r.kernel), "%s", json_object_get_string(f));
	if (json_object_object_get_ex(o, "points", &pts)) {
		if (!json_object_is_type(pts, json_type_array) ||
		    json_object_array_length(pts) > CALIBRATION_MAX_POINTS)
			goto out;
		for (size_t i = 0; i < json_object_array_length(pts); i++) {
			struct json_object *p = json_object_array_get_idx(pts, i);

			if (!json_object_is_type(p, json_type_object) ||
			    !get_number(p, "rules", &v) || !get_number(p, "ns", &r.points[i].ns))
				goto out;
			r.points[i].rules = (int)v;
			r.npoints++;
		}
	}
	*c = r;
	err = 0;
out:
	json_object_put(o);
	json_tokener_free(tok);
	return err;
}

/*
 * Latency at `rules` non-matching exit rules: piecewise linear through the
 * measured points (rules >= 1), extended below the first along the first
 * segment and past the last along the least-squares slope of the upper half
 * of the points. The cost per entry is not constant: it rises once the list
 * outgrows the L1 cache, so a fit through all points under-predicts long
 * lists, and the last segment alone is too noisy to extend far.
 */
static double latency_at(const struct calibration *c, double rules)
{
	const struct calibration_point *p = c->points;
	int first = 0, n = c->npoints, upper;

	while (first < n && p[first].rules < 1)
		first++;
	if (n - first < 2)
		return rules * c->ns_per_entry;
	if (rules > p[n - 1].rules) {
		for (upper = first; upper < n - 2 && p[upper].rules < p[n - 1].rules / 2; upper++)
			;
		return p[n - 1].ns + (rules - p[n - 1].rules) * fit_slope(&p[upper], n - upper);
	}
	for (int i = first; i < n - 1; i++) {
		const struct calibration_point *a = &p[i], *b = &p[i + 1];

		if (rules <= b->rules || i == n - 2)
			return a->ns + (b->ns - a->ns) * (rules - a->rules) / (b->rules - a->rules);
	}
	return rules * c->ns_per_entry; /* not reached */
}

double calibration_walk_ns(const struct calibration *c, double entries)
{
	double ns;

	if (entries <= 0)
		return 0;
	ns = latency_at(c, entries) - latency_at(c, 0);
	return ns > 0 ? ns : 0;
}
