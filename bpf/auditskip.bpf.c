// SPDX-License-Identifier: GPL-2.0
/*
 * Counts walks of audit's exit filter list and classifies each one against a
 * mirror of the aggregate exit-rule mask: a walk whose syscall bit is clear
 * is one the patched kernel would skip. The loader turns on the programs of
 * exactly one attach mode, plus, where it can find the kernel's lists, the
 * mirror_* programs that keep the mirror equal to them.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "auditskip.h"

/* Values from kernel/audit.h, kernel/auditsc.c and uapi/linux/audit.h. */
#define AUDIT_CTX_SYSCALL 1
#define AUDIT_CTX_URING 2
#define AUDIT_STATE_DISABLED 0
#define AUDIT_ADD_RULE 1011
#define AUDIT_FILTER_EXIT 4
#define AUDIT_FILTER_URING_EXIT 7
#define AUDIT_FILTER_PREPEND 0x10
#define E2BIG 7
#define AUDIT_WATCH 105
#define AUDIT_INODE 102
#define AUDIT_MAX_FIELDS 64
#define BPF_LOCAL_STORAGE_GET_F_CREATE 1
#if defined(__TARGET_ARCH_x86)
#define AUDIT_ARCH_NATIVE 0xc000003e /* AUDIT_ARCH_X86_64 */
#define AUDIT_ARCH_COMPAT 0x40000003 /* AUDIT_ARCH_I386 */
#define TS_COMPAT 0x0002	     /* arch/x86/include/asm/thread_info.h */
#define NR_IO_URING_ENTER 426
#elif defined(__TARGET_ARCH_arm64)
#define AUDIT_ARCH_NATIVE 0xc00000b7 /* AUDIT_ARCH_AARCH64 */
#define AUDIT_ARCH_COMPAT 0x40000028 /* AUDIT_ARCH_ARM */
#define TIF_32BIT 22		     /* arch/arm64/include/asm/thread_info.h */
#define NR_IO_URING_ENTER 426
#else
#error "auditskip needs this architecture's audit arches and io_uring_enter's number"
#endif

char LICENSE[] SEC("license") = "GPL";

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
 * and the one make overhead-guest times), where the inline functions below
 * get detailed == false and the compiler leaves the flags out, and
 * `detailed`, which tests them. The loader picks one (attach.c).
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

/*
 * The mirror, alone in a data section of its own: the programs address it
 * directly, where a map lookup cost every walk a dozen instructions, and
 * the loader reads and writes it as that section's map (one entry).
 */
struct mask_mirror mirror SEC(".data.mirror");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct mask_mirror);
} rebuild_scratch SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct kernel_classes);
} classes SEC(".maps");

/*
 * Kept by the loader from the rule list in every mode; a section of its
 * own too, so that no walk the patch's mask keeps pays for a lookup.
 */
struct whatif_masks whatif SEC(".data.whatif");

/* Exit-list walks by arch and syscall number: arch * NR_SLOTS + slot. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, NR_COUNT_SLOTS);
	__type(key, __u32);
	__type(value, struct count_slot);
} counts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, NR_SLOTS);
	__type(key, __u32);
	__type(value, struct count_slot);
} uring_counts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, MAX_COMMS);
	__type(key, char[COMM_LEN]);
	__type(value, struct comm_counts);
} comms SEC(".maps");

/* --timing: walk time histograms; the loader shrinks it to one entry otherwise. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, MAX_HIST_KEYS);
	__type(key, struct hist_key);
	__type(value, struct hist_value);
} walk_hist SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, MISSED_LOG);
	__type(key, __u32);
	__type(value, struct missed_match);
} missed_log SEC(".maps");

/* --per-rule: exit-list matches by rule and slot (struct rule_match_key). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, MAX_RULE_MATCH_KEYS);
	__type(key, struct rule_match_key);
	__type(value, __u64);
} rule_matches SEC(".maps");

/*
 * --per-rule: the exit list's priorities in its order, as the last rebuild
 * walked it, so that the loader can name the rule of each one (it reads
 * them after a listing, which rebuilds).
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, MAX_EXIT_RULES);
	__type(key, __u32);
	__type(value, __u64);
} exit_prios SEC(".maps");

/* Tgids counted with -p or `-- COMMAND`. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MAX_TRACKED);
	__type(key, __u32);
	__type(value, __u8);
} tracked SEC(".maps");

/* tracepoint mode: the syscall each task is in (struct syscall_entry). */
struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct syscall_entry);
} entries SEC(".maps");

/* Counted with -p or `-- COMMAND`. */
static __always_inline bool tgid_tracked(__u32 tgid)
{
	return bpf_map_lookup_elem(&tracked, &tgid);
}

/* In the counted scope; the tgid is read only when a scope is set. */
static __always_inline bool task_tracked(const struct task_struct *task, bool detailed)
{
	return !detailed || !filter_tasks || tgid_tracked(task->tgid);
}

/* In the counted scope, auditd aside. */
static __always_inline bool task_counted(__u32 tgid, bool detailed)
{
	return tgid != auditd_tgid && (!detailed || !filter_tasks || tgid_tracked(tgid));
}

/* The counters' arch for an AUDIT_ARCH_* value (a context's ctx->arch). */
static __always_inline __u32 arch_of(__u32 audit_arch)
{
	return audit_arch == AUDIT_ARCH_COMPAT ? ARCH_COMPAT : ARCH_NATIVE;
}

/* Which workload pays: one hash lookup by the current task's name. */
static __always_inline void count_comm(bool skip, __u32 rules)
{
	static const struct comm_counts zero_counts;
	struct comm_counts *cc;
	char comm[COMM_LEN];

	bpf_get_current_comm(comm, sizeof(comm));
	cc = bpf_map_lookup_elem(&comms, comm);
	if (!cc) {
		if (bpf_map_update_elem(&comms, comm, &zero_counts, BPF_NOEXIST) == -E2BIG) {
			__sync_fetch_and_add(&comms_lost, 1);
			return;
		}
		cc = bpf_map_lookup_elem(&comms, comm);
		if (!cc)
			return;
	}
	cc->walks++;
	if (skip) {
		cc->skippable_walks++;
		cc->needless_rule_visits += rules;
	}
}

/* A walk's key in counts (arch * NR_SLOTS + slot) or uring_counts (slot). */
static __always_inline __u32 slot_key(__u64 nr, __u32 arch, bool uring)
{
	return (uring ? 0 : (arch & 1) * NR_SLOTS) + mask_slot(nr);
}

