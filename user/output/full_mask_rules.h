/* SPDX-License-Identifier: GPL-2.0 */
/* The exit rules that set every syscall bit: while one is loaded the skip never fires. */
#ifndef __FULL_MASK_RULES_H
#define __FULL_MASK_RULES_H

#include <stdio.h>
#include <json-c/json.h>
#include "audit/ruleset.h"

/* Each such rule with the aggregate mask's bits without it. */
json_object *full_mask_rules_json(const struct ruleset *rs);
/* The same as text, under its heading; nothing when there is none. */
void print_full_mask_rules(FILE *out, const struct ruleset *rs);

#endif /* __FULL_MASK_RULES_H */
