// SPDX-License-Identifier: GPL-2.0
/*
 * The hotspots run (live/hotspots.h). Which parts are timed is decided
 * from the kernel's BTF (a function inlined everywhere has no entry there,
 * and no trampoline can reach it) and from whether the kernel loads
 * fentry programs at all. Then the trampolines' own cost is measured on
 * bpf_fentry_test1(), the workload runs (a second time with only the exit
 * path hooked, for the check that the parts add up), and the sums are read.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "live/clock.h"
#include "live/command.h"
#include "live/hotspots.h"
#include "live/sysinfo.h"
#include "hotspots.skel.h"

/* Each part's hook, in BTF order of preference (the walk: 6.1's, then 5.16's helper). */
static const char *const part_funcs[HS_NR_PARTS][2] = {
	[HS_ENTRY] = { "__audit_syscall_entry" },
	[HS_WALK] = { "audit_filter_syscall", "__audit_filter_op" },
	[HS_INODES] = { "audit_filter_inodes" },
	[HS_RECORDS] = { "audit_log_exit" },
	[HS_LOG_START] = { "audit_log_start" },
	[HS_EXIT] = { "__audit_syscall_exit" },
	[HS_REF] = { "bpf_fentry_test1" },
};

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/* Which parts' functions the kernel's BTF has; the walk's target chosen. */
static void find_hooks(struct hotspots_run *r)
{
	struct btf *btf = btf__load_vmlinux_btf();

	for (int p = 0; p < HS_NR_PARTS; p++) {
		for (int k = 0; k < 2 && part_funcs[p][k] && !r->part_timed[p]; k++) {
			r->part_timed[p] = btf && btf__find_by_name_kind(btf, part_funcs[p][k],
									 BTF_KIND_FUNC) >= 0;
			if (r->part_timed[p] && p == HS_WALK)
				r->walk_func = part_funcs[p][k];
		}
		if (r->part_timed[p])
			continue;
		if (p == HS_WALK)
			snprintf(
				r->why_not[p], sizeof(r->why_not[p]),
				"audit_filter_syscall is inlined and there is no __audit_filter_op "
				"(5.16 and later): the walk is inside rest");
		else
			snprintf(r->why_not[p], sizeof(r->why_not[p]),
				 "%s is not in the kernel's BTF (inlined): inside rest",
				 part_funcs[p][0]);
	}
	btf__free(btf);
}

/* The programs of one part, loaded or not. */
static void part_autoload(struct hotspots_bpf *skel, int p, bool on)
{
	struct bpf_program *progs[HS_NR_PARTS][2] = {
		[HS_ENTRY] = { skel->progs.hs_entry_start, skel->progs.hs_entry_end },
		[HS_WALK] = { skel->progs.hs_walk_start, skel->progs.hs_walk_end },
		[HS_INODES] = { skel->progs.hs_inodes_start, skel->progs.hs_inodes_end },
		[HS_RECORDS] = { skel->progs.hs_records_start, skel->progs.hs_records_end },
		[HS_LOG_START] = { skel->progs.hs_log_start_start, skel->progs.hs_log_start_end },
		[HS_EXIT] = { skel->progs.hs_exit_start, skel->progs.hs_exit_end },
		[HS_REF] = { skel->progs.hs_ref_start, skel->progs.hs_ref_end },
	};

	for (int k = 0; k < 2; k++)
		bpf_program__set_autoload(progs[p][k], on);
	if (p == HS_EXIT) {
		bpf_program__set_autoload(skel->progs.hs_free_start, on);
		bpf_program__set_autoload(skel->progs.hs_free_end, on);
	}
}

enum hs_load {
	LOAD_BREAKDOWN, /* every part this kernel has, and the syscall tracepoints */
	LOAD_TRACEPOINTS,
	LOAD_ALONE, /* the exit path only */
	LOAD_REF,   /* the reference pair and sys_enter, for the loader's own task */
};

