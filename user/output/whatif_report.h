/* SPDX-License-Identifier: GPL-2.0 */
/* `auditskip whatif`: a prediction (prediction.h) in text or JSON. */
#ifndef __PREDICTION_REPORT_H
#define __PREDICTION_REPORT_H

#include <stdbool.h>
#include <stdio.h>
#include "model/calibration.h"
#include "model/designs.h"
#include "model/prediction.h"
#include "model/profile.h"
#include "model/rule_compare.h"
#include "model/rule_cost.h"
#include "audit/ruleset.h"

/* --compare: the second rule set on the same walks. */
struct whatif_compared {
	const char *path;
	const struct ruleset *rules;
	const struct rule_costs *costs;
	const struct rule_comparison *by_rule;
};

struct whatif_run {
	const char *rules_path; /* "-": the rules loaded now */
	const char *profile_path;
	const struct ruleset *rules;
	const struct profile *profile;
	const struct prediction *pred;
	const struct rule_costs *costs; /* per rule, zero where nothing walks */
	const struct design_savings *designs;
	const struct calibration *calib;
	const char *calib_from; /* NULL: no calibration file, the series' slope */
	const char *kernel;	/* where the prediction is made */
	const char *perm_classes;
	int top;
	const struct whatif_compared *compared; /* NULL without --compare */
};

void prediction_report(FILE *out, const struct whatif_run *w, bool json);

#endif /* __PREDICTION_REPORT_H */
