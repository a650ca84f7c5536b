// SPDX-License-Identifier: GPL-2.0
/*
 * The duty cycle's schedule and estimate (model/duty.c): --duty's syntax,
 * windows that open and close on time, one in each period, and the
 * estimate of the whole run with its standard error, worked by hand.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <math.h>
#include <cmocka.h>
#include "unit_main.h"
#include "model/duty.h"

static void test_parse(void **state)
{
	double w, p;

	(void)state;
	assert_int_equal(duty_parse("10s/5m", &w, &p), 0);
	assert_true(w == 10 && p == 300);
	assert_int_equal(duty_parse("1.5/1h", &w, &p), 0);
	assert_true(w == 1.5 && p == 3600);
	assert_int_equal(duty_parse("5m/5m", &w, &p), -1); /* a full count: no --duty */
	assert_int_equal(duty_parse("10s", &w, &p), -1);
	assert_int_equal(duty_parse("0s/5m", &w, &p), -1);
	assert_int_equal(duty_parse("10x/5m", &w, &p), -1);
	assert_int_equal(duty_parse("10s/5ms", &w, &p), -1);
	assert_int_equal(duty_parse("/5m", &w, &p), -1);
	assert_int_equal(duty_parse("10s/", &w, &p), -1);
}

static void test_full_count(void **state)
{
	struct duty d;

	(void)state;
	duty_start(&d, 0, 0, NAN, 100);
	assert_true(duty_next_s(&d) == 0);
	assert_true(duty_covered_s(&d, 160) == 60);
	assert_true(duty_estimate(&d, 160, DUTY_WALKS, 1234) == 1234);
	assert_true(duty_stderr(&d, 160, DUTY_WALKS) == 0);
	duty_set_idle(&d, true, true);
	assert_true(duty_wants_attached(&d));
	duty_set_idle(&d, true, false);
	assert_int_equal(d.idle, DUTY_NO_RULES);
	duty_set_idle(&d, false, true);
	assert_int_equal(d.idle, DUTY_AUDIT_OFF);
	assert_false(duty_wants_attached(&d));
}

/* The first window opened where duty_start() placed it. */
static void open_first(struct duty *d, const __u64 counts[NR_DUTY_FIGURES])
{
	assert_true(duty_advance(d, d->window_from_s, counts, NULL, 0) && d->in_window);
}

/* One window a period, each inside its period, and the schedule never asks to wake in the past. */
static void test_schedule(void **state)
{
	const __u64 c[NR_DUTY_FIGURES] = { 0, 0 };
	struct duty d;
	double t = 0;
	unsigned int opened = 0;

	(void)state;
	duty_start(&d, 10, 300, NAN, 0);
	/* The first window too at a random place in its period, not at the start. */
	assert_true(!d.in_window && d.window_from_s >= 0 && d.window_to_s <= 300 + 1e-9);
	assert_true(duty_next_s(&d) == d.window_from_s);
	while (t < 300 * 50) {
		double next = duty_next_s(&d);

		assert_true(next > t);
		t = next;
		if (duty_advance(&d, t, c, NULL, 0) && d.in_window) {
			opened++;
			assert_true(d.window_from_s >= d.period_from_s);
			assert_true(d.window_to_s <= d.period_from_s + 300 + 1e-9);
		}
	}
	assert_int_equal(opened, 50);
	assert_int_equal(d.windows, 50);
	assert_true(fabs(duty_covered_s(&d, t) - 500) < 1e-6);
}

/*
 * Two windows of 10 s: 100 walks (10/s), then 300 (30/s). At 600 s the
 * estimate is 400 + 20/s * 580 s = 12000; the rates' sample variance is
 * 200, so the standard error is 580 * sqrt(200 / 2).
 */
