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
#define AUDIT_ARCH_X86_64 0xc000003e
#define AUDIT_ARCH_I386 0x40000003
#define TS_COMPAT 0x0002	/* arch/x86/include/asm/thread_info.h */

char LICENSE[] SEC("license") = "GPL";

/* Set by the loader before load. */
const volatile bool filter_tasks = false;	/* count only tgids in `tracked` */
const volatile __u64 exit_list_addr = 0;	/* &audit_filter_list[AUDIT_FILTER_EXIT] */
const volatile __u64 uring_list_addr = 0;	/* &audit_filter_list[AUDIT_FILTER_URING_EXIT] */
const volatile __u64 n_rules_addr = 0;		/* &audit_n_rules */
const volatile long fork_nrs[FORK_NRS] = { -1, -1, -1, -1 };	/* clone, clone3, fork, vfork */
const volatile long corrupt_nr = -1;		/* tests only: a bit the mirror must lack */
const volatile bool per_comm = false;		/* also count by process name */
const volatile bool timing = false;		/* time each walk (trampoline modes) */

/* Kept current by the loader while it runs. */
volatile bool audit_on = false;		/* audit_enabled, from AUDIT_GET */
volatile __u32 auditd_tgid = 0;		/* audit_filter_syscall() exempts it */
volatile __u64 lost_children = 0;	/* descendants `tracked` had no room for */
volatile __u64 missed_total = 0;	/* indexes missed_log */
volatile __u64 comms_lost = 0;		/* walks of names `comms` had no room for */
volatile __u64 clock_ns = 0;		/* cost of one clock read, least seen */

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct mask_mirror);
} mirror SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct mask_mirror);
} rebuild_scratch SEC(".maps");

/* Kept by the loader from the rule list in every mode. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct whatif_masks);
} whatif SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, NR_SLOTS);
	__type(key, __u32);
	__type(value, struct scan_counts);
} counts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, NR_SLOTS);
	__type(key, __u32);
	__type(value, struct scan_counts);
} uring_counts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, MAX_COMMS);
	__type(key, char[COMM_LEN]);
	__type(value, struct comm_counts);
} comms SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, MISSED_LOG);
	__type(key, __u32);
	__type(value, struct missed_match);
} missed_log SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 65536);
	__type(key, __u32);
	__type(value, __u8);
} tracked SEC(".maps");

/*
 * A walk as it began, by thread: the patched kernel tests the mask before
 * walking, so that is when a walk is classified; its outcome is known only
 * at fexit. (Classifying at fexit would blame a rule deleted meanwhile.)
 */
struct walk_start {
	__u64 prio;	/* ctx->prio, for filter-syscall */
	__u64 seq;	/* the mirror's write count when the walk began */
	__u64 t0;	/* --timing: when it began */
	__u32 slot;
	bool skip;
	bool uring;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, __u32);
	__type(value, struct walk_start);
} walks_in_flight SEC(".maps");

static __always_inline bool task_counted(__u32 tgid)
{
	if (tgid == auditd_tgid)
		return false;
	return !filter_tasks || bpf_map_lookup_elem(&tracked, &tgid);
}

static __always_inline bool bit_set(const __u32 *mask, __u32 slot)
{
	return slot < MASK_BITS && (mask[slot / 32] & (1U << (slot % 32)));
}

/*
 * The sharper masks are subsets of the patch's, so what it skips they skip
 * too. A walk of another arch than the two known is judged by the patch's.
 */
static __always_inline void count_whatif(struct scan_counts *c, __u32 slot, __u32 arch,
					 bool skip)
{
	__u32 zero = 0;
	struct whatif_masks *w = bpf_map_lookup_elem(&whatif, &zero);

	if (skip || !w) {
		c->skippable_arch += skip;
		c->skippable_perm += skip;
		return;
	}
	if (arch && arch == w->arch_elf[0])
		c->skippable_arch += !bit_set(w->arch_mask[0], slot);
	else if (arch && arch == w->arch_elf[1])
		c->skippable_arch += !bit_set(w->arch_mask[1], slot);
	c->skippable_perm += !bit_set(w->perm_mask, slot);
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
	cc->scans++;
	if (skip) {
		cc->skippable++;
		cc->walked_skipped += rules;
	}
}

/*
 * O(1) whatever the number of rules: one bit test against the mirror.
 * Returns the slot's counters, *skip telling whether the patched kernel
 * would have skipped this walk. `arch` is the context's AUDIT_ARCH_*;
 * io_uring ops have no what-if masks.
 */
