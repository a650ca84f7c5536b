// SPDX-License-Identifier: GPL-2.0
/*
 * empty_probes enter|both: attaches bpf/empty_probes.bpf.c's empty sys_enter
 * program, or it and the empty sys_exit one, prints "attached" and holds
 * them until SIGINT or SIGTERM. bench/overhead.sh times getpid meanwhile.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "empty_probes.skel.h"

static void on_signal(int sig)
{
	(void)sig;
}

int main(int argc, char **argv)
{
	struct empty_probes_bpf *skel;

	if (argc != 2 || (strcmp(argv[1], "enter") && strcmp(argv[1], "both"))) {
		fprintf(stderr, "usage: %s enter|both\n", argv[0]);
		return 2;
	}
	skel = empty_probes_bpf__open();
	if (!skel) {
		perror("empty_probes: open");
		return 1;
	}
	bpf_program__set_autoload(skel->progs.empty_sys_exit, !strcmp(argv[1], "both"));
	if (empty_probes_bpf__load(skel) || empty_probes_bpf__attach(skel)) {
		perror("empty_probes: load and attach");
		empty_probes_bpf__destroy(skel);
		return 1;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	printf("attached\n");
	fflush(stdout);
	pause();
	empty_probes_bpf__destroy(skel);
	return 0;
}
