// SPDX-License-Identifier: GPL-2.0
/*
 * The never,exit prefix: which syscalls it names per arch, when it is
 * refused, where a loaded prefix ends a walk, and what it is predicted to
 * save, on rule sets read as auditctl would read them.
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
#include "audit/kernel_rule.h"
#include "audit/rules_file.h"
#include "audit/syscalls.h"
#include "model/never_prefix.h"

static struct kernel_classes kc;

static void read_set(const char *text, struct ruleset *rs)
{
	struct rules_file_error e = { 0 };

	assert_int_equal(rules_text_read(text, strlen(text), "test", rs, &e), 0);
}

static int nr_of(const char *name, int arch)
{
	int nr = audit_name_to_syscall(name, arch_machine(arch));

	assert_true(nr >= 0);
	return nr;
}

static bool named(const struct never_prefix *p, int arch, const char *name)
{
	return mask_test(p->named[arch], nr_of(name, arch));
}

/* A dir= perm=wa rule on every syscall and arch leaves out the write class only. */
static void test_perm_rule_narrowed_per_arch(void **state)
{
	struct never_prefix p;
	struct ruleset rs;

	(void)state;
	read_set(
		"-a always,exit -S all -F dir=/etc -F perm=wa -k etc\n"
		"-a always,exit -S 246 -F uid=4000001 -k kexec\n",
		&rs);
	never_prefix_build(&rs, &kc, &p);
	assert_null(p.refused);
	for (int a = 0; a < NR_ARCHES; a++) {
		if (!p.arch_elf[a])
			continue;
		assert_true(named(&p, a, "getpid"));
		assert_true(named(&p, a, "read"));
		assert_false(named(&p, a, "rename"));	/* the write class */
		assert_false(named(&p, a, "unlinkat")); /* the write class */
		assert_false(named(&p, a, "chmod"));	/* the attribute class */
		assert_false(named(&p, a, "open"));	/* by its flags */
		assert_false(named(&p, a, "write"));	/* logs records of its own */
		assert_false(named(&p, a, "sendto"));
		assert_true(p.left_out[a] > 0);
	}
	ruleset_free(&rs);
}

/* A rule without an arch names its numbers on every arch; one -S all rule fills its own. */
static void test_arches_apart(void **state)
{
	struct never_prefix p;
	struct ruleset rs;

	(void)state;
	if (arch_machine(ARCH_COMPAT) < 0)
		fail_msg("this test needs a biarch machine (x86_64 or aarch64)");
	read_set(
		"-a always,exit -S 39 -F uid=0 -k n39\n"
		"-a always,exit -F arch=b64 -S all -F uid=4000001 -k all64\n",
		&rs);
	never_prefix_build(&rs, &kc, &p);
	assert_int_equal(p.nnamed[ARCH_NATIVE], 0);
	assert_int_equal(p.rules, 1);
	assert_false(mask_test(p.named[ARCH_COMPAT], 39)); /* i386's 39 is mkdir */
	assert_true(named(&p, ARCH_COMPAT, "getpid"));
	ruleset_free(&rs);
}

static void test_refused(void **state)
{
	static const char *const sets[] = {
		"-a always,task -F uid=0\n-a always,exit -F arch=b64 -S openat -k o\n",
		"-w /etc/passwd -p wa -k pw\n",
		"-a always,exit -F arch=b64 -S openat -k o\n-e 0\n",
		/* One exit rule: an ended walk visits one entry, as before. */
		"-a always,exit -F arch=b64 -S openat -k o\n-w /etc/passwd -p wa -k pw\n",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
		struct never_prefix p;
		struct ruleset rs;

		read_set(sets[i], &rs);
		never_prefix_build(&rs, &kc, &p);
		assert_non_null(p.refused);
		assert_int_equal(p.rules, 0);
		ruleset_free(&rs);
	}
}

/*
 * A never match raises the context's priority above every later rule's,
 * so the syscalls a watch, a path= rule or an io_uring rule can match stay
 * out of the prefix, by their permission classes; each rule is named with
 * what only it keeps out.
 */
