// SPDX-License-Identifier: GPL-2.0
/* auditskip advise: equivalent rules that let the skip fire, and the file to load them from. */
#include <argp.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "audit/kernel_rule.h"
#include "audit/ruleset.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "cli/kernel_option.h"
#include "cli/rules_output.h"
#include "cli/run_options.h"
#include "live/session.h"
#include "live/sysinfo.h"
#include "model/advise.h"
#include "model/advise_profile.h"
#include "model/never_prefix.h"
#include "model/whatif_masks.h"
#include "output/never_prefix_report.h"

struct advise_options {
	const char *file;    /* --file: a rules file or rules.d directory, NULL: the loaded rules */
	const char *output;  /* -o: the rewritten rules file, or NULL */
	const char *profile; /* --profile: also predict the rewrite's effect on it */
	bool json;
	bool classes_from_kernel; /* --classes-from-kernel: read them with BPF, also for --file */
	bool never_prefix; /* --never-prefix: the set behind never,exit rules, not a rewrite */
	struct count_options run; /* reading the kernel's permission classes with BPF */
};

enum {
	OPT_JSON = 0x100,
	OPT_FILE,
	OPT_PROFILE,
	OPT_CALIBRATION,
	OPT_BTF,
	OPT_CLASSES_FROM_KERNEL,
	OPT_NEVER_PREFIX,
};

static const char doc[] =
	"Prints equivalent rewrites of the exit rules that make the same audit\n"
	"records and let the skip fire, and with -o writes them as a rules file\n"
	"for auditctl -R.\n"
	"\v"
	"Examples:\n"
	"    auditskip advise -o r.rules  # equivalent rules that let the skip fire\n"
	"    auditskip advise --file /etc/audit/rules.d -o r.rules\n"
	"                                 # the same for rules not loaded\n"
	"    auditskip advise --profile make.prof --json\n"
	"                                 # and the rewrite's effect on a workload\n"
	"    auditskip advise --never-prefix --profile make.prof -o p.rules\n"
	"                                 # the set as it is, behind never,exit rules\n"
	"                                 # that save time on a stock kernel today\n"
	"\n"
	"perm= rules are narrowed with permission classes. With --file they come\n"
	"from auditskip's table of the kernel --kernel names (default: the nearest\n"
	"at or above the running kernel, else the newest): nothing is loaded and no\n"
	"privilege is needed; --classes-from-kernel reads the running kernel's\n"
	"instead, with BPF (root). On the loaded rules, the running kernel's classes\n"
	"are read with BPF (root); where they cannot be, the table's are used.\n"
	"\n"
	"The file keeps the input's settings (-i or -c first, -b, -f, -r,\n"
	"--backlog_wait_time, the last -e at the end), leaves out as a comment\n"
	"every rule the kernel here refuses, and replaces FILE only once written\n"
	"whole. advise never writes onto a file or into a directory it read.\n"
	"\n"
	"--never-prefix writes no rewrite: it puts one never,exit rule per arch in\n"
	"front of the set, naming the syscalls no rule of that arch can match, so\n"
	"that their walk ends at its first entry instead of visiting every rule.\n"
	"A never match also silences every later rule, watches and path= rules\n"
	"included: the syscalls they can match (by their permission classes) stay\n"
	"out, and the report names the rules that keep them out. So do the\n"
	"syscalls whose own code logs records (sends to netlink, setsockopt, ioctl,\n"
	"bpf, write, clock changes). It writes nothing where a task rule records\n"
	"every syscall or one rule is on the exit list; with -o it then exits 1\n"
	"and removes an older file it wrote there. A record any call can log\n"
	"without a rule (an LSM's denial, seccomp's) loses its SYSCALL record on\n"
	"the syscalls the prefix names. With --profile, an arch's rule that costs\n"
	"the profiled walks more than it saves them (the b32 rule where no i386\n"
	"task runs) is left out. Without it, each syscall's walk is priced with\n"
	"the calibration (--calibration, else the default file, else the series'\n"
	"2.8 ns an entry): an arch's rule whose walks it ends save nothing on\n"
	"average is left out, and the report says when the prefix is unlikely to\n"
	"pay (a walk it ends saves no more than one it does not end costs, or less\n"
	"than its own entry and match cost that walk).\n";

