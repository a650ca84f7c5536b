// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <libaudit.h>
#include "model/counts.h"
#include "model/prediction.h"
#include "model/whatif_masks.h"

/*
 * audit_filter_task() at fork takes the first task rule that matches: an
 * unconditional never,task with no conditional rule before it leaves every
 * new task without a context; the first unconditional rule decides the rest.
 */
static void read_task_rules(const struct ruleset *rs, struct prediction *pr)
{
	for (size_t i = 0; i < rs->n; i++) {
		const struct audit_rule *r = &rs->rules[i];

		if (r->list != AUDIT_FILTER_TASK)
			continue;
		if (r->field_count > (r->key[0] != 0)) {
			pr->conditional_task_rules++;
			continue;
		}
		pr->task_never = r->action == AUDIT_NEVER && !pr->conditional_task_rules;
		break;
	}
}

/* What the walks over one slot's calls come to, as count_walk() classifies them. */
static void predict_slot(struct prediction *pr, const syscall_mask all,
			 const struct whatif_masks *w, unsigned int arch, unsigned int nr,
			 __u64 calls)
{
	struct scan_counts *c = &pr->slot[arch * NR_SLOTS + nr];
	bool skip = !mask_bit(all, nr);

	c->walks = calls;
	if (skip) {
		c->skippable_walks = calls;
		c->needless_rule_visits = calls * pr->exit_rules;
	}
	c->skippable_arch_mask = skip || !mask_bit(w->arch_mask[arch], nr) ? calls : 0;
	c->skippable_perm_mask = skip || !mask_bit(w->perm_mask[arch], nr) ? calls : 0;
	c->skippable_entry_mask = !mask_bit(w->entry_mask[arch], nr) ? calls : 0;
	pr->total.walks += c->walks;
	pr->total.skippable_walks += c->skippable_walks;
	pr->total.needless_rule_visits += c->needless_rule_visits;
	pr->total.skippable_arch_mask += c->skippable_arch_mask;
	pr->total.skippable_perm_mask += c->skippable_perm_mask;
	pr->total.skippable_entry_mask += c->skippable_entry_mask;
}

static void count_field_checks(const struct ruleset *rs, const struct profile *p,
			       const struct whatif_masks *w, struct prediction *pr)
{
	for (size_t i = 0; i < rs->n; i++) {
		const struct audit_rule *r = &rs->rules[i];

		if (!rule_on_exit_list(r))
			continue;
		for (unsigned int s = 0; s < NR_COUNT_SLOTS; s++) {
			unsigned int arch = s / NR_SLOTS;

			if (!p->calls[s] || !mask_bit(r->mask, s % NR_SLOTS))
				continue;
			pr->field_checks[i] += p->calls[s];
			if (!r->arch_elf || r->arch_elf == w->arch_elf[arch])
				pr->field_checks_own_arch[i] += p->calls[s];
		}
	}
}

int prediction_make(const struct ruleset *rs, const struct profile *p,
		    const struct kernel_classes *kc, struct prediction *pr)
{
	struct whatif_masks w;
	syscall_mask all;

	memset(pr, 0, sizeof(*pr));
	pr->field_checks = calloc(rs->n ? rs->n : 1, sizeof(__u64));
	pr->field_checks_own_arch = calloc(rs->n ? rs->n : 1, sizeof(__u64));
	if (!pr->field_checks || !pr->field_checks_own_arch) {
		prediction_free(pr);
		return -ENOMEM;
	}
	ruleset_exit_mask(rs, -1, all);
	whatif_build(rs, kc, &w);
	pr->exit_rules = ruleset_exit_rules(rs);
	pr->mask_bits = mask_count(all);
	pr->native_arch_mask_bits = mask_count(w.arch_mask[ARCH_NATIVE]);
	pr->compat_arch_mask_bits = mask_count(w.arch_mask[ARCH_COMPAT]);
	for (int a = 0; a < NR_ARCHES; a++) {
		pr->perm_mask_bits[a] = mask_count(w.perm_mask[a]);
		pr->entry_mask_bits[a] = mask_count(w.entry_mask[a]);
	}
	read_task_rules(rs, pr);
	pr->audit_disabled = rs->disables_audit;
	pr->walks_at_all = ruleset_counted_rules(rs) > 0 && !pr->task_never && !pr->audit_disabled;
	if (!pr->walks_at_all)
		return 0;
	for (unsigned int s = 0; s < NR_COUNT_SLOTS; s++)
		if (p->calls[s])
			predict_slot(pr, all, &w, s / NR_SLOTS, s % NR_SLOTS, p->calls[s]);
	count_field_checks(rs, p, &w, pr);
	return 0;
}

void prediction_free(struct prediction *pr)
{
	free(pr->field_checks);
	free(pr->field_checks_own_arch);
	pr->field_checks = pr->field_checks_own_arch = NULL;
}

double prediction_saved_ns(const struct prediction *pr, const struct calibration *c,
			   enum counter_id skipped)
{
	double per_walk = calibration_walk_ns(c, pr->exit_rules);

	return per_walk * counter_value(&pr->total, skipped);
}
