// SPDX-License-Identifier: GPL-2.0
/*
 * Where audit's per-syscall time goes (`auditskip hotspots`): the
 * syscall's own interval from the raw sys_enter to sys_exit tracepoints
 * (audit's entry runs after the first, its exit before the second:
 * kernel/entry/common.c), and inside it an fentry and fexit pair on each
 * audit function of the exit path that the kernel lets a trampoline reach.
 * Each interval also counts the hooked calls nested in it, so the loader
 * can take the trampolines' own cost off: a pair inside another adds its
 * cost to the outer interval.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "hotspots_maps.h"
#include "maps.bpf.h"

char LICENSE[] SEC("license") = "GPL";

const volatile bool filter_tasks = false; /* only the tgids in `tracked` */
const volatile __u32 self_tgid = 0;	  /* the loader, left out without a filter */
const volatile bool alone = false;	  /* only the exit path's pair: sums into alone_* */

__u64 alone_calls = 0, alone_ns = 0, lost_tasks = 0;
/*
 * Set by the loader once every program is attached, cleared before any is
 * detached: a whole-machine run (-d) attaches while syscalls run, and one
 * followed before the walk's hook came would count an exit that ran the
 * filters with no walk timed.
 */
bool armed = false;
__u64 ref_calls = 0, ref_ns = 0, ref_min_ns = 0;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, HS_MAX_TASKS);
	__type(key, __u32);
	__type(value, struct hs_task);
} tasks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, HS_MAX_SYSCALLS);
	__type(key, __u32);
	__type(value, struct hs_stats);
} stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 8192);
	__type(key, __u32);
	__type(value, __u8);
} tracked SEC(".maps");

static const struct hs_task zero_task;
static const struct hs_stats zero_stats;

static __always_inline bool current_tracked(void)
{
	__u32 tgid = bpf_get_current_pid_tgid() >> 32;

	if (filter_tasks)
		return bpf_map_lookup_elem(&tracked, &tgid);
	return tgid != self_tgid;
}

/* The task's state, made afresh when `create` (a new syscall) and the task is followed. */
static __always_inline struct hs_task *task_state(bool create)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();

	if (!create)
		return bpf_map_lookup_elem(&tasks, &tid);
	if (!armed || !current_tracked())
		return NULL;
	if (bpf_map_update_elem(&tasks, &tid, &zero_task, BPF_ANY)) {
		__sync_fetch_and_add(&lost_tasks, 1);
		return NULL;
	}
	return bpf_map_lookup_elem(&tasks, &tid);
}

static __always_inline void begin(struct hs_task *st, enum hs_part p)
{
	st->pairs0[p] = st->pairs;
	st->t0[p] = bpf_ktime_get_ns();
}

/* Every hooked call counts as a nested pair of whatever encloses it, timed or not. */
static __always_inline void end(struct hs_task *st, enum hs_part p, __u64 t1)
{
	if (st->t0[p]) {
		st->ns[p] += t1 - st->t0[p];
		st->npairs[p] += st->pairs - st->pairs0[p];
		st->part_calls[p]++;
		st->t0[p] = 0;
	}
	st->pairs++;
}

static __always_inline void add_syscall(struct hs_task *st, __u64 t1)
{
	__u32 nr = st->nr;
	struct hs_stats *s;

	if (!armed)
		return;
	s = map_lookup_or_insert(&stats, &nr, &zero_stats, NULL);
	if (!s)
		return;
	__sync_fetch_and_add(&s->calls, 1);
	__sync_fetch_and_add(&s->sys_ns, t1 - st->sys_t0);
	__sync_fetch_and_add(&s->sys_pairs, st->pairs);
	__sync_fetch_and_add(&s->filtered, st->filtered);
	__sync_fetch_and_add(&s->records, st->records);
	__sync_fetch_and_add(&s->sys_off, st->sys_off);
	for (int p = 0; p < HS_NR_PARTS; p++) {
		__sync_fetch_and_add(&s->off[p], st->off[p]);
		__sync_fetch_and_add(&s->ns[p], st->ns[p]);
		__sync_fetch_and_add(&s->pairs[p], st->npairs[p]);
		__sync_fetch_and_add(&s->part_calls[p], st->part_calls[p]);
	}
	st->sys_t0 = 0;
}

