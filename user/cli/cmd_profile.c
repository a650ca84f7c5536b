// SPDX-License-Identifier: GPL-2.0
/* auditskip profile: a workload's syscalls that audit would filter, recorded with no rule loaded.
 */
#include <argp.h>
#include "cli/commands.h"
#include "cli/common.h"
#include "cli/run_options.h"
#include "live/session.h"

static const char args_doc[] = "-o FILE [-- COMMAND [ARG...]]";

static const char doc[] =
	"Records, per arch and syscall number, every syscall audit would filter once\n"
	"a rule is loaded (tasks with an audit context, auditd left out), also when\n"
	"no rule is loaded, into a profile for 'auditskip whatif' and\n"
	"'auditskip advise --profile'; modes syscall-exit or tracepoint.\n"
	"\v"
	"Examples:\n"
	"    auditskip profile -o make.prof -- make -j2  # its syscalls, no rule needed\n"
	"    auditskip profile -o all.prof -d 60         # the whole machine, a minute\n"
	"    auditskip profile -o app.prof -p 1234       # one process until it ends\n";

static const struct argp_option options[] = {
	{ "output", 'o', "FILE", 0, "The file to write the profile to", 0 },
	{ "duration", 'd', "SECONDS", 0, "Stop after SECONDS", 0 },
	{ "pid", 'p', "PID", 0, "Record only this process (tgid)", 0 },
	{ "mode", 'm', "MODE", 0, "Force an attach mode (syscall-exit or tracepoint)", 0 },
	{ "btf", CLI_OPT_BTF, "FILE", 0, "Kernel BTF (default /sys/kernel/btf/vmlinux)", 0 },
	{ "sync-ms", CLI_OPT_SYNC_MS, "MS", 0, "Read audit's status this often (default 1000)", 0 },
	{ "verbose", 'v', NULL, 0, "Say why modes were passed over; libbpf's log", 0 },
	{},
};

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct count_options *o = state->input;

	switch (key) {
	case 'o':
		o->output = arg;
		return 0;
	case ARGP_KEY_ARG:
		cli_usage_error(state, "unexpected argument '%s' (a command to run goes after --)",
				arg);
	case ARGP_KEY_END:
		if (!o->output)
			cli_usage_error(state, "profile needs -o FILE, the file to write it to");
		break;
	}
	return cli_parse_run_option(key, arg, state, o);
}

static const struct argp argp = { options, parse_opt, args_doc, doc, cli_children, NULL, NULL };

/* Like counting, but every call audit would filter goes into a profile, and root is kept. */
int do_profile(int argc, char **argv)
{
	struct count_options o;
	struct session ss;
	int err;

	count_options_init(&o);
	o.profiling = true;
	err = cli_parse(&argp, "profile", argc, argv, &o, &o.argv);
	if (err)
		return err;
	if (preflight(true, o.pid))
		return 1;
	err = session_open(&ss, &o);
	if (!err)
		err = session_attach(&ss);
	if (!err)
		err = session_start_target(&ss);
	if (!err)
		err = session_run(&ss);
	if (!err)
		err = session_save_profile(&ss, o.output);
	return session_close(&ss, err);
}