static void test_later_rules_keep_syscalls_out(void **state)
{
	struct never_prefix p;
	struct ruleset rs;
	bool watch_named = false;

	(void)state;
	read_set(
		"-a always,exit -F arch=b64 -S adjtimex -k t\n"
		"-a always,exit -F arch=b64 -S kill -F uid=4000001 -k k\n"
		"-w /tmp/x/watched -p wa -k wwatch\n"
		"-a always,exit -F path=/usr/sbin/unix_chkpwd -F perm=x -k chk\n"
		"-a always,exit -S 18 -F uid=4000001 -k uring\n",
		&rs);
	/* libaudit 3.0.9 reads no io_uring list: the last rule moved to it. */
	assert_string_equal(rs.rules[rs.n - 1].key, "uring");
	rs.rules[rs.n - 1].list = AUDIT_FILTER_URING_EXIT;
	assert_int_equal(never_prefix_build(&rs, &kc, &p), 0);
	assert_null(p.refused);
	for (int a = 0; a < NR_ARCHES; a++) {
		if (!p.arch_elf[a])
			continue;
		assert_false(named(&p, a, "openat"));	      /* the watch's w, by its flags */
		assert_false(named(&p, a, "chmod"));	      /* its a */
		assert_false(named(&p, a, "rename"));	      /* its w */
		assert_false(named(&p, a, "execve"));	      /* the path rule's x */
		assert_false(named(&p, a, "io_uring_enter")); /* the io_uring rule */
		assert_true(named(&p, a, "getpid"));
		assert_true(named(&p, a, "read")); /* neither w nor a */
		assert_true(p.not_exit_list[a] > 0);
		for (size_t k = 0; k < p.nkeepers[a]; k++)
			if (!strcmp(p.keepers[a][k].rule->key, "chk")) {
				assert_int_equal(p.keepers[a][k].syscalls, 2);
				assert_true(mask_test(p.keepers[a][k].sole, nr_of("execve", a)));
				watch_named = true;
			}
	}
	assert_true(watch_named);
	assert_false(named(&p, ARCH_NATIVE, "kill"));
	/* 2 exit rules, one prefix rule per arch: 2 / (2 - 1 + 2) of the walks to pay. */
	assert_int_equal(p.exit_rules, 2);
	assert_float_equal(never_prefix_break_even(&p), (double)p.rules / (1 + p.rules), 1e-9);
	never_prefix_free(&p);
	ruleset_free(&rs);
}

/* The written file read back: its prefix ends the walks it names at entry 1 or 2. */
static void test_written_file_ends_walks(void **state)
{
	struct never_prefix p;
	struct ruleset rs, back;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	(void)state;
	read_set(
		"-a always,exit -F arch=b64 -S openat -F uid=4000001 -k o\n"
		"-a always,exit -F arch=b32 -S getpid -F uid=4000001 -k g32\n",
		&rs);
	never_prefix_build(&rs, &kc, &p);
	assert_int_equal(p.rules, 2);
	assert_int_equal(never_prefix_write(f, &rs, &p, "test"), 0);
	fclose(f);
	read_set(text, &back);
	assert_int_equal(back.n, rs.n + 2);
	assert_int_equal(never_prefix_ends_at(&back, p.arch_elf, ARCH_NATIVE, nr_of("getpid", 0)),
			 1);
	assert_int_equal(never_prefix_ends_at(&back, p.arch_elf, ARCH_NATIVE, nr_of("openat", 0)),
			 0);
	assert_int_equal(never_prefix_ends_at(&back, p.arch_elf, ARCH_COMPAT, nr_of("read", 1)), 2);
	assert_int_equal(never_prefix_ends_at(&back, p.arch_elf, ARCH_COMPAT, nr_of("getpid", 1)),
			 0);
	/* The set's own rules follow unchanged, in order. */
	assert_string_equal(back.rules[2].text, rs.rules[0].text);
	assert_string_equal(back.rules[3].text, rs.rules[1].text);
	/* Without a prefix in front, nothing ends early. */
	assert_int_equal(never_prefix_ends_at(&rs, p.arch_elf, ARCH_NATIVE, nr_of("getpid", 0)), 0);
	free(text);
	ruleset_free(&back);
	ruleset_free(&rs);
}

