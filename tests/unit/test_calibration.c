// SPDX-License-Identifier: GPL-2.0
/*
 * The time model every "time saved" figure rests on: the latency curve
 * through the measured points and its extensions, against values worked out
 * by hand from small point sets (chosen so that every step is exact in
 * binary floating point).
 *
 * The calibration file: what calibration_save() writes calibration_load()
 * reads back unchanged; a missing file is -ENOENT and anything that is not a
 * calibration is -EINVAL, so the loader can tell "never calibrated" from
 * "file damaged". calibrate_run_on_cpu() itself changes the machine's audit
 * rules and is exercised by `auditskip calibrate` and bench/reproduce.sh.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>
#include "unit_main.h"
#include <errno.h>
#include <dirent.h>
#include <unistd.h>
#include "model/calibration.h"

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
		.ns_empty_walk = 301.5,
		.ns_walk_call = 21.25,
		.walk_call_timed = true,
		.rules_used = 64,
		.kernel = "6.18.44-test",
		.when = 1796000000LL,
		.npoints = 3,
		.points = { { 0, 140.0 }, { 1, 305.0 }, { 64, 509.75 } },
		/* Measured kinds keep their price, unmeasured ones stay so; noise may go below 0.
		 */
		.ns_eval = { [EVAL_UID] = 18.5, [EVAL_DIR] = -0.25, [EVAL_MATCH] = 30.75 },
		.eval_measured = { [EVAL_UID] = true, [EVAL_DIR] = true, [EVAL_MATCH] = true },
		.counting_mode = "tracepoint",
		.ns_counting = 77.5,
	};

	return c;
}

