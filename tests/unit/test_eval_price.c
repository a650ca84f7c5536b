// SPDX-License-Identifier: GPL-2.0
/*
 * What a walk's evaluations cost: which visited rules run their fields, at
 * which field the price is taken, and where a walk ends for sure; and the
 * per-rule costs built on them.
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
#include "model/designs.h"
#include "model/eval_price.h"
#include "model/rule_cost.h"

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

/* A label field asks the LSM: its own price where measured, a uid field's where not. */
static void test_label_fields(void **state)
{
	struct calibration c = priced();
	unsigned int getpid = nr("getpid", MACH_86_64);
	struct ruleset rs;
	bool ends;

	(void)state;
	read_set("-a always,exit -S getpid -F subj_type=sshd_t -k label\n", &rs);
	assert_int_equal(eval_kind_of_field(rs.rules[0].fields[0].type), EVAL_LSM);
	assert_true(eval_price_ns(&c, &rs.rules[0], AUDIT_ARCH_X86_64, getpid, &ends) == 5);
	c.ns_eval[EVAL_LSM] = 40;
	c.eval_measured[EVAL_LSM] = true;
	assert_true(eval_price_ns(&c, &rs.rules[0], AUDIT_ARCH_X86_64, getpid, &ends) == 40);
	ruleset_free(&rs);
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
	/* The match's price holds its one passing field. */
	assert_true(eval_price_ns(&c, &rs.rules[0], AUDIT_ARCH_X86_64, getpid, &ends) == 30);
	assert_true(ends);
	assert_true(eval_walk_ns(&c, &rs, AUDIT_ARCH_X86_64, getpid, &visited) == 30);
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

/*
 * Per rule: visits up to the rule that ends the walk, evaluations where the
 * bit is set, and costs that add up, with the walk's own calls, to the
 * walks' whole time.
 */
static void test_rule_costs_add_up(void **state)
{
	static struct profile p = { .seconds = 1 };
	struct calibration c = priced();
	unsigned int getpid = nr("getpid", MACH_86_64), chmod = nr("chmod", MACH_86_64);
	struct rule_costs rc;
	struct ruleset rs;
	double sum = 0;

	(void)state;
	c.ns_walk_call = 3;
	read_set(
		"-a never,exit -F arch=b64 -S getpid\n"
		"-a always,exit -F arch=b64 -S chmod -F auid>=1000 -k perm_mod\n"
		"-a always,exit -S all -F dir=/etc -F perm=wa -k etc\n"
		"-w /etc/passwd -p wa -k identity\n",
		&rs);
	p.calls[ARCH_NATIVE * NR_SLOTS + getpid] = 100;
	p.calls[ARCH_NATIVE * NR_SLOTS + chmod] = 10;
	assert_int_equal(rule_costs_make(&rs, &(struct walk_tally){ .walks = p.calls }, &c, &rc),
			 0);
	assert_false(rc.exact);
	/* getpid ends at the never rule; chmod walks all three exit rules. */
	assert_int_equal(rc.rule[0].visits, 110);
	assert_int_equal(rc.rule[0].evaluations, 100);
	assert_int_equal(rc.rule[1].visits, 10);
	assert_int_equal(rc.rule[1].evaluations, 10);
	assert_int_equal(rc.rule[2].visits, 10);
	assert_int_equal(rc.rule[2].evaluations, 10);
	assert_int_equal(rc.rule[3].visits, 0); /* a watch: on the inode hash */
	/* getpid: 1 entry at 2 ns and the match (30). */
	assert_true(rc.rule[0].ns == 100 * (2 + 30) + 10 * 2);
	/* chmod: its arch passes, auid decides (6); the dir rule (50). */
	assert_true(rc.rule[1].ns == 10 * (2 + 7 + 6));
	assert_true(rc.rule[2].ns == 10 * (2 + 50));
	for (size_t i = 0; i < rs.n; i++)
		sum += rc.rule[i].ns;
	assert_true(rc.calls_ns == 110 * 3);
	assert_float_equal(sum + rc.calls_ns, rc.walks_ns, 1e-9);
	rule_costs_free(&rc);
	ruleset_free(&rs);
}

/*
 * Where the kernel said which rule each match stopped at, that is where
 * the walks end: visits behind it drop by its matches, the rest walk on.
 */
static void test_rule_costs_exact(void **state)
{
	static __u64 walks[NR_COUNT_SLOTS];
	struct calibration c = priced();
	unsigned int openat = nr("openat", MACH_86_64), getpid = nr("getpid", MACH_86_64);
	struct rule_match_count m[] = {
		{ .slot = ARCH_NATIVE * NR_SLOTS + openat, .rule = 1, .walks = 4 },
	};
	struct rule_costs rc;
	struct ruleset rs;

	(void)state;
	c.ns_walk_call = 3;
	read_set(
		"-a always,exit -F arch=b64 -S chmod -F auid>=1000 -k perm_mod\n"
		"-a always,exit -F arch=b64 -S openat -F dir=/etc -k etc\n"
		"-a always,exit -S openat -F auid=4000 -k late\n",
		&rs);
	walks[ARCH_NATIVE * NR_SLOTS + openat] = 10;
	walks[ARCH_NATIVE * NR_SLOTS + getpid] = 7;
	assert_int_equal(rule_costs_make(&rs,
					 &(struct walk_tally){ .walks = walks,
							       .exact = true,
							       .matches = m,
							       .nmatches = 1 },
					 &c, &rc),
			 0);
	assert_true(rc.exact);
	assert_int_equal(rc.rule[0].visits, 17);
	assert_int_equal(rc.rule[0].evaluations, 0);
	assert_int_equal(rc.rule[1].visits, 17);
	assert_int_equal(rc.rule[1].evaluations, 10);
	assert_int_equal(rc.rule[1].matches, 4);
	assert_int_equal(rc.rule[2].visits, 13);
	assert_int_equal(rc.rule[2].evaluations, 6);
	assert_int_equal(rc.rule[2].matches, 0);
	/* The four matched walks pay two visits at a 2-entry walk's price, and the match. */
	assert_true(rc.rule[1].ns == 4 * (2 + 30) + 6 * (2 + 7 + 50) + 7 * 2);
	rule_costs_free(&rc);
	ruleset_free(&rs);
}

/*
 * The 2023 design: a context made dummy for calls no exit rule or watch
 * names, saving the walk and the context; never with a task rule loaded.
 */
static void test_designs(void **state)
{
	static struct prediction pr;
	struct calibration c = priced();
	unsigned int getpid = nr("getpid", MACH_86_64), chmod = nr("chmod", MACH_86_64);
	unsigned int read = nr("read", MACH_86_64);
	struct design_savings d;
	struct kernel_classes kc;
	struct ruleset rs;

	(void)state;
	c.ns_context = 100; /* the empty walk above a dummy context, the walk's call in it */
	c.ns_walk_call = 3;
	kernel_classes_from_tables(&kc);
	read_set(
		"-a always,exit -F arch=b64 -S chmod -F auid>=1000 -k perm_mod\n"
		"-a always,exit -F arch=b64 -S read -F dir=/etc -k etc\n",
		&rs);
	/* A watch: counted per syscall by the 2023 design, never walked. */
	rs.rules[1].inode_hash = true;
	pr.exit_rules = 1;
	pr.walks_at_all = true;
	pr.slot[getpid].walks = pr.slot[getpid].skippable_walks = 100;
	pr.slot[chmod].walks = 10;
	pr.slot[read].walks = pr.slot[read].skippable_walks = 5;
	assert_int_equal(design_savings_make(&rs, &pr, &kc, &c, &d), 0);
	assert_null(d.not_2023);
	/* The series skips getpid and read: a walk of one entry (2 ns) and its call (3). */
	assert_int_equal(d.total_walks[DESIGN_SERIES], 105);
	assert_true(d.total_ns[DESIGN_SERIES] == 105 * 5.0);
	/* 2023: getpid only (the watch names read), the visit and the whole context. */
	assert_int_equal(d.total_walks[DESIGN_2023], 100);
	assert_true(d.total_ns[DESIGN_2023] == 100 * (2.0 + 100));
	assert_int_equal(d.total_contexts[DESIGN_2023], 100);
	assert_int_equal(d.all_walks, 0); /* pr.total is not filled in here */
	design_savings_free(&d);

	/*
	 * archperm skips the walks its masks leave out; archperm-entry skips
	 * the same walks, and of them gives those its entry masks leave out a
	 * dummy context, priced like the 2023 design's.
	 */
	pr.slot[getpid].skippable_perm_mask = pr.slot[getpid].skippable_entry_mask = 100;
	pr.slot[read].skippable_perm_mask = 5;
	pr.slot[chmod].skippable_perm_mask = 0;
	assert_int_equal(design_savings_make(&rs, &pr, &kc, &c, &d), 0);
	assert_int_equal(d.total_walks[DESIGN_ARCHPERM], 105);
	assert_true(d.total_ns[DESIGN_ARCHPERM] == 105 * 5.0);
	assert_int_equal(d.total_walks[DESIGN_ARCHPERM_ENTRY], 105);
	assert_int_equal(d.total_contexts[DESIGN_ARCHPERM_ENTRY], 100);
	assert_true(d.total_ns[DESIGN_ARCHPERM_ENTRY] == 100 * (2.0 + 100) + 5 * 5.0);
	pr.slot[getpid].skippable_perm_mask = pr.slot[getpid].skippable_entry_mask = 0;
	pr.slot[read].skippable_perm_mask = 0;
	/*
	 * One exit rule: a walk the prefix ends trades its one visit for the
	 * prefix's match, and chmod's walks visit the prefix too. Fitted to
	 * these walks (as advise --never-prefix --profile fits it), no
	 * prefix rule pays.
	 */
	assert_int_equal(d.walks[DESIGN_PREFIX][getpid], 0);
	assert_true(d.total_ns[DESIGN_PREFIX] == 0);
	design_savings_free(&d);
	ruleset_free(&rs);

	/*
	 * Where every walk also evaluates a dir= rule (50 ns) it pays: it
	 * ends the getpid and read walks (perm=wa leaves them out), not chmod's.
	 */
	read_set(
		"-a always,exit -F arch=b64 -S chmod -F auid>=1000 -k perm_mod\n"
		"-a always,exit -S all -F dir=/etc -F perm=wa -k etc\n",
		&rs);
	assert_int_equal(design_savings_make(&rs, &pr, &kc, &c, &d), 0);
	assert_int_equal(d.walks[DESIGN_PREFIX][getpid], 100);
	assert_int_equal(d.walks[DESIGN_PREFIX][read], 5);
	assert_int_equal(d.walks[DESIGN_PREFIX][chmod], 0);
	assert_true(d.total_ns[DESIGN_PREFIX] > 0);
	design_savings_free(&d);
	ruleset_free(&rs);

	read_set("-a always,exit -F arch=b64 -S chmod -k perm_mod\n-a always,task -F uid=0\n", &rs);
	assert_int_equal(design_savings_make(&rs, &pr, &kc, &c, &d), 0);
	assert_non_null(d.not_2023);
	assert_int_equal(d.total_walks[DESIGN_2023], 0);
	design_savings_free(&d);
	ruleset_free(&rs);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rules_priced_by_field),
		cmocka_unit_test(test_label_fields),
		cmocka_unit_test(test_walk_ends_at_a_rule_that_passes),
		cmocka_unit_test(test_unpriced_calibration),
		cmocka_unit_test(test_rule_costs_add_up),
		cmocka_unit_test(test_rule_costs_exact),
		cmocka_unit_test(test_designs),
	};

	return unit_main(argc, argv, "eval price", tests, NULL, NULL);
}