SEC("raw_tracepoint/sys_enter")
int hs_sys_enter(struct bpf_raw_tracepoint_args *args)
{
	struct hs_task *st = task_state(true);

	if (!st)
		return 0;
	st->nr = (__u32)args->args[1];
	st->sys_t0 = bpf_ktime_get_ns();
	return 0;
}

SEC("raw_tracepoint/sys_exit")
int hs_sys_exit(struct bpf_raw_tracepoint_args *args)
{
	__u64 t1 = bpf_ktime_get_ns();
	struct hs_task *st = task_state(false);

	if (st && st->sys_t0)
		add_syscall(st, t1);
	return 0;
}

SEC("fentry/__audit_syscall_entry")
int BPF_PROG(hs_entry_start)
{
	struct hs_task *st = task_state(false);

	if (st && st->sys_t0)
		begin(st, HS_ENTRY);
	return 0;
}

SEC("fexit/__audit_syscall_entry")
int BPF_PROG(hs_entry_end)
{
	__u64 t1 = bpf_ktime_get_ns();
	struct hs_task *st = task_state(false);

	if (st)
		end(st, HS_ENTRY, t1);
	return 0;
}

/* 5.10's context had in_syscall where 5.16 put the context kind (io_uring). */
struct audit_context___old {
	int dummy;
	int in_syscall;
} __attribute__((preserve_access_index));

/* What __audit_syscall_exit() tests before it filters (kernel/auditsc.c). */
static __always_inline bool context_filtered(void)
{
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();
	struct audit_context *ctx = BPF_CORE_READ(task, audit_context);

	if (!ctx || BPF_CORE_READ(ctx, dummy))
		return false;
	if (bpf_core_field_exists(ctx->context))
		return BPF_CORE_READ(ctx, context) == 1; /* AUDIT_CTX_SYSCALL */
	return BPF_CORE_READ((struct audit_context___old *)ctx, in_syscall);
}

static __always_inline int exit_start(void)
{
	struct hs_task *st = task_state(alone);

	if (!st || (!alone && !st->sys_t0))
		return 0;
	st->filtered += context_filtered();
	begin(st, HS_EXIT);
	return 0;
}

static __always_inline int exit_end(bool last)
{
	__u64 t1 = bpf_ktime_get_ns();
	struct hs_task *st = task_state(false);
	__u32 tid;

	if (!st)
		return 0;
	if (alone && st->t0[HS_EXIT]) {
		/* Preempted in this program after t1 was read: off time past the interval. */
		if (st->off[HS_EXIT] > t1 - st->t0[HS_EXIT])
			st->off[HS_EXIT] = t1 - st->t0[HS_EXIT];
		__sync_fetch_and_add(&alone_calls, 1);
		__sync_fetch_and_add(&alone_ns, t1 - st->t0[HS_EXIT] - st->off[HS_EXIT]);
		st->t0[HS_EXIT] = 0;
		st->off[HS_EXIT] = 0;
		return 0;
	}
	end(st, HS_EXIT, t1);
	/* A task's last call (exit_group) reaches no sys_exit: it ends here. */
	if (last && st->sys_t0) {
		add_syscall(st, t1);
		tid = (__u32)bpf_get_current_pid_tgid();
		bpf_map_delete_elem(&tasks, &tid);
	}
	return 0;
}

SEC("fentry/__audit_syscall_exit")
int BPF_PROG(hs_exit_start)
{
	return exit_start();
}

SEC("fexit/__audit_syscall_exit")
int BPF_PROG(hs_exit_end)
{
	return exit_end(false);
}

SEC("fentry/__audit_free")
int BPF_PROG(hs_free_start)
{
	return exit_start();
}

SEC("fexit/__audit_free")
int BPF_PROG(hs_free_end)
{
	return exit_end(true);
}

/* Inside the exit path only (io_uring's and the task filter's calls are not the syscall's). */
static __always_inline int nested_start(enum hs_part p)
{
	struct hs_task *st = task_state(false);

	if (!st || !st->t0[HS_EXIT])
		return 0;
	/* The inode buckets' walks belong to audit_filter_inodes(). */
	if (p == HS_WALK && st->t0[HS_INODES])
		return 0;
	begin(st, p);
	return 0;
}

static __always_inline int nested_end(enum hs_part p)
{
	__u64 t1 = bpf_ktime_get_ns();
	struct hs_task *st = task_state(false);

	if (st)
		end(st, p, t1);
	return 0;
}

