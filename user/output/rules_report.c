// SPDX-License-Identifier: GPL-2.0
/* `auditskip rules`: the exit rules, their aggregate mask and the rules that fill it. */
#include <stdint.h>
#include <string.h>
#include <json-c/json.h>
#include <libaudit.h>
#include "audit/syscalls.h"
#include "model/shadowing.h"
#include "model/whatif_masks.h"
#include "output/blockers_report.h"
#include "output/full_mask_rules.h"
#include "output/json_out.h"
#include "output/mask_bit_name.h"
#include "output/rules_report.h"
#include "output/shadowing_report.h"

/* The numbers the patch's mask sets (set) or leaves clear, named from both arches' tables. */
static void print_syscalls(FILE *out, const syscall_mask m, bool set, const char *title)
{
	unsigned int n = 0, listed = 0;
	char name[96];

	for (unsigned int nr = 0; nr < MASK_SYSCALL_BITS; nr++)
		n += mask_test(m, nr) == set && mask_bit_named(nr);
	fprintf(out, "%s: %u", title, n);
	if (n > 48) {
		fprintf(out, " (too many to list)\n");
		return;
	}
	for (unsigned int nr = 0; nr < MASK_SYSCALL_BITS; nr++) {
		if (mask_test(m, nr) != set || !mask_bit_named(nr))
			continue;
		mask_bit_name(nr, name, sizeof(name));
		fprintf(out, "%s%s", !listed ? "\n  " : listed % 8 ? ", " : ",\n  ", name);
		listed++;
	}
	fprintf(out, "\n");
}

static json_object *rule_fields_json(const struct audit_rule *rule)
{
	json_object *arr = json_object_new_array();

	for (unsigned int i = 0; i < rule->field_count; i++) {
		const struct rule_field *f = &rule->fields[i];
		const char *name = audit_field_to_name(f->type);
		const char *op = audit_operator_to_symbol(f->op);
		json_object *e = json_object_new_object();
		char buf[RULE_STRINGS_MAX + 1];

		add_str(e, "field", name ? name : "?");
		add_str(e, "op", op ? op : "?");
		if (rule_field_is_string(f->type))
			add_str(e, "value", rule_field_string(rule, i, buf, sizeof(buf)));
		else
			add_u64(e, "value", f->value);
		json_object_array_add(arr, e);
	}
	return arr;
}

static json_object *strings_json(char *const *v, size_t n)
{
	json_object *arr = json_object_new_array();

	for (size_t i = 0; i < n; i++)
		json_object_array_add(arr, json_object_new_string(v[i]));
	return arr;
}

static const char *plural(size_t n)
{
	return n == 1 ? "" : "s";
}

static void print_exit_rule(FILE *out, const struct audit_rule *r)
{
	unsigned int bits = mask_count(r->mask);

	fprintf(out, "  %4u bit%s  %s\n", bits, bits == 1 ? " " : "s", r->text);
}

static void print_read_from(FILE *out, const struct ruleset *rs)
{
	fprintf(out, "Read from %s (nothing loaded):\n", rs->nsources == 1 ? "a file" : "files");
	for (size_t i = 0; i < rs->nsources; i++)
		fprintf(out, "  %s\n", rs->sources[i]);
	if (rs->nnotes)
		fprintf(out, "Lines that are not rules, and warnings:\n");
	for (size_t i = 0; i < rs->nnotes; i++)
		fprintf(out, "  %s\n", rs->notes[i]);
	fprintf(out, "\n");
}

/* The text report: the rules, the aggregate mask, its syscalls, what fills it, what is shadowed. */
static void print_rules_text(FILE *out, const struct ruleset *rs, const syscall_mask all,
			     const struct shadowing *shadowed)
{
	char id[RULESET_ID_LEN];
	struct whatif_masks w;

	if (rs->nsources)
		print_read_from(out, rs);
	fprintf(out,
		"Exit-list rules (visited by the exit filter walk of every audited syscall):\n");
	for (size_t i = 0; i < rs->n; i++)
		if (rule_on_exit_list(&rs->rules[i]))
			print_exit_rule(out, &rs->rules[i]);
	fprintf(out, "\nOn the inode hash (not walked by the exit filter):\n");
	for (size_t i = 0; i < rs->n; i++)
		if (rs->rules[i].inode_hash)
			fprintf(out, "            %s\n", rs->rules[i].text);
	fprintf(out, "\nAggregate mask of %zu exit rule%s: %u of %u bits set\n",
		ruleset_exit_rules(rs), plural(ruleset_exit_rules(rs)), mask_count(all), MASK_BITS);
	whatif_build(rs, NULL, &w);
	fprintf(out,
		"Beyond the patch: native-arch mask %u bit%s, compat-arch mask %u bit%s;\n"
		"  perm-narrowed (archperm) %u and %u bits, with watches (archperm-entry) %u and %u\n",
		mask_count(w.arch_mask[0]), plural(mask_count(w.arch_mask[0])),
		mask_count(w.arch_mask[1]), plural(mask_count(w.arch_mask[1])),
		mask_count(w.perm_mask[0]), mask_count(w.perm_mask[1]), mask_count(w.entry_mask[0]),
		mask_count(w.entry_mask[1]));
	print_syscall_count_note(out);
	print_syscalls(out, all, true, "Syscalls that still walk the list");
	print_syscalls(out, all, false, "Syscalls the fast path would skip");
	print_full_mask_rules(out, rs);
	print_skip_blockers(out, rs, true);
	if (shadowed)
		print_shadowing(out, rs, shadowed);
	ruleset_id(rs, id);
	fprintf(out,
		"\nRule set id %s: the ruleset label of auditskip_rules_info on every host that\n"
		"loads these rules (doc/metrics.md)\n",
		id);
}

