// SPDX-License-Identifier: GPL-2.0
#include <argp.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libaudit.h>
#include "cli/args.h"
#include "live/attach.h"
#include "auditskip.h"
#include "output/metrics_textfile.h"

const char *argp_program_version = "auditskip " AUDITSKIP_VERSION;
const char *argp_program_bug_address = NULL;

static const char args_doc[] =
	"[-- COMMAND [ARG...]]\n"
	"rules [--file PATH] [--json]\n"
	"calibrate [--rules N] [--cpu CPU]\n"
	"advise [--file PATH] [-o FILE] [--profile FILE] [--json]\n"
	"profile -o FILE [-p PID | -d S | -- COMMAND...]\n"
	"whatif --profile FILE [--rules PATH] [--json]";

/* argp prints what follows \v after the options. */
static const char doc[] =
	"Counts the walks of Linux audit's exit filter list that a kernel with the\n"
	"aggregate syscall-mask check would skip, on a stock kernel.\n"
	"\v"
	"Examples:\n"
	"    auditskip                 # whole machine until Ctrl-C\n"
	"    auditskip -i 5 -d 60      # report every 5 s for a minute\n"
	"    auditskip -- make -j2     # one command and its descendants\n"
	"    auditskip -p 1234 --json  # one process, JSON lines\n"
	"    auditskip --metrics 127.0.0.1:9477  # Prometheus endpoint\n"
	"    auditskip --user auditskip --metrics :9477 --web.config.file web.yml  # TLS, basic auth\n"
	"    auditskip rules           # exit rules, aggregate mask, full-mask rules\n"
	"    auditskip rules --file /etc/audit/rules.d   # the same for rules not loaded\n"
	"    auditskip calibrate       # ns per visited rule entry, for time estimates\n"
	"    auditskip advise -o r.rules  # equivalent rules that let the skip fire\n"
	"    auditskip advise --file /etc/audit/rules.d -o r.rules  # the same for rules not loaded\n"
	"    auditskip profile -o make.prof -- make -j2   # its syscalls, no rule needed\n"
	"    auditskip whatif --rules 30-stig.rules --profile make.prof\n"
	"                              # that rule set on that workload, nothing loaded\n"
	"\n"
	"Modes (best first; the first that loads is used):\n"
	"    filter-op       fentry on __audit_filter_op\n"
	"    filter-syscall  fentry on audit_filter_syscall\n"
	"    syscall-exit    fentry on __audit_syscall_exit\n"
	"    tracepoint      raw_syscalls:sys_enter and the context's dummy flag\n"
	"\n"
	"profile records, per arch and syscall number, every syscall audit would\n"
	"filter once a rule is loaded (tasks with an audit context, auditd left out),\n"
	"also when no rule is loaded; modes syscall-exit or tracepoint. whatif reads\n"
	"such a profile and a rule set (a rules file or rules.d directory, or '-' for\n"
	"the rules loaded now) and predicts, per syscall, the walks, skippable walks\n"
	"(the patch's mask and the sharper ones), needless rule visits, each rule's\n"
	"field checks and the time saved, without loading anything.\n";

enum {
	OPT_JSON = 0x100,
	OPT_BTF,
	OPT_SYNC,
	OPT_METRICS,
	OPT_CORRUPT,
	OPT_FAIL_START,
	OPT_CALIBRATION,
	OPT_RULES,
	OPT_CPU,
	OPT_PER_COMM,
	OPT_TIMING,
	OPT_METRICS_TEXTFILE,
	OPT_PROFILE,
	OPT_WEB_CONFIG,
	OPT_USER,
	OPT_LIST_PERIOD,
	OPT_NOTIFY_RCVBUF,
	OPT_FILE,
};