/*
 * A walk's counter slot on this CPU. Each map has its own lookup, never one
 * call choosing between two maps: the verifier inlines a lookup only in a
 * map it knows, and the helper call cost filter-op some 20 instructions a
 * walk (make overhead-guest). The barrier keeps clang from merging them.
 */
static __always_inline struct count_slot *slot_of(__u64 nr, __u32 arch, bool uring)
{
	__u32 key = slot_key(nr, arch, uring);
	struct count_slot *s;

	if (uring) {
		s = bpf_map_lookup_elem(&uring_counts, &key);
		barrier_var(s);
		return s;
	}
	return bpf_map_lookup_elem(&counts, &key);
}

/*
 * O(1) whatever the number of rules: one bit test against the mirror.
 * What the patched kernel (and the sharper masks) would do with a walk of
 * slot: enum walk_flag. The exit masks are subsets of the patch's, so what
 * it skips they skip too; the entry mask also holds the watches, which the
 * patch's leaves out. Masks built against an older mirror than the one in
 * force (a rule changed since the loader last listed them) are not used:
 * the patch's decision stands until they are rebuilt.
 */
static __always_inline __u32 classify(__u32 slot, __u32 arch)
{
	bool fresh = whatif_differs && whatif.mirror_seq == mirror.seq;
	__u32 flags = fresh && !mask_bit(whatif.entry_mask[arch & 1], slot) ? WALK_SKIP_ENTRY : 0;

	if (!slot_bit(mirror.mask, slot))
		return flags | WALK_SKIP | WALK_SKIP_ARCH | WALK_SKIP_PERM;
	if (!fresh)
		return flags;
	if (!mask_bit(whatif.arch_mask[arch & 1], slot))
		flags |= WALK_SKIP_ARCH;
	if (!mask_bit(whatif.perm_mask[arch & 1], slot))
		flags |= WALK_SKIP_PERM;
	return flags;
}

/*
 * Counts a walk; returns its slot, and in *flags its classification, which
 * the outcome modes keep there. Classified before the slot's lookup, so
 * that only the verdict lives across it. io_uring walks are counted, never
 * called skippable: the series leaves audit_filter_uring() alone. A
 * skippable walk's `walks` is left to the loader, which adds
 * skippable_walks to it (counts.c), as it does for the sharper masks'
 * counters, bumped here only beyond the patch's mask.
 */
static __always_inline struct count_slot *count_walk(__u64 nr, __u32 arch, bool uring, __u32 *flags,
						     bool detailed)
{
	__u32 verdict = uring ? 0 : classify(mask_slot(nr), arch);
	struct count_slot *s = slot_of(nr, arch, uring);
	struct scan_counts *c;

	*flags = verdict;
	if (!s)
		return NULL;
	c = &s->counts;
	if (verdict & WALK_SKIP) {
		c->skippable_walks++;
		/* A skippable walk matches nothing, so it visits every entry. */
		c->needless_rule_visits += mirror.exit_rules;
	} else {
		c->walks++;
		if (verdict & WALK_SKIP_ARCH)
			c->skippable_arch_mask++;
		if (verdict & WALK_SKIP_PERM)
			c->skippable_perm_mask++;
	}
	/* Not a subset of the patch's: counted whatever it decided. */
	if (verdict & WALK_SKIP_ENTRY)
		c->skippable_entry_mask++;
	if (detailed && per_comm && !uring)
		count_comm(verdict & WALK_SKIP, mirror.exit_rules);
	return s;
}

/*
 * audit_n_rules now where mirror_lag_walks is counted (a loader-kept
 * mirror, the rule count's address known), else -1 with no read: a
 * kernel-kept mirror is rebuilt by the change itself.
 */
static __always_inline __s32 n_rules_for_lag(void)
{
	__s32 n;

	if (!n_rules_addr || mirror.source != MIRROR_NETLINK ||
	    bpf_probe_read_kernel(&n, sizeof(n), (void *)n_rules_addr))
		return -1;
	return n;
}

/*
 * A walk judged while the kernel's rule count now, or when its syscall
 * entered (tracepoint mode judges a walk at the task's next entry), is not
 * the one the loader's mirror was listed at.
 */
static __always_inline void note_mirror_lag(__s32 now, __s32 entered)
{
	if (now >= 0 && (now != mirror.kernel_n_rules || entered != mirror.kernel_n_rules))
		__sync_fetch_and_add(&mirror_lag_walks, 1);
}

/* A syscall's walk, in the modes that keep no walk's start. */
static __always_inline void count_syscall_walk(__u64 nr, __u32 arch, bool detailed)
{
	__u32 flags;

	count_walk(nr, arch, false, &flags, detailed);
}

/*
 * What the walk found. A match in a walk the mirror called skippable means
 * the mask would have suppressed an audit record: it must never happen,
 * unless the rule was published while the walk ran (raced: the mirror's
 * seq moved), which the patched kernel resolves the same way as a rule
 * added a moment later. The sharper masks are held to the same standard.
 */
static __always_inline void count_outcome(struct scan_counts *c, const struct walk_start *w,
					  bool matched, __u64 nr, bool uring,
					  struct audit_context *actx)
{
	bool skip = w->flags & WALK_SKIP;
	struct missed_match *rec;
	const char *key;
	__u32 idx;

	if (!matched)
		return;
	/* start_walk() counted it needless; the match says otherwise. */
	if (!skip)
		c->needless_despite_mask--;
	if ((__u32)mirror.seq != w->seq) {
		c->raced_matches += skip;
		return;
	}
	c->missed_arch_mask += !!(w->flags & WALK_SKIP_ARCH);
	c->missed_perm_mask += !!(w->flags & WALK_SKIP_PERM);
	c->missed_entry_mask += !!(w->flags & WALK_SKIP_ENTRY);
	if (!skip)
		return;
	c->missed_matches++;
	idx = __sync_fetch_and_add(&missed_total, 1);
	rec = idx < MISSED_LOG ? bpf_map_lookup_elem(&missed_log, &idx) : NULL;
	if (!rec)
		return;
	rec->nr = nr;
	rec->uring = uring;
	/* audit_filter_rules() copied the matching rule's key here. */
	key = BPF_CORE_READ(actx, filterkey);
	if (key)
		bpf_probe_read_kernel_str(rec->key, sizeof(rec->key), key);
}

