/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which tasks are counted: all, the tgids of -p, or `-- COMMAND` and its
 * descendants (the `tracked` map and the raw tracepoints that keep it), with
 * audit's own daemon left out as audit_filter_syscall() leaves it.
 */
#ifndef __SCOPE_BPF_H
#define __SCOPE_BPF_H

/* Tgids counted with -p or `-- COMMAND`. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MAX_TRACKED);
	__type(key, __u32);
	__type(value, __u8);
} tracked SEC(".maps");

/* Counted with -p or `-- COMMAND`. */
static __always_inline bool tgid_tracked(__u32 tgid)
{
	return bpf_map_lookup_elem(&tracked, &tgid);
}

/* In the counted scope; the tgid is read only when a scope is set. */
static __always_inline bool task_tracked(const struct task_struct *task, bool detailed)
{
	return !detailed || !filter_tasks || tgid_tracked(task->tgid);
}

/* In the counted scope, auditd aside. */
static __always_inline bool task_counted(__u32 tgid, bool detailed)
{
	return tgid != auditd_tgid && (!detailed || !filter_tasks || tgid_tracked(tgid));
}

/*
 * `-- COMMAND`: counted from its exec on. Before it, the loader's child
 * resets signals and waits at its gate, which is not the command's work,
 * and whose timing against the attach would differ from run to run.
 */
SEC("raw_tracepoint/sched_process_exec")
int track_exec(struct bpf_raw_tracepoint_args *args)
{
	__u32 tgid = bpf_get_current_pid_tgid() >> 32;
	__u8 one = 1;

	if (!exec_tgid || tgid != exec_tgid)
		return 0;
	bpf_map_update_elem(&tracked, &tgid, &one, BPF_ANY);
	exec_tgid = 0;
	return 0;
}

/* `-- COMMAND`: follow the command's descendants. */
SEC("raw_tracepoint/sched_process_fork")
int follow_fork(struct bpf_raw_tracepoint_args *args)
{
	struct task_struct *parent = (struct task_struct *)args->args[0];
	struct task_struct *child = (struct task_struct *)args->args[1];
	__u32 ptgid = BPF_CORE_READ(parent, tgid), ctgid = BPF_CORE_READ(child, tgid);
	__u8 one = 1;

	if (ptgid == ctgid || !bpf_map_lookup_elem(&tracked, &ptgid))
		return 0;
	if (bpf_map_update_elem(&tracked, &ctgid, &one, BPF_NOEXIST) == -E2BIG)
		__sync_fetch_and_add(&lost_children, 1);
	return 0;
}

/*
 * `-- COMMAND`: a process is forgotten when its group leader is freed, which
 * waits for every thread to have exited: each thread's last walk, in
 * __audit_free(), is done by then. (At sched_process_exit it was too early:
 * a thread whose exit came after signal->live reached 0 could forget the
 * tgid while the thread that dropped it was still to walk in
 * __audit_free(), and that walk went uncounted.)
 */
SEC("raw_tracepoint/sched_process_free")
int forget_exit(struct bpf_raw_tracepoint_args *args)
{
	struct task_struct *task = (struct task_struct *)args->args[0];
	__u32 tgid = BPF_CORE_READ(task, tgid);

	if ((__u32)BPF_CORE_READ(task, pid) == tgid)
		bpf_map_delete_elem(&tracked, &tgid);
	return 0;
}

#endif /* __SCOPE_BPF_H */
