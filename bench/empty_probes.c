// SPDX-License-Identifier: GPL-2.0
/*
 * empty_probes exit|both|enter-count: attaches bpf/empty_probes.bpf.c's
 * programs (the empty sys_exit one, the empty sys_enter and sys_exit ones,
 * or the sys_enter one that counts), prints "attached" and holds them until
 * SIGINT or SIGTERM. bench/overhead.sh times getpid meanwhile.
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
	bool both, count;

	if (argc != 2 || (strcmp(argv[1], "exit") && strcmp(argv[1], "both") &&
			  strcmp(argv[1], "enter-count"))) {
		fprintf(stderr, "usage: %s exit|both|enter-count\n", argv[0]);
		return 2;
	}
	both = !strcmp(argv[1], "both");
	count = !strcmp(argv[1], "enter-count");
	skel = empty_probes_bpf__open();
	if (!skel) {
		perror("empty_probes: open");
		return 1;
	}
	bpf_program__set_autoload(skel->progs.empty_sys_enter, both);
	bpf_program__set_autoload(skel->progs.empty_sys_exit, !count);
	bpf_program__set_autoload(skel->progs.count_sys_enter, count);
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
