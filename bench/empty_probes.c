// SPDX-License-Identifier: GPL-2.0
/*
 * empty_probes FLOOR: attaches the empty programs of bpf/empty_probes.bpf.c
 * that FLOOR names, prints "attached" and holds them until SIGINT or
 * SIGTERM; bench/overhead.sh and bench/overhead-guest.sh time getpid
 * meanwhile. FLOOR: enter (sys_enter), both (sys_enter and sys_exit), or a
 * trampoline mode (filter-op, filter-syscall, syscall-exit): its hooks; or
 * hotspots: the hooks of `auditskip hotspots` (the walk at
 * __audit_filter_op, or at audit_filter_syscall where the kernel has no
 * such function).
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/btf.h>
#include "empty_probes.skel.h"

static void on_signal(int sig)
{
	(void)sig;
}

enum floor {
	ENTER,
	BOTH,
	FILTER_OP,
	FILTER_SYSCALL,
	SYSCALL_EXIT,
	HOTSPOTS,
	NR_FLOORS
};

static const char *const floor_names[NR_FLOORS] = {
	[ENTER] = "enter",
	[BOTH] = "both",
	[FILTER_OP] = "filter-op",
	[FILTER_SYSCALL] = "filter-syscall",
	[SYSCALL_EXIT] = "syscall-exit",
	[HOTSPOTS] = "hotspots",
};

static int floor_named(const char *name)
{
	for (int f = 0; f < NR_FLOORS; f++)
		if (!strcmp(name, floor_names[f]))
			return f;
	return -1;
}

static bool in_btf(const char *func)
{
	struct btf *btf = btf__load_vmlinux_btf();
	bool found = btf && btf__find_by_name_kind(btf, func, BTF_KIND_FUNC) >= 0;

	btf__free(btf);
	return found;
}

static void set_autoload(struct empty_probes_bpf *skel, int f)
{
	bool hs = f == HOTSPOTS, op = hs && in_btf("__audit_filter_op");
	struct bpf_program *hotspots_only[] = {
		skel->progs.empty_syscall_exit_end, skel->progs.empty_entry_start,
		skel->progs.empty_entry_end,	    skel->progs.empty_free_start,
		skel->progs.empty_free_end,	    skel->progs.empty_inodes_start,
		skel->progs.empty_inodes_end,	    skel->progs.empty_log_exit_start,
		skel->progs.empty_log_exit_end,	    skel->progs.empty_log_start_start,
		skel->progs.empty_log_start_end,    skel->progs.empty_sched_switch,
	};

	bpf_program__set_autoload(skel->progs.empty_sys_enter, f == ENTER || f == BOTH || hs);
	bpf_program__set_autoload(skel->progs.empty_sys_exit, f == BOTH || hs);
	bpf_program__set_autoload(skel->progs.empty_filter_op_entry, f == FILTER_OP || op);
	bpf_program__set_autoload(skel->progs.empty_filter_op_exit, f == FILTER_OP || op);
	bpf_program__set_autoload(skel->progs.empty_filter_syscall_entry,
				  f == FILTER_SYSCALL || (hs && !op));
	bpf_program__set_autoload(skel->progs.empty_filter_syscall_exit,
				  f == FILTER_SYSCALL || (hs && !op));
	bpf_program__set_autoload(skel->progs.empty_syscall_exit, f == SYSCALL_EXIT || hs);
	for (size_t i = 0; i < sizeof(hotspots_only) / sizeof(hotspots_only[0]); i++)
		bpf_program__set_autoload(hotspots_only[i], hs);
}

int main(int argc, char **argv)
{
	struct empty_probes_bpf *skel;
	int f = argc == 2 ? floor_named(argv[1]) : -1;

	if (f < 0) {
		fprintf(stderr,
			"usage: %s enter|both|filter-op|filter-syscall|syscall-exit|hotspots\n",
			argv[0]);
		return 2;
	}
	skel = empty_probes_bpf__open();
	if (!skel) {
		perror("empty_probes: open");
		return 1;
	}
	set_autoload(skel, f);
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
