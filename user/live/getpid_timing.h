/* SPDX-License-Identifier: GPL-2.0 */
/* Timing getpid(2): the series' measure of audit's fixed per-syscall cost. */
#ifndef __GETPID_TIMING_H
#define __GETPID_TIMING_H

#include <stdbool.h>
#include <time.h>
#include <sys/types.h>

/* Nanoseconds of `clock` per call over `n` back-to-back getpid syscalls. */
double getpid_round_ns(clockid_t clock, long n);
/*
 * The median of a getpid call over rounds of about 10 ms each, timed on
 * `clock` in a child forked now, pinned to `cpu` (-1: anywhere) and at
 * real-time priority if `rt`. 0 or -errno.
 */
int getpid_child_median_ns(int cpu, bool rt, clockid_t clock, double *ns);
/*
 * A child that times rounds of getpid on request, so that a caller can
 * change what the kernel does between two rounds of the same task: forked
 * by getpid_rounds_start() (placed as getpid_child_median_ns's), one round
 * of about 10 ms per getpid_rounds_next(), ended by getpid_rounds_stop().
 * Each returns 0 or -errno.
 */
struct getpid_rounds {
	pid_t pid;
	int fd; /* a byte sent asks for a round; its ns per call comes back */
};
int getpid_rounds_start(struct getpid_rounds *r, int cpu, bool rt, clockid_t clock);
int getpid_rounds_next(struct getpid_rounds *r, double *ns);
int getpid_rounds_stop(struct getpid_rounds *r);
/* Sorts `v` in place. */
void sort_values(double *v, long n);
/* Nearest-rank percentile of sorted values (50: the median). */
double percentile(const double *v, long n, double p);

#endif /* __GETPID_TIMING_H */
