/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What share of the run was counted (--duty, and the times with nothing to
 * count), and the estimate for the whole run: in the text summary, the JSON
 * reports and the metrics page.
 */
#ifndef __DUTY_REPORT_H
#define __DUTY_REPORT_H

#include <stdio.h>
#include <json-c/json.h>
#include "model/run_state.h"

/* The summary's lines: the covered share and the estimates (duty-cycled runs), why idle now. */
void duty_print(FILE *out, const struct run_state *r);
/* A note for an interval line: empty while counting. */
const char *duty_interval_note(const struct run_state *r);
/* The `coverage` object of interval and summary. */
json_object *duty_json(const struct run_state *r);
/* The auditskip_counting*, auditskip_*_seconds_total and auditskip_estimated_* families. */
void duty_metrics(FILE *out, const struct run_state *r);

#endif /* __DUTY_REPORT_H */
