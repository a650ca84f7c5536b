/* SPDX-License-Identifier: GPL-2.0 */
/*
 * syscall-exit mode: fentry on __audit_syscall_exit() and the other two
 * places that walk the exit list (__audit_uring_exit(), __audit_free()),
 * counting a walk where the context says the kernel makes one; no outcome.
 */
#ifndef __MODE_SYSCALL_EXIT_BPF_H
#define __MODE_SYSCALL_EXIT_BPF_H

/* Before 5.16 (io_uring contexts) a context said only whether it was in a syscall. */
struct audit_context___5_10 {
	int in_syscall;
} __attribute__((preserve_access_index));

static __always_inline bool in_syscall_context(struct audit_context *actx)
{
	if (bpf_core_field_exists(actx->context))
		return actx->context == AUDIT_CTX_SYSCALL;
	return ((struct audit_context___5_10 *)actx)->in_syscall;
}

/*
 * syscall-exit: the conditions under which __audit_syscall_exit() filters,
 * read through a BTF pointer: plain loads, no helper calls.
 */
static __always_inline void count_if_walked(struct audit_context *actx, __u32 tgid, bool detailed)
{
	__s32 n;

	if (!actx || (actx->dummy && !(detailed && profile)) || !in_syscall_context(actx) ||
	    !task_counted(tgid, detailed))
		return;
	n = n_rules_for_lag();
	note_mirror_lag(n, n);
	count_syscall_walk((__u64)(long)actx->major, arch_of(actx->arch), detailed);
}

/*
 * The same through CO-RE reads, for a context known only by its address.
 * The second int is `context` (AUDIT_CTX_SYSCALL is 1) or, before 5.16,
 * `in_syscall` (1 in a syscall).
 */
static __always_inline void count_if_walked_read(struct audit_context *actx, __u32 tgid,
						 bool detailed)
{
	int head[3]; /* dummy, context, state: adjacent, read at once */
	__s32 n;

	if (!actx || bpf_probe_read_kernel(head, sizeof(head), actx) ||
	    (head[0] && !(detailed && profile)) || head[1] != AUDIT_CTX_SYSCALL ||
	    !task_counted(tgid, detailed))
		return;
	n = n_rules_for_lag();
	note_mirror_lag(n, n);
	count_syscall_walk((__u64)(long)BPF_CORE_READ(actx, major),
			   arch_of(BPF_CORE_READ(actx, arch)), detailed);
}

/*
 * The current task's context. bpf_get_current_task_btf() came with 5.11;
 * on 5.10 libbpf resolves the test below to false and the verifier never
 * sees that helper, so the program loads there with CO-RE reads.
 */
static __always_inline void count_current(bool detailed)
{
	struct task_struct *task;

	if (bpf_core_enum_value_exists(enum bpf_func_id, BPF_FUNC_get_current_task_btf)) {
		task = bpf_get_current_task_btf();
		count_if_walked(task->audit_context, task->tgid, detailed);
		return;
	}
	task = (struct task_struct *)bpf_get_current_task();
	count_if_walked_read(BPF_CORE_READ(task, audit_context), bpf_get_current_pid_tgid() >> 32,
			     detailed);
}

SEC("fentry/__audit_syscall_exit")
int BPF_PROG(count_syscall_exit, int success, long return_code)
{
	count_current(false);
	return 0;
}

SEC("fentry/__audit_syscall_exit")
int BPF_PROG(count_syscall_exit_detailed, int success, long return_code)
{
	count_current(true);
	return 0;
}

/*
 * An io_uring op run inline in a syscall (io_uring_enter) walks the exit
 * list once more, with the syscall's number: __audit_uring_exit() calls
 * audit_filter_syscall() on a syscall context.
 */
SEC("fentry/__audit_uring_exit")
int BPF_PROG(count_uring_exit, int success, long code)
{
	count_current(true);
	return 0;
}

/*
 * A task that ends inside a syscall (exit, exit_group) never returns from
 * it: __audit_free() walks the exit list for it instead.
 */
SEC("fentry/__audit_free")
int BPF_PROG(count_audit_free, struct task_struct *tsk)
{
	if (tsk == (struct task_struct *)bpf_get_current_task())
		count_if_walked(tsk->audit_context, tsk->tgid, true);
	return 0;
}

#endif /* __MODE_SYSCALL_EXIT_BPF_H */
