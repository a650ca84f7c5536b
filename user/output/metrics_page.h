/* SPDX-License-Identifier: GPL-2.0 */
/* The metrics page: Prometheus text exposition of a run's totals. */
#ifndef __METRICS_PAGE_H
#define __METRICS_PAGE_H

#include <stdio.h>
#include "model/counts.h"
#include "model/run_state.h"

/* The page --metrics serves and --metrics-textfile writes: text exposition format 0.0.4. */
void metrics_render(FILE *out, const struct run_state *r, const struct counts_snapshot *total);

#endif /* __METRICS_PAGE_H */
