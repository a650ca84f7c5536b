/* SPDX-License-Identifier: GPL-2.0 */
/* The cost per exit rule, as whatif and a counting run print it: text and JSON. */
#ifndef __RULE_COST_TABLE_H
#define __RULE_COST_TABLE_H

#include <stdio.h>
#include <json-c/json.h>
#include "audit/ruleset.h"
#include "model/calibration.h"
#include "model/rule_cost.h"

struct rule_cost_view {
	const struct ruleset *rules;
	const struct rule_costs *costs;
	const struct calibration *calib;
	double seconds;	       /* of the walks costed, for the rates */
	int top;	       /* rules the text shows */
	const char *more;      /* the option that shows more, e.g. "-n N" */
	const __u64 *own_arch; /* per rule, evaluations on its own arch; NULL: not shown */
};

/* The exit rules' indexes in rs, dearest first; *n of them. NULL: out of memory. */
size_t *rule_costs_order(const struct rule_cost_view *v, size_t *n);
void rule_costs_print(FILE *out, const struct rule_cost_view *v);
/* Each exit rule's visits, evaluations, matches and cost, in the set's order. */
json_object *rule_costs_json(const struct rule_cost_view *v);

#endif /* __RULE_COST_TABLE_H */
