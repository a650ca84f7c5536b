/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Map layouts shared by bpf/hotspots.bpf.c and `auditskip hotspots`: the
 * parts of audit's per-syscall work, timed by fentry and fexit pairs.
 */
#ifndef __HOTSPOTS_MAPS_H
#define __HOTSPOTS_MAPS_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

/*
 * The timed parts. HS_EXIT is the whole exit path (__audit_syscall_exit,
 * and __audit_free for a task's last call), in which WALK, INODES,
 * RECORDS and LOG_START nest; HS_REF is the empty function whose gap is
 * the pair's own share of every interval (bpf_fentry_test1).
 */
enum hs_part {
	HS_ENTRY,     /* __audit_syscall_entry */
	HS_WALK,      /* the exit list's walk: audit_filter_syscall or __audit_filter_op */
	HS_INODES,    /* audit_filter_inodes: the names against the watch buckets */
	HS_RECORDS,   /* audit_log_exit: the records built and sent */
	HS_LOG_START, /* audit_log_start inside the exit path: buffer, waits on a full backlog */
	HS_EXIT,      /* __audit_syscall_exit and __audit_free, whole */
	HS_REF,
	HS_NR_PARTS,
};

/* One syscall number's sums (key: the number sys_enter saw). */
struct hs_stats {
	__u64 calls;
	__u64 sys_ns;	 /* sys_enter to sys_exit (to __audit_free for a task's last call) */
	__u64 sys_pairs; /* hooked calls inside those intervals, each one pair's cost */
	__u64 filtered;	 /* exits that ran the filters: a non-dummy syscall context */
	__u64 records;	 /* records audit_log_start began inside the exit path */
	__u64 ns[HS_NR_PARTS];
	__u64 pairs[HS_NR_PARTS]; /* hooked calls nested inside the part's intervals */
	__u64 part_calls[HS_NR_PARTS];
	__u64 off[HS_NR_PARTS]; /* of ns[]: the task off its CPU (waiting, or preempted) */
	__u64 sys_off;
};

/* A task's syscall in progress (key: thread id). */
struct hs_task {
	__u64 sys_t0;
	__u32 nr;
	__u32 pairs; /* hooked calls finished since sys_enter */
	__u32 filtered;
	__u32 records;
	__u64 t0[HS_NR_PARTS];
	__u32 pairs0[HS_NR_PARTS];
	__u32 part_calls[HS_NR_PARTS];
	__u32 npairs[HS_NR_PARTS];
	__u64 ns[HS_NR_PARTS];
	__u64 off[HS_NR_PARTS];
	__u64 sys_off;
	__u64 off_t0; /* switched out at, inside a timed interval */
};

#define HS_MAX_TASKS 16384
#define HS_MAX_SYSCALLS 1024

#endif /* __HOTSPOTS_MAPS_H */