/*
 * Which list a __audit_filter_op() call walks. The inode hash lists come
 * with a name. __audit_uring_exit() filters the io_uring list also while
 * the context is still in a syscall (an op run inline by io_uring_enter),
 * so the list's address decides; without kallsyms, the context does.
 */
static __always_inline int walked_list(struct audit_context *actx, struct list_head *list,
				       struct audit_names *name, unsigned long op)
{
	__u64 exit_list;
	int kind;

	if (name)
		return -1;
	exit_list = exit_list_addr; /* (volatile: read once) */
	if (exit_list)
		return (__u64)list == exit_list	      ? AUDIT_CTX_SYSCALL :
		       (__u64)list == uring_list_addr ? AUDIT_CTX_URING :
							-1;
	/*
	 * An op io_uring_enter runs inline is filtered in a syscall context,
	 * with the op's number (below 64), never the syscall's (426).
	 */
	kind = actx->context;
	if (kind == AUDIT_CTX_SYSCALL)
		return op == (unsigned long)(long)actx->major ? AUDIT_CTX_SYSCALL : AUDIT_CTX_URING;
	return kind == AUDIT_CTX_URING ? kind : -1;
}

/*
 * The walking task. The filter functions' tsk is always current (the
 * walks of __audit_free() are made for current only); through this helper
 * its fields are plain loads, where the argument's are probed loads of
 * nine instructions each.
 */
static __always_inline struct task_struct *walking_task(void)
{
	return bpf_get_current_task_btf();
}

/*
 * A walk never sleeps (it holds rcu_read_lock()), so a switch inside one
 * is a preemption, which __schedule() counts in nivcsw alone; and a walk
 * switched out finds a larger count than any start stored before it.
 */
static __always_inline __u32 switches(const struct task_struct *tsk)
{
	return tsk->nivcsw;
}

/*
 * prio: ctx->prio, for filter-syscall only (filter-op reads its outcome
 * elsewhere). task: the walking task where the caller has it, or NULL:
 * then it is fetched after the counting, when fewer values are live.
 */
static __always_inline void start_walk(struct task_struct *task, __u64 nr, bool uring, __u32 arch,
				       bool keep_prio, __u64 prio, bool detailed)
{
	/*
	 * Read before the mask: a rule's bits are set before the count moves
	 * (mirror_premark_add), so a walk that tested the mask before them
	 * sees the count move, and a match it then makes counts as raced.
	 */
	__u32 seq = *(volatile __u64 *)&mirror.seq, flags;
	struct count_slot *s;

	barrier();
	s = count_walk(nr, arch, uring, &flags, detailed);
	if (!s)
		return;
	/*
	 * Counted before the outcome is known, so that an unmatched walk's
	 * fexit has nothing to do (end_filter_op, end_filter_syscall).
	 */
	if (!(flags & WALK_SKIP))
		s->counts.needless_despite_mask++;
	if (!task)
		task = walking_task();
	s->walk.seq = seq;
	if (keep_prio)
		s->walk.prio = prio;
	s->walk.tid = task->pid;
	s->walk.switches = switches(task);
	s->walk.flags = flags | WALK_ACTIVE;
	/* Last thing before the walk: the bookkeeping stays out of its time. */
	if (detailed && timing)
		s->walk.t0 = bpf_ktime_get_ns();
}

/*
 * The slot of the walk that is ending, if its start was counted. A walk
 * holds rcu_read_lock() and never sleeps, so its task stays on the CPU
 * from fentry to fexit unless a preemptible kernel switches it out, which
 * the task's switch count tells: then its slot here may hold another
 * task's walk, or an older one of its own (an unmatched walk's fexit
 * returns before this, without --timing, leaving `active` set). Such walks
 * are counted, not paired. Whether the task is counted is asked again
 * (only a counted task's fentry starts a walk), with every flag tested:
 * right for lean programs too, and this is the rare path.
 */
static __always_inline struct count_slot *walk_begun(__u64 nr, __u32 arch, bool uring,
						     bool *counted)
{
	struct task_struct *tsk = walking_task();
	struct count_slot *s;

	*counted = task_counted(tsk->tgid, true);
	if (!*counted)
		return NULL;
	s = slot_of(nr, arch, uring);
	if (!s)
		return NULL;
	if (!(s->walk.flags & WALK_ACTIVE) || s->walk.tid != (__u32)tsk->pid ||
	    s->walk.switches != switches(tsk)) {
		__sync_fetch_and_add(&walks_switched_out, 1);
		return NULL;
	}
	return s;
}

/*
 * The time from fentry's last clock read to fexit's first holds the walk,
 * the trampoline's way into fexit and one clock read; the clock read's
 * cost, the least gap between two back-to-back reads, is taken off.
 */
/* floor(log2(v)), 0 for 0 and 1, at most HIST_BUCKETS - 1. */
static __always_inline __u32 log2_bucket(__u64 v)
{
	__u32 b = 0;

	for (__u32 step = 32; step; step /= 2) {
		if (v >> step) {
			v >>= step;
			b += step;
		}
	}
	return b < HIST_BUCKETS ? b : HIST_BUCKETS - 1;
}

static __always_inline void time_walk(struct count_slot *s, __u32 key, bool uring, __u64 t1)
{
	__u64 a = bpf_ktime_get_ns(), b = bpf_ktime_get_ns(), ns;
	struct hist_key hk = { .slot = key };
	static const struct hist_value zero;
	struct hist_value *h;

	if (!clock_ns || b - a < clock_ns)
		clock_ns = b - a;
	ns = t1 - s->walk.t0 > clock_ns ? t1 - s->walk.t0 - clock_ns : 0;
	s->counts.measured_walk_ns += ns;
	if (s->walk.flags & WALK_SKIP)
		s->counts.measured_skippable_walk_ns += ns;
	if (uring)
		return;
	hk.bucket = log2_bucket(ns);
	h = bpf_map_lookup_elem(&walk_hist, &hk);
	if (!h) {
		bpf_map_update_elem(&walk_hist, &hk, &zero, BPF_NOEXIST);
		h = bpf_map_lookup_elem(&walk_hist, &hk);
		if (!h)
			return;
	}
	h->walks++;
	h->ns += ns;
}

/* --per-rule: matches rule_matches had no room for (the counts are then bounds). */
volatile __u64 rule_matches_lost = 0;

