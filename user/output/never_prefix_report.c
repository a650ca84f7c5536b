// SPDX-License-Identifier: GPL-2.0
/* advise --never-prefix: the prefix per arch, and what it saves against the patch. */
#include <stdlib.h>
#include "audit/kernel_tables.h"
#include "audit/rule_text.h"
#include "audit/syscalls.h"
#include "output/json_out.h"
#include "output/never_prefix_report.h"

#define NEVER_PREFIX_SCHEMA 1

static double per_second(double ns, double seconds)
{
	return seconds > 0 ? ns / seconds : 0;
}

static double share(double part, double whole)
{
	return whole > 0 ? 100.0 * part / whole : 0;
}

/* The syscalls of arch slot `a` set in m, as a JSON array of names. */
static json_object *names_json(const syscall_mask m, int a)
{
	json_object *arr = json_object_new_array();

	for (unsigned int nr = 0; nr < MASK_SYSCALL_BITS; nr++) {
		const char *name = kernel_syscall_name(nr, arch_machine(a));

		if (mask_test(m, nr))
			json_object_array_add(arr, json_object_new_string(name ? name : "?"));
	}
	return arr;
}

/* Every rule that kept syscalls of arch slot `a` out, with those only it can match. */
static json_object *keepers_json(const struct never_prefix *p, int a)
{
	json_object *arr = json_object_new_array();

	for (size_t k = 0; k < p->nkeepers[a]; k++) {
		const struct prefix_keeper *kp = &p->keepers[a][k];
		json_object *o = json_object_new_object();

		add_str(o, "rule", kp->rule->text);
		add_str_or_null(o, "origin",
				kp->rule->origin && kp->rule->origin[0] ? kp->rule->origin : NULL);
		add_str(o, "list",
			rule_on_exit_list(kp->rule) ? "exit" :
			kp->rule->inode_hash	    ? "inode_hash" :
						      "uring");
		add_u64(o, "syscalls", kp->syscalls);
		json_object_object_add(o, "only_this_rule", names_json(kp->sole, a));
		json_object_array_add(arr, o);
	}
	return arr;
}

static json_object *arch_json(const struct never_prefix *p, int a, char *line)
{
	json_object *o = json_object_new_object();

	add_str(o, "arch", arch_name(a));
	add_u64(o, "syscalls", p->nnamed[a]);
	add_u64(o, "can_match", p->can_match[a]);
	add_u64(o, "can_match_not_exit_list", p->not_exit_list[a]);
	add_u64(o, "left_out", p->left_out[a]);
	json_object_object_add(o, "kept_out_by", keepers_json(p, a));
	if (p->nnamed[a] && line && !never_prefix_rule(p, a, line))
		add_str(o, "rule", line);
	json_object_object_add(o, "rule_costs_more_ns",
			       p->unpaid[a] ? json_rounded(-p->unpaid_ns[a], 0) : NULL);
	return o;
}

static json_object *prediction_json(const struct never_prefix_prediction *pp, const char *profile,
				    size_t watch_rules)
{
	json_object *o = json_object_new_object(), *ended = json_object_new_object();
	__u64 all = 0;

	add_str(o, "profile", profile);
	json_object_object_add(o, "seconds", json_rounded(pp->seconds, 3));
	add_u64(o, "walks", pp->walks);
	for (int a = 0; a < NR_ARCHES; a++) {
		add_u64(ended, arch_name(a), pp->ended[a]);
		all += pp->ended[a];
	}
	add_u64(o, "walks_ended_by_prefix", all);
	json_object_object_add(o, "walks_ended_by_prefix_per_arch", ended);
	json_object_object_add(o, "prefix_ns", json_rounded(pp->prefix_ns, 0));
	json_object_object_add(o, "patch_ns", json_rounded(pp->patch_ns, 0));
	json_object_object_add(o, "patch_rewrite_ns", json_rounded(pp->patch_rewrite_ns, 0));
	json_object_object_add(o, "prefix_ns_per_s",
			       json_rounded(per_second(pp->prefix_ns, pp->seconds), 1));
	json_object_object_add(o, "patch_ns_per_s",
			       json_rounded(per_second(pp->patch_ns, pp->seconds), 1));
	json_object_object_add(o, "patch_rewrite_ns_per_s",
			       json_rounded(per_second(pp->patch_rewrite_ns, pp->seconds), 1));
	json_object_object_add(o, "evaluations_priced",
			       json_object_new_boolean(pp->evaluations_priced));
	add_u64(o, "unpriced_watch_rules", watch_rules);
	return o;
}