static const struct argp_option options[] = {
	{ "file", OPT_FILE, "PATH", 0,
	  "Read PATH, a rules file in auditctl syntax or a rules.d directory (in augenrules' order), instead of the loaded rules; loads nothing unless --classes-from-kernel",
	  0 },
	{ "classes-from-kernel", OPT_CLASSES_FROM_KERNEL, NULL, 0,
	  "With --file, narrow perm= rules with the running kernel's permission classes, read by loading BPF programs (root), instead of the kernel table",
	  0 },
	{ "never-prefix", OPT_NEVER_PREFIX, NULL, 0,
	  "Instead of a rewrite: the set behind never,exit rules that end the walk at once for the syscalls no rule can match (a stock kernel's saving)",
	  0 },
	{ "output", 'o', "FILE", 0,
	  "Write the rewritten rules (or the prefixed set) to FILE (for auditctl -R)", 0 },
	{ "profile", OPT_PROFILE, "FILE", 0,
	  "Also predict the rewrite's effect on FILE (from 'profile -o'); with --never-prefix, fit the prefix to it and set its saving against the patch's",
	  0 },
	{ "json", OPT_JSON, NULL, 0, "JSON objects", 0 },
	{ "top", 'n', "N", 0, "With --profile, show the top N syscalls (default 10)", 0 },
	{ "calibration", OPT_CALIBRATION, "FILE", 0,
	  "Calibration to price the walks with (default /var/lib/auditskip/calibration.json)", 0 },
	{ "mode", 'm', "MODE", 0,
	  "Force the attach mode that reads the running kernel's permission classes", 0 },
	{ "btf", OPT_BTF, "FILE", 0, "Kernel BTF (default /sys/kernel/btf/vmlinux)", 0 },
	{ "verbose", 'v', NULL, 0, "Say why modes were passed over; libbpf's log", 0 },
	{},
};

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct advise_options *o = state->input;

	switch (key) {
	case OPT_FILE:
		o->file = arg;
		break;
	case 'o':
		o->output = arg;
		break;
	case OPT_PROFILE:
		o->profile = arg;
		break;
	case OPT_JSON:
		o->json = true;
		break;
	case OPT_CLASSES_FROM_KERNEL:
		o->classes_from_kernel = true;
		break;
	case OPT_NEVER_PREFIX:
		o->never_prefix = true;
		break;
	case 'n':
		o->run.top = cli_parse_top(state, arg);
		break;
	case OPT_CALIBRATION:
		o->run.calibration = arg;
		break;
	case 'm':
		o->run.mode = cli_parse_mode(state, arg);
		break;
	case OPT_BTF:
		o->run.btf_path = arg;
		break;
	case 'v':
		o->run.verbose = true;
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

/*
 * The permission classes as the running kernel filled them, the way a
 * counting run gets them: BPF copies them on the first rule listing where
 * it keeps the mask mirror (fexit programs, bpf_loop(), 'classes' in
 * /proc/kallsyms). False elsewhere.
 */
static bool read_kernel_classes(struct count_options *run, struct kernel_classes *out)
{
	struct session ss;
	bool got = false;
	int err = session_open(&ss, run);

	if (!err)
		err = session_attach(&ss);
	if (!err && kernel_classes_valid(&ss.kernel_classes)) {
		*out = ss.kernel_classes;
		got = true;
	}
	session_close(&ss, err);
	return got;
}

/*
 * --file: the rules file, and its perm= classes from the kernel table, or
 * with --classes-from-kernel from the running kernel (root, BPF). 0, or -1
 * after a message.
 */
static int read_file_rules(struct advise_options *o, struct ruleset *rs, struct kernel_classes *kc,
			   enum advise_classes *from)
{
	if (o->classes_from_kernel && preflight(false, 0))
		return -1;
	if (read_rules_file(o->file, rs))
		return -1;
	if (!o->classes_from_kernel) {
		kernel_classes_from_tables(kc);
		*from = CLASSES_TABLE;
		return 0;
	}
	if (!read_kernel_classes(&o->run, kc)) {
		fprintf(stderr,
			"auditskip: cannot read the running kernel's permission classes (-v says why); without --classes-from-kernel the kernel table is used\n");
		ruleset_free(rs);
		return -1;
	}
	*from = CLASSES_KERNEL;
	return 0;
}

/*
 * The rules to advise on, and where their perm= classes come from. On the
 * loaded rules, the running kernel's classes (root, BPF), else, as for
 * --file, the kernel table. 0, or -1 after a message.
 */
static int read_rules(struct advise_options *o, struct ruleset *rs, struct kernel_classes *kc,
		      enum advise_classes *from)
{
	int err;

	if (o->file)
		return read_file_rules(o, rs, kc, from);
	if (preflight_offline(false, 0, "auditskip advise --file /etc/audit/rules.d"))
		return -1;
	*from = CLASSES_KERNEL;
	if (!read_kernel_classes(&o->run, kc)) {
		kernel_classes_from_tables(kc);
		*from = CLASSES_TABLE;
	}
	err = ruleset_load(rs);
	if (err) {
		fprintf(stderr, "auditskip: cannot list audit rules: %s\n", strerror(-err));
		return -1;
	}
	return 0;
}

/*
 * -o FILE: the rewritten rules, or with --never-prefix (p) the prefixed
 * set, written whole or not at all; 0, or -1 after a message.
 */
static int write_rules(const struct advise_options *o, const struct ruleset *rs,
		       const struct advice *a, const struct never_prefix *p)
{
	const char *source = o->file ? o->file : "the rules loaded";
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int err = f ? 0 : -ENOMEM;

	if (!err) {
		err = p ? never_prefix_write(f, rs, p, source) :
			  advise_write_rules(f, rs, a, source);
		if (fclose(f) && !err)
			err = -ENOMEM;
	}
	if (err == -ENOMEM)
		fprintf(stderr, "auditskip: out of memory\n");
	if (!err)
		err = rules_output_write(o->output, text, len);
	free(text);
	return err ? -1 : 0;
}

/* --profile: the rewrite's predicted effect on a recorded workload. */
static int advise_on_profile(const struct advise_options *o, const struct ruleset *rs,
			     const struct advice *a, const struct kernel_classes *kc)
{
	struct advise_prediction ap;
	struct calibration calib;
	const char *calib_from;
	struct profile *prof = open_profile(o->profile, o->run.calibration, &calib, &calib_from);
	int ret = 1;

	if (!prof)
		return 1;
	if (!advise_predict(rs, a, prof, kc, &calib, &ap)) {
		advise_prediction_report(stdout, &ap, prof, o->profile, &calib, o->run.top,
					 o->json);
		ret = 0;
	}
	advise_prediction_free(&ap);
	free(prof);
	return ret;
}

/*
 * --never-prefix: the prefix, the file with it (-o, where there is one),
 * and with --profile its saving against the patch's with the same rules
 * and with the rewrite `a`.
 */
static int advise_never_prefix(const struct advise_options *o, const struct ruleset *rs,
			       const struct advice *a, const struct kernel_classes *kc)
{
	struct never_prefix_prediction pp;
	struct never_prefix_price price;
	struct advise_prediction ap;
	struct never_prefix p;
	struct calibration calib;
	const char *calib_from = NULL;
	struct profile *prof = NULL;
	bool written, priced = false;
	int ret = 1;

	if (never_prefix_build(rs, kc, &p)) {
		fprintf(stderr, "auditskip: out of memory\n");
		return 1;
	}
	if (!o->profile && !p.refused && p.rules) {
		/* Priced walk by walk: a rule whose walks save nothing on average is left out. */
		if (calibration_choose(o->run.calibration, &calib, &calib_from))
			goto out;
		if (never_prefix_price(&p, rs, &calib, &price)) {
			fprintf(stderr, "auditskip: out of memory\n");
			goto out;
		}
		priced = true;
	}
	if (o->profile) {
		prof = open_profile(o->profile, o->run.calibration, &calib, &calib_from);
		if (!prof)
			goto out;
		if (advise_predict(rs, a, prof, kc, &calib, &ap))
			goto out;
		if ((!p.refused && never_prefix_fit(&p, rs, &ap.before, &calib)) ||
		    never_prefix_predict(&p, rs, &ap.before, &ap.after, &calib, prof->seconds,
					 &pp)) {
			fprintf(stderr, "auditskip: out of memory\n");
			goto out;
		}
	}
	/* A prefix the profile prices as a loss is not written. */
	written = o->output && p.rules && !(prof && pp.prefix_ns <= 0);
	if (written && write_rules(o, rs, a, &p))
		goto out;
	never_prefix_report(
		stdout, &p, prof ? &pp : NULL, o->profile, priced ? &price : NULL, calib_from,
		&(struct never_prefix_classes){ advise_classes_key(a), advise_classes_from(a) },
		written ? o->output : NULL, o->json);
	ret = o->output && !written ?
		      rules_output_none(
			      o->output,
			      p.refused ?
				      p.refused :
			      p.rules ?
				      "on the profile the prefix costs more than it saves" :
			      priced ?
				      "no prefix rule saves the walks it ends anything on average" :
				      "no prefix rule to write") :
		      0;
out:
	if (prof) {
		advise_prediction_free(&ap);
		free(prof);
	}
	never_prefix_free(&p);
	return ret;
}

int do_advise(int argc, char **argv)
{
	struct advise_options o = { 0 };
	struct kernel_classes kc;
	struct advice a;
	struct ruleset rs;
	enum advise_classes from = CLASSES_NONE;
	int ret = 1, err;

	count_options_init(&o.run);
	err = cli_parse(&argp, "advise", argc, argv, &o, NULL);
	if (err)
		return err;
	if (read_rules(&o, &rs, &kc, &from))
		return 1;
	if (o.output && rules_output_check(o.output, o.file, &rs)) {
		ruleset_free(&rs);
		return 1;
	}
	if (advise_build(&rs, from != CLASSES_NONE ? &kc : NULL, from, &a)) {
		fprintf(stderr, "auditskip: out of memory\n");
		ruleset_free(&rs);
		return 1;
	}
	if (o.never_prefix) {
		ret = advise_never_prefix(&o, &rs, &a, from != CLASSES_NONE ? &kc : NULL);
	} else if (!o.output || !write_rules(&o, &rs, &a, NULL)) {
		advise_report(stdout, &rs, &a, o.json);
		ret = o.profile ?
			      advise_on_profile(&o, &rs, &a, from != CLASSES_NONE ? &kc : NULL) :
			      0;
	}
	advise_free(&a);
	ruleset_free(&rs);
	return ret;
}
