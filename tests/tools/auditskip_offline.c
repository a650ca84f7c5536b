// SPDX-License-Identifier: GPL-2.0
/*
 * auditskip's offline commands, rules and whatif, alone in a binary linked
 * without libbpf (Makefile): that it links at all shows their code needs no
 * BPF; tests/host/offline.sh holds its output to the full binary's.
 */
#include <argp.h>
#include <stdio.h>
#include <string.h>
#include <libaudit.h>
#include "cli/commands.h"

int main(int argc, char **argv)
{
	argp_err_exit_status = 2;
	set_aumessage_mode(MSG_QUIET, DBG_NO);
	if (argc > 1 && !strcmp(argv[1], "rules"))
		return do_rules(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "whatif"))
		return do_whatif(argc - 1, argv + 1);
	fprintf(stderr, "usage: %s rules|whatif [OPTION...]\n", argv[0]);
	return 2;
}