static __always_inline struct scan_counts *count_walk(__u64 nr, bool uring, __u32 arch,
						      bool *skip)
{
	__u32 zero = 0, slot = nr < MASK_BITS ? nr : SLOT_OUT_OF_RANGE;
	struct mask_mirror *m = bpf_map_lookup_elem(&mirror, &zero);
	struct scan_counts *c;

	if (!m)
		return NULL;
	c = bpf_map_lookup_elem(uring ? (void *)&uring_counts : (void *)&counts, &slot);
	if (!c)
		return NULL;
	c->scans++;
	/* audit_in_mask() never matches a number past the mask. */
	*skip = !bit_set(uring ? m->uring_mask : m->mask, slot);
	if (*skip) {
		c->skippable++;
		/* A skippable walk matches nothing, so it visits every entry. */
		c->walked_skipped += uring ? m->uring_rules : m->exit_rules;
	}
	if (!uring)
		count_whatif(c, slot, arch, *skip);
	if (per_comm && !uring)
		count_comm(*skip, m->exit_rules);
	return c;
}

/*
 * What the walk found. A match in a walk the mirror called skippable means
 * the mask would have suppressed an audit record: it must never happen,
 * unless the rule was published while the walk ran (`raced`), which the
 * patched kernel resolves the same way as a rule added a moment later.
 */
static __always_inline void count_outcome(struct scan_counts *c, bool skip, bool matched,
					  __u64 nr, bool uring, struct audit_context *actx,
					  bool raced)
{
	struct missed_match *rec;
	const char *key;
	__u32 idx;

	if (!matched) {
		if (!skip)
			c->needless++;
		return;
	}
	if (!skip)
		return;
	if (raced) {
		c->raced++;
		return;
	}
	c->missed++;
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
				       struct audit_names *name)
{
	int kind;

	if (name)
		return -1;
	if (exit_list_addr)
		return (__u64)list == exit_list_addr   ? AUDIT_CTX_SYSCALL :
		       (__u64)list == uring_list_addr ? AUDIT_CTX_URING :
							 -1;
	kind = actx->context;
	return kind == AUDIT_CTX_SYSCALL || kind == AUDIT_CTX_URING ? kind : -1;
}

static __always_inline __u64 mirror_seq(void)
{
	__u32 zero = 0;
	struct mask_mirror *m = bpf_map_lookup_elem(&mirror, &zero);

	return m ? m->seq : 0;
}

static __always_inline void start_walk(__u32 tid, __u64 nr, bool uring, __u32 arch, __u64 prio)
{
	struct walk_start w = {
		.prio = prio,
		.seq = mirror_seq(),
		.slot = nr < MASK_BITS ? nr : SLOT_OUT_OF_RANGE,
		.uring = uring,
	};
	struct walk_start *stored;

	if (!count_walk(nr, uring, arch, &w.skip) ||
	    bpf_map_update_elem(&walks_in_flight, &tid, &w, BPF_ANY))
		return;
	/* Last thing before the walk: the bookkeeping stays out of its time. */
	stored = timing ? bpf_map_lookup_elem(&walks_in_flight, &tid) : NULL;
	if (stored)
		stored->t0 = bpf_ktime_get_ns();
}

/*
 * The time from fentry's last clock read to fexit's first holds the walk,
 * the trampoline's way into fexit and one clock read; the clock read's
 * cost, the least gap between two back-to-back reads, is taken off.
 */
static __always_inline void time_walk(struct scan_counts *c, struct walk_start *w, __u64 t1)
{
	__u64 a = bpf_ktime_get_ns(), b = bpf_ktime_get_ns(), ns;

	if (!clock_ns || b - a < clock_ns)
		clock_ns = b - a;
	ns = t1 - w->t0 > clock_ns ? t1 - w->t0 - clock_ns : 0;
	c->walk_ns += ns;
	if (w->skip)
		c->skippable_walk_ns += ns;
}

/* The walk `w` of thread `tid` is over: count what it found. */
static __always_inline void end_walk(__u32 tid, struct walk_start *w, bool matched, __u64 nr,
				     struct audit_context *actx, __u64 t1)
{
	struct scan_counts *c;

	c = bpf_map_lookup_elem(w->uring ? (void *)&uring_counts : (void *)&counts, &w->slot);
	if (c && timing && w->t0)
		time_walk(c, w, t1);
	if (c)
		count_outcome(c, w->skip, matched, nr, w->uring, actx, mirror_seq() != w->seq);
	bpf_map_delete_elem(&walks_in_flight, &tid);
}