static struct hotspots_bpf *load(const struct hotspots_run *r, enum hs_load what, bool filter,
				 int *err)
{
	struct hotspots_bpf *skel = hotspots_bpf__open();
	bool tp = what == LOAD_BREAKDOWN || what == LOAD_TRACEPOINTS;

	if (!skel) {
		*err = -errno;
		return NULL;
	}
	skel->rodata->filter_tasks = filter || what == LOAD_REF;
	skel->rodata->self_tgid = (__u32)getpid();
	skel->rodata->alone = what == LOAD_ALONE;
	for (int p = 0; p < HS_NR_PARTS; p++)
		part_autoload(skel, p,
			      (what == LOAD_BREAKDOWN && p != HS_REF && r->part_timed[p]) ||
				      (what == LOAD_ALONE && p == HS_EXIT) ||
				      (what == LOAD_REF && p == HS_REF));
	bpf_program__set_autoload(skel->progs.hs_sys_enter, tp || what == LOAD_REF);
	bpf_program__set_autoload(skel->progs.hs_sys_exit, tp);
	bpf_program__set_autoload(skel->progs.hs_follow_fork, filter);
	bpf_program__set_autoload(skel->progs.hs_switch, what != LOAD_REF);
	if (r->walk_func && what == LOAD_BREAKDOWN) {
		bpf_program__set_attach_target(skel->progs.hs_walk_start, 0, r->walk_func);
		bpf_program__set_attach_target(skel->progs.hs_walk_end, 0, r->walk_func);
	}
	*err = hotspots_bpf__load(skel);
	if (*err) {
		hotspots_bpf__destroy(skel);
		return NULL;
	}
	return skel;
}

static int track(struct hotspots_bpf *skel, __u32 tgid)
{
	__u8 one = 1;

	return bpf_map__update_elem(skel->maps.tracked, &tgid, sizeof(tgid), &one, sizeof(one),
				    BPF_ANY) ?
		       -errno :
		       0;
}

#define REF_RUNS 2000
#define REF_ROUNDS 5

/*
 * This thread's CPU ns for REF_RUNS test runs of a tracing program (each
 * calls bpf_fentry_test1 once): not the wall clock, which would also count
 * whatever ran meanwhile (the RCU tasks thread freeing a trampoline).
 */
static double time_test_runs(int prog_fd)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	double t0 = thread_cpu_s();

	for (int i = 0; i < REF_RUNS; i++)
		if (bpf_prog_test_run_opts(prog_fd, &opts))
			return -1;
	return (thread_cpu_s() - t0) * 1e9;
}

/* The least of REF_ROUNDS timings: what else ran can only add. */
static double least_of_rounds(int prog_fd)
{
	double least = -1, t;

	for (int i = 0; i < REF_ROUNDS; i++) {
		t = time_test_runs(prog_fd);
		if (t < 0)
			return -1;
		if (least < 0 || t < least)
			least = t;
	}
	return least;
}

/*
 * The pair's cost: bpf_fentry_test1() called without, then with the
 * reference pair on it (attached once: no trampoline freed while timing);
 * its own gap from the gaps the pair timed.
 */
static int measure_pair(struct hotspots_run *r, bool *loaded)
{
	struct hotspots_bpf *skel;
	double with = -1, without;
	int err, fd;

	skel = load(r, LOAD_REF, true, &err);
	*loaded = skel != NULL;
	if (!skel)
		return err;
	err = track(skel, (__u32)getpid());
	skel->bss->armed = true;
	fd = bpf_program__fd(skel->progs.hs_ref_start);
	skel->links.hs_sys_enter = bpf_program__attach(skel->progs.hs_sys_enter);
	if (!err && !skel->links.hs_sys_enter)
		err = -errno;
	without = err ? -1 : least_of_rounds(fd);
	if (without >= 0) {
		skel->links.hs_ref_start = bpf_program__attach(skel->progs.hs_ref_start);
		skel->links.hs_ref_end = bpf_program__attach(skel->progs.hs_ref_end);
	}
	if (skel->links.hs_ref_start && skel->links.hs_ref_end)
		with = least_of_rounds(fd);
	if (!err && (without < 0 || with < 0))
		err = -EIO;
	if (!err && !skel->bss->ref_calls)
		err = -ENODATA;
	if (!err) {
		r->pair_ns = (with - without) / REF_RUNS;
		/* The least gap: the first calls through a new trampoline took longer. */
		r->ref_gap_ns = (double)skel->bss->ref_min_ns;
	}
	hotspots_bpf__destroy(skel);
	return err;
}

/* The workload: the command to its end, or the interval; `filter` says which. */
static int run_workload(struct hotspots_bpf *skel, const struct hotspots_req *req, int *status)
{
	struct command c;
	int err;

	*status = -1;
	if (!req->argv) {
		struct timespec ts = { (time_t)req->seconds,
				       (long)((req->seconds - (time_t)req->seconds) * 1e9) };

		while (!stop && nanosleep(&ts, &ts) && errno == EINTR)
			;
		return stop ? -EINTR : 0;
	}
	err = command_spawn(&c, req->argv);
	if (err)
		return err;
	err = track(skel, (__u32)c.pid);
	if (!err)
		err = command_release(&c);
	if (err) {
		command_abort(&c);
		return err;
	}
	*status = command_poll(&c, true);
	return stop ? -EINTR : 0;
}

