// SPDX-License-Identifier: GPL-2.0
/* auditskip calibrate: the cost of a visited rule entry, saved for the time estimates. */
#include <argp.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "audit/ruleset.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "live/attach.h"
#include "live/calibrate.h"
#include "model/calibration.h"

struct calibrate_options {
	const char *calibration; /* the file to write, NULL: the default */
	int rules;		 /* most rules added; 0: max(64, exit rules) */
	int cpu;		 /* CPU to time on, -1: the current one */
	bool verbose;
};

enum {
	OPT_CALIBRATION = 0x100,
	OPT_MAX_RULES,
	OPT_CPU,
};

static const char doc[] =
	"Times getpid with 0 to N rules that cannot match it, then with N rules that\n"
	"name getpid and fail at a field of each kind, then with one rule and the\n"
	"counting programs of the best mode attached, restores the rule list, and\n"
	"saves the curve that prices the skippable walks, the price of an evaluation\n"
	"per field kind and what counting adds to a syscall (root).\n"
	"\v"
	"Examples:\n"
	"    auditskip calibrate       # ns per visited rule entry, for time estimates\n"
	"    auditskip calibrate --max-rules 256 --cpu 0   # up to 256 rules, on CPU 0\n"
	"    auditskip calibrate --calibration cal.json\n"
	"                              # counting reads it with --calibration cal.json\n"
	"\n"
	"Exit status 75: audit policy changed during the measurement, or the machine\n"
	"was too noisy to show the cost of a visit or of an evaluation; try again.\n"
	"Exit status 130: stopped by Ctrl-C (or TERM, HUP, QUIT); nothing saved, the\n"
	"rules and audit's enabled flag put back as they were first.\n";

static const struct argp_option options[] = {
	{ "max-rules", OPT_MAX_RULES, "N", 0,
	  "Most rules to add (default: 64, or the exit rules loaded)", 0 },
	{ "cpu", OPT_CPU, "CPU", 0, "CPU to time on", 0 },
	{ "calibration", OPT_CALIBRATION, "FILE", 0,
	  "Calibration to write (default /var/lib/auditskip/calibration.json)", 0 },
	{ "verbose", 'v', NULL, 0, "Report the rules saved and each timing pass on standard error",
	  0 },
	{},
};

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct calibrate_options *o = state->input;
	long v;

	switch (key) {
	case OPT_MAX_RULES:
		if (parse_long(arg, 1, 4096, &v))
			cli_usage_error(state, "invalid --max-rules '%s': give 1 to 4096", arg);
		o->rules = v;
		break;
	case OPT_CPU:
		if (parse_long(arg, 0, 4095, &v))
			cli_usage_error(state, "invalid --cpu '%s'", arg);
		o->cpu = v;
		break;
	case OPT_CALIBRATION:
		o->calibration = arg;
		break;
	case 'v':
		o->verbose = true;
		break;
	case ARGP_KEY_ARG:
		cli_usage_error(state, "unexpected argument '%s'", arg);
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp argp = { options, parse_opt, NULL, doc, cli_children, NULL, NULL };

/* The per-entry cost grows with the list: calibrate up to its length. */
static int rules_to_calibrate(void)
{
	struct ruleset rs;
	int rules;

	if (ruleset_load(&rs)) {
		fprintf(stderr, "auditskip: cannot list audit rules\n");
		return -1;
	}
	rules = ruleset_exit_rules(&rs) > 64 ? ruleset_exit_rules(&rs) : 64;
	ruleset_free(&rs);
	return rules;
}

/* What each kind's rules were, for the person reading the table. */
static const char *const eval_kind_what[NR_EVAL_KINDS] = {
	[EVAL_ARCH] = "arch field that fails",
	[EVAL_UID] = "uid field that fails",
	[EVAL_AUID] = "auid field that fails",
	[EVAL_GID] = "gid field that fails",
	[EVAL_PERM] = "perm=wa field that fails (class lookup)",
	[EVAL_EXIT] = "exit= field that fails",
	[EVAL_SUCCESS] = "success= field that fails",
	[EVAL_DIR] = "dir= (tree) field that fails",
	[EVAL_EXE] = "exe= field that fails",
	[EVAL_LSM] = "subject label field that fails (asks the LSM)",
	[EVAL_ARCH_PASS] = "arch field that passes, then a uid field that fails",
	[EVAL_MATCH] = "a keyless never rule that matches (a prefix entry)",
};

static void print_calibration(const struct calibration *c, const char *path)
{
	printf("calibrated up to %d rules: %.2f ns per visited entry (fit), %.0f ns for a non-dummy context\n",
	       c->rules_used, c->ns_per_entry, c->ns_context);
	printf("a walk is priced on the curve of these points, measured from 0 to %d entries\n"
	       "(the price per entry changes with the list's length: caches); past %d, at the\n"
	       "slope of its upper half, so --max-rules near the lists you price\n",
	       c->rules_used, c->rules_used);
	for (int i = 0; i < c->npoints; i++) {
		printf("  %4d rules: getpid %.0f ns\n", c->points[i].rules, c->points[i].ns);
		if (c->points[i].rules == 0)
			printf("  empty exit list (one task rule): getpid %.0f ns\n",
			       c->ns_empty_walk);
	}
	printf("evaluations (an entry whose mask has the syscall's bit), ns each beyond the visit:\n");
	for (int k = 0; k < NR_EVAL_KINDS; k++) {
		if (c->eval_measured[k])
			printf("  %-10s %6.1f ns  %s\n", eval_kind_names[k], c->ns_eval[k],
			       eval_kind_what[k]);
		else
			printf("  %-10s %9s  %s\n", eval_kind_names[k], "refused",
			       eval_kind_what[k]);
	}
	if (c->walk_call_timed)
		printf("  the call that walks an empty exit list: %.1f ns (fentry/fexit timing)\n",
		       c->ns_walk_call);
	else
		printf("  the call that walks an empty exit list: not timed here (no fentry), "
		       "left out of predictions\n");
	if (!c->counting_mode[0])
		printf("what counting adds to a syscall: not measured (no attach mode loads)\n");
	else if (c->ns_counting > 0)
		printf("what counting adds to a syscall: %.1f ns (getpid with mode %s's counting "
		       "programs attached, less with nothing attached)\n",
		       c->ns_counting, c->counting_mode);
	else
		printf("what counting adds to a syscall: %.1f ns with mode %s, not above this "
		       "machine's noise: not used\n",
		       c->ns_counting, c->counting_mode);
	printf("saved to %s\n", path);
}

int do_calibrate(int argc, char **argv)
{
	struct calibrate_options o = { .cpu = -1 };
	struct calibration c;
	const char *path;
	int rules, err = cli_parse(&argp, "calibrate", argc, argv, &o, NULL);

	if (err)
		return err;
	path = o.calibration ? o.calibration : calibration_default_path();
	if (preflight(false, 0))
		return 1;
	rules = o.rules ? o.rules : rules_to_calibrate();
	if (rules < 0)
		return 1;
	attach_libbpf_log(o.verbose);
	err = calibrate_run_on_cpu(rules, o.cpu, o.verbose, &c);
	if (err == -EINTR)
		return 130;
	if (err) /* 75 (EX_TEMPFAIL): audit policy changed meanwhile, or too noisy; try again */
		return err == -EBUSY || err == -EAGAIN ? 75 : 1;
	err = calibration_save(path, &c);
	if (err) {
		fprintf(stderr, "auditskip: cannot save %s: %s\n", path, strerror(-err));
		return 1;
	}
	print_calibration(&c, path);
	return 0;
}
