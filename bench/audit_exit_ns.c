// SPDX-License-Identifier: GPL-2.0
/*
 * audit_exit_ns N COMMAND [ARG...]: runs COMMAND N times, one after
 * another, with bpf/audit_exit_ns.bpf.c attached, and prints
 * "calls C ns NS": the calls of __audit_syscall_exit() and __audit_free()
 * any task made meanwhile and the nanoseconds their bodies took (each with
 * the same fentry and fexit around it). Exit status 1 where it cannot
 * attach (a kernel without fentry, or not root), 2 on bad usage.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/wait.h>
#include "audit_exit_ns.skel.h"

static int run(char **argv)
{
	int status;
	pid_t pid = fork();

	if (pid < 0) {
		perror("audit_exit_ns: fork");
		return -1;
	}
	if (pid == 0) {
		execvp(argv[0], argv);
		perror("audit_exit_ns: exec");
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			perror("audit_exit_ns: waitpid");
			return -1;
		}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "audit_exit_ns: %s failed (status %#x)\n", argv[0], status);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct audit_exit_ns_bpf *skel;
	char *end;
	long n;
	int err = 0;

	errno = 0;
	n = argc > 2 ? strtol(argv[1], &end, 10) : 0;
	if (argc < 3 || errno || *end || n < 1) {
		fprintf(stderr, "usage: audit_exit_ns N COMMAND [ARG...]  (N >= 1)\n");
		return 2;
	}
	skel = audit_exit_ns_bpf__open_and_load();
	if (!skel || audit_exit_ns_bpf__attach(skel)) {
		perror("audit_exit_ns: load and attach");
		audit_exit_ns_bpf__destroy(skel);
		return 1;
	}
	for (long i = 0; i < n && !err; i++)
		err = run(argv + 2);
	audit_exit_ns_bpf__detach(skel);
	if (!err)
		printf("calls %llu ns %llu unmatched %llu\n", (unsigned long long)skel->bss->calls,
		       (unsigned long long)skel->bss->total_ns,
		       (unsigned long long)skel->bss->unmatched);
	audit_exit_ns_bpf__destroy(skel);
	return err ? 1 : 0;
}
