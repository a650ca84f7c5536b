// SPDX-License-Identifier: GPL-2.0
/* Each exit rule's share of a workload's walk time: see rule_cost.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "auditskip.h"
#include "model/eval_price.h"
#include "model/rule_cost.h"
#include "model/sharper_masks.h"

/* The entries a walk of syscall `nr` of arch `elf` visits: up to the first rule that passes. */
static size_t walk_length(const struct calibration *c, const struct ruleset *rs, __u32 elf,
			  unsigned int nr)
{
	size_t visited;

	eval_walk_ns(c, rs, elf, nr, &visited);
	return visited;
}

int rule_costs_make(const struct ruleset *rs, const struct profile *p, const struct calibration *c,
		    struct rule_costs *out)
{
	__u32 elf[NR_ARCHES];

	memset(out, 0, sizeof(*out));
	out->rule = calloc(rs->n ? rs->n : 1, sizeof(*out->rule));
	if (!out->rule)
		return -ENOMEM;
	whatif_arches(elf);
	for (unsigned int s = 0; s < NR_COUNT_SLOTS; s++) {
		unsigned int nr = s % NR_SLOTS;
		__u32 arch = elf[s / NR_SLOTS];
		double calls = (double)p->calls[s], per_visit;
		size_t length, seen = 0;

		if (!p->calls[s])
			continue;
		length = walk_length(c, rs, arch, nr);
		per_visit = length ? (calibration_walk_ns(c, (double)length) - c->ns_walk_call) /
					     (double)length :
				     0;
		out->calls_ns += calls * c->ns_walk_call;
		for (size_t i = 0; i < rs->n && seen < length; i++) {
			struct rule_cost *rc = &out->rule[i];
			bool ends;
			double ev;

			if (!rule_on_exit_list(&rs->rules[i]))
				continue;
			seen++;
			ev = eval_price_ns(c, &rs->rules[i], arch, nr, &ends);
			rc->visits += p->calls[s];
			rc->evaluations += mask_test(rs->rules[i].mask, nr) ? p->calls[s] : 0;
			rc->ns += calls * (per_visit + ev);
			out->walks_ns += calls * (per_visit + ev);
		}
	}
	out->walks_ns += out->calls_ns;
	return 0;
}

void rule_costs_free(struct rule_costs *rc)
{
	free(rc->rule);
	rc->rule = NULL;
}
