// SPDX-License-Identifier: GPL-2.0
/*
 * The floors of the designs, programs that return at once. On the syscall
 * tracepoints (bench/overhead.sh): one on sys_enter is the floor of
 * tracepoint mode (one program per syscall); one on each edge is what a
 * design counting at sys_exit, with the entry noted, could not go below.
 * On the functions the trampoline modes hook (bench/overhead-guest.sh): an
 * fentry and fexit pair where a mode needs both, one fentry for
 * syscall-exit. And on every hook `auditskip hotspots` takes
 * (bpf/hotspots.bpf.c): what its own programs add beyond the hooks.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

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

SEC("fentry/__audit_filter_op")
int BPF_PROG(empty_filter_op_entry)
{
	return 0;
}

SEC("fexit/__audit_filter_op")
int BPF_PROG(empty_filter_op_exit)
{
	return 0;
}

SEC("fentry/audit_filter_syscall")
int BPF_PROG(empty_filter_syscall_entry)
{
	return 0;
}

SEC("fexit/audit_filter_syscall")
int BPF_PROG(empty_filter_syscall_exit)
{
	return 0;
}

SEC("fentry/__audit_syscall_exit")
int BPF_PROG(empty_syscall_exit)
{
	return 0;
}

SEC("fexit/__audit_syscall_exit")
int BPF_PROG(empty_syscall_exit_end)
{
	return 0;
}

SEC("fentry/__audit_syscall_entry")
int BPF_PROG(empty_entry_start)
{
	return 0;
}

SEC("fexit/__audit_syscall_entry")
int BPF_PROG(empty_entry_end)
{
	return 0;
}

SEC("fentry/__audit_free")
int BPF_PROG(empty_free_start)
{
	return 0;
}

SEC("fexit/__audit_free")
int BPF_PROG(empty_free_end)
{
	return 0;
}

SEC("fentry/audit_filter_inodes")
int BPF_PROG(empty_inodes_start)
{
	return 0;
}

SEC("fexit/audit_filter_inodes")
int BPF_PROG(empty_inodes_end)
{
	return 0;
}

SEC("fentry/audit_log_exit")
int BPF_PROG(empty_log_exit_start)
{
	return 0;
}

SEC("fexit/audit_log_exit")
int BPF_PROG(empty_log_exit_end)
{
	return 0;
}

SEC("fentry/audit_log_start")
int BPF_PROG(empty_log_start_start)
{
	return 0;
}

SEC("fexit/audit_log_start")
int BPF_PROG(empty_log_start_end)
{
	return 0;
}

SEC("raw_tracepoint/sched_switch")
int empty_sched_switch(struct bpf_raw_tracepoint_args *args)
{
	return 0;
}
