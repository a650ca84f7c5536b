// SPDX-License-Identifier: GPL-2.0
/* auditskip whatif: a rule set's walks predicted on a recorded profile, nothing loaded. */
#include <argp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "audit/kernel_rule.h"
#include "audit/rules_source.h"
#include "audit/ruleset.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "cli/kernel_option.h"
#include "live/sysinfo.h"
#include "model/designs.h"
#include "model/prediction.h"
#include "model/profile.h"
#include "model/rule_compare.h"
#include "model/rule_cost.h"
#include "model/whatif_masks.h"
#include "output/whatif_report.h"

struct whatif_options {
	const char *profile;	 /* --profile FILE */
	const char *rules;	 /* --file PATH, "-": the rules loaded now */
	const char *compare;	 /* --compare PATH: a second rule set, or NULL */
	const char *calibration; /* the time model, NULL: the default */
	int top;
	bool json;
};

enum {
	OPT_JSON = 0x100,
	OPT_PROFILE,
	OPT_FILE,
	OPT_CALIBRATION,
	OPT_COMPARE,
};

static const char doc[] =
	"Predicts, for a rule set and a recorded profile, per syscall, the walks,\n"
	"skippable walks (the patch's mask and the sharper ones), needless rule\n"
	"visits, each exit rule's visits, evaluations and cost, and the time saved\n"
	"(with --compare, beside a second rule set, rule by rule), without loading\n"
	"anything.\n"
	"\v"
	"Examples:\n"
	"    auditskip whatif --file 30-stig.rules --profile make.prof\n"
	"                              # that rule set on that workload, nothing loaded\n"
	"    auditskip whatif --file /etc/audit/rules.d --profile make.prof --json\n"
	"    auditskip whatif --profile make.prof   # the rules loaded now (root)\n"
	"    auditskip whatif --file a.rules --compare b.rules --profile make.prof\n"
	"                              # the two sets rule by rule on the same walks\n"
	"\n"
	"Record a profile with 'auditskip profile -o FILE -- COMMAND'.\n";

