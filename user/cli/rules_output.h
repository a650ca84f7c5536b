/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where advise's rules file goes (-o FILE). It is what an admin loads with
 * `advise -o F && auditctl -R F`, so: never onto a file the rules were read
 * from (nor into a directory read, where augenrules would merge it in),
 * written whole or not at all (a temporary file renamed over FILE, mode
 * 0640: auditctl -R refuses a world-writable file), and, when a run writes
 * nothing, no older file of auditskip's left behind to be loaded instead.
 */
#ifndef __RULES_OUTPUT_H
#define __RULES_OUTPUT_H

#include <stdio.h>
#include "audit/ruleset.h"

struct rules_output {
	const char *path; /* -o */
	char *tmp;	  /* the temporary file being written, NULL: none */
	FILE *f;
};

/*
 * Refuses (a message, -1) an output that is `input` (--file) or one of
 * the files of `rs` was read from, or in a directory read; else 0.
 */
int rules_output_check(const char *path, const char *input, const struct ruleset *rs);

/* Opens the temporary file beside out->path: 0, or -1 after a message. */
int rules_output_open(struct rules_output *out);

/*
 * err 0: the temporary file becomes out->path (0, or -1 after a message);
 * else it is removed (-1; the caller has said why).
 */
int rules_output_close(struct rules_output *out, int err);

/*
 * Nothing to write, for reason `why`: an older file at `path` that
 * auditskip wrote is removed, and the message says so; another file is
 * left and named. Returns the exit status, 1.
 */
int rules_output_none(const char *path, const char *why);

#endif /* __RULES_OUTPUT_H */
