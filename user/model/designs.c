// SPDX-License-Identifier: GPL-2.0
/* The three designs priced on one workload: see designs.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "model/designs.h"

const char *const design_names[NR_DESIGNS] = {
	[DESIGN_SERIES] = "series",
	[DESIGN_2023] = "2023",
	[DESIGN_PREFIX] = "prefix",
};

const char *const design_needs[NR_DESIGNS] = {
	[DESIGN_SERIES] = "a kernel patch",
	[DESIGN_2023] = "a kernel patch",
	[DESIGN_PREFIX] = "a rule change (advise --never-prefix), no patch",
};

const char *const design_records[NR_DESIGNS] = {
	[DESIGN_SERIES] =
		"none: the context stays whole, only the walk no rule can match is skipped",
	[DESIGN_2023] =
		"a record logged during a call it makes dummy (an LSM denial, seccomp's) comes without its SYSCALL record",
	[DESIGN_PREFIX] =
		"a record logged during a call it names comes without its SYSCALL record (doc/never-prefix.md)",
};

/*
 * Why the 2023 design never fires: it needs every rule counted in
 * audit_n_rules to be one it counts per syscall (added under the exit
 * list's number: exit rules and watches).
 */
static const char *blocks_2023(const struct ruleset *rs)
{
	for (size_t i = 0; i < rs->n; i++) {
		unsigned int list = rs->rules[i].list;

		if (list == AUDIT_FILTER_TASK)
			return "a task rule is counted in audit_n_rules but not per syscall";
		if (list == AUDIT_FILTER_URING_EXIT)
			return "an io_uring rule is counted in audit_n_rules but not per syscall";
	}
	return NULL;
}

/* The 2023 design's bitmap: every rule added under the exit list's number, watches too. */
static void mask_2023(const struct ruleset *rs, syscall_mask m)
{
	memset(m, 0, sizeof(syscall_mask));
	for (size_t i = 0; i < rs->n; i++)
		if (rs->rules[i].list == AUDIT_FILTER_EXIT)
			mask_or(m, rs->rules[i].mask);
}

static void price_series_and_2023(const struct ruleset *rs, const struct prediction *pr,
				  const struct calibration *c, struct design_savings *d)
{
	double walk = calibration_walk_ns(c, (double)pr->exit_rules);
	syscall_mask m;

	mask_2023(rs, m);
	for (unsigned int s = 0; s < NR_COUNT_SLOTS; s++) {
		__u64 walks = pr->slot[s].walks;

		d->walks[DESIGN_SERIES][s] = pr->slot[s].skippable_walks;
		d->ns[DESIGN_SERIES][s] = (double)pr->slot[s].skippable_walks * walk;
		if (!d->not_2023 && walks && !mask_test(m, s % NR_SLOTS)) {
			d->walks[DESIGN_2023][s] = walks;
			/* The empty walk's latency holds the call: counted once. */
			d->ns[DESIGN_2023][s] =
				(double)walks * (walk - c->ns_walk_call + c->ns_context);
		}
	}
}

static int price_prefix(const struct ruleset *rs, const struct prediction *pr,
			const struct kernel_classes *kc, const struct calibration *c,
			struct design_savings *d)
{
	struct never_prefix p;
	__u64 walks[NR_COUNT_SLOTS];
	int err = never_prefix_build(rs, kc, &p);

	d->no_prefix = p.refused;
	if (err || p.refused)
		return err;
	/* As advise --never-prefix --profile writes it for this workload. */
	err = never_prefix_fit(&p, rs, pr, c);
	for (unsigned int s = 0; s < NR_COUNT_SLOTS && !err; s++) {
		int a = s / NR_SLOTS;

		walks[s] = pr->slot[s].walks;
		d->walks[DESIGN_PREFIX][s] =
			p.nnamed[a] && mask_test(p.named[a], s % NR_SLOTS) ? walks[s] : 0;
	}
	err = err ?: never_prefix_slot_savings(&p, rs, c, walks, d->ns[DESIGN_PREFIX]);
	never_prefix_free(&p);
	return err;
}

int design_savings_make(const struct ruleset *rs, const struct prediction *pr,
			const struct kernel_classes *kc, const struct calibration *c,
			struct design_savings *out)
{
	int err = 0;

	memset(out, 0, sizeof(*out));
	for (int k = 0; k < NR_DESIGNS; k++) {
		out->walks[k] = calloc(NR_COUNT_SLOTS, sizeof(*out->walks[k]));
		out->ns[k] = calloc(NR_COUNT_SLOTS, sizeof(*out->ns[k]));
		if (!out->walks[k] || !out->ns[k])
			err = -ENOMEM;
	}
	out->not_2023 = blocks_2023(rs);
	if (!err && pr->walks_at_all) {
		price_series_and_2023(rs, pr, c, out);
		err = price_prefix(rs, pr, kc, c, out);
	}
	for (int k = 0; k < NR_DESIGNS && !err; k++)
		for (unsigned int s = 0; s < NR_COUNT_SLOTS; s++) {
			out->total_walks[k] += out->walks[k][s];
			out->total_ns[k] += out->ns[k][s];
		}
	if (err)
		design_savings_free(out);
	return err;
}

void design_savings_free(struct design_savings *d)
{
	for (int k = 0; k < NR_DESIGNS; k++) {
		free(d->walks[k]);
		free(d->ns[k]);
		d->walks[k] = NULL;
		d->ns[k] = NULL;
	}
}
