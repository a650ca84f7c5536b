// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "live/getpid_timing.h"

/* Rounds of getpid calls in the child, median ns per call. */
#define CHILD_ROUNDS 15
#define CHILD_WARMUP 2
#define CHILD_ROUND_NS 10e6 /* about 10 ms per round */

static double now_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

double getpid_round_ns(clockid_t clock, long n)
{
	double start = now_ns(clock);

	/* syscall(), not getpid(): libc must not answer from a cache. */
	for (long i = 0; i < n; i++)
		syscall(SYS_getpid);
	return (now_ns(clock) - start) / n;
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

/* Pins the calling child to `cpu` (-1: anywhere) and makes it SCHED_FIFO if `rt`. */
static void child_place(int cpu, bool rt)
{
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
}

/* Calls a round of about CHILD_ROUND_NS makes, sized from a short probe so slow lists stay quick.
 */
static long child_round_calls(clockid_t clock)
{
	long n = (long)(CHILD_ROUND_NS / getpid_round_ns(clock, 2000));

	return n < 1000 ? 1000 : n;
}

/* The rounds child's work: a round per byte read from `fd` until it reads 0 or its end. */
static int child_serve_rounds(int fd, int cpu, bool rt, clockid_t clock)
{
	char cmd;
	long n;

	child_place(cpu, rt);
	n = child_round_calls(clock);
	for (int i = 0; i < CHILD_WARMUP; i++)
		getpid_round_ns(clock, n);
	while (read(fd, &cmd, 1) == 1 && cmd) {
		double ns = getpid_round_ns(clock, n);

		if (write(fd, &ns, sizeof(ns)) != sizeof(ns))
			return 1;
	}
	return 0;
}

/*
 * A child forked now: audit_alloc() gives a task an audit context only if
 * audit was enabled when it was forked, so the calling process itself may
 * well be unaudited. A socket, not a pipe: a dead child's end is an error
 * to send(), not a SIGPIPE to us.
 */
int getpid_rounds_start(struct getpid_rounds *r, int cpu, bool rt, clockid_t clock)
{
	int sv[2], err;

	r->pid = -1;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return -errno;
	r->pid = fork();
	if (r->pid == 0) {
		close(sv[0]);
		_exit(child_serve_rounds(sv[1], cpu, rt, clock));
	}
	err = r->pid < 0 ? -errno : 0;
	close(sv[1]);
	r->fd = sv[0];
	if (err)
		close(r->fd);
	return err;
}

int getpid_rounds_next(struct getpid_rounds *r, double *ns)
{
	const char cmd = 1;
	ssize_t got;

	if (send(r->fd, &cmd, 1, MSG_NOSIGNAL) != 1)
		return -EIO;
	do
		got = recv(r->fd, ns, sizeof(*ns), MSG_WAITALL);
	while (got < 0 && errno == EINTR);
	return got == sizeof(*ns) ? 0 : -EIO;
}

int getpid_rounds_stop(struct getpid_rounds *r)
{
	int status;

	if (r->pid < 0)
		return 0;
	/* The end of its socket is the child's 0. */
	close(r->fd);
	while (waitpid(r->pid, &status, 0) < 0 && errno == EINTR)
		;
	r->pid = -1;
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -EIO;
}

int getpid_child_median_ns(int cpu, bool rt, clockid_t clock, double *ns)
{
	struct getpid_rounds r;
	double v[CHILD_ROUNDS];
	int err = getpid_rounds_start(&r, cpu, rt, clock), stopped;

	for (int i = 0; !err && i < CHILD_ROUNDS; i++)
		err = getpid_rounds_next(&r, &v[i]);
	stopped = getpid_rounds_stop(&r);
	if (err || stopped)
		return err ?: stopped;
	sort_values(v, CHILD_ROUNDS);
	*ns = percentile(v, CHILD_ROUNDS, 50);
	return 0;
}
