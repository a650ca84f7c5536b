// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include <libaudit.h>
#include "model/advise.h"
#include "auditskip.h"
#include "audit/kernel_tables.h"
#include "audit/loadable_file.h"
#include "audit/rule_text.h"
#include "audit/syscalls.h"
#include "model/whatif_masks.h"

/* Version of advise's JSON document. */
#define ADVISE_SCHEMA 1

static const char *const kind_names[] = {
	[ADVICE_KEEP] = "keep",
	[ADVICE_NARROW] = "narrow",
	[ADVICE_DROP] = "drop",
};

static bool mask_empty(const syscall_mask m)
{
	return mask_count(m) == 0;
}

static const char *elf_name(__u32 elf)
{
	int machine = audit_elf_to_machine(elf);
	const char *name = machine >= 0 ? audit_machine_to_name(machine) : NULL;

	return name ? name : "?";
}

static void describe_perm(unsigned int perm, char *out)
{
	char *p = out;

	if (perm & AUDIT_PERM_READ)
		*p++ = 'r';
	if (perm & AUDIT_PERM_WRITE)
		*p++ = 'w';
	if (perm & AUDIT_PERM_EXEC)
		*p++ = 'x';
	if (perm & AUDIT_PERM_ATTR)
		*p++ = 'a';
	*p = '\0';
}

/*
 * Which of this machine's arches the rule's arch fields let through
 * (audit_filter_rules(): audit_comparator(ctx->arch, op, value)); false for
 * an operator other than = and !=, with *odd set.
 */
static void arches_passed(const struct audit_rule *r, const __u32 elf[NR_ARCHES],
			  bool pass[NR_ARCHES], bool *has_arch, bool *odd)
{
	*has_arch = *odd = false;
	for (int a = 0; a < NR_ARCHES; a++)
		pass[a] = elf[a] != 0;
	for (unsigned int i = 0; i < r->field_count; i++) {
		const struct rule_field *f = &r->fields[i];

		if (f->type != AUDIT_ARCH)
			continue;
		*has_arch = true;
		for (int a = 0; a < NR_ARCHES; a++) {
			if (f->op == AUDIT_EQUAL)
				pass[a] = pass[a] && elf[a] == f->value;
			else if (f->op == AUDIT_NOT_EQUAL)
				pass[a] = pass[a] && elf[a] != f->value;
			else
				*odd = true;
		}
	}
}

/* A perm field whose operator is not =: audit_match_perm()'s answer inverted or odd. */
static const char *perm_not_equal(const struct audit_rule *r)
{
	for (unsigned int i = 0; i < r->field_count; i++)
		if (r->fields[i].type == AUDIT_PERM && r->fields[i].op != AUDIT_EQUAL)
			return audit_operator_to_symbol(r->fields[i].op);
	return NULL;
}

static void keep(struct rule_advice *ra, const struct audit_rule *r, const char *why)
{
	ra->kind = ADVICE_KEEP;
	ra->nparts = 1;
	ra->part[0].arch_elf = 0;
	memcpy(ra->part[0].mask, r->mask, sizeof(syscall_mask));
	if (why != ra->reason)
		snprintf(ra->reason, sizeof(ra->reason), "%s", why);
}

/*
 * audit_match_perm() per arch: a syscall outside the permission classes
 * never passes perm=. One part for each arch the rule passes whose mask
 * keeps a bit; the bits they keep, all parts together.
 */
static unsigned int perm_parts(const struct audit_rule *r, const struct kernel_classes *kc,
			       const __u32 elf[NR_ARCHES], const bool pass[NR_ARCHES],
			       bool has_arch, struct rule_advice *ra)
{
	unsigned int after = 0;

	ra->nparts = 0;
	for (int a = 0; a < NR_ARCHES; a++) {
		struct advice_part *p = &ra->part[ra->nparts];

		if (!pass[a])
			continue;
		memset(p->mask, 0, sizeof(p->mask));
		perm_syscalls(r->perm, audit_elf_to_machine(elf[a]), a == ARCH_COMPAT, kc, p->mask);
		mask_and(p->mask, r->mask);
		if (mask_empty(p->mask))
			continue;
		/* A rule that names one arch already keeps its own fields. */
		p->arch_elf = has_arch && (!pass[ARCH_NATIVE] || !pass[ARCH_COMPAT]) ? 0 : elf[a];
		after += mask_count(p->mask);
		ra->nparts++;
	}
	return after;
}

