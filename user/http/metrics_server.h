/* SPDX-License-Identifier: GPL-2.0 */
/* --metrics ADDR:PORT: the metrics page over HTTP at /metrics. */
#ifndef __METRICS_SERVER_H
#define __METRICS_SERVER_H

#include <stdbool.h>
#include <stddef.h>
#include "model/counts.h"
#include "model/run_state.h"

struct metrics_server;

/*
 * Reads the web configuration (NULL: plain HTTP, no authentication) and
 * the files it names, and binds the port; NULL with `err` filled (a port
 * in use, a bad file). Nothing is served until metrics_serve().
 */
struct metrics_server *metrics_open(const char *listen, const char *web_config, char *err,
				    size_t err_size);
/*
 * Starts the server threads; after the capabilities are dropped, since
 * threads keep their own. 0 (also for NULL), or -1 with `err` filled.
 */
int metrics_serve(struct metrics_server *m, char *err, size_t err_size);
/* Renders the totals so far (metrics_render()); scrapes see the latest rendering. */
void metrics_update(struct metrics_server *m, const struct run_state *r,
		    const struct counts_snapshot *total);
/* Whether it serves HTTPS (a web configuration with a certificate). */
bool metrics_tls(const struct metrics_server *m);
void metrics_stop(struct metrics_server *m);

#endif /* __METRICS_SERVER_H */
