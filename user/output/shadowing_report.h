/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Rules a never rule before them silences (shadowing.h), in text and JSON:
 * every one with its syscalls and what shadows it for `auditskip rules`,
 * their count and the first few for a counting run's summary.
 */
#ifndef __SHADOWING_REPORT_H
#define __SHADOWING_REPORT_H

#include <stdio.h>
#include <json-c/json.h>
#include "audit/ruleset.h"
#include "model/shadowing.h"

/* A summary shows this many shadowed rules, and counts the rest. */
#define SHADOWED_SUMMARY_RULES 5

/*
 * The first `limit` entries of `v` as a JSON array: each rule's `index`
 * into the ruleset's rules, `text`, `key`, `origin`, `wholly`, and per
 * arch it could match on (`arches`): `arch`, `can_match`, `syscall_count`,
 * `syscalls` (names) and `by` (each never rule: `index`, `text`, `origin`,
 * `syscalls`).
 */
json_object *shadowed_rules_json(const struct ruleset *rs, const struct shadowed_rule *v, size_t n,
				 size_t limit);
/* `auditskip rules`: every shadowed rule, then those that may be; nothing when none. */
void print_shadowing(FILE *out, const struct ruleset *rs, const struct shadowing *s);
/* A counting run's summary: how many are shadowed, and the first few; nothing when none. */
void print_shadowing_brief(FILE *out, const struct ruleset *rs, const struct shadowing *s);

#endif /* __SHADOWING_REPORT_H */
