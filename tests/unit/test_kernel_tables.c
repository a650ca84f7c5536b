// SPDX-License-Identifier: GPL-2.0
/*
 * audit/kernel_tables.c: the generated per-kernel syscall numbers and
 * perm= classes, and rules files naming syscalls libaudit 3.0.9 lacks.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <libaudit.h>
#include "audit/kernel_rule.h"
#include "audit/kernel_tables.h"
#include "audit/mask.h"
#include "audit/rules_file.h"

static const int machines[] = { MACH_86_64, MACH_X86, MACH_AARCH64, MACH_ARM };

/* fchmodat2 is 452 on every arch since 6.6; 6.1 has no such syscall. */
static void test_numbers_by_version(void **state)
{
	(void)state;
	assert_int_equal(kernel_tables_choose("7.2"), 0);
	assert_string_equal(kernel_tables_version(), "7.2.13");
	for (size_t i = 0; i < sizeof(machines) / sizeof(machines[0]); i++) {
		assert_int_equal(kernel_syscall_number("fchmodat2", machines[i]), 452);
		assert_int_equal(kernel_syscall_number("lsm_set_self_attr", machines[i]), 460);
		assert_string_equal(kernel_syscall_name(452, machines[i]), "fchmodat2");
	}
	assert_int_equal(kernel_syscall_number("openat", MACH_86_64), 257);
	assert_int_equal(kernel_syscall_number("openat", MACH_X86), 295);
	assert_int_equal(kernel_syscall_number("openat", MACH_AARCH64), 56);
	assert_int_equal(kernel_syscall_number("openat", MACH_ARM), 322);
	/* arm64 has no open(2) nor chmod(2); renameat is under its __ARCH_WANT_RENAMEAT. */
	assert_int_equal(kernel_syscall_number("open", MACH_AARCH64), -1);
	assert_int_equal(kernel_syscall_number("chmod", MACH_AARCH64), -1);
	assert_int_equal(kernel_syscall_number("renameat", MACH_AARCH64), 38);
	assert_int_equal(kernel_tables_choose("6.1.170"), 0);
	assert_string_equal(kernel_tables_version(), "6.1.192");
	assert_int_equal(kernel_syscall_number("fchmodat2", MACH_86_64), -1);
	assert_null(kernel_syscall_name(452, MACH_86_64));
	assert_int_equal(kernel_tables_choose("4.19"), -1);
	assert_string_equal(kernel_tables_version(), "6.1.192");
	assert_int_equal(kernel_tables_choose("nonsense"), -1);
	assert_string_equal(kernel_tables_versions(), "5.10, 6.1, 6.12, 7.2");
}

/*
 * Where libaudit 3.0.9 (tables of about 6.0) names a number, Linux 6.1
 * mostly names it the same: but for a few aliases (libaudit's x86_64
 * "pread" is the kernel's pread64, arm's "llseek" its _llseek), where a
 * rule naming the kernel's spelling is one auditctl 3.0.9 refuses.
 */
static void test_agrees_with_libaudit(void **state)
{
	unsigned int differ = 0;

	(void)state;
	assert_int_equal(kernel_tables_choose("6.1"), 0);
	for (size_t i = 0; i < sizeof(machines) / sizeof(machines[0]); i++) {
		unsigned int both = 0;

		for (unsigned int nr = 0; nr < 450; nr++) {
			const char *lib = audit_syscall_to_name(nr, machines[i]);
			const char *kern = kernel_syscall_name(nr, machines[i]);

			if (!lib || !kern)
				continue;
			differ += !!strcmp(lib, kern);
			both++;
		}
		assert_true(both > 250);
	}
	assert_true(differ > 0 && differ < 20);
	assert_string_equal(audit_syscall_to_name(17, MACH_86_64), "pread");
	assert_string_equal(kernel_syscall_name(17, MACH_86_64), "pread64");
	assert_int_equal(audit_name_to_syscall("pread64", MACH_86_64), -1);
}

/* The next table at or above the running kernel, else the newest. */
static void test_nearest(void **state)
{
	(void)state;
	assert_int_equal(kernel_tables_nearest("5.4.0-150-generic"), 0);
	assert_int_equal(kernel_tables_nearest("5.10.0-30-cloud-amd64"), 0);
	assert_int_equal(kernel_tables_nearest("6.1.0-47-cloud-amd64"), 1);
	assert_int_equal(kernel_tables_nearest("6.6.30"), 2);
	assert_int_equal(kernel_tables_nearest("6.18.44-fc-v1147"), 3);
	assert_int_equal(kernel_tables_nearest("8.1"), 3);
	assert_int_equal(kernel_tables_nearest("x"), -1);
}