/* Exact comparison, printing both values when they differ. */
#define assert_ns(got, want)                                                 \
	do {                                                                 \
		double g_ = (got), w_ = (want);                              \
		if (g_ != w_)                                                \
			fail_msg("%s: got %.17g, want %.17g", #got, g_, w_); \
	} while (0)

/*
 * 0 rules 100 ns (dummy context), then 1:200 16:260 32:340 48:420 64:590.
 * Segments: 1-16 slope 60/15 = 4, 16-32 and 32-48 slope 5, 48-64 slope
 * 170/16 = 10.625.
 */
static struct calibration curve(void)
{
	struct calibration c = {
		.ns_per_entry = 99, /* must not be used while there are points */
		.npoints = 6,
		.points = { { 0, 100 },
			    { 1, 200 },
			    { 16, 260 },
			    { 32, 340 },
			    { 48, 420 },
			    { 64, 590 } },
	};

	return c;
}

static void test_latency_at_points(void **state)
{
	struct calibration c = curve();

	(void)state;
	assert_ns(calibration_latency_at(&c, 1), 200);
	assert_ns(calibration_latency_at(&c, 16), 260);
	assert_ns(calibration_latency_at(&c, 32), 340);
	assert_ns(calibration_latency_at(&c, 48), 420);
	assert_ns(calibration_latency_at(&c, 64), 590);
}

static void test_latency_between_points(void **state)
{
	struct calibration c = curve();

	(void)state;
	assert_ns(calibration_latency_at(&c, 8), 200 + 7 * 4);	     /* 228 */
	assert_ns(calibration_latency_at(&c, 40), 340 + 8 * 5);	     /* 380 */
	assert_ns(calibration_latency_at(&c, 56), 420 + 8 * 10.625); /* 505 */
	assert_ns(calibration_latency_at(&c, 16.5), 260 + 0.5 * 5);  /* 262.5 */
}

/*
 * Below the first point with rules: along the first segment, not towards
 * the 0-rule point (a dummy context, which walks nothing).
 */
static void test_latency_below_first(void **state)
{
	struct calibration c = curve();

	(void)state;
	assert_ns(calibration_latency_at(&c, 0), 200 - 4);	   /* 196 */
	assert_ns(calibration_latency_at(&c, 0.5), 200 - 0.5 * 4); /* 198 */
}

/*
 * Past the last point: the least-squares slope of the upper half, the
 * points from 64 / 2 = 32 rules on: (32,340) (48,420) (64,590), means
 * 48 and 450, sxx = 256 + 0 + 256 = 512, sxy = -16 * -110 + 16 * 140 =
 * 4000, slope 7.8125. Neither the last segment (10.625) nor the fit over
 * every point with rules.
 */
static void test_latency_past_last(void **state)
{
	struct calibration c = curve();

	(void)state;
	assert_ns(calibration_latency_at(&c, 80), 590 + 16 * 7.8125);  /* 715 */
	assert_ns(calibration_latency_at(&c, 128), 590 + 64 * 7.8125); /* 1090 */
	assert_ns(calibration_latency_at(&c, 65), 590 + 7.8125);
}

/* The upper half always keeps two points: here only the last is past 100 / 2. */
static void test_latency_past_last_two_points(void **state)
{
	struct calibration c = {
		.npoints = 4,
		.points = { { 1, 100 }, { 2, 104 }, { 4, 108 }, { 100, 492 } },
	};

	(void)state;
	/* The fit of (4,108) (100,492): 384 / 96 = 4. */
	assert_ns(calibration_latency_at(&c, 150), 492 + 50 * 4); /* 692 */
	/* Two points with rules and nothing else: the one segment, both ways. */
	c.npoints = 2;
	c.points[1] = (struct calibration_point){ 9, 240 };
	assert_ns(calibration_latency_at(&c, 5), 100 + 4 * 17.5);  /* 170 */
	assert_ns(calibration_latency_at(&c, 13), 240 + 4 * 17.5); /* 310 */
	assert_ns(calibration_latency_at(&c, 0), 100 - 17.5);
}

/*
 * A measured empty walk (a non-dummy context, no exit rule) anchors the
 * curve at 0: below the first point the curve runs towards it, not along
 * the first segment, and a walk saves the latency above it.
 */
static void test_latency_empty_walk(void **state)
{
	struct calibration c = curve();

	(void)state;
	c.ns_empty_walk = 190;
	assert_ns(calibration_latency_at(&c, 0), 190);
	assert_ns(calibration_latency_at(&c, 0.5), 195);
	assert_ns(calibration_latency_at(&c, 8), 228);
	assert_ns(calibration_latency_at(&c, 80), 715);
	assert_ns(calibration_walk_ns(&c, 1), 10);
	assert_ns(calibration_walk_ns(&c, 16), 70);
	/* With one point of rules the slope alone, as without the anchor. */
	c.npoints = 2;
	c.ns_per_entry = 3.25;
	assert_ns(calibration_latency_at(&c, 10), 32.5);
}

/* Under two points with rules there is no curve: the slope alone. */
static void test_latency_one_point(void **state)
{
	struct calibration c = {
		.ns_per_entry = 3.25,
		.npoints = 2,
		.points = { { 0, 140 }, { 1, 305 } },
	};

	(void)state;
	assert_ns(calibration_latency_at(&c, 10), 32.5);
	assert_ns(calibration_latency_at(&c, 0), 0);
	c.npoints = 1;
	c.points[0] = (struct calibration_point){ 1, 305 };
	assert_ns(calibration_latency_at(&c, 10), 32.5);
	c.npoints = 0; /* no file: the series' slope */
	assert_ns(calibration_latency_at(&c, 10), 32.5);
}

/* Latency at `entries` less latency at 0, never negative, 0 for no entries. */
/* A point above a longer list's is noise: the curve never falls. */
static void test_latency_never_falls(void **state)
{
	struct calibration c = {
		.ns_per_entry = 2,
		.ns_empty_walk = 500,
		.npoints = 3,
		.points = { { 1, 580 }, { 16, 540 }, { 64, 700 } },
	};

	(void)state;
	assert_ns(calibration_latency_at(&c, 1), 540);
	assert_ns(calibration_latency_at(&c, 16), 540);
	assert_ns(calibration_latency_at(&c, 0), 500);
	assert_ns(calibration_latency_at(&c, 40), 620);
}

static void test_walk_ns(void **state)
{
	struct calibration c = curve();
	struct calibration falling = {
		.npoints = 2,
		.points = { { 1, 300 }, { 16, 240 } },
	};
	struct calibration slope = { .ns_per_entry = 2.5 };

	(void)state;
	assert_ns(calibration_walk_ns(&c, 16), 260 - 196);  /* 64 */
	assert_ns(calibration_walk_ns(&c, 8), 228 - 196);   /* 32 */
	assert_ns(calibration_walk_ns(&c, 56), 505 - 196);  /* 309 */
	assert_ns(calibration_walk_ns(&c, 80), 715 - 196);  /* 519 */
	assert_ns(calibration_walk_ns(&c, 0.5), 198 - 196); /* 2 */
	assert_ns(calibration_walk_ns(&c, 0), 0);
	assert_ns(calibration_walk_ns(&c, -3), 0);
	/* A falling curve (noise) saves nothing rather than a negative time. */
	assert_ns(calibration_walk_ns(&falling, 8), 0);
	/* Without points: entries times the slope. */
	assert_ns(calibration_walk_ns(&slope, 12), 30);
	/* The timed call the patch skips comes on top, also with nothing to walk. */
	c.ns_walk_call = 47;
	assert_ns(calibration_walk_ns(&c, 16), 260 - 196 + 47);
	assert_ns(calibration_walk_ns(&c, 0), 47);
	falling.ns_walk_call = 47;
	assert_ns(calibration_walk_ns(&falling, 8), 47);
}

/* ns_per_entry: least squares over the points with rules >= 1. */
static void test_fit_slope(void **state)
{
	/* (1,100) (2,103) (3,109): means 2 and 104, sxx 2, sxy 4 + 5 = 9. */
	struct calibration_point p[] = { { 0, 1000 }, { 1, 100 }, { 2, 103 }, { 3, 109 } };

	(void)state;
	assert_ns(calibration_fit_slope(p, 4), 4.5);
	assert_ns(calibration_fit_slope(p, 2), 0); /* one point with rules */
	assert_ns(calibration_fit_slope(p, 0), 0);
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
	assert_true(out.ns_empty_walk == in.ns_empty_walk);
	assert_true(out.ns_walk_call == in.ns_walk_call);
	assert_true(out.walk_call_timed);
	assert_int_equal(out.rules_used, in.rules_used);
	assert_string_equal(out.kernel, in.kernel);
	assert_true(out.when == in.when);
	assert_int_equal(out.npoints, in.npoints);
	for (int i = 0; i < in.npoints; i++) {
		assert_int_equal(out.points[i].rules, in.points[i].rules);
		assert_true(out.points[i].ns == in.points[i].ns);
	}
	for (int k = 0; k < NR_EVAL_KINDS; k++) {
		assert_int_equal(out.eval_measured[k], in.eval_measured[k]);
		if (in.eval_measured[k])
			assert_true(out.ns_eval[k] == in.ns_eval[k]);
	}
	assert_string_equal(out.counting_mode, "tracepoint");
	assert_true(out.ns_counting == in.ns_counting);
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
		"{\"schema\":1,\"ns_per_entry\":3.2", /* cut short */
		"[1,2,3]",
		"{\"schema\":1,\"ns_context\":0,\"rules_used\":64,\"kernel\":\"k\",\"when\":1}",
		"{\"schema\":2,\"ns_per_entry\":3,\"ns_context\":0,\"rules_used\":64,\"kernel\":\"k\",\"when\":1}",
		"{\"schema\":1,\"ns_per_entry\":\"3\",\"ns_context\":0,\"rules_used\":64,\"kernel\":\"k\",\"when\":1}",
		"{\"schema\":1,\"ns_per_entry\":-1,\"ns_context\":0,\"rules_used\":64,\"kernel\":\"k\",\"when\":1}",
		"{\"schema\":1,\"ns_per_entry\":3,\"ns_context\":0,\"rules_used\":0,\"kernel\":\"k\",\"when\":1}",
		"{\"schema\":1,\"ns_per_entry\":3,\"ns_context\":0,\"rules_used\":64,\"kernel\":7,\"when\":1}",
		"{\"schema\":1,\"ns_per_entry\":3,\"ns_context\":0,\"rules_used\":64,\"kernel\":\"k\",\"when\":1,\"points\":{}}",
		"{\"schema\":1,\"ns_per_entry\":3,\"ns_context\":0,\"rules_used\":64,\"kernel\":\"k\",\"when\":1} trailing",
		/* An evaluation kind this auditskip does not know, a price that is no number. */
		"{\"schema\":1,\"ns_per_entry\":3,\"ns_context\":0,\"rules_used\":64,\"kernel\":\"k\",\"when\":1,\"evaluation_ns\":{\"selinux\":4}}",
		"{\"schema\":1,\"ns_per_entry\":3,\"ns_context\":0,\"rules_used\":64,\"kernel\":\"k\",\"when\":1,\"evaluation_ns\":{\"uid\":\"4\"}}",
		"{\"schema\":1,\"ns_per_entry\":3,\"ns_context\":0,\"rules_used\":64,\"kernel\":\"k\",\"when\":1,\"evaluation_ns\":[4]}",
		/* What counting adds: a mode and a number, both there. */
		"{\"schema\":1,\"ns_per_entry\":3,\"ns_context\":0,\"rules_used\":64,\"kernel\":\"k\",\"when\":1,\"counting\":{\"ns_added\":4}}",
		"{\"schema\":1,\"ns_per_entry\":3,\"ns_context\":0,\"rules_used\":64,\"kernel\":\"k\",\"when\":1,\"counting\":{\"mode\":\"tracepoint\"}}",
		"{\"schema\":1,\"ns_per_entry\":3,\"ns_context\":0,\"rules_used\":64,\"kernel\":\"k\",\"when\":1,\"counting\":{\"mode\":\"\",\"ns_added\":4}}",
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
			 "\"kernel\":\"%0200d\",\"when\":1}",
			 0);
		write_file(path, text);
		assert_int_equal(calibration_load(path, &out), -EINVAL);
	}
}

