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
	to->needless += c->needless;
	to->missed += c->missed;
	to->raced += c->raced;
	to->skippable_arch += c->skippable_arch;
	to->skippable_perm += c->skippable_perm;
	to->walk_ns += c->walk_ns;
	to->skippable_walk_ns += c->skippable_walk_ns;
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
		o->needless = a->needless - b->needless;
		o->missed = a->missed - b->missed;
		o->raced = a->raced - b->raced;
		o->skippable_arch = a->skippable_arch - b->skippable_arch;
		o->skippable_perm = a->skippable_perm - b->skippable_perm;
		o->walk_ns = a->walk_ns - b->walk_ns;
		o->skippable_walk_ns = a->skippable_walk_ns - b->skippable_walk_ns;
	}
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

	if (x->c.skippable != y->c.skippable)
		return x->c.skippable < y->c.skippable ? 1 : -1;
	return x->c.scans < y->c.scans ? 1 : x->c.scans > y->c.scans ? -1 : 0;
}

int comms_read(int fd, struct comm_row **rows, size_t *n)
{
	int ncpu = libbpf_num_possible_cpus();
	char key[COMM_LEN], next[COMM_LEN];
	struct comm_counts *per_cpu;
	struct comm_row *out = NULL;
	size_t count = 0;
	void *prev = NULL;

	if (ncpu < 0)
		return ncpu;
	per_cpu = calloc(ncpu, sizeof(*per_cpu));
	out = calloc(MAX_COMMS, sizeof(*out));
	if (!per_cpu || !out) {
		free(per_cpu);
		free(out);
		return -ENOMEM;
	}
	while (count < MAX_COMMS && !bpf_map_get_next_key(fd, prev, next)) {
		memcpy(key, next, sizeof(key));
		prev = key;
		if (bpf_map_lookup_elem(fd, key, per_cpu))
			continue;
		memcpy(out[count].comm, key, COMM_LEN);
		out[count].comm[COMM_LEN - 1] = '\0';
		for (int c = 0; c < ncpu; c++) {
			out[count].c.scans += per_cpu[c].scans;
			out[count].c.skippable += per_cpu[c].skippable;
			out[count].c.walked_skipped += per_cpu[c].walked_skipped;
		}
		count++;
	}
	free(per_cpu);
	qsort(out, count, sizeof(*out), by_skippable);
	*rows = out;
	*n = count;
	return 0;
}