static const struct argp_option options[] = {
	{ "interval", 'i', "SECONDS", 0, "Report every SECONDS (default: only at the end)", 0 },
	{ "duration", 'd', "SECONDS", 0, "Stop after SECONDS", 0 },
	{ "mode", 'm', "MODE", 0, "Force an attach mode (see MODES)", 0 },
	{ "top", 'n', "N", 0, "Show the top N syscalls (default 10)", 0 },
	{ "pid", 'p', "PID", 0, "Count only this process (tgid)", 0 },
	{ "json", OPT_JSON, NULL, 0, "One JSON object per line", 0 },
	{ "timing", OPT_TIMING, NULL, 0, "Also time each walk (filter-op and filter-syscall modes)",
	  0 },
	{ "per-comm", OPT_PER_COMM, "N", OPTION_ARG_OPTIONAL,
	  "Also count by process name; show the top N (default 10)", 0 },
	{ "btf", OPT_BTF, "FILE", 0, "Kernel BTF (default /sys/kernel/btf/vmlinux)", 0 },
	{ "sync-ms", OPT_SYNC, "MS", 0,
	  "Read audit's status this often (default 1000); the rules are listed on every change audit logs and checked every MS, or every 200 times a listing's CPU time if longer",
	  0 },
	{ "metrics", OPT_METRICS, "ADDR:PORT", 0,
	  "Serve Prometheus metrics at http://ADDR:PORT/metrics", 0 },
	{ "web.config.file", OPT_WEB_CONFIG, "FILE", 0,
	  "TLS and basic authentication for --metrics, in the Prometheus exporter toolkit's "
	  "format (tls_server_config: cert_file, key_file; basic_auth_users: NAME: bcrypt hash)",
	  0 },
	{ "user", OPT_USER, "USER", 0,
	  "Once attached and bound, run as USER with only CAP_AUDIT_CONTROL (without it: "
	  "stay root with only that; see Privileges in README)",
	  0 },
	{ "metrics-textfile", OPT_METRICS_TEXTFILE, "PATH", 0,
	  "Write the same metrics to PATH on every resync, replacing it atomically "
	  "(for node_exporter's textfile collector)",
	  0 },
	{ "calibration", OPT_CALIBRATION, "FILE", 0,
	  "Calibration to read, or with 'calibrate' to write (default /var/lib/auditskip/calibration.json)",
	  0 },
	{ "rules", OPT_RULES, "N|PATH", 0,
	  "calibrate: most rules to add (default: 64, or the exit rules loaded); "
	  "whatif: the rules file or rules.d directory to predict for ('-', the default: the rules loaded now)",
	  0 },
	{ "output", 'o', "FILE", 0,
	  "profile: the file to write the profile to; advise: write the rewritten rules to FILE (for auditctl -R)",
	  0 },
	{ "profile", OPT_PROFILE, "FILE", 0,
	  "whatif: the profile to predict on (from 'profile -o'); advise: also predict the rewrite's effect on it",
	  0 },
	{ "cpu", OPT_CPU, "CPU", 0, "calibrate: CPU to time on", 0 },
	{ "file", OPT_FILE, "PATH", 0,
	  "rules, advise: read PATH, a rules file in auditctl syntax or a rules.d directory (in augenrules' order), instead of the loaded rules; loads nothing",
	  0 },
	{ "verbose", 'v', NULL, 0, "Say why modes were passed over; libbpf's log", 0 },
	/* Proves the missed-match counter can fire: the mirror loses one bit. */
	{ "test-corrupt-mirror", OPT_CORRUPT, "SYSCALL", OPTION_HIDDEN, NULL, 0 },
	/* Proves a command is killed, never run uncounted, when starting it fails. */
	{ "test-fail-start", OPT_FAIL_START, NULL, OPTION_HIDDEN, NULL, 0 },
	/* Benchmarks: the programs attach and return at once, the floor of this design. */
	/* Proves rule changes are heard: no periodic listing to fall back on. */
	{ "test-list-period-ms", OPT_LIST_PERIOD, "MS", OPTION_HIDDEN, NULL, 0 },
	/* Proves lost change records are noticed: a socket buffer that overflows. */
	{ "test-notify-rcvbuf", OPT_NOTIFY_RCVBUF, "BYTES", OPTION_HIDDEN, NULL, 0 },
	{},
};

static int parse_seconds(const char *arg, double *out)
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

