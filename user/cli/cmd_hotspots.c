// SPDX-License-Identifier: GPL-2.0
/* auditskip hotspots: where audit's time goes in each syscall, part by part. */
#include <argp.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include "cli/commands.h"
#include "cli/common.h"
#include "live/attach.h"
#include "live/hotspots.h"
#include "output/hotspots_report.h"

struct hotspots_options {
	struct hotspots_req req;
	bool json;
	int top;
};

enum {
	OPT_JSON = 0x100,
	OPT_ONCE,
};

static const char args_doc[] = "-d SECONDS | -- COMMAND [ARG...]";

static const char doc[] =
	"Times audit's work in each syscall, part by part, with an fentry and fexit\n"
	"pair on each audit function the kernel lets a trampoline reach: the context\n"
	"set up at entry (__audit_syscall_entry), the exit list's walk\n"
	"(audit_filter_syscall or __audit_filter_op), the names against the watch\n"
	"buckets (audit_filter_inodes), the records built and sent (audit_log_exit),\n"
	"audit_log_start within them (buffer, time stamp, waits on a full backlog),\n"
	"and the rest of the exit path (__audit_syscall_exit, __audit_free); in ns\n"
	"per call and as a share of the syscall's own time (sys_enter to sys_exit),\n"
	"with the records written. The hooks' own cost, measured on\n"
	"bpf_fentry_test1() first, is taken off every part. A command runs twice:\n"
	"once with only the exit path hooked, the time its parts must add up to.\n"
	"A part the kernel cannot time (inlined, or fentry refused) is named, and\n"
	"its time is inside rest. Root.\n"
	"\v"
	"Examples:\n"
	"    auditskip hotspots -- tar cf /dev/null /etc   # one command's syscalls\n"
	"    auditskip hotspots -d 10 -n 5             # the whole machine, top five\n"
	"    auditskip hotspots --json --once -- ./getpid_loop 100000\n"
	"\n"
	"Exit status: the command's own when it failed, 1 when nothing could be\n"
	"measured, 130 when stopped by Ctrl-C (or TERM). See doc/hotspots.md.\n";

static const struct argp_option options[] = {
	{ "duration", 'd', "SECONDS", 0, "The whole machine for SECONDS", 0 },
	{ "top", 'n', "N", 0, "Only the N syscalls of most exit path time", 0 },
	{ "json", OPT_JSON, NULL, 0, "One JSON object", 0 },
	{ "once", OPT_ONCE, NULL, 0, "Run the command once: no exit path timed alone", 0 },
	{ "verbose", 'v', NULL, 0, "libbpf's log", 0 },
	{},
};

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct hotspots_options *o = state->input;

	switch (key) {
	case 'd':
		if (parse_seconds(arg, &o->req.seconds))
			cli_usage_error(state,
					"invalid duration '%s': give a positive number of seconds",
					arg);
		break;
	case 'n':
		o->top = cli_parse_top(state, arg);
		break;
	case OPT_JSON:
		o->json = true;
		break;
	case OPT_ONCE:
		o->req.alone = false;
		break;
	case 'v':
		o->req.verbose = true;
		break;
	case ARGP_KEY_ARG:
		cli_usage_error(state, "unexpected argument '%s' (a command to run goes after --)",
				arg);
	case ARGP_KEY_END:
		if (!o->req.argv == !o->req.seconds)
			cli_usage_error(state, "hotspots needs either -d SECONDS or -- COMMAND");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp argp = { options, parse_opt, args_doc, doc, cli_children, NULL, NULL };

int do_hotspots(int argc, char **argv)
{
	struct hotspots_options o = { .req = { .alone = true } };
	struct hotspots_run r;
	int err = cli_parse(&argp, "hotspots", argc, argv, &o, &o.req.argv);

	if (err)
		return err;
	if (preflight(true, 0))
		return 1;
	attach_libbpf_log(o.req.verbose);
	err = hotspots_measure(&o.req, &r);
	if (!err)
		hotspots_sort(&r);
	if (!err && o.json)
		hotspots_print_json(stdout, &r, o.top);
	else if (!err)
		hotspots_print_text(stdout, &r, o.top);
	free(r.rows);
	if (err)
		return err == -EINTR ? 130 : 1;
	return r.command_status > 0 ? r.command_status : 0;
}
