// SPDX-License-Identifier: GPL-2.0
/*
 * The calibration file: what calibration_save() writes calibration_load()
 * reads back unchanged; a missing file is -ENOENT and anything that is not a
 * calibration is -EINVAL, so the loader can tell "never calibrated" from
 * "file damaged". calibrate_run() itself changes the machine's audit rules
 * and is exercised by bench/reproduce.sh, not here.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <errno.h>
#include <dirent.h>
#include <unistd.h>
#include "calibrate.h"

static char dir[] = "/tmp/test_calibration.XXXXXX";

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[64];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* In a static buffer: copy it before the next call. */
static const char *path_of(const char *name)
{
	static char path[256];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return path;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
}

static struct calibration sample(void)
{
	struct calibration c = {
		.ns_per_entry = 3.25,
		.ns_context = 161.5,
		.rules_used = 64,
		.kernel = "6.18.44-test",
		.when = 1796000000LL,
		.npoints = 3,
		.points = { { 0, 140.0 }, { 1, 305.0 }, { 64, 509.75 } },
	};

	return c;
}

static void test_round_trip(void **state)
{
	struct calibration in = sample(), out;
	char path[256];

	snprintf(path, sizeof(path), "%s", path_of("sub/calibration.json"));

	(void)state;
	/* The directory is created, as /var/lib/auditskip must be on first use. */
	assert_int_equal(calibration_save(path, &in), 0);
	memset(&out, 0xa5, sizeof(out));
	assert_int_equal(calibration_load(path, &out), 0);
	assert_true(out.ns_per_entry == in.ns_per_entry);
	assert_true(out.ns_context == in.ns_context);
	assert_int_equal(out.rules_used, in.rules_used);
	assert_string_equal(out.kernel, in.kernel);
	assert_true(out.when == in.when);
	assert_int_equal(out.npoints, in.npoints);
	for (int i = 0; i < in.npoints; i++) {
		assert_int_equal(out.points[i].rules, in.points[i].rules);
		assert_true(out.points[i].ns == in.points[i].ns);
	}
	/* No temporary file left next to it. */
	{
		DIR *d = opendir(path_of("sub"));
		struct dirent *e;
		int files = 0;

		assert_non_null(d);
		while ((e = readdir(d)))
			files += e->d_name[0] != '.';
		closedir(d);
		assert_int_equal(files, 1);
	}

	/* Saving again replaces the file. */
	in.ns_per_entry = 0.5;
	in.npoints = 0;
	assert_int_equal(calibration_save(path, &in), 0);
	assert_int_equal(calibration_load(path, &out), 0);
	assert_true(out.ns_per_entry == 0.5);
	assert_int_equal(out.npoints, 0);
}

static void test_missing(void **state)
{
	struct calibration out = sample();

	(void)state;
	assert_int_equal(calibration_load(path_of("nothing-here.json"), &out), -ENOENT);
	/* Left alone on failure. */
	assert_true(out.ns_per_entry == 3.25);
}

static void test_corrupt(void **state)
{
	static const char *const bad[] = {
		"",
		"not json at all",
		"{\"schema\":1,\"ns_per_entry\":3.2",	/* cut short */
		"[1,2,3]",
		"{\"schema\":1,\"ns_context\":0,\"rules_used\":64,\"kernel\":\"k\",\"when\":1}",
		"{\"schema\":2,\"ns_per_entry\":3,\"ns_context\":0,\"rules_used\":64,\"kernel\":\"k\",\"when\":1}",
		"{\"schema\":1,\"ns_per_entry\":\"3\",\"ns_context\":0,\"rules_used\":64,\"kernel\":\"k\",\"when\":1}",
		"{\"schema\":1,\"ns_per_entry\":-1,\"ns_context\":0,\"rules_used\":64,\"kernel\":\"k\",\"when\":1}",
		"{\"schema\":1,\"ns_per_entry\":3,\"ns_context\":0,\"rules_used\":0,\"kernel\":\"k\",\"when\":1}",
		"{\"schema\":1,\"ns_per_entry\":3,\"ns_context\":0,\"rules_used\":64,\"kernel\":7,\"when\":1}",
		"{\"schema\":1,\"ns_per_entry\":3,\"ns_context\":0,\"rules_used\":64,\"kernel\":\"k\",\"when\":1,\"points\":{}}",
		"{\"schema\":1,\"ns_per_entry\":3,\"ns_context\":0,\"rules_used\":64,\"kernel\":\"k\",\"when\":1} trailing",
	};
	struct calibration good = sample(), out;
	char path[256];

	snprintf(path, sizeof(path), "%s", path_of("corrupt.json"));

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		write_file(path, bad[i]);
		out = good;
		if (calibration_load(path, &out) != -EINVAL)
			fail_msg("accepted as a calibration: '%s'", bad[i]);
		assert_true(out.ns_per_entry == good.ns_per_entry);
	}

	/* A valid file with one byte damaged in the middle. */
	assert_int_equal(calibration_save(path, &good), 0);
	{
		FILE *f = fopen(path, "r+");

		assert_non_null(f);
		assert_int_equal(fseek(f, 10, SEEK_SET), 0);
		assert_int_equal(fputc('}', f), '}');
		assert_int_equal(fclose(f), 0);
	}
	assert_int_equal(calibration_load(path, &out), -EINVAL);

	/* A kernel name too long for the struct. */
	{
		char text[512];

		snprintf(text, sizeof(text),
			 "{\"schema\":1,\"ns_per_entry\":3,\"ns_context\":0,\"rules_used\":64,"
			 "\"kernel\":\"%0200d\",\"when\":1}", 0);
		write_file(path, text);
		assert_int_equal(calibration_load(path, &out), -EINVAL);
	}
}

static void test_default_path(void **state)
{
	(void)state;
	assert_string_equal(calibration_default_path(), "/var/lib/auditskip/calibration.json");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_missing),
		cmocka_unit_test(test_corrupt),
		cmocka_unit_test(test_default_path),
	};

	return cmocka_run_group_tests_name("calibration", tests, setup, teardown);
}