static void test_estimate(void **state)
{
	__u64 c[NR_DUTY_FIGURES] = { 0, 0 };
	struct duty d;

	(void)state;
	duty_start(&d, 10, 300, NAN, 0);
	assert_true(isnan(duty_estimate(&d, 1, DUTY_WALKS, 0))); /* no window yet */
	open_first(&d, c);
	assert_true(isnan(duty_stderr(&d, d.window_from_s + 5, DUTY_WALKS)));
	c[DUTY_WALKS] = 100;
	duty_advance(&d, d.window_to_s, c, NULL, 0);
	assert_int_equal(d.windows, 1);
	assert_true(isnan(duty_stderr(&d, 299, DUTY_WALKS)));
	duty_advance(&d, 300, c, NULL, 0);
	if (!d.in_window)
		duty_advance(&d, d.window_from_s, c, NULL, 0);
	assert_true(d.in_window);
	c[DUTY_WALKS] = 400;
	duty_advance(&d, d.window_to_s, c, NULL, 0);
	assert_int_equal(d.windows, 2);
	assert_true(fabs(duty_estimate(&d, 600, DUTY_WALKS, c[DUTY_WALKS]) - 12000) < 1e-6);
	assert_true(fabs(duty_stderr(&d, 600, DUTY_WALKS) - 580 * sqrt(100)) < 1e-6);
}

/* What the programs added: the walks counted at counting's calibrated price; unknown without it. */
static void test_self_added(void **state)
{
	const __u64 counted[NR_DUTY_FIGURES] = { 2000000, 1000 };
	struct duty_view v;
	struct duty d;

	(void)state;
	duty_start(&d, 10, 300, NAN, 0);
	open_first(&d, (const __u64[NR_DUTY_FIGURES]){ 0, 0 });
	duty_view_make(&d, d.window_from_s + 5, counted, 50, &v);
	assert_true(fabs(v.self_added_s - 0.1) < 1e-12);
	duty_view_make(&d, d.window_from_s + 5, counted, NAN, &v);
	assert_true(isnan(v.self_added_s));
}

/*
 * Two CPUs over a 1 s window, counting at 100 ns a walk. CPU 0 had no idle
 * time: its 2,000,000 walks took 0.2 s from its work, which would have made
 * 2,000,000 * 1 / 0.8 = 2,500,000. CPU 1 idled half the window: counting
 * took its 1,000,000 walks' 0.1 s from that idle time, and they stand.
 */
static void test_window_corrected(void **state)
{
	const struct duty_cpu_edge from[2] = { { { 0, 0 }, 10 }, { { 0, 0 }, 20 } };
	const struct duty_cpu_edge to[2] = { { { 2000000, 1000000 }, 10 },
					     { { 1000000, 400 }, 20.5 } };
	double out[NR_DUTY_FIGURES];

	(void)state;
	duty_window_corrected(from, to, NULL, 0, 2, 1.0, 100, out);
	assert_true(fabs(out[DUTY_WALKS] - 3500000) < 1e-3);
	assert_true(fabs(out[DUTY_SKIPPABLE] - (1250000 + 400)) < 1e-3);
	/* Without a price, the window as counted. */
	duty_window_corrected(from, to, NULL, 0, 2, 1.0, NAN, out);
	assert_true(out[DUTY_WALKS] == 3000000);
}

/* A run's estimate takes its closed windows as corrected, the open one's part as counted. */
static void test_estimate_corrected(void **state)
{
	struct duty_cpu_edge cpus[1] = { { { 0, 0 }, 0 } };
	__u64 c[NR_DUTY_FIGURES] = { 0, 0 };
	struct duty d;
	struct duty_view v;

	(void)state;
	duty_start(&d, 1, 30, 100, 0);
	open_first(&d, c);
	duty_opened_at(&d, d.window_from_s, cpus, 1);
	cpus[0].counts[DUTY_WALKS] = c[DUTY_WALKS] = 2000000;
	duty_advance(&d, d.window_to_s, c, cpus, 1);
	assert_int_equal(d.windows, 1);
	/*
	 * 2,000,000 walks counted in 1 s of 30, at a rate corrected to
	 * 2,500,000/s for the 29 s between windows.
	 */
	assert_true(fabs(duty_estimate(&d, 30, DUTY_WALKS, c[DUTY_WALKS]) - 74500000) < 1e-3);
	duty_view_make(&d, 30, c, 100, &v);
	assert_true(fabs(v.correction - 1.25) < 1e-12);
}

