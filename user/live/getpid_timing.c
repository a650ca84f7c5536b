// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "live/getpid_timing.h"

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

double getpid_round_ns(long n)
{
	double start = now_ns();

	/* syscall(), not getpid(): libc must not answer from a cache. */
	for (long i = 0; i < n; i++)
		syscall(SYS_getpid);
	return (now_ns() - start) / n;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

void sort_values(double *v, long n)
{
	qsort(v, n, sizeof(*v), by_value);
}

double percentile(const double *v, long n, double p)
{
	long rank = (long)(p / 100.0 * n + 0.999999);

	return v[rank < 1 ? 0 : rank > n ? n - 1 : rank - 1];
}
