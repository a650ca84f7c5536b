/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Staleness without audit_n_rules (tracepoint mode): while the loader's
 * listings find no rule that counts, a syscall that walked the exit list,
 * though it logs no record of its own, proves audit_n_rules counts a rule
 * no list holds; the tallies here are what the loader weighs.
 */
#ifndef __RULELESS_BPF_H
#define __RULELESS_BPF_H

/*
 * Syscalls that never log a record in their own context: each reads a field
 * of the task and returns, with no LSM hook and no audit call on the way.
 * Any other syscall may (a bind to audit's log group, a rule change, a PAM
 * message, an LSM denial), and audit_log_start() then clears `dummy` "to
 * enable supporting records", so that syscall walks the exit list with no
 * rule loaded on a healthy kernel.
 */
static __always_inline bool logs_no_record(__s64 nr, __u8 arch)
{
	if (arch == ARCH_COMPAT) /* i386 and arm share these numbers */
		return nr == 20 || nr == 24 || nr == 47 || nr == 49 || nr == 50 || nr == 64 ||
		       nr == 65 || nr == 158 || (nr >= 199 && nr <= 202) || nr == 224;
#if defined(__TARGET_ARCH_x86)
	/* sched_yield, getpid, getuid, getgid, geteuid, getegid, getppid, getpgrp, gettid */
	return nr == 24 || nr == 39 || nr == 102 || nr == 104 || nr == 107 || nr == 108 ||
	       nr == 110 || nr == 111 || nr == 186;
#else
	/* sched_yield, then getpid to gettid (asm-generic) */
	return nr == 124 || (nr >= 172 && nr <= 178);
#endif
}

/*
 * A syscall that entered in the current ruleless epoch: its context's
 * `dummy`, unchanged since audit's entry hook set it from audit_n_rules
 * (__audit_syscall_entry()) unless the syscall logged a record, says
 * whether audit_n_rules counted a rule no list holds. A dummy context
 * proves it did not; a walk of a syscall that logs no record proves it
 * did. The task's last syscall before its end has no context left here.
 */
static __always_inline void note_ruleless(struct task_struct *task, const struct syscall_entry *e)
{
	struct stale_tally *t = &stale_tally[e->ruleless_epoch & 1];
	struct audit_context *actx = task->audit_context;
	struct stale_walk *w;
	__u64 i;

	if (!actx || actx->state == AUDIT_STATE_DISABLED || t->epoch != e->ruleless_epoch)
		return;
	if (actx->dummy) {
		if (!t->dummy_seen)
			t->dummy_seen = 1;
		return;
	}
	__sync_fetch_and_add(&t->walks, 1);
	if (!logs_no_record(e->nr, e->arch))
		return;
	i = __sync_fetch_and_add(&t->proofs, 1);
	if (i >= STALE_LOG)
		return;
	w = &t->log[i];
	w->nr = e->nr;
	w->arch = e->arch;
	w->seen_ns = bpf_ktime_get_ns();
	w->pid = task->pid;
	w->tgid = task->tgid;
	bpf_probe_read_kernel_str(w->comm, sizeof(w->comm), task->comm);
}

#endif /* __RULELESS_BPF_H */
