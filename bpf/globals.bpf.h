/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The object's variables: the options the loader sets before load
 * (rodata), the run-level values it keeps current or reads back (bss), and
 * the mirror and what-if masks in data sections of their own. Declared here
 * once for every concern to use: what the loader finds in skel->rodata and
 * skel->bss is all in this file.
 */
#ifndef __GLOBALS_BPF_H
#define __GLOBALS_BPF_H

/* Set by the loader before load. */
const volatile bool filter_tasks = false; /* count only tgids in `tracked` */
const volatile __u64 exit_list_addr = 0;  /* &audit_filter_list[AUDIT_FILTER_EXIT] */
const volatile __u64 uring_list_addr = 0; /* &audit_filter_list[AUDIT_FILTER_URING_EXIT] */
const volatile __u64 n_rules_addr = 0;	  /* &audit_n_rules */
const volatile __u64 classes_addr = 0;	  /* &classes (kernel/auditfilter.c) */
const volatile long corrupt_nr = -1;	  /* tests only: a bit the mirror must lack */
const volatile bool per_comm = false;	  /* also count by process name */
const volatile bool timing = false;	  /* time each walk (trampoline modes) */
const volatile bool rule_counts = false;  /* --per-rule: matches by rule (outcome modes) */
/*
 * `auditskip profile`: count every syscall audit would filter once a rule
 * is loaded. With no rule, contexts are dummy (audit_n_rules is 0) and no
 * walk runs, but a task forked after audit was enabled has its context and
 * state all the same: only dummy, which one rule would clear, is ignored.
 */
const volatile bool profile = false;

/*
 * A flag above costs every walk its load even when off: the verifier
 * drops the branches a read-only value settles, not the load. So the
 * programs on the hot path come twice: `lean`, for a system-wide count
 * with none of filter_tasks, per_comm, timing and profile (the usual run,
 * and the one make overhead-guest times), where the concerns' inline
 * functions get detailed == false and the compiler leaves the flags out,
 * and `detailed`, which tests them. The loader picks one (attach.c).
 */

/* Kept current by the loader while it runs. */
volatile bool audit_on = false;	      /* audit_enabled, from AUDIT_GET */
volatile __u32 auditd_tgid = 0;	      /* audit_filter_syscall() exempts it */
volatile __u64 lost_children = 0;     /* descendants `tracked` had no room for */
volatile __u64 missed_total = 0;      /* indexes missed_log */
volatile __u64 comms_lost = 0;	      /* walks of names `comms` had no room for */
volatile __u64 clock_ns = 0;	      /* cost of one clock read, least seen */
volatile bool whatif_differs = false; /* a what-if mask differs from the patch's */
/*
 * Staleness without audit_n_rules: the loader's epoch while its listings
 * find no rule that counts, 0 otherwise; a new one at every listing. What
 * the syscalls that entered in it showed goes to its tally (see
 * note_ruleless()); the loader weighs it once the epoch has ended without
 * a rule change.
 */
volatile __u64 ruleless_epoch = 0;
struct stale_tally stale_tally[2] = {};
/* Blind spots, counted: exit walks in __audit_free that tracepoint mode infers. */
volatile __u64 exit_walks_inferred = 0;
/*
 * Blind spot of tracepoint mode, counted: walks of io_uring_enter, each op
 * of which run inline walked the exit list once more (__audit_uring_exit()).
 */
volatile __u64 uring_enter_walks = 0;
/* `-- COMMAND`: its pid, counted from its exec on (the loader's child before it is not). */
volatile __u32 exec_tgid = 0;
/*
 * Blind spot of the outcome modes, counted: walks whose task was switched
 * out between fentry and fexit, and that matched or were timed; their
 * outcome and time are not counted (struct walk_start).
 */
volatile __u64 walks_switched_out = 0;
/* audit_n_rules as the loader's last listing left it, -1: unread (read_n_rules). */
volatile __s32 listed_n_rules = -1;
/*
 * Blind spot where the loader keeps the mirror, counted where audit_n_rules
 * can be read: walks judged while the kernel's rule count was not the one
 * the mirror was listed at (the loader has not yet heard of a change, or
 * not listed since). A change that leaves the count as it was, one rule
 * swapped for another between two listings, is not seen.
 */
volatile __u64 mirror_lag_walks = 0;
/* audit_n_rules, for the loader around its listings (read_n_rules_now()). */
volatile __s32 n_rules_now = -1;
/* --per-rule: matches rule_matches had no room for (the counts are then bounds). */
volatile __u64 rule_matches_lost = 0;

/*
 * The mirror, alone in a data section of its own: the programs address it
 * directly, where a map lookup cost every walk a dozen instructions, and
 * the loader reads and writes it as that section's map (one entry).
 */
struct mask_mirror mirror SEC(".data.mirror");

/*
 * Kept by the loader from the rule list in every mode; a section of its
 * own too, so that no walk the patch's mask keeps pays for a lookup.
 */
struct whatif_masks whatif SEC(".data.whatif");

#endif /* __GLOBALS_BPF_H */
