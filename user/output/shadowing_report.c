// SPDX-License-Identifier: GPL-2.0
/* Rules a never rule before them silences, for `rules` and a counting run's summary. */
#include <stdint.h>
#include <string.h>
#include "audit/syscalls.h"
#include "output/json_out.h"
#include "output/shadowing_report.h"

/* A text report names this many syscalls of a list, and counts the rest. */
#define NAMES_SHOWN 10

static json_object *names_json(const syscall_mask m, int arch)
{
	json_object *arr = json_object_new_array();
	char name[64];

	for (unsigned int nr = 0; nr < MASK_SYSCALL_BITS; nr++) {
		if (!mask_test(m, nr))
			continue;
		slot_name(arch, nr, name, sizeof(name));
		json_object_array_add(arr, json_object_new_string(name));
	}
	return arr;
}

static json_object *by_json(const struct ruleset *rs, const struct shadow_by *by, int arch)
{
	const struct audit_rule *r = &rs->rules[by->never];
	json_object *o = json_object_new_object();

	add_u64(o, "index", by->never);
	add_str(o, "text", r->text);
	add_str(o, "origin", r->origin);
	json_object_object_add(o, "syscalls", names_json(by->syscalls, arch));
	return o;
}

static json_object *arches_json(const struct ruleset *rs, const struct shadowed_rule *e)
{
	json_object *arr = json_object_new_array();

	for (int a = 0; a < NR_ARCHES; a++) {
		const struct shadow_arch *sa = &e->arch[a];
		json_object *o, *by;

		if (!sa->can_match)
			continue;
		o = json_object_new_object();
		by = json_object_new_array();
		add_str(o, "arch", arch_name(a));
		add_u64(o, "can_match", sa->can_match);
		add_u64(o, "syscall_count", sa->count);
		json_object_object_add(o, "syscalls", names_json(sa->syscalls, a));
		for (size_t k = 0; k < sa->nby; k++)
			json_object_array_add(by, by_json(rs, &sa->by[k], a));
		json_object_object_add(o, "by", by);
		json_object_array_add(arr, o);
	}
	return arr;
}

json_object *shadowed_rules_json(const struct ruleset *rs, const struct shadowed_rule *v, size_t n,
				 size_t limit)
{
	json_object *arr = json_object_new_array();

	for (size_t i = 0; i < n && i < limit; i++) {
		const struct audit_rule *r = &rs->rules[v[i].rule];
		json_object *o = json_object_new_object();

		add_u64(o, "index", v[i].rule);
		add_str(o, "text", r->text);
		add_str(o, "key", r->key);
		add_str(o, "origin", r->origin);
		json_object_object_add(o, "wholly", json_object_new_boolean(v[i].wholly));
		json_object_object_add(o, "arches", arches_json(rs, &v[i]));
		json_object_array_add(arr, o);
	}
	return arr;
}

/*
 * Where a rule is: its FILE:LINE when read from a file, else its line in
 * `auditctl -l` (which lists every list in the ruleset's order).
 */
static void rule_place(const struct ruleset *rs, size_t i, char *buf, size_t size)
{
	if (rs->rules[i].origin && rs->rules[i].origin[0])
		snprintf(buf, size, "%s", rs->rules[i].origin);
	else
		snprintf(buf, size, "rule %zu", i + 1);
}

static void print_rule(FILE *out, const struct ruleset *rs, size_t i, const char *indent,
		       const char *before)
{
	char place[320];

	rule_place(rs, i, place, sizeof(place));
	fprintf(out, "%s%s%s  %s\n", indent, before, place, rs->rules[i].text);
}

/* "openat, open, ..." on one line, the first NAMES_SHOWN, then how many more. */
static void print_names(FILE *out, const syscall_mask m, unsigned int count, int arch)
{
	unsigned int shown = 0;
	char name[64];

	fprintf(out, "    %s: ", arch_name(arch));
	for (unsigned int nr = 0; nr < MASK_SYSCALL_BITS && shown < NAMES_SHOWN; nr++) {
		if (!mask_test(m, nr))
			continue;
		slot_name(arch, nr, name, sizeof(name));
		fprintf(out, "%s%s", shown++ ? ", " : "", name);
	}
	if (count > shown)
		fprintf(out, " and %u more", count - shown);
	fputc('\n', out);
}

/* "wholly: x86_64 1 of 1 syscall it can match, i386 0 of 61". */
static void print_extent(FILE *out, const struct shadowed_rule *e)
{
	bool first = true;

	fprintf(out, "    %s:", e->wholly ? "wholly" : "partly");
	for (int a = 0; a < NR_ARCHES; a++) {
		const struct shadow_arch *sa = &e->arch[a];

		if (!sa->can_match)
			continue;
		fprintf(out, "%s %s %u of %u%s", first ? "" : ",", arch_name(a), sa->count,
			sa->can_match,
			!first		   ? "" :
			sa->can_match == 1 ? " syscall it can match" :
					     " syscalls it can match");
		first = false;
	}
	fputc('\n', out);
}

static void print_entry(FILE *out, const struct ruleset *rs, const struct shadowed_rule *e,
			bool maybe)
{
	print_rule(out, rs, e->rule, "  ", "");
	print_extent(out, e);
	for (int a = 0; a < NR_ARCHES; a++) {
		for (size_t k = 0; k < e->arch[a].nby; k++) {
			const struct shadow_by *by = &e->arch[a].by[k];

			print_names(out, by->syscalls, by->count, a);
			print_rule(out, rs, by->never, "      ", maybe ? "may be, by " : "by ");
		}
	}
}

void print_shadowing(FILE *out, const struct ruleset *rs, const struct shadowing *s)
{
	if (s->n)
		fprintf(out,
			"\nShadowed rules: a never rule before them ends the walk of these syscalls, and\n"
			"its priority outranks every rule after it (watches and path= rules too), so\n"
			"they make no record for them:\n");
	for (size_t i = 0; i < s->n; i++)
		print_entry(out, rs, &s->rules[i], false);
	if (s->nmay)
		fprintf(out,
			"\nRules a never rule with other fields before them may silence (for these\n"
			"syscalls, whenever its fields pass):\n");
	for (size_t i = 0; i < s->nmay; i++)
		print_entry(out, rs, &s->may[i], true);
}

void print_shadowing_brief(FILE *out, const struct ruleset *rs, const struct shadowing *s)
{
	if (!s || !s->n)
		return;
	fprintf(out,
		"\nShadowed rules: %zu (%zu wholly) make no record for syscalls a never rule before\n"
		"them ends the walk of; 'auditskip rules' names the syscalls and what shadows them:\n",
		s->n, shadowing_wholly(s));
	for (size_t i = 0; i < s->n && i < SHADOWED_SUMMARY_RULES; i++)
		print_rule(out, rs, s->rules[i].rule, "  ",
			   s->rules[i].wholly ? "wholly  " : "partly  ");
	if (s->n > SHADOWED_SUMMARY_RULES)
		fprintf(out, "  ... and %zu more\n", s->n - SHADOWED_SUMMARY_RULES);
}
