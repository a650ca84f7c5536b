// SPDX-License-Identifier: GPL-2.0
/*
 * A workload whose syscalls a test can count exactly:
 *   getpid_loop N                        N getpid calls
 *   getpid_loop N --pause READY GO M     N, create READY, wait for GO, M more
 *   getpid_loop N --descendants D        a chain of D descendants, N calls each
 *   getpid_loop N --per-cpu              a child pinned to each CPU, N calls each
 *   getpid_loop --for SECONDS            as many calls as fit, then prints how many
 *   getpid_loop N --nr NR                N calls of syscall NR instead
 * Waiting uses nanosleep, access and wait4, never getpid.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>

static void syscalls(long nr, long n)
{
	for (long i = 0; i < n; i++)
		syscall(nr);
}

static void getpids(long n)
{
	/* syscall(), not getpid(): libc must not answer from a cache. */
	syscalls(SYS_getpid, n);
}

static long count(const char *s)
{
	char *end;
	long n = strtol(s, &end, 10);

	if (end == s || *end || n < 0) {
		fprintf(stderr, "getpid_loop: bad count '%s'\n", s);
		exit(2);
	}
	return n;
}

static int pause_then(const char *ready, const char *go, long m)
{
	struct timespec tick = { 0, 10 * 1000 * 1000 };
	int fd = open(ready, O_CREAT | O_WRONLY, 0644);

	if (fd < 0) {
		perror(ready);
		return 1;
	}
	close(fd);
	while (access(go, F_OK))
		nanosleep(&tick, NULL);
	getpids(m);
	return 0;
}

static int descend(long n, long depth)
{
	int status;
	pid_t child;

	getpids(n);
	if (depth == 0)
		return 0;
	child = fork();
	if (child < 0) {
		perror("fork");
		return 1;
	}
	if (child == 0)
		_exit(descend(n, depth - 1));
	if (waitpid(child, &status, 0) != child || !WIFEXITED(status))
		return 1;
	return WEXITSTATUS(status);
}

static int per_cpu(long n)
{
	int status, failed = 0, cpus = sysconf(_SC_NPROCESSORS_ONLN);

	for (int cpu = 0; cpu < cpus; cpu++) {
		pid_t child = fork();

		if (child < 0) {
			perror("fork");
			return 1;
		}
		if (child == 0) {
			cpu_set_t set;

			CPU_ZERO(&set);
			CPU_SET(cpu, &set);
			if (sched_setaffinity(0, sizeof(set), &set)) {
				perror("sched_setaffinity");
				_exit(1);
			}
			getpids(n);
			_exit(0);
		}
	}
	while (wait(&status) > 0)
		failed |= !WIFEXITED(status) || WEXITSTATUS(status);
	return failed;
}

/* The clock is read through the vDSO: no syscall but the getpids. */
static int for_seconds(long seconds)
{
	struct timespec now, end;
	unsigned long long n = 0;

	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += seconds;
	do {
		getpids(4096);
		n += 4096;
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while (now.tv_sec < end.tv_sec ||
		 (now.tv_sec == end.tv_sec && now.tv_nsec < end.tv_nsec));
	printf("%llu\n", n);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--for"))
		return for_seconds(count(argv[2]));
	if (argc == 2) {
		getpids(count(argv[1]));
		return 0;
	}
	if (argc == 6 && !strcmp(argv[2], "--pause")) {
		getpids(count(argv[1]));
		return pause_then(argv[3], argv[4], count(argv[5]));
	}
	if (argc == 4 && !strcmp(argv[2], "--descendants"))
		return descend(count(argv[1]), count(argv[3]));
	if (argc == 3 && !strcmp(argv[2], "--per-cpu"))
		return per_cpu(count(argv[1]));
	/* A number no program calls counts exactly even among other processes. */
	if (argc == 4 && !strcmp(argv[2], "--nr")) {
		syscalls(count(argv[3]), count(argv[1]));
		return 0;
	}
	fprintf(stderr,
		"usage: getpid_loop N [--pause READY GO M | --descendants D | --per-cpu | --nr NR]\n"
		"       getpid_loop --for SECONDS\n");
	return 2;
}
