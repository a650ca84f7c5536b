// SPDX-License-Identifier: GPL-2.0
/* The per-CPU BPF maps read into the model's counts. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "live/counts_read.h"

/*
 * Slots read per BPF_MAP_LOOKUP_BATCH: every syscall of the loader walks
 * audit's exit list, so one lookup per slot (thousands each read) would cost
 * more than everything else it does once many rules are loaded.
 */
#define READ_BATCH 256
/*
 * Slot k's per-CPU values into the sums, and each CPU's walks and skippable
 * walks into cpus (NULL: not wanted), as counts_add_slot() counts them: a
 * skippable walk once, as skippable.
 */
static void add_slot(struct counts_snapshot *s, __u32 k, const struct count_slot *per_cpu, int ncpu,
		     struct duty_cpu_edge *cpus)
{
	counts_add_slot(s, k, per_cpu, ncpu);
	for (int c = 0; cpus && c < ncpu; c++) {
		const struct scan_counts *v = &per_cpu[c].counts;

		cpus[c].counts[DUTY_WALKS] += v->walks + v->skippable_walks;
		cpus[c].counts[DUTY_SKIPPABLE] += v->skippable_walks;
	}
}

/* Slots [0, slots) by batches; -errno when the kernel cannot (then one by one). */
static int read_batched(int fd, __u32 slots, struct counts_snapshot *s, int ncpu,
			struct count_slot *per_cpu, struct duty_cpu_edge *cpus)
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
				add_slot(s, keys[i], per_cpu + (size_t)i * ncpu, ncpu, cpus);
		done += n;
		if (err || !n)
			break; /* ENOENT: that was the map's last batch */
		in = out;
		first = false;
	}
	return 0;
}

/* Both sums start from 0, also when the batched read gave up half way. */
static void clear(struct counts_snapshot *s, struct duty_cpu_edge *cpus, int ncpu)
{
	memset(s, 0, sizeof(*s));
	for (int c = 0; cpus && c < ncpu; c++)
		memset(cpus[c].counts, 0, sizeof(cpus[c].counts));
}

int counts_read_cpus(int fd, __u32 slots, struct counts_snapshot *s, struct duty_cpu_edge *cpus)
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
	clear(s, cpus, ncpu);
	if (read_batched(fd, slots, s, ncpu, per_cpu, cpus)) {
		clear(s, cpus, ncpu);
		for (__u32 k = 0; k < slots; k++)
			if (!bpf_map_lookup_elem(fd, &k, per_cpu))
				add_slot(s, k, per_cpu, ncpu, cpus);
	}
	free(per_cpu);
	return 0;
}

int counts_read(int fd, __u32 slots, struct counts_snapshot *s)
{
	return counts_read_cpus(fd, slots, s, NULL);
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
			comm_row_add(&out[(*count)++], keys[i], per_cpu + (size_t)i * ncpu, ncpu);
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
			comm_row_add(&out[count++], key, per_cpu, ncpu);
		}
	}
	free(per_cpu);
	comms_sort(out, count);
	*rows = out;
	*n = count;
	return 0;
}