static bool class_has(enum kernel_class_list list, int machine, const char *name)
{
	syscall_mask m = { 0 };
	int nr = kernel_syscall_number(name, machine);

	kernel_class_mask(list, machine, m);
	return nr >= 0 && mask_test(m, nr);
}

/* 6.13 put setxattrat in the attr class; 5.16 gave openat2 its own case. */
static void test_classes_by_version(void **state)
{
	(void)state;
	assert_int_equal(kernel_tables_choose("7.2"), 0);
	assert_true(class_has(KCLASS_CHATTR, MACH_86_64, "setxattrat"));
	assert_true(class_has(KCLASS_CHATTR, MACH_X86, "fchmodat2"));
	assert_true(class_has(KCLASS_CHATTR, MACH_AARCH64, "fchmodat2"));
	assert_true(class_has(KCLASS_OPENAT2, MACH_86_64, "openat2"));
	assert_false(class_has(KCLASS_CHATTR, MACH_86_64, "openat"));
	assert_int_equal(kernel_tables_choose("6.12"), 0);
	assert_false(class_has(KCLASS_CHATTR, MACH_86_64, "setxattrat"));
	assert_true(class_has(KCLASS_CHATTR, MACH_86_64, "fchmodat2"));
	assert_int_equal(kernel_tables_choose("5.10"), 0);
	assert_false(class_has(KCLASS_OPENAT2, MACH_86_64, "openat2"));
	assert_true(class_has(KCLASS_OPENAT, MACH_86_64, "openat"));
	assert_true(class_has(KCLASS_SOCKETCALL, MACH_X86, "socketcall"));
	assert_true(class_has(KCLASS_WRITE, MACH_AARCH64, "renameat"));
}

static bool has_note(const struct ruleset *rs, const char *part)
{
	for (size_t i = 0; i < rs->nnotes; i++)
		if (strstr(rs->notes[i], part))
			return true;
	return false;
}

/* A name libaudit 3.0.9 refuses: read as the kernel takes it, with a note. */
static void test_newer_names_in_rules(void **state)
{
	static const char text[] =
		"-a always,exit -F arch=b64 -S chmod,fchmodat2 -F auid>=1000 -k perm_mod\n"
		"-a always,exit -F arch=b32 -S lsm_set_self_attr -k lsm\n";
	struct rules_file_error err;
	struct ruleset rs;

	(void)state;
	assert_int_equal(kernel_tables_choose("7.2"), 0);
	assert_int_equal(rules_text_read(text, strlen(text), "t.rules", &rs, &err), 0);
	assert_int_equal(rs.n, 2);
	assert_true(mask_test(rs.rules[0].mask, 452));
	assert_true(mask_test(rs.rules[0].mask, 90)); /* x86_64 chmod */
	assert_int_equal(mask_count(rs.rules[0].mask), 2);
	assert_true(mask_test(rs.rules[1].mask, 460));
	assert_true(has_note(&rs,
			     "t.rules:1: auditctl here would refuse this line "
			     "(Syscall name unknown: fchmodat2); an auditctl that knows "
			     "fchmodat2 loads it as syscall 452 of x86_64"));
	assert_true(has_note(&rs, "t.rules:2: auditctl here would refuse this line"));
	/* auditctl here stops at such a line: left out as -i leaves it, unless kept. */
	assert_string_equal(rs.rules[0].refused_here,
			    "this machine's auditctl knows no syscall fchmodat2");
	assert_int_equal(rules_file_leave_out_refused(&rs), 0);
	assert_int_equal(rs.n, 0);
	ruleset_free(&rs);

	/* For 6.1 the number is the same, and the note says 6.1 has no such syscall. */
	assert_int_equal(kernel_tables_choose("6.1"), 0);
	assert_int_equal(rules_text_read(text, strlen(text), "t.rules", &rs, &err), 0);
	assert_true(mask_test(rs.rules[0].mask, 452));
	assert_true(has_note(&rs, "Linux 6.1.192 has no such syscall"));
	ruleset_free(&rs);

	/* A name no table knows is still refused, in auditctl's words. */
	assert_int_not_equal(
		rules_text_read("-a always,exit -S nosuchcall\n", 29, "u.rules", &rs, &err), 0);
	assert_string_equal(err.message, "Syscall name unknown: nosuchcall");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_numbers_by_version),
		cmocka_unit_test(test_agrees_with_libaudit),
		cmocka_unit_test(test_nearest),
		cmocka_unit_test(test_classes_by_version),
		cmocka_unit_test(test_newer_names_in_rules),
	};

	set_aumessage_mode(MSG_QUIET, DBG_NO);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