/* Advised again, a set behind its prefix gets the same prefix, once. */
static void test_prefix_replaced(void **state)
{
	struct never_prefix p, again;
	struct ruleset rs, back, back2;
	char *text = NULL, *text2 = NULL;
	size_t len = 0, len2 = 0;
	FILE *f = open_memstream(&text, &len), *f2;

	(void)state;
	read_set(
		"-a always,exit -F arch=b64 -S openat -F uid=4000001 -k o\n"
		"-a always,exit -F arch=b64 -S kill -F uid=4000001 -k k\n",
		&rs);
	never_prefix_build(&rs, &kc, &p);
	assert_int_equal(never_prefix_write(f, &rs, &p, "test"), 0);
	fclose(f);
	read_set(text, &back);
	never_prefix_build(&back, &kc, &again);
	assert_null(again.refused);
	assert_int_equal(again.replaced, p.rules);
	for (int a = 0; a < NR_ARCHES; a++)
		assert_memory_equal(again.named[a], p.named[a], sizeof(syscall_mask));
	f2 = open_memstream(&text2, &len2);
	assert_int_equal(never_prefix_write(f2, &back, &again, "test"), 0);
	fclose(f2);
	read_set(text2, &back2);
	assert_int_equal(back2.n, back.n);
	free(text);
	free(text2);
	ruleset_free(&back2);
	ruleset_free(&back);
	ruleset_free(&rs);
}

/* Nine openat rules and a dir= rule on every syscall: ten exit rules. */
static const char ten_rules[] =
	"-a always,exit -F arch=b64 -S openat -F uid=4000001 -k o\n"
	"-a always,exit -F arch=b64 -S openat -F uid=4000002 -k o\n"
	"-a always,exit -F arch=b64 -S openat -F uid=4000003 -k o\n"
	"-a always,exit -F arch=b64 -S openat -F uid=4000004 -k o\n"
	"-a always,exit -F arch=b64 -S openat -F uid=4000005 -k o\n"
	"-a always,exit -F arch=b64 -S openat -F uid=4000006 -k o\n"
	"-a always,exit -F arch=b64 -S openat -F uid=4000007 -k o\n"
	"-a always,exit -F arch=b64 -S openat -F uid=4000008 -k o\n"
	"-a always,exit -F arch=b64 -S openat -F uid=4000009 -k o\n"
	"-a always,exit -S all -F dir=/etc -F perm=wa -k etc\n";

/*
 * Each ended walk saves its visits and evaluations less the prefix entry's;
 * every other walk pays the prefix entries it now visits first.
 */
static void test_prediction_priced(void **state)
{
	struct calibration c = { .ns_per_entry = 2.0 };
	struct never_prefix_prediction pp;
	struct prediction before = { .exit_rules = 10 }, after = { .exit_rules = 10 };
	struct never_prefix p;
	struct ruleset rs;
	unsigned int getpid = nr_of("getpid", 0), openat = nr_of("openat", 0);
	double compat_eval;

	(void)state;
	read_set(ten_rules, &rs);
	never_prefix_build(&rs, &kc, &p);
	assert_int_equal(p.rules, 2);
	before.slot[getpid].walks = 1000;
	before.slot[openat].walks = 100;
	before.total.walks = 1100;

	/* Visits alone: 1000 walks of 10 entries cut to 1, 100 walks 2 entries longer. */
	assert_int_equal(never_prefix_predict(&p, &rs, &before, &after, &c, 2.0, &pp), 0);
	assert_false(pp.evaluations_priced);
	assert_int_equal(pp.ended[ARCH_NATIVE], 1000);
	assert_float_equal(pp.prefix_ns, 1000 * (10 - 1) * 2.0 - 100 * 2 * 2.0, 1e-6);

	c.eval_measured[EVAL_ARCH] = c.eval_measured[EVAL_ARCH_PASS] = true;
	c.eval_measured[EVAL_UID] = c.eval_measured[EVAL_DIR] = true;
	c.eval_measured[EVAL_MATCH] = true;
	c.ns_eval[EVAL_ARCH] = 10;
	c.ns_eval[EVAL_UID] = 5;
	c.ns_eval[EVAL_ARCH_PASS] = 15; /* a passing arch field adds 10 */
	c.ns_eval[EVAL_DIR] = 50;
	c.ns_eval[EVAL_MATCH] = 30;
	assert_int_equal(never_prefix_predict(&p, &rs, &before, &after, &c, 2.0, &pp), 0);
	assert_true(pp.evaluations_priced);
	/*
	 * getpid: 10 visits and the dir rule's evaluation (20 + 50), then the
	 * b64 prefix entry: a visit and the match, its arch field (2 + 30).
	 * openat: the same evaluations, two visits more, and the b32 prefix
	 * rule's failing arch check where its mask has openat's number.
	 */
	compat_eval = mask_test(p.named[ARCH_COMPAT], openat) ? 10 : 0;
	assert_float_equal(pp.prefix_ns, 1000 * (70.0 - 32.0) - 100 * (2 * 2.0 + compat_eval),
			   1e-6);
	ruleset_free(&rs);
}

