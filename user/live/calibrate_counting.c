// SPDX-License-Identifier: GPL-2.0
/*
 * What counting itself adds to each syscall on this machine: getpid timed
 * with the counting programs of the best mode that loads attached, and with
 * nothing attached, under one calibration rule (a non-dummy context and a
 * walk, as a counted machine has). The programs' mirror holds that rule, as
 * a run's would.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "auditskip.h" /* before the skeleton: its mirror section is a struct mask_mirror */
#include "auditskip.skel.h"
#include "audit/ruleset.h"
#include "live/attach.h"
#include "live/calibrate_internal.h"

/* The listed rules into the mirror, as the loader keeps it, and audit on for BPF. */
static int mirror_the_list(struct attached *at)
{
	struct mask_mirror m = { .source = MIRROR_NETLINK, .kernel_n_rules = -1, .generation = 1 };
	struct ruleset rs;
	__u32 zero = 0;
	int err = ruleset_load(&rs);

	if (err)
		return err;
	ruleset_mirror(&rs, &m);
	ruleset_free(&rs);
	at->skel->bss->audit_on = true;
	return bpf_map_update_elem(bpf_map__fd(at->skel->maps.data_mirror), &zero, &m, BPF_ANY) ?
		       -errno :
		       0;
}

/* One pass: getpid with nothing attached, then counted; the lower of each pass kept. */
static int time_pass(struct calib_run *r, struct attached *at, double *none, double *counted)
{
	double ns;
	int err = calib_time_getpid(r->cpu, r->rt, &ns);

	if (err)
		return err;
	if (ns < *none || *none < 0)
		*none = ns;
	err = attach_start_counting(at);
	if (!err)
		err = calib_time_getpid(r->cpu, r->rt, &ns);
	attach_stop_counting(at);
	if (!err && (ns < *counted || *counted < 0))
		*counted = ns;
	return err;
}

int calib_measure_counting(struct calib_run *r, struct calibration *out)
{
	struct attach_req req = { .mode = -1, .corrupt_nr = -1, .verbose = r->verbose };
	struct attached at = { 0 };
	double none = -1, counted = -1;
	int err;

	err = calib_empty_walk_set(r, false) ?: calib_rules_set(r->fd, &r->loaded, 1);
	if (err)
		return err;
	if (attach_prepare(&req, &at))
		return 0; /* said why; counting's cost stays unmeasured */
	err = mirror_the_list(&at);
	/* Trampolines attach once before 5.13: one pass then. */
	for (int pass = 0; !err && pass < (at.reattaches ? CALIB_PASSES : 1); pass++)
		err = calib_stopped() ? -EINTR : time_pass(r, &at, &none, &counted);
	if (!err) {
		snprintf(out->counting_mode, sizeof(out->counting_mode), "%s", modes[at.mode].name);
		out->ns_counting = counted - none;
		if (r->verbose)
			fprintf(stderr,
				"calibrate: getpid %.1f ns with nothing attached, %.1f ns counted (%s)\n",
				none, counted, modes[at.mode].name);
	}
	attach_destroy(&at);
	return err;
}
