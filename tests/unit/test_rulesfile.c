// SPDX-License-Identifier: GPL-2.0
/*
 * rules_text_read(): auditctl's reading of a rules file, what the kernel
 * makes of each rule, without a kernel. tests/host/rulesfile.sh compares
 * the same reading with real listings.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "unit_main.h"
#include <errno.h>
#include <libaudit.h>
#include "audit/rules_file.h"

static int read_text(const char *text, struct ruleset *rs, struct rules_file_error *err)
{
	return rules_text_read(text, strlen(text), "test.rules", rs, err);
}

static unsigned int uid_of(const struct audit_rule *r)
{
	for (unsigned int i = 0; i < r->field_count; i++)
		if (r->fields[i].type == AUDIT_UID)
			return r->fields[i].value;
	return 0;
}

/* The kernel lists list by list; -A goes to the front of its list. */
static void test_order(void **state)
{
	struct rules_file_error err;
	struct ruleset rs;

	(void)state;
	assert_int_equal(read_text("-a always,exit -F arch=b64 -S getpid -F uid=1\n"
				   "-A always,exit -F arch=b64 -S getppid -F uid=2\n"
				   "-a always,task -F uid=3\n"
				   "-a exit,always -F arch=b64 -S getpid -F uid=4\n",
				   &rs, &err),
			 0);
	assert_int_equal(rs.n, 4);
	assert_int_equal(uid_of(&rs.rules[0]), 3);
	assert_int_equal(uid_of(&rs.rules[1]), 2);
	assert_int_equal(uid_of(&rs.rules[2]), 1);
	assert_int_equal(uid_of(&rs.rules[3]), 4);
	assert_string_equal(rs.rules[1].origin, "test.rules:2");
	ruleset_free(&rs);
}

static void test_deletes(void **state)
{
	struct rules_file_error err;
	struct ruleset rs;

	(void)state;
	assert_int_equal(read_text("-a always,exit -F arch=b64 -S getpid -F uid=1 -k keep\n"
				   "-a always,exit -F arch=b64 -S getpid -F uid=2 -k gone\n"
				   "-a always,exit -F arch=b64 -S getpid -F uid=3 -k keep\n"
				   "-D -k gone\n"
				   "-d always,exit -F arch=b64 -S getpid -F uid=3 -k keep\n",
				   &rs, &err),
			 0);
	assert_int_equal(rs.n, 1);
	assert_int_equal(uid_of(&rs.rules[0]), 1);
	ruleset_free(&rs);
	assert_int_equal(read_text("-d always,exit -F arch=b64 -S getpid -F uid=3\n", &rs, &err),
			 -EINVAL);
	assert_int_equal(err.line, 1);
	assert_string_equal(err.message,
			    "Error sending delete rule data request (No such file or directory)");
	ruleset_free(&rs);
}

static void test_errors(void **state)
{
	struct rules_file_error err;
	struct ruleset rs;

	(void)state;
	assert_int_equal(read_text("# comment\n\n-a always,exit -S nosuch_call\n", &rs, &err),
			 -EINVAL);
	assert_string_equal(err.file, "test.rules");
	assert_int_equal(err.line, 3);
	assert_string_equal(err.message, "Syscall name unknown: nosuch_call");
	ruleset_free(&rs);
	assert_int_equal(read_text("-a always,exit -S getpid -F arch=b64\n", &rs, &err), -EINVAL);
	assert_string_equal(err.message, "arch must be before -S");
	ruleset_free(&rs);
	assert_int_equal(read_text("-a always,exit -F arch=b64 -S getpid -k\n", &rs, &err),
			 -EINVAL);
	assert_string_equal(err.message, "Option -k on line 1 is invalid");
	ruleset_free(&rs);
	assert_int_equal(read_text("-e 2\n-a always,exit -F arch=b64 -S getpid\n", &rs, &err),
			 -EINVAL);
	assert_int_equal(err.line, 2);
	assert_string_equal(err.message,
			    "Error sending add rule data request (Operation not permitted)");
	ruleset_free(&rs);
}

