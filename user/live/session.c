// SPDX-License-Identifier: GPL-2.0
/*
 * A counting run's life (session.h): open, attach, start the target, lower
 * privileges, the loop, the summary or the profile, close. The rule sync is
 * rule_sync.c's, what is published publish.c's.
 */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "auditskip.h" /* before the skeleton: its mirror section is a struct mask_mirror */
#include "auditskip.skel.h"
#include "http/metrics_server.h"
#include "live/clock.h"
#include "live/config_change.h"
#include "live/counting_price.h"
#include "live/duty_cycle.h"
#include "live/publish.h"
#include "live/rule_sync.h"
#include "live/session.h"
#include "live/sysinfo.h"
#include "model/profile.h"
#include "model/whatif_masks.h"
#include "output/count_report.h"
#include "output/metrics_textfile.h"

static volatile sig_atomic_t stop_signal;

/* Where and how the run is reported. */
static struct report_ctx report_of(const struct session *ss)
{
	return (struct report_ctx){
		.out = stdout, .json = ss->opt->json, .top = ss->opt->top, .run = &ss->run
	};
}

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
	/* A command that died at its gate must not kill us when we open it. */
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
	sa.sa_handler = on_child;
	sa.sa_flags = SA_NOCLDSTOP;
	sigaction(SIGCHLD, &sa, NULL);
}

/*
 * Sleeps up to `s` seconds, less when a signal arrives or audit logs a
 * change of its configuration on `notify_fd` (-1: none to hear).
 */
static void wait_s(struct session *ss, double s, int notify_fd)
{
	struct pollfd pfd = { .fd = notify_fd, .events = POLLIN };
	struct config_changes c = { 0 };
	int ms = s > 0 ? (int)(s * 1000) + 1 : 0;

	/* poll() with no descriptor (-1 is ignored) is a sleep a signal ends. */
	if (poll(&pfd, 1, ms) <= 0 || notify_fd < 0)
		return;
	config_change_drain(notify_fd, &c);
	rule_sync_hear(ss, &c);
	if (c.lost)
		resync_want(&ss->resync, RESYNC_LOST);
	else if (c.rules)
		resync_want(&ss->resync, RESYNC_CHANGE);
}

static int track(struct session *ss, pid_t pid)
{
	__u32 key = pid;
	__u8 one = 1;

	if (bpf_map__update_elem(ss->at.skel->maps.tracked, &key, sizeof(key), &one, sizeof(one),
				 BPF_ANY))
		return -errno;
	return 0;
}

/*
 * Where audit's lists, its rule count and its syscall classes are, for BPF to
 * read. Data symbols are listed only with CONFIG_KALLSYMS_ALL (Debian has
 * it); without it, reading the list would cost thousands of syscalls for
 * nothing.
 */
static void find_kernel_lists(struct session *ss)
{
	static const char *const symbols[] = { "audit_filter_list", "audit_n_rules", "classes" };
	__u64 addrs[3] = { 0 };

	if (kernel_config("CONFIG_KALLSYMS_ALL") != 0)
		kallsyms_lookup(symbols, addrs, 3);
	if (addrs[0]) {
		ss->req.exit_list_addr = addrs[0] + AUDIT_FILTER_EXIT * 2 * sizeof(void *);
		ss->req.uring_list_addr = addrs[0] + AUDIT_FILTER_URING_EXIT * 2 * sizeof(void *);
	} else if (ss->opt->verbose) {
		fprintf(stderr,
			"auditskip: audit_filter_list is not in /proc/kallsyms: the loader keeps the mirror\n");
	}
	ss->req.n_rules_addr = addrs[1];
	ss->req.classes_addr = addrs[2];
}