/* An exit rule with perm= (operator =): narrowed to the syscalls perm= passes, or dropped. */
static void advise_perm(const struct audit_rule *r, const struct kernel_classes *kc,
			const __u32 elf[NR_ARCHES], const bool pass[NR_ARCHES], bool has_arch,
			struct rule_advice *ra)
{
	unsigned int before = mask_count(r->mask);
	unsigned int after = perm_parts(r, kc, elf, pass, has_arch, ra);
	char perm[8];

	describe_perm(r->perm, perm);
	if (!ra->nparts) {
		ra->kind = ADVICE_DROP;
		snprintf(ra->reason, sizeof(ra->reason),
			 "perm=%s passes none of the syscalls it names: it never matches", perm);
		return;
	}
	if (ra->nparts == 1 && !ra->part[0].arch_elf && mask_equal(ra->part[0].mask, r->mask)) {
		keep(ra, r, "perm=: it names only syscalls of its permission classes already");
		return;
	}
	ra->kind = ADVICE_NARROW;
	snprintf(
		ra->reason, sizeof(ra->reason),
		"perm=%s passes only the syscalls of its permission classes%s: %u bits instead of %u",
		perm, ra->nparts > 1 ? ", per arch" : "", after, before);
}

static void advise_rule(const struct audit_rule *r, const struct kernel_classes *kc,
			const __u32 elf[NR_ARCHES], struct rule_advice *ra)
{
	bool pass[NR_ARCHES], has_arch, odd;
	const char *perm_op;

	if (!rule_on_exit_list(r)) {
		keep(ra, r,
		     r->inode_hash ? "on the inode hash, which the exit walk does not visit" :
				     "not on the exit list");
		return;
	}
	arches_passed(r, elf, pass, &has_arch, &odd);
	if (odd) {
		keep(ra, r, "an arch field with an operator other than = or !=");
		return;
	}
	if (!pass[ARCH_NATIVE] && !pass[ARCH_COMPAT]) {
		ra->kind = ADVICE_DROP;
		ra->nparts = 0;
		snprintf(
			ra->reason, sizeof(ra->reason),
			"its arch fields pass neither of this machine's arches (%s%s%s): it never matches",
			elf_name(elf[ARCH_NATIVE]), elf[ARCH_COMPAT] ? ", " : "",
			elf[ARCH_COMPAT] ? elf_name(elf[ARCH_COMPAT]) : "");
		return;
	}
	perm_op = perm_not_equal(r);
	if (perm_op) {
		char why[sizeof(ra->reason)];

		snprintf(
			why, sizeof(why),
			"perm%s matches on syscalls outside the permission classes too: no bit can go",
			perm_op);
		keep(ra, r, why);
		return;
	}
	if (!r->perm) {
		keep(ra, r,
		     mask_is_full(r->mask) ?
			     "no perm= field: any syscall can match, no bit can go" :
			     "no perm= field: each syscall it names can match");
		return;
	}
	if (!kc) {
		keep(ra, r,
		     "perm=: the running kernel's permission classes cannot be read here (BPF reads them where it keeps the mask mirror: fexit programs, bpf_loop(), 'classes' in /proc/kallsyms); no table stands in for them");
		return;
	}
	advise_perm(r, kc, elf, pass, has_arch, ra);
}

int advise_build(const struct ruleset *rs, const struct kernel_classes *kc,
		 enum advise_classes from, struct advice *a)
{
	__u32 elf[NR_ARCHES];
	size_t counted = 0;

	memset(a, 0, sizeof(*a));
	a->rules = calloc(rs->n ? rs->n : 1, sizeof(*a->rules));
	if (!a->rules)
		return -ENOMEM;
	a->n = rs->n;
	a->classes = kc ? from : CLASSES_NONE;
	whatif_arches(elf);
	for (size_t i = 0; i < rs->n; i++)
		advise_rule(&rs->rules[i], kc, elf, &a->rules[i]);

	/*
	 * With no rule left, audit_n_rules would be 0 and every context dummy:
	 * no syscall record at all, where a dropped rule never made one. Keep
	 * the dropped ones then.
	 */
	for (size_t i = 0; i < rs->n; i++) {
		unsigned int list = rs->rules[i].list;

		/* What audit_add_rule() counts in audit_n_rules. */
		counted += a->rules[i].kind != ADVICE_DROP && list != AUDIT_FILTER_USER &&
			   list != AUDIT_FILTER_EXCLUDE && list != AUDIT_FILTER_FS;
	}
	for (size_t i = 0; i < rs->n && !counted; i++) {
		struct rule_advice *ra = &a->rules[i];
		char why[sizeof(ra->reason)];

		snprintf(why, sizeof(why), "%.150s; kept: with no rule loaded contexts are dummy",
			 ra->reason);
		keep(ra, &rs->rules[i], why);
	}