static const struct argp_option options[] = {
	{ "profile", OPT_PROFILE, "FILE", 0, "The profile to predict on (from 'profile -o')", 0 },
	{ "file", OPT_FILE, "PATH", 0,
	  "The rules file or rules.d directory to predict for ('-', the default: the rules loaded now)",
	  0 },
	{ "compare", OPT_COMPARE, "PATH", 0,
	  "Also cost this rules file or rules.d directory on the same walks and compare the two rule by rule",
	  0 },
	{ "top", 'n', "N", 0, "Show the top N syscalls and rules (default 10)", 0 },
	{ "json", OPT_JSON, NULL, 0, "One JSON object", 0 },
	{ "calibration", OPT_CALIBRATION, "FILE", 0,
	  "Calibration to price the walks with (default /var/lib/auditskip/calibration.json)", 0 },
	{},
};

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct whatif_options *o = state->input;

	switch (key) {
	case OPT_PROFILE:
		o->profile = arg;
		break;
	case OPT_FILE:
		o->rules = arg;
		break;
	case 'n':
		o->top = cli_parse_top(state, arg);
		break;
	case OPT_JSON:
		o->json = true;
		break;
	case OPT_CALIBRATION:
		o->calibration = arg;
		break;
	case OPT_COMPARE:
		o->compare = arg;
		break;
	case ARGP_KEY_ARG:
		cli_usage_error(state, "unexpected argument '%s'", arg);
	case ARGP_KEY_END:
		if (!o->profile)
			cli_usage_error(
				state,
				"whatif needs --profile FILE (record one with 'auditskip profile -o FILE -- COMMAND')");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp argp = { options, parse_opt, NULL, doc, cli_children_with_kernel,
				  NULL,	   NULL };

static void report(const struct whatif_options *o, const struct ruleset *rs,
		   const struct profile *prof, const struct prediction *pred,
		   const struct rule_costs *costs, const struct design_savings *designs,
		   const struct calibration *calib, const char *calib_from,
		   const struct whatif_compared *compared)
{
	char kernel[128];

	kernel_release(kernel, sizeof(kernel));
	prediction_report(stdout,
			  &(struct whatif_run){
				  .rules_path = o->rules,
				  .profile_path = o->profile,
				  .rules = rs,
				  .profile = prof,
				  .pred = pred,
				  .costs = costs,
				  .designs = designs,
				  .calib = calib,
				  .calib_from = calib_from,
				  .kernel = kernel,
				  .perm_classes = whatif_perm_classes(NULL),
				  .top = o->top,
				  .compared = compared,
			  },
			  o->json);
}

/*
 * A rule set's cost per rule on the profile's walks: none where its rules
 * leave contexts dummy (nothing walks); *pred kept where not NULL. 0, or 1
 * after a message.
 */
static int cost_set(const char *path, const struct profile *prof, const struct calibration *calib,
		    struct ruleset *rs, struct rule_costs *costs, struct prediction *pred)
{
	static const __u64 no_walks[NR_COUNT_SLOTS];
	struct prediction own;
	char why[512];
	int err;

	if (rules_source_read(path, rs, why, sizeof(why))) {
		fprintf(stderr, "auditskip: %s\n", why);
		return 1;
	}
	if (cli_leave_out_refused(rs))
		return 1;
	if (!pred)
		pred = &own;
	err = prediction_make(rs, prof, NULL, pred);
	if (!err) {
		err = rule_costs_make(rs,
				      &(struct walk_tally){ .walks = pred->walks_at_all ?
									     prof->calls :
									     no_walks },
				      calib, costs);
		if (err || pred == &own)
			prediction_free(pred);
	}
	if (err)
		fprintf(stderr, "auditskip: out of memory\n");
	return !!err;
}

int do_whatif(int argc, char **argv)
{
	struct whatif_options o = { .rules = "-", .top = 10 };
	struct calibration calib;
	static struct prediction pred; /* empty until made: out frees it either way */
	struct rule_costs costs = { 0 };
	struct design_savings designs;
	struct kernel_classes kc;
	struct ruleset rs = { 0 }, other = { 0 };
	struct rule_costs other_costs = { 0 };
	struct rule_comparison by_rule = { 0 };
	struct whatif_compared compared;
	struct profile *prof;
	const char *calib_from;
	int ret = 1, err = cli_parse(&argp, "whatif", argc, argv, &o, NULL);

	if (err)
		return err;
	prof = open_profile(o.profile, o.calibration, &calib, &calib_from);
	if (!prof)
		return 1;
	/* The rules loaded now need CAP_AUDIT_CONTROL; a rules file needs nothing. */
	if (!strcmp(o.rules, "-") &&
	    preflight_list_rules("auditskip whatif --file /etc/audit/rules.d --profile FILE"))
		goto out;
	if (cost_set(o.rules, prof, &calib, &rs, &costs, &pred))
		goto out;
	if (o.compare) {
		if (cost_set(o.compare, prof, &calib, &other, &other_costs, NULL))
			goto out;
		if (rule_compare_make(&rs, &costs, &other, &other_costs, &by_rule)) {
			fprintf(stderr, "auditskip: out of memory\n");
			goto out;
		}
		compared = (struct whatif_compared){ .path = o.compare,
						     .rules = &other,
						     .costs = &other_costs,
						     .by_rule = &by_rule };
	}
	/* The prefix from the tables' classes, as the sharper masks here are built. */
	kernel_classes_from_tables(&kc);
	if (design_savings_make(&rs, &pred, &kc, &calib, &designs)) {
		fprintf(stderr, "auditskip: out of memory\n");
		goto out;
	}
	report(&o, &rs, prof, &pred, &costs, &designs, &calib, calib_from,
	       o.compare ? &compared : NULL);
	design_savings_free(&designs);
	ret = 0;
out:
	rule_costs_free(&costs);
	prediction_free(&pred);
	rule_comparison_free(&by_rule);
	rule_costs_free(&other_costs);
	ruleset_free(&other);
	ruleset_free(&rs);
	free(prof);
	return ret;
}
