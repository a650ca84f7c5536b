// SPDX-License-Identifier: GPL-2.0
/*
 * Rules a never rule before them silences: which syscalls, on which arch,
 * by which never rule, wholly or partly, on rule sets read as auditctl
 * would read them (-A first, watches in list order), and how the reports
 * name them.
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
#include "audit/rules_file.h"
#include "audit/syscalls.h"
#include "model/shadowing.h"
#include "output/shadowing_report.h"

static void read_set(const char *text, struct ruleset *rs)
{
	struct rules_file_error e = { 0 };

	assert_int_equal(rules_text_read(text, strlen(text), "test", rs, &e), 0);
}

static unsigned int nr_of(const char *name, int arch)
{
	int nr = audit_name_to_syscall(name, arch_machine(arch));

	assert_true(nr >= 0);
	return nr;
}

static void need_biarch(void)
{
	if (arch_machine(ARCH_COMPAT) < 0)
		fail_msg("this test needs a biarch machine (x86_64 or aarch64)");
}

/* Reads `text` and finds what it shadows; the caller frees both. */
static void shadowed_in(const char *text, struct ruleset *rs, struct shadowing *s)
{
	read_set(text, rs);
	assert_int_equal(shadowing_find(rs, NULL, s), 0);
}

static void done(struct ruleset *rs, struct shadowing *s)
{
	shadowing_free(s);
	ruleset_free(rs);
}

/*
 * A never rule naming openat before a watch on writes and attribute
 * changes: the watch can match openat (by its flags) among others, so it
 * is partly shadowed, on the native arch only.
 */
static void check_watch_partly(const char *watch)
{
	char text[256];
	struct ruleset rs;
	struct shadowing s;
	const struct shadow_arch *native;

	snprintf(text, sizeof(text), "-a never,exit -F arch=b64 -S openat\n%s\n", watch);
	shadowed_in(text, &rs, &s);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.nmay, 0);
	assert_int_equal(s.rules[0].rule, 1);
	assert_false(s.rules[0].wholly);
	native = &s.rules[0].arch[ARCH_NATIVE];
	assert_int_equal(native->count, 1);
	assert_true(mask_test(native->syscalls, nr_of("openat", ARCH_NATIVE)));
	assert_true(native->can_match > 1);
	assert_int_equal(native->nby, 1);
	assert_int_equal(native->by[0].never, 0);
	assert_int_equal(native->by[0].count, 1);
	assert_int_equal(s.rules[0].arch[ARCH_COMPAT].count, 0);
	assert_true(s.rules[0].arch[ARCH_COMPAT].can_match > 0);
	assert_int_equal(shadowing_wholly(&s), 0);
	done(&rs, &s);
}

static void test_prefix_before_watch(void **state)
{
	(void)state;
	need_biarch();
	check_watch_partly("-w /tmp/x -p wa");
	/* Read access: openat is in it too, by its flags (ACC_MODE()). */
	check_watch_partly("-w /tmp/x -p r");
}

/* The rule names kill alone, for the arch the never rule names it for: wholly. */
static void test_prefix_before_rule_wholly(void **state)
{
	struct ruleset rs;
	struct shadowing s;

	(void)state;
	shadowed_in(
		"-a never,exit -F arch=b64 -S kill,getpid\n"
		"-a always,exit -F arch=b64 -S kill -k new\n",
		&rs, &s);
	assert_int_equal(s.n, 1);
	assert_true(s.rules[0].wholly);
	assert_int_equal(s.rules[0].arch[ARCH_NATIVE].count, 1);
	assert_int_equal(s.rules[0].arch[ARCH_NATIVE].can_match, 1);
	assert_true(mask_test(s.rules[0].arch[ARCH_NATIVE].syscalls, nr_of("kill", ARCH_NATIVE)));
	assert_int_equal(s.rules[0].arch[ARCH_COMPAT].can_match, 0);
	assert_int_equal(shadowing_wholly(&s), 1);
	done(&rs, &s);
}

/*
 * A b32 never rule on every syscall leaves a b64 rule alone; a rule with
 * no arch matches its numbers on both arches, and only i386's are ended.
 */
