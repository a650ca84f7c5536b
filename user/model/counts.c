// SPDX-License-Identifier: GPL-2.0
/* The counters' arithmetic: sums over CPUs, differences between reads. */
#include <stdlib.h>
#include <string.h>
#include "model/counts.h"

/* to += c, counter by counter. */
void counts_add(struct scan_counts *to, const struct scan_counts *c)
{
#define ADD(name, ...) to->name += c->name;
	SCAN_COUNTERS(ADD)
#undef ADD
}

static void counts_sub(struct scan_counts *d, const struct scan_counts *a,
		       const struct scan_counts *b)
{
#define SUB(name, ...) d->name = a->name - b->name;
	SCAN_COUNTERS(SUB)
#undef SUB
}

const struct counter_info counters[NR_COUNTERS] = {
#define INFO(name, kind, metric, label, help) { #name, kind, metric, label, help },
	SCAN_COUNTERS(INFO)
#undef INFO
};

/* struct scan_counts is SCAN_COUNTERS' fields in order, all __u64. */
__u64 counter_value(const struct scan_counts *c, enum counter_id id)
{
	const __u64 *v = (const __u64 *)c;

	_Static_assert(sizeof(*c) == NR_COUNTERS * sizeof(__u64), "scan_counts is all counters");
	return id < NR_COUNTERS ? v[id] : 0;
}

void counts_add_slot(struct counts_snapshot *s, __u32 k, const struct count_slot *per_cpu, int ncpu)
{
	struct scan_counts sum = { 0 };

	for (int c = 0; c < ncpu; c++)
		counts_add(&sum, &per_cpu[c].counts);
	/*
	 * A skippable walk is counted once in BPF, as skippable: it is a walk,
	 * and what the patch's mask skips the sharper masks skip too (BPF
	 * counts only the walks beyond it there). Three increments fewer on
	 * the walks that matter most.
	 */
	sum.walks += sum.skippable_walks;
	sum.skippable_arch_mask += sum.skippable_walks;
	sum.skippable_perm_mask += sum.skippable_walks;
	counts_add(&s->slot[k], &sum);
	counts_add(&s->total, &sum);
}
static void counts_subtract(struct counts_snapshot *d, const struct counts_snapshot *now,
			    const struct counts_snapshot *then)
{
	for (int k = 0; k < NR_COUNT_SLOTS; k++)
		counts_sub(&d->slot[k], &now->slot[k], &then->slot[k]);
	counts_sub(&d->total, &now->total, &then->total);
}

void walks_subtract(struct walk_counts *d, const struct walk_counts *now,
		    const struct walk_counts *then)
{
	counts_subtract(&d->exit, &now->exit, &then->exit);
	counts_subtract(&d->uring, &now->uring, &then->uring);
}
static int by_skippable(const void *a, const void *b)
{
	const struct comm_row *x = a, *y = b;

	if (x->c.skippable_walks != y->c.skippable_walks)
		return x->c.skippable_walks < y->c.skippable_walks ? 1 : -1;
	return x->c.walks < y->c.walks ? 1 : x->c.walks > y->c.walks ? -1 : 0;
}

/* One name's per-CPU counts added into its row. */
void comm_row_add(struct comm_row *row, const char *key, const struct comm_counts *per_cpu,
		  int ncpu)
{
	memcpy(row->comm, key, COMM_LEN);
	row->comm[COMM_LEN - 1] = '\0';
	for (int c = 0; c < ncpu; c++) {
		row->c.walks += per_cpu[c].walks;
		row->c.skippable_walks += per_cpu[c].skippable_walks;
		row->c.needless_rule_visits += per_cpu[c].needless_rule_visits;
	}
}

void comms_sort(struct comm_row *rows, size_t n)
{
	qsort(rows, n, sizeof(*rows), by_skippable);
}
