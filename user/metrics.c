// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include "metrics.h"

struct metrics_server *metrics_start(const char *listen, char *err, size_t err_size)
{
	(void)listen;
	snprintf(err, err_size, "the metrics endpoint is not built yet");
	return NULL;
}

void metrics_update(struct metrics_server *m, const struct report_ctx *r,
		    const struct counts_snapshot *total)
{
	(void)m;
	(void)r;
	(void)total;
}

void metrics_stop(struct metrics_server *m)
{
	(void)m;
}
