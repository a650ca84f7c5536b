/* SPDX-License-Identifier: GPL-2.0 */
/* --metrics ADDR:PORT: Prometheus text exposition at /metrics. */
#ifndef __METRICS_H
#define __METRICS_H

#include <stddef.h>
#include <stdio.h>
#include "report.h"

struct metrics_server;

/* Binds and starts serving; NULL with `err` filled (e.g. port busy). */
struct metrics_server *metrics_start(const char *listen, char *err, size_t err_size);
/* Renders the totals so far; scrapes see the latest rendering. */
void metrics_update(struct metrics_server *m, const struct report_ctx *r,
		    const struct counts_snapshot *total);
void metrics_stop(struct metrics_server *m);
/* The page metrics_update serves: text exposition format 0.0.4. */
void metrics_render(FILE *out, const struct report_ctx *r, const struct counts_snapshot *total);

#endif /* __METRICS_H */
