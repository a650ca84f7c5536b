// SPDX-License-Identifier: GPL-2.0
/*
 * Rules files that are not what their writer meant: empty ones, CRLF line
 * endings, a byte order mark, binary bytes, a line longer than auditctl
 * reads. Each is refused or noted in words that echo no control byte.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>
#include <errno.h>
#include <libaudit.h>
#include "audit/rules_file.h"
#include "model/prediction.h"
#include "model/profile.h"

static char dir[] = "/tmp/test_bad_input.XXXXXX";

static const char *write_file(const char *name, const char *text, size_t len)
{
	static char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	fclose(f);
	return path;
}

static void assert_no_control(const char *s)
{
	for (; *s; s++)
		assert_true((unsigned char)*s >= 0x20 && *s != 0x7f);
}

static void test_empty(void **state)
{
	struct rules_file_error err;
	struct ruleset rs;
	char msg[512];

	(void)state;
	snprintf(msg, sizeof(msg),
		 "no rule in %s/empty.rules: the file is empty or holds only comments", dir);
	assert_int_equal(rules_file_read(write_file("empty.rules", "", 0), &rs, &err), -ENODATA);
	assert_string_equal(err.message, msg);
	ruleset_free(&rs);
	snprintf(msg, sizeof(msg),
		 "no rule in %s/empty.rules: the file is empty or holds only comments", dir);
	assert_int_equal(rules_file_read(write_file("empty.rules", "# c\n\n   \n", 10), &rs, &err),
			 -ENODATA);
	assert_string_equal(err.message, msg);
	ruleset_free(&rs);
	snprintf(msg, sizeof(msg), "%s/sub", dir);
	assert_int_equal(mkdir(msg, 0700), 0);
	assert_int_equal(rules_file_read(msg, &rs, &err), -ENODATA);
	assert_non_null(strstr(err.message, "no file in it ends in .rules"));
	ruleset_free(&rs);
	rmdir(msg);
}

static void test_crlf_noted(void **state)
{
	static const char text[] =
		"-a always,exit -F arch=b64 -S openat -k k\r\n"
		"-a always,exit -F arch=b64 -S getpid -k k\r\n";
	struct rules_file_error err;
	struct ruleset rs;

	(void)state;
	assert_int_equal(rules_file_read(write_file("crlf.rules", text, strlen(text)), &rs, &err),
			 0);
	/* One note for the file, the CRLF one last (before it: the file is not root's). */
	assert_true(rs.nnotes >= 1);
	assert_non_null(strstr(rs.notes[rs.nnotes - 1], "ends in \\r (CRLF line endings?)"));
	for (size_t i = 0; i + 1 < rs.nnotes; i++)
		assert_null(strstr(rs.notes[i], "CRLF"));
	assert_no_control(rs.notes[rs.nnotes - 1]);
	ruleset_free(&rs);
}

static void test_bom_and_binary(void **state)
{
	static const char bom[] = "\xef\xbb\xbf-a always,exit -F arch=b64 -S openat\n";
	static const char bin[] = "-a always,exit -F arch=b64 -S openat\n\x01\x02\r\n";
	struct rules_file_error err;
	struct ruleset rs;

	(void)state;
	assert_int_equal(rules_file_read(write_file("bom.rules", bom, strlen(bom)), &rs, &err),
			 -EINVAL);
	assert_non_null(strstr(err.message, "UTF-8 byte order mark"));
	ruleset_free(&rs);
	assert_int_equal(rules_file_read(write_file("bin.rules", bin, strlen(bin)), &rs, &err),
			 -EINVAL);
	assert_int_equal(err.line, 2);
	assert_string_equal(
		err.message,
		"'\\x01\\x02\\r' is not an option (binary file? it holds control bytes)");
	ruleset_free(&rs);
}

static void test_long_line(void **state)
{
	size_t len = 7000;
	char *text = malloc(len + 1);
	struct rules_file_error err;
	struct ruleset rs;

	(void)state;
	assert_non_null(text);
	memset(text, ' ', len);
	memcpy(text + 6500, "-Z", 2); /* the second line auditctl reads */
	text[len - 1] = '\n';
	assert_int_equal(rules_file_read(write_file("long.rules", text, len), &rs, &err), -EINVAL);
	assert_int_equal(err.line, 2);
	assert_non_null(strstr(err.message, "longer than auditctl's limit of 6143 bytes"));
	ruleset_free(&rs);
	free(text);
}

/* A file that ends with -e 0 leaves audit off: no walk is predicted, whatever it holds. */
static void test_disabled_predicts_no_walk(void **state)
{
	static const char on[] = "-a always,exit -F arch=b64 -S openat\n";
	static const char off[] = "-e 0\n-a always,exit -F arch=b64 -S openat\n";
	struct profile *p = calloc(1, sizeof(*p));
	struct rules_file_error err;
	struct prediction pred;
	struct ruleset rs;

	(void)state;
	assert_non_null(p);
	p->calls[20] = 1000; /* a syscall the rule does not name: its walks are skippable */
	assert_int_equal(rules_file_read(write_file("on.rules", on, strlen(on)), &rs, &err), 0);
	assert_int_equal(prediction_make(&rs, p, NULL, &pred), 0);
	assert_true(pred.walks_at_all);
	assert_int_equal(pred.total.walks, 1000);
	prediction_free(&pred);
	ruleset_free(&rs);
	assert_int_equal(rules_file_read(write_file("off.rules", off, strlen(off)), &rs, &err), 0);
	assert_int_equal(prediction_make(&rs, p, NULL, &pred), 0);
	assert_true(pred.audit_disabled);
	assert_false(pred.walks_at_all);
	assert_int_equal(pred.total.walks, 0);
	prediction_free(&pred);
	ruleset_free(&rs);
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_crlf_noted),
		cmocka_unit_test(test_bom_and_binary),
		cmocka_unit_test(test_long_line),
		cmocka_unit_test(test_disabled_predicts_no_walk),
	};
	char cmd[300];
	int ret;

	set_aumessage_mode(MSG_QUIET, DBG_NO);
	assert_non_null(mkdtemp(dir));
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		ret = 1;
	return ret;
}