static void test_other_arch_never(void **state)
{
	struct ruleset rs;
	struct shadowing s;
	const struct shadowed_rule *e;

	(void)state;
	need_biarch();
	shadowed_in(
		"-a never,exit -F arch=b32 -S all\n"
		"-a always,exit -F arch=b64 -S kill -k new\n"
		"-a always,exit -S kill -k any\n",
		&rs, &s);
	assert_int_equal(s.n, 1);
	e = &s.rules[0];
	assert_int_equal(e->rule, 2);
	assert_false(e->wholly);
	assert_int_equal(e->arch[ARCH_NATIVE].count, 0);
	assert_int_equal(e->arch[ARCH_NATIVE].can_match, 1);
	/* x86_64's kill is 62, i386's 62 another syscall: the bit, by number. */
	assert_int_equal(e->arch[ARCH_COMPAT].count, 1);
	assert_true(mask_test(e->arch[ARCH_COMPAT].syscalls, nr_of("kill", ARCH_NATIVE)));
	done(&rs, &s);
}

/* A uid field makes the never rule conditional: it only may shadow. */
static void test_conditional_never(void **state)
{
	struct ruleset rs;
	struct shadowing s;

	(void)state;
	shadowed_in(
		"-a never,exit -F arch=b64 -S kill -F uid=0\n"
		"-a always,exit -F arch=b64 -S kill -k new\n",
		&rs, &s);
	assert_int_equal(s.n, 0);
	assert_int_equal(s.nmay, 1);
	assert_int_equal(s.may[0].rule, 1);
	assert_true(s.may[0].wholly);
	assert_int_equal(s.may[0].arch[ARCH_NATIVE].by[0].never, 0);
	done(&rs, &s);
}

/* A key on the never rule filters nothing (audit_filter_rules() ignores it), nor does arch!=. */
static void test_key_and_arch_ne_unconditional(void **state)
{
	struct ruleset rs;
	struct shadowing s;

	(void)state;
	need_biarch();
	/* -S all: with an arch field, auditctl names syscalls from that arch's table, != or not. */
	shadowed_in(
		"-a never,exit -F arch!=b32 -S all -k quiet\n"
		"-a always,exit -F arch=b64 -S kill -k new\n",
		&rs, &s);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.nmay, 0);
	assert_true(s.rules[0].wholly);
	done(&rs, &s);
}

/*
 * A path= rule on exec can match execve and execveat only: a never rule
 * naming execve shadows it partly, one naming both wholly.
 */
static void test_perm_x_path_rule(void **state)
{
	struct ruleset rs;
	struct shadowing s;
	const struct shadow_arch *native;

	(void)state;
	shadowed_in(
		"-a never,exit -F arch=b64 -S execve\n"
		"-a always,exit -F arch=b64 -F path=/bin/ls -F perm=x -k exec\n",
		&rs, &s);
	assert_int_equal(s.n, 1);
	assert_true(rs.rules[s.rules[0].rule].inode_hash);
	native = &s.rules[0].arch[ARCH_NATIVE];
	assert_int_equal(native->can_match, 2);
	assert_int_equal(native->count, 1);
	assert_true(mask_test(native->syscalls, nr_of("execve", ARCH_NATIVE)));
	assert_false(s.rules[0].wholly);
	done(&rs, &s);

	shadowed_in(
		"-a never,exit -F arch=b64 -S execve,execveat\n"
		"-a always,exit -F arch=b64 -F path=/bin/ls -F perm=x -k exec\n",
		&rs, &s);
	assert_int_equal(s.n, 1);
	assert_true(s.rules[0].wholly);
	done(&rs, &s);
}

/* -A puts the never rule first, whatever line it is on; a never rule is not itself listed. */
static void test_prepended_never(void **state)
{
	struct ruleset rs;
	struct shadowing s;

	(void)state;
	shadowed_in(
		"-a always,exit -F arch=b64 -S kill -k new\n"
		"-a never,exit -F arch=b64 -S kill\n"
		"-A never,exit -F arch=b64 -S kill\n",
		&rs, &s);
	assert_int_equal(s.n, 1);
	assert_string_equal(rs.rules[s.rules[0].rule].key, "new");
	assert_int_equal(s.rules[0].rule, 1);
	assert_int_equal(s.rules[0].arch[ARCH_NATIVE].by[0].never, 0);
	assert_int_equal(rs.rules[0].action, AUDIT_NEVER);
	assert_true(s.rules[0].wholly);
	done(&rs, &s);
}

