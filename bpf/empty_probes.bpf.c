// SPDX-License-Identifier: GPL-2.0
/*
 * The floor of any tool on the syscall tracepoints (bench/overhead.sh):
 * raw tracepoint programs that return at once. Timing getpid with only the
 * exit one attached, then with both, says what one program costs and so
 * what a design with one program per syscall edge cannot go below.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

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
