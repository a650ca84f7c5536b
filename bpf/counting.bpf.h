/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Counting a walk: its slot by arch and syscall, its verdict against the
 * mirror and the what-if masks (classify()), and the per-syscall counters
 * every mode shares (counts, uring_counts, comms).
 */
#ifndef __COUNTING_BPF_H
#define __COUNTING_BPF_H

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
	cc = map_lookup_or_insert(&comms, comm, &zero_counts, &comms_lost);
	if (!cc)
		return;
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

/* A syscall's walk, in the modes that keep no walk's start. */
static __always_inline void count_syscall_walk(__u64 nr, __u32 arch, bool detailed)
{
	__u32 flags;

	count_walk(nr, arch, false, &flags, detailed);
}

#endif /* __COUNTING_BPF_H */
