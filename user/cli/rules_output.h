/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where advise's rules file goes (-o FILE). It is what an admin loads with
 * `advise -o F && auditctl -R F`, so: never onto a file the rules were read
 * from (nor into a directory read, where augenrules would merge it in),
 * read back as auditctl would load it before it is written (a file that
 * would not load whole is not written), written whole or not at all (a
 * temporary file renamed over FILE, mode 0640: auditctl -R refuses a
 * world-writable file), and, when a run writes nothing, no older file of
 * auditskip's left behind to be loaded instead.
 */
#ifndef __RULES_OUTPUT_H
#define __RULES_OUTPUT_H

#include <stdio.h>
#include "audit/ruleset.h"

/*
 * Refuses (a message, -1) an output that is `input` (--file) or one of
 * the files of `rs` was read from, or in a directory read; else 0.
 */
int rules_output_check(const char *path, const char *input, const struct ruleset *rs);

/*
 * Writes `text`, a rules file advise made (its first line the comment
 * every such file begins with), to `path`, with a second comment line
 * giving the rule set id `auditskip rules` prints once it is loaded. The
 * text is first read back as auditctl would load it: 0, or -1 after a
 * message (nothing written) where it would not load whole.
 */
int rules_output_write(const char *path, const char *text, size_t len);

/*
 * Nothing to write, for reason `why`: an older file at `path` that
 * auditskip wrote is removed, and the message says so; another file is
 * left and named. Returns the exit status, 1.
 */
int rules_output_none(const char *path, const char *why);

#endif /* __RULES_OUTPUT_H */