/* A never rule after the rule, or on another list, shadows nothing. */
static void test_nothing_shadowed(void **state)
{
	struct ruleset rs;
	struct shadowing s;

	(void)state;
	shadowed_in(
		"-a always,exit -F arch=b64 -S kill -k new\n"
		"-a never,exit -F arch=b64 -S kill\n"
		"-a never,task\n",
		&rs, &s);
	assert_int_equal(s.n, 0);
	assert_int_equal(s.nmay, 0);
	done(&rs, &s);
}

/* Two never rules, one per arch, each end their own arch's share of one rule. */
static void test_two_never_rules(void **state)
{
	struct ruleset rs;
	struct shadowing s;
	const struct shadowed_rule *e;

	(void)state;
	need_biarch();
	shadowed_in(
		"-a never,exit -F arch=b64 -S openat\n"
		"-a never,exit -F arch=b32 -S open\n"
		"-a never,exit -F arch=b64 -S openat,open\n"
		"-a always,exit -S all -F dir=/tmp -F perm=w -k tmp\n",
		&rs, &s);
	assert_int_equal(s.n, 1);
	e = &s.rules[0];
	assert_int_equal(e->arch[ARCH_NATIVE].nby, 2);
	assert_int_equal(e->arch[ARCH_NATIVE].by[0].never, 0); /* openat: the first */
	assert_int_equal(e->arch[ARCH_NATIVE].by[1].never, 2); /* open: the third */
	assert_int_equal(e->arch[ARCH_NATIVE].count, 2);
	assert_int_equal(e->arch[ARCH_COMPAT].nby, 1);
	assert_int_equal(e->arch[ARCH_COMPAT].by[0].never, 1);
	assert_int_equal(e->arch[ARCH_COMPAT].count, 1);
	done(&rs, &s);
}

/* What `report` writes for `s`, as a string the caller frees. */
static char *printed(void (*report)(FILE *, const struct ruleset *, const struct shadowing *),
		     const struct ruleset *rs, const struct shadowing *s)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	report(f, rs, s);
	fclose(f);
	return text;
}

/* The text names the rule, its syscalls and what shadows it, by FILE:LINE; JSON the same. */
static void test_reports(void **state)
{
	struct ruleset rs;
	struct shadowing s;
	char *text;
	json_object *arr, *e, *by;

	(void)state;
	shadowed_in(
		"-a never,exit -F arch=b64 -S kill\n"
		"-a always,exit -F arch=b64 -S kill -k new\n",
		&rs, &s);
	text = printed(print_shadowing, &rs, &s);
	assert_non_null(strstr(text,
			       "  test:2  -a always,exit -F arch=b64 -S kill -F key=new\n"
			       "    wholly: "));
	assert_non_null(
		strstr(text, ": kill\n      by test:1  -a never,exit -F arch=b64 -S kill\n"));
	free(text);
	text = printed(print_shadowing_brief, &rs, &s);
	assert_non_null(strstr(text, "Shadowed rules: 1 (1 wholly)"));
	assert_non_null(strstr(text, "  wholly  test:2  -a always,exit"));
	free(text);

	arr = shadowed_rules_json(&rs, s.rules, s.n, SIZE_MAX);
	assert_int_equal(json_object_array_length(arr), 1);
	e = json_object_array_get_idx(arr, 0);
	assert_int_equal(json_object_get_int(json_object_object_get(e, "index")), 1);
	assert_true(json_object_get_boolean(json_object_object_get(e, "wholly")));
	e = json_object_array_get_idx(json_object_object_get(e, "arches"), 0);
	assert_int_equal(json_object_get_int(json_object_object_get(e, "syscall_count")), 1);
	by = json_object_array_get_idx(json_object_object_get(e, "by"), 0);
	assert_string_equal(json_object_get_string(json_object_object_get(by, "origin")), "test:1");
	json_object_put(arr);
	done(&rs, &s);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_prefix_before_watch),
		cmocka_unit_test(test_prefix_before_rule_wholly),
		cmocka_unit_test(test_other_arch_never),
		cmocka_unit_test(test_conditional_never),
		cmocka_unit_test(test_key_and_arch_ne_unconditional),
		cmocka_unit_test(test_perm_x_path_rule),
		cmocka_unit_test(test_prepended_never),
		cmocka_unit_test(test_nothing_shadowed),
		cmocka_unit_test(test_two_never_rules),
		cmocka_unit_test(test_reports),
	};

	return unit_main(argc, argv, "shadowing", tests, NULL, NULL);
}