/* --per-rule: the rule that matched is the one whose priority the match set. */
static __always_inline void count_rule_match(__u64 nr, __u32 arch, struct audit_context *actx)
{
	struct rule_match_key k = { .prio = BPF_CORE_READ(actx, prio),
				    .slot = slot_key(nr, arch, false) };
	static const __u64 zero;
	__u64 *n = bpf_map_lookup_elem(&rule_matches, &k);

	if (!n) {
		bpf_map_update_elem(&rule_matches, &k, &zero, BPF_NOEXIST);
		n = bpf_map_lookup_elem(&rule_matches, &k);
		if (!n) {
			__sync_fetch_and_add(&rule_matches_lost, 1);
			return;
		}
	}
	(*n)++;
}

/*
 * The walk of syscall (or op) nr that began in slot s is over: count what
 * it found. t1: when it ended, with --timing (0 without).
 */
static __always_inline void end_walk(struct count_slot *s, __u64 nr, __u32 arch, bool uring,
				     bool matched, struct audit_context *actx, __u64 t1)
{
	s->walk.flags &= ~WALK_ACTIVE;
	if (t1 && s->walk.t0)
		time_walk(s, slot_key(nr, arch, uring), uring, t1);
	count_outcome(&s->counts, &s->walk, matched, nr, uring, actx);
}

/*
 * filter-op: audit_filter_syscall() and audit_filter_uring() already
 * returned for auditd before calling it (so only the scope is asked); its
 * return value says whether a rule matched.
 */
static __always_inline void start_filter_op_walk(unsigned long long *ctx, bool detailed)
{
	struct audit_context *actx = (void *)ctx[1];
	struct audit_names *name = (void *)ctx[3];
	struct list_head *list = (void *)ctx[2];
	unsigned long op = ctx[4];
	int kind = walked_list(actx, list, name, op);

	if (kind < 0 || (detailed && !task_tracked(walking_task(), true)))
		return;
	/* (a copy for each list: the list's kind then need not be kept in a register) */
	if (kind == AUDIT_CTX_SYSCALL)
		start_walk(NULL, op, false, arch_of(actx->arch), false, 0, detailed);
	else
		start_walk(NULL, op, true, arch_of(actx->arch), false, 0, detailed);
}

SEC("fentry/__audit_filter_op")
int start_filter_op(unsigned long long *ctx)
{
	start_filter_op_walk(ctx, false);
	return 0;
}

SEC("fentry/__audit_filter_op")
int start_filter_op_detailed(unsigned long long *ctx)
{
	start_filter_op_walk(ctx, true);
	return 0;
}

/*
 * The end of a walk whose end is counted (a match, or any walk with
 * --timing). Not inlined: the fexit programs' common case (no match) then
 * uses no callee-saved register, and saves and restores none.
 */
static __noinline int end_filter_op_walk(unsigned long long *ctx, __u64 t1)
{
	struct audit_context *actx = (void *)ctx[1];
	struct audit_names *name = (void *)ctx[3];
	struct list_head *list = (void *)ctx[2];
	unsigned long op = ctx[4];
	int ret = (int)ctx[5], kind;
	struct count_slot *s;
	bool uring, counted;
	__u32 arch;

	kind = walked_list(actx, list, name, op);
	if (kind < 0)
		return 0;
	arch = arch_of(actx->arch);
	uring = kind == AUDIT_CTX_URING;
	s = walk_begun(op, arch, uring, &counted);
	if (s)
		end_walk(s, op, arch, uring, ret != 0, actx, t1);
	/* Where it stopped is known even for a walk switched out (its start was counted). */
	if (rule_counts && ret && counted && !uring)
		count_rule_match(op, arch, actx);
	return 0;
}

SEC("fexit/__audit_filter_op")
int BPF_PROG(end_filter_op, struct task_struct *tsk, struct audit_context *actx,
	     struct list_head *list, struct audit_names *name, unsigned long op, int ret)
{
	return ret ? end_filter_op_walk(ctx, 0) : 0;
}

SEC("fexit/__audit_filter_op")
int BPF_PROG(end_filter_op_detailed, struct task_struct *tsk, struct audit_context *actx,
	     struct list_head *list, struct audit_names *name, unsigned long op, int ret)
{
	if (!timing)
		return ret ? end_filter_op_walk(ctx, 0) : 0;
	return end_filter_op_walk(ctx, bpf_ktime_get_ns());
}

/*
 * filter-syscall: the function returns nothing, but audit_filter_rules()
 * raises ctx->prio to the matching rule's priority, and refuses rules at
 * or below the current one, so a match is exactly a rise of ctx->prio.
 */
static __always_inline void start_filter_syscall_walk(struct audit_context *actx, bool detailed)
{
	struct task_struct *task = walking_task();

	if (task_counted(task->tgid, detailed))
		start_walk(task, (__u64)(long)actx->major, false, arch_of(actx->arch), true,
			   actx->prio, detailed);
}

SEC("fentry/audit_filter_syscall")
int BPF_PROG(start_filter_syscall, struct task_struct *tsk, struct audit_context *actx)
{
	start_filter_syscall_walk(actx, false);
	return 0;
}

SEC("fentry/audit_filter_syscall")
int BPF_PROG(start_filter_syscall_detailed, struct task_struct *tsk, struct audit_context *actx)
{
	start_filter_syscall_walk(actx, true);
	return 0;
}

/* As end_filter_op_walk(). */
static __noinline int end_filter_syscall_walk(struct audit_context *actx, __u64 t1)
{
	__u64 nr = (__u64)(long)actx->major, prio = actx->prio;
	__u32 arch = arch_of(actx->arch);
	bool counted, matched;
	struct count_slot *s = walk_begun(nr, arch, false, &counted);

	if (s) {
		matched = prio > s->walk.prio;
		end_walk(s, nr, arch, false, matched, actx, t1);
	} else {
		/* Switched out: its start prio is gone, but a walk starts at 0 or ~0. */
		matched = prio != 0 && prio != ~0ULL;
	}
	if (rule_counts && matched && counted)
		count_rule_match(nr, arch, actx);
	return 0;
}

/*
 * A match raises prio to the rule's, which is never 0 and never above ~0:
 * prio still 0, or ~0 (AUDIT_STATE_RECORD), matched nothing.
 */
static __always_inline int end_filter_syscall_untimed(struct audit_context *actx)
{
	__u64 prio = actx->prio;

	return prio == 0 || prio == ~0ULL ? 0 : end_filter_syscall_walk(actx, 0);
}

