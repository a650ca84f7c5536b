// SPDX-License-Identifier: GPL-2.0
/*
 * The time audit's own syscall-exit work takes: the bodies of
 * __audit_syscall_exit() (the exit walk, the watch checks, the records)
 * and of __audit_free() (the walk of a task's last call, exit_group's),
 * summed over every call while attached (bench/audit_exit_ns.c). The
 * kernel-ab time model sets what a rule change saves there beside what it
 * saves on the whole run, where the rest of the kernel's work moves too.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, __u32);
	__type(value, __u64);
} started SEC(".maps");

__u64 calls, total_ns, unmatched;

static __always_inline int start(void)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	__u64 t0 = bpf_ktime_get_ns();

	bpf_map_update_elem(&started, &tid, &t0, BPF_ANY);
	return 0;
}

static __always_inline int end(void)
{
	__u64 t1 = bpf_ktime_get_ns();
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	__u64 *t0 = bpf_map_lookup_elem(&started, &tid);

	if (!t0) {
		__sync_fetch_and_add(&unmatched, 1);
		return 0;
	}
	__sync_fetch_and_add(&calls, 1);
	__sync_fetch_and_add(&total_ns, t1 - *t0);
	bpf_map_delete_elem(&started, &tid);
	return 0;
}

SEC("fentry/__audit_syscall_exit")
int BPF_PROG(syscall_exit_start)
{
	return start();
}

SEC("fexit/__audit_syscall_exit")
int BPF_PROG(syscall_exit_end)
{
	return end();
}

SEC("fentry/__audit_free")
int BPF_PROG(free_start)
{
	return start();
}

SEC("fexit/__audit_free")
int BPF_PROG(free_end)
{
	return end();
}
