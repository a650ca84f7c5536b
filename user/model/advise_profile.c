// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "model/advise_profile.h"
#include "audit/mask.h"
#include "audit/rules_file.h"
#include "audit/syscalls.h"

/* The rewrite as `-o` writes it, read back as the kernel would list it. */
static int read_back(const struct ruleset *rs, const struct advice *a, struct ruleset *out)
{
	struct rules_file_error e = { 0 };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int err;

	if (!f)
		return -ENOMEM;
	err = advise_write_rules(f, rs, a, "the rules advised");
	if (fclose(f) && !err)
		err = -ENOMEM;
	if (!err) {
		err = rules_text_read(text, len, "the rewrite", out, &e);
		if (err)
			fprintf(stderr, "auditskip: the rewrite does not read back: line %u: %s\n",
				e.line, e.message);
	}
	free(text);
	return err;
}

/* Per slot, how many field checks the exit rules' masks send its calls into. */
static __u64 field_checks(const struct ruleset *rs, const struct profile *p, __u64 *per_slot)
{
	__u64 total = 0;

	for (unsigned int s = 0; s < NR_COUNT_SLOTS; s++) {
		if (!p->calls[s])
			continue;
		for (size_t i = 0; i < rs->n; i++)
			if (rule_on_exit_list(&rs->rules[i]) &&
			    mask_test(rs->rules[i].mask, s % NR_SLOTS))
				per_slot[s] += p->calls[s];
		total += per_slot[s];
	}
	return total;
}

/* What the walks of prediction `pr` cost under `rs`, as whatif prices them. */
static int walk_costs(const struct ruleset *rs, const struct prediction *pr,
		      const struct profile *p, const struct calibration *c, struct rule_costs *out)
{
	static const __u64 no_walks[NR_COUNT_SLOTS];

	return rule_costs_make(
		rs, &(struct walk_tally){ .walks = pr->walks_at_all ? p->calls : no_walks }, c,
		out);
}

int advise_predict(const struct ruleset *rs, const struct advice *a, const struct profile *p,
		   const struct kernel_classes *kc, const struct calibration *c,
		   struct advise_prediction *ap)
{
	int err;

	memset(ap, 0, sizeof(*ap));
	err = read_back(rs, a, &ap->rewritten);
	if (err)
		return err;
	ap->checks_before = calloc(NR_COUNT_SLOTS, sizeof(__u64));
	ap->checks_after = calloc(NR_COUNT_SLOTS, sizeof(__u64));
	if (!ap->checks_before || !ap->checks_after || prediction_make(rs, p, kc, &ap->before) ||
	    prediction_make(&ap->rewritten, p, kc, &ap->after))
		return -ENOMEM;
	ap->total_checks_before = field_checks(rs, p, ap->checks_before);
	ap->total_checks_after = field_checks(&ap->rewritten, p, ap->checks_after);
	ap->evaluations_priced = calibration_prices_evaluations(c);
	if (walk_costs(rs, &ap->before, p, c, &ap->costs_before) ||
	    walk_costs(&ap->rewritten, &ap->after, p, c, &ap->costs_after))
		return -ENOMEM;
	return 0;
}

void advise_prediction_free(struct advise_prediction *ap)
{
	prediction_free(&ap->before);
	prediction_free(&ap->after);
	ruleset_free(&ap->rewritten);
	free(ap->checks_before);
	free(ap->checks_after);
	rule_costs_free(&ap->costs_before);
	rule_costs_free(&ap->costs_after);
}

static double share(__u64 part, __u64 whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0;
}

/* The profile's slots by field checks the rewrite saves, most first. */
static unsigned int by_checks_saved(const struct advise_prediction *ap, const struct profile *p,
				    unsigned int *order)
{
	unsigned int n = 0;

	for (unsigned int s = 0; s < NR_COUNT_SLOTS; s++)
		if (p->calls[s])
			order[n++] = s;
	for (unsigned int i = 1; i < n; i++) {
		unsigned int s = order[i], j = i;
		__u64 saved = ap->checks_before[s] - ap->checks_after[s];

		while (j > 0 &&
		       ap->checks_before[order[j - 1]] - ap->checks_after[order[j - 1]] < saved) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = s;
	}
	return n;
}

static void slot_label(unsigned int s, char *buf, size_t size)
{
	syscall_name(s % NR_SLOTS, arch_machine(s / NR_SLOTS), buf, size);
}

