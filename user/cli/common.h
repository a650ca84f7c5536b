/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the commands share: reading their command lines, the check that
 * stops a run before anything is attached, and reading rules files and
 * profiles with the messages the commands give.
 */
#ifndef __CLI_COMMON_H
#define __CLI_COMMON_H

#include <argp.h>
#include <stdbool.h>
#include <sys/types.h>
#include "audit/ruleset.h"
#include "model/calibration.h"
#include "model/profile.h"

/* Each command's argp takes these as children: -h, the same as --help. */
extern const struct argp_child cli_children[];

/*
 * Parses the command line of `auditskip NAME` (name NULL: counting, plain
 * `auditskip`) with argp into `input`. With `command`, the words after
 * `--` go there (NULL without them); without it `--` is refused. Every
 * usage error says which --help to read. 0, or the exit status (2).
 */
int cli_parse(const struct argp *argp, const char *name, int argc, char **argv, void *input,
	      char ***command);

/* A usage error found while parsing: "auditskip: MESSAGE", the --help to read, exit 2. */
void cli_usage_error(const struct argp_state *state, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));

/* Strictly positive, finite seconds; 0 or -1. */
int parse_seconds(const char *arg, double *out);
/* A decimal integer from min to max; 0 or -1. */
int parse_long(const char *arg, long min, long max, long *out);

/* -n N: how many syscalls to show, else a usage error. */
int cli_parse_top(const struct argp_state *state, const char *arg);

/*
 * The privilege, audit's status (enabled when `need_enabled`) and the pid
 * to count (0: none): 0, or a negative errno after one clear line.
 */
int preflight(bool need_enabled, pid_t pid);
/* The same, for a command that also reads rules files: `offline` is that form, suggested. */
int preflight_offline(bool need_enabled, pid_t pid, const char *offline);
/* Only listing the loaded rules (CAP_AUDIT_CONTROL, no BPF): 0, or -1 after a message. */
int preflight_list_rules(const char *offline);

/* A rules file or rules.d directory into rs; 0, or -1 after auditctl's kind of message. */
int read_rules_file(const char *path, struct ruleset *rs);

/*
 * The profile at `path`, read and checked against this machine, and the
 * time model to price it (`calibration`, NULL: the default); NULL after a
 * message. The caller frees the profile.
 */
struct profile *open_profile(const char *path, const char *calibration, struct calibration *calib,
			     const char **calib_from);

#endif /* __CLI_COMMON_H */
