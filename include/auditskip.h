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

/* Aggregates of every exit-list rule's mask: what the patched kernel tests. */
struct mask_mirror {
	__u32 mask[MASK_WORDS];		/* audit_filter_list[AUDIT_FILTER_EXIT] */
	__u32 uring_mask[MASK_WORDS];	/* audit_filter_list[AUDIT_FILTER_URING_EXIT] */
	__u32 exit_rules;
	__u32 uring_rules;
	__u32 source;		/* enum mirror_source */
	__u32 truncated;	/* the BPF walk hit its bound before the list head */
	__s32 kernel_n_rules;	/* audit_n_rules as BPF read it, -1: unreadable */
	__u32 pad;
	__u64 generation;	/* counts changes of the above */
	__u64 seq;		/* counts every write, new rules' early bits included */
};

/* Per syscall (or io_uring op) slot, per CPU. */
struct scan_counts {
	__u64 scans;		/* walks of the exit filter list */
	__u64 skippable;	/* walks whose bit is clear in the mirror */
	__u64 walked_skipped;	/* rule entries those skippable walks visited */
	/* Only where the mode sees the walk's outcome: */
	__u64 needless;		/* the bit was set, yet no rule matched */
	__u64 missed;		/* a rule matched although the bit was clear */
	__u64 raced;		/* the same, but the mirror changed during the walk */
	/* What-if masks beyond the patch (see struct whatif_masks): */
	__u64 skippable_arch;	/* skippable with one mask per arch */
	__u64 skippable_perm;	/* skippable with perm= rules narrowed */
	/* --timing: nanoseconds the walks took, as fentry and fexit saw them */
	__u64 walk_ns;
	__u64 skippable_walk_ns;
};

/*
 * Sharper masks than the patch's, kept by the loader from the rule list:
 * one aggregate per arch (the kernel's ignores each rule's arch field), and
 * one where rules with a perm= field and every syscall bit are narrowed to
 * the syscalls that can satisfy it (audit_match_perm()).
 */
struct whatif_masks {
	__u32 arch_elf[2];	/* native and compat AUDIT_ARCH_*, 0: none */
	__u32 arch_mask[2][MASK_WORDS];
	__u32 perm_mask[MASK_WORDS];
};

/* --per-comm: walks by process name (TASK_COMM_LEN), per CPU. */
#define COMM_LEN 16
#define MAX_COMMS 4096
struct comm_counts {
	__u64 scans;
	__u64 skippable;
	__u64 walked_skipped;
};

/* The first missed matches, for the report. */
#define MISSED_LOG 8
#define KEY_LEN 64
struct missed_match {
	__u32 nr;
	__u32 uring;	/* 1: an io_uring op on the io_uring exit list */
	char key[KEY_LEN];
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