SEC("fexit/audit_filter_syscall")
int BPF_PROG(end_filter_syscall, struct task_struct *tsk, struct audit_context *actx)
{
	return end_filter_syscall_untimed(actx);
}

SEC("fexit/audit_filter_syscall")
int BPF_PROG(end_filter_syscall_detailed, struct task_struct *tsk, struct audit_context *actx)
{
	if (timing)
		return end_filter_syscall_walk(actx, bpf_ktime_get_ns());
	return end_filter_syscall_untimed(actx);
}

/* Before 5.16 (io_uring contexts) a context said only whether it was in a syscall. */
struct audit_context___5_10 {
	int in_syscall;
} __attribute__((preserve_access_index));

static __always_inline bool in_syscall_context(struct audit_context *actx)
{
	if (bpf_core_field_exists(actx->context))
		return actx->context == AUDIT_CTX_SYSCALL;
	return ((struct audit_context___5_10 *)actx)->in_syscall;
}

/*
 * syscall-exit: the conditions under which __audit_syscall_exit() filters,
 * read through a BTF pointer: plain loads, no helper calls.
 */
static __always_inline void count_if_walked(struct audit_context *actx, __u32 tgid, bool detailed)
{
	__s32 n;

	if (!actx || (actx->dummy && !(detailed && profile)) || !in_syscall_context(actx) ||
	    !task_counted(tgid, detailed))
		return;
	n = n_rules_for_lag();
	note_mirror_lag(n, n);
	count_syscall_walk((__u64)(long)actx->major, arch_of(actx->arch), detailed);
}

/*
 * The same through CO-RE reads, for a context known only by its address.
 * The second int is `context` (AUDIT_CTX_SYSCALL is 1) or, before 5.16,
 * `in_syscall` (1 in a syscall).
 */
static __always_inline void count_if_walked_read(struct audit_context *actx, __u32 tgid,
						 bool detailed)
{
	int head[3]; /* dummy, context, state: adjacent, read at once */
	__s32 n;

	if (!actx || bpf_probe_read_kernel(head, sizeof(head), actx) ||
	    (head[0] && !(detailed && profile)) || head[1] != AUDIT_CTX_SYSCALL ||
	    !task_counted(tgid, detailed))
		return;
	n = n_rules_for_lag();
	note_mirror_lag(n, n);
	count_syscall_walk((__u64)(long)BPF_CORE_READ(actx, major),
			   arch_of(BPF_CORE_READ(actx, arch)), detailed);
}

/*
 * The current task's context. bpf_get_current_task_btf() came with 5.11;
 * on 5.10 libbpf resolves the test below to false and the verifier never
 * sees that helper, so the program loads there with CO-RE reads.
 */
static __always_inline void count_current(bool detailed)
{
	struct task_struct *task;

	if (bpf_core_enum_value_exists(enum bpf_func_id, BPF_FUNC_get_current_task_btf)) {
		task = bpf_get_current_task_btf();
		count_if_walked(task->audit_context, task->tgid, detailed);
		return;
	}
	task = (struct task_struct *)bpf_get_current_task();
	count_if_walked_read(BPF_CORE_READ(task, audit_context), bpf_get_current_pid_tgid() >> 32,
			     detailed);
}

SEC("fentry/__audit_syscall_exit")
int BPF_PROG(count_syscall_exit, int success, long return_code)
{
	count_current(false);
	return 0;
}

SEC("fentry/__audit_syscall_exit")
int BPF_PROG(count_syscall_exit_detailed, int success, long return_code)
{
	count_current(true);
	return 0;
}

/*
 * An io_uring op run inline in a syscall (io_uring_enter) walks the exit
 * list once more, with the syscall's number: __audit_uring_exit() calls
 * audit_filter_syscall() on a syscall context.
 */
SEC("fentry/__audit_uring_exit")
int BPF_PROG(count_uring_exit, int success, long code)
{
	count_current(true);
	return 0;
}

/*
 * A task that ends inside a syscall (exit, exit_group) never returns from
 * it: __audit_free() walks the exit list for it instead.
 */
SEC("fentry/__audit_free")
int BPF_PROG(count_audit_free, struct task_struct *tsk)
{
	if (tsk == (struct task_struct *)bpf_get_current_task())
		count_if_walked(tsk->audit_context, tsk->tgid, true);
	return 0;
}

/* The counters' arch of the syscall being entered. */
static __always_inline __u32 entering_arch(struct task_struct *task)
{
#if defined(__TARGET_ARCH_x86)
	return task->thread_info.status & TS_COMPAT ? ARCH_COMPAT : ARCH_NATIVE;
#else
	return task->thread_info.flags & (1UL << TIF_32BIT) ? ARCH_COMPAT : ARCH_NATIVE;
#endif
}

/*
 * tracepoint: whether a syscall's exit walk runs was settled by audit's
 * entry hook, in `dummy` (from audit_n_rules) and `context` (audit on, the
 * state not DISABLED; audit on is what `pending` says); audit_reset_context()
 * at its exit leaves `dummy` and `state` as they were, and nothing else
 * writes them before the task's next syscall entry (__audit_uring_entry()
 * only on a context that is not in a syscall, with the same audit_n_rules
 * unless a rule changed meanwhile).
 */
static __always_inline bool walk_armed(struct task_struct *task, bool detailed)
{
	struct audit_context *actx = task->audit_context;

	return actx && (!actx->dummy || (detailed && profile)) &&
	       actx->state != AUDIT_STATE_DISABLED && task_counted(task->tgid, detailed);
}

/*
 * Syscalls that never log a record in their own context: each reads a field
 * of the task and returns, with no LSM hook and no audit call on the way.
 * Any other syscall may (a bind to audit's log group, a rule change, a PAM
 * message, an LSM denial), and audit_log_start() then clears `dummy` "to
 * enable supporting records", so that syscall walks the exit list with no
 * rule loaded on a healthy kernel.
 */
static __always_inline bool logs_no_record(__s64 nr, __u8 arch)
{
	if (arch == ARCH_COMPAT) /* i386 and arm share these numbers */
		return nr == 20 || nr == 24 || nr == 47 || nr == 49 || nr == 50 || nr == 64 ||
		       nr == 65 || nr == 158 || (nr >= 199 && nr <= 202) || nr == 224;
#if defined(__TARGET_ARCH_x86)
	/* sched_yield, getpid, getuid, getgid, geteuid, getegid, getppid, getpgrp, gettid */
	return nr == 24 || nr == 39 || nr == 102 || nr == 104 || nr == 107 || nr == 108 ||
	       nr == 110 || nr == 111 || nr == 186;
#else
	/* sched_yield, then getpid to gettid (asm-generic) */
	return nr == 124 || (nr >= 172 && nr <= 178);
#endif
}

