/* SPDX-License-Identifier: GPL-2.0 */
/* A counting run's text and JSON reports: at start, each interval and the summary. */
#ifndef __COUNT_REPORT_H
#define __COUNT_REPORT_H

#include <stdbool.h>
#include <stdio.h>
#include "audit/ruleset.h"
#include "model/counts.h"
#include "model/run_state.h"

/* Where and how a counting run is reported; the run's state is the model's. */
struct report_ctx {
	FILE *out;
	bool json;
	int top;
	const struct run_state *run;
};

void report_start(const struct report_ctx *r);
void report_interval(const struct report_ctx *r, const struct walk_counts *delta, double seconds);
/* command_status: the command's exit status, or -1 without a command. */
void report_summary(const struct report_ctx *r, const struct walk_counts *total, double seconds,
		    int command_status);

#endif /* __COUNT_REPORT_H */