/* Kernel symbols, the time model, the metrics port: what can fail before BPF loads. */
int session_open(struct session *ss, struct count_options *opt)
{
	const char *calib_from;

	*ss = (struct session){
		.opt = opt,
		.notify_fd = -1,
		.command_status = -1,
		.run.live.stale.kernel_n_rules = -1,
		.req = {
			.mode = opt->mode,
			.filter_tasks = opt->pid || opt->argv,
			.follow_children = opt->argv != NULL,
			.btf_path = opt->btf_path,
			.verbose = opt->verbose,
			.corrupt_nr = opt->corrupt_nr,
			.per_comm = opt->per_comm > 0,
			.per_rule = opt->per_rule > 0,
			.timing = opt->timing,
			.profile = opt->profiling,
		},
	};
	stale_start(&ss->run.live.stale);
	if (calibration_choose(opt->calibration, &ss->calib, &calib_from))
		return -EINVAL;
	find_kernel_lists(ss);

	ss->now = calloc(1, sizeof(*ss->now));
	ss->prev = calloc(1, sizeof(*ss->prev));
	ss->delta = calloc(1, sizeof(*ss->delta));
	if (opt->timing)
		ss->hist = calloc(NR_COUNT_SLOTS, sizeof(*ss->hist));
	ss->run.live.hist = ss->hist;
	if (!ss->now || !ss->prev || !ss->delta || (opt->timing && !ss->hist)) {
		fprintf(stderr, "auditskip: out of memory\n");
		return -ENOMEM;
	}
	if (opt->user) {
		char why[256];

		if (run_as_lookup(opt->user, &ss->run_as, why, sizeof(why))) {
			fprintf(stderr, "auditskip: --user: %s\n", why);
			return -EINVAL;
		}
	}
	if (opt->metrics) {
		char why[768];

		ss->metrics = metrics_open(opt->metrics, opt->web_config, why, sizeof(why));
		if (!ss->metrics) {
			fprintf(stderr, "auditskip: cannot serve metrics on %s: %s\n", opt->metrics,
				why);
			return -EINVAL;
		}
	}
	resync_init(&ss->resync, opt->sync_ms, opt->list_period_ms);
	ss->run.live.resync = &ss->resync;
	ss->run.live.notifications = &ss->notifications;
	kernel_release(ss->kernel, sizeof(ss->kernel));
	ss->run.cfg = (struct run_settings){
		.kernel = ss->kernel,
		.scope = ss->scope,
		.mirror_how = ss->mirror_how,
		.comm_top = opt->per_comm,
		.rule_top = opt->per_rule,
		.timing = opt->timing,
		.calib = &ss->calib,
		.calib_from = calib_from,
		.ncpus = libbpf_num_possible_cpus(),
	};
	return 0;
}

/* Everything but the counting program, then the first sync builds the mirror. */
int session_attach(struct session *ss)
{
	struct run_settings *cfg = &ss->run.cfg;
	__u32 zero = 0;
	int err;

	install_handlers();
	err = attach_prepare(&ss->req, &ss->at);
	if (err)
		return err;
	if (ss->opt->timing && !mode_sees(ss->at.mode, MODE_TIMES_WALKS)) {
		fprintf(stderr,
			"auditskip: --timing needs mode filter-op or filter-syscall (fentry and fexit on the walk), not %s\n",
			modes[ss->at.mode].name);
		return -EINVAL;
	}
	cfg->mode = modes[ss->at.mode].name;
	cfg->blind = modes[ss->at.mode].blind;
	cfg->outcomes = mode_sees(ss->at.mode, MODE_SEES_OUTCOMES);
	cfg->uring = mode_sees(ss->at.mode, MODE_SEES_URING);
	cfg->infers_exit_walks = mode_sees(ss->at.mode, MODE_JUDGES_AT_ENTRY);
	cfg->counts_mirror_lag = !ss->at.kernel_mirror && ss->req.n_rules_addr &&
				 mode_sees(ss->at.mode, MODE_COUNTS_MIRROR_LAG);
	if (ss->at.kernel_mirror)
		snprintf(ss->mirror_how, sizeof(ss->mirror_how),
			 "rebuilt by BPF from the kernel's exit list on every rule change");
	else
		snprintf(
			ss->mirror_how, sizeof(ss->mirror_how),
			"kept by the loader from the netlink rule list, resynced on every rule change audit logs, and listed again at least every %d ms or %.0f times a listing's CPU time; walks judged before it follows a change are %s",
			ss->opt->sync_ms, 1 / RESYNC_PERIODIC_SHARE,
			cfg->counts_mirror_lag ?
				"counted (mirror_lag_walks)" :
			ss->req.n_rules_addr ?
				"not counted in this mode" :
				"not counted (audit_n_rules is not in /proc/kallsyms)");
	err = rule_sync_all(ss);
	if (err) {
		fprintf(stderr, "auditskip: cannot list audit rules: %s\n", strerror(-err));
		return err;
	}
	/*
	 * The first listing had BPF copy the kernel's classes, for advise,
	 * which must not trust a table older than the kernel. The counts'
	 * perm-narrowed mask takes its classes from the tables in every mode,
	 * so that all modes count the same: tracepoint mode cannot read the
	 * kernel's.
	 */
	bpf_map_lookup_elem(bpf_map__fd(ss->at.skel->maps.classes), &zero, &ss->kernel_classes);
	ss->run.live.perm_classes = whatif_perm_classes(NULL);
	return 0;
}

