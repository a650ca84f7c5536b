/* SPDX-License-Identifier: GPL-2.0 */
/* Timing getpid(2): the series' measure of audit's fixed per-syscall cost. */
#ifndef __GETPID_TIMING_H
#define __GETPID_TIMING_H

/* Nanoseconds per call over `n` back-to-back getpid syscalls. */
double getpid_round_ns(long n);
/* Sorts `v` in place. */
void sort_values(double *v, long n);
/* Nearest-rank percentile of sorted values (50: the median). */
double percentile(const double *v, long n, double p);

#endif /* __GETPID_TIMING_H */