/*
 * filter-op: audit_filter_syscall() and audit_filter_uring() already
 * returned for auditd before calling it; its return value says whether a
 * rule matched.
 */
SEC("fentry/__audit_filter_op")
int BPF_PROG(start_filter_op, struct task_struct *tsk, struct audit_context *actx,
	     struct list_head *list, struct audit_names *name, unsigned long op)
{
	int kind = walked_list(actx, list, name);

	if (kind >= 0 && task_counted(tsk->tgid))
		start_walk(tsk->pid, op, kind == AUDIT_CTX_URING, actx->arch, 0);
	return 0;
}

SEC("fexit/__audit_filter_op")
int BPF_PROG(end_filter_op, struct task_struct *tsk, struct audit_context *actx,
	     struct list_head *list, struct audit_names *name, unsigned long op, int ret)
{
	__u64 t1 = timing ? bpf_ktime_get_ns() : 0;
	__u32 tid = tsk->pid;
	struct walk_start *w = bpf_map_lookup_elem(&walks_in_flight, &tid);

	if (w && walked_list(actx, list, name) >= 0)
		end_walk(tid, w, ret != 0, op, actx, t1);
	return 0;
}

/*
 * filter-syscall: the function returns nothing, but audit_filter_rules()
 * raises ctx->prio to the matching rule's priority, and refuses rules at
 * or below the current one, so a match is exactly a rise of ctx->prio.
 */
SEC("fentry/audit_filter_syscall")
int BPF_PROG(start_filter_syscall, struct task_struct *tsk, struct audit_context *actx)
{
	if (task_counted(tsk->tgid))
		start_walk(tsk->pid, (__u64)(long)actx->major, false, actx->arch, actx->prio);
	return 0;
}

SEC("fexit/audit_filter_syscall")
int BPF_PROG(end_filter_syscall, struct task_struct *tsk, struct audit_context *actx)
{
	__u64 t1 = timing ? bpf_ktime_get_ns() : 0;
	__u32 tid = tsk->pid;
	struct walk_start *w = bpf_map_lookup_elem(&walks_in_flight, &tid);

	if (w)
		end_walk(tid, w, actx->prio > w->prio, (__u64)(long)actx->major, actx, t1);
	return 0;
}

/* syscall-exit: the conditions under which __audit_syscall_exit() filters. */
SEC("fentry/__audit_syscall_exit")
int BPF_PROG(count_syscall_exit, int success, long return_code)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct audit_context *actx = task->audit_context;
	bool skip;

	if (!actx || actx->dummy || actx->context != AUDIT_CTX_SYSCALL)
		return 0;
	if (task_counted(task->tgid))
		count_walk((__u64)(long)actx->major, false, actx->arch, &skip);
	return 0;
}

/* The number sys_exit reports as `id` (syscall_get_nr()). */
static __always_inline long syscall_nr(struct pt_regs *regs)
{
#if defined(__TARGET_ARCH_x86)
	return BPF_CORE_READ(regs, orig_ax);
#elif defined(__TARGET_ARCH_arm64)
	return BPF_CORE_READ(regs, syscallno);
#else
#error "syscall_nr() needs this architecture's pt_regs field"
#endif
}

/*
 * The syscall's AUDIT_ARCH at sys_exit. Where audit_reset_context() has
 * already cleared ctx->arch (6.18 does), x86 still knows a compat syscall
 * by TS_COMPAT; elsewhere 0 leaves the what-if arch masks out of it.
 */
static __always_inline __u32 exit_arch(struct task_struct *task, struct audit_context *actx)
{
	__u32 arch = BPF_CORE_READ(actx, arch);

#if defined(__TARGET_ARCH_x86)
	if (!arch)
		arch = BPF_CORE_READ(task, thread_info.status) & TS_COMPAT ? AUDIT_ARCH_I386 :
									    AUDIT_ARCH_X86_64;
#endif
	return arch;
}

static __always_inline bool is_fork(long nr)
{
	for (int i = 0; i < FORK_NRS; i++)
		if (nr == fork_nrs[i])
			return true;
	return false;
}

/*
 * tracepoint: sys_exit fires after audit's exit work, when
 * audit_reset_context() has already cleared `context` and `major`; `dummy`
 * and `state` still say whether __audit_syscall_entry() armed the walk.
 * A new task's first sys_exit (its 0 return from clone) comes with a fresh,
 * non-dummy context that never entered a syscall, so no walk ran.
 * A raw tracepoint needs no tracefs and reads the number from pt_regs.
 */