/* A run's own measure of counting's price: pairs of rounds of about 10 ms each. */
#define START_PRICE_PAIRS 32

/*
 * What counting adds to a syscall, for the duty cycle's correction and the
 * page's own cost: the calibration's for the mode; without one, a
 * duty-cycled run measures it now, before its own programs count anything,
 * under the rules loaded (which must make syscalls walk, as they will when
 * it counts).
 */
static void price_counting(struct session *ss)
{
	struct run_settings *cfg = &ss->run.cfg;
	struct attach_req req = ss->req;
	struct price_pairs price;
	int err;

	cfg->counting_ns = calibration_counting_ns(&ss->calib, cfg->mode);
	cfg->counting_price = ss->counting_price;
	if (isfinite(cfg->counting_ns)) {
		cfg->counting_price = COUNTING_PRICE_CALIBRATED;
		return;
	}
	snprintf(ss->counting_price, sizeof(ss->counting_price),
		 "no calibration of counting in mode %s: auditskip calibrate", cfg->mode);
	if (ss->opt->duty_period_s <= 0)
		return;
	if (ss->req.filter_tasks) {
		snprintf(
			ss->counting_price, sizeof(ss->counting_price),
			"no calibration of counting in mode %s, and a scoped run (-p, -- COMMAND) does not measure it: its programs cost a counted task more than the whole machine's",
			cfg->mode);
		return;
	}
	if (!ss->at.skel->bss->audit_on || !ss->run.live.stale.counted_rules) {
		snprintf(
			ss->counting_price, sizeof(ss->counting_price),
			"no calibration of counting in mode %s, and no rule made syscalls walk at the start to measure it under",
			cfg->mode);
		return;
	}
	/* A copy with the run's options, its mirror kept by the loader, as calibrate's. */
	req.mode = ss->at.mode;
	req.exit_list_addr = req.uring_list_addr = 0;
	err = counting_price_measure(&req, START_PRICE_PAIRS, &price);
	if (!err && price.added > 0) {
		cfg->counting_ns = price.added;
		cfg->counting_price = COUNTING_PRICE_MEASURED;
		if (ss->opt->verbose)
			fprintf(stderr,
				"auditskip: a getpid took %.1f ns with counting, %.1f without (medians); the %d pairs' differences %.1f to %.1f ns between their quartiles\n",
				price.counted, price.none, price.pairs, price.added_q1,
				price.added_q3);
	} else if (err) {
		snprintf(
			ss->counting_price, sizeof(ss->counting_price),
			"no calibration of counting in mode %s, and measuring it at the start failed: %s",
			cfg->mode, strerror(-err));
	} else {
		snprintf(
			ss->counting_price, sizeof(ss->counting_price),
			"no calibration of counting in mode %s, and measuring it at the start found no cost (a getpid took %.1f ns more with its programs, the median of %d paired rounds)",
			cfg->mode, price.added, price.pairs);
	}
	if (ss->opt->verbose && isfinite(cfg->counting_ns))
		fprintf(stderr, "auditskip: counting adds %.1f ns to a syscall here (%s)\n",
			cfg->counting_ns, cfg->counting_price);
}

