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

static void report_json(FILE *out, const struct never_prefix *p,
			const struct never_prefix_prediction *pp, const char *profile,
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

void never_prefix_report(FILE *out, const struct never_prefix *p,
			 const struct never_prefix_prediction *pp, const char *profile,
			 const struct never_prefix_classes *classes, const char *output, bool json)
{
	if (json) {
		report_json(out, p, pp, profile, classes, output);
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
		if (p->unpaid[a])
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
	else if (!p->rules)
		fprintf(out,
			"Every syscall can be matched by some rule: no prefix. Nothing written.\n");
	else if (output)
		fprintf(out,
			"Written to %s: %u never,exit rule%s, then the set's rules in order.\n",
			output, p->rules, p->rules == 1 ? "" : "s");
	if (pp)
		report_prediction(out, pp, profile, p->watch_rules);
	else if (p->rules)
		fprintf(out,
			"Not priced without --profile: counting rule visits alone, it pays only where more\n"
			"than %.0f%% of the exit walks are of the syscalls it names (such a walk visits 1\n"
			"entry instead of %zu; every other walk visits the %u prefix entries first).\n"
			"Profile a typical workload (auditskip profile) and pass it with --profile.\n",
			100 * never_prefix_break_even(p), p->exit_rules, p->rules);
}
