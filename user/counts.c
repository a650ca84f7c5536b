// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "counts.h"

static void add_counts(struct scan_counts *to, const struct scan_counts *c)
{
	to->scans += c->scans;
	to->skippable += c->skippable;
	to->walked_skipped += c->walked_skipped;
	to->matched += c->matched;
	to->needless += c->needless;
	to->missed += c->missed;
	to->raced += c->raced;
	to->skippable_arch += c->skippable_arch;
	to->skippable_perm += c->skippable_perm;
}

int counts_read(int fd, struct counts_snapshot *s)
{
	int ncpu = libbpf_num_possible_cpus();
	struct scan_counts *per_cpu;

	if (ncpu < 0)
		return ncpu;
	per_cpu = calloc(ncpu, sizeof(*per_cpu));
	if (!per_cpu)
		return -ENOMEM;
	memset(s, 0, sizeof(*s));
	for (__u32 k = 0; k < NR_SLOTS; k++) {
		if (bpf_map_lookup_elem(fd, &k, per_cpu))
			continue;
		for (int c = 0; c < ncpu; c++)
			add_counts(&s->slot[k], &per_cpu[c]);
		add_counts(&s->total, &s->slot[k]);
	}
	free(per_cpu);
	return 0;
}

static void counts_subtract(struct counts_snapshot *d, const struct counts_snapshot *now,
			    const struct counts_snapshot *then)
{
	for (int k = 0; k <= NR_SLOTS; k++) {
		const struct scan_counts *a = k < NR_SLOTS ? &now->slot[k] : &now->total;
		const struct scan_counts *b = k < NR_SLOTS ? &then->slot[k] : &then->total;
		struct scan_counts *o = k < NR_SLOTS ? &d->slot[k] : &d->total;

		o->scans = a->scans - b->scans;
		o->skippable = a->skippable - b->skippable;
		o->walked_skipped = a->walked_skipped - b->walked_skipped;
		o->matched = a->matched - b->matched;
		o->needless = a->needless - b->needless;
		o->missed = a->missed - b->missed;
		o->raced = a->raced - b->raced;
		o->skippable_arch = a->skippable_arch - b->skippable_arch;
		o->skippable_perm = a->skippable_perm - b->skippable_perm;
	}
}

void walks_subtract(struct walk_counts *d, const struct walk_counts *now,
		     const struct walk_counts *then)
{
	counts_subtract(&d->exit, &now->exit, &then->exit);
	counts_subtract(&d->uring, &now->uring, &then->uring);
}
