/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What an exit walk pays beyond its visits: audit_filter_rules() runs the
 * fields of every visited entry whose mask has the syscall's bit, in the
 * rule's order, until one fails. Priced with the calibration's evaluation
 * kinds (calibration.h).
 */
#ifndef __EVAL_PRICE_H
#define __EVAL_PRICE_H

#include "audit/ruleset.h"
#include "model/calibration.h"

/* The priced kind a field of `type` is charged as (a comparison of ids for the unmeasured). */
enum eval_kind eval_kind_of_field(__u32 type);

/*
 * What rule `r` adds to a walk of syscall `nr` of arch `arch_elf` beyond
 * its visit: 0 where its mask lacks the bit; else its fields in order, an
 * arch field that passes priced by calibration_arch_pass_ns() and the first
 * other field by calibration_eval_ns(), as the one that fails (a walk that
 * matches nothing fails every rule, and only the arch field's outcome is
 * known offline). A rule whose every field passes ends the walk: EVAL_MATCH
 * (which holds one passing field) and any further passing fields, *ends set.
 */
double eval_price_ns(const struct calibration *c, const struct audit_rule *r, __u32 arch_elf,
		     unsigned int nr, bool *ends);

/*
 * The evaluations of a walk of syscall `nr` of arch `arch_elf` over the exit
 * rules of `rs`, to the end of the list or the entry that ends it for sure;
 * the entries visited into *visited where not NULL.
 */
double eval_walk_ns(const struct calibration *c, const struct ruleset *rs, __u32 arch_elf,
		    unsigned int nr, size_t *visited);

#endif /* __EVAL_PRICE_H */
