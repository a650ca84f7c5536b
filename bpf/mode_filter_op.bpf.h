/* SPDX-License-Identifier: GPL-2.0 */
/*
 * filter-op mode: fentry and fexit on __audit_filter_op(), the walk of one
 * list for one syscall or io_uring op; its return value is the outcome.
 */
#ifndef __MODE_FILTER_OP_BPF_H
#define __MODE_FILTER_OP_BPF_H

/*
 * Which list a __audit_filter_op() call walks. The inode hash lists come
 * with a name. __audit_uring_exit() filters the io_uring list also while
 * the context is still in a syscall (an op run inline by io_uring_enter),
 * so the list's address decides; without kallsyms, the context does.
 */
static __always_inline int walked_list(struct audit_context *actx, struct list_head *list,
				       struct audit_names *name, unsigned long op)
{
	__u64 exit_list;
	int kind;

	if (name)
		return -1;
	exit_list = exit_list_addr; /* (volatile: read once) */
	if (exit_list)
		return (__u64)list == exit_list	      ? AUDIT_CTX_SYSCALL :
		       (__u64)list == uring_list_addr ? AUDIT_CTX_URING :
							-1;
	/*
	 * An op io_uring_enter runs inline is filtered in a syscall context,
	 * with the op's number (below 64), never the syscall's (426).
	 */
	kind = actx->context;
	if (kind == AUDIT_CTX_SYSCALL)
		return op == (unsigned long)(long)actx->major ? AUDIT_CTX_SYSCALL : AUDIT_CTX_URING;
	return kind == AUDIT_CTX_URING ? kind : -1;
}

/*
 * filter-op: audit_filter_syscall() and audit_filter_uring() already
 * returned for auditd before calling it (so only the scope is asked); its
 * return value says whether a rule matched.
 */
static __always_inline void start_filter_op_walk(unsigned long long *ctx, bool detailed)
{
	struct audit_context *actx = (void *)ctx[1];
	struct audit_names *name = (void *)ctx[3];
	struct list_head *list = (void *)ctx[2];
	unsigned long op = ctx[4];
	int kind = walked_list(actx, list, name, op);

	if (kind < 0 || (detailed && !task_tracked(walking_task(), true)))
		return;
	/* (a copy for each list: the list's kind then need not be kept in a register) */
	if (kind == AUDIT_CTX_SYSCALL)
		start_walk(NULL, op, false, arch_of(actx->arch), false, 0, detailed);
	else
		start_walk(NULL, op, true, arch_of(actx->arch), false, 0, detailed);
}

SEC("fentry/__audit_filter_op")
int start_filter_op(unsigned long long *ctx)
{
	start_filter_op_walk(ctx, false);
	return 0;
}

SEC("fentry/__audit_filter_op")
int start_filter_op_detailed(unsigned long long *ctx)
{
	start_filter_op_walk(ctx, true);
	return 0;
}

/*
 * The end of a walk whose end is counted (a match, or any walk with
 * --timing). Not inlined: the fexit programs' common case (no match) then
 * uses no callee-saved register, and saves and restores none.
 */
static __noinline int end_filter_op_walk(unsigned long long *ctx, __u64 t1)
{
	struct audit_context *actx = (void *)ctx[1];
	struct audit_names *name = (void *)ctx[3];
	struct list_head *list = (void *)ctx[2];
	unsigned long op = ctx[4];
	int ret = (int)ctx[5], kind;
	struct count_slot *s;
	bool uring, counted;
	__u32 arch;

	kind = walked_list(actx, list, name, op);
	if (kind < 0)
		return 0;
	arch = arch_of(actx->arch);
	uring = kind == AUDIT_CTX_URING;
	s = walk_begun(op, arch, uring, &counted);
	if (s)
		end_walk(s, op, arch, uring, ret != 0, actx, t1);
	/* Where it stopped is known even for a walk switched out (its start was counted). */
	if (rule_counts && ret && counted && !uring)
		count_rule_match(op, arch, actx);
	return 0;
}

SEC("fexit/__audit_filter_op")
int BPF_PROG(end_filter_op, struct task_struct *tsk, struct audit_context *actx,
	     struct list_head *list, struct audit_names *name, unsigned long op, int ret)
{
	return ret ? end_filter_op_walk(ctx, 0) : 0;
}

SEC("fexit/__audit_filter_op")
int BPF_PROG(end_filter_op_detailed, struct task_struct *tsk, struct audit_context *actx,
	     struct list_head *list, struct audit_names *name, unsigned long op, int ret)
{
	if (!timing)
		return ret ? end_filter_op_walk(ctx, 0) : 0;
	return end_filter_op_walk(ctx, bpf_ktime_get_ns());
}

#endif /* __MODE_FILTER_OP_BPF_H */