static json_object *price_json(const struct never_prefix *p, const struct never_prefix_price *pr,
			       const char *calib_from)
{
	json_object *o = json_object_new_object(), *arches = json_object_new_object();

	add_str_or_null(o, "calibration", calib_from);
	json_object_object_add(o, "evaluations_priced",
			       json_object_new_boolean(pr->evaluations_priced));
	for (int a = 0; a < NR_ARCHES; a++) {
		json_object *e;

		if (!p->arch_elf[a])
			continue;
		e = json_object_new_object();
		json_object_object_add(e, "ended_walk_saves_ns",
				       p->nnamed[a] ? json_rounded(pr->ended_ns[a], 2) : NULL);
		json_object_object_add(e, "ended_walk_saves_min_ns",
				       p->nnamed[a] ? json_rounded(pr->ended_min_ns[a], 2) : NULL);
		json_object_object_add(e, "ended_walk_saves_max_ns",
				       p->nnamed[a] ? json_rounded(pr->ended_max_ns[a], 2) : NULL);
		json_object_object_add(e, "rule_left_out_costs_ns",
				       pr->lost[a] ? json_rounded(pr->lost_ns[a], 2) : NULL);
		json_object_object_add(e, "ended_walk_costs_ns",
				       p->nnamed[a] ? json_rounded(pr->ended_cost_ns[a], 2) : NULL);
		json_object_object_add(arches, arch_name(a), e);
	}
	json_object_object_add(o, "arches", arches);
	json_object_object_add(o, "passed_walk_costs_ns", json_rounded(pr->passed_ns, 2));
	json_object_object_add(o, "break_even_share",
			       pr->break_even > 0 ? json_rounded(pr->break_even, 3) : NULL);
	json_object_object_add(o, "unlikely_to_pay",
			       json_object_new_boolean(pr->unlikely || !p->rules));
	json_object_object_add(o, "ns_context",
			       pr->ns_context > 0 ? json_rounded(pr->ns_context, 1) : NULL);
	return o;
}

static void report_json(FILE *out, const struct never_prefix *p,
			const struct never_prefix_prediction *pp, const char *profile,
			const struct never_prefix_price *price, const char *calib_from,
			const struct never_prefix_classes *classes, const char *output)
{
	json_object *o = json_object_new_object(), *arr = json_object_new_array(), *names;
	char *line = malloc(RULES_FILE_LINE_MAX);

	add_str(o, "type", "never_prefix");
	json_object_object_add(o, "schema", json_object_new_int(NEVER_PREFIX_SCHEMA));
	add_str_or_null(o, "refused", p->refused);
	add_str(o, "perm_classes", classes->key);
	add_str(o, "perm_classes_from", classes->words);
	add_u64(o, "prefix_rules", p->rules);
	add_u64(o, "replaced_rules", p->replaced);
	json_object_object_add(o, "break_even_share",
			       p->rules ? json_rounded(never_prefix_break_even(p), 3) : NULL);
	for (int a = 0; a < NR_ARCHES && !p->refused; a++)
		if (p->arch_elf[a])
			json_object_array_add(arr, arch_json(p, a, line));
	json_object_object_add(o, "arches", arr);
	names = json_object_new_array();
	for (size_t i = 0; never_prefix_left_out_names[i]; i++)
		json_object_array_add(names,
				      json_object_new_string(never_prefix_left_out_names[i]));
	json_object_object_add(o, "left_out_syscalls", names);
	add_str(o, "left_out_why", never_prefix_left_out_why);
	add_str(o, "caveat", never_prefix_caveat);
	json_object_object_add(o, "written",
			       output && p->rules ? json_object_new_string(output) : NULL);
	if (pp)
		json_object_object_add(o, "prediction",
				       prediction_json(pp, profile, p->watch_rules));
	json_object_object_add(o, "priced_without_profile",
			       price ? price_json(p, price, calib_from) : NULL);
	print_json(out, o);
	free(line);
}