/*
 * Fitted to a workload with no i386 walk, the b32 rule only costs (native
 * walks the b64 rule does not end test its mask and arch) and is left out,
 * with what it would have cost; with i386 walks it pays and stays.
 */
static void test_fit_leaves_unpaid_rule_out(void **state)
{
	struct calibration c = { .ns_per_entry = 2.0 };
	struct prediction native_only = { .exit_rules = 4 }, mixed;
	struct never_prefix p, fitted;
	struct ruleset rs;
	unsigned int openat = nr_of("openat", ARCH_NATIVE), getpid = nr_of("getpid", ARCH_NATIVE);
	unsigned int getpid32 = nr_of("getpid", ARCH_COMPAT);
	struct never_prefix_prediction pp;
	double whole_ns;

	(void)state;
	read_set(
		"-a always,exit -F arch=b64 -S openat -F uid=4000001 -k o\n"
		"-a always,exit -F arch=b64 -S openat -F uid=4000002 -k o\n"
		"-a always,exit -F arch=b64 -S openat -F uid=4000003 -k o\n"
		"-a always,exit -F arch=b32 -S openat -F uid=4000001 -k o\n",
		&rs);
	never_prefix_build(&rs, &kc, &p);
	assert_int_equal(p.rules, 2);
	assert_true(mask_test(p.named[ARCH_COMPAT], openat)); /* i386's 257 is not openat */
	/* getpid's 1000 walks save 3 visits each behind the b64 rule. */
	native_only.slot[getpid].walks = 1000;
	native_only.slot[openat].walks = 1000;
	native_only.total.walks = 2000;

	fitted = p;
	assert_int_equal(never_prefix_fit(&fitted, &rs, &native_only, &c), 0);
	assert_int_equal(fitted.rules, 1);
	assert_true(fitted.unpaid[ARCH_COMPAT]);
	assert_false(fitted.unpaid[ARCH_NATIVE]);
	assert_int_equal(fitted.nnamed[ARCH_COMPAT], 0);
	assert_int_equal(fitted.nnamed[ARCH_NATIVE], p.nnamed[ARCH_NATIVE]);
	/* What it would have cost: the 1000 openat walks' visit of its entry. */
	assert_float_equal(fitted.unpaid_ns[ARCH_COMPAT], -1000 * 2.0, 1e-6);

	/* The fitted prefix saves more than the whole one on that workload. */
	assert_int_equal(never_prefix_predict(&p, &rs, &native_only, &native_only, &c, 1.0, &pp),
			 0);
	whole_ns = pp.prefix_ns;
	assert_int_equal(
		never_prefix_predict(&fitted, &rs, &native_only, &native_only, &c, 1.0, &pp), 0);
	assert_float_equal(pp.prefix_ns - whole_ns, 1000 * 2.0, 1e-6);

	mixed = native_only;
	mixed.slot[NR_SLOTS + getpid32].walks = 1000;
	mixed.total.walks += 1000;
	fitted = p;
	assert_int_equal(never_prefix_fit(&fitted, &rs, &mixed, &c), 0);
	assert_int_equal(fitted.rules, 2);
	assert_false(fitted.unpaid[ARCH_COMPAT]);
	ruleset_free(&rs);
}

