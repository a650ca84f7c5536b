// SPDX-License-Identifier: GPL-2.0
/*
 * What a walk's evaluations cost: which visited rules run their fields, at
 * which field the price is taken, and where a walk ends for sure.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include "unit_main.h"
#include <libaudit.h>
#include "audit/rules_file.h"
#include "model/eval_price.h"

static struct calibration priced(void)
{
	struct calibration c = { .ns_per_entry = 2.0 };
	static const double ns[NR_EVAL_KINDS] = {
		[EVAL_ARCH] = 10, [EVAL_UID] = 5,  [EVAL_AUID] = 6,	  [EVAL_PERM] = 20,
		[EVAL_DIR] = 50,  [EVAL_EXE] = 70, [EVAL_ARCH_PASS] = 12, [EVAL_MATCH] = 30,
	};

	for (int k = 0; k < NR_EVAL_KINDS; k++) {
		c.ns_eval[k] = ns[k];
		c.eval_measured[k] = ns[k] > 0;
	}
	return c;
}

static void read_set(const char *text, struct ruleset *rs)
{
	struct rules_file_error e = { 0 };

	assert_int_equal(rules_text_read(text, strlen(text), "test", rs, &e), 0);
}

static int nr(const char *name, int machine)
{
	int n = audit_name_to_syscall(name, machine);

	assert_true(n >= 0);
	return n;
}

static void test_rules_priced_by_field(void **state)
{
	struct calibration c = priced();
	__u32 b64 = AUDIT_ARCH_X86_64, b32 = AUDIT_ARCH_I386;
	unsigned int chmod64 = nr("chmod", MACH_86_64);
	struct ruleset rs;
	bool ends;

	(void)state;
	read_set(
		"-a always,exit -F arch=b64 -S chmod -F auid>=1000 -F auid!=unset -k perm_mod\n"
		"-a always,exit -S all -F dir=/etc -F perm=wa -k etc\n"
		"-a always,exit -F arch=b64 -S chmod -F exe=/usr/bin/x -k x\n",
		&rs);
	/* Not its bit: a visit, nothing evaluated. */
	assert_true(eval_price_ns(&c, &rs.rules[0], b64, nr("getpid", MACH_86_64), &ends) == 0);
	assert_false(ends);
	/* Its arch passes (12 - 5), the auid field decides. */
	assert_true(eval_price_ns(&c, &rs.rules[0], b64, chmod64, &ends) == 7 + 6);
	assert_false(ends);
	/* A 32-bit call with the same number: the arch field fails. */
	assert_true(eval_price_ns(&c, &rs.rules[0], b32, chmod64, &ends) == 10);
	/* Every bit, the dir field first. */
	assert_true(eval_price_ns(&c, &rs.rules[1], b32, 20, &ends) == 50);
	assert_true(eval_price_ns(&c, &rs.rules[2], b64, chmod64, &ends) == 7 + 70);
	/* A walk of all three: nothing ends it. */
	{
		size_t visited;

		assert_true(eval_walk_ns(&c, &rs, b64, chmod64, &visited) == 13 + 50 + 77);
		assert_int_equal(visited, 3);
	}
	ruleset_free(&rs);
}

static void test_walk_ends_at_a_rule_that_passes(void **state)
{
	struct calibration c = priced();
	unsigned int getpid = nr("getpid", MACH_86_64);
	struct ruleset rs;
	size_t visited;
	bool ends;

	(void)state;
	read_set(
		"-a never,exit -F arch=b64 -S getpid\n"
		"-a always,exit -S all -F dir=/etc -F perm=wa -k etc\n",
		&rs);
	assert_true(eval_price_ns(&c, &rs.rules[0], AUDIT_ARCH_X86_64, getpid, &ends) == 7 + 30);
	assert_true(ends);
	assert_true(eval_walk_ns(&c, &rs, AUDIT_ARCH_X86_64, getpid, &visited) == 37);
	assert_int_equal(visited, 1);
	/* A 32-bit call of that number fails the arch and walks on. */
	assert_true(eval_walk_ns(&c, &rs, AUDIT_ARCH_I386, getpid, &visited) == 10 + 50);
	assert_int_equal(visited, 2);
	ruleset_free(&rs);
}

static void test_unpriced_calibration(void **state)
{
	struct calibration c = { .ns_per_entry = 2.0 };
	struct ruleset rs;
	size_t visited;

	(void)state;
	read_set("-a always,exit -S all -F dir=/etc -F perm=wa -k etc\n", &rs);
	assert_true(eval_walk_ns(&c, &rs, AUDIT_ARCH_X86_64, 39, &visited) == 0);
	assert_int_equal(visited, 1);
	ruleset_free(&rs);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rules_priced_by_field),
		cmocka_unit_test(test_walk_ends_at_a_rule_that_passes),
		cmocka_unit_test(test_unpriced_calibration),
	};

	return unit_main(argc, argv, "eval price", tests, NULL, NULL);
}
