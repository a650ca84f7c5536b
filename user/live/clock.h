/* SPDX-License-Identifier: GPL-2.0 */
/* The session's clocks, in seconds. */
#ifndef __CLOCK_H
#define __CLOCK_H

#include <time.h>

static inline double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static inline double wall_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* CPU time of this thread: what a listing costs the loader, kernel side included. */
static inline double thread_cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

#endif /* __CLOCK_H */
