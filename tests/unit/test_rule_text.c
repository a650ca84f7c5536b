// SPDX-License-Identifier: GPL-2.0
/*
 * rule_to_auditctl(): a rule written back in auditctl syntax must read
 * (rules_text_read(), auditctl's reading) into the same kernel rule, and a
 * rewrite with an arch and a narrower mask into exactly that. What the
 * kernel makes of the written files is tests/host/advise.sh's part.
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
#include "audit/rule_text.h"
#include "audit/rules_file.h"

static void read_one(const char *text, struct ruleset *rs)
{
	struct rules_file_error err;

	if (rules_text_read(text, strlen(text), "test.rules", rs, &err))
		fail_msg("cannot read '%s': %s", text, err.message);
}

static void assert_same_rule(const struct audit_rule *a, const struct audit_rule *b)
{
	assert_int_equal(a->list, b->list);
	assert_int_equal(a->action, b->action);
	assert_memory_equal(a->mask, b->mask, sizeof(a->mask));
	assert_int_equal(a->field_count, b->field_count);
	assert_memory_equal(a->fields, b->fields, a->field_count * sizeof(a->fields[0]));
	assert_int_equal(a->strings_len, b->strings_len);
	assert_memory_equal(a->strings, b->strings, a->strings_len);
}

/* Every kind of field the shipped rule sets use, and a few more. */
static const char *const lines[] = {
	"-a always,exit -F arch=b64 -S openat,getpid -F uid=1000 -F auid!=unset -k a",
	"-a always,exit -F arch=b32 -S chmod,fchmod,fchmodat -F auid>=1000 -F auid!=-1 -k b -k c",
	"-a always,exit -F dir=/etc/selinux/ -F perm=wa -F key=MAC-policy",
	"-w /etc/passwd -p wa -k identity",
	"-a always,exit -F arch=b64 -S mkdir -C uid!=euid -F exit=-EACCES -k d",
	"-a always,exit -F arch=b64 -S openat -F filetype=file -F success=0",
	"-a always,exit -F arch=b64 -S kill -F a1=9 -F a0=0xffffffff -F pid!=1",
	"-a never,exit -F arch=b64 -S getpid -F gid=5 -F euid=0",
	"-a always,exit -F arch=b64 -S 452,openat -F exe=/usr/bin/x -k e",
	"-a always,exit -F arch=b64 -S all -F path=/usr/bin/passwd -F perm=x -F auid>=1000",
	"-a never,exclude -F msgtype=1300",
	"-a always,exit -F arch=b64 -S clock_settime -F a0=0x0 -F key=time-change",
	"-a always,exit -F arch!=b32 -S all -F ppid=1",
	"-a always,exit -F arch=b32 -S open,fstat -F key=x",
	"-a always,exit -F arch=b64 -S 2037,2036 -F uid=3",
	"-a always,exclude -F msgtype=CWD",
	"-a always,exit -F arch=b64 -S 2047 -F a2!=0x80000000",
};

static void test_roundtrip(void **state)
{
	char buf[6144];

	(void)state;
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		struct ruleset a, b;

		read_one(lines[i], &a);
		assert_int_equal(a.n, 1);
		assert_int_equal(rule_to_auditctl(&a.rules[0], 0, NULL, buf, sizeof(buf)), 0);
		/* What every report prints is the line a rules file gets. */
		assert_string_equal(a.rules[0].text, buf);
		read_one(buf, &b);
		assert_int_equal(b.n, 1);
		assert_same_rule(&a.rules[0], &b.rules[0]);
		ruleset_free(&a);
		ruleset_free(&b);
	}
}

/* A rewrite: arch= written first, the given mask as -S, the fields as they were. */
static void test_rewrite(void **state)
{
	struct ruleset a, b;
	syscall_mask m = { 0 };
	char buf[6144];
	int i386 = audit_name_to_machine("i386");

	(void)state;
	read_one("-a always,exit -F dir=/tmp/x -F perm=wa -k k", &a);
	mask_set(m, audit_name_to_syscall("chmod", i386));
	mask_set(m, audit_name_to_syscall("openat", i386));
	mask_set(m, 452); /* fchmodat2, which libaudit 3.0.9 cannot name */
	assert_int_equal(rule_to_auditctl(&a.rules[0], AUDIT_ARCH_I386, m, buf, sizeof(buf)), 0);
	/* b32 where it reads back as i386 (an x86_64 machine), else the name. */
	assert_true(strstr(buf, "-F arch=b32 -S ") || strstr(buf, "-F arch=i386 -S "));
	read_one(buf, &b);
	assert_memory_equal(b.rules[0].mask, m, sizeof(m));
	assert_int_equal(b.rules[0].field_count, a.rules[0].field_count + 1);
	assert_int_equal(b.rules[0].fields[0].type, AUDIT_ARCH);
	assert_int_equal(b.rules[0].fields[0].value, AUDIT_ARCH_I386);
	assert_memory_equal(&b.rules[0].fields[1], &a.rules[0].fields[0],
			    a.rules[0].field_count * sizeof(a.rules[0].fields[0]));
	ruleset_free(&a);
	ruleset_free(&b);
}

/* What a rules file cannot hold is refused, not written wrong. */
static void test_limits(void **state)
{
	struct ruleset a;
	char small[16];

	(void)state;
	read_one("-a always,exit -F arch=b64 -S openat -F uid=1 -k abc", &a);
	assert_int_equal(rule_to_auditctl(&a.rules[0], 0, NULL, small, sizeof(small)), -ENOSPC);
	ruleset_free(&a);
}

/* auditctl -l's form: arch before -S, -F key= for each key, -C, names of the rule's arch. */
static void test_listing_form(void **state)
{
	struct ruleset a;

	(void)state;
	read_one("-a always,exit -F arch=b64 -S setuid -C uid!=euid -k a -k b", &a);
	assert_non_null(strstr(a.rules[0].text, " -S setuid -C uid!=euid -F key=a -F key=b"));
	assert_non_null(strstr(a.rules[0].text, "-a always,exit -F arch="));
	ruleset_free(&a);
	read_one("-a always,exit -F arch=i386 -S open", &a);
	/* i386's open is x86_64's fstat (5): named from the rule's own table. */
	assert_non_null(strstr(a.rules[0].text, " -S open"));
	assert_null(strstr(a.rules[0].text, "fstat"));
	ruleset_free(&a);
	read_one("-a always,exit -F arch=b64 -S 452", &a);
	assert_non_null(strstr(a.rules[0].text, " -S 452"));
	ruleset_free(&a);
}

/* What a rules file cannot say is still shown in reports, as auditctl -l would. */
static void test_listing_unreadable(void **state)
{
	struct ruleset a;
	char buf[512];

	(void)state;
	read_one("-a always,exit -F arch=b64 -S openat -F exe=/usr/bin/x -k k", &a);
	/* A path with a space: -F takes no quoting. */
	memcpy(strstr(a.rules[0].strings, "/usr/bin/x") + 4, " ", 1);
	assert_int_equal(rule_to_auditctl(&a.rules[0], 0, NULL, buf, sizeof(buf)), -EINVAL);
	free(a.rules[0].text);
	a.rules[0].text = rule_listing(&a.rules[0]);
	assert_non_null(strstr(a.rules[0].text, "-F exe=/usr bin/x -F key=k"));
	ruleset_free(&a);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_rewrite),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_listing_form),
		cmocka_unit_test(test_listing_unreadable),
	};

	set_aumessage_mode(MSG_QUIET, DBG_NO);
	return unit_main(argc, argv, "tests", tests, NULL, NULL);
}