/*
 * Without a profile, each walk priced once: a native walk the prefix ends
 * saves its ten visits and the dir rule's evaluation less the prefix
 * entry's visit and match; one it does not end pays two visits. A match
 * dearer than the walk it ends makes the rule a loss, left out; one that
 * leaves less saved than it costs makes the prefix unlikely to pay.
 */
static void test_priced_without_profile(void **state)
{
	struct calibration c = { .ns_per_entry = 2.0 };
	struct never_prefix_price pr;
	struct never_prefix p;
	struct ruleset rs;

	(void)state;
	read_set(ten_rules, &rs);

	/* Visits alone: 10 entries cut to 1 (18 ns saved), 2 more visited (4 ns). */
	never_prefix_build(&rs, &kc, &p);
	assert_int_equal(never_prefix_price(&p, &rs, &c, &pr), 0);
	assert_int_equal(p.rules, 2);
	assert_false(pr.evaluations_priced);
	assert_float_equal(pr.ended_ns[ARCH_NATIVE], 18.0, 1e-9);
	assert_float_equal(pr.ended_min_ns[ARCH_NATIVE], 18.0, 1e-9);
	assert_float_equal(pr.passed_ns, 4.0, 1e-9);
	assert_float_equal(pr.break_even, 4.0 / 22.0, 1e-9);
	assert_false(pr.unlikely);
	assert_false(pr.lost[ARCH_NATIVE]);
	never_prefix_free(&p);

	c.eval_measured[EVAL_ARCH] = c.eval_measured[EVAL_ARCH_PASS] = true;
	c.eval_measured[EVAL_UID] = c.eval_measured[EVAL_DIR] = true;
	c.eval_measured[EVAL_MATCH] = true;
	c.ns_eval[EVAL_ARCH] = 10;
	c.ns_eval[EVAL_UID] = 5;
	c.ns_eval[EVAL_ARCH_PASS] = 15;
	c.ns_eval[EVAL_DIR] = 5;

	/* A walk it ends: 20 + 5 before, 2 + 15 behind it: 8 saved, 17 still paid. */
	c.ns_eval[EVAL_MATCH] = 15;
	never_prefix_build(&rs, &kc, &p);
	assert_int_equal(never_prefix_price(&p, &rs, &c, &pr), 0);
	assert_true(pr.evaluations_priced);
	assert_false(pr.lost[ARCH_NATIVE]);
	assert_true(p.nnamed[ARCH_NATIVE] > 0);
	assert_float_equal(pr.ended_ns[ARCH_NATIVE], 8.0, 1e-9);
	assert_float_equal(pr.ended_cost_ns[ARCH_NATIVE], 17.0, 1e-9);
	assert_true(pr.unlikely);
	never_prefix_free(&p);

	/* 2 + 30 behind it against 25: a loss on every walk it ends, no rule written. */
	c.ns_eval[EVAL_MATCH] = 30;
	never_prefix_build(&rs, &kc, &p);
	assert_int_equal(never_prefix_price(&p, &rs, &c, &pr), 0);
	assert_true(pr.lost[ARCH_NATIVE]);
	assert_float_equal(pr.lost_ns[ARCH_NATIVE], 7.0, 1e-9);
	assert_int_equal(p.nnamed[ARCH_NATIVE], 0);
	assert_int_equal(p.rules, !pr.lost[ARCH_COMPAT]);
	never_prefix_free(&p);
	ruleset_free(&rs);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_perm_rule_narrowed_per_arch),
		cmocka_unit_test(test_arches_apart),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_later_rules_keep_syscalls_out),
		cmocka_unit_test(test_written_file_ends_walks),
		cmocka_unit_test(test_prefix_replaced),
		cmocka_unit_test(test_prediction_priced),
		cmocka_unit_test(test_fit_leaves_unpaid_rule_out),
		cmocka_unit_test(test_priced_without_profile),
	};

	kernel_classes_from_tables(&kc);
	return unit_main(argc, argv, "never prefix", tests, NULL, NULL);
}
