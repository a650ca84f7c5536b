/* SPDX-License-Identifier: GPL-2.0 */
/* A rule written back in auditctl syntax from its kernel form, for rules files. */
#ifndef __RULE_TEXT_H
#define __RULE_TEXT_H

#include <stddef.h>
#include "audit/ruleset.h"

/*
 * `r` as one auditctl line: arch fields first (the rule's own, or
 * `-F arch=` of add_arch when that is not 0), then `-S` from `mask` (NULL:
 * the rule's own; none when every bit is set, which auditctl gives a rule
 * without -S), then its other fields in the kernel's order and its keys.
 * Syscalls are named where libaudit's table names them back to the same
 * number, else written as numbers (auditctl takes both). Returns 0,
 * -ENOSPC when `size` is too small, -EINVAL when a rules file cannot say
 * it (white space in a value, a value longer than the rule kept).
 */
int rule_to_auditctl(const struct audit_rule *r, __u32 add_arch, const __u32 *mask, char *buf,
		     size_t size);

#endif /* __RULE_TEXT_H */