/*
 * A syscall that entered in the current ruleless epoch: its context's
 * `dummy`, unchanged since audit's entry hook set it from audit_n_rules
 * (__audit_syscall_entry()) unless the syscall logged a record, says
 * whether audit_n_rules counted a rule no list holds. A dummy context
 * proves it did not; a walk of a syscall that logs no record proves it
 * did. The task's last syscall before its end has no context left here.
 */
static __always_inline void note_ruleless(struct task_struct *task, const struct syscall_entry *e)
{
	struct stale_tally *t = &stale_tally[e->ruleless_epoch & 1];
	struct audit_context *actx = task->audit_context;
	struct stale_walk *w;
	__u64 i;

	if (!actx || actx->state == AUDIT_STATE_DISABLED || t->epoch != e->ruleless_epoch)
		return;
	if (actx->dummy) {
		if (!t->dummy_seen)
			t->dummy_seen = 1;
		return;
	}
	__sync_fetch_and_add(&t->walks, 1);
	if (!logs_no_record(e->nr, e->arch))
		return;
	i = __sync_fetch_and_add(&t->proofs, 1);
	if (i >= STALE_LOG)
		return;
	w = &t->log[i];
	w->nr = e->nr;
	w->arch = e->arch;
	w->seen_ns = bpf_ktime_get_ns();
	w->pid = task->pid;
	w->tgid = task->tgid;
	bpf_probe_read_kernel_str(w->comm, sizeof(w->comm), task->comm);
}

/* The walk the task's last syscall made on its way out, if armed. */
static __always_inline void count_returned(struct task_struct *task, const struct syscall_entry *e,
					   bool armed, bool detailed, __s32 n_rules)
{
	if (e->ruleless_epoch && e->ruleless_epoch == ruleless_epoch)
		note_ruleless(task, e);
	if (!armed)
		return;
	note_mirror_lag(n_rules, e->n_rules);
	if (e->nr == NR_IO_URING_ENTER)
		__sync_fetch_and_add(&uring_enter_walks, 1);
	count_syscall_walk(e->nr, e->arch, detailed);
}

/*
 * tracepoint: one program, on sys_enter, which fires just before audit's
 * entry hook with the number that hook is given (after ptrace and seccomp
 * had their say; a syscall they stopped never gets here nor into audit).
 * It counts the walk of the task's previous syscall, whose exit work is
 * done and whose `dummy` is still in the context, and notes this one: one
 * program per syscall instead of one at each edge (make overhead).
 */
static __always_inline void count_entry(struct bpf_raw_tracepoint_args *args, bool detailed)
{
	struct task_struct *task = bpf_get_current_task_btf();
	__s32 n_rules = n_rules_for_lag();
	struct syscall_entry *e;
	bool armed;

	e = bpf_task_storage_get(&entries, task, NULL,
				 audit_on ? BPF_LOCAL_STORAGE_GET_F_CREATE : 0);
	if (!e)
		return;
	armed = walk_armed(task, detailed);
	if (e->pending)
		count_returned(task, e, armed, detailed, n_rules);
	/* With audit off, audit's entry hook arms no walk. */
	e->pending = audit_on;
	e->nr = args->args[1];
	e->arch = entering_arch(task);
	e->ruleless_epoch = ruleless_epoch;
	e->n_rules = n_rules;
	/*
	 * If this syscall's walk is counted at the task's end (exit and
	 * exit_group never return; a task can be killed without a signal),
	 * the context is gone by then: judge it by what it says now, before
	 * audit's entry hook sets dummy again (a change of rules between the
	 * two is the blind spot exit_walks_inferred counts). Whether the task
	 * is counted is decided now too: the last thread to leave forgets the
	 * tgid, and it may reach sched_process_exit before a sibling that
	 * called exit first.
	 */
	e->armed = armed;
}

SEC("raw_tracepoint/sys_enter")
int count_sys_enter(struct bpf_raw_tracepoint_args *args)
{
	count_entry(args, false);
	return 0;
}

SEC("raw_tracepoint/sys_enter")
int count_sys_enter_detailed(struct bpf_raw_tracepoint_args *args)
{
	count_entry(args, true);
	return 0;
}

/*
 * A signal is delivered on the way back to user mode, after the exit work
 * of the syscall the task was in; a fatal one ends the task with that
 * syscall's walk still to count and its `dummy` still readable.
 */
SEC("raw_tracepoint/signal_deliver")
int count_before_signal(struct bpf_raw_tracepoint_args *args)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct syscall_entry *e = bpf_task_storage_get(&entries, task, NULL, 0);

	if (!e || !e->pending)
		return 0;
	e->pending = 0;
	count_returned(task, e, walk_armed(task, true), true, n_rules_for_lag());
	return 0;
}

/*
 * The walk of a task's last syscall, when no later entry or signal counted
 * it: exit and exit_group, which __audit_free() walks, or a task killed
 * without a signal (seccomp's kill).
 */
SEC("raw_tracepoint/sched_process_exit")
int count_exit_walk(struct bpf_raw_tracepoint_args *args)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct syscall_entry *e = bpf_task_storage_get(&entries, task, NULL, 0);

	if (e && e->pending) {
		e->pending = 0;
		if (e->armed)
			__sync_fetch_and_add(&exit_walks_inferred, 1);
		count_returned(task, e, e->armed, true, n_rules_for_lag());
	}
	return 0;
}

/*
 * `-- COMMAND`: counted from its exec on. Before it, the loader's child
 * resets signals and waits at its gate, which is not the command's work,
 * and whose timing against the attach would differ from run to run.
 */
SEC("raw_tracepoint/sched_process_exec")
int track_exec(struct bpf_raw_tracepoint_args *args)
{
	__u32 tgid = bpf_get_current_pid_tgid() >> 32;
	__u8 one = 1;

	if (!exec_tgid || tgid != exec_tgid)
		return 0;
	bpf_map_update_elem(&tracked, &tgid, &one, BPF_ANY);
	exec_tgid = 0;
	return 0;
}

