// SPDX-License-Identifier: GPL-2.0
/* The designs priced on one workload: see designs.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "model/designs.h"

/* clang-format off */
const char *const design_names[NR_DESIGNS] = {
	[DESIGN_SERIES] = "series",
	[DESIGN_2023] = "2023",
	[DESIGN_ARCHPERM] = "archperm",
	[DESIGN_ARCHPERM_ENTRY] = "archperm-entry",
	[DESIGN_PREFIX] = "prefix",
};
/* clang-format on */

const char *const design_needs[NR_DESIGNS] = {
	[DESIGN_SERIES] = "a kernel patch",
	[DESIGN_2023] = "a kernel patch",
	[DESIGN_ARCHPERM] = "a kernel patch (patches/7.2-archperm/0001)",
	[DESIGN_ARCHPERM_ENTRY] = "a kernel patch (patches/7.2-archperm/0001 and 0002)",
	[DESIGN_PREFIX] = "a rule change (advise --never-prefix), no patch",
};

const char *const design_records[NR_DESIGNS] = {
	[DESIGN_SERIES] =
		"none: the context stays whole, only the walk no rule can match is skipped",
	[DESIGN_2023] =
		"a record logged during a call it makes dummy (an LSM denial, seccomp's) comes without its SYSCALL record",
	[DESIGN_ARCHPERM] =
		"none: the context stays whole, only the walk no rule can match is skipped",
	[DESIGN_ARCHPERM_ENTRY] =
		"a record logged during a call it makes dummy (an LSM denial, seccomp's) keeps its SYSCALL record but lacks the PATH records of names looked up before it",
	[DESIGN_PREFIX] =
		"a record logged during a call it names comes without its SYSCALL record (doc/never-prefix.md)",
};

/*
 * Why no context is made dummy at entry (the 2023 design, archperm-entry's
 * entry part): that needs every rule counted in audit_n_rules to be one
 * counted per syscall (added under the exit list's number: exit rules and
 * watches).
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

/*
 * A context made dummy at entry saves the walk and the context's upkeep;
 * the empty walk's latency holds the call, counted once.
 */
static double dummy_context_ns(const struct calibration *c, double walk)
{
	return walk - c->ns_walk_call + c->ns_context;
}

static void price_kernel_designs(const struct ruleset *rs, const struct prediction *pr,
				 const struct calibration *c, struct design_savings *d)
{
	double walk = calibration_walk_ns(c, (double)pr->exit_rules);
	syscall_mask m;

	mask_2023(rs, m);
	for (unsigned int s = 0; s < NR_COUNT_SLOTS; s++) {
		const struct scan_counts *p = &pr->slot[s];
		__u64 exit_only = p->skippable_perm_mask > p->skippable_entry_mask ?
					  p->skippable_perm_mask - p->skippable_entry_mask :
					  0;

		d->walks[DESIGN_SERIES][s] = p->skippable_walks;
		d->ns[DESIGN_SERIES][s] = (double)p->skippable_walks * walk;
		if (!d->not_2023 && p->walks && !mask_test(m, s % NR_SLOTS)) {
			d->walks[DESIGN_2023][s] = p->walks;
			d->ns[DESIGN_2023][s] = (double)p->walks * dummy_context_ns(c, walk);
			d->total_contexts[DESIGN_2023] += p->walks;
		}
		d->walks[DESIGN_ARCHPERM][s] = p->skippable_perm_mask;
		d->ns[DESIGN_ARCHPERM][s] = (double)p->skippable_perm_mask * walk;
		/* The contexts it makes dummy are walks the exit form skips too. */
		d->walks[DESIGN_ARCHPERM_ENTRY][s] = p->skippable_perm_mask;
		d->ns[DESIGN_ARCHPERM_ENTRY][s] =
			(double)p->skippable_entry_mask * dummy_context_ns(c, walk) +
			(double)exit_only * walk;
		d->total_contexts[DESIGN_ARCHPERM_ENTRY] += p->skippable_entry_mask;
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
	out->all_walks = pr->total.walks;
	if (!err && pr->walks_at_all) {
		price_kernel_designs(rs, pr, c, out);
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
