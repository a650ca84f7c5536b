/* SPDX-License-Identifier: GPL-2.0 */
/* A rule written in auditctl syntax from its kernel form: reports and rules files. */
#ifndef __RULE_TEXT_H
#define __RULE_TEXT_H

#include <stddef.h>
#include "audit/ruleset.h"

/*
 * `r` as one line of a rules file, in auditctl -l's form: -a ACTION,LIST,
 * arch fields first (add_arch's `-F arch=` when that is not 0, then the
 * rule's own; b64 and b32 where they read back to the same arch here),
 * then `-S` from `mask` (NULL: the rule's own; `-S all` when every bit is
 * set), then its other fields in the kernel's order, keys as -F key=.
 * Syscalls are named from the table of the rule's arch where libaudit
 * reads the name back to the same number, else written as numbers
 * (auditctl takes both). Returns 0, -ENOSPC when `size` is too small,
 * -EINVAL when a rules file cannot say it (white space in a value, a value
 * longer than the rule kept, a field or comparison libaudit cannot name).
 */
int rule_to_auditctl(const struct audit_rule *r, __u32 add_arch, const __u32 *mask, char *buf,
		     size_t size);

/*
 * auditctl -R reads lines with fgets() into 6144 bytes (LINE_SIZE in
 * auditctl.c) and skips a line that does not fit with its newline: the
 * longest line it reads, less the newline, plus the NUL.
 */
#define RULES_FILE_LINE_MAX (6144 - 1)

/*
 * rule_to_auditctl() into `buf` of RULES_FILE_LINE_MAX bytes, for a rules
 * file: where auditctl could not read the line back, a message naming the
 * rule goes to stderr. 0, -ENOSPC or -EINVAL.
 */
int rule_to_rules_file(const struct audit_rule *r, __u32 add_arch, const __u32 *mask, char *buf);

/*
 * The same line for reports, allocated (NULL: no memory): where a rules
 * file cannot say the rule, it is written as auditctl -l would anyway.
 */
char *rule_listing(const struct audit_rule *r);

#endif /* __RULE_TEXT_H */
