/* SPDX-License-Identifier: GPL-2.0 */
/* The options counting and profiling share: both are a run of the session. */
#ifndef __CLI_RUN_OPTIONS_H
#define __CLI_RUN_OPTIONS_H

#include <argp.h>
#include "live/session.h"

/* -m MODE: an attach mode's number (see attach.h), else a usage error. */
int cli_parse_mode(const struct argp_state *state, const char *arg);

/* The option keys counting and profiling share beyond their letters. */
enum {
	CLI_OPT_BTF = 0x200,
	CLI_OPT_SYNC_MS,
};

/*
 * -p, -d, -m, -v, --btf and --sync-ms, which counting and profiling
 * share, into o; ARGP_ERR_UNKNOWN for any other key. At the end it refuses
 * -p with `-- COMMAND`.
 */
error_t cli_parse_run_option(int key, char *arg, struct argp_state *state, struct count_options *o);

/* A run's options before its command line: best mode, top 10, status every second. */
void count_options_init(struct count_options *o);

#endif /* __CLI_RUN_OPTIONS_H */
