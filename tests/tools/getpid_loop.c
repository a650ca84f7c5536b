// SPDX-License-Identifier: GPL-2.0
/*
 * A workload whose syscalls a test can count exactly: N getpid calls, and
 * optionally a pause (READY file created, wait for GO) before M more.
 * Waiting uses nanosleep and access, never getpid.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

static void getpids(long n)
{
	/* syscall(), not getpid(): libc must not answer from a cache. */
	for (long i = 0; i < n; i++)
		syscall(SYS_getpid);
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

int main(int argc, char **argv)
{
	struct timespec tick = { 0, 10 * 1000 * 1000 };
	int fd;

	if (argc != 2 && !(argc == 6 && !strcmp(argv[2], "--pause"))) {
		fprintf(stderr, "usage: getpid_loop N [--pause READY GO M]\n");
		return 2;
	}
	getpids(count(argv[1]));
	if (argc == 2)
		return 0;
	fd = open(argv[3], O_CREAT | O_WRONLY, 0644);
	if (fd < 0) {
		perror(argv[3]);
		return 1;
	}
	close(fd);
	while (access(argv[4], F_OK))
		nanosleep(&tick, NULL);
	getpids(count(argv[5]));
	return 0;
}
