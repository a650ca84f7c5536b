// SPDX-License-Identifier: GPL-2.0
/*
 * auditskip: how often would the aggregate syscall-mask check of the audit
 * patch series skip the exit filter walk, on this stock kernel?
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <libaudit.h>
#include "args.h"
#include "attach.h"
#include "auditskip.skel.h"
#include "calibrate.h"
#include "command.h"
#include "counts.h"
#include "metrics.h"
#include "metrics_textfile.h"
#include "notify.h"
#include "report.h"
#include "rules.h"
#include "syscalls.h"
#include "sysinfo.h"
#include "whatif.h"

static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
	stop_signal = sig;
}

/* Wakes the sleep in the main loop; waitpid() tells which child. */
static void on_child(int sig)
{
	(void)sig;
}

static void install_handlers(void)
{
	struct sigaction sa = { .sa_handler = on_stop };

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = on_child;
	sa.sa_flags = SA_NOCLDSTOP;
	sigaction(SIGCHLD, &sa, NULL);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Sleeps up to `s` seconds, less when a signal arrives or audit logs a rule
 * change on `notify_fd` (then true: resync now).
 */
static bool wait_s(double s, int notify_fd)
{
	struct pollfd pfd = { .fd = notify_fd, .events = POLLIN };
	int ms = s > 0 ? (int)(s * 1000) + 1 : 0;

	/* poll() with no descriptor (-1 is ignored) is a sleep a signal ends. */
	if (poll(&pfd, 1, ms) > 0 && notify_fd >= 0)
		return config_change_drain(notify_fd);
	return false;
}

/* One clear line for what stops us before anything is attached. */
static int preflight(const struct env *env, struct audit_status_info *st)
{
	const char *missing = missing_privilege();
	int err;

	if (missing) {
		fprintf(stderr, "auditskip: needs root: this process lacks %s\n", missing);
		return -EPERM;
	}
	err = audit_status_read(st);
	if (err == -EPROTONOSUPPORT) {
		fprintf(stderr,
			"auditskip: this kernel has no audit support (CONFIG_AUDIT is off): nothing to measure\n");
		return err;
	}
	if (err) {
		fprintf(stderr, "auditskip: cannot read audit status: %s\n", strerror(-err));
		return err;
	}
	if (env->command == CMD_COUNT && !st->enabled) {
		fprintf(stderr,
			"auditskip: audit is disabled: enable it with 'auditctl -e 1', then start the processes to measure (tasks forked before that are never audited)\n");
		return -EINVAL;
	}
	if (env->pid && kill(env->pid, 0) && errno == ESRCH) {
		fprintf(stderr, "auditskip: no process with pid %d\n", env->pid);
		return -ESRCH;
	}
	return 0;
}

static int cmd_rules(const struct env *env)
{
	struct audit_status_info st;
	struct ruleset rs;
	int err = preflight(env, &st);

	if (err)
		return 1;
	err = ruleset_load(&rs);
	if (err) {
		fprintf(stderr, "auditskip: cannot list audit rules: %s\n", strerror(-err));
		return 1;
	}
	report_rules(stdout, &rs, env->json);
	ruleset_free(&rs);
	return 0;
}

static int cmd_calibrate(const struct env *env)
{
	const char *path = env->calibration ? env->calibration : calibration_default_path();
	struct audit_status_info st;
	struct calibration c;
	struct ruleset rs;
	int rules = env->calib_rules, err = preflight(env, &st);

	if (err)
		return 1;
	if (!rules) {
		/* The per-entry cost grows with the list: calibrate up to its length. */
		if (ruleset_load(&rs)) {
			fprintf(stderr, "auditskip: cannot list audit rules\n");
			return 1;
		}
		rules = ruleset_exit_rules(&rs) > 64 ? ruleset_exit_rules(&rs) : 64;
		ruleset_free(&rs);
	}
	err = calibrate_run_on_cpu(rules, env->calib_cpu, env->verbose, &c);
	if (err) /* 75 (EX_TEMPFAIL): another process changed audit policy; try again */
		return err == -EBUSY || err == -EAGAIN ? 75 : 1;
	err = calibration_save(path, &c);
	if (err) {
		fprintf(stderr, "auditskip: cannot save %s: %s\n", path, strerror(-err));
		return 1;
	}
	printf("calibrated up to %d rules: %.2f ns per visited entry (fit), %.0f ns for a non-dummy context\n",
	       c.rules_used, c.ns_per_entry, c.ns_context);
	for (int i = 0; i < c.npoints; i++)
		printf("  %4d rules: getpid %.0f ns\n", c.points[i].rules, c.points[i].ns);
	printf("saved to %s\n", path);
	return 0;
}

/*
 * The time model: the file asked for, else the default file if there is
 * one, else the series' slope. A file that is asked for and missing, or
 * corrupt, is an error: estimates from the wrong model would mislead.
 */
static int load_calibration(const struct env *env, struct calibration *c, const char **from)
{
	const char *path = env->calibration ? env->calibration : calibration_default_path();
	int err = calibration_load(path, c);

	*from = err ? NULL : path;
	if (!err || (err == -ENOENT && !env->calibration)) {
		if (err)
			*c = (struct calibration){ .ns_per_entry = DEFAULT_NS_PER_ENTRY };
		return 0;
	}
	if (err == -ENOENT)
		fprintf(stderr, "auditskip: no calibration at %s: run 'auditskip calibrate --calibration %s'\n",
			path, path);
	else if (err == -EINVAL)
		fprintf(stderr,
			"auditskip: %s is not a valid calibration: remove it or run 'auditskip calibrate'\n",
			path);
	else
		fprintf(stderr, "auditskip: cannot read %s: %s\n", path, strerror(-err));
	return err;
}

static int read_walks(struct auditskip_bpf *skel, struct walk_counts *w)
{
	int err = counts_read(bpf_map__fd(skel->maps.counts), &w->exit);

	return err ? err : counts_read(bpf_map__fd(skel->maps.uring_counts), &w->uring);
}

struct session {
	struct env *env;
	struct attached at;
	struct metrics_server *metrics;
	struct ruleset rules;
	struct report_ctx report;
	struct walk_counts *now;
	struct comm_row *comms;	/* --per-comm */
	int mirror_fd;
	/* Staleness: exit walks seen at the last sync that found no counted rule. */
	bool was_ruleless;
	__u64 walks_then;
};

/* Where no BPF program rebuilds it, the loader writes the mirror itself. */
static int write_netlink_mirror(struct session *ss)
{
	struct mask_mirror *cur = &ss->report.mirror;
	struct mask_mirror m = {
		.exit_rules = ruleset_exit_rules(&ss->rules),
		.uring_rules = ruleset_rules_on(&ss->rules, AUDIT_FILTER_URING_EXIT),
		.source = MIRROR_NETLINK,
		.kernel_n_rules = -1,
		.generation = cur->generation,
	};
	__u32 zero = 0;

	ruleset_exit_mask(&ss->rules, -1, m.mask);
	ruleset_mask(&ss->rules, AUDIT_FILTER_URING_EXIT, -1, m.uring_mask);
	if (ss->env->corrupt_nr >= 0)
		m.mask[ss->env->corrupt_nr / 32] &= ~(1U << (ss->env->corrupt_nr % 32));
	if (cur->source == m.source && cur->exit_rules == m.exit_rules &&
	    cur->uring_rules == m.uring_rules && mask_equal(cur->mask, m.mask) &&
	    mask_equal(cur->uring_mask, m.uring_mask))
		return 0;
	m.generation++;
	if (bpf_map_update_elem(ss->mirror_fd, &zero, &m, BPF_ANY))
		return -errno;
	*cur = m;
	return 0;
}

/*
 * audit_n_rules counts every rule outside the user, exclude and fs lists.
 * Where BPF can read it, a larger value than the rules listed is staleness.
 * Elsewhere, a walk between two syncs that both found no such rule could only
 * come from a stale count; walks while rules are loaded prove nothing.
 */
static void update_stale(struct session *ss)
{
	struct stale_report *st = &ss->report.stale;
	bool ruleless;

	st->counted_rules = ruleset_counted_rules(&ss->rules);
	st->kernel_n_rules = ss->report.mirror.kernel_n_rules;
	ruleless = st->counted_rules == 0;
	if (ruleless && counts_read(bpf_map__fd(ss->at.skel->maps.counts), &ss->now->exit) == 0) {
		__u64 walks = ss->now->exit.total.scans;

		if (ss->was_ruleless)
			st->syscalls += walks - ss->walks_then;
		ss->walks_then = walks;
	}
	ss->was_ruleless = ruleless;

	if (st->kernel_n_rules >= 0)
		st->verdict = (unsigned int)st->kernel_n_rules > st->counted_rules ? STALE_YES :
										    STALE_NO;
	else if (st->syscalls)
		st->verdict = STALE_YES;
	else if (ruleless)
		st->verdict = STALE_NO;
	else if (st->verdict != STALE_YES)
		st->verdict = STALE_UNKNOWN;
}

/*
 * Refreshes what the loader owns: audit's state for the BPF side, the rule
 * list (names, keys, staleness), the mirror where no BPF program keeps it,
 * and the missed matches BPF logged.
 */
static int sync_rules(struct session *ss)
{
	struct auditskip_bpf *skel = ss->at.skel;
	struct audit_status_info st;
	struct whatif_masks w;
	struct ruleset fresh;
	__u32 zero = 0;
	int err;

	if (!audit_status_read(&st)) {
		skel->bss->audit_on = st.enabled;
		skel->bss->auditd_tgid = st.auditd_pid;
	}
	err = ruleset_load(&fresh); /* in trampoline modes this also rebuilds the mirror */
	if (err)
		return err;
	ruleset_free(&ss->rules);
	ss->rules = fresh;
	if (bpf_map_lookup_elem(ss->mirror_fd, &zero, &ss->report.mirror))
		return -errno;
	if (ss->report.mirror.source != MIRROR_KERNEL_LIST) {
		err = write_netlink_mirror(ss);
		if (err)
			return err;
	}
	whatif_build(&ss->rules, &w);
	if (bpf_map_update_elem(bpf_map__fd(skel->maps.whatif), &zero, &w, BPF_ANY))
		return -errno;
	update_stale(ss);
	if (ss->env->per_comm) {
		free(ss->comms);
		ss->comms = NULL;
		if (comms_read(bpf_map__fd(skel->maps.comms), &ss->comms, &ss->report.ncomms))
			ss->report.ncomms = 0;
		ss->report.comms = ss->comms;
		ss->report.comms_lost = skel->bss->comms_lost;
	}
	ss->report.missed_total = skel->bss->missed_total;
	ss->report.clock_ns = skel->bss->clock_ns;
	ss->report.lost_descendants = skel->bss->lost_children;
	for (__u32 i = 0; i < MISSED_LOG && i < ss->report.missed_total; i++)
		bpf_map_lookup_elem(bpf_map__fd(skel->maps.missed_log), &i, &ss->report.missed[i]);
	return 0;
}

static int track(struct session *ss, pid_t pid)
{
	__u32 key = pid;
	__u8 one = 1;

	return bpf_map__update_elem(ss->at.skel->maps.tracked, &key, sizeof(key), &one,
				    sizeof(one), BPF_ANY);
}

static int cmd_count(struct env *env)
{
	struct session ss = { .env = env };
	struct audit_status_info st;
	struct walk_counts *now = NULL, *prev = NULL, *delta = NULL;
	struct command child = { .pid = 0 };
	struct attach_req req = {
		.mode = env->mode,
		.filter_tasks = env->pid || env->argv,
		.follow_children = env->argv != NULL,
		.btf_path = env->btf_path,
		.verbose = env->verbose,
		.corrupt_nr = env->corrupt_nr,
		.per_comm = env->per_comm > 0,
		.timing = env->timing,
	};
	char kernel[128], scope[256], mirror_how[192];
	struct calibration calib;
	const char *calib_from;
	double start, next_sync, next_report, end;
	int err, status = -1, ret = 1, notify_fd = -1;
	__u64 list_addr;

	err = preflight(env, &st);
	if (err || load_calibration(env, &calib, &calib_from))
		return 1;
	/* Data symbols are listed only with CONFIG_KALLSYMS_ALL (Debian has it). */
	if (!kallsyms_lookup("audit_filter_list", &list_addr)) {
		req.exit_list_addr = list_addr + AUDIT_FILTER_EXIT * 2 * sizeof(void *);
		req.uring_list_addr = list_addr + AUDIT_FILTER_URING_EXIT * 2 * sizeof(void *);
	} else if (env->verbose) {
		fprintf(stderr,
			"auditskip: audit_filter_list is not in /proc/kallsyms: the loader keeps the mirror\n");
	}
	kallsyms_lookup("audit_n_rules", &req.n_rules_addr);

	now = calloc(1, sizeof(*now));
	prev = calloc(1, sizeof(*prev));
	delta = calloc(1, sizeof(*delta));
	if (!now || !prev || !delta) {
		fprintf(stderr, "auditskip: out of memory\n");
		goto out;
	}
	if (env->metrics) {
		char why[256];

		ss.metrics = metrics_start(env->metrics, why, sizeof(why));
		if (!ss.metrics) {
			fprintf(stderr, "auditskip: cannot serve metrics on %s: %s\n", env->metrics,
				why);
			goto out;
		}
	}
	fork_syscalls(req.fork_nrs);
	install_handlers();
	if (attach_prepare(&req, &ss.at))
		goto out;
	if (env->timing && ss.at.mode != MODE_FILTER_OP && ss.at.mode != MODE_FILTER_SYSCALL) {
		fprintf(stderr,
			"auditskip: --timing needs mode filter-op or filter-syscall (fentry and fexit on the walk), not %s\n",
			modes[ss.at.mode].name);
		goto out;
	}
	ss.mirror_fd = bpf_map__fd(ss.at.skel->maps.mirror);
	ss.now = now;
	err = sync_rules(&ss);
	if (err) {
		fprintf(stderr, "auditskip: cannot list audit rules: %s\n", strerror(-err));
		goto out;
	}

	if (env->argv) {
		err = command_spawn(&child, env->argv);
		if (!err)
			err = track(&ss, child.pid);
		if (err) {
			fprintf(stderr, "auditskip: cannot start %s: %s\n", env->argv[0],
				strerror(-err));
			goto out;
		}
	} else if (env->pid && track(&ss, env->pid)) {
		fprintf(stderr, "auditskip: cannot track pid %d: %s\n", env->pid, strerror(errno));
		goto out;
	}
	if (attach_start_counting(&ss.at))
		goto out;
	if (env->argv) {
		err = command_release(&child);
		if (err) {
			fprintf(stderr, "auditskip: cannot execute %s: %s\n", env->argv[0],
				strerror(-err));
			command_poll(&child, true);
			child.pid = 0;
			ret = 127;
			goto out;
		}
	}

	kernel_release(kernel, sizeof(kernel));
	if (env->argv)
		snprintf(scope, sizeof(scope), "%s (pid %d) and its descendants", env->argv[0],
			 child.pid);
	else if (env->pid)
		snprintf(scope, sizeof(scope), "pid %d", env->pid);
	else
		snprintf(scope, sizeof(scope), "whole machine");
	if (ss.at.kernel_mirror)
		snprintf(mirror_how, sizeof(mirror_how),
			 "rebuilt by BPF from the kernel's exit list on every rule change");
	else
		snprintf(mirror_how, sizeof(mirror_how),
			 "kept by the loader from the netlink rule list, resynced on every rule change audit logs and every %d ms",
			 env->sync_ms);
	ss.report = (struct report_ctx){
		.out = stdout,
		.json = env->json,
		.top = env->top,
		.kernel = kernel,
		.mode = modes[ss.at.mode].name,
		.blind = modes[ss.at.mode].blind,
		.mirror_how = mirror_how,
		.scope = scope,
		.rules = &ss.rules,
		.mirror = ss.report.mirror,
		.outcomes = ss.at.mode == MODE_FILTER_OP || ss.at.mode == MODE_FILTER_SYSCALL,
		.uring = ss.at.mode == MODE_FILTER_OP,
		.stale = ss.report.stale,
		.comms = ss.report.comms,
		.ncomms = ss.report.ncomms,
		.comm_top = env->per_comm,
		.timing = env->timing,
		.comms_lost = ss.report.comms_lost,
		.calib = &calib,
		.calib_from = calib_from,
		.ncpus = libbpf_num_possible_cpus(),
	};
	report_start(&ss.report);
	if (ss.metrics && !read_walks(ss.at.skel, now))
		metrics_update(ss.metrics, &ss.report, &now->exit);

	notify_fd = config_change_open();
	if (notify_fd < 0 && env->verbose)
		fprintf(stderr, "auditskip: cannot hear of rule changes (%s): resyncing every %d ms only\n",
			strerror(-notify_fd), env->sync_ms);
	start = now_s();
	next_sync = start + env->sync_ms / 1000.0;
	next_report = env->interval ? start + env->interval : 0;
	end = env->duration ? start + env->duration : 0;
	while (!stop_signal) {
		double t = now_s(), wake = next_sync;

		if (child.pid && (status = command_poll(&child, false)) >= 0)
			break;
		if (end && t >= end)
			break;
		if (env->pid && kill(env->pid, 0) && errno == ESRCH)
			break;
		if (t >= next_sync) {
			sync_rules(&ss);
			if (ss.metrics && !read_walks(ss.at.skel, now))
				metrics_update(ss.metrics, &ss.report, &now->exit);
			if (env->metrics_textfile && !read_walks(ss.at.skel, now))
				metrics_textfile_write(env->metrics_textfile, &ss.report, &now->exit);
			next_sync = t + env->sync_ms / 1000.0;
		}
		if (next_report && t >= next_report) {
			__u32 zero = 0;

			/* In trampoline modes the mirror changes between syncs. */
			bpf_map_lookup_elem(ss.mirror_fd, &zero, &ss.report.mirror);
			read_walks(ss.at.skel, now);
			walks_subtract(delta, now, prev);
			report_interval(&ss.report, delta, t - (next_report - env->interval));
			*prev = *now;
			next_report += env->interval;
		}
		if (next_report && next_report < wake)
			wake = next_report;
		if (end && end < wake)
			wake = end;
		if (wait_s(wake - now_s(), notify_fd))
			next_sync = now_s();
	}
	/* A signal meant for us also ends the command, so its report is whole. */
	if (child.pid && status < 0) {
		kill(child.pid, stop_signal);
		status = command_poll(&child, true);
	}
	sync_rules(&ss);
	read_walks(ss.at.skel, now);
	/* The last, partial interval, so the intervals add up to the summary. */
	if (next_report) {
		walks_subtract(delta, now, prev);
		report_interval(&ss.report, delta, now_s() - (next_report - env->interval));
	}
	report_summary(&ss.report, now, now_s() - start, status);
	metrics_textfile_write(env->metrics_textfile, &ss.report, &now->exit);
	ret = child.pid ? status : 0;
out:
	if (notify_fd >= 0)
		close(notify_fd);
	metrics_stop(ss.metrics);
	attach_destroy(&ss.at);
	ruleset_free(&ss.rules);
	free(ss.comms);
	free(now);
	free(prev);
	free(delta);
	return ret;
}

int main(int argc, char **argv)
{
	struct env env = { .mode = -1, .top = 10, .sync_ms = 1000, .corrupt_nr = -1, .calib_cpu = -1 };
	int err = parse_args(argc, argv, &env);

	if (err)
		return err;
	set_aumessage_mode(MSG_QUIET, DBG_NO);
	switch (env.command) {
	case CMD_RULES:
		return cmd_rules(&env);
	case CMD_CALIBRATE:
		return cmd_calibrate(&env);
	default:
		return cmd_count(&env);
	}
}
