// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "auditskip.h" /* before the skeleton: its mirror section is a struct mask_mirror */
#include "auditskip.skel.h"
#include "output/metrics_textfile.h"
#include "live/privileges.h"
#include "audit/kernel_rule.h"
#include "audit/netlink.h"
#include "live/config_change.h"
#include "live/counts_read.h"
#include "live/duty_cycle.h"
#include "live/clock.h"
#include "live/session.h"
#include "live/rule_matches_read.h"
#include "live/stale_watch.h"
#include "audit/syscalls.h"
#include "live/sysinfo.h"
#include "model/designs.h"
#include "model/prediction.h"
#include "model/profile.h"
#include "model/sharper_masks.h"

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
	/* A command that died at its gate must not kill us when we open it. */
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
	sa.sa_handler = on_child;
	sa.sa_flags = SA_NOCLDSTOP;
	sigaction(SIGCHLD, &sa, NULL);
}

/* What the change records read tell, but whether to list. */
static void hear(struct session *ss, const struct config_changes *c)
{
	ss->notifications += c->records;
	if (c->audit_off)
		resync_audit_off(&ss->resync);
	if (c->status)
		ss->status_due = true;
	if (c->lost || c->rules) {
		ss->change_heard = true;
		ss->last_change_s = wall_s();
	}
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
	hear(ss, &c);
	if (c.lost)
		resync_want(&ss->resync, RESYNC_LOST);
	else if (c.rules)
		resync_want(&ss->resync, RESYNC_CHANGE);
}

static int read_walks(struct session *ss)
{
	struct auditskip_bpf *skel = ss->at.skel;
	int err = counts_read(bpf_map__fd(skel->maps.counts), NR_COUNT_SLOTS, &ss->now->exit);

	if (!err && ss->hist)
		err = hist_read(bpf_map__fd(skel->maps.walk_hist), ss->hist);
	return err ? err :
		     counts_read(bpf_map__fd(skel->maps.uring_counts), NR_SLOTS, &ss->now->uring);
}

static int mirror_fd(const struct session *ss)
{
	return bpf_map__fd(ss->at.skel->maps.data_mirror);
}

/* audit_n_rules as BPF reads it now, or -1 (its address is not known). */
static int kernel_n_rules_now(struct session *ss)
{
	struct bpf_program *prog = ss->at.skel->progs.read_n_rules_now;
	LIBBPF_OPTS(bpf_test_run_opts, opts);

	if (!bpf_program__autoload(prog) || bpf_prog_test_run_opts(bpf_program__fd(prog), &opts))
		return -1;
	return ss->at.skel->data->n_rules_now;
}

/*
 * Where no BPF program rebuilds it, the loader writes the mirror itself,
 * tagged with the rule count it was listed at (n_rules: -1 unknown, and
 * then every walk counts as judged by a lagging mirror). Its write count
 * moves on when the masks do, like a rebuild's, so a walk that ran across
 * it is told apart as raced; a new tag alone is no change of the masks.
 */
static int write_netlink_mirror(struct session *ss, int n_rules)
{
	struct mask_mirror *cur = &ss->run.live.mirror;
	struct mask_mirror m = {
		.exit_rules = ruleset_exit_rules(&ss->rules),
		.uring_rules = ruleset_rules_on(&ss->rules, AUDIT_FILTER_URING_EXIT),
		.source = MIRROR_NETLINK,
		.kernel_n_rules = n_rules,
		.generation = cur->generation,
		.seq = cur->seq,
	};
	__u32 zero = 0;

	ruleset_exit_mask(&ss->rules, -1, m.mask);
	ruleset_mask(&ss->rules, AUDIT_FILTER_URING_EXIT, -1, m.uring_mask);
	if (ss->opt->corrupt_nr >= 0)
		m.mask[ss->opt->corrupt_nr / 32] &= ~(1U << (ss->opt->corrupt_nr % 32));
	if (cur->source != m.source || cur->exit_rules != m.exit_rules ||
	    cur->uring_rules != m.uring_rules || !mask_equal(cur->mask, m.mask) ||
	    !mask_equal(cur->uring_mask, m.uring_mask)) {
		m.generation++;
		m.seq++;
	} else if (cur->kernel_n_rules == m.kernel_n_rules) {
		return 0;
	}
	if (bpf_map_update_elem(mirror_fd(ss), &zero, &m, BPF_ANY))
		return -errno;
	*cur = m;
	return 0;
}