static json_object *rule_json(const struct audit_rule *rule)
{
	json_object *e = json_object_new_object();
	char hex[MASK_HEX_LEN + 1];

	add_str(e, "text", rule->text);
	add_str(e, "key", rule->key);
	add_u64(e, "list", rule->list);
	json_object_object_add(e, "exit_list", json_object_new_boolean(rule_on_exit_list(rule)));
	json_object_object_add(e, "inode_hash", json_object_new_boolean(rule->inode_hash));
	add_u64(e, "mask_bits", mask_count(rule->mask));
	add_str(e, "action",
		audit_action_to_name(rule->action) ? audit_action_to_name(rule->action) : "?");
	mask_to_hex(rule->mask, hex);
	add_str(e, "mask_hex", hex);
	json_object_object_add(e, "fields", rule_fields_json(rule));
	add_str(e, "origin", rule->origin);
	return e;
}

/* Shadowed rules, and those that may be; null for both where they could not be worked out. */
static void shadowing_json(json_object *o, const struct ruleset *rs,
			   const struct shadowing *shadowed)
{
	json_object_object_add(
		o, "shadowed_rules",
		shadowed ? shadowed_rules_json(rs, shadowed->rules, shadowed->n, SIZE_MAX) : NULL);
	json_object_object_add(
		o, "may_shadow_rules",
		shadowed ? shadowed_rules_json(rs, shadowed->may, shadowed->nmay, SIZE_MAX) : NULL);
}

static void print_rules_json(FILE *out, const struct ruleset *rs, const syscall_mask all,
			     const struct shadowing *shadowed)
{
	json_object *o = json_object_new_object(), *arr = json_object_new_array();
	json_object *skip = json_object_new_array();
	struct whatif_masks w;
	char name[64], id[RULESET_ID_LEN];

	add_str(o, "type", "rules");
	json_object_object_add(o, "schema", json_object_new_int(JSON_SCHEMA));
	add_str(o, "source", rs->nsources ? "file" : "kernel");
	json_object_object_add(o, "sources", strings_json(rs->sources, rs->nsources));
	json_object_object_add(o, "notes", strings_json(rs->notes, rs->nnotes));
	mask_json(o, all, ruleset_exit_rules(rs));
	for (size_t i = 0; i < rs->n; i++)
		json_object_array_add(arr, rule_json(&rs->rules[i]));
	json_object_object_add(o, "rules", arr);
	for (unsigned int nr = 0; nr < MASK_SYSCALL_BITS; nr++) {
		syscall_name(nr, -1, name, sizeof(name));
		if (!mask_test(all, nr) && strncmp(name, "syscall_", 8))
			json_object_array_add(skip, json_object_new_string(name));
	}
	json_object_object_add(o, "skipped_syscalls", skip);
	json_object_object_add(o, "full_mask_rules", full_mask_rules_json(rs));
	json_object_object_add(o, "skip_blockers", skip_blockers_json(rs));
	shadowing_json(o, rs, shadowed);
	whatif_build(rs, NULL, &w);
	add_u64(o, "native_arch_mask_bits", mask_count(w.arch_mask[0]));
	add_u64(o, "compat_arch_mask_bits", mask_count(w.arch_mask[1]));
	add_u64(o, "native_perm_mask_bits", mask_count(w.perm_mask[0]));
	add_u64(o, "compat_perm_mask_bits", mask_count(w.perm_mask[1]));
	add_u64(o, "native_entry_mask_bits", mask_count(w.entry_mask[0]));
	add_u64(o, "compat_entry_mask_bits", mask_count(w.entry_mask[1]));
	ruleset_id(rs, id);
	add_str(o, "ruleset_id", id);
	print_json(out, o);
}

void report_rules(FILE *out, const struct ruleset *rs, bool json)
{
	struct shadowing shadowed;
	syscall_mask all;
	/* Permission classes of the kernel table in use, as the what-if masks here take them. */
	bool found = !shadowing_find(rs, NULL, &shadowed);

	ruleset_exit_mask(rs, -1, all);
	if (json)
		print_rules_json(out, rs, all, found ? &shadowed : NULL);
	else
		print_rules_text(out, rs, all, found ? &shadowed : NULL);
	if (found)
		shadowing_free(&shadowed);
}