/*
 * One CPU, a 1 s window, 1,000,000 walks at 100 ns, busy half of it: the
 * walks took 0.1 s. Saturated all its busy time (a burst, then idle), the
 * walks scale by 0.5 / 0.4; saturated half of it, half of them by 0.25 /
 * 0.2; not known to be saturated (no slices, idle time in the window),
 * they stand.
 */
static void test_window_sliced(void **state)
{
	const struct duty_cpu_edge from[1] = { { { 0, 0 }, 0 } };
	const struct duty_cpu_edge to[1] = { { { 1000000, 1000000 }, 0.5 } };
	const double burst[1] = { 0.5 }, half[1] = { 0.25 };
	double out[NR_DUTY_FIGURES];

	(void)state;
	duty_window_corrected(from, to, burst, 0, 1, 1.0, 100, out);
	assert_true(fabs(out[DUTY_WALKS] - 1250000) < 1e-3);
	duty_window_corrected(from, to, half, 0, 1, 1.0, 100, out);
	assert_true(fabs(out[DUTY_WALKS] - 1125000) < 1e-3);
	duty_window_corrected(from, to, NULL, 0, 1, 1.0, 100, out);
	assert_true(out[DUTY_WALKS] == 1000000);
}

/*
 * Two CPUs saturated a 1 s window, 1,000,000 walks each at 100 ns, and the
 * loader's own 0.2 s in it, half on each as far as can be told: each CPU
 * gave 0.1 s to counting and 0.1 s to the loader, so its walks scale by
 * 1 / 0.8.
 */
static void test_window_self(void **state)
{
	const struct duty_cpu_edge from[2] = { { { 0, 0 }, 0 }, { { 0, 0 }, 0 } };
	const struct duty_cpu_edge to[2] = { { { 1000000, 0 }, 0 }, { { 1000000, 0 }, 0 } };
	const double saturated[2] = { 1, 1 };
	double out[NR_DUTY_FIGURES];

	(void)state;
	duty_window_corrected(from, to, saturated, 0.2, 2, 1.0, 100, out);
	assert_true(fabs(out[DUTY_WALKS] - 2500000) < 1e-3);
}

/*
 * The same burst through the schedule: slices of 0.1 s with no idle time
 * for the first half of the window, then idle; the window closes with the
 * CPU idle 0.5 s, its 1,000,000 walks corrected to 1,250,000.
 */
static void test_slices(void **state)
{
	struct duty_cpu_edge cpus[1] = { { { 0, 0 }, 0 } };
	__u64 c[NR_DUTY_FIGURES] = { 0, 0 };
	struct duty_view v;
	struct duty d;
	double idle[1] = { 0 };

	(void)state;
	duty_start(&d, 1, 30, 100, 0);
	open_first(&d, c);
	assert_true(duty_next_slice_s(&d) == 0); /* not attached yet */
	duty_opened_at(&d, d.window_from_s, cpus, 1);
	for (int i = 1; i < 10; i++) {
		double t = duty_next_slice_s(&d);

		assert_true(fabs(t - d.window_from_s - i * DUTY_SLICE_S) < 1e-9);
		idle[0] = i <= 5 ? 0 : (i - 5) * DUTY_SLICE_S;
		duty_slice(&d, t, idle, 1);
	}
	cpus[0].idle_s = 0.5;
	cpus[0].counts[DUTY_WALKS] = c[DUTY_WALKS] = 1000000;
	duty_advance(&d, d.window_to_s, c, cpus, 1);
	assert_int_equal(d.windows, 1);
	assert_true(duty_next_slice_s(&d) == 0); /* closed */
	duty_view_make(&d, 30, c, 100, &v);
	assert_true(fabs(v.correction - 1.25) < 1e-9);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_full_count),
		cmocka_unit_test(test_schedule),
		cmocka_unit_test(test_estimate),
		cmocka_unit_test(test_self_added),
		cmocka_unit_test(test_window_corrected),
		cmocka_unit_test(test_estimate_corrected),
		cmocka_unit_test(test_window_sliced),
		cmocka_unit_test(test_window_self),
		cmocka_unit_test(test_slices),
	};

	return unit_main(argc, argv, "duty", tests, NULL, NULL);
}