/* The walk: its target (audit_filter_syscall or __audit_filter_op) set by the loader. */
SEC("fentry")
int BPF_PROG(hs_walk_start)
{
	return nested_start(HS_WALK);
}

SEC("fexit")
int BPF_PROG(hs_walk_end)
{
	return nested_end(HS_WALK);
}

SEC("fentry/audit_filter_inodes")
int BPF_PROG(hs_inodes_start)
{
	return nested_start(HS_INODES);
}

SEC("fexit/audit_filter_inodes")
int BPF_PROG(hs_inodes_end)
{
	return nested_end(HS_INODES);
}

SEC("fentry/audit_log_exit")
int BPF_PROG(hs_records_start)
{
	return nested_start(HS_RECORDS);
}

SEC("fexit/audit_log_exit")
int BPF_PROG(hs_records_end)
{
	return nested_end(HS_RECORDS);
}

SEC("fentry/audit_log_start")
int BPF_PROG(hs_log_start_start)
{
	return nested_start(HS_LOG_START);
}

SEC("fexit/audit_log_start")
int BPF_PROG(hs_log_start_end, struct audit_context *actx, gfp_t gfp, int type,
	     struct audit_buffer *ab)
{
	__u64 t1 = bpf_ktime_get_ns();
	struct hs_task *st = task_state(false);

	if (!st)
		return 0;
	if (ab && st->t0[HS_LOG_START])
		st->records++;
	end(st, HS_LOG_START, t1);
	return 0;
}

/*
 * The reference: the same work around bpf_fentry_test1(), whose body is
 * one addition, called by BPF_PROG_TEST_RUN of a tracing program.
 */
SEC("fentry/bpf_fentry_test1")
int BPF_PROG(hs_ref_start)
{
	struct hs_task *st = task_state(false);

	if (st)
		begin(st, HS_REF);
	return 0;
}

SEC("fexit/bpf_fentry_test1")
int BPF_PROG(hs_ref_end)
{
	__u64 t1 = bpf_ktime_get_ns();
	struct hs_task *st = task_state(false);

	if (!st || !st->t0[HS_REF])
		return 0;
	ref_calls++;
	ref_ns += t1 - st->t0[HS_REF];
	if (!ref_min_ns || t1 - st->t0[HS_REF] < ref_min_ns)
		ref_min_ns = t1 - st->t0[HS_REF];
	end(st, HS_REF, t1);
	return 0;
}

/*
 * Time off the CPU inside an interval (a wait for a full backlog in
 * audit_log_start(), kauditd or the audit daemon run in its place after
 * audit_log_end() woke them) is kept apart from the time the work ran.
 */
SEC("raw_tracepoint/sched_switch")
int hs_switch(struct bpf_raw_tracepoint_args *args)
{
	struct task_struct *prev = (struct task_struct *)args->args[1];
	struct task_struct *next = (struct task_struct *)args->args[2];
	__u32 tid = BPF_CORE_READ(prev, pid);
	__u64 now = bpf_ktime_get_ns(), d;
	struct hs_task *st = bpf_map_lookup_elem(&tasks, &tid);

	if (st && (st->sys_t0 || st->t0[HS_EXIT]))
		st->off_t0 = now;
	tid = BPF_CORE_READ(next, pid);
	st = bpf_map_lookup_elem(&tasks, &tid);
	if (!st || !st->off_t0)
		return 0;
	d = now - st->off_t0;
	st->off_t0 = 0;
	if (st->sys_t0)
		st->sys_off += d;
	for (int p = 0; p < HS_NR_PARTS; p++)
		if (st->t0[p])
			st->off[p] += d;
	return 0;
}

/* `-- COMMAND`: its descendants are followed too. */
SEC("raw_tracepoint/sched_process_fork")
int hs_follow_fork(struct bpf_raw_tracepoint_args *args)
{
	struct task_struct *parent = (struct task_struct *)args->args[0];
	struct task_struct *child = (struct task_struct *)args->args[1];
	__u32 ptgid = BPF_CORE_READ(parent, tgid), ctgid = BPF_CORE_READ(child, tgid);
	__u8 one = 1;

	if (ptgid != ctgid && bpf_map_lookup_elem(&tracked, &ptgid))
		bpf_map_update_elem(&tracked, &ctgid, &one, BPF_ANY);
	return 0;
}
