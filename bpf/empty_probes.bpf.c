// SPDX-License-Identifier: GPL-2.0
/*
 * The floors of the designs on the syscall tracepoints (bench/overhead.sh):
 * raw tracepoint programs that return at once. One on sys_enter is the
 * floor of tracepoint mode (one program per syscall); one on each edge is
 * what a design counting at sys_exit, with the entry noted, could not go
 * below.
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
