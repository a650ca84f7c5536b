/* SPDX-License-Identifier: GPL-2.0 */
/* Map layouts shared by the BPF programs and the loader. */
#ifndef __AUDITSKIP_H
#define __AUDITSKIP_H

/* The BPF side gets these types from vmlinux.h. */
#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

#include "counters.h"

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

/*
 * Counters are kept per arch: the mask is shared by all arches (the kernel's
 * ignores each rule's arch), but a compat syscall's number names another
 * syscall (i386's 20 is getpid, x86_64's 20 is writev).
 */
enum slot_arch {
	ARCH_NATIVE = 0,
	ARCH_COMPAT = 1, /* i386 on x86_64, arm on arm64 */
	NR_ARCHES,
};
#define NR_COUNT_SLOTS (NR_ARCHES * NR_SLOTS)

static inline __u32 mask_slot(__u64 nr)
{
	return nr < MASK_BITS ? (__u32)nr : SLOT_OUT_OF_RANGE;
}

/* audit_in_mask(): one bit of 64 x 32-bit words; numbers past the mask never match. */
static inline int mask_bit(const __u32 *mask, __u64 nr)
{
	__u64 word = nr / 32; /* (64 bits: a 32-bit index costs BPF two shifts to widen) */

	if (nr >= MASK_BITS)
		return 0;
#ifdef __bpf__
	/*
	 * 5.10's verifier loses the check's bound on the way to the index
	 * register; restated where clang cannot drop it as redundant.
	 */
	asm volatile("%[word] &= 63" : [word] "+r"(word));
#endif
	return (mask[word] >> (nr % 32)) & 1;
}

/*
 * A walk as it began (outcome modes): the patched kernel tests the mask
 * before walking, so that is when a walk is classified; its outcome is
 * known only at fexit. (Classifying at fexit would blame a rule deleted
 * meanwhile.) The counts are low 32 bits: equal again only after 2^32
 * mirror writes or context switches within one walk.
 */
struct walk_start {
	__u64 prio;	/* ctx->prio, for filter-syscall */
	__u64 t0;	/* --timing: when it began */
	__u32 seq;	/* the mirror's write count when the walk began */
	__u32 switches; /* the walking task's context switches so far */
	__u32 tid;	/* the walking task */
	__u32 flags;	/* enum walk_flag: one store */
};

enum walk_flag {
	WALK_ACTIVE = 1,      /* begun, its end not yet seen */
	WALK_SKIP = 2,	      /* the patch's mask would skip it */
	WALK_SKIP_ARCH = 4,   /* so would the per-arch mask */
	WALK_SKIP_PERM = 8,   /* and the perm-narrowed one */
	WALK_SKIP_ENTRY = 16, /* the entry form would give it a dummy context */
};

/*
 * A counter slot, per CPU, as BPF keeps it: the slot's counters and the
 * last walk of it this CPU began, so that a walk's start is stored where
 * it is counted, with no lookup of its own.
 */
struct count_slot {
	struct scan_counts counts;
	struct walk_start walk;
};

/*
 * mask_bit() for the mirror's mask, whose word past the end makes a bounds
 * check needless. Read by the byte, fewer instructions than by the word
 * (bit n of the words is bit n % 8 of byte n / 8: little-endian, as on
 * every arch built for).
 */
static inline int slot_bit(const __u32 *mask, __u32 slot)
{
	return (((const __u8 *)mask)[slot / 8] >> (slot % 8)) & 1;
}

/* Where the mirrored mask came from. */
enum mirror_source {
	MIRROR_NONE = 0,
	MIRROR_NETLINK = 1,	/* loader, from the AUDIT_LIST_RULES reply */
	MIRROR_KERNEL_LIST = 2, /* BPF, from audit_filter_list[AUDIT_FILTER_EXIT] */
};

/* Aggregates of every exit-list rule's mask: what the patched kernel tests. */
struct mask_mirror {
	/*
	 * audit_filter_list[AUDIT_FILTER_EXIT]; one word more, always 0, so
	 * that a slot (SLOT_OUT_OF_RANGE included) is tested with no bounds
	 * check (slot_bit).
	 */
	__u32 mask[MASK_WORDS + 1];
	__u32 uring_mask[MASK_WORDS]; /* audit_filter_list[AUDIT_FILTER_URING_EXIT] */
	__u32 exit_rules;
	__u32 uring_rules;
	__u32 source;	      /* enum mirror_source */
	__u32 truncated;      /* the BPF walk hit its bound before the list head */
	__s32 kernel_n_rules; /* audit_n_rules as BPF read it, -1: unreadable */
	__u32 pad;
	__u64 generation; /* counts changes of the above */
	__u64 seq;	  /* counts every write, new rules' early bits included */
};

