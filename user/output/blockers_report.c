// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>
#include "model/blockers.h"
#include "output/blockers_report.h"
#include "output/mask_bit_name.h"
#include "audit/syscalls.h"

static const char *kind_name(const struct skip_blockers *b, char *buf, size_t size)
{
	if (b->kind == BLOCKERS_PERM)
		return "perm-narrowed mask";
	if (b->kind == BLOCKERS_ARCH) {
		snprintf(buf, size, "%s mask", arch_name(b->arch));
		return buf;
	}
	return "patch's mask";
}

/* The example syscall's name on the arch whose table holds it (JSON: one name). */
static void example_name(const struct skip_blockers *b, char *buf, size_t size)
{
	int arch = b->kind == BLOCKERS_ARCH ? b->arch : ARCH_NATIVE;

	slot_name(arch, b->example_nr, buf, size);
	if (!strncmp(buf, "syscall_", 8) && b->kind != BLOCKERS_ARCH)
		slot_name(ARCH_COMPAT, b->example_nr, buf, size);
}

/* The same for people: a bit of an arch-blind mask is named from both tables. */
static void example_text(const struct skip_blockers *b, char *buf, size_t size)
{
	if (b->kind == BLOCKERS_ARCH)
		slot_name(b->arch, b->example_nr, buf, size);
	else
		mask_bit_name(b->example_nr, buf, size);
}

static json_object *one_json(const struct ruleset *rs, const struct skip_blockers *b)
{
	json_object *o = json_object_new_object(), *arr = json_object_new_array();
	char name[64];

	if (b->kind == BLOCKERS_ARCH)
		json_object_object_add(o, "arch", json_object_new_string(arch_name(b->arch)));
	json_object_object_add(o, "exact", json_object_new_boolean(1));
	json_object_object_add(o, "syscalls", json_object_new_uint64(b->syscalls));
	json_object_object_add(o, "skippable_syscalls", json_object_new_uint64(b->skippable));
	json_object_object_add(o, "rule_count", json_object_new_uint64(b->n));
	for (size_t i = 0; i < b->n; i++) {
		const struct audit_rule *r = &rs->rules[b->rules[i]];
		json_object *e = json_object_new_object();

		json_object_object_add(e, "index", json_object_new_uint64(b->rules[i]));
		json_object_object_add(e, "key", json_object_new_string(r->key));
		json_object_object_add(e, "text", json_object_new_string(r->text));
		json_object_object_add(e, "origin", json_object_new_string(r->origin));
		json_object_array_add(arr, e);
	}
	json_object_object_add(o, "rules", arr);
	json_object_object_add(o, "syscalls_freed", json_object_new_uint64(b->freed));
	if (b->n) {
		example_name(b, name, sizeof(name));
		json_object_object_add(o, "example_syscall", json_object_new_string(name));
	} else {
		json_object_object_add(o, "example_syscall", NULL);
	}
	json_object_object_add(o, "mask_bits_without",
			       json_object_new_uint64(mask_count(b->without)));
	return o;
}

json_object *skip_blockers_json(const struct ruleset *rs)
{
	json_object *o = json_object_new_object(), *arches = json_object_new_array();
	struct skip_blockers b;

	if (!blockers_find(rs, BLOCKERS_PATCH, ARCH_NATIVE, &b))
		json_object_object_add(o, "patch", one_json(rs, &b));
	blockers_free(&b);
	for (int a = 0; a < NR_ARCHES; a++) {
		if (arch_machine(a) < 0)
			continue;
		if (!blockers_find(rs, BLOCKERS_ARCH, a, &b))
			json_object_array_add(arches, one_json(rs, &b));
		blockers_free(&b);
	}
	json_object_object_add(o, "arch", arches);
	if (!blockers_find(rs, BLOCKERS_PERM, ARCH_NATIVE, &b))
		json_object_object_add(o, "perm_narrowed", one_json(rs, &b));
	blockers_free(&b);
	return o;
}

static void print_one(FILE *out, const struct ruleset *rs, const struct skip_blockers *b)
{
	char name[96], label[64];
	unsigned int bits;

	if (!b->n) {
		fprintf(out, "  %s: none: the skip fires already for %u of %u syscalls\n",
			kind_name(b, label, sizeof(label)), b->skippable, b->syscalls);
		return;
	}
	example_text(b, name, sizeof(name));
	bits = mask_count(b->without);
	fprintf(out,
		"  %s: %zu rule%s; removing %s, or narrowing %s to leave out %s, lets %u of %u syscalls skip (aggregate mask then %u bit%s)\n",
		kind_name(b, label, sizeof(label)), b->n, b->n == 1 ? "" : "s",
		b->n == 1 ? "it" : "them", b->n == 1 ? "it" : "each", name, b->freed, b->syscalls,
		bits, bits == 1 ? "" : "s");
	for (size_t i = 0; i < b->n; i++) {
		const struct audit_rule *r = &rs->rules[b->rules[i]];

		if (r->origin[0])
			fprintf(out, "    %s  %s\n", r->origin, r->text);
		else
			fprintf(out, "    %s\n", r->text);
	}
}

void print_skip_blockers(FILE *out, const struct ruleset *rs, bool always)
{
	struct skip_blockers b;

	if (blockers_find(rs, BLOCKERS_PATCH, ARCH_NATIVE, &b))
		return;
	if (!always && !b.n) {
		blockers_free(&b);
		return;
	}
	fprintf(out, "\n");
	/* Before the heading, which its items follow at once; the rules report says it earlier. */
	if (!always)
		print_syscall_count_note(out);
	fprintf(out,
		"Fewest exit rules that keep the skip from firing (exact: the rules naming the least-named syscall):\n");
	print_one(out, rs, &b);
	blockers_free(&b);
	for (int a = 0; a < NR_ARCHES; a++) {
		if (arch_machine(a) < 0)
			continue;
		if (!blockers_find(rs, BLOCKERS_ARCH, a, &b))
			print_one(out, rs, &b);
		blockers_free(&b);
	}
	if (!blockers_find(rs, BLOCKERS_PERM, ARCH_NATIVE, &b))
		print_one(out, rs, &b);
	blockers_free(&b);
}
