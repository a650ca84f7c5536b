// SPDX-License-Identifier: GPL-2.0
#include <string.h>
#include "model/resync.h"

const char *resync_reason_name(enum resync_reason why)
{
	static const char *const names[NR_RESYNC_REASONS] = {
		[RESYNC_START] = "start",
		[RESYNC_CHANGE] = "change",
		[RESYNC_LOST] = "lost",
		[RESYNC_PERIODIC] = "periodic",
	};

	return why < NR_RESYNC_REASONS ? names[why] : "unknown";
}

void resync_init(struct resync *r, int tick_ms, int fixed_period_ms)
{
	memset(r, 0, sizeof(*r));
	r->tick_s = tick_ms / 1000.0;
	r->fixed_period_s = fixed_period_ms / 1000.0;
	r->period_s = r->tick_s;
}

void resync_want(struct resync *r, enum resync_reason why)
{
	/* A lost record outranks a change heard: it is the rarer, and says more. */
	if (!r->wanted || why == RESYNC_LOST)
		r->why = why;
	r->wanted = true;
}

void resync_status(struct resync *r, bool enabled, __u32 lost)
{
	if (r->lost_known && lost != r->lost)
		resync_want(r, RESYNC_LOST);
	r->lost_known = true;
	r->lost = lost;
	if (!enabled) {
		r->was_disabled = true;
	} else if (r->was_disabled) {
		r->was_disabled = false;
		resync_want(r, RESYNC_CHANGE);
	}
}

void resync_audit_off(struct resync *r)
{
	r->was_disabled = true;
}

double resync_due(const struct resync *r)
{
	/*
	 * While changes keep coming, listings after them are spaced so that
	 * they take at most RESYNC_CHANGE_SHARE of a CPU: cost / (cost + gap).
	 */
	double gap = r->cost_s * (1 / RESYNC_CHANGE_SHARE - 1);

	if (r->wanted)
		return r->listed_at + gap;
	return r->listed_at + r->period_s;
}

enum resync_reason resync_reason(const struct resync *r)
{
	return r->wanted ? r->why : RESYNC_PERIODIC;
}

void resync_listed(struct resync *r, enum resync_reason why, double now, double cost_s,
		   bool reliable)
{
	double period = cost_s / RESYNC_PERIODIC_SHARE;

	r->listings[why]++;
	r->wanted = false;
	r->cost_s = cost_s;
	r->listed_at = now;
	r->reliable = reliable;
	if (!reliable)
		r->period_s = r->tick_s;
	else if (r->fixed_period_s > 0)
		r->period_s = r->fixed_period_s;
	else
		r->period_s = period > r->tick_s ? period : r->tick_s;
}

void resync_failed(struct resync *r, double now, double cost_s)
{
	resync_want(r, RESYNC_LOST);
	r->cost_s = cost_s;
	r->listed_at = now;
}
