// SPDX-License-Identifier: GPL-2.0
/*
 * The fewest rules that keep the skip from firing, against an exhaustive
 * search over every subset of small random rule sets.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "unit_main.h"
#include <libaudit.h>
#include "model/blockers.h"
#include "audit/syscalls.h"

#define MAX_RULES 10
/* Rules differ only in these syscalls; every rule names all the others. */
#define VARIED 12

static struct audit_rule rules[MAX_RULES];

static void make_rule(struct audit_rule *r, unsigned int varied_bits)
{
	memset(r, 0, sizeof(*r));
	r->list = AUDIT_FILTER_EXIT;
	r->action = AUDIT_ALWAYS;
	for (unsigned int nr = 0; nr < MASK_SYSCALL_BITS; nr++)
		if (nr >= VARIED || (varied_bits & (1U << nr)))
			mask_set(r->mask, nr);
}

static bool exists(unsigned int nr)
{
	for (int a = 0; a < NR_ARCHES; a++)
		if (arch_machine(a) >= 0 && audit_syscall_to_name(nr, arch_machine(a)))
			return true;
	return false;
}

/* Syscalls that removing the rules in `set` (a bit per rule) lets skip. */
static unsigned int freed(unsigned int set, size_t n)
{
	unsigned int f = 0;

	for (unsigned int nr = 0; nr < MASK_SYSCALL_BITS; nr++) {
		bool named = false;

		if (!exists(nr))
			continue;
		for (size_t i = 0; i < n; i++)
			named |= !(set & (1U << i)) && mask_test(rules[i].mask, nr);
		f += !named;
	}
	return f;
}

static void test_against_search(void **state)
{
	(void)state;
	srand(12345);
	for (int round = 0; round < 200; round++) {
		size_t n = 1 + rand() % MAX_RULES;
		struct ruleset rs = { .rules = rules, .n = n };
		unsigned int best_size = ~0U, best_freed = 0, found = 0;
		struct skip_blockers b;

		for (size_t i = 0; i < n; i++)
			make_rule(&rules[i], rand() & ((1U << VARIED) - 1));
		/* Every subset, smallest first. */
		for (unsigned int set = 0; set < (1U << n); set++) {
			unsigned int size = __builtin_popcount(set), f = freed(set, n);

			if (!f)
				continue;
			if (size < best_size || (size == best_size && f > best_freed)) {
				best_size = size;
				best_freed = f;
			}
		}
		assert_int_equal(blockers_find(&rs, BLOCKERS_PATCH, ARCH_NATIVE, &b), 0);
		if (best_size == 0) {
			assert_int_equal(b.n, 0);
			assert_true(b.skippable > 0);
		} else {
			assert_int_equal(b.skippable, 0);
			assert_int_equal(b.n, best_size);
			assert_int_equal(b.freed, best_freed);
			for (size_t i = 0; i < b.n; i++)
				found |= 1U << b.rules[i];
			assert_int_equal(freed(found, n), best_freed);
		}
		blockers_free(&b);
	}
}

/* Full-mask rules alike: both, whatever the rest. */
static void test_two_full_masks(void **state)
{
	struct ruleset rs = { .rules = rules, .n = 3 };
	struct skip_blockers b;

	(void)state;
	make_rule(&rules[0], (1U << VARIED) - 1);
	make_rule(&rules[1], (1U << VARIED) - 1);
	make_rule(&rules[2], 1);
	assert_int_equal(blockers_find(&rs, BLOCKERS_PATCH, ARCH_NATIVE, &b), 0);
	assert_int_equal(b.n, 2);
	assert_int_equal(b.rules[0], 0);
	assert_int_equal(b.rules[1], 1);
	assert_int_equal(b.example_nr, 1);
	assert_int_equal(mask_count(b.without), MASK_SYSCALL_BITS - (VARIED - 1));
	blockers_free(&b);
}

/* An arch= rule adds nothing to the other arch's mask. */
static void test_per_arch(void **state)
{
	struct ruleset rs = { .rules = rules, .n = 2 };
	struct skip_blockers b;

	(void)state;
	if (arch_machine(ARCH_COMPAT) < 0)
		skip();
	make_rule(&rules[0], (1U << VARIED) - 1);
	make_rule(&rules[1], (1U << VARIED) - 1);
	rules[0].arch_elf = audit_machine_to_elf(arch_machine(ARCH_NATIVE));
	rules[1].arch_elf = audit_machine_to_elf(arch_machine(ARCH_COMPAT));
	assert_int_equal(blockers_find(&rs, BLOCKERS_PATCH, ARCH_NATIVE, &b), 0);
	assert_int_equal(b.n, 2);
	blockers_free(&b);
	for (int a = 0; a < NR_ARCHES; a++) {
		assert_int_equal(blockers_find(&rs, BLOCKERS_ARCH, a, &b), 0);
		assert_int_equal(b.n, 1);
		assert_int_equal(b.rules[0], (size_t)a);
		blockers_free(&b);
	}
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_against_search),
		cmocka_unit_test(test_two_full_masks),
		cmocka_unit_test(test_per_arch),
	};

	return unit_main(argc, argv, "tests", tests, NULL, NULL);
}
