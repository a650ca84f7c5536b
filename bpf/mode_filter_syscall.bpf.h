/* SPDX-License-Identifier: GPL-2.0 */
/*
 * filter-syscall mode: fentry and fexit on audit_filter_syscall() (kernels
 * where __audit_filter_op() is inlined); a match is a rise of ctx->prio.
 */
#ifndef __MODE_FILTER_SYSCALL_BPF_H
#define __MODE_FILTER_SYSCALL_BPF_H

/*
 * filter-syscall: the function returns nothing, but audit_filter_rules()
 * raises ctx->prio to the matching rule's priority, and refuses rules at
 * or below the current one, so a match is exactly a rise of ctx->prio.
 */
static __always_inline void start_filter_syscall_walk(struct audit_context *actx, bool detailed)
{
	struct task_struct *task = walking_task();

	if (task_counted(task->tgid, detailed))
		start_walk(task, (__u64)(long)actx->major, false, arch_of(actx->arch), true,
			   actx->prio, detailed);
}

SEC("fentry/audit_filter_syscall")
int BPF_PROG(start_filter_syscall, struct task_struct *tsk, struct audit_context *actx)
{
	start_filter_syscall_walk(actx, false);
	return 0;
}

SEC("fentry/audit_filter_syscall")
int BPF_PROG(start_filter_syscall_detailed, struct task_struct *tsk, struct audit_context *actx)
{
	start_filter_syscall_walk(actx, true);
	return 0;
}

/* As end_filter_op_walk(). */
static __noinline int end_filter_syscall_walk(struct audit_context *actx, __u64 t1)
{
	__u64 nr = (__u64)(long)actx->major, prio = actx->prio;
	__u32 arch = arch_of(actx->arch);
	bool counted, matched;
	struct count_slot *s = walk_begun(nr, arch, false, &counted);

	if (s) {
		matched = prio > s->walk.prio;
		end_walk(s, nr, arch, false, matched, actx, t1);
	} else {
		/* Switched out: its start prio is gone, but a walk starts at 0 or ~0. */
		matched = prio != 0 && prio != ~0ULL;
	}
	if (rule_counts && matched && counted)
		count_rule_match(nr, arch, actx);
	return 0;
}

/*
 * A match raises prio to the rule's, which is never 0 and never above ~0:
 * prio still 0, or ~0 (AUDIT_STATE_RECORD), matched nothing.
 */
static __always_inline int end_filter_syscall_untimed(struct audit_context *actx)
{
	__u64 prio = actx->prio;

	return prio == 0 || prio == ~0ULL ? 0 : end_filter_syscall_walk(actx, 0);
}

SEC("fexit/audit_filter_syscall")
int BPF_PROG(end_filter_syscall, struct task_struct *tsk, struct audit_context *actx)
{
	return end_filter_syscall_untimed(actx);
}

SEC("fexit/audit_filter_syscall")
int BPF_PROG(end_filter_syscall_detailed, struct task_struct *tsk, struct audit_context *actx)
{
	if (timing)
		return end_filter_syscall_walk(actx, bpf_ktime_get_ns());
	return end_filter_syscall_untimed(actx);
}

#endif /* __MODE_FILTER_SYSCALL_BPF_H */