/*
 * The command is forked first and waits at its gate, so its pid can be
 * tracked before it runs; it execs only once every program is attached.
 */
int session_start_target(struct session *ss)
{
	struct count_options *opt = ss->opt;
	int err = 0;

	if (opt->argv) {
		err = command_spawn(&ss->child, opt->argv);
		if (err) {
			fprintf(stderr, "auditskip: cannot start %s: %s\n", opt->argv[0],
				strerror(-err));
			return err;
		}
		/* Tracked from its exec on, by BPF: see track_exec. */
		err = opt->test_fail_start ? -ECANCELED : 0;
		ss->at.skel->bss->exec_tgid = ss->child.pid;
		if (err) {
			fprintf(stderr, "auditskip: cannot track %s (pid %d): %s\n", opt->argv[0],
				ss->child.pid, strerror(-err));
			return err;
		}
		snprintf(ss->scope, sizeof(ss->scope), "%s (pid %d) and its descendants",
			 opt->argv[0], ss->child.pid);
	} else if (opt->pid) {
		err = track(ss, opt->pid);
		if (err) {
			fprintf(stderr, "auditskip: cannot track pid %d: %s\n", opt->pid,
				strerror(-err));
			return err;
		}
		snprintf(ss->scope, sizeof(ss->scope), "pid %d", opt->pid);
	} else {
		snprintf(ss->scope, sizeof(ss->scope), "whole machine");
	}
	if (opt->duty_period_s > 0 && !ss->at.reattaches) {
		fprintf(stderr,
			"auditskip: --duty: mode %s cannot attach its programs again once detached on this kernel (before 5.13); use -m tracepoint\n",
			modes[ss->at.mode].name);
		return -EOPNOTSUPP;
	}
	price_counting(ss);
	duty_start(&ss->duty, opt->duty_window_s, opt->duty_period_s, ss->run.cfg.counting_ns,
		   now_s());
	err = duty_cycle_apply(ss);
	if (err)
		return err;
	if (opt->argv) {
		err = command_release(&ss->child);
		if (err) {
			fprintf(stderr, "auditskip: cannot execute %s: %s\n", opt->argv[0],
				strerror(-err));
			ss->exec_failed = true;
			return err;
		}
	}
	if (!opt->profiling) {
		struct report_ctx report = report_of(ss);

		report_start(&report);
	} else {
		fprintf(stderr, "auditskip: profiling %s (mode %s), then writing %s\n", ss->scope,
			modes[ss->at.mode].name, opt->output);
	}
	fflush(stdout);
	/* Nothing else ends a whole-machine run: say how, once, off the report. */
	if (!opt->duration && !opt->argv && !opt->pid)
		fprintf(stderr, "auditskip: %s until Ctrl-C (or -d SECONDS)\n",
			opt->profiling ? "profiling" : "counting");
	publish_metrics(ss);
	ss->notify_fd = config_change_open(opt->notify_rcvbuf);
	if (ss->notify_fd < 0) {
		if (opt->verbose)
			fprintf(stderr,
				"auditskip: cannot hear of rule changes (%s): listing the rules every %d ms\n",
				strerror(-ss->notify_fd), opt->sync_ms);
		/* Nothing will be heard: every tick is a periodic check. */
		ss->resync.fixed_period_s = ss->resync.tick_s;
	}
	/* A change between the first listing and the socket's bind was not heard. */
	resync_want(&ss->resync, RESYNC_START);
	return 0;
}

/* What the loop reads most often: if this works, every map read does. */
static int probe_map_read(void *arg)
{
	struct session *ss = arg;
	struct mask_mirror m;
	__u32 zero = 0;

	return bpf_map_lookup_elem(rule_sync_mirror_fd(ss), &zero, &m) ? -errno : 0;
}

/*
 * Everything that needed privilege is done: programs attached, port bound,
 * the log group joined, the command released. The loop keeps only what it
 * uses (privileges.c says what and why), then the server threads start.
 */
