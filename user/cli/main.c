// SPDX-License-Identifier: GPL-2.0
/*
 * auditskip: how often would the aggregate syscall-mask check of the audit
 * patch series skip the exit filter walk, on this stock kernel?
 */
#include <argp.h>
#include <string.h>
#include <libaudit.h>
#include "cli/commands.h"

/* Summaries fit --help's 79 columns beside the names. */
const struct cli_command cli_commands[] = {
	{ "count", do_count, "count the walks the skip would save (the default)" },
	{ "rules", do_rules, "the exit rules, their aggregate mask, full-mask rules" },
	{ "calibrate", do_calibrate, "measure the ns a visited rule entry costs, to price walks" },
	{ "advise", do_advise, "equivalent rules that let the skip fire (for auditctl -R)" },
	{ "profile", do_profile, "record a workload's syscalls, no rule needed" },
	{ "whatif", do_whatif, "predict a rule set's walks on a profile, nothing loaded" },
	{ "hotspots", do_hotspots, "where audit's time goes in each syscall, part by part" },
	{},
};

/* argv[1] names the command; none, or an option first, means counting. */
int main(int argc, char **argv)
{
	argp_err_exit_status = 2;
	set_aumessage_mode(MSG_QUIET, DBG_NO);
	if (argc > 1 && argv[1][0] != '-') {
		for (const struct cli_command *c = cli_commands; c->name; c++)
			if (!strcmp(argv[1], c->name))
				return c->run(argc - 1, argv + 1);
	}
	return do_count(argc, argv);
}
