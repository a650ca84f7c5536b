// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "counts.h"

/* to += c, counter by counter. */
static void counts_add(struct scan_counts *to, const struct scan_counts *c)
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

/*
 * Slots read per BPF_MAP_LOOKUP_BATCH: every syscall of the loader walks
 * audit's exit list, so one lookup per slot (thousands each read) would cost
 * more than everything else it does once many rules are loaded.
 */
#define READ_BATCH 256

static void add_slot(struct counts_snapshot *s, __u32 k, const struct count_slot *per_cpu, int ncpu)
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

/* Slots [0, slots) by batches; -errno when the kernel cannot (then one by one). */
static int read_batched(int fd, __u32 slots, struct counts_snapshot *s, int ncpu,
			struct count_slot *per_cpu)
{
	__u32 keys[READ_BATCH], in, out, done = 0;
	bool first = true;

	while (done < slots) {
		__u32 n = slots - done < READ_BATCH ? slots - done : READ_BATCH;
		int err =
			bpf_map_lookup_batch(fd, first ? NULL : &in, &out, keys, per_cpu, &n, NULL);

		if (err && errno != ENOENT)
			return -errno;
		for (__u32 i = 0; i < n; i++)
			if (keys[i] < slots)
				add_slot(s, keys[i], per_cpu + (size_t)i * ncpu, ncpu);
		done += n;
		if (err || !n)
			break; /* ENOENT: that was the map's last batch */
		in = out;
		first = false;
	}
	return 0;
}

int counts_read(int fd, __u32 slots, struct counts_snapshot *s)
{
	int ncpu = libbpf_num_possible_cpus();
	struct count_slot *per_cpu;

	if (ncpu < 0)
		return ncpu;
	if (slots > NR_COUNT_SLOTS)
		slots = NR_COUNT_SLOTS;
	per_cpu = calloc((size_t)ncpu * READ_BATCH, sizeof(*per_cpu));
	if (!per_cpu)
		return -ENOMEM;
	memset(s, 0, sizeof(*s));
	if (read_batched(fd, slots, s, ncpu, per_cpu)) {
		memset(s, 0, sizeof(*s));
		for (__u32 k = 0; k < slots; k++)
			if (!bpf_map_lookup_elem(fd, &k, per_cpu))
				add_slot(s, k, per_cpu, ncpu);
	}
	free(per_cpu);
	return 0;
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

int hist_read(int fd, slot_hist *hist)
{
	int ncpu = libbpf_num_possible_cpus();
	struct hist_key key, next, *prev = NULL;
	struct hist_value *per_cpu;

	if (ncpu < 0)
		return ncpu;
	per_cpu = calloc(ncpu, sizeof(*per_cpu));
	if (!per_cpu)
		return -ENOMEM;
	memset(hist, 0, NR_COUNT_SLOTS * sizeof(*hist));
	while (!bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		if (key.slot >= NR_COUNT_SLOTS || key.bucket >= HIST_BUCKETS ||
		    bpf_map_lookup_elem(fd, &key, per_cpu))
			continue;
		for (int c = 0; c < ncpu; c++) {
			hist[key.slot][key.bucket].walks += per_cpu[c].walks;
			hist[key.slot][key.bucket].ns += per_cpu[c].ns;
		}
	}
	free(per_cpu);
	return 0;
}

static int by_skippable(const void *a, const void *b)
{
	const struct comm_row *x = a, *y = b;

	if (x->c.skippable_walks != y->c.skippable_walks)
		return x->c.skippable_walks < y->c.skippable_walks ? 1 : -1;
	return x->c.walks < y->c.walks ? 1 : x->c.walks > y->c.walks ? -1 : 0;
}

/* One name's per-CPU counts added into its row. */
static void add_comm(struct comm_row *row, const char *key, const struct comm_counts *per_cpu,
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

/* Every name by batches of READ_BATCH (see counts_read); -errno when the kernel cannot. */
static int comms_batched(int fd, struct comm_row *out, size_t *count, int ncpu,
			 struct comm_counts *per_cpu)
{
	char keys[READ_BATCH][COMM_LEN];
	__u32 in, next;
	bool first = true;

	*count = 0;
	for (;;) {
		__u32 n = READ_BATCH;
		int err = bpf_map_lookup_batch(fd, first ? NULL : &in, &next, keys, per_cpu, &n,
					       NULL);

		if (err && errno != ENOENT)
			return -errno;
		for (__u32 i = 0; i < n && *count < MAX_COMMS; i++)
			add_comm(&out[(*count)++], keys[i], per_cpu + (size_t)i * ncpu, ncpu);
		if (err || *count >= MAX_COMMS)
			return 0; /* ENOENT: that was the last batch */
		in = next;
		first = false;
	}
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
	per_cpu = calloc((size_t)ncpu * READ_BATCH, sizeof(*per_cpu));
	out = calloc(MAX_COMMS, sizeof(*out));
	if (!per_cpu || !out) {
		free(per_cpu);
		free(out);
		return -ENOMEM;
	}
	if (comms_batched(fd, out, &count, ncpu, per_cpu)) {
		memset(out, 0, MAX_COMMS * sizeof(*out));
		count = 0;
		while (count < MAX_COMMS && !bpf_map_get_next_key(fd, prev, next)) {
			memcpy(key, next, sizeof(key));
			prev = key;
			if (bpf_map_lookup_elem(fd, key, per_cpu))
				continue;
			add_comm(&out[count++], key, per_cpu, ncpu);
		}
	}
	free(per_cpu);
	qsort(out, count, sizeof(*out), by_skippable);
	*rows = out;
	*n = count;
	return 0;
}
