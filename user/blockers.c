// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <libaudit.h>
#include "blockers.h"
#include "syscalls.h"
#include "whatif.h"

/* A syscall numbered nr exists on the arches the mask is for. */
static bool syscall_exists(unsigned int nr, enum blocker_mask kind, int arch)
{
	for (int a = 0; a < NR_ARCHES; a++) {
		int machine = arch_machine(a);

		if (kind == BLOCKERS_ARCH && a != arch)
			continue;
		if (machine >= 0 && audit_syscall_to_name(nr, machine))
			return true;
	}
	return false;
}

/* The mask a rule adds to the aggregate of this kind (empty: it adds none). */
static void rule_mask(const struct audit_rule *r, enum blocker_mask kind, int arch,
		      syscall_mask out)
{
	int machine = arch_machine(arch);
	__u32 elf = machine >= 0 ? audit_machine_to_elf(machine) : 0;

	memset(out, 0, sizeof(syscall_mask));
	if (!rule_on_exit_list(r))
		return;
	if (kind == BLOCKERS_PERM)
		rule_perm_mask(r, NULL, out);
	else if (kind == BLOCKERS_PATCH || !r->arch_elf || r->arch_elf == elf)
		memcpy(out, r->mask, sizeof(syscall_mask));
}

/* Syscalls with every rule that sets their bit in `in`: those removing `in` frees. */
static unsigned int freed_by(const bool *in, size_t n, const syscall_mask *masks,
			     const unsigned int *count, const bool *exists, bool *freed)
{
	unsigned int total = 0;

	for (unsigned int nr = 0; nr < MASK_SYSCALL_BITS; nr++) {
		unsigned int covered = 0;

		if (!exists[nr])
			continue;
		for (size_t i = 0; i < n; i++)
			covered += in[i] && mask_test(masks[i], nr);
		freed[nr] = covered == count[nr];
		total += freed[nr];
	}
	return total;
}

int blockers_find(const struct ruleset *rs, enum blocker_mask kind, int arch,
		  struct skip_blockers *b)
{
	static bool exists[MASK_SYSCALL_BITS], freed[MASK_SYSCALL_BITS], done[MASK_SYSCALL_BITS];
	static unsigned int count[MASK_SYSCALL_BITS];
	syscall_mask *masks = calloc(rs->n ? rs->n : 1, sizeof(*masks));
	bool *in = calloc(rs->n ? rs->n : 1, sizeof(*in)), *best = calloc(rs->n ? rs->n : 1, 1);
	unsigned int least = ~0U, best_freed = 0;
	int err = 0;

	memset(b, 0, sizeof(*b));
	b->kind = kind;
	b->arch = arch;
	if (!masks || !in || !best) {
		err = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < rs->n; i++)
		rule_mask(&rs->rules[i], kind, arch, masks[i]);
	for (unsigned int nr = 0; nr < MASK_SYSCALL_BITS; nr++) {
		exists[nr] = syscall_exists(nr, kind, arch);
		count[nr] = 0;
		done[nr] = false;
		if (!exists[nr])
			continue;
		for (size_t i = 0; i < rs->n; i++)
			count[nr] += mask_test(masks[i], nr);
		b->syscalls++;
		b->skippable += count[nr] == 0;
		if (count[nr] < least)
			least = count[nr];
	}
	if (b->skippable || !b->syscalls)
		goto out;

	/*
	 * Every syscall with the fewest rules gives a smallest set; of those,
	 * keep the one that frees the most syscalls. A syscall freed by a set
	 * already tried has that very set (same size, contained): skip it.
	 */
	for (unsigned int nr = 0; nr < MASK_SYSCALL_BITS; nr++) {
		unsigned int f;

		if (!exists[nr] || count[nr] != least || done[nr])
			continue;
		for (size_t i = 0; i < rs->n; i++)
			in[i] = mask_test(masks[i], nr);
		f = freed_by(in, rs->n, masks, count, exists, freed);
		for (unsigned int v = 0; v < MASK_SYSCALL_BITS; v++)
			done[v] |= freed[v] && count[v] == least;
		if (f > best_freed) {
			best_freed = f;
			b->example_nr = nr;
			memcpy(best, in, rs->n * sizeof(*in));
		}
	}
	b->freed = best_freed;
	b->rules = calloc(least ? least : 1, sizeof(*b->rules));
	if (!b->rules) {
		err = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < rs->n; i++) {
		if (best[i])
			b->rules[b->n++] = i;
		else
			mask_or(b->without, masks[i]);
	}
out:
	if (!b->rules) {
		for (size_t i = 0; masks && i < rs->n; i++)
			mask_or(b->without, masks[i]);
	}
	free(masks);
	free(in);
	free(best);
	return err;
}

void blockers_free(struct skip_blockers *b)
{
	free(b->rules);
	b->rules = NULL;
	b->n = 0;
}
