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
/* Paired rounds: the medians of each kind of round and of each pair's difference. */
#define PRICE_MAX_PAIRS 64
struct price_pairs {
	double none;	 /* ns a getpid took with nothing attached */
	double counted;	 /* ... with the counting programs attached */
	double added;	 /* counted - none, pair by pair */
	double added_q1; /* the quartiles of those differences: their spread */
	double added_q3;
	int pairs;
};
/*
 * `pairs` pairs of getpid rounds in one child, at's counting programs
 * attached for one round of each pair and detached for the other: a
 * machine whose load changes over the measure shifts both rounds of a pair
 * alike, where the lowest of separate passes took each side at a different
 * moment. Leaves them detached. 0 or -errno.
 */
int counting_price_paired(struct attached *at, const struct price_timing *how, int pairs,
			  struct price_pairs *out);
/*
 * A run's own measure where no calibration prices its mode: a second copy
 * of req's mode loaded beside the run's (which must not count the timing
 * child's calls), the rules loaded now in its mirror, `pairs` paired rounds
 * timed in the child's CPU time, so that a busy machine's preemption is not
 * taken for counting's; then unloaded. 0 or -errno, with nothing left
 * loaded.
 */
int counting_price_measure(const struct attach_req *req, int pairs, struct price_pairs *out);

#endif /* __COUNTING_PRICE_H */