static void report_prediction(FILE *out, const struct never_prefix_prediction *pp,
			      const char *profile, size_t watch_rules)
{
	__u64 ended = 0;

	for (int a = 0; a < NR_ARCHES; a++)
		ended += pp->ended[a];
	fprintf(out, "\nOn %s (%.1f s, %llu exit walks under %zu exit rules):\n", profile,
		pp->seconds, (unsigned long long)pp->walks, pp->exit_rules);
	fprintf(out, "  the prefix ends %.1f%% of the walks at its own entry (",
		share(ended, pp->walks));
	for (int a = 0; a < NR_ARCHES; a++)
		fprintf(out, "%s%s %.1f%%", a ? ", " : "", arch_name(a),
			share(pp->ended[a], pp->walks));
	fprintf(out, ")\n");
	fprintf(out, "  saved per second of the workload (%s):\n",
		pp->evaluations_priced ?
			"rule visits and field evaluations priced" :
			"rule visits priced; the calibration prices no evaluations");
	fprintf(out, "    the prefix, on a stock kernel:            %10.0f ns\n",
		per_second(pp->prefix_ns, pp->seconds));
	fprintf(out, "    the patch's skip, these rules:            %10.0f ns\n",
		per_second(pp->patch_ns, pp->seconds));
	fprintf(out, "    the patch's skip, advise's rewrite:       %10.0f ns\n",
		per_second(pp->patch_rewrite_ns, pp->seconds));
	if (watch_rules)
		fprintf(out,
			"  not priced: on the calls it ends the prefix also spares each file name's check\n"
			"  against the watch rules in its inode's hash bucket (%zu in the set): the\n"
			"  saving is that much more\n",
			watch_rules);
	if (pp->prefix_ns <= 0)
		fprintf(out,
			"  on this workload the prefix costs more than it saves (the walks it does not end\n"
			"  visit its entries first): no file is written for it\n");
	else if (pp->patch_rewrite_ns > 0)
		fprintf(out, "  the prefix gives %.0f%% of the best the patch can do\n",
			share(pp->prefix_ns, pp->patch_rewrite_ns));
}

/* Up to `max` names of the syscalls of arch slot `a` set in m, then how many more. */
static void print_names(FILE *out, const syscall_mask m, int a, unsigned int max)
{
	unsigned int shown = 0, all = mask_count(m);

	for (unsigned int nr = 0; nr < MASK_SYSCALL_BITS && shown < max; nr++) {
		const char *name = kernel_syscall_name(nr, arch_machine(a));

		if (mask_test(m, nr))
			fprintf(out, "%s%s", shown++ ? ", " : "", name ? name : "?");
	}
	if (all > shown)
		fprintf(out, "%s%u more", shown ? " and " : "", all - shown);
}

/*
 * The rules off the exit list that kept syscalls out (the exit-list ones
 * are the rules `auditskip rules` lists): per arch, each with how many it
 * can match and those only it can.
 */
static void report_keepers(FILE *out, const struct never_prefix *p)
{
	bool header = false;

	for (int a = 0; a < NR_ARCHES; a++) {
		for (size_t k = 0; k < p->nkeepers[a]; k++) {
			const struct prefix_keeper *kp = &p->keepers[a][k];

			if (rule_on_exit_list(kp->rule))
				continue;
			if (!header)
				fprintf(out,
					"Kept out by watches, path= and io_uring rules (the syscalls each can match;\n"
					"a never rule before them would silence them):\n");
			header = true;
			fprintf(out, "  %-7s %3u  %s\n", arch_name(a), kp->syscalls,
				kp->rule->text);
			if (!mask_count(kp->sole))
				continue;
			fprintf(out, "               only this rule: ");
			print_names(out, kp->sole, a, 8);
			fprintf(out, "\n");
		}
	}
}

/* A signed saving in words: "a saving of 3.1 ns", or as a cost. */
static const char *saving_words(double ns, char *buf, size_t size)
{
	snprintf(buf, size, "a %s of %.1f ns", ns < 0 ? "cost" : "saving", ns < 0 ? -ns : ns);
	return buf;
}

/* "from a cost of 11.5 ns to a saving of 37.6 ns", or "the same for each". */
static const char *range_words(double lo, double hi, char *buf, size_t size)
{
	char a[48], b[48];

	if (hi - lo < 0.05)
		snprintf(buf, size, "the same for each");
	else
		snprintf(buf, size, "from %s to %s", saving_words(lo, a, sizeof(a)),
			 saving_words(hi, b, sizeof(b)));
	return buf;
}

