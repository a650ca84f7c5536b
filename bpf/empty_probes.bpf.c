// SPDX-License-Identifier: GPL-2.0
/*
 * The floor of any tool on the syscall tracepoints (bench/overhead.sh):
 * raw tracepoint programs that return at once. Timing getpid with only the
 * exit one attached, then with both, says what one program costs and so
 * what a design with one program per syscall edge cannot go below.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "auditskip.h"

#define TS_COMPAT 0x0002 /* arch/x86/include/asm/thread_info.h (the bench is x86's) */

char LICENSE[] SEC("license") = "GPL";

SEC("raw_tracepoint/sys_enter")
int empty_sys_enter(struct bpf_raw_tracepoint_args *args)
{
	return 0;
}

SEC("raw_tracepoint/sys_exit")
int empty_sys_exit(struct bpf_raw_tracepoint_args *args)
{
	return 0;
}

/*
 * What counting at sys_enter alone would cost: the work a one-program
 * design would do (the context's state, the dummy flag the task's previous
 * syscall left, one bit test against a mask, per-CPU counters), measured
 * to show what such a design would save. It would not be exact, which is
 * why tracepoint mode has a program at each edge (README, Attach modes).
 */
struct enter_counts {
	__u64 walks;
	__u64 skippable_walks;
	__u64 needless_rule_visits;
};

struct enter_mask {
	__u32 mask[MASK_WORDS];
	__u32 exit_rules;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct enter_mask);
} enter_mask SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 2 * NR_SLOTS);
	__type(key, __u32);
	__type(value, struct enter_counts);
} enter_counts SEC(".maps");

SEC("raw_tracepoint/sys_enter")
int count_sys_enter(struct bpf_raw_tracepoint_args *args)
{
	struct task_struct *task = bpf_get_current_task_btf();
	__u32 zero = 0, slot = mask_slot(args->args[1]), key;
	struct audit_context *actx = task->audit_context;
	struct enter_counts *c;
	struct enter_mask *m;

	if (!actx || actx->dummy || actx->state == AUDIT_STATE_DISABLED)
		return 0;
	key = (task->thread_info.status & TS_COMPAT ? NR_SLOTS : 0) + slot;
	m = bpf_map_lookup_elem(&enter_mask, &zero);
	c = bpf_map_lookup_elem(&enter_counts, &key);
	if (!m || !c)
		return 0;
	c->walks++;
	if (!mask_bit(m->mask, slot)) {
		c->skippable_walks++;
		c->needless_rule_visits += m->exit_rules;
	}
	return 0;
}
