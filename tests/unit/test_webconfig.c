// SPDX-License-Identifier: GPL-2.0
/*
 * The web configuration parser (outside input) and the basic-auth check:
 * what the exporter toolkit's documented files give, every refusal with its
 * line, inputs no file should hold (NUL bytes, aliases, deep nesting, a
 * second document), and passwords against real bcrypt hashes made here.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <crypt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "unit_main.h"
#include <errno.h>
#include "http/basic_auth.h"
#include "http/webconfig.h"

static char err[512];

static int parse(const char *text, struct web_config *wc)
{
	err[0] = '\0';
	return webconfig_parse(text, strlen(text), wc, err, sizeof(err));
}

/* A bcrypt hash of PASSWORD at the cheapest cost, as htpasswd -B would make it with PREFIX. */
static char *hash_of(const char *password, const char *prefix)
{
	struct crypt_data cd = { 0 };
	const char *salt = crypt_gensalt_rn("$2b$", 4, NULL, 0, cd.setting, sizeof(cd.setting));
	char *h = strdup(crypt_r(password, salt, &cd));

	memcpy(h, prefix, 4);
	return h;
}

static void refused(const char *text, const char *want)
{
	struct web_config wc;

	assert_int_equal(parse(text, &wc), -EINVAL);
	if (!strstr(err, want))
		fail_msg("message '%s' lacks '%s'", err, want);
	/* Nothing to free on failure. */
	assert_null(wc.cert_file);
	assert_null(wc.users);
}

static void test_toolkit_example(void **state)
{
	char *h = hash_of("secret", "$2y$");
	char *text;
	struct web_config wc;

	(void)state;
	assert_true(asprintf(&text,
			     "# a comment\n"
			     "tls_server_config:\n"
			     "  cert_file: server.crt\n"
			     "  key_file: \"/etc/auditskip/server.key\"\n"
			     "basic_auth_users:\n"
			     "  alice: %s\n"
			     "  'bob': '%s'\n",
			     h, h) > 0);
	assert_int_equal(parse(text, &wc), 0);
	assert_string_equal(wc.cert_file, "server.crt");
	assert_string_equal(wc.key_file, "/etc/auditskip/server.key");
	assert_int_equal(wc.nusers, 2);
	assert_string_equal(wc.users[0].name, "alice");
	assert_string_equal(wc.users[1].name, "bob");
	assert_string_equal(wc.users[1].hash, h);
	webconfig_free(&wc);
	free(text);
	free(h);
}

static void test_empty_and_null(void **state)
{
	struct web_config wc;

	(void)state;
	assert_int_equal(parse("", &wc), 0);
	assert_null(wc.cert_file);
	assert_int_equal(wc.nusers, 0);
	assert_int_equal(parse("# nothing\n", &wc), 0);
	assert_int_equal(parse("tls_server_config:\nbasic_auth_users: ~\n", &wc), 0);
	assert_null(wc.cert_file);
	assert_int_equal(wc.nusers, 0);
}

static void test_refusals_name_the_line(void **state)
{
	(void)state;
	refused("tls_server_config:\n  cert_file: [a\n",
		"line 3: did not find expected ',' or ']'");
	refused("a: b\n", "line 1: unknown key 'a'");
	refused("\n\ntls_server_config:\n  cert_file: x\n", "line 3: tls_server_config needs both");
	refused("tls_server_config:\n  key_file: k\n  min_version: TLS13\n",
		"line 3: tls_server_config: min_version is not supported");
	refused("tls_server_config:\n  cert_file: a\n  cert_file: b\n",
		"line 3: tls_server_config: 'cert_file' given twice");
	refused("tls_server_config:\n  cert_file: [a, b]\n  key_file: k\n",
		"line 2: cert_file: expected a string");
	refused("tls_server_config: yes\n", "line 1: tls_server_config: expected a mapping");
	refused("basic_auth_users:\n  u: plain\n",
		"line 2: basic_auth_users: u: not a bcrypt hash");
	refused("basic_auth_users:\n  u: $1$saltsalt$abcdefghijklmnopqrstuv\n",
		"not a bcrypt hash");
	refused("basic_auth_users:\n  \"\": x\n", "line 2: basic_auth_users: a user name must be");
	refused("basic_auth_users:\n  a:b: x\n", "a user name must be non-empty, without ':'");
	refused("[1, 2]\n", "line 1: the file: expected a mapping");
	refused("? [a]\n: b\n", "line 1: the file: keys must be strings");
	refused("http_server_config:\n  http2: false\n", "http_server_config is not supported");
}

static void test_hostile_inputs(void **state)
{
	static const char nul[] = "tls_server_config:\n  cert_file: \"a\\0b\"\n  key_file: k\n";
	char deep[4096];
	struct web_config wc;
	size_t n = 0;

	(void)state;
	refused(nul, "line 2: cert_file: contains a NUL byte");
	/* A raw NUL byte in the input is not YAML. */
	assert_int_equal(webconfig_parse("a: b\0c: d\n", 10, &wc, err, sizeof(err)), -EINVAL);
	/* Aliases resolve to the same node: a mapping where a string belongs. */
	refused("x: &a {k: v}\ntls_server_config:\n  cert_file: *a\n  key_file: k\n",
		"unknown key 'x'");
	refused("tls_server_config: &t\n  cert_file: c\n  key_file: *t\n", "expected a string");
	for (int i = 0; i < 1000 && n < sizeof(deep) - 4; i++)
		deep[n++] = '[';
	deep[n] = '\0';
	assert_int_equal(parse(deep, &wc), -EINVAL);
	/* A second document is not read. */
	assert_int_equal(parse("---\n---\nnot: read\n", &wc), 0);
	/* Bytes that are no text at all. */
	assert_int_equal(webconfig_parse("\xff\xfe\x00", 3, &wc, err, sizeof(err)), -EINVAL);
}

static void test_basic_auth(void **state)
{
	char *hb = hash_of("right", "$2b$"), *hy = hash_of("other", "$2y$");
	struct web_user users[] = { { "alice", hb }, { "bob", hy } };
	struct web_config wc = { .users = users, .nusers = 2 };
	struct basic_auth *a = basic_auth_new(&wc);

	(void)state;
	assert_non_null(a);
	assert_true(basic_auth_check(a, "alice", "right"));
	/* Remembered now: the same again, and a wrong one is still wrong. */
	assert_true(basic_auth_check(a, "alice", "right"));
	assert_false(basic_auth_check(a, "alice", "righ"));
	assert_false(basic_auth_check(a, "alice", "rightt"));
	assert_false(basic_auth_check(a, "alice", ""));
	assert_false(basic_auth_check(a, "bob", "right"));
	assert_true(basic_auth_check(a, "bob", "other"));
	assert_false(basic_auth_check(a, "carol", "right"));
	assert_false(basic_auth_check(a, "", ""));
	basic_auth_free(a);
	free(hb);
	free(hy);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_toolkit_example),
		cmocka_unit_test(test_empty_and_null),
		cmocka_unit_test(test_refusals_name_the_line),
		cmocka_unit_test(test_hostile_inputs),
		cmocka_unit_test(test_basic_auth),
	};

	return unit_main(argc, argv, "tests", tests, NULL, NULL);
}
