/* SPDX-License-Identifier: GPL-2.0 */
/* Timing getpid(2): the series' measure of audit's fixed per-syscall cost. */
#ifndef __GETPID_TIMING_H
#define __GETPID_TIMING_H

#include <stdbool.h>
#include <time.h>

/* Nanoseconds of `clock` per call over `n` back-to-back getpid syscalls. */
double getpid_round_ns(clockid_t clock, long n);
/*
 * The median of a getpid call over rounds of about 10 ms each, timed on
 * `clock` in a child forked now, pinned to `cpu` (-1: anywhere) and at
 * real-time priority if `rt`. 0 or -errno.
 */
int getpid_child_median_ns(int cpu, bool rt, clockid_t clock, double *ns);
/* Sorts `v` in place. */
void sort_values(double *v, long n);
/* Nearest-rank percentile of sorted values (50: the median). */
double percentile(const double *v, long n, double p);

#endif /* __GETPID_TIMING_H */
