// SPDX-License-Identifier: GPL-2.0
/*
 * Counts walks of audit's exit filter list and classifies each one against a
 * mirror of the aggregate exit-rule mask: a walk whose syscall bit is clear
 * is one the patched kernel would skip. The loader turns on exactly one
 * counting program (the attach mode) plus, in trampoline modes, the
 * programs that rebuild the mirror whenever the kernel changes the list.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "auditskip.h"

/* kernel/audit.h and kernel/auditsc.c values, stable since 5.16. */
#define AUDIT_CTX_SYSCALL 1
#define AUDIT_STATE_DISABLED 0
#define E2BIG 7

char LICENSE[] SEC("license") = "GPL";

/* Set by the loader before load. */
const volatile bool filter_tasks = false;	/* count only tgids in `tracked` */
const volatile __u64 exit_list_addr = 0;	/* &audit_filter_list[AUDIT_FILTER_EXIT] */
const volatile long fork_nrs[FORK_NRS] = { -1, -1, -1, -1 };	/* clone, clone3, fork, vfork */

/* Kept current by the loader while it runs. */
volatile bool audit_on = false;		/* audit_enabled, from AUDIT_GET */
volatile __u32 auditd_tgid = 0;		/* audit_filter_syscall() exempts it */
volatile __u64 lost_children = 0;	/* descendants `tracked` had no room for */

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct mask_mirror);
} mirror SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct mask_mirror);
} rebuild_scratch SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, NR_SLOTS);
	__type(key, __u32);
	__type(value, struct scan_counts);
} counts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 65536);
	__type(key, __u32);
	__type(value, __u8);
} tracked SEC(".maps");

static __always_inline bool task_counted(__u32 tgid)
{
	if (tgid == auditd_tgid)
		return false;
	return !filter_tasks || bpf_map_lookup_elem(&tracked, &tgid);
}

/* O(1) whatever the number of rules: one bit test against the mirror. */
static __always_inline void count_walk(__u64 nr)
{
	__u32 zero = 0, slot = nr < MASK_BITS ? nr : SLOT_OUT_OF_RANGE;
	struct mask_mirror *m = bpf_map_lookup_elem(&mirror, &zero);
	struct scan_counts *c = bpf_map_lookup_elem(&counts, &slot);

	if (!m || !c)
		return;
	c->scans++;
	/* audit_in_mask() never matches a number past the mask. */
	if (slot < MASK_BITS && (m->mask[slot / 32] & (1U << (slot % 32))))
		return;
	c->skippable++;
	/* A skippable walk matches nothing, so it visits every entry. */
	c->walked_skipped += m->exit_rules;
}

/*
 * filter-op: __audit_filter_op() also walks the inode hash lists (name set)
 * and the io_uring list (context URING); only the syscall exit walk counts.
 * audit_filter_syscall() already returned for auditd before calling it.
 */
SEC("fentry/__audit_filter_op")
int BPF_PROG(count_filter_op, struct task_struct *tsk, struct audit_context *actx,
	     struct list_head *list, struct audit_names *name, unsigned long op)
{
	if (name || actx->context != AUDIT_CTX_SYSCALL)
		return 0;
	if (task_counted(tsk->tgid))
		count_walk(op);
	return 0;
}

/* filter-syscall: runs before the auditd check inside the function. */
SEC("fentry/audit_filter_syscall")
int BPF_PROG(count_filter_syscall, struct task_struct *tsk, struct audit_context *actx)
{
	if (task_counted(tsk->tgid))
		count_walk((__u64)(long)actx->major);
	return 0;
}

/* syscall-exit: the conditions under which __audit_syscall_exit() filters. */
SEC("fentry/__audit_syscall_exit")
int BPF_PROG(count_syscall_exit, int success, long return_code)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct audit_context *actx = task->audit_context;

	if (!actx || actx->dummy || actx->context != AUDIT_CTX_SYSCALL)
		return 0;
	if (task_counted(task->tgid))
		count_walk((__u64)(long)actx->major);
	return 0;
}

/* The number sys_exit reports as `id` (syscall_get_nr()). */
static __always_inline long syscall_nr(struct pt_regs *regs)
{
#if defined(__TARGET_ARCH_x86)
	return BPF_CORE_READ(regs, orig_ax);
#elif defined(__TARGET_ARCH_arm64)
	return BPF_CORE_READ(regs, syscallno);
#else
#error "syscall_nr() needs this architecture's pt_regs field"
#endif
}

static __always_inline bool is_fork(long nr)
{
	for (int i = 0; i < FORK_NRS; i++)
		if (nr == fork_nrs[i])
			return true;
	return false;
}

/*
 * tracepoint: sys_exit fires after audit's exit work, when
 * audit_reset_context() has already cleared `context` and `major`; `dummy`
 * and `state` still say whether __audit_syscall_entry() armed the walk.
 * A new task's first sys_exit (its 0 return from clone) comes with a fresh,
 * non-dummy context that never entered a syscall, so no walk ran.
 * A raw tracepoint needs no tracefs and reads the number from pt_regs.
 */