	ruleset_exit_mask(rs, -1, a->before);
	a->exit_rules_before = ruleset_exit_rules(rs);
	for (size_t i = 0; i < rs->n; i++) {
		if (!rule_on_exit_list(&rs->rules[i]))
			continue;
		for (int p = 0; p < a->rules[i].nparts; p++)
			mask_or(a->after, a->rules[i].part[p].mask);
		a->exit_rules_after += a->rules[i].nparts;
	}
	return 0;
}

void advise_free(struct advice *a)
{
	free(a->rules);
	a->rules = NULL;
	a->n = 0;
}

/* The text of line N of FILE for an origin "FILE:N" (rulesfile.h); false if unreadable. */
static bool origin_line(const char *origin, char *buf, size_t size)
{
	const char *colon = strrchr(origin, ':');
	char *path, *text = NULL;
	unsigned long n, at = 0;
	size_t cap = 0;
	ssize_t len;
	bool found = false;
	FILE *f;

	if (!colon || colon == origin || !colon[1])
		return false;
	n = strtoul(colon + 1, NULL, 10);
	path = strndup(origin, colon - origin);
	f = path ? fopen(path, "r") : NULL;
	free(path);
	if (!f)
		return false;
	while (!found && (len = getline(&text, &cap, f)) >= 0) {
		if (++at != n)
			continue;
		if (len && text[len - 1] == '\n')
			text[len - 1] = '\0';
		snprintf(buf, size, "%s", text);
		found = true;
	}
	free(text);
	fclose(f);
	return found;
}

int advise_write_rules(FILE *out, const struct ruleset *rs, const struct advice *a,
		       const char *source)
{
	char *line = malloc(RULES_FILE_LINE_MAX);
	int err = 0;

	if (!line)
		return -ENOMEM;
	fprintf(out,
		"## Written by auditskip advise from %s.\n"
		"## Load with 'auditctl -R FILE': it replaces every audit rule loaded.\n"
		"## perm= rewrites: %s.\n",
		source, advise_classes_from(a));
	loadable_file_begin(out, rs);
	for (size_t i = 0; i < rs->n && !err; i++) {
		const struct audit_rule *r = &rs->rules[i];
		const struct rule_advice *ra = &a->rules[i];
		char source[1024];

		if (ra->kind == ADVICE_KEEP || r->refused_here) {
			err = loadable_file_rule(out, r, 0, NULL, line);
			continue;
		}
		err = rule_to_rules_file(r, 0, NULL, line);
		if (err)
			break;
		fprintf(out, "\n# %s: %s\n", ra->kind == ADVICE_DROP ? "dropped" : "narrowed",
			ra->reason);
		if (origin_line(r->origin, source, sizeof(source)))
			fprintf(out, "# %s: %s\n", r->origin, source);
		else
			fprintf(out, "# %s\n", line);
		for (int p = 0; p < ra->nparts && !err; p++)
			err = loadable_file_rule(out, r, ra->part[p].arch_elf, ra->part[p].mask,
						 line);
		fprintf(out, "\n");
	}
	if (!err)
		loadable_file_end(out, rs);
	free(line);
	return err ? -EINVAL : 0;
}

/* Syscalls of this machine's arch whose bit is clear: what the skip would spare. */
static unsigned int named_clear(const syscall_mask m)
{
	unsigned int n = 0;

	for (unsigned int nr = 0; nr < MASK_SYSCALL_BITS; nr++)
		n += !mask_test(m, nr) && syscall_table_name(nr, arch_machine(ARCH_NATIVE));
	return n;
}

static json_object *mask_json(const syscall_mask m, size_t exit_rules)
{
	json_object *o = json_object_new_object();
	char hex[MASK_HEX_LEN + 1];

	mask_to_hex(m, hex);
	json_object_object_add(o, "exit_rules", json_object_new_uint64(exit_rules));
	json_object_object_add(o, "mask_bits", json_object_new_uint64(mask_count(m)));
	json_object_object_add(o, "mask_hex", json_object_new_string(hex));
	json_object_object_add(o, "skip_can_fire", json_object_new_boolean(named_clear(m) > 0));
	json_object_object_add(o, "skippable_syscalls", json_object_new_uint64(named_clear(m)));
	return o;
}

static const char *const classes_names[] = {
	[CLASSES_NONE] = "unreadable",
	[CLASSES_KERNEL] = "kernel",
	[CLASSES_TABLE] = "table",
};

const char *advise_classes_key(const struct advice *a)
{
	return classes_names[a->classes];
}

