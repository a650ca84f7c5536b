// SPDX-License-Identifier: GPL-2.0
/*
 * What counting itself adds to each syscall on this machine: getpid timed
 * with the counting programs of the best mode that loads attached, and with
 * nothing attached, under one calibration rule (a non-dummy context and a
 * walk, as a counted machine has). The programs' mirror holds that rule, as
 * a run's would. Paired rounds (counting_price_paired()), as a duty-cycled
 * run measures the price at its start.
 */
#include <errno.h>
#include <stdio.h>
#include "live/calibrate_internal.h"
#include "live/counting_price.h"

int calib_measure_counting(struct calib_run *r, struct calibration *out)
{
	struct attach_req req = { .mode = -1, .corrupt_nr = -1, .verbose = r->verbose };
	const struct price_timing how = { .cpu = r->cpu, .rt = r->rt, .clock = CLOCK_MONOTONIC };
	struct attached at = { 0 };
	double none = -1, counted = -1, added = 0;
	int err;

	err = calib_empty_walk_set(r, false) ?: calib_rules_set(r->fd, &r->loaded, 1);
	if (err)
		return err;
	if (attach_prepare(&req, &at))
		return 0; /* said why; counting's cost stays unmeasured */
	err = counting_price_mirror(&at);
	if (!err && at.reattaches) {
		struct price_pairs price;

		err = calib_stopped() ? -EINTR :
					counting_price_paired(&at, &how, CALIB_PRICE_PAIRS, &price);
		if (!err) {
			none = price.none;
			counted = price.counted;
			added = price.added;
		}
	} else if (!err) {
		/* Trampolines attach once before 5.13: one pass each way then. */
		err = counting_price_pass(&at, &how, &none, &counted);
		added = counted - none;
	}
	if (!err) {
		snprintf(out->counting_mode, sizeof(out->counting_mode), "%s", modes[at.mode].name);
		out->ns_counting = added;
		if (r->verbose)
			fprintf(stderr,
				"calibrate: getpid %.1f ns with nothing attached, %.1f ns counted, %.1f added (%s)\n",
				none, counted, added, modes[at.mode].name);
	}
	attach_destroy(&at);
	return err;
}