/*
 * Runs of the loaded programs that the kernel skipped because the program
 * was already running on that CPU (bpf_prog_inc_misses_counter()): where the
 * kernel runs a program preemptible (trampolines; syscall tracepoints on
 * kernels where they may fault), another task's syscall can come while one
 * is preempted. Each
 * may be a walk not counted, or a syscall whose entry was not seen.
 */
static __u64 recursion_misses(const struct bpf_object *obj)
{
	struct bpf_program *prog;
	__u64 n = 0;

	bpf_object__for_each_program (prog, obj) {
		struct bpf_prog_info info = {};
		__u32 len = sizeof(info);
		int fd = bpf_program__fd(prog);

		if (fd >= 0 && !bpf_obj_get_info_by_fd(fd, &info, &len))
			n += info.recursion_misses;
	}
	return n;
}

/* What the BPF side logged since the last sync, for the report. */
static void read_bpf_state(struct session *ss)
{
	struct auditskip_bpf *skel = ss->at.skel;
	struct run_live *live = &ss->run.live;

	if (ss->opt->per_comm) {
		free(ss->comms);
		ss->comms = NULL;
		if (comms_read(bpf_map__fd(skel->maps.comms), &ss->comms, &live->ncomms))
			live->ncomms = 0;
		live->comms = ss->comms;
		live->comms_lost = skel->bss->comms_lost;
	}
	live->missed_total = skel->bss->missed_total;
	live->clock_ns = skel->bss->clock_ns;
	live->lost_descendants = skel->bss->lost_children;
#define RUN_FROM_BSS(name) skel->bss->name
#define RUN_FROM_PROG_INFO(name) recursion_misses(skel->obj)
#define READ_RUN_COUNTER(name, source, ...) live->counters[RUN_COUNTER_##name] = source(name);
	RUN_COUNTERS(READ_RUN_COUNTER)
#undef READ_RUN_COUNTER
#undef RUN_FROM_PROG_INFO
#undef RUN_FROM_BSS
	for (__u32 i = 0; i < MISSED_LOG && i < live->missed_total; i++)
		bpf_map_lookup_elem(bpf_map__fd(skel->maps.missed_log), &i, &live->missed[i]);
}

/* Audit's state for the BPF side, and for when to list (lost records, audit off). */
static void read_status(struct session *ss)
{
	struct auditskip_bpf *skel = ss->at.skel;
	struct audit_status_info st;

	ss->status_due = false;
	if (audit_status_read(&st))
		return;
	skel->bss->audit_on = st.enabled;
	skel->bss->auditd_tgid = st.auditd_pid;
	resync_status(&ss->resync, st.enabled, st.lost);
}

/*
 * The rules a never rule before them silences, once a listing rather than
 * at every report and scrape: the tables' permission classes, as the
 * counts' perm-narrowed mask and `auditskip rules` take them, so that the
 * three agree. Without memory the reports leave them out.
 */
static void find_shadowing(struct session *ss)
{
	shadowing_free(&ss->shadowing);
	ss->run.live.shadowing =
		shadowing_find(&ss->rules, NULL, &ss->shadowing) ? NULL : &ss->shadowing;
}

/*
 * Lists the rules and refreshes what the loader owns from them: names,
 * keys and staleness, the mirror where no BPF program keeps it, the
 * what-if masks.
 */
