/* SPDX-License-Identifier: GPL-2.0 */
/* --metrics-textfile PATH: the metrics page as a file, for node_exporter's textfile collector. */
#ifndef __METRICS_TEXTFILE_H
#define __METRICS_TEXTFILE_H

#include <stddef.h>
#include "model/counts.h"
#include "model/run_state.h"

/* 0 when PATH can be written (its directory exists and is writable), else -1 and `err`. */
int metrics_textfile_check(const char *path, char *err, size_t err_size);
/*
 * Replaces PATH with the page metrics_render() makes; nothing when PATH is
 * NULL. A failure is reported on stderr once, not on every resync it lasts.
 */
void metrics_textfile_write(const char *path, const struct run_state *r,
			    const struct counts_snapshot *total);

#endif /* __METRICS_TEXTFILE_H */
