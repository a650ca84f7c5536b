/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a walk found, for the modes that see both its ends (filter-op and
 * filter-syscall): the start kept in its slot at fentry, paired at fexit;
 * matches a skippable walk made (missed_log), walk times (--timing) and
 * matches by rule (--per-rule).
 */
#ifndef __OUTCOME_BPF_H
#define __OUTCOME_BPF_H

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

/*
 * The time from fentry's last clock read to fexit's first holds the walk,
 * the trampoline's way into fexit and one clock read; the clock read's
 * cost, the least gap between two back-to-back reads, is taken off.
 */
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
	h = map_lookup_or_insert(&walk_hist, &hk, &zero, NULL);
	if (!h)
		return;
	h->walks++;
	h->ns += ns;
}

/* --per-rule: the rule that matched is the one whose priority the match set. */
static __always_inline void count_rule_match(__u64 nr, __u32 arch, struct audit_context *actx)
{
	struct rule_match_key k = { .prio = BPF_CORE_READ(actx, prio),
				    .slot = slot_key(nr, arch, false) };
	static const __u64 zero;
	__u64 *n = map_lookup_or_insert(&rule_matches, &k, &zero, &rule_matches_lost);

	if (n)
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

#endif /* __OUTCOME_BPF_H */