static int list_and_apply(struct session *ss)
{
	struct auditskip_bpf *skel = ss->at.skel;
	struct whatif_masks w;
	struct ruleset fresh;
	__u32 zero = 0;
	bool settled = false;
	int listed_at, err;

	/*
	 * One syscall that logs no record in every ruleless epoch, so that a
	 * stale count shows on an idle machine too (note_ruleless()).
	 */
	if (mode_sees(ss->at.mode, MODE_JUDGES_AT_ENTRY))
		syscall(SYS_getppid);
	/* What is queued now is in this listing; what comes later is for the next. */
	if (ss->notify_fd >= 0) {
		struct config_changes c = { 0 };

		config_change_drain(ss->notify_fd, &c);
		hear(ss, &c);
	}
	/*
	 * The listing, the mirror and audit_n_rules must be of one list: a
	 * rule premarked while we listed is missing from the listing, and a
	 * staleness verdict that held a count against another list than the
	 * one listed would be false. Listed again while the mirror was
	 * written (a rule change, or the first listing's own rebuild) or the
	 * count moved; after four tries the mirror the loader keeps is tagged
	 * as behind and the verdict waits for the next listing.
	 */
	for (int tries = 0;; tries++) {
		struct mask_mirror was;
		int before, after;

		if (bpf_map_lookup_elem(mirror_fd(ss), &zero, &was))
			return -errno;
		before = kernel_n_rules_now(ss);
		err = ruleset_load(&fresh); /* in trampoline modes this also rebuilds the mirror */
		if (err)
			return err;
		after = kernel_n_rules_now(ss);
		if (bpf_map_lookup_elem(mirror_fd(ss), &zero, &ss->run.live.mirror)) {
			ruleset_free(&fresh);
			return -errno;
		}
		settled = ss->run.live.mirror.seq == was.seq && before == after;
		listed_at = settled ? after : -1;
		if (settled || tries == 3)
			break;
		ruleset_free(&fresh);
	}
	ruleset_free(&ss->rules);
	ss->rules = fresh;
	ss->run.live.rules = &ss->rules;
	ss->run.live.rule_costs = NULL; /* costed against the rules replaced */
	ss->run.live.designs = NULL;
	find_shadowing(ss);
	if (ss->run.live.mirror.source != MIRROR_KERNEL_LIST) {
		err = write_netlink_mirror(ss, listed_at);
		if (err)
			return err;
	}
	whatif_build(&ss->rules, NULL, &w);
	w.mirror_seq = ss->run.live.mirror.seq;
	if (bpf_map_update_elem(bpf_map__fd(skel->maps.data_whatif), &zero, &w, BPF_ANY))
		return -errno;
	skel->bss->whatif_differs = whatif_differs(&ss->rules, &w);
	if (settled)
		stale_watch(ss);
	return 0;
}

/* A listing's CPU time sets when the next one may run; a failed one is tried again. */
static int list_rules(struct session *ss, enum resync_reason why)
{
	double cpu0 = thread_cpu_s(), began = wall_s();
	int err = list_and_apply(ss);

	if (err) {
		resync_failed(&ss->resync, now_s(), thread_cpu_s() - cpu0);
		return err;
	}
	resync_listed(&ss->resync, why, now_s(), thread_cpu_s() - cpu0,
		      !ruleset_may_drop_config_change(&ss->rules));
	ss->resync.began_wall_s = began;
	return 0;
}