SEC("raw_tracepoint/sys_exit")
int count_sys_exit(struct bpf_raw_tracepoint_args *args)
{
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();
	struct audit_context *actx;
	bool skip;
	long nr;

	if (!audit_on)
		return 0;
	actx = BPF_CORE_READ(task, audit_context);
	if (!actx || BPF_CORE_READ(actx, dummy) ||
	    BPF_CORE_READ(actx, state) == AUDIT_STATE_DISABLED)
		return 0;
	nr = syscall_nr((struct pt_regs *)args->args[0]);
	if (args->args[1] == 0 && is_fork(nr))
		return 0;
	if (task_counted(bpf_get_current_pid_tgid() >> 32))
		count_walk((__u64)nr, false, exit_arch(task, actx), &skip);
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

SEC("raw_tracepoint/sched_process_exit")
int forget_exit(struct bpf_raw_tracepoint_args *args)
{
	struct task_struct *task = (struct task_struct *)args->args[0];
	__u32 tgid = BPF_CORE_READ(task, tgid);

	/* do_exit() drops signal->live before this tracepoint. */
	if (BPF_CORE_READ(task, signal, live.counter) == 0)
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
 * Runs after every function that changes the lists, so the mirror is current
 * before the change returns to user space. The lists are RCU-protected and
 * trampolines run under rcu_read_lock(), so walking them here is safe. Two
 * rebuilds racing can briefly publish the older result, which the next
 * change or the loader's next listing repairs.
 */
static __noinline int rebuild_mirror(void)
{
	__u32 zero = 0;
	struct mask_mirror *acc = bpf_map_lookup_elem(&rebuild_scratch, &zero);
	struct mask_mirror *m = bpf_map_lookup_elem(&mirror, &zero);
	bool whole;

	if (!acc || !m || !exit_list_addr)
		return 0;
	__builtin_memset(acc, 0, sizeof(*acc));
	whole = rebuild_list(exit_list_addr, false, &acc->exit_rules);
	whole &= rebuild_list(uring_list_addr, true, &acc->uring_rules);
	acc->truncated = !whole;
	acc->source = MIRROR_KERNEL_LIST;
	acc->kernel_n_rules = -1;
	if (n_rules_addr)
		bpf_probe_read_kernel(&acc->kernel_n_rules, sizeof(acc->kernel_n_rules),
				      (void *)n_rules_addr);
	if (corrupt_nr >= 0 && corrupt_nr < MASK_BITS)
		acc->mask[(__u32)corrupt_nr / 32] &= ~(1U << ((__u32)corrupt_nr % 32));
	/* The generation counts changes, not rebuilds (listing rebuilds too). */
	if (same_mirror(m, acc))
		return 0;
	acc->generation = m->generation + 1;
	acc->seq = m->seq + 1;
	bpf_map_update_elem(&mirror, &zero, acc, BPF_ANY);
	return 0;
}

/*
 * Like the patched kernel, set a new rule's bits before it is published:
 * audit_add_rule() (inlined here) links it before our fexit runs, and a
 * syscall on another CPU could match it in between. Class bits (the top
 * AUDIT_SYSCALL_CLASSES) expand to syscall lists only the kernel knows, so
 * they mark everything until the rebuild narrows the mask again.
 */
SEC("fentry/audit_rule_change")
int BPF_PROG(mirror_premark_add, int type, int seq, void *data, size_t datasz)
{
	struct audit_rule_data *d = data;
	__u32 zero = 0, list, rule_mask[MASK_WORDS];
	struct mask_mirror *m;

	if (type != AUDIT_ADD_RULE || datasz < sizeof(*d))
		return 0;
	m = bpf_map_lookup_elem(&mirror, &zero);
	if (!m || bpf_probe_read_kernel(rule_mask, sizeof(rule_mask), d->mask))
		return 0;
	if (rule_mask[MASK_WORDS - 1] >> 16)
		__builtin_memset(rule_mask, 0xff, sizeof(rule_mask));
	list = BPF_CORE_READ(d, flags) & ~AUDIT_FILTER_PREPEND;
	if (list == AUDIT_FILTER_EXIT) {
		for (int k = 0; k < MASK_WORDS; k++)
			__sync_fetch_and_or(&m->mask[k], rule_mask[k]);
	} else if (list == AUDIT_FILTER_URING_EXIT) {
		for (int k = 0; k < MASK_WORDS; k++)
			__sync_fetch_and_or(&m->uring_mask[k], rule_mask[k]);
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
	return rebuild_mirror();
}

/* AUDIT_LIST_RULES: the loader's listing builds the mirror at start-up. */
SEC("fexit/audit_list_rules_send")
int BPF_PROG(mirror_on_list_rules)
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
