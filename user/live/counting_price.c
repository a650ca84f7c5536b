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

/* Attaches or detaches at's counting programs, as `counted` asks. */
static int counting_set(struct attached *at, bool counted)
{
	if (counted && !at->counting)
		return attach_start_counting(at);
	if (!counted && at->counting)
		attach_stop_counting(at);
	return 0;
}

int counting_price_paired(struct attached *at, const struct price_timing *how, int pairs,
			  struct price_pairs *out)
{
	double none[PRICE_MAX_PAIRS], counted[PRICE_MAX_PAIRS], added[PRICE_MAX_PAIRS];
	struct getpid_rounds child;
	int err, stopped;

	if (pairs < 1 || pairs > PRICE_MAX_PAIRS)
		return -EINVAL;
	err = getpid_rounds_start(&child, how->cpu, how->rt, how->clock);
	/* Pairs alternate their order (none first, then counted first): a drift cancels. */
	for (int i = 0; !err && i < 2 * pairs; i++) {
		bool with = (i % 2) != (i / 2 % 2);
		double *into = with ? &counted[i / 2] : &none[i / 2];

		err = counting_set(at, with) ?: getpid_rounds_next(&child, into);
	}
	attach_stop_counting(at);
	stopped = getpid_rounds_stop(&child);
	if (err || stopped)
		return err ?: stopped;
	for (int p = 0; p < pairs; p++)
		added[p] = counted[p] - none[p];
	sort_values(none, pairs);
	sort_values(counted, pairs);
	sort_values(added, pairs);
	out->none = percentile(none, pairs, 50);
	out->counted = percentile(counted, pairs, 50);
	out->added = percentile(added, pairs, 50);
	out->added_q1 = percentile(added, pairs, 25);
	out->added_q3 = percentile(added, pairs, 75);
	out->pairs = pairs;
	return 0;
}

int counting_price_measure(const struct attach_req *req, int pairs, struct price_pairs *out)
{
	const struct price_timing how = { .cpu = -1, .clock = CLOCK_THREAD_CPUTIME_ID };
	struct attached copy;
	int err = attach_prepare(req, &copy);

	if (err)
		return err;
	err = counting_price_mirror(&copy) ?: counting_price_paired(&copy, &how, pairs, out);
	attach_destroy(&copy);
	return err;
}