/* Status lines are reported, not rules. */
static void test_control_lines(void **state)
{
	struct rules_file_error err;
	struct ruleset rs;

	(void)state;
	assert_int_equal(read_text("-D\n-b 8192\n-f 1\n--backlog_wait_time 60000\n"
				   "--loginuid-immutable\n-e 1\n-r 100\n",
				   &rs, &err),
			 0);
	assert_int_equal(rs.n, 0);
	assert_int_equal(rs.nnotes, 7);
	assert_non_null(strstr(rs.notes[1], "test.rules:2: -b 8192"));
	ruleset_free(&rs);
	assert_int_equal(read_text("-e 3\n", &rs, &err), -EINVAL);
	assert_string_equal(err.message, "Enable must be 0, 1, or 2 was 3");
	ruleset_free(&rs);
}

/* The top mask bits select classes (audit_to_entry_common()): 2039 is signal. */
static void test_class_bits(void **state)
{
	int machine = audit_detect_machine();
	struct rules_file_error err;
	struct ruleset rs;

	(void)state;
	assert_int_equal(read_text("-a always,exit -F arch=b64 -S 2039 -F uid=1\n", &rs, &err), 0);
	assert_int_equal(rs.n, 1);
	assert_int_equal(mask_count(rs.rules[0].mask), 3);
	assert_true(mask_test(rs.rules[0].mask, audit_name_to_syscall("kill", machine)));
	assert_true(mask_test(rs.rules[0].mask, audit_name_to_syscall("tgkill", machine)));
	assert_true(mask_test(rs.rules[0].mask, audit_name_to_syscall("tkill", machine)));
	ruleset_free(&rs);
	/* Without -S every bit but the class selectors. */
	assert_int_equal(read_text("-a always,exit -F uid=1\n", &rs, &err), 0);
	assert_int_equal(mask_count(rs.rules[0].mask), MASK_SYSCALL_BITS);
	ruleset_free(&rs);
}

/* auditctl's "\ " keeps a space in a path; a watch on a path that is no directory. */
static void test_escapes_and_watch(void **state)
{
	struct rules_file_error err;
	struct ruleset rs;
	char buf[64];

	(void)state;
	assert_int_equal(read_text("-w /nonexistent/a\\ b -p wa -k w\n", &rs, &err), 0);
	assert_int_equal(rs.n, 1);
	assert_true(rs.rules[0].inode_hash);
	assert_int_equal(rs.rules[0].fields[0].type, AUDIT_WATCH);
	assert_string_equal(rule_field_string(&rs.rules[0], 0, buf, sizeof(buf)),
			    "/nonexistent/a b");
	/* Its parent is missing here: kept, with a note. */
	assert_int_equal(rs.nnotes, 1);
	ruleset_free(&rs);
}

/* -c and -i: errors after them are notes; -c adds that auditctl exits 1 at the end. */
static void test_continue(void **state)
{
	struct rules_file_error err;
	struct ruleset rs;

	(void)state;
	assert_int_equal(
		read_text("-c\n-a always,exit -S nosuch\n-a always,exit -F uid=1\n", &rs, &err), 0);
	assert_int_equal(rs.n, 1);
	assert_non_null(strstr(rs.notes[rs.nnotes - 1], "exits 1"));
	ruleset_free(&rs);
	assert_int_equal(
		read_text("-i\n-a always,exit -S nosuch\n-a always,exit -F uid=1\n", &rs, &err), 0);
	assert_int_equal(rs.n, 1);
	ruleset_free(&rs);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order),	   cmocka_unit_test(test_deletes),
		cmocka_unit_test(test_errors),	   cmocka_unit_test(test_control_lines),
		cmocka_unit_test(test_class_bits), cmocka_unit_test(test_escapes_and_watch),
		cmocka_unit_test(test_continue),
	};

	set_aumessage_mode(MSG_QUIET, DBG_NO);
	return unit_main(argc, argv, "tests", tests, NULL, NULL);
}
