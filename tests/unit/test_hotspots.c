// SPDX-License-Identifier: GPL-2.0
/*
 * The hotspots breakdown (model/hotspots.c): each part loses its own
 * pair's share once a call and the whole cost of every hooked call nested
 * in it; time off the CPU is kept apart; the rest is the exit path on the
 * CPU less the timed parts; an untimed part is flagged, its time in rest.
 */
#include "unit_main.h"
#include "model/hotspots.h"

#define GAP 10.0   /* a pair's own share of its interval */
#define PAIR 100.0 /* what a nested hooked call adds */

/* Two getpid-like calls: entry, then an exit path with a walk and the names' check. */
static struct hs_row two_calls(void)
{
	struct hs_row row = { .nr = 39 };
	struct hs_stats *s = &row.s;

	s->calls = 2;
	s->sys_ns = 2000;
	s->sys_pairs = 8; /* entry, exit, walk, inodes a call */
	s->filtered = 2;
	s->ns[HS_ENTRY] = 60, s->part_calls[HS_ENTRY] = 2;
	s->ns[HS_WALK] = 220, s->part_calls[HS_WALK] = 2;
	s->ns[HS_INODES] = 120, s->part_calls[HS_INODES] = 2;
	s->ns[HS_EXIT] = 1100, s->part_calls[HS_EXIT] = 2, s->pairs[HS_EXIT] = 4;
	s->off[HS_EXIT] = 100; /* preempted once inside the exit path */
	return row;
}

static struct hotspots_run run_of(struct hs_row *rows, int n)
{
	struct hotspots_run r = { .ref_gap_ns = GAP, .pair_ns = PAIR, .rows = rows, .nrows = n };

	for (int p = 0; p < HS_NR_PARTS; p++)
		r.part_timed[p] = true;
	return r;
}

static void test_hooks_taken_off(void **state)
{
	struct hs_row row = two_calls();
	struct hotspots_run r = run_of(&row, 1);
	struct hs_breakdown b;

	(void)state;
	hotspots_breakdown(&r, 0, &b);
	assert_true(b.syscall_ns == (2000 - 8 * PAIR) / 2);
	assert_true(b.part_ns[HS_SHOW_ENTRY] == (60 - 2 * GAP) / 2);
	assert_true(b.part_ns[HS_SHOW_WALK] == (220 - 2 * GAP) / 2);
	assert_true(b.part_ns[HS_SHOW_INODES] == (120 - 2 * GAP) / 2);
	/* on the CPU: 1100 - 100 off - 2 own shares - 4 nested calls = 580 */
	assert_true(b.exit_on_ns == 580.0 / 2);
	assert_true(b.exit_ns == 680.0 / 2);
	assert_true(b.part_ns[HS_SHOW_OFF_CPU] == 100.0 / 2);
	assert_true(b.part_ns[HS_SHOW_REST] == (580 - 200 - 100) / 2.0);
	/* the parts add up to the whole exit path */
	assert_true(b.part_ns[HS_SHOW_WALK] + b.part_ns[HS_SHOW_INODES] +
			    b.part_ns[HS_SHOW_OFF_CPU] + b.part_ns[HS_SHOW_REST] ==
		    b.exit_ns);
}

/* audit_log_start's time comes out of the records', on and off the CPU apart. */
static void test_records_and_log_start(void **state)
{
	struct hs_row row = two_calls();
	struct hotspots_run r = run_of(&row, 1);
	struct hs_breakdown b;

	(void)state;
	row.s.records = 3;
	row.s.ns[HS_RECORDS] = 500, row.s.part_calls[HS_RECORDS] = 1, row.s.pairs[HS_RECORDS] = 2;
	row.s.ns[HS_LOG_START] = 130, row.s.part_calls[HS_LOG_START] = 2;
	row.s.off[HS_LOG_START] = 40, row.s.off[HS_RECORDS] = 40, row.s.off[HS_EXIT] = 40;
	row.s.ns[HS_EXIT] = 1100 + 500 + 2 * PAIR, row.s.pairs[HS_EXIT] = 4 + 1;
	hotspots_breakdown(&r, 0, &b);
	assert_true(b.part_ns[HS_SHOW_LOG_START] == (130 - 40 - 2 * GAP) / 2);
	assert_true(b.part_ns[HS_SHOW_WAIT] == 40.0 / 2);
	assert_true(b.part_ns[HS_SHOW_OFF_CPU] == 0);
	/* audit_log_exit on the CPU: 500 - 40 - 10 - 200 = 250, less log_start's 70 */
	assert_true(b.part_ns[HS_SHOW_RECORDS] == (250 - 70) / 2.0);
	assert_true(b.records == 3);
}

static void test_untimed_and_sum(void **state)
{
	struct hs_row rows[2] = { two_calls(), two_calls() };
	struct hotspots_run r = run_of(rows, 2);
	struct hs_breakdown one, all;

	(void)state;
	r.part_timed[HS_WALK] = false;
	rows[0].s.ns[HS_WALK] = rows[1].s.ns[HS_WALK] = 0;
	rows[0].s.part_calls[HS_WALK] = rows[1].s.part_calls[HS_WALK] = 0;
	hotspots_breakdown(&r, 0, &one);
	hotspots_breakdown(&r, -1, &all);
	assert_false(one.shown_timed[HS_SHOW_WALK]);
	assert_true(one.shown_timed[HS_SHOW_REST]);
	/* per call, the sum of two equal rows is each row */
	assert_true(all.calls == 4);
	assert_true(all.exit_ns == one.exit_ns &&
		    all.part_ns[HS_SHOW_REST] == one.part_ns[HS_SHOW_REST]);
	r.alone_measured = true, r.alone_calls = 4, r.alone_ns = 4 * 250;
	assert_true(hotspots_alone_ns(&r) == 250 - GAP);
	r.alone_measured = false;
	assert_true(hotspots_alone_ns(&r) < 0);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hooks_taken_off),
		cmocka_unit_test(test_records_and_log_start),
		cmocka_unit_test(test_untimed_and_sum),
	};

	return unit_main(argc, argv, "hotspots", tests, NULL, NULL);
}
