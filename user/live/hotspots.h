/* SPDX-License-Identifier: GPL-2.0 */
/* `auditskip hotspots` at run time: loads bpf/hotspots.bpf.c, measures, reads the sums. */
#ifndef __LIVE_HOTSPOTS_H
#define __LIVE_HOTSPOTS_H

#include <stdbool.h>
#include "model/hotspots.h"

struct hotspots_req {
	char **argv;	/* the command to measure, NULL: the whole machine */
	double seconds; /* the whole machine: how long */
	bool alone; /* time the exit path once more with nothing nested (runs a command twice) */
	bool verbose;
};

/*
 * Measures, filling `out` (the caller frees out->rows). 0, or a negative
 * errno after one line on standard error (-EINTR: stopped by a signal).
 */
int hotspots_measure(const struct hotspots_req *req, struct hotspots_run *out);

#endif /* __LIVE_HOTSPOTS_H */