int session_lower_privileges(struct session *ss)
{
	const char *textfile = ss->opt->metrics_textfile;
	char kept[256], why[512];
	int err;

	err = privileges_lower(&ss->run_as, probe_map_read, ss, kept, sizeof(kept), why,
			       sizeof(why));
	if (err) {
		fprintf(stderr, "auditskip: %s\n", why);
		return err;
	}
	if (ss->opt->verbose)
		fprintf(stderr, "auditskip: counting with %s only%s%s\n", kept,
			ss->run_as.name ? ", as user " : "",
			ss->run_as.name ? ss->run_as.name : "");
	/* The first page was written as root: say now if the new user cannot replace it. */
	if (textfile && metrics_textfile_check(textfile, why, sizeof(why))) {
		fprintf(stderr, "auditskip: --metrics-textfile %s: %s\n", textfile, why);
		return -EACCES;
	}
	if (!ss->metrics)
		return 0;
	if (metrics_serve(ss->metrics, why, sizeof(why))) {
		fprintf(stderr, "auditskip: cannot serve metrics on %s: %s\n", ss->opt->metrics,
			why);
		return -EINVAL;
	}
	fprintf(stderr, "auditskip: metrics at %s://%s/metrics\n",
		metrics_tls(ss->metrics) ? "https" : "http", ss->opt->metrics);
	return 0;
}

/* A profile has no report until its end: what it has recorded, on stderr. */
static void profile_progress(struct session *ss, double t)
{
	if (publish_read_walks(ss))
		return;
	fprintf(stderr, "auditskip: profiling for %.0f s: %llu calls recorded\n", t - ss->start,
		(unsigned long long)ss->now->exit.total.walks);
}

/* One interval line; the intervals add up to the summary. */
static void report_delta(struct session *ss, double seconds)
{
	struct report_ctx report = report_of(ss);

	walks_subtract(ss->delta, ss->now, ss->prev);
	duty_cycle_view(ss, now_s());
	report_interval(&report, ss->delta, seconds);
	*ss->prev = *ss->now;
}

static bool target_gone(struct session *ss)
{
	if (ss->child.pid) {
		ss->command_status = command_poll(&ss->child, false);
		return ss->command_status >= 0;
	}
	return ss->opt->pid && kill(ss->opt->pid, 0) && errno == ESRCH;
}

/* The earliest of six times, each 0 where there is none (next_tick always is). */
static double earliest(double next_tick, double a, double b, double c, double d, double e)
{
	const double t[] = { a, b, c, d, e };
	double wake = next_tick;

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (t[i] && t[i] < wake)
			wake = t[i];
	return wake;
}

/* How often a profiling run says how far it has got. */
#define PROFILE_PROGRESS_S 10.0

/*
 * Until a signal, the end of -d, or the target's exit. Every tick reads
 * audit's status and what BPF logged; the rules are listed when resync
 * says (a change heard, a record lost, the periodic check).
 */
int session_run(struct session *ss)
{
	const struct count_options *opt = ss->opt;
	double tick_s = opt->sync_ms / 1000.0, next_tick, next_report, next_progress, end;

	ss->start = now_s();
	next_tick = ss->start + tick_s;
	next_report = opt->interval ? ss->start + opt->interval : 0;
	next_progress = opt->profiling ? ss->start + PROFILE_PROGRESS_S : 0;
	end = opt->duration ? ss->start + opt->duration : 0;
	while (!stop_signal && !target_gone(ss)) {
		double t = now_s(), wake;
		__u32 zero = 0;

		if (end && t >= end)
			break;
		if (t >= next_tick || ss->status_due) {
			rule_sync_read_status(ss);
			publish_read_bpf_state(ss);
			if (t >= next_tick) {
				publish_metrics(ss);
				next_tick = t + tick_s;
			}
		}
		if (t >= resync_due(&ss->resync)) {
			rule_sync_list(ss, resync_reason(&ss->resync));
			publish_metrics(ss);
		}
		if (duty_cycle_update(ss, t))
			rule_sync_list(ss, RESYNC_PERIODIC);
		if (duty_cycle_apply(ss))
			return -EIO;
		if (next_report && t >= next_report) {
			/* In trampoline modes the mirror changes between syncs. */
			bpf_map_lookup_elem(rule_sync_mirror_fd(ss), &zero, &ss->run.live.mirror);
			publish_read_walks(ss);
			report_delta(ss, t - (next_report - opt->interval));
			next_report += opt->interval;
		}
		if (next_progress && t >= next_progress) {
			profile_progress(ss, t);
			next_progress += PROFILE_PROGRESS_S;
		}
		wake = earliest(next_tick, resync_due(&ss->resync), next_report, next_progress,
				duty_cycle_next_s(ss), end);
		/* With a listing already wanted, what audit logs meanwhile is in it. */
		wait_s(ss, wake - now_s(), ss->resync.wanted ? -1 : ss->notify_fd);
	}
	/* A signal meant for us also ends the command, so its report is whole. */
	if (ss->child.pid && ss->command_status < 0) {
		kill(ss->child.pid, stop_signal ? stop_signal : SIGTERM);
		ss->command_status = command_poll(&ss->child, true);
	}
	if (opt->interval) {
		publish_read_walks(ss);
		report_delta(ss, now_s() - (next_report - opt->interval));
	}
	return 0;
}

