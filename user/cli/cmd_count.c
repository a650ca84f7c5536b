// SPDX-License-Identifier: GPL-2.0
/* Counting, the default command: the walks the aggregate mask check would skip. */
#include <argp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libaudit.h>
#include "auditskip.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "cli/run_options.h"
#include "live/modes.h"
#include "live/session.h"
#include "model/duty.h"
#include "output/metrics_textfile.h"

static const char args_doc[] = "[-- COMMAND [ARG...]]";

/* argp prints what follows \v after the options; help_filter() puts the commands first. */
static const char doc[] =
	"Counts the walks of Linux audit's exit filter list that a kernel with the\n"
	"aggregate syscall-mask check would skip, on a stock kernel.\n"
	"\v"
	"Examples:\n"
	"    auditskip                 # whole machine until Ctrl-C\n"
	"    auditskip -i 5 -d 60      # report every 5 s for a minute\n"
	"    auditskip -- make -j2     # one command and its descendants\n"
	"    auditskip -p 1234 --json  # one process, JSON lines\n"
	"    auditskip --per-rule -- make  # what each exit rule costs\n"
	"    auditskip --metrics 127.0.0.1:9477  # Prometheus endpoint\n"
	"    auditskip --duty 1s/30s --metrics 127.0.0.1:9477\n"
	"                              # counted 1 s in every 30, estimated for all\n"
	"    auditskip --user auditskip --metrics :9477 --web.config.file web.yml\n"
	"                              # TLS and basic auth, then as user auditskip\n"
	"    auditskip rules           # exit rules, aggregate mask, full-mask rules\n"
	"    auditskip rules --file /etc/audit/rules.d\n"
	"                              # the same for rules not loaded\n"
	"    auditskip calibrate       # ns per visited rule entry, for time estimates\n"
	"    auditskip advise -o r.rules  # equivalent rules that let the skip fire\n"
	"    auditskip advise --file /etc/audit/rules.d -o r.rules\n"
	"                              # the same for rules not loaded\n"
	"    auditskip profile -o make.prof -- make -j2\n"
	"                              # its syscalls, no rule needed\n"
	"    auditskip whatif --file 30-stig.rules --profile make.prof\n"
	"                              # that rule set on that workload, nothing loaded\n";

enum {
	OPT_JSON = 0x100,
	OPT_METRICS,
	OPT_CORRUPT,
	OPT_FAIL_START,
	OPT_CALIBRATION,
	OPT_PER_COMM,
	OPT_TIMING,
	OPT_METRICS_TEXTFILE,
	OPT_WEB_CONFIG,
	OPT_USER,
	OPT_LIST_PERIOD,
	OPT_NOTIFY_RCVBUF,
	OPT_PER_RULE,
	OPT_DUTY,
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
	{ "per-rule", OPT_PER_RULE, "N", OPTION_ARG_OPTIONAL,
	  "Also cost each exit rule (visits, evaluations, matches, time; exact where the mode sees which rule matched) and compare the designs on the walks counted; show and export the dearest N rules (default 10)",
	  0 },
	{ "duty", OPT_DUTY, "WINDOW/PERIOD", 0,
	  "Count for WINDOW in every PERIOD (e.g. 1s/30s; s, m or h), the programs detached the rest "
	  "of the time; each window opens at a random place in its period, the first one too (nothing "
	  "is counted before it). Reports give the share of time counted and the estimate for the whole run. "
	  "Without a calibration of counting in the mode, what counting adds to a syscall is measured "
	  "at the start (about 1 s, under the rules loaded), to correct the windows on busy CPUs",
	  0 },
	{ "btf", CLI_OPT_BTF, "FILE", 0, "Kernel BTF (default /sys/kernel/btf/vmlinux)", 0 },
	{ "sync-ms", CLI_OPT_SYNC_MS, "MS", 0,
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
	  "stay root with only that; see doc/privileges.md)",
	  0 },
	{ "metrics-textfile", OPT_METRICS_TEXTFILE, "PATH", 0,
	  "Write the same metrics to PATH on every resync, replacing it atomically "
	  "(for node_exporter's textfile collector)",
	  0 },
	{ "calibration", OPT_CALIBRATION, "FILE", 0,
	  "Calibration to read (default /var/lib/auditskip/calibration.json; write one with 'calibrate')",
	  0 },
	{ "verbose", 'v', NULL, 0, "Say why modes were passed over; libbpf's log", 0 },
	/* Proves the missed-match counter can fire: the mirror loses one bit. */
	{ "test-corrupt-mirror", OPT_CORRUPT, "SYSCALL", OPTION_HIDDEN, NULL, 0 },
	/* Proves a command is killed, never run uncounted, when starting it fails. */
	{ "test-fail-start", OPT_FAIL_START, NULL, OPTION_HIDDEN, NULL, 0 },
	/* Proves rule changes are heard: no periodic listing to fall back on. */
	{ "test-list-period-ms", OPT_LIST_PERIOD, "MS", OPTION_HIDDEN, NULL, 0 },
	/* Proves lost change records are noticed: a socket buffer that overflows. */
	{ "test-notify-rcvbuf", OPT_NOTIFY_RCVBUF, "BYTES", OPTION_HIDDEN, NULL, 0 },
	{},
};