static void report_json(FILE *out, const struct advise_prediction *ap, const struct profile *p,
			const char *profile_path, const struct calibration *c,
			const unsigned int *order, unsigned int n)
{
	const struct prediction *side[2] = { &ap->before, &ap->after };
	const __u64 checks[2] = { ap->total_checks_before, ap->total_checks_after };
	const struct rule_costs *costs[2] = { &ap->costs_before, &ap->costs_after };
	const char *key[2] = { "as_loaded", "rewritten" };
	json_object *o = json_object_new_object(), *arr = json_object_new_array();
	char name[64];

	json_object_object_add(o, "type", json_object_new_string("advise-profile"));
	json_object_object_add(o, "profile", json_object_new_string(profile_path));
	for (int k = 0; k < 2; k++) {
		json_object *e = json_object_new_object();

		json_object_object_add(e, "walks", json_object_new_uint64(side[k]->total.walks));
		json_object_object_add(e, "field_checks", json_object_new_uint64(checks[k]));
		json_object_object_add(e, "skippable_walks",
				       json_object_new_uint64(side[k]->total.skippable_walks));
		json_object_object_add(e, "mask_bits", json_object_new_int(side[k]->mask_bits));
		json_object_object_add(e, "saved_ns",
				       json_object_new_double(round(prediction_saved_ns(
					       side[k], c, COUNTER_ID_skippable_walks))));
		json_object_object_add(e, "walks_ns",
				       json_object_new_double(round(costs[k]->walks_ns)));
		json_object_object_add(o, key[k], e);
	}
	json_object_object_add(o, "evaluations_priced",
			       json_object_new_boolean(ap->evaluations_priced));
	for (unsigned int i = 0; i < n; i++) {
		unsigned int s = order[i];
		json_object *e = json_object_new_object();

		slot_label(s, name, sizeof(name));
		json_object_object_add(e, "arch", json_object_new_string(arch_name(s / NR_SLOTS)));
		json_object_object_add(e, "nr", json_object_new_int(s % NR_SLOTS));
		json_object_object_add(e, "name", json_object_new_string(name));
		json_object_object_add(e, "calls", json_object_new_uint64(p->calls[s]));
		json_object_object_add(e, "field_checks_as_loaded",
				       json_object_new_uint64(ap->checks_before[s]));
		json_object_object_add(e, "field_checks_rewritten",
				       json_object_new_uint64(ap->checks_after[s]));
		json_object_object_add(e, "skippable_as_loaded",
				       json_object_new_uint64(ap->before.slot[s].skippable_walks));
		json_object_object_add(e, "skippable_rewritten",
				       json_object_new_uint64(ap->after.slot[s].skippable_walks));
		json_object_array_add(arr, e);
	}
	json_object_object_add(o, "syscalls", arr);
	fprintf(out, "%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
}

void advise_prediction_report(FILE *out, const struct advise_prediction *ap,
			      const struct profile *p, const char *profile_path,
			      const struct calibration *c, int top, bool json)
{
	unsigned int *order = calloc(NR_COUNT_SLOTS, sizeof(*order)), n;
	const struct prediction *b = &ap->before, *a = &ap->after;
	char name[64];

	if (!order) {
		fprintf(stderr, "auditskip: out of memory\n");
		return;
	}
	n = by_checks_saved(ap, p, order);
	if (json) {
		report_json(out, ap, p, profile_path, c, order, n);
		free(order);
		return;
	}
	fprintf(out, "\nOn the workload of %s (%s, %.1f s), predicted:\n", profile_path, p->scope,
		p->seconds);
	fprintf(out, "  %-44s %14s %14s\n", "", "as loaded", "rewritten");
	fprintf(out, "  %-44s %14llu %14llu\n", "exit-list walks",
		(unsigned long long)b->total.walks, (unsigned long long)a->total.walks);
	fprintf(out, "  %-44s %14llu %14llu\n", "rule field checks (this kernel and patched)",
		(unsigned long long)ap->total_checks_before,
		(unsigned long long)ap->total_checks_after);
	fprintf(out, "  %-44s %13.1f%% %13.1f%%\n", "walks the patch would skip",
		share(b->total.skippable_walks, b->total.walks),
		share(a->total.skippable_walks, a->total.walks));
	fprintf(out, "  %-44s %11.3f ms %11.3f ms\n", "time the patch would save",
		prediction_saved_ns(b, c, COUNTER_ID_skippable_walks) / 1e6,
		prediction_saved_ns(a, c, COUNTER_ID_skippable_walks) / 1e6);
	fprintf(out, "  %-44s %11.3f ms %11.3f ms\n", "time the walks take on a stock kernel",
		ap->costs_before.walks_ns / 1e6, ap->costs_after.walks_ns / 1e6);
	fprintf(out, "  (%s)\n",
		ap->evaluations_priced ?
			"priced as whatif prices them: visits on the calibration's curve, each\n"
			"  field check by its field's kind" :
			"visits priced; field checks not: the calibration has no evaluation prices\n"
			"  (auditskip calibrate measures them)");
	fprintf(out, "  %-8s %-20s %10s %12s %12s %10s %10s\n", "ARCH", "SYSCALL", "CALLS",
		"CHECKS NOW", "CHECKS NEW", "SKIP NOW", "SKIP NEW");
	for (unsigned int i = 0; i < n && (int)i < top; i++) {
		unsigned int s = order[i];

		slot_label(s, name, sizeof(name));
		fprintf(out, "  %-8s %-20s %10llu %12llu %12llu %10llu %10llu\n",
			arch_name(s / NR_SLOTS), name, (unsigned long long)p->calls[s],
			(unsigned long long)ap->checks_before[s],
			(unsigned long long)ap->checks_after[s],
			(unsigned long long)b->slot[s].skippable_walks,
			(unsigned long long)a->slot[s].skippable_walks);
	}
	free(order);
}