/* Without a profile: the prefix priced walk by walk, and whether it is likely to pay. */
static void report_price(FILE *out, const struct never_prefix *p,
			 const struct never_prefix_price *pr, const char *calib_from)
{
	const double ended = pr->ended_ns[ARCH_NATIVE];
	char mean[48], range[112];

	if (calib_from)
		fprintf(out, "\nPriced without a profile, each syscall once, with %s (%s):\n",
			calib_from,
			pr->evaluations_priced ? "rule visits and field evaluations priced" :
						 "rule visits priced, no evaluations");
	else
		fprintf(out,
			"\nPriced without a profile, each syscall once, with the series' 2.8 ns an entry and\n"
			"no evaluation prices (no calibration here: auditskip calibrate measures them):\n");
	for (int a = 0; a < NR_ARCHES; a++) {
		if (!p->nnamed[a])
			continue;
		fprintf(out, "  %s walks it ends: %s on average (by syscall: %s)\n", arch_name(a),
			saving_words(pr->ended_ns[a], mean, sizeof(mean)),
			range_words(pr->ended_min_ns[a], pr->ended_max_ns[a], range,
				    sizeof(range)));
	}
	fprintf(out,
		"  %s walks it does not end: a cost of %.1f ns on average (they visit the prefix first)\n",
		arch_name(ARCH_NATIVE), pr->passed_ns);
	if (!p->nnamed[ARCH_NATIVE])
		return;
	if (pr->break_even > 0)
		fprintf(out,
			"  it pays only where more than %.0f%% of the %s walks are of the syscalls it names\n",
			100 * pr->break_even, arch_name(ARCH_NATIVE));
	if (ended <= pr->passed_ns)
		fprintf(out,
			"Unlikely to pay: a walk it ends saves no more than one it does not end costs.\n");
	else if (pr->unlikely)
		fprintf(out,
			"Unlikely to pay: a walk it ends saves %.1f ns, less than the %.1f ns its own entries\n"
			"and match cost that walk, so a small error in either price turns the saving into a cost.\n",
			ended, pr->ended_cost_ns[ARCH_NATIVE]);
	if (pr->ns_context > 0 && ended > 0)
		fprintf(out,
			"A walk it ends saves %.1f%% of the %.0f ns an audited call's context costs here.\n",
			100 * ended / pr->ns_context, pr->ns_context);
	fprintf(out,
		"Profile a typical workload (auditskip profile) and pass it with --profile to\n"
		"price the prefix on that mix, and to leave out a line the mix does not pay for.\n");
}

void never_prefix_report(FILE *out, const struct never_prefix *p,
			 const struct never_prefix_prediction *pp, const char *profile,
			 const struct never_prefix_price *price, const char *calib_from,
			 const struct never_prefix_classes *classes, const char *output, bool json)
{
	char range[112];

	if (json) {
		report_json(out, p, pp, profile, price, calib_from, classes, output);
		return;
	}
	if (p->refused) {
		fprintf(out, "No never,exit prefix: %s. Nothing written.\n", p->refused);
		return;
	}
	fprintf(out, "never,exit prefix (perm= rules narrowed with %s):\n", classes->words);
	for (int a = 0; a < NR_ARCHES; a++) {
		if (!p->arch_elf[a])
			continue;
		if (price && price->lost[a])
			fprintf(out,
				"  %-7s no rule: a walk it would end costs %.1f ns more on average\n"
				"          behind it (by syscall: %s), and\n"
				"          every walk it does not end pays to visit it; %u syscalls some rule can match\n",
				arch_name(a), price->lost_ns[a],
				range_words(price->lost_min_ns[a], price->lost_max_ns[a], range,
					    sizeof(range)),
				p->can_match[a]);
		else if (p->unpaid[a])
			fprintf(out,
				"  %-7s no rule: on the profile it would cost %.0f ns per second more than it\n"
				"          saves (the other arch's walks, which it does not end, test it on\n"
				"          their way); %u syscalls some rule can match\n",
				arch_name(a), per_second(-p->unpaid_ns[a], pp ? pp->seconds : 0),
				p->can_match[a]);
		else
			fprintf(out,
				"  %-7s %3u syscalls no rule can match; %u some rule can (%u of them no exit-list\n"
				"          rule, only watches, path= or io_uring rules); %u left out\n",
				arch_name(a), p->nnamed[a], p->can_match[a], p->not_exit_list[a],
				p->left_out[a]);
	}
	report_keepers(out, p);
	if (p->replaced)
		fprintf(out,
			"The set's first %zu exit rules are such a prefix already: replaced.\n",
			p->replaced);
	fprintf(out, "Left out where the arch has them:");
	for (size_t i = 0; never_prefix_left_out_names[i]; i++)
		fprintf(out, " %s", never_prefix_left_out_names[i]);
	fprintf(out, ";\n  %s.\n", never_prefix_left_out_why);
	fprintf(out, "Caveat: %s.\n", never_prefix_caveat);
	if (!p->rules && pp && (p->unpaid[ARCH_NATIVE] || p->unpaid[ARCH_COMPAT]))
		fprintf(out,
			"On the profile no prefix rule saves more than it costs. Nothing written.\n");
	else if (!p->rules && price && (price->lost[ARCH_NATIVE] || price->lost[ARCH_COMPAT]))
		fprintf(out,
			"Priced without a profile, no prefix rule saves the walks it ends anything on average.\n"
			"Nothing written.\n");
	else if (!p->rules)
		fprintf(out,
			"Every syscall can be matched by some rule: no prefix. Nothing written.\n");
	else if (output)
		fprintf(out,
			"Written to %s: %u never,exit rule%s, then the set's rules in order.\n",
			output, p->rules, p->rules == 1 ? "" : "s");
	if (pp)
		report_prediction(out, pp, profile, p->watch_rules);
	else if (price && p->rules)
		report_price(out, p, price, calib_from);
}
