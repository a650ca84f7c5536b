/* SPDX-License-Identifier: GPL-2.0 */
/*
 * When the loader lists audit's rules in full. A listing costs time in
 * proportion to the rules (every syscall of the loader also walks the
 * exit list), so it lists when audit logs a rule change, when a change
 * record may have been lost, and otherwise only as a periodic check whose
 * period grows with what a listing costs.
 */
#ifndef __RESYNC_H
#define __RESYNC_H

#include <stdbool.h>
#include <linux/types.h>

/*
 * The shares of one CPU the loader's listings may take: the periodic
 * check in steady state, and listings after rule changes while audit logs
 * change after change.
 */
#define RESYNC_PERIODIC_SHARE 0.005
#define RESYNC_CHANGE_SHARE 0.2

enum resync_reason {
	RESYNC_START,	 /* the first listing, and the one at the end */
	RESYNC_CHANGE,	 /* audit logged a change that may touch the rules */
	RESYNC_LOST,	 /* change records may have been lost */
	RESYNC_PERIODIC, /* the periodic check */
	NR_RESYNC_REASONS
};

struct resync {
	double tick_s;		/* --sync-ms: the shortest period */
	double fixed_period_s;	/* tests: the periodic check's period, 0: from the cost */
	bool reliable;		/* rule changes are sure to be logged (see resync_listed) */
	bool wanted;		/* a listing is due as soon as the rate allows */
	enum resync_reason why; /* of the wanted listing */
	double cost_s;		/* CPU time of the last listing */
	double listed_at;	/* when it ended */
	double began_wall_s;	/* when it began, seconds since the epoch: set by the lister */
	double period_s;	/* of the periodic check, from the last listing */
	bool lost_known;	/* audit's lost-record counter read once */
	__u32 lost;		/* its value then */
	bool was_disabled;	/* audit was off since the last status read that found it on */
	__u64 listings[NR_RESYNC_REASONS];
};

/* The reason's name in the reports and the metrics' `reason` label. */
const char *resync_reason_name(enum resync_reason why);

void resync_init(struct resync *r, int tick_ms, int fixed_period_ms);
/* A listing is needed for `why` (RESYNC_CHANGE or RESYNC_LOST). */
void resync_want(struct resync *r, enum resync_reason why);
/*
 * Audit's status, read every tick: a lost-record counter that moved means a
 * change record may be among the lost; rule changes are not logged while
 * audit is off, so turning it on again wants a listing.
 */
void resync_status(struct resync *r, bool enabled, __u32 lost);
/* Audit logged that it was turned off (it may be on again by the next status read). */
void resync_audit_off(struct resync *r);
/* When the next listing is due (CLOCK_MONOTONIC seconds). */
double resync_due(const struct resync *r);
/* Why a listing due now is taken. */
enum resync_reason resync_reason(const struct resync *r);
/*
 * A listing for `why` ended at `now` and took `cost_s` of CPU. `reliable`:
 * no exclude rule in it can drop AUDIT_CONFIG_CHANGE records; otherwise
 * the periodic check runs every tick whatever it costs.
 */
void resync_listed(struct resync *r, enum resync_reason why, double now, double cost_s,
		   bool reliable);

/* A listing failed at `now` after `cost_s` of CPU: wanted again, after the same gap. */
void resync_failed(struct resync *r, double now, double cost_s);

#endif /* __RESYNC_H */