/* Counting's price applies to a count in the mode it was measured in, and only above noise. */
static void test_counting_ns(void **state)
{
	struct calibration c = sample();

	(void)state;
	assert_true(calibration_counting_ns(&c, "tracepoint") == 77.5);
	assert_true(isnan(calibration_counting_ns(&c, "filter-op")));
	c.ns_counting = -3;
	assert_true(isnan(calibration_counting_ns(&c, "tracepoint")));
	c.counting_mode[0] = '\0';
	c.ns_counting = 77.5;
	assert_true(isnan(calibration_counting_ns(&c, "tracepoint")));
}

static void test_default_path(void **state)
{
	(void)state;
	assert_string_equal(calibration_default_path(), "/var/lib/auditskip/calibration.json");
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_latency_at_points),
		cmocka_unit_test(test_latency_between_points),
		cmocka_unit_test(test_latency_below_first),
		cmocka_unit_test(test_latency_past_last),
		cmocka_unit_test(test_latency_past_last_two_points),
		cmocka_unit_test(test_latency_one_point),
		cmocka_unit_test(test_latency_empty_walk),
		cmocka_unit_test(test_latency_never_falls),
		cmocka_unit_test(test_walk_ns),
		cmocka_unit_test(test_fit_slope),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_missing),
		cmocka_unit_test(test_corrupt),
		cmocka_unit_test(test_counting_ns),
		cmocka_unit_test(test_default_path),
	};

	return unit_main(argc, argv, "calibration", tests, setup, teardown);
}
