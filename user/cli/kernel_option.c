// SPDX-License-Identifier: GPL-2.0
#include <argp.h>
#include <stdbool.h>
#include <stdio.h>
#include "audit/kernel_tables.h"
#include "audit/rules_file.h"
#include "cli/common.h"
#include "cli/kernel_option.h"

enum {
	OPT_KERNEL = 0x180,
	OPT_KEEP_REFUSED,
};

static bool keep_refused;

static const struct argp_option options[] = {
	{ "keep-refused", OPT_KEEP_REFUSED, NULL, 0,
	  "With --file, keep the rules that would not load here (a directory they name is missing, or auditctl here knows no syscall they name) in the analysis; by default they are left out, as auditctl -R with -i leaves them",
	  0 },
	{ "kernel", OPT_KERNEL, "VERSION", 0,
	  "Take syscall names and perm= classes from Linux VERSION's tables (5.10, 6.1, 6.12 or 7.2; default: the nearest at or above the running kernel, else the newest)",
	  0 },
	{},
};

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	if (key == OPT_KEEP_REFUSED) {
		keep_refused = true;
		return 0;
	}
	if (key != OPT_KERNEL)
		return ARGP_ERR_UNKNOWN;
	if (kernel_tables_choose(arg))
		cli_usage_error(state, "no syscall table for Linux '%s' (there are: %s)", arg,
				kernel_tables_versions());
	return 0;
}

static const struct argp kernel_argp = { options, parse_opt, NULL, NULL, cli_children, NULL, NULL };

const struct argp_child cli_children_with_kernel[] = {
	{ &kernel_argp, 0, NULL, 0 },
	{},
};

int cli_leave_out_refused(struct ruleset *rs)
{
	if (keep_refused || !rules_file_leave_out_refused(rs))
		return 0;
	fprintf(stderr, "auditskip: out of memory\n");
	return -1;
}
