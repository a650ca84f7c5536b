// SPDX-License-Identifier: GPL-2.0
/*
 * The breakdown from the sums (model/hotspots.h). Every interval the BPF
 * side times holds, beside the work, its own pair's share (ref_gap_ns,
 * measured around an empty function) and the whole cost of each hooked
 * call nested in it (pair_ns): both are taken off here, so the parts of
 * the exit path add up to the path as it runs with no hook inside it.
 */
#include <stdlib.h>
#include <string.h>
#include "model/hotspots.h"

const char *const hs_shown_names[HS_NR_SHOWN] = {
	[HS_SHOW_ENTRY] = "entry",	   [HS_SHOW_WALK] = "walk",
	[HS_SHOW_INODES] = "inodes",	   [HS_SHOW_RECORDS] = "records",
	[HS_SHOW_LOG_START] = "log_start", [HS_SHOW_WAIT] = "log_start_off",
	[HS_SHOW_OFF_CPU] = "off_cpu",	   [HS_SHOW_REST] = "rest",
};

static void add_stats(struct hs_stats *sum, const struct hs_stats *s)
{
	sum->calls += s->calls;
	sum->sys_ns += s->sys_ns;
	sum->sys_pairs += s->sys_pairs;
	sum->filtered += s->filtered;
	sum->records += s->records;
	sum->sys_off += s->sys_off;
	for (int p = 0; p < HS_NR_PARTS; p++) {
		sum->off[p] += s->off[p];
		sum->ns[p] += s->ns[p];
		sum->pairs[p] += s->pairs[p];
		sum->part_calls[p] += s->part_calls[p];
	}
}

/* A part's total ns on the CPU, the hooks' cost off, never below 0. */
static double part_total(const struct hotspots_run *r, const struct hs_stats *s, int p)
{
	double v = (double)s->ns[p] - (double)s->off[p] - r->ref_gap_ns * (double)s->part_calls[p] -
		   r->pair_ns * (double)s->pairs[p];

	return v > 0 ? v : 0;
}

void hotspots_breakdown(const struct hotspots_run *r, int i, struct hs_breakdown *b)
{
	struct hs_stats s = { 0 };
	double calls, exit, records, start, walk, inodes, sys;

	if (i >= 0)
		s = r->rows[i].s;
	else
		for (int k = 0; k < r->nrows; k++)
			add_stats(&s, &r->rows[k].s);
	memset(b, 0, sizeof(*b));
	b->calls = s.calls;
	b->filtered = s.filtered;
	b->records = s.records;
	b->exits = s.part_calls[HS_EXIT];
	b->walks = s.part_calls[HS_WALK];
	calls = s.calls ? (double)s.calls : 1;
	sys = (double)s.sys_ns - r->pair_ns * (double)s.sys_pairs;
	b->syscall_ns = (sys > 0 ? sys : 0) / calls;
	exit = part_total(r, &s, HS_EXIT);
	walk = part_total(r, &s, HS_WALK);
	inodes = part_total(r, &s, HS_INODES);
	start = part_total(r, &s, HS_LOG_START);
	records = part_total(r, &s, HS_RECORDS) - start;
	b->exit_on_ns = exit / calls;
	b->exit_ns = (exit + (double)s.off[HS_EXIT]) / calls;
	b->part_ns[HS_SHOW_WAIT] = (double)s.off[HS_LOG_START] / calls;
	b->part_ns[HS_SHOW_OFF_CPU] = (double)(s.off[HS_EXIT] - s.off[HS_LOG_START]) / calls;
	b->part_ns[HS_SHOW_ENTRY] = part_total(r, &s, HS_ENTRY) / calls;
	b->part_ns[HS_SHOW_WALK] = walk / calls;
	b->part_ns[HS_SHOW_INODES] = inodes / calls;
	b->part_ns[HS_SHOW_RECORDS] = (records > 0 ? records : 0) / calls;
	b->part_ns[HS_SHOW_LOG_START] = start / calls;
	b->part_ns[HS_SHOW_REST] =
		(exit - walk - inodes - (records > 0 ? records : 0) - start) / calls;
	b->shown_timed[HS_SHOW_ENTRY] = r->part_timed[HS_ENTRY];
	b->shown_timed[HS_SHOW_WALK] = r->part_timed[HS_WALK];
	b->shown_timed[HS_SHOW_INODES] = r->part_timed[HS_INODES];
	b->shown_timed[HS_SHOW_RECORDS] = r->part_timed[HS_RECORDS];
	b->shown_timed[HS_SHOW_LOG_START] = r->part_timed[HS_LOG_START];
	b->shown_timed[HS_SHOW_WAIT] = r->part_timed[HS_LOG_START];
	b->shown_timed[HS_SHOW_OFF_CPU] = r->part_timed[HS_EXIT];
	b->shown_timed[HS_SHOW_REST] = r->part_timed[HS_EXIT];
}

double hotspots_alone_ns(const struct hotspots_run *r)
{
	if (!r->alone_measured || !r->alone_calls)
		return -1;
	return (double)r->alone_ns / (double)r->alone_calls - r->ref_gap_ns;
}

/* The exit path's time; where it is not timed (all zero), the syscall's own. */
static int by_exit_time(const void *a, const void *b)
{
	const struct hs_stats *x = &((const struct hs_row *)a)->s,
			      *y = &((const struct hs_row *)b)->s;

	if (x->ns[HS_EXIT] != y->ns[HS_EXIT])
		return x->ns[HS_EXIT] < y->ns[HS_EXIT] ? 1 : -1;
	return x->sys_ns < y->sys_ns ? 1 : x->sys_ns > y->sys_ns ? -1 : 0;
}

void hotspots_sort(struct hotspots_run *r)
{
	if (r->nrows > 1)
		qsort(r->rows, (size_t)r->nrows, sizeof(*r->rows), by_exit_time);
}
