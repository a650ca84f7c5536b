/* SPDX-License-Identifier: GPL-2.0 */
/* A rule set to reason about: a rules file, a rules.d directory, or the kernel's. */
#ifndef __RULES_SOURCE_H
#define __RULES_SOURCE_H

#include <stddef.h>
#include "audit/ruleset.h"

/*
 * path "-": the rules loaded now (AUDIT_LIST_RULES); anything else a rules
 * file in auditctl syntax or a rules.d directory, read without loading it.
 * 0, or a negative errno with one line in `why`.
 */
int rules_source_read(const char *path, struct ruleset *rs, char *why, size_t why_size);

#endif /* __RULES_SOURCE_H */
