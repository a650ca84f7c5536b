/* SPDX-License-Identifier: GPL-2.0 */
/* The rules that keep the skip from firing (blockers.h), in text and JSON. */
#ifndef __REPORT_BLOCKERS_H
#define __REPORT_BLOCKERS_H

#include <stdbool.h>
#include <stdio.h>
#include <json-c/json.h>
#include "audit/ruleset.h"

/* {"patch": {...}, "arch": [{...}, ...], "perm_narrowed": {...}}, or NULL without memory. */
json_object *skip_blockers_json(const struct ruleset *rs);
/* always false: only when the patch's mask lets no syscall skip. */
void print_skip_blockers(FILE *out, const struct ruleset *rs, bool always);

#endif /* __REPORT_BLOCKERS_H */
