/* SPDX-License-Identifier: GPL-2.0 */
/* Map layouts shared by the BPF programs and the loader. */
#ifndef __AUDITSKIP_H
#define __AUDITSKIP_H

/* The BPF side gets these types from vmlinux.h. */
#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

/* The kernel's per-rule syscall mask: AUDIT_BITMASK_SIZE words of 32 bits. */
#define MASK_WORDS 64
#define MASK_BITS (MASK_WORDS * 32)

/*
 * One counter slot per syscall number the mask can name, and one more for
 * numbers past it (x32 syscalls, -1): audit_in_mask() never matches those,
 * so their walks are always skippable.
 */
#define NR_SLOTS (MASK_BITS + 1)
#define SLOT_OUT_OF_RANGE MASK_BITS

/* Where the mirrored mask came from. */
enum mirror_source {
	MIRROR_NONE = 0,
	MIRROR_NETLINK = 1,	/* loader, from the AUDIT_LIST_RULES reply */
	MIRROR_KERNEL_LIST = 2,	/* BPF, from audit_filter_list[AUDIT_FILTER_EXIT] */
};

/* Aggregate of every exit-list rule's mask: what the patched kernel tests. */
struct mask_mirror {
	__u32 mask[MASK_WORDS];
	__u32 exit_rules;
	__u32 source;		/* enum mirror_source */
	__u64 generation;	/* bumped on every rebuild */
	__u32 truncated;	/* the BPF walk hit its bound before the list head */
	__u32 pad;
};

/* Per syscall slot, per CPU. */
struct scan_counts {
	__u64 scans;		/* walks of the exit filter list */
	__u64 skippable;	/* walks whose syscall bit is clear in the mirror */
	__u64 walked_skipped;	/* rule entries those skippable walks visited */
};

/* Which program counts walks; the loader turns on one. */
enum attach_mode {
	MODE_FILTER_OP = 0,
	MODE_FILTER_SYSCALL,
	MODE_SYSCALL_EXIT,
	MODE_TRACEPOINT,
	MODE_COUNT,
};

/* Syscalls whose child returns without having entered: clone, clone3, fork, vfork. */
#define FORK_NRS 4

/* Longest exit list the BPF rebuild walks; longer lists set `truncated`. */
#define MAX_EXIT_RULES 65536

#endif /* __AUDITSKIP_H */
