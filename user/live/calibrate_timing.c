// SPDX-License-Identifier: GPL-2.0
/* How calibrate times getpid: on the wall clock, in a child, at real-time priority where allowed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include "live/calibrate_internal.h"
#include "live/getpid_timing.h"

int calib_time_getpid(const struct calib_run *r, double *ns)
{
	return getpid_child_median_ns(r->cpu, r->rt, CLOCK_MONOTONIC, ns);
}

/* Whether the children may run SCHED_FIFO: tried once here, then undone. */
bool calib_probe_rt(bool verbose)
{
	struct sched_param sp = { .sched_priority = 1 };

	if (sched_setscheduler(0, SCHED_FIFO, &sp) == 0) {
		sp.sched_priority = 0;
		sched_setscheduler(0, SCHED_OTHER, &sp);
		return true;
	}
	if (verbose)
		fprintf(stderr,
			"calibrate: no real-time priority (%s): timing at normal priority\n",
			strerror(errno));
	return false;
}
