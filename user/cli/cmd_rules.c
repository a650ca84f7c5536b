// SPDX-License-Identifier: GPL-2.0
/*
 * auditskip rules: the exit rules, their aggregate mask, the rules that set
 * every bit and the rules a never rule before them shadows.
 */
#include <argp.h>
#include <stdio.h>
#include <string.h>
#include "audit/ruleset.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "cli/kernel_option.h"
#include "output/rules_report.h"
#include "output/count_report.h"

struct rules_options {
	const char *file; /* --file: a rules file or rules.d directory, NULL: the loaded rules */
	bool json;
};

enum {
	OPT_JSON = 0x100,
	OPT_FILE,
};

static const char doc[] =
	"Prints the exit rules, their aggregate syscall mask, the rules that set\n"
	"every bit, the fewest rules that keep the skip from firing, and the rules\n"
	"a never rule before them shadows: they make no record for its syscalls.\n"
	"\v"
	"Examples:\n"
	"    auditskip rules            # the rules loaded now (root)\n"
	"    auditskip rules --file /etc/audit/rules.d\n"
	"                               # the same for rules not loaded\n"
	"    auditskip rules --json     # one JSON object\n";

static const struct argp_option options[] = {
	{ "file", OPT_FILE, "PATH", 0,
	  "Read PATH, a rules file in auditctl syntax or a rules.d directory (in augenrules' order), instead of the loaded rules; loads nothing",
	  0 },
	{ "json", OPT_JSON, NULL, 0, "One JSON object", 0 },
	{},
};

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct rules_options *o = state->input;

	switch (key) {
	case OPT_FILE:
		o->file = arg;
		break;
	case OPT_JSON:
		o->json = true;
		break;
	case ARGP_KEY_ARG:
		cli_usage_error(state, "unexpected argument '%s'", arg);
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp argp = { options, parse_opt, NULL, doc, cli_children_with_kernel,
				  NULL,	   NULL };

int do_rules(int argc, char **argv)
{
	struct rules_options o = { 0 };
	struct ruleset rs;
	int err = cli_parse(&argp, "rules", argc, argv, &o, NULL);

	if (err)
		return err;
	/* A rules file is only read: no privilege is needed. */
	if (o.file) {
		if (read_rules_file(o.file, &rs))
			return 1;
	} else {
		if (preflight_list_rules("auditskip rules --file /etc/audit/rules.d"))
			return 1;
		err = ruleset_load(&rs);
		if (err) {
			fprintf(stderr, "auditskip: cannot list audit rules: %s\n", strerror(-err));
			return 1;
		}
	}
	report_rules(stdout, &rs, o.json);
	ruleset_free(&rs);
	return 0;
}
