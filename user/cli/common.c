// SPDX-License-Identifier: GPL-2.0
#include <argp.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "audit/rules_file.h"
#include "cli/kernel_option.h"
#include "audit/syscalls.h"
#include "auditskip.h"
#include "cli/common.h"
#include "live/sysinfo.h"

const char *argp_program_version = "auditskip " AUDITSKIP_VERSION;
const char *argp_program_bug_address = NULL;

static error_t parse_help_short(int key, char *arg, struct argp_state *state)
{
	(void)arg;
	if (key != 'h')
		return ARGP_ERR_UNKNOWN;
	argp_state_help(state, stdout, ARGP_HELP_STD_HELP);
	return 0;
}

/* Hidden: --help already lists "-?, --help". */
static const struct argp_option help_short_options[] = {
	{ NULL, 'h', NULL, OPTION_HIDDEN, NULL, 0 },
	{},
};

static const struct argp help_short_argp = {
	help_short_options, parse_help_short, NULL, NULL, NULL, NULL, NULL
};

const struct argp_child cli_children[] = {
	{ &help_short_argp, 0, NULL, 0 },
	{},
};

void cli_usage_error(const struct argp_state *state, const char *fmt, ...)
{
	va_list ap;

	fputs("auditskip: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	argp_state_help(state, stderr, ARGP_HELP_STD_ERR);
	exit(argp_err_exit_status); /* argp_state_help exits already; for the compiler */
}

/* A usage error found before argp runs: the same message and pointer to --help. */
static int usage_error_before_parse(const char *prog, const char *msg)
{
	fprintf(stderr, "auditskip: %s\n", msg);
	fprintf(stderr, "Try `%s --help' or `%s --usage' for more information.\n", prog, prog);
	return 2;
}

/* Cuts argv at the first `--`: argp would take the command's own options. */
static int split_command(const char *prog, const char *name, int *argc, char **argv,
			 char ***command)
{
	char msg[96];
	int dashdash = 0;

	for (int i = 1; i < *argc; i++) {
		if (!strcmp(argv[i], "--")) {
			dashdash = i;
			break;
		}
	}
	if (!dashdash)
		return 0;
	if (!command) {
		snprintf(msg, sizeof(msg), "'%s' takes no process to count", name);
		return usage_error_before_parse(prog, msg);
	}
	if (dashdash + 1 >= *argc)
		return usage_error_before_parse(prog, "'--' must be followed by a command to run");
	*command = &argv[dashdash + 1];
	*argc = dashdash;
	return 0;
}

int cli_parse(const struct argp *argp, const char *name, int argc, char **argv, void *input,
	      char ***command)
{
	static char prog[64];
	int err;

	/* argp names the program, and the --help to read, after argv[0]. */
	snprintf(prog, sizeof(prog), name ? "auditskip %s" : "auditskip", name);
	argv[0] = prog;
	if (command)
		*command = NULL;
	err = split_command(prog, name, &argc, argv, command);
	if (err)
		return err;
	return argp_parse(argp, argc, argv, 0, NULL, input) ? 2 : 0;
}

int parse_seconds(const char *arg, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (errno || end == arg || *end || !isfinite(v) || v <= 0)
		return -1;
	*out = v;
	return 0;
}

int parse_long(const char *arg, long min, long max, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int cli_parse_top(const struct argp_state *state, const char *arg)
{
	long v;

	if (parse_long(arg, 1, 2049, &v))
		cli_usage_error(state, "invalid count '%s' for -n: give a number from 1 to 2049",
				arg);
	return v;
}

/* What is missing, and the form that needs no privilege if there is one. */
static int privilege_error(const char *missing, const char *offline)
{
	fprintf(stderr, "auditskip: needs root: this process lacks %s", missing);
	if (offline)
		fprintf(stderr, "; without it, read a rules file: %s", offline);
	fputc('\n', stderr);
	return -EPERM;
}

int preflight_list_rules(const char *offline)
{
	const char *missing = missing_privilege(false);

	return missing ? privilege_error(missing, offline) : 0;
}

int preflight(bool need_enabled, pid_t pid)
{
	return preflight_offline(need_enabled, pid, NULL);
}

int preflight_offline(bool need_enabled, pid_t pid, const char *offline)
{
	const char *missing = missing_privilege(true);
	struct audit_status_info st;
	int err;

	if (missing)
		return privilege_error(missing, offline);
	err = audit_status_read(&st);
	if (err == -EPROTONOSUPPORT) {
		fprintf(stderr,
			"auditskip: this kernel has no audit support (CONFIG_AUDIT is off): nothing to measure\n");
		return err;
	}
	if (err) {
		fprintf(stderr, "auditskip: cannot read audit status: %s\n", strerror(-err));
		return err;
	}
	if (need_enabled && !st.enabled) {
		fprintf(stderr,
			"auditskip: audit is disabled: enable it with 'auditctl -e 1', then start the processes to measure (tasks forked before that are never audited)\n");
		return -EINVAL;
	}
	if (pid && kill(pid, 0) && errno == ESRCH) {
		fprintf(stderr, "auditskip: no process with pid %d\n", pid);
		return -ESRCH;
	}
	return 0;
}

int read_rules_file(const char *path, struct ruleset *rs)
{
	struct rules_file_error fe;
	int err = rules_file_read(path, rs, &fe);

	if (!err)
		return cli_leave_out_refused(rs) ? (ruleset_free(rs), -1) : 0;
	if (!fe.file[0])
		fprintf(stderr, "auditskip: %s\n", fe.message);
	else if (fe.line)
		fprintf(stderr, "auditskip: %s:%u: %s\n", fe.file, fe.line, fe.message);
	else
		fprintf(stderr, "auditskip: %s: %s\n", fe.file, fe.message);
	ruleset_free(rs);
	return -1;
}

/* The profile's arches are this machine's: rule masks and arch= fields are numbered by them. */
static int check_profile_arches(const struct profile *p, const char *path)
{
	for (enum slot_arch a = 0; a < NR_ARCHES; a++) {
		const char *here = arch_machine(a) >= 0 ? arch_name(a) : "";

		if (strcmp(p->arches[a], here) && (p->arches[a][0] || a == ARCH_NATIVE)) {
			fprintf(stderr,
				"auditskip: %s was recorded on %s, this machine is %s: predict on the machine it was recorded on\n",
				path, p->arches[ARCH_NATIVE], arch_name(ARCH_NATIVE));
			return -EINVAL;
		}
	}
	return 0;
}

struct profile *open_profile(const char *path, const char *calibration, struct calibration *calib,
			     const char **calib_from)
{
	struct profile *prof = calloc(1, sizeof(*prof));
	char why[512];

	if (!prof) {
		fprintf(stderr, "auditskip: out of memory\n");
		return NULL;
	}
	if (profile_load(path, prof, why, sizeof(why))) {
		fprintf(stderr, "auditskip: %s is not a usable profile: %s\n", path, why);
	} else if (!check_profile_arches(prof, path) &&
		   !calibration_choose(calibration, calib, calib_from)) {
		return prof;
	}
	free(prof);
	return NULL;
}
