/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What counting adds to a syscall here: getpid timed in a child with the
 * counting programs of a copy of the mode attached, against nothing attached.
 */
#ifndef __COUNTING_PRICE_H
#define __COUNTING_PRICE_H

#include <stdbool.h>
#include <time.h>
#include "live/attach.h"

/* How the timing child runs: where (-1: anywhere), at what priority, on which clock. */
struct price_timing {
	int cpu;
	bool rt;
	clockid_t clock;
};

/* The rules listed now into at's mirror, as the loader keeps it, and audit on for BPF. */
int counting_price_mirror(struct attached *at);
/*
 * One pass: getpid with nothing attached, then with at's counting
 * programs; *none and *counted keep the lowest of the passes (start them
 * negative). 0 or -errno.
 */
int counting_price_pass(struct attached *at, const struct price_timing *how, double *none,
			double *counted);
/*
 * A run's own measure where no calibration prices its mode: a second copy
 * of req's mode loaded beside the run's (which must not count the timing
 * child's calls), the rules loaded now in its mirror, `passes` passes timed
 * in the child's CPU time, so that a busy machine's preemption is not taken
 * for counting's, and more up to `max_passes` while the copy's programs
 * show no cost (a noisy round can hide them); then unloaded. *none and
 * *counted: the lowest ns a getpid took without and with them. 0 or
 * -errno, with nothing left loaded.
 */
int counting_price_measure(const struct attach_req *req, int passes, int max_passes, double *none,
			   double *counted);

#endif /* __COUNTING_PRICE_H */
