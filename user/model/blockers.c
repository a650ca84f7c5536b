// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <libaudit.h>
#include "model/blockers.h"
#include "audit/syscalls.h"
#include "model/whatif_masks.h"

/* A syscall numbered nr exists on the arches the mask is for. */
static bool syscall_exists(unsigned int nr, enum blocker_mask kind, int arch)
{
	for (int a = 0; a < NR_ARCHES; a++) {
		int machine = arch_machine(a);

		if (kind == BLOCKERS_ARCH && a != arch)
			continue;
		if (syscall_table_name(nr, machine))
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

/* The rules naming each candidate syscall, `least` indices a row, compared whole. */
static const size_t *sort_rows;
static size_t sort_len;

static int by_rules(const void *pa, const void *pb)
{
	const size_t *a = sort_rows + *(const unsigned int *)pa * sort_len;
	const size_t *b = sort_rows + *(const unsigned int *)pb * sort_len;

	for (size_t i = 0; i < sort_len; i++)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return *(const unsigned int *)pa < *(const unsigned int *)pb ? -1 : 1;
}

/*
 * How many rules name each syscall of the arches the mask is for (exists[]
 * says which those are), with b's count of such syscalls and of those no
 * rule names; returns the fewest rules naming one.
 */
static unsigned int count_rules(const syscall_mask *masks, size_t nrules, enum blocker_mask kind,
				int arch, bool *exists, unsigned int *count,
				struct skip_blockers *b)
{
	unsigned int least = ~0U;

	for (unsigned int nr = 0; nr < MASK_SYSCALL_BITS; nr++) {
		exists[nr] = syscall_exists(nr, kind, arch);
		count[nr] = 0;
		if (!exists[nr])
			continue;
		for (size_t i = 0; i < nrules; i++)
			count[nr] += mask_test(masks[i], nr);
		b->syscalls++;
		b->skippable += count[nr] == 0;
		if (count[nr] < least)
			least = count[nr];
	}
	return least;
}

/* The rules naming each candidate syscall, `least` indices a row; NULL without memory. */
static size_t *candidate_rows(const syscall_mask *masks, size_t nrules, const unsigned int *cand,
			      unsigned int ncand, unsigned int least)
{
	size_t *rows = calloc((size_t)ncand * least, sizeof(*rows));

	if (!rows)
		return NULL;
	for (unsigned int c = 0; c < ncand; c++) {
		size_t k = 0;

		for (size_t i = 0; i < nrules; i++)
			if (mask_test(masks[i], cand[c]))
				rows[(size_t)c * least + k++] = i;
	}
	return rows;
}

/*
 * The candidates grouped by their rows: the largest group's size in
 * *best_len and its lowest syscall's candidate in *best, the lowest
 * syscall's group on a tie. 0 or -ENOMEM.
 */
static int largest_group(const size_t *rows, unsigned int least, const unsigned int *cand,
			 unsigned int ncand, unsigned int *best, unsigned int *best_len)
{
	unsigned int *order = calloc(ncand, sizeof(*order));

	if (!order)
		return -ENOMEM;
	for (unsigned int c = 0; c < ncand; c++)
		order[c] = c;
	sort_rows = rows;
	sort_len = least;
	qsort(order, ncand, sizeof(*order), by_rules);
	for (unsigned int start = 0; start < ncand;) {
		unsigned int end = start + 1;

		while (end < ncand &&
		       !memcmp(rows + (size_t)order[start] * least,
			       rows + (size_t)order[end] * least, least * sizeof(*rows)))
			end++;
		/* Within a group the lowest syscall sorts first. */
		if (end - start > *best_len ||
		    (end - start == *best_len && cand[order[start]] < cand[*best])) {
			*best_len = end - start;
			*best = order[start];
		}
		start = end;
	}
	free(order);
	return 0;
}

int blockers_find(const struct ruleset *rs, enum blocker_mask kind, int arch,
		  struct skip_blockers *b)
{
	static unsigned int count[MASK_SYSCALL_BITS], cand[MASK_SYSCALL_BITS];
	static bool exists[MASK_SYSCALL_BITS];
	syscall_mask *masks = calloc(rs->n ? rs->n : 1, sizeof(*masks));
	unsigned int least, ncand = 0, best = 0, best_len = 0;
	size_t *rows = NULL;
	int err = 0;

	memset(b, 0, sizeof(*b));
	b->kind = kind;
	b->arch = arch;
	if (!masks)
		return -ENOMEM;
	for (size_t i = 0; i < rs->n; i++)
		rule_mask(&rs->rules[i], kind, arch, masks[i]);
	least = count_rules(masks, rs->n, kind, arch, exists, count, b);
	if (b->skippable || !b->syscalls)
		goto whole;

	/*
	 * A set of `least` rules frees exactly the syscalls named by those
	 * rules alone: group the syscalls with the fewest rules by their rules,
	 * and keep the largest group (the lowest syscall first on a tie).
	 */
	for (unsigned int nr = 0; nr < MASK_SYSCALL_BITS; nr++)
		if (exists[nr] && count[nr] == least)
			cand[ncand++] = nr;
	rows = candidate_rows(masks, rs->n, cand, ncand, least);
	b->rules = calloc(least, sizeof(*b->rules));
	if (!rows || !b->rules) {
		err = -ENOMEM;
		goto whole;
	}
	err = largest_group(rows, least, cand, ncand, &best, &best_len);
	if (err)
		goto whole;
	b->freed = best_len;
	b->example_nr = cand[best];
	memcpy(b->rules, rows + (size_t)best * least, least * sizeof(*rows));
	b->n = least;
	for (size_t i = 0, k = 0; i < rs->n; i++) {
		if (k < b->n && b->rules[k] == i)
			k++;
		else
			mask_or(b->without, masks[i]);
	}
	goto out;
whole:
	free(b->rules);
	b->rules = NULL;
	b->n = 0;
	for (size_t i = 0; i < rs->n; i++)
		mask_or(b->without, masks[i]);
out:
	free(rows);
	free(masks);
	return err;
}

void blockers_free(struct skip_blockers *b)
{
	free(b->rules);
	b->rules = NULL;
	b->n = 0;
}
