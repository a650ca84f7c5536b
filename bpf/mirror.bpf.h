/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The mirror kept by BPF (trampoline modes): rebuilt from the kernel's
 * exit and io_uring lists after every function that changes them, with a
 * new rule's bits set before the rule is published (mirror_premark_add).
 */
#ifndef __MIRROR_BPF_H
#define __MIRROR_BPF_H

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

#endif /* __MIRROR_BPF_H */