static int read_rows(struct hotspots_bpf *skel, struct hotspots_run *r)
{
	int fd = bpf_map__fd(skel->maps.stats);
	__u32 key, next, *prev = NULL;

	r->rows = calloc(HS_MAX_SYSCALLS, sizeof(*r->rows));
	if (!r->rows)
		return -ENOMEM;
	while (r->nrows < HS_MAX_SYSCALLS && !bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		r->rows[r->nrows].nr = key;
		if (!bpf_map_lookup_elem(fd, &key, &r->rows[r->nrows].s))
			r->nrows++;
	}
	r->lost_tasks = skel->bss->lost_tasks;
	return 0;
}

/* One measured pass: load `what`, attach, run the workload, read the sums. */
static int pass(struct hotspots_run *r, const struct hotspots_req *req, enum hs_load what)
{
	struct audit_status_info before, after;
	struct hotspots_bpf *skel;
	double t0;
	int err;

	skel = load(r, what, req->argv != NULL, &err);
	if (!skel)
		return err;
	err = hotspots_bpf__attach(skel) ? -errno : 0;
	if (!err && what != LOAD_ALONE && audit_status_read(&before))
		before.lost = 0, r->lost_records = -1;
	t0 = now_s();
	skel->bss->armed = true;
	if (!err && !req->argv)
		fprintf(stderr, "auditskip: hotspots: timing the whole machine for %g s\n",
			req->seconds);
	if (!err)
		err = run_workload(skel, req, &r->command_status);
	skel->bss->armed = false;
	hotspots_bpf__detach(skel);
	if (!err && what == LOAD_ALONE) {
		r->alone_measured = true;
		r->alone_calls = skel->bss->alone_calls;
		r->alone_ns = skel->bss->alone_ns;
	} else if (!err) {
		r->seconds = now_s() - t0;
		if (r->lost_records >= 0 && !audit_status_read(&after))
			r->lost_records = (long)after.lost - (long)before.lost;
		err = read_rows(skel, r);
	}
	hotspots_bpf__destroy(skel);
	return err;
}

static void say_refused(struct hotspots_run *r, int err, bool loaded)
{
	for (int p = 0; p < HS_NR_PARTS; p++) {
		if (!r->part_timed[p])
			continue;
		r->part_timed[p] = false;
		snprintf(
			r->why_not[p], sizeof(r->why_not[p]),
			loaded ?
				"the hooks' own cost could not be measured on bpf_fentry_test1 (%s)" :
				"this kernel refuses fentry programs (%s)",
			strerror(-err));
	}
	r->walk_func = NULL;
}

/*
 * A function in BTF may still be inlined into __audit_syscall_exit (6.1's
 * audit_filter_inodes): its hook then never runs, though exits filtered.
 */
static void say_never_called(struct hotspots_run *r)
{
	static const int every_filtered_exit[] = { HS_WALK, HS_INODES };
	struct hs_stats all = { 0 };

	for (int i = 0; i < r->nrows; i++) {
		all.filtered += r->rows[i].s.filtered;
		all.part_calls[HS_WALK] += r->rows[i].s.part_calls[HS_WALK];
		all.part_calls[HS_INODES] += r->rows[i].s.part_calls[HS_INODES];
	}
	for (int k = 0; k < 2; k++) {
		int p = every_filtered_exit[k];

		if (!r->part_timed[p] || all.part_calls[p] || !all.filtered)
			continue;
		r->part_timed[p] = false;
		snprintf(r->why_not[p], sizeof(r->why_not[p]),
			 "its hook never ran in %llu exits that filtered: inlined into its "
			 "callers here (BTF lists a copy); inside rest",
			 (unsigned long long)all.filtered);
	}
}

int hotspots_measure(const struct hotspots_req *req, struct hotspots_run *out)
{
	bool loaded = false;
	int err;

	memset(out, 0, sizeof(*out));
	kernel_release(out->kernel, sizeof(out->kernel));
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	find_hooks(out);
	err = out->part_timed[HS_EXIT] && out->part_timed[HS_REF] ? measure_pair(out, &loaded) : 0;
	if (err == -EINTR)
		return err;
	if (err)
		say_refused(out, err, loaded);
	err = 0;
	if (out->part_timed[HS_EXIT] && req->alone && req->argv)
		err = pass(out, req, LOAD_ALONE);
	if (!err)
		err = pass(out, req, out->part_timed[HS_EXIT] ? LOAD_BREAKDOWN : LOAD_TRACEPOINTS);
	if (!err)
		say_never_called(out);
	if (err && err != -EINTR)
		fprintf(stderr, "auditskip: hotspots: %s\n", strerror(-err));
	return err;
}