/* The hidden options of the test suites. */
static error_t parse_test_option(int key, char *arg, struct argp_state *state,
				 struct count_options *o)
{
	long v;

	switch (key) {
	case OPT_LIST_PERIOD:
		if (parse_long(arg, 10, 86400000, &v))
			cli_usage_error(state, "invalid --test-list-period-ms '%s'", arg);
		o->list_period_ms = v;
		break;
	case OPT_NOTIFY_RCVBUF:
		if (parse_long(arg, 1, 1 << 24, &v))
			cli_usage_error(state, "invalid --test-notify-rcvbuf '%s'", arg);
		o->notify_rcvbuf = v;
		break;
	case OPT_FAIL_START:
		o->test_fail_start = true;
		break;
	case OPT_CORRUPT:
		o->corrupt_nr = audit_name_to_syscall(arg, audit_detect_machine());
		if (o->corrupt_nr < 0 && parse_long(arg, 0, 2047, &o->corrupt_nr))
			cli_usage_error(state, "unknown syscall '%s'", arg);
		break;
	default:
		return cli_parse_run_option(key, arg, state, o);
	}
	return 0;
}

/* A command's name after counting's options: `auditskip -v rules` once worked. */
static bool is_command(const char *word)
{
	for (const struct cli_command *c = cli_commands; c->name; c++)
		if (!strcmp(word, c->name))
			return true;
	return false;
}

/*
 * --per-comm, --per-comm=N or --per-comm N (and --per-rule alike): argp
 * hands an optional argument over only after '=', so a number in the next
 * word is taken here (counting takes no other words: a command to run goes
 * after --).
 */
static int optional_count(struct argp_state *state, const char *arg, const char *option, long max)
{
	const char *next = state->next < state->argc ? state->argv[state->next] : NULL;
	long v;

	if (!arg && next && next[0] >= '0' && next[0] <= '9') {
		arg = next;
		state->next++;
	}
	if (!arg)
		return 10;
	if (parse_long(arg, 1, max, &v))
		cli_usage_error(state, "invalid %s '%s': give 1 to %ld", option, arg, max);
	return v;
}

/* " count rules ...": the commands, for the message about one that is not. */
static const char *command_names(void)
{
	static char names[128];
	size_t n = 0;

	for (const struct cli_command *c = cli_commands; c->name && n < sizeof(names); c++)
		n += snprintf(names + n, sizeof(names) - n, " %s", c->name);
	return names;
}