/* Status, rules and what BPF logged: at start, and for the summary. */
static int sync_rules(struct session *ss)
{
	int err;

	read_status(ss);
	err = list_rules(ss, RESYNC_START);
	read_bpf_state(ss);
	return err;
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
	ss->report = (struct report_ctx){
		.out = stdout,
		.json = opt->json,
		.top = opt->top,
		.run = &ss->run,
	};
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
	err = sync_rules(ss);
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

/* What the designs are priced from: the walks so far as a profile, predicted under the rules. */
struct design_inputs {
	struct profile profile;
	struct prediction pred;
	struct kernel_classes classes; /* the tables', as the counts' perm-narrowed mask */
};

/* --per-rule: the designs (designs.h) on the walks so far, under the rules now. */
static void compare_designs(struct session *ss)
{
	struct design_inputs *in = ss->design_inputs;
	struct run_live *live = &ss->run.live;

	if (!in) {
		in = ss->design_inputs = calloc(1, sizeof(*in));
		if (!in)
			return;
		kernel_classes_from_tables(&in->classes);
	}
	design_savings_free(&ss->designs);
	live->designs = NULL;
	profile_from_counts(&in->profile, &ss->now->exit);
	if (prediction_make(&ss->rules, &in->profile, &in->classes, &in->pred))
		return;
	if (!design_savings_make(&ss->rules, &in->pred, &in->classes, &ss->calib, &ss->designs))
		live->designs = &ss->designs;
	prediction_free(&in->pred);
}

/*
 * --per-rule: each exit rule's visits, evaluations, matches and cost since
 * the start. Exact where the mode sees which rule a walk matched and the
 * list's priorities fit the listed rules (rule_matches_read.h).
 */
static void cost_rules(struct session *ss)
{
	struct auditskip_bpf *skel = ss->at.skel;
	struct run_live *live = &ss->run.live;
	struct rule_match_reading m = { 0 };
	const char *bound = NULL;
	__u64 *walks;

	if (!ss->opt->per_rule)
		return;
	walks = calloc(NR_COUNT_SLOTS, sizeof(*walks));
	if (!walks)
		return;
	if (!ss->run.cfg.outcomes)
		bound = "this mode does not see which rule a walk matched";
	else if (!ss->at.kernel_mirror)
		bound = "the kernel's exit list cannot be read here (audit_filter_list not in kallsyms, or no bpf_loop())";
	else if (rule_matches_read(bpf_map__fd(skel->maps.rule_matches),
				   bpf_map__fd(skel->maps.exit_prios), live->mirror.exit_rules,
				   &ss->rules, &m))
		bound = "the matches could not be read";
	else if (!m.placed)
		bound = "the rules changed since they were listed";
	else if (skel->bss->rule_matches_lost)
		bound = "the match map was full: some matches were not counted by rule";
	for (unsigned int s = 0; s < NR_COUNT_SLOTS; s++)
		walks[s] = ss->now->exit.slot[s].walks;
	rule_costs_free(&ss->rule_costs);
	live->rule_costs = NULL;
	if (!rule_costs_make(&ss->rules,
			     &(struct walk_tally){ .walks = walks,
						   .exact = !bound,
						   .matches = m.matches,
						   .nmatches = m.n },
			     &ss->calib, &ss->rule_costs))
		live->rule_costs = &ss->rule_costs;
	live->rule_costs_bound = bound;
	live->rule_matches_unplaced = m.unplaced;
	rule_match_reading_free(&m);
	free(walks);
	compare_designs(ss);
}

/* The totals so far to the metrics endpoint and the node_exporter textfile. */
static void publish_metrics(struct session *ss)
{
	if ((!ss->metrics && !ss->opt->metrics_textfile) || read_walks(ss))
		return;
	cost_rules(ss);
	duty_cycle_view(ss, now_s());
	if (ss->metrics)
		metrics_update(ss->metrics, &ss->run, &ss->now->exit);
	if (ss->opt->metrics_textfile)
		metrics_textfile_write(ss->opt->metrics_textfile, &ss->run, &ss->now->exit);
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
	duty_start(&ss->duty, opt->duty_window_s, opt->duty_period_s, now_s());
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
	if (!opt->profiling)
		report_start(&ss->report);
	else
		fprintf(stderr, "auditskip: profiling %s (mode %s), then writing %s\n", ss->scope,
			modes[ss->at.mode].name, opt->output);
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

	return bpf_map_lookup_elem(mirror_fd(ss), &zero, &m) ? -errno : 0;
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
	if (read_walks(ss))
		return;
	fprintf(stderr, "auditskip: profiling for %.0f s: %llu calls recorded\n", t - ss->start,
		(unsigned long long)ss->now->exit.total.walks);
}

/* One interval line; the intervals add up to the summary. */
static void report_delta(struct session *ss, double seconds)
{
	walks_subtract(ss->delta, ss->now, ss->prev);
	duty_cycle_view(ss, now_s());
	report_interval(&ss->report, ss->delta, seconds);
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
			read_status(ss);
			read_bpf_state(ss);
			if (t >= next_tick) {
				publish_metrics(ss);
				next_tick = t + tick_s;
			}
		}
		if (t >= resync_due(&ss->resync)) {
			list_rules(ss, resync_reason(&ss->resync));
			publish_metrics(ss);
		}
		if (duty_cycle_update(ss, t))
			list_rules(ss, RESYNC_PERIODIC);
		if (duty_cycle_apply(ss))
			return -EIO;
		if (next_report && t >= next_report) {
			/* In trampoline modes the mirror changes between syncs. */
			bpf_map_lookup_elem(mirror_fd(ss), &zero, &ss->run.live.mirror);
			read_walks(ss);
			report_delta(ss, t - (next_report - opt->interval));
			next_report += opt->interval;
		}
		if (next_progress && t >= next_progress) {
			profile_progress(ss, t);
			next_progress += PROFILE_PROGRESS_S;
		}
		wake = earliest(next_tick, resync_due(&ss->resync), next_report, next_progress,
				duty_next_s(&ss->duty), end);
		/* With a listing already wanted, what audit logs meanwhile is in it. */
		wait_s(ss, wake - now_s(), ss->resync.wanted ? -1 : ss->notify_fd);
	}
	/* A signal meant for us also ends the command, so its report is whole. */
	if (ss->child.pid && ss->command_status < 0) {
		kill(ss->child.pid, stop_signal ? stop_signal : SIGTERM);
		ss->command_status = command_poll(&ss->child, true);
	}
	if (opt->interval) {
		read_walks(ss);
		report_delta(ss, now_s() - (next_report - opt->interval));
	}
	return 0;
}

void session_finish(struct session *ss)
{
	sync_rules(ss);
	read_walks(ss);
	cost_rules(ss);
	duty_cycle_view(ss, now_s());
	report_summary(&ss->report, ss->now, now_s() - ss->start, ss->command_status);
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
	err = read_walks(ss);
	if (err) {
		fprintf(stderr, "auditskip: cannot read the counts: %s\n", strerror(-err));
		free(p);
		return err;
	}
	read_bpf_state(ss);
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
