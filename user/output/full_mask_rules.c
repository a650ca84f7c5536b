// SPDX-License-Identifier: GPL-2.0
/* The exit rules that set every syscall bit, in the count's summary and the rules report. */
#include "output/full_mask_rules.h"
#include "output/json_out.h"

/* For each exit rule that sets every syscall bit: the aggregate without it. */
json_object *full_mask_rules_json(const struct ruleset *rs)
{
	json_object *arr = json_object_new_array();

	for (size_t i = 0; i < rs->n; i++) {
		const struct audit_rule *rule = &rs->rules[i];
		json_object *o;
		syscall_mask without;

		if (!rule_sets_every_bit(rule))
			continue;
		ruleset_exit_mask(rs, i, without);
		o = json_object_new_object();
		add_str(o, "key", rule->key);
		add_str(o, "text", rule->text);
		add_u64(o, "mask_bits_without", mask_count(without));
		json_object_array_add(arr, o);
	}
	return arr;
}

void print_full_mask_rules(FILE *out, const struct ruleset *rs)
{
	bool any = false;

	for (size_t i = 0; i < rs->n; i++) {
		const struct audit_rule *rule = &rs->rules[i];
		syscall_mask without;

		if (!rule_sets_every_bit(rule))
			continue;
		if (!any)
			fprintf(out,
				"\nRules that set every syscall bit (while one is loaded the skip never fires):\n");
		any = true;
		ruleset_exit_mask(rs, i, without);
		if (mask_is_full(without))
			fprintf(out,
				"  %s\n    without it the aggregate mask would still have every bit: other rules fill it (see the fewest rules below)\n",
				rule->text);
		else
			fprintf(out,
				"  %s\n    without it the aggregate mask would have %u bits set\n",
				rule->text, mask_count(without));
	}
}
