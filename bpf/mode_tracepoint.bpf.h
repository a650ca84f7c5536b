/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracepoint mode: one raw tracepoint per syscall (sys_enter) counts the
 * walk of the task's previous syscall, as audit's entry hook armed it; the
 * task's last syscall is counted at a fatal signal or at its exit.
 */
#ifndef __MODE_TRACEPOINT_BPF_H
#define __MODE_TRACEPOINT_BPF_H

/* tracepoint mode: the syscall each task is in (struct syscall_entry). */
struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct syscall_entry);
} entries SEC(".maps");

/* The counters' arch of the syscall being entered. */
static __always_inline __u32 entering_arch(struct task_struct *task)
{
#if defined(__TARGET_ARCH_x86)
	return task->thread_info.status & TS_COMPAT ? ARCH_COMPAT : ARCH_NATIVE;
#else
	return task->thread_info.flags & (1UL << TIF_32BIT) ? ARCH_COMPAT : ARCH_NATIVE;
#endif
}

/*
 * tracepoint: whether a syscall's exit walk runs was settled by audit's
 * entry hook, in `dummy` (from audit_n_rules) and `context` (audit on, the
 * state not DISABLED; audit on is what `pending` says); audit_reset_context()
 * at its exit leaves `dummy` and `state` as they were, and nothing else
 * writes them before the task's next syscall entry (__audit_uring_entry()
 * only on a context that is not in a syscall, with the same audit_n_rules
 * unless a rule changed meanwhile).
 */
static __always_inline bool walk_armed(struct task_struct *task, bool detailed)
{
	struct audit_context *actx = task->audit_context;

	return actx && (!actx->dummy || (detailed && profile)) &&
	       actx->state != AUDIT_STATE_DISABLED && task_counted(task->tgid, detailed);
}

/* The walk the task's last syscall made on its way out, if armed. */
static __always_inline void count_returned(struct task_struct *task, const struct syscall_entry *e,
					   bool armed, bool detailed, __s32 n_rules)
{
	if (e->ruleless_epoch && e->ruleless_epoch == ruleless_epoch)
		note_ruleless(task, e);
	if (!armed)
		return;
	note_mirror_lag(n_rules, e->n_rules);
	if (e->nr == NR_IO_URING_ENTER)
		__sync_fetch_and_add(&uring_enter_walks, 1);
	count_syscall_walk(e->nr, e->arch, detailed);
}

/*
 * tracepoint: one program, on sys_enter, which fires just before audit's
 * entry hook with the number that hook is given (after ptrace and seccomp
 * had their say; a syscall they stopped never gets here nor into audit).
 * It counts the walk of the task's previous syscall, whose exit work is
 * done and whose `dummy` is still in the context, and notes this one: one
 * program per syscall instead of one at each edge (make overhead).
 */
static __always_inline void count_entry(struct bpf_raw_tracepoint_args *args, bool detailed)
{
	struct task_struct *task = bpf_get_current_task_btf();
	__s32 n_rules = n_rules_for_lag();
	struct syscall_entry *e;
	bool armed;

	e = bpf_task_storage_get(&entries, task, NULL,
				 audit_on ? BPF_LOCAL_STORAGE_GET_F_CREATE : 0);
	if (!e)
		return;
	armed = walk_armed(task, detailed);
	if (e->pending)
		count_returned(task, e, armed, detailed, n_rules);
	/* With audit off, audit's entry hook arms no walk. */
	e->pending = audit_on;
	e->nr = args->args[1];
	e->arch = entering_arch(task);
	e->ruleless_epoch = ruleless_epoch;
	e->n_rules = n_rules;
	/*
	 * If this syscall's walk is counted at the task's end (exit and
	 * exit_group never return; a task can be killed without a signal),
	 * the context is gone by then: judge it by what it says now, before
	 * audit's entry hook sets dummy again (a change of rules between the
	 * two is the blind spot exit_walks_inferred counts). Whether the task
	 * is counted is decided now too: the last thread to leave forgets the
	 * tgid, and it may reach sched_process_exit before a sibling that
	 * called exit first.
	 */
	e->armed = armed;
}

SEC("raw_tracepoint/sys_enter")
int count_sys_enter(struct bpf_raw_tracepoint_args *args)
{
	count_entry(args, false);
	return 0;
}

SEC("raw_tracepoint/sys_enter")
int count_sys_enter_detailed(struct bpf_raw_tracepoint_args *args)
{
	count_entry(args, true);
	return 0;
}

/*
 * A signal is delivered on the way back to user mode, after the exit work
 * of the syscall the task was in; a fatal one ends the task with that
 * syscall's walk still to count and its `dummy` still readable.
 */
SEC("raw_tracepoint/signal_deliver")
int count_before_signal(struct bpf_raw_tracepoint_args *args)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct syscall_entry *e = bpf_task_storage_get(&entries, task, NULL, 0);

	if (!e || !e->pending)
		return 0;
	e->pending = 0;
	count_returned(task, e, walk_armed(task, true), true, n_rules_for_lag());
	return 0;
}

/*
 * The walk of a task's last syscall, when no later entry or signal counted
 * it: exit and exit_group, which __audit_free() walks, or a task killed
 * without a signal (seccomp's kill).
 */
SEC("raw_tracepoint/sched_process_exit")
int count_exit_walk(struct bpf_raw_tracepoint_args *args)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct syscall_entry *e = bpf_task_storage_get(&entries, task, NULL, 0);

	if (e && e->pending) {
		e->pending = 0;
		if (e->armed)
			__sync_fetch_and_add(&exit_walks_inferred, 1);
		count_returned(task, e, e->armed, true, n_rules_for_lag());
	}
	return 0;
}

#endif /* __MODE_TRACEPOINT_BPF_H */
