// SPDX-License-Identifier: GPL-2.0
/*
 * getpid(2) timed in a child forked for it, pinned to a CPU and at
 * real-time priority where allowed: the median of rounds sized to about
 * 10 ms each.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include "live/calibrate_internal.h"
#include "live/getpid_timing.h"

/* Timing in the child: rounds of getpid calls, median ns per call. */
#define BENCH_ROUNDS 15
#define BENCH_WARMUP 2
#define BENCH_TARGET_NS 10e6 /* about 10 ms per round */

/* The child's work: median ns of a getpid call, pinned to `cpu` and SCHED_FIFO if `rt`. */
static double child_median_getpid_ns(int cpu, bool rt)
{
	double v[BENCH_ROUNDS];
	long n;

	if (cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		sched_setaffinity(0, sizeof(set), &set);
	}
	/*
	 * Real-time priority where allowed: on a busy machine, rounds cut by
	 * preemption would swamp a few ns per entry. The kernel's RT throttling
	 * (sched_rt_runtime_us) still leaves other tasks 5%.
	 */
	if (rt) {
		struct sched_param sp = { .sched_priority = 1 };

		sched_setscheduler(0, SCHED_FIFO, &sp);
	}
	/* Size the rounds from a short probe so slow lists stay quick. */
	n = (long)(BENCH_TARGET_NS / getpid_round_ns(2000));
	if (n < 1000)
		n = 1000;
	for (int i = 0; i < BENCH_WARMUP; i++)
		getpid_round_ns(n);
	for (int i = 0; i < BENCH_ROUNDS; i++)
		v[i] = getpid_round_ns(n);
	sort_values(v, BENCH_ROUNDS);
	return percentile(v, BENCH_ROUNDS, 50);
}

/*
 * Median getpid latency in a child forked now: audit_alloc() gives a task
 * an audit context only if audit was enabled when it was forked, so the
 * calling process itself may well be unaudited.
 */
int calib_time_getpid(int cpu, bool rt, double *ns)
{
	int pipefd[2], status;
	ssize_t got;
	pid_t pid;

	if (pipe(pipefd))
		return -errno;
	pid = fork();
	if (pid < 0) {
		int err = -errno;

		close(pipefd[0]);
		close(pipefd[1]);
		return err;
	}
	if (pid == 0) {
		double result = child_median_getpid_ns(cpu, rt);

		_exit(write(pipefd[1], &result, sizeof(result)) == sizeof(result) ? 0 : 1);
	}
	close(pipefd[1]);
	do
		got = read(pipefd[0], ns, sizeof(*ns));
	while (got < 0 && errno == EINTR);
	close(pipefd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (got != sizeof(*ns) || !WIFEXITED(status) || WEXITSTATUS(status))
		return -EIO;
	return 0;
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
