// SPDX-License-Identifier: GPL-2.0
/* The options counting and profiling share: both are a run of the session. */
#include <argp.h>
#include "cli/common.h"
#include "cli/run_options.h"
#include "live/attach.h"

int cli_parse_mode(const struct argp_state *state, const char *arg)
{
	int mode = mode_from_name(arg);

	if (mode < 0)
		cli_usage_error(state, "unknown mode '%s': use %s", arg, mode_names_or());
	return mode;
}

error_t cli_parse_run_option(int key, char *arg, struct argp_state *state, struct count_options *o)
{
	long v;

	switch (key) {
	case 'p':
		if (parse_long(arg, 1, 0x7fffffff, &v))
			cli_usage_error(state, "invalid pid '%s'", arg);
		o->pid = v;
		break;
	case 'd':
		if (parse_seconds(arg, &o->duration))
			cli_usage_error(state,
					"invalid duration '%s': give a positive number of seconds",
					arg);
		break;
	case 'm':
		o->mode = cli_parse_mode(state, arg);
		break;
	case 'v':
		o->verbose = true;
		break;
	case CLI_OPT_BTF:
		o->btf_path = arg;
		break;
	case CLI_OPT_SYNC_MS:
		if (parse_long(arg, 10, 1000, &v))
			cli_usage_error(state, "invalid --sync-ms '%s': give 10 to 1000", arg);
		o->sync_ms = v;
		break;
	case ARGP_KEY_END:
		if (o->argv && o->pid)
			cli_usage_error(state, "-p and -- COMMAND cannot be combined");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

void count_options_init(struct count_options *o)
{
	*o = (struct count_options){ .mode = -1, .top = 10, .sync_ms = 1000, .corrupt_nr = -1 };
}