/* `-- COMMAND`: follow the command's descendants. */
SEC("raw_tracepoint/sched_process_fork")
int follow_fork(struct bpf_raw_tracepoint_args *args)
{
	struct task_struct *parent = (struct task_struct *)args->args[0];
	struct task_struct *child = (struct task_struct *)args->args[1];
	__u32 ptgid = BPF_CORE_READ(parent, tgid), ctgid = BPF_CORE_READ(child, tgid);
	__u8 one = 1;

	if (ptgid == ctgid || !bpf_map_lookup_elem(&tracked, &ptgid))
		return 0;
	if (bpf_map_update_elem(&tracked, &ctgid, &one, BPF_NOEXIST) == -E2BIG)
		__sync_fetch_and_add(&lost_children, 1);
	return 0;
}

/*
 * `-- COMMAND`: a process is forgotten when its group leader is freed, which
 * waits for every thread to have exited: each thread's last walk, in
 * __audit_free(), is done by then. (At sched_process_exit it was too early:
 * a thread whose exit came after signal->live reached 0 could forget the
 * tgid while the thread that dropped it was still to walk in
 * __audit_free(), and that walk went uncounted.)
 */
SEC("raw_tracepoint/sched_process_free")
int forget_exit(struct bpf_raw_tracepoint_args *args)
{
	struct task_struct *task = (struct task_struct *)args->args[0];
	__u32 tgid = BPF_CORE_READ(task, tgid);

	if ((__u32)BPF_CORE_READ(task, pid) == tgid)
		bpf_map_delete_elem(&tracked, &tgid);
	return 0;
}

/* ---- The mirror, kept equal to the kernel's lists (trampoline modes) ---- */

struct rebuild_walk {
	struct list_head *pos;
	__u64 head;
	bool uring;
	bool done;
	__u32 n;
};

static long rebuild_step(__u32 i, struct rebuild_walk *w)
{
	__u32 zero = 0, rule_mask[MASK_WORDS];
	struct mask_mirror *acc = bpf_map_lookup_elem(&rebuild_scratch, &zero);
	struct list_head *pos = w->pos, *next = BPF_CORE_READ(pos, next);
	struct audit_entry *e;

	if (!acc)
		return 1;
	if (!next || (__u64)next == w->head) {
		w->done = true;
		return 1;
	}
	e = (void *)next - bpf_core_field_offset(struct audit_entry, list);
	if (bpf_core_read(rule_mask, sizeof(rule_mask), &e->rule.mask))
		return 1;
	if (rule_counts && !w->uring) {
		__u64 prio = BPF_CORE_READ(e, rule.prio);
		__u32 at = w->n;

		bpf_map_update_elem(&exit_prios, &at, &prio, BPF_ANY);
	}
	/* Two loops, not a selected pointer the verifier cannot bound. */
	if (w->uring) {
		for (int k = 0; k < MASK_WORDS; k++)
			acc->uring_mask[k] |= rule_mask[k];
	} else {
		for (int k = 0; k < MASK_WORDS; k++)
			acc->mask[k] |= rule_mask[k];
	}
	w->n++;
	w->pos = next;
	return 0;
}

/* ORs one list's masks into the scratch mirror; false if the walk was cut short. */
static __always_inline bool rebuild_list(__u64 head, bool uring, __u32 *n)
{
	struct rebuild_walk w = { .pos = (struct list_head *)head, .head = head, .uring = uring };

	if (!head)
		return true;
	bpf_loop(MAX_EXIT_RULES, rebuild_step, &w, 0);
	*n = w.n;
	return w.done;
}

static __always_inline bool same_mirror(const struct mask_mirror *a, const struct mask_mirror *b)
{
	for (int k = 0; k < MASK_WORDS; k++)
		if (a->mask[k] != b->mask[k] || a->uring_mask[k] != b->uring_mask[k])
			return false;
	return a->source == b->source && a->exit_rules == b->exit_rules &&
	       a->uring_rules == b->uring_rules && a->truncated == b->truncated &&
	       a->kernel_n_rules == b->kernel_n_rules;
}

/*
 * A rule being added through netlink has its bits here from fentry to fexit
 * of audit_rule_change() (netlink changes are serialized by audit_ctl_lock),
 * so that a rebuild from another path (a watch event, a pruned tree) that
 * walked the list before the rule was linked does not wipe them.
 */
struct premark {
	__u32 mask[MASK_WORDS];
	__u32 uring_mask[MASK_WORDS];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct premark);
} pending SEC(".maps");

/* The start time of the rebuild whose result is published: the newest stays. */
volatile __u64 published_ticket = 0;

/*
 * One rebuild; false if a newer one published around ours, which may then be
 * lost. Its ticket is the clock: 5.10 has no atomic fetch-and-add.
 */
static __always_inline bool rebuild_once(struct mask_mirror *acc, struct mask_mirror *m)
{
	__u64 ticket = bpf_ktime_get_ns();
	struct premark *p;
	__u32 zero = 0;
	bool whole;

	__builtin_memset(acc, 0, sizeof(*acc));
	whole = rebuild_list(exit_list_addr, false, &acc->exit_rules);
	whole &= rebuild_list(uring_list_addr, true, &acc->uring_rules);
	p = bpf_map_lookup_elem(&pending, &zero);
	if (p) {
		for (int k = 0; k < MASK_WORDS; k++) {
			acc->mask[k] |= p->mask[k];
			acc->uring_mask[k] |= p->uring_mask[k];
		}
	}
	acc->truncated = !whole;
	acc->source = MIRROR_KERNEL_LIST;
	acc->kernel_n_rules = -1;
	if (n_rules_addr)
		bpf_probe_read_kernel(&acc->kernel_n_rules, sizeof(acc->kernel_n_rules),
				      (void *)n_rules_addr);
	if (corrupt_nr >= 0 && corrupt_nr < MASK_BITS)
		acc->mask[(__u32)corrupt_nr / 32] &= ~(1U << ((__u32)corrupt_nr % 32));
	/* A newer rebuild saw a newer list: ours is out of date. */
	if (published_ticket > ticket)
		return true;
	/* The generation counts changes, not rebuilds (listing rebuilds too). */
	if (same_mirror(m, acc))
		return true;
	published_ticket = ticket;
	acc->generation = m->generation + 1;
	acc->seq = m->seq + 1;
	__builtin_memcpy(m, acc, sizeof(*m));
	return published_ticket == ticket;
}

/*
 * Runs after every function that changes the lists, so the mirror is current
 * before the change returns to user space. The lists are RCU-protected and
 * trampolines run under rcu_read_lock(), so walking them here is safe. Two
 * rebuilds racing could publish the older result last; the one that sees a
 * newer ticket published around its own write rebuilds again.
 */