const char *advise_classes_from(const struct advice *a)
{
	static char table[96];

	switch (a->classes) {
	case CLASSES_KERNEL:
		return "syscalls of the running kernel's permission classes (read with BPF)";
	case CLASSES_TABLE:
		snprintf(table, sizeof(table),
			 "syscalls of Linux %s's permission classes (auditskip's table)",
			 kernel_tables_version());
		return table;
	case CLASSES_NONE:
		break;
	}
	return "none (the running kernel's permission classes could not be read)";
}

static void report_json(FILE *out, const struct ruleset *rs, const struct advice *a)
{
	json_object *o = json_object_new_object(), *arr = json_object_new_array();
	char *line = malloc(RULES_FILE_LINE_MAX);

	json_object_object_add(o, "type", json_object_new_string("advise"));
	json_object_object_add(o, "schema", json_object_new_int(ADVISE_SCHEMA));
	json_object_object_add(o, "perm_classes", json_object_new_string(advise_classes_key(a)));
	if (a->classes == CLASSES_TABLE)
		json_object_object_add(o, "kernel_table",
				       json_object_new_string(kernel_tables_version()));
	json_object_object_add(o, "before", mask_json(a->before, a->exit_rules_before));
	json_object_object_add(o, "after", mask_json(a->after, a->exit_rules_after));
	for (size_t i = 0; i < rs->n; i++) {
		const struct rule_advice *ra = &a->rules[i];
		json_object *e = json_object_new_object(), *parts = json_object_new_array();

		json_object_object_add(e, "text", json_object_new_string(rs->rules[i].text));
		json_object_object_add(e, "advice", json_object_new_string(kind_names[ra->kind]));
		json_object_object_add(e, "reason", json_object_new_string(ra->reason));
		json_object_object_add(e, "mask_bits",
				       json_object_new_uint64(mask_count(rs->rules[i].mask)));
		for (int p = 0; ra->kind == ADVICE_NARROW && p < ra->nparts; p++) {
			json_object *q = json_object_new_object();

			if (line && !rule_to_auditctl(&rs->rules[i], ra->part[p].arch_elf,
						      ra->part[p].mask, line, RULES_FILE_LINE_MAX))
				json_object_object_add(q, "rule", json_object_new_string(line));
			json_object_object_add(
				q, "mask_bits",
				json_object_new_uint64(mask_count(ra->part[p].mask)));
			json_object_array_add(parts, q);
		}
		json_object_object_add(e, "rewrite", parts);
		json_object_array_add(arr, e);
	}
	json_object_object_add(o, "rules", arr);
	fprintf(out, "%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
	free(line);
}

static void print_mask(FILE *out, const char *when, const syscall_mask m, size_t rules)
{
	unsigned int clear = named_clear(m);

	fprintf(out, "Aggregate mask %s: %zu exit rules, %u of %u bits set; ", when, rules,
		mask_count(m), MASK_BITS);
	if (clear)
		fprintf(out, "the skip can fire (%u of %s's syscalls have their bit clear)\n",
			clear, arch_name(ARCH_NATIVE));
	else
		fprintf(out, "the skip never fires\n");
}

void advise_report(FILE *out, const struct ruleset *rs, const struct advice *a, bool json)
{
	size_t counts[3] = { 0 };

	if (json) {
		report_json(out, rs, a);
		return;
	}
	for (size_t i = 0; i < rs->n; i++) {
		const struct rule_advice *ra = &a->rules[i];

		counts[ra->kind]++;
		/* Of the rules kept, those that still set every bit are the ones to read. */
		if (ra->kind == ADVICE_KEEP && !rule_sets_every_bit(&rs->rules[i]))
			continue;
		fprintf(out, "%-8s %s\n         %s\n",
			ra->kind == ADVICE_KEEP ? "keep" :
			ra->kind == ADVICE_DROP ? "drop" :
						  "narrow",
			rs->rules[i].text, ra->reason);
		for (int p = 0; ra->kind == ADVICE_NARROW && p < ra->nparts; p++)
			fprintf(out, "         -> %s%s: %u syscalls\n",
				ra->part[p].arch_elf ? "arch=" : "its own arch",
				ra->part[p].arch_elf ? elf_name(ra->part[p].arch_elf) : "",
				mask_count(ra->part[p].mask));
	}
	fprintf(out,
		"\n%zu rules: %zu narrowed, %zu dropped, %zu kept (shown: those that set every bit)\n",
		rs->n, counts[ADVICE_NARROW], counts[ADVICE_DROP], counts[ADVICE_KEEP]);
	fprintf(out, "perm= rewrites: %s\n", advise_classes_from(a));
	print_mask(out, "before", a->before, a->exit_rules_before);
	print_mask(out, "after ", a->after, a->exit_rules_after);
}