/*
 * Sharper masks than the patch's, kept by the loader from the rule list,
 * each per arch (the kernel's ignores each rule's arch field):
 * - arch_mask: the patch's aggregate, kept per arch;
 * - perm_mask: the same with every rule that names every syscall and has
 *   perm= narrowed to the syscalls its permission classes reach
 *   (audit_match_perm()): the exit form of patches/KVER-archperm;
 * - entry_mask: perm_mask's rules and the watches and inode rules beside
 *   them, every bit set while a task or io_uring rule is loaded: its entry
 *   form gives a syscall whose bit is clear a dummy context.
 */
struct whatif_masks {
	__u32 arch_elf[NR_ARCHES]; /* native and compat AUDIT_ARCH_*, 0: none */
	__u32 arch_mask[NR_ARCHES][MASK_WORDS];
	__u32 perm_mask[NR_ARCHES][MASK_WORDS];
	__u32 entry_mask[NR_ARCHES][MASK_WORDS];
	__u64 mirror_seq; /* the mirror's write count they were built against */
};

/*
 * audit's syscall classes as the running kernel filled them
 * (audit_register_class() into kernel/auditfilter.c's classes[]), read by
 * BPF where kallsyms lists that array: AUDIT_CLASS_DIR_WRITE .. _SIGNAL_32.
 */
#define AUDIT_CLASSES 10
struct kernel_classes {
	__u32 mask[AUDIT_CLASSES][MASK_WORDS];
	__u32 read; /* 1 once BPF has copied them */
	__u32 pad;
};

/*
 * --timing: walk times per exit-list slot (arch * NR_SLOTS + nr) in log2
 * buckets, like bcc's funclatency: bucket b holds walks of [2^b, 2^(b+1)) ns
 * (bucket 0 also 0 ns), with the nanoseconds they took.
 */
#define HIST_BUCKETS 32
/* Calls bpf/calltime.bpf.c keeps the time of. */
#define CALLTIME_SAMPLES 4096
#define MAX_HIST_KEYS 16384
struct hist_key {
	__u32 slot;
	__u32 bucket;
};

struct hist_value {
	__u64 walks;
	__u64 ns;
};

/* --per-comm: walks by process name (TASK_COMM_LEN), per CPU. */
#define COMM_LEN 16
#define MAX_COMMS 4096
struct comm_counts {
	__u64 walks;
	__u64 skippable_walks;
	__u64 needless_rule_visits;
};

/* The first missed matches, for the report. */
#define MISSED_LOG 8
#define KEY_LEN 64
struct missed_match {
	__u32 nr;
	__u32 uring; /* 1: an io_uring op on the io_uring exit list */
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

/*
 * tracepoint mode: what sys_enter saw of the last syscall a task entered,
 * whose walk is counted at its next entry, a signal or its end. The number
 * is the one audit's entry hook got: restore_sigcontext() sets orig_ax to
 * -1 for rt_sigreturn and start_thread() rewrites it to execve after
 * execveat, so it could not be read later.
 */
struct syscall_entry {
	__s64 nr;	      /* as audit's entry hook got it */
	__u64 ruleless_epoch; /* the loader's epoch when it entered, 0: rules were loaded */
	__u8 arch;	      /* enum slot_arch */
	__u8 pending;	      /* entered, its walk not yet counted */
	__u8 armed;	      /* the walk as the context said at entry */
	__u8 pad;
	__s32 n_rules; /* audit_n_rules at entry, where it is read (note_mirror_lag()) */
};

/*
 * tracepoint mode, staleness without audit_n_rules: what the syscalls that
 * entered in one of the loader's ruleless epochs showed (bpf/auditskip.bpf.c,
 * note_ruleless()). Two of them, by the epoch's parity: the loader prepares
 * the next before it starts it, and reads the last once it has ended.
 */
#define STALE_LOG 8
struct stale_walk {
	__s64 nr;
	__u64 seen_ns; /* bpf_ktime_get_ns() when its walk was counted */
	__u32 pid;
	__u32 tgid;
	__u8 arch; /* enum slot_arch */
	__u8 pad[7];
	char comm[COMM_LEN];
};

struct stale_tally {
	__u64 epoch;	  /* which epoch this is, set by the loader */
	__u64 walks;	  /* syscalls that entered in it and walked */
	__u64 proofs;	  /* of them, syscalls that log no record: logs_no_record() */
	__u64 dummy_seen; /* one entered with a dummy context: audit_n_rules was 0 */
	struct stale_walk log[STALE_LOG]; /* the first proofs */
};

/* Longest exit list the BPF rebuild walks; longer lists set `truncated`. */
#define MAX_EXIT_RULES 65536

/*
 * --per-rule: matches by the rule that matched, named by its priority.
 * audit_add_rule() gives every exit rule its own (higher for -A, lower for
 * -a, both past all before), so the list runs in falling priority and a
 * priority outlives its rule's moves; a match raises ctx->prio to it.
 */
#define MAX_RULE_MATCH_KEYS 16384
struct rule_match_key {
	__u64 prio;
	__u32 slot; /* slot_key(): arch * NR_SLOTS + syscall slot */
	__u32 pad;
};

/* Processes `-- COMMAND` can follow. */
#define MAX_TRACKED 65536

#endif /* __AUDITSKIP_H */
