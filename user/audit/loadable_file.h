/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Rules files for `auditctl -R` that load whole. auditctl runs a file's
 * lines in order and stops at the first that fails unless -i or -c came
 * before it; a file that starts with -D and then fails halfway leaves half
 * a policy. So a file written from a rule set keeps the set's settings
 * (-i and -c first, -b, -f, -r, --backlog_wait_time and
 * --loginuid-immutable in their order, the last -e at the very end, where
 * augenrules puts it: -e 2 locks the configuration until reboot, and no
 * rule after it would load), and leaves out, as a comment saying why, every
 * rule that would not load here.
 */
#ifndef __LOADABLE_FILE_H
#define __LOADABLE_FILE_H

#include <stdio.h>
#include "audit/ruleset.h"

/*
 * After the caller's comment header: -D, the settings that come before
 * the rules, and what reading the file noted, as comments.
 */
void loadable_file_begin(FILE *out, const struct ruleset *rs);

/*
 * Rule `r` as rule_to_rules_file() writes it (into `line`, of
 * RULES_FILE_LINE_MAX bytes) and then to `out`, or, where the kernel here
 * refuses it, commented out with the reason. 0, or -EINVAL (a rule
 * auditctl cannot read back).
 */
int loadable_file_rule(FILE *out, const struct audit_rule *r, __u32 add_arch, const __u32 *mask,
		       char *line);

/* The set's last -e, if it had one. */
void loadable_file_end(FILE *out, const struct ruleset *rs);

#endif /* __LOADABLE_FILE_H */
