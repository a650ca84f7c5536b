// SPDX-License-Identifier: GPL-2.0
/*
 * time_runs N COMMAND [ARG...]: runs COMMAND N times, one after another,
 * and prints the nanoseconds all of them took (CLOCK_MONOTONIC, fork to
 * the last wait). The kernel-ab time model times a workload with it: the
 * guests' shell only has /proc/uptime, in 10 ms steps.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long long t0;
	char *end;
	long n;

	errno = 0;
	n = argc > 2 ? strtol(argv[1], &end, 10) : 0;
	if (argc < 3 || errno || *end || n < 1) {
		fprintf(stderr, "usage: time_runs N COMMAND [ARG...]  (N >= 1)\n");
		return 2;
	}
	t0 = now_ns();
	for (long i = 0; i < n; i++) {
		int status;
		pid_t pid = fork();

		if (pid < 0) {
			perror("time_runs: fork");
			return 1;
		}
		if (pid == 0) {
			execvp(argv[2], argv + 2);
			perror("time_runs: exec");
			_exit(127);
		}
		while (waitpid(pid, &status, 0) < 0)
			if (errno != EINTR) {
				perror("time_runs: waitpid");
				return 1;
			}
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			fprintf(stderr, "time_runs: run %ld of %s failed\n", i + 1, argv[2]);
			return 1;
		}
	}
	printf("%lld\n", now_ns() - t0);
	return 0;
}