void session_finish(struct session *ss)
{
	struct report_ctx report = report_of(ss);

	rule_sync_all(ss);
	publish_read_walks(ss);
	publish_cost_rules(ss);
	duty_cycle_view(ss, now_s());
	report_summary(&report, ss->now, now_s() - ss->start, ss->command_status);
	publish_metrics(ss);
}

int session_save_profile(struct session *ss, const char *path)
{
	struct profile *p = calloc(1, sizeof(*p));
	__u64 calls = 0, syscalls = 0;
	int err;

	if (!p) {
		fprintf(stderr, "auditskip: out of memory\n");
		return -ENOMEM;
	}
	err = publish_read_walks(ss);
	if (err) {
		fprintf(stderr, "auditskip: cannot read the counts: %s\n", strerror(-err));
		free(p);
		return err;
	}
	publish_read_bpf_state(ss);
	profile_from_counts(p, &ss->now->exit);
	snprintf(p->kernel, sizeof(p->kernel), "%s", ss->kernel);
	snprintf(p->mode, sizeof(p->mode), "%s", modes[ss->at.mode].name);
	snprintf(p->scope, sizeof(p->scope), "%s", ss->scope);
	p->seconds = now_s() - ss->start;
	p->blind_spots_known = mode_sees(ss->at.mode, MODE_JUDGES_AT_ENTRY);
	p->exit_calls_inferred = ss->run.live.counters[RUN_COUNTER_exit_walks_inferred];
	p->uring_enter_calls = ss->run.live.counters[RUN_COUNTER_uring_enter_walks];
	err = profile_save(path, p);
	if (err) {
		fprintf(stderr, "auditskip: cannot write the profile to %s: %s\n", path,
			strerror(-err));
		free(p);
		return err;
	}
	for (unsigned int i = 0; i < NR_COUNT_SLOTS; i++) {
		calls += p->calls[i];
		syscalls += p->calls[i] != 0;
	}
	printf("auditskip: profile of %s over %.1f s (mode %s): %llu calls of %llu syscalls audit would filter, written to %s\n",
	       p->scope, p->seconds, p->mode, (unsigned long long)calls,
	       (unsigned long long)syscalls, path);
	if (!calls)
		printf("  no call was recorded: tasks started before audit was enabled are never audited\n");
	free(p);
	return 0;
}

int session_close(struct session *ss, int err)
{
	int ret = ss->exec_failed ? 127 : err ? 1 : ss->child.pid ? ss->command_status : 0;

	/* Never leave a command running uncounted: it may not have exec'd yet. */
	if (err && ss->child.pid)
		command_abort(&ss->child);
	if (ss->notify_fd >= 0)
		close(ss->notify_fd);
	metrics_stop(ss->metrics);
	attach_destroy(&ss->at);
	ruleset_free(&ss->rules);
	shadowing_free(&ss->shadowing);
	free(ss->comms);
	rule_costs_free(&ss->rule_costs);
	design_savings_free(&ss->designs);
	free(ss->design_inputs);
	free(ss->now);
	free(ss->prev);
	free(ss->delta);
	free(ss->hist);
	return ret;
}
