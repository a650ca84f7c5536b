// SPDX-License-Identifier: GPL-2.0
/* Matches by rule: see rule_matches_read.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "auditskip.h"
#include "live/rule_matches_read.h"

/*
 * The exit list's priorities in its order, and the index in rs of each
 * entry. The list runs in strictly falling priority (rule_match_key's
 * comment); a rebuild racing another, or rules changed since the listing,
 * break that or the count, and then nothing is placed.
 */
static bool place_list(int prios_fd, __u32 n, const struct ruleset *rs, __u64 *prio, size_t *rule)
{
	size_t k = 0;

	for (__u32 i = 0; i < n; i++)
		if (bpf_map_lookup_elem(prios_fd, &i, &prio[i]) || (i && prio[i] >= prio[i - 1]))
			return false;
	for (size_t i = 0; i < rs->n; i++)
		if (rule_on_exit_list(&rs->rules[i])) {
			if (k == n)
				return false;
			rule[k++] = i;
		}
	return k == n;
}

/* The entry of priority p in the falling list, or -1. */
static long entry_of(const __u64 *prio, __u32 n, __u64 p)
{
	long lo = 0, hi = (long)n - 1;

	while (lo <= hi) {
		long mid = (lo + hi) / 2;

		if (prio[mid] == p)
			return mid;
		if (prio[mid] > p)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

static int by_slot_then_rule(const void *a, const void *b)
{
	const struct rule_match_count *x = a, *y = b;

	if (x->slot != y->slot)
		return x->slot < y->slot ? -1 : 1;
	return x->rule < y->rule ? -1 : x->rule > y->rule;
}

int rule_matches_read(int matches_fd, int prios_fd, __u32 exit_rules, const struct ruleset *rs,
		      struct rule_match_reading *out)
{
	int ncpu = libbpf_num_possible_cpus(), err = 0;
	struct rule_match_key key, next, *prev = NULL;
	__u64 *prio = calloc(exit_rules ? exit_rules : 1, sizeof(*prio)), *per_cpu = NULL;
	size_t *rule = calloc(exit_rules ? exit_rules : 1, sizeof(*rule)), cap = 0;

	memset(out, 0, sizeof(*out));
	if (ncpu > 0)
		per_cpu = calloc(ncpu, sizeof(*per_cpu));
	if (!prio || !rule || !per_cpu) {
		err = ncpu < 0 ? ncpu : -ENOMEM;
		goto out;
	}
	out->placed = place_list(prios_fd, exit_rules, rs, prio, rule);
	while (!bpf_map_get_next_key(matches_fd, prev, &next)) {
		__u64 walks = 0;
		long at;

		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(matches_fd, &key, per_cpu))
			continue;
		for (int c = 0; c < ncpu; c++)
			walks += per_cpu[c];
		at = out->placed ? entry_of(prio, exit_rules, key.prio) : -1;
		if (at < 0 || key.slot >= NR_COUNT_SLOTS) {
			out->unplaced += walks;
			continue;
		}
		if (out->n == cap) {
			size_t more = cap ? 2 * cap : 64;
			void *m = realloc(out->matches, more * sizeof(*out->matches));

			if (!m) {
				err = -ENOMEM;
				goto out;
			}
			out->matches = m;
			cap = more;
		}
		out->matches[out->n++] = (struct rule_match_count){ .slot = key.slot,
								    .rule = rule[at],
								    .walks = walks };
	}
	qsort(out->matches, out->n, sizeof(*out->matches), by_slot_then_rule);
out:
	if (err)
		rule_match_reading_free(out);
	free(prio);
	free(rule);
	free(per_cpu);
	return err;
}

void rule_match_reading_free(struct rule_match_reading *r)
{
	free(r->matches);
	memset(r, 0, sizeof(*r));
}