/* What counting alone is given; the end of the command line is checked here too. */
static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct count_options *o = state->input;

	switch (key) {
	case 'i':
		if (parse_seconds(arg, &o->interval))
			cli_usage_error(state,
					"invalid interval '%s': give a positive number of seconds",
					arg);
		break;
	case 'n':
		o->top = cli_parse_top(state, arg);
		break;
	case OPT_JSON:
		o->json = true;
		break;
	case OPT_TIMING:
		o->timing = true;
		break;
	case OPT_PER_COMM:
		o->per_comm = optional_count(state, arg, "--per-comm", MAX_COMMS);
		break;
	case OPT_PER_RULE:
		o->per_rule = optional_count(state, arg, "--per-rule", MAX_RULE_METRICS);
		break;
	case OPT_CALIBRATION:
		o->calibration = arg;
		break;
	case OPT_DUTY:
		if (duty_parse(arg, &o->duty_window_s, &o->duty_period_s))
			cli_usage_error(
				state,
				"invalid --duty '%s': give WINDOW/PERIOD, e.g. 1s/30s, the window shorter than the period",
				arg);
		break;
	case OPT_METRICS:
		o->metrics = arg;
		break;
	case OPT_WEB_CONFIG:
		o->web_config = arg;
		break;
	case OPT_USER:
		o->user = arg;
		break;
	case OPT_METRICS_TEXTFILE: {
		char why[256];

		if (metrics_textfile_check(arg, why, sizeof(why)))
			cli_usage_error(state, "invalid --metrics-textfile '%s': %s", arg, why);
		o->metrics_textfile = arg;
		break;
	}
	case ARGP_KEY_ARG:
		if (is_command(arg))
			cli_usage_error(state, "'%s' goes first: auditskip %s [OPTION...]", arg,
					arg);
		/* main() passed the first word over: it names no command. */
		if (state->next == 2 && arg == state->argv[1])
			cli_usage_error(state, "unknown command '%s' (commands:%s)", arg,
					command_names());
		cli_usage_error(state, "unexpected argument '%s' (a command to run goes after --)",
				arg);
	case ARGP_KEY_END:
		if (o->web_config && !o->metrics)
			cli_usage_error(state, "--web.config.file configures --metrics: give both");
		/* The command runs as root: a process of another user could not signal it. */
		if (o->user && o->argv)
			cli_usage_error(state, "--user and -- COMMAND cannot be combined");
		return parse_test_option(key, arg, state, o);
	default:
		return parse_test_option(key, arg, state, o);
	}
	return 0;
}

/* --help: the commands, each with its summary, before the examples; the modes after them. */
static char *help_filter(int key, const char *text, void *input)
{
	char *out = NULL;
	size_t len;
	FILE *f;

	(void)input;
	if (key != ARGP_KEY_HELP_POST_DOC || !text)
		return (char *)text;
	f = open_memstream(&out, &len);
	if (!f)
		return (char *)text;
	fputs("Commands:\n", f);
	for (const struct cli_command *c = cli_commands; c->name; c++)
		fprintf(f, "    %-10s  %s\n", c->name, c->summary);
	fprintf(f, "\n%s\nModes (best first; the first that loads is used):\n", text);
	for (int m = 0; m < MODE_COUNT; m++)
		fprintf(f, "    %-14s  %s\n", modes[m].name, modes[m].summary);
	if (fclose(f)) {
		free(out);
		return (char *)text;
	}
	return out;
}

static const struct argp argp = {
	options, parse_opt, args_doc, doc, cli_children, help_filter, NULL
};

int do_count(int argc, char **argv)
{
	const char *name = strcmp(argv[0], "count") ? NULL : "count";
	struct count_options o;
	struct session ss;
	int err;

	count_options_init(&o);
	err = cli_parse(&argp, name, argc, argv, &o, &o.argv);
	if (err)
		return err;
	/* A run of one command or process counts it all; the machine's run saves its cost. */
	o.idle_detach = !o.pid && !o.argv;
	if (preflight(true, o.pid))
		return 1;
	err = session_open(&ss, &o);
	if (!err)
		err = session_attach(&ss);
	if (!err)
		err = session_start_target(&ss);
	if (!err)
		err = session_lower_privileges(&ss);
	if (!err)
		err = session_run(&ss);
	if (!err)
		session_finish(&ss);
	return session_close(&ss, err);
}
