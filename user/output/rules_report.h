/* SPDX-License-Identifier: GPL-2.0 */
/* `auditskip rules`: the exit rules, their aggregate mask and the rules that fill it. */
#ifndef __RULES_REPORT_H
#define __RULES_REPORT_H

#include <stdbool.h>
#include <stdio.h>
#include "audit/ruleset.h"

void report_rules(FILE *out, const struct ruleset *rs, bool json);

#endif /* __RULES_REPORT_H */
