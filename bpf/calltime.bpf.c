// SPDX-License-Identifier: GPL-2.0
/*
 * How long one kernel function's body takes (user/live/calltime.c): an fentry
 * and fexit pair on it, the attach target set by the loader, keeping the
 * gap from fentry's last clock read to fexit's first for the first
 * CALLTIME_SAMPLES calls. The same pair on an empty function measures what
 * the trampoline adds to that gap, to be taken off.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "auditskip.h"

char LICENSE[] SEC("license") = "GPL";

volatile __u32 samples_taken = 0;

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, CALLTIME_SAMPLES);
	__type(key, __u32);
	__type(value, __u64);
} gaps SEC(".maps");

/* The call each task is in: the function may be preempted, and so migrate. */
struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, __u64);
} call_start SEC(".maps");

SEC("fentry")
int BPF_PROG(call_enter)
{
	__u64 *t0 = bpf_task_storage_get(&call_start, bpf_get_current_task_btf(), NULL,
					 BPF_LOCAL_STORAGE_GET_F_CREATE);

	if (t0)
		*t0 = bpf_ktime_get_ns();
	return 0;
}

SEC("fexit")
int BPF_PROG(call_exit)
{
	__u64 t1 = bpf_ktime_get_ns(), *t0, *slot;
	__u32 i;

	t0 = bpf_task_storage_get(&call_start, bpf_get_current_task_btf(), NULL, 0);
	if (!t0 || !*t0)
		return 0;
	i = __sync_fetch_and_add(&samples_taken, 1);
	slot = bpf_map_lookup_elem(&gaps, &i);
	if (slot)
		*slot = t1 - *t0;
	*t0 = 0;
	return 0;
}
