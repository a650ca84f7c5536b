/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `advise --profile FILE`: what the rewrite changes on a recorded workload,
 * from the what-if model (prediction.h) applied to the rules as they are
 * and as advise writes them (read back through the rules-file reader, so
 * the prediction is of the very file `-o` writes).
 */
#ifndef __ADVISE_PROFILE_H
#define __ADVISE_PROFILE_H

#include <stdbool.h>
#include <stdio.h>
#include "model/advise.h"
#include "model/calibration.h"
#include "model/prediction.h"
#include "model/profile.h"
#include "model/rule_cost.h"

struct advise_prediction {
	struct ruleset rewritten;
	struct prediction before, after;
	/* Per slot: rule field checks (exit rules whose bit is set, times the calls). */
	__u64 *checks_before, *checks_after;
	__u64 total_checks_before, total_checks_after;
	/* The walks on a stock kernel, visits and evaluations priced as whatif prices them. */
	struct rule_costs costs_before, costs_after;
	bool evaluations_priced; /* the calibration prices evaluations, not visits alone */
};

/* 0, or -ENOMEM / -EINVAL (the rewrite did not read back: a message says why). */
int advise_predict(const struct ruleset *rs, const struct advice *a, const struct profile *p,
		   const struct kernel_classes *kc, const struct calibration *c,
		   struct advise_prediction *out);
void advise_prediction_free(struct advise_prediction *ap);
void advise_prediction_report(FILE *out, const struct advise_prediction *ap,
			      const struct profile *p, const char *profile_path,
			      const struct calibration *c, int top, bool json);

#endif /* __ADVISE_PROFILE_H */