static __noinline int rebuild_mirror(void)
{
	__u32 zero = 0;
	struct mask_mirror *acc = bpf_map_lookup_elem(&rebuild_scratch, &zero);
	struct mask_mirror *m = &mirror;

	if (!acc || !exit_list_addr)
		return 0;
	for (int attempt = 0; attempt < 3; attempt++)
		if (rebuild_once(acc, m))
			break;
	return 0;
}

/*
 * Like the patched kernel, set a new rule's bits before it is published:
 * audit_add_rule() (inlined here) links it before our fexit runs, and a
 * syscall on another CPU could match it in between. Class bits (the top
 * AUDIT_SYSCALL_CLASSES) expand to syscall lists only the kernel knows, so
 * they mark everything until the rebuild narrows the mask again.
 */
static __always_inline bool goes_to_inode_hash(const struct audit_rule_data *d)
{
	__u32 n = BPF_CORE_READ(d, field_count), field;

	for (__u32 i = 0; i < AUDIT_MAX_FIELDS && i < n; i++) {
		if (bpf_probe_read_kernel(&field, sizeof(field), &d->fields[i]))
			return false;
		if (field == AUDIT_WATCH || field == AUDIT_INODE)
			return true;
	}
	return false;
}

SEC("fentry/audit_rule_change")
int BPF_PROG(mirror_premark_add, int type, int seq, void *data, size_t datasz)
{
	struct audit_rule_data *d = data;
	__u32 zero = 0, list, rule_mask[MASK_WORDS];
	struct mask_mirror *m;
	struct premark *p;

	/*
	 * Watch and inode rules go to audit_inode_hash[], which the exit walk
	 * never visits (audit_find_rule()): marking their mask would make
	 * walks look unskippable for as long as audit_add_watch() takes.
	 */
	if (type != AUDIT_ADD_RULE || datasz < sizeof(*d) || goes_to_inode_hash(d))
		return 0;
	m = &mirror;
	if (bpf_probe_read_kernel(rule_mask, sizeof(rule_mask), d->mask))
		return 0;
	if (rule_mask[MASK_WORDS - 1] >> 16)
		__builtin_memset(rule_mask, 0xff, sizeof(rule_mask));
	p = bpf_map_lookup_elem(&pending, &zero);
	if (!p)
		return 0;
	list = BPF_CORE_READ(d, flags) & ~AUDIT_FILTER_PREPEND;
	/*
	 * Plain ORs (5.10 has no atomic one): netlink changes are serialized,
	 * and a rebuild that overwrites them keeps the pending bits.
	 */
	if (list == AUDIT_FILTER_EXIT) {
		for (int k = 0; k < MASK_WORDS; k++) {
			p->mask[k] = rule_mask[k];
			m->mask[k] |= rule_mask[k];
		}
	} else if (list == AUDIT_FILTER_URING_EXIT) {
		for (int k = 0; k < MASK_WORDS; k++) {
			p->uring_mask[k] = rule_mask[k];
			m->uring_mask[k] |= rule_mask[k];
		}
	} else {
		return 0;
	}
	/* After the bits: a walk that began before them sees the count move. */
	__sync_fetch_and_add(&m->seq, 1);
	return 0;
}

/* Netlink add and delete (audit_add_rule() and audit_del_rule()). */
SEC("fexit/audit_rule_change")
int BPF_PROG(mirror_on_rule_change)
{
	__u32 zero = 0;
	struct premark *p = bpf_map_lookup_elem(&pending, &zero);

	/* The rule is on its list now, or was refused: the list says which. */
	if (p)
		__builtin_memset(p, 0, sizeof(*p));
	return rebuild_mirror();
}

/* classes[] holds pointers to bitmaps audit_register_class() allocated. */
static __always_inline void read_classes(void)
{
	__u32 zero = 0;
	struct kernel_classes *kc = bpf_map_lookup_elem(&classes, &zero);
	__u32 *bitmap;

	if (!kc || kc->read || !classes_addr)
		return;
	for (int i = 0; i < AUDIT_CLASSES; i++) {
		if (bpf_probe_read_kernel(&bitmap, sizeof(bitmap), (void *)(classes_addr + i * 8)))
			return;
		if (bitmap && bpf_probe_read_kernel(kc->mask[i], sizeof(kc->mask[i]), bitmap))
			return;
	}
	kc->read = 1;
}

/* AUDIT_LIST_RULES: the loader's listing builds the mirror at start-up. */
SEC("fexit/audit_list_rules_send")
int BPF_PROG(mirror_on_list_rules)
{
	read_classes();
	return rebuild_mirror();
}

/* exe= rules removed when the executable goes (audit_autoremove_mark_rule()). */
SEC("fexit/audit_del_rule")
int BPF_PROG(mirror_on_del_rule)
{
	return rebuild_mirror();
}

/*
 * Where the loader keeps the mirror (no bpf_loop() for the rebuild), its
 * listings still read audit_n_rules for the staleness verdict.
 */
SEC("fexit/audit_list_rules_send")
int BPF_PROG(read_n_rules)
{
	__s32 n;

	if (n_rules_addr && !bpf_probe_read_kernel(&n, sizeof(n), (void *)n_rules_addr))
		listed_n_rules = n;
	return 0;
}

/*
 * Run by the loader (BPF_PROG_TEST_RUN), never attached: audit_n_rules
 * before and after a listing tags the mirror it writes (mirror_lag_walks).
 */
SEC("raw_tp")
int read_n_rules_now(void *ctx)
{
	__s32 n;

	n_rules_now = n_rules_addr && !bpf_probe_read_kernel(&n, sizeof(n), (void *)n_rules_addr) ?
			      n :
			      -1;
	return 0;
}

/* Tree rules removed automatically when a tree is pruned or killed. */
SEC("fexit/kill_rules")
int BPF_PROG(mirror_on_kill_rules)
{
	return rebuild_mirror();
}

/* Watch updates and audit_remove_parent_watches(), inlined into it. */
SEC("fexit/audit_watch_handle_event")
int BPF_PROG(mirror_on_watch_event)
{
	return rebuild_mirror();
}

/* LSM policy reload replaces every rule with an LSM field. */
SEC("fexit/audit_update_lsm_rules")
int BPF_PROG(mirror_on_lsm_update)
{
	return rebuild_mirror();
}
