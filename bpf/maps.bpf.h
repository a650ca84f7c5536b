/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Map idioms the BPF objects share. A counter keyed by what is seen at run
 * time (a process name, a time bucket, a rule, a syscall) has no entry in
 * its hash map until one is inserted; it is found or made here, once
 * (libbpf-tools' maps.bpf.h does the same for its tools). Needs only
 * vmlinux.h and bpf_helpers.h before it.
 */
#ifndef __MAPS_BPF_H
#define __MAPS_BPF_H

/*
 * The value at key, inserted from *init if absent; NULL, and one more in
 * *lost where the caller counts them, if the map has no room for it.
 * Another CPU that inserts the same key first fails this insert with
 * -EEXIST, and the second lookup finds its entry: whatever the insert
 * returned, the second lookup decides.
 */
static __always_inline void *map_lookup_or_insert(void *map, const void *key, const void *init,
						  volatile __u64 *lost)
{
	void *val = bpf_map_lookup_elem(map, key);

	if (val)
		return val;
	bpf_map_update_elem(map, key, init, BPF_NOEXIST);
	val = bpf_map_lookup_elem(map, key);
	if (!val && lost)
		__sync_fetch_and_add(lost, 1);
	return val;
}

#endif /* __MAPS_BPF_H */