static int parse_long(const char *arg, long min, long max, long *out)
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

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct env *env = state->input;
	long v;

	switch (key) {
	case 'i':
		if (parse_seconds(arg, &env->interval))
			argp_error(state,
				   "invalid interval '%s': give a positive number of seconds", arg);
		break;
	case 'd':
		if (parse_seconds(arg, &env->duration))
			argp_error(state,
				   "invalid duration '%s': give a positive number of seconds", arg);
		break;
	case 'm':
		env->mode = mode_from_name(arg);
		if (env->mode < 0)
			argp_error(
				state,
				"unknown mode '%s': use filter-op, filter-syscall, syscall-exit or tracepoint",
				arg);
		break;
	case 'n':
		if (parse_long(arg, 1, 2049, &v))
			argp_error(state, "invalid count '%s' for -n: give a number from 1 to 2049",
				   arg);
		env->top = v;
		break;
	case 'p':
		if (parse_long(arg, 1, 0x7fffffff, &v))
			argp_error(state, "invalid pid '%s'", arg);
		env->pid = v;
		break;
	case OPT_JSON:
		env->json = true;
		break;
	case OPT_TIMING:
		env->timing = true;
		break;
	case OPT_PER_COMM:
		env->per_comm = 10;
		if (arg && parse_long(arg, 1, MAX_COMMS, &v))
			argp_error(state, "invalid --per-comm '%s': give 1 to %d", arg, MAX_COMMS);
		if (arg)
			env->per_comm = v;
		break;
	case OPT_BTF:
		env->btf_path = arg;
		break;
	case OPT_SYNC:
		if (parse_long(arg, 10, 1000, &v))
			argp_error(state, "invalid --sync-ms '%s': give 10 to 1000", arg);
		env->sync_ms = v;
		break;
	case OPT_LIST_PERIOD:
		if (parse_long(arg, 10, 86400000, &v))
			argp_error(state, "invalid --test-list-period-ms '%s'", arg);
		env->list_period_ms = v;
		break;
	case OPT_NOTIFY_RCVBUF:
		if (parse_long(arg, 1, 1 << 24, &v))
			argp_error(state, "invalid --test-notify-rcvbuf '%s'", arg);
		env->notify_rcvbuf = v;
		break;
	case OPT_FAIL_START:
		env->test_fail_start = true;
		break;
	case OPT_CORRUPT:
		env->corrupt_nr = audit_name_to_syscall(arg, audit_detect_machine());
		if (env->corrupt_nr < 0 && parse_long(arg, 0, 2047, &env->corrupt_nr))
			argp_error(state, "unknown syscall '%s'", arg);
		break;
	case OPT_CALIBRATION:
		env->calibration = arg;
		break;
	case OPT_RULES:
		/* calibrate takes a number, whatif a path: told apart once the command is known. */
		env->rules_path = arg;
		break;
	case 'o':
		env->output = arg;
		break;
	case OPT_PROFILE:
		env->profile = arg;
		break;
	case OPT_CPU:
		if (parse_long(arg, 0, 4095, &v))
			argp_error(state, "invalid --cpu '%s'", arg);
		env->calib_cpu = v;
		break;
	case OPT_METRICS:
		env->metrics = arg;
		break;
	case OPT_WEB_CONFIG:
		env->web_config = arg;
		break;
	case OPT_USER:
		env->user = arg;
		break;
	case OPT_FILE:
		env->rules_file = arg;
		break;
	case OPT_METRICS_TEXTFILE: {
		char why[256];

		if (metrics_textfile_check(arg, why, sizeof(why)))
			argp_error(state, "invalid --metrics-textfile '%s': %s", arg, why);
		env->metrics_textfile = arg;
		break;
	}
	case 'v':
		env->verbose = true;
		break;
	case ARGP_KEY_ARG:
		if (state->arg_num == 0 && !strcmp(arg, "rules")) {
			env->command = CMD_RULES;
			break;
		}
		if (state->arg_num == 0 && !strcmp(arg, "advise")) {
			env->command = CMD_ADVISE;
			break;
		}
		if (state->arg_num == 0 && !strcmp(arg, "calibrate")) {
			env->command = CMD_CALIBRATE;
			break;
		}
		if (state->arg_num == 0 && !strcmp(arg, "profile")) {
			env->command = CMD_PROFILE;
			break;
		}
		if (state->arg_num == 0 && !strcmp(arg, "whatif")) {
			env->command = CMD_WHATIF;
			break;
		}
		argp_error(state, "unexpected argument '%s' (a command to run goes after --)", arg);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const char *command_name(enum subcommand c)
{
	static const char *const names[] = {
		[CMD_COUNT] = "counting",  [CMD_RULES] = "rules",   [CMD_CALIBRATE] = "calibrate",
		[CMD_PROFILE] = "profile", [CMD_WHATIF] = "whatif", [CMD_ADVISE] = "advise",
	};

	return names[c];
}

/* Options that belong to one command only, checked once the command is known. */
static int check_command_options(struct env *env)
{
	const char *cmd = command_name(env->command);
	long v;

	if (env->command != CMD_COUNT && env->command != CMD_PROFILE && (env->argv || env->pid)) {
		fprintf(stderr, "auditskip: '%s' takes no process to count\n", cmd);
		return 2;
	}
	if (env->rules_path && env->command == CMD_CALIBRATE) {
		if (parse_long(env->rules_path, 1, 4096, &v)) {
			fprintf(stderr, "auditskip: invalid --rules '%s': give 1 to 4096\n",
				env->rules_path);
			return 2;
		}
		env->calib_rules = v;
		env->rules_path = NULL;
	} else if (env->rules_path && env->command != CMD_WHATIF) {
		fprintf(stderr, "auditskip: --rules belongs to 'calibrate' and 'whatif', not %s\n",
			cmd);
		return 2;
	}
	if (env->output && env->command != CMD_PROFILE && env->command != CMD_ADVISE) {
		fprintf(stderr, "auditskip: -o belongs to 'profile' and 'advise', not %s\n", cmd);
		return 2;
	}
	if (env->profile && env->command != CMD_WHATIF && env->command != CMD_ADVISE) {
		fprintf(stderr, "auditskip: --profile belongs to 'whatif' and 'advise', not %s\n",
			cmd);
		return 2;
	}
	if (env->command == CMD_PROFILE && !env->output) {
		fprintf(stderr, "auditskip: profile needs -o FILE, the file to write it to\n");
		return 2;
	}
	if (env->command == CMD_PROFILE &&
	    (env->interval || env->metrics || env->metrics_textfile || env->timing ||
	     env->per_comm || env->json)) {
		fprintf(stderr,
			"auditskip: profile writes one file: -i, --json, --metrics, --metrics-textfile, --timing and --per-comm are for counting\n");
		return 2;
	}
	if (env->command == CMD_WHATIF && !env->profile) {
		fprintf(stderr,
			"auditskip: whatif needs --profile FILE (record one with 'auditskip profile -o FILE -- COMMAND')\n");
		return 2;
	}
	if (env->command == CMD_WHATIF && !env->rules_path)
		env->rules_path = "-";
	return 0;
}

int parse_args(int argc, char **argv, struct env *env)
{
	static const struct argp argp = { options, parse_opt, args_doc, doc, NULL, NULL, NULL };
	int dashdash = 0, err;

	/* argp would take the command's own options; cut them off first. */
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			dashdash = i;
			break;
		}
	}
	if (dashdash) {
		if (dashdash + 1 >= argc) {
			fprintf(stderr, "auditskip: '--' must be followed by a command to run\n");
			return 2;
		}
		env->argv = &argv[dashdash + 1];
		argc = dashdash;
	}
	err = argp_parse(&argp, argc, argv, 0, NULL, env);
	if (err)
		return 2;
	if (env->argv && env->pid) {
		fprintf(stderr, "auditskip: -p and -- COMMAND cannot be combined\n");
		return 2;
	}
	if (env->web_config && !env->metrics) {
		fprintf(stderr, "auditskip: --web.config.file configures --metrics: give both\n");
		return 2;
	}
	/* The command runs as root: a process of another user could not signal it. */
	if (env->user && env->argv) {
		fprintf(stderr, "auditskip: --user and -- COMMAND cannot be combined\n");
		return 2;
	}
	if (env->command != CMD_COUNT && env->user) {
		fprintf(stderr, "auditskip: --user is for counting, not '%s'\n",
			command_name(env->command));
		return 2;
	}
	if (env->rules_file && env->command != CMD_RULES && env->command != CMD_ADVISE) {
		fprintf(stderr,
			"auditskip: --file goes with 'rules' or 'advise' (auditskip rules --file PATH)\n");
		return 2;
	}
	return check_command_options(env);
}