SEC("raw_tracepoint/sys_exit")
int count_sys_exit(struct bpf_raw_tracepoint_args *args)
{
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();
	struct audit_context *actx;
	long nr;

	if (!audit_on)
		return 0;
	actx = BPF_CORE_READ(task, audit_context);
	if (!actx || BPF_CORE_READ(actx, dummy) ||
	    BPF_CORE_READ(actx, state) == AUDIT_STATE_DISABLED)
		return 0;
	nr = syscall_nr((struct pt_regs *)args->args[0]);
	if (args->args[1] == 0 && is_fork(nr))
		return 0;
	if (task_counted(bpf_get_current_pid_tgid() >> 32))
		count_walk((__u64)nr);
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

SEC("raw_tracepoint/sched_process_exit")
int forget_exit(struct bpf_raw_tracepoint_args *args)
{
	struct task_struct *task = (struct task_struct *)args->args[0];
	__u32 tgid = BPF_CORE_READ(task, tgid);

	/* do_exit() drops signal->live before this tracepoint. */
	if (BPF_CORE_READ(task, signal, live.counter) == 0)
		bpf_map_delete_elem(&tracked, &tgid);
	return 0;
}

/* ---- Mirror rebuild from the kernel's own exit list (trampoline modes) ---- */

struct rebuild_walk {
	struct list_head *pos;
	__u32 n;
	bool done;
};

static long rebuild_step(__u32 i, struct rebuild_walk *w)
{
	__u32 zero = 0, rule_mask[MASK_WORDS];
	struct mask_mirror *acc = bpf_map_lookup_elem(&rebuild_scratch, &zero);
	struct list_head *pos = w->pos, *next = BPF_CORE_READ(pos, next);
	struct audit_entry *e;

	if (!acc)
		return 1;
	if (!next || (__u64)next == exit_list_addr) {
		w->done = true;
		return 1;
	}
	e = (void *)next - bpf_core_field_offset(struct audit_entry, list);
	if (bpf_core_read(rule_mask, sizeof(rule_mask), &e->rule.mask))
		return 1;
	for (int k = 0; k < MASK_WORDS; k++)
		acc->mask[k] |= rule_mask[k];
	w->n++;
	w->pos = next;
	return 0;
}

static __always_inline bool same_mask(const __u32 *a, const __u32 *b)
{
	for (int k = 0; k < MASK_WORDS; k++)
		if (a[k] != b[k])
			return false;
	return true;
}

/*
 * Runs in the fexit of every function that changes the exit list, so the
 * mirror is current before the change returns to user space. The list is
 * RCU-protected and trampolines run under rcu_read_lock(), so walking it
 * here is safe; two rebuilds racing can briefly publish the older result,
 * which the next change or listing repairs.
 */
static __noinline int rebuild_mirror(void)
{
	__u32 zero = 0;
	struct mask_mirror *acc = bpf_map_lookup_elem(&rebuild_scratch, &zero);
	struct mask_mirror *m = bpf_map_lookup_elem(&mirror, &zero);
	struct rebuild_walk w = { .pos = (struct list_head *)exit_list_addr };

	if (!acc || !m || !exit_list_addr)
		return 0;
	__builtin_memset(acc, 0, sizeof(*acc));
	bpf_loop(MAX_EXIT_RULES, rebuild_step, &w, 0);
	acc->exit_rules = w.n;
	acc->truncated = !w.done;
	acc->source = MIRROR_KERNEL_LIST;
	/* The generation counts changes, not rebuilds (listing rebuilds too). */
	if (m->source == acc->source && m->exit_rules == acc->exit_rules &&
	    m->truncated == acc->truncated && same_mask(m->mask, acc->mask))
		return 0;
	acc->generation = m->generation + 1;
	bpf_map_update_elem(&mirror, &zero, acc, BPF_ANY);
	return 0;
}

/* Netlink add and delete (audit_add_rule() is inlined into it). */
SEC("fexit/audit_rule_change")
int BPF_PROG(rebuild_on_rule_change)
{
	return rebuild_mirror();
}

/* AUDIT_LIST_RULES: lets the loader build the mirror at start-up. */
SEC("fexit/audit_list_rules_send")
int BPF_PROG(rebuild_on_list_rules)
{
	return rebuild_mirror();
}

/* Tree rules removed automatically when a tree is pruned or killed. */
SEC("fexit/kill_rules")
int BPF_PROG(rebuild_on_kill_rules)
{
	return rebuild_mirror();
}

/* Watch updates and audit_remove_parent_watches(), inlined into it. */
SEC("fexit/audit_watch_handle_event")
int BPF_PROG(rebuild_on_watch_event)
{
	return rebuild_mirror();
}

/* LSM policy reload replaces every rule with an LSM field. */
SEC("fexit/audit_update_lsm_rules")
int BPF_PROG(rebuild_on_lsm_update)
{
	return rebuild_mirror();
}
