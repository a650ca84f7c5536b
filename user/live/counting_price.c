// SPDX-License-Identifier: GPL-2.0
/* What counting adds to a getpid here (counting_price.h). */
#include <errno.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "auditskip.h" /* before the skeleton: its mirror section is a struct mask_mirror */
#include "auditskip.skel.h"
#include "audit/ruleset.h"
#include "live/counting_price.h"
#include "live/getpid_timing.h"

int counting_price_mirror(struct attached *at)
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

static void keep_lowest(double *kept, double ns)
{
	if (ns < *kept || *kept < 0)
		*kept = ns;
}

int counting_price_pass(struct attached *at, const struct price_timing *how, double *none,
			double *counted)
{
	double ns;
	int err = getpid_child_median_ns(how->cpu, how->rt, how->clock, &ns);

	if (err)
		return err;
	keep_lowest(none, ns);
	err = attach_start_counting(at);
	if (!err)
		err = getpid_child_median_ns(how->cpu, how->rt, how->clock, &ns);
	attach_stop_counting(at);
	if (!err)
		keep_lowest(counted, ns);
	return err;
}

int counting_price_measure(const struct attach_req *req, int passes, int max_passes, double *none,
			   double *counted)
{
	const struct price_timing how = { .cpu = -1, .clock = CLOCK_THREAD_CPUTIME_ID };
	struct attached copy;
	int err = attach_prepare(req, &copy);

	*none = *counted = -1;
	if (err)
		return err;
	err = counting_price_mirror(&copy);
	for (int pass = 0; !err && (pass < passes || (pass < max_passes && *counted <= *none));
	     pass++)
		err = counting_price_pass(&copy, &how, none, counted);
	attach_destroy(&copy);
	return err;
}
