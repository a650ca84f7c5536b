// SPDX-License-Identifier: GPL-2.0
/*
 * What the kernel keeps of the rules auditctl sends: each record passed
 * through what audit_rule_change() does to it (kernel_rule.h) and read back
 * with rule_from_data(), the path the kernel's own listing takes; the list
 * in the kernel's order, -A at the front of its list, a duplicate refused,
 * deletes by rule and by key.
 */
#define _GNU_SOURCE /* asprintf() */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <libaudit.h>
#include "audit/kernel_rule.h"
#include "audit/mask.h"
#include "audit/rules_file_internal.h"

/* The i-th field's string in a record. */
static const char *data_string(const struct audit_rule_data *d, unsigned int i, size_t *len)
{
	size_t off = 0;

	for (unsigned int j = 0; j < i; j++)
		if (rule_field_is_string(d->fields[j]))
			off += d->values[j];
	*len = d->values[i];
	return d->buf + off;
}

/*
 * Paths the kernel resolves when the rule is added: a tree's directory
 * (audit_add_tree_rule()), a watch's and an exe's parent (audit_add_watch(),
 * audit_alloc_mark()). Missing here, the kernel here refuses the rule; the
 * file may be meant for a machine that has them, so this is a note, and the
 * reason, strdup()ed into *why, marks the rule (NULL: none missing).
 */
static int check_paths(struct reader *rd, const struct audit_rule_data *d, char **why)
{
	*why = NULL;
	for (unsigned int i = 0; i < d->field_count; i++) {
		char path[PATH_MAX + 1], *slash;
		const char *what;
		struct stat st;
		size_t len;
		const char *s;

		if (d->fields[i] != AUDIT_DIR && d->fields[i] != AUDIT_WATCH &&
		    d->fields[i] != AUDIT_EXE)
			continue;
		s = data_string(d, i, &len);
		snprintf(path, sizeof(path), "%.*s", (int)len, s);
		if (d->fields[i] == AUDIT_DIR) {
			what = "directory";
		} else {
			slash = strrchr(path, '/');
			if (!slash)
				continue;
			slash[slash == path] = '\0';
			what = "parent directory";
		}
		if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
			continue;
		line_note(
			rd,
			"the kernel here would refuse this rule (No such file or directory): its %s %s is missing on this machine",
			what, path);
		if (!*why && asprintf(why, "its %s %s is missing on this machine", what, path) < 0)
			return -ENOMEM;
	}
	return 0;
}

static bool same_rule(const struct audit_rule *a, const struct audit_rule *b)
{
	return a->list == b->list && a->action == b->action && mask_equal(a->mask, b->mask) &&
	       a->field_count == b->field_count &&
	       !memcmp(a->fields, b->fields, a->field_count * sizeof(a->fields[0])) &&
	       a->strings_len == b->strings_len && !memcmp(a->strings, b->strings, a->strings_len);
}

static int grow_rules(struct reader *rd)
{
	struct ruleset *rs = rd->rs;

	if (rs->n == rd->rules_cap) {
		size_t cap = rd->rules_cap ? rd->rules_cap * 2 : 64;
		struct audit_rule *grown = realloc(rs->rules, cap * sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		rs->rules = grown;
		rd->rules_cap = cap;
	}
	return 0;
}

/*
 * The kernel lists rules list by list (audit_list_rules() walks
 * audit_rules_list[] in order), each in the order audit_add_rule() put
 * them: -A at the front of its list, -a at the back.
 */
static int insert_rule(struct reader *rd, const struct audit_rule *r, bool prepend)
{
	struct ruleset *rs = rd->rs;
	size_t at = 0;
	int err = grow_rules(rd);

	if (err)
		return err;
	while (at < rs->n &&
	       (rs->rules[at].list < r->list || (!prepend && rs->rules[at].list == r->list)))
		at++;
	memmove(&rs->rules[at + 1], &rs->rules[at], (rs->n - at) * sizeof(*r));
	rs->rules[at] = *r;
	rs->n++;
	return 0;
}

static void remove_rule(struct ruleset *rs, size_t i)
{
	rule_free(&rs->rules[i]);
	memmove(&rs->rules[i], &rs->rules[i + 1], (rs->n - i - 1) * sizeof(rs->rules[0]));
	rs->n--;
}

/* The keys auditctl -D -k KEY matches: any rule whose key holds KEY (key_match()). */
void kernel_list_delete_all(struct reader *rd, const char *key)
{
	struct ruleset *rs = rd->rs;
	size_t kept = 0, before = rs->n;

	for (size_t i = 0; i < rs->n; i++) {
		bool match = !key[0];

		for (unsigned int f = 0; !match && f < rs->rules[i].field_count; f++) {
			char buf[AUDIT_MAX_KEY_LEN + 1];

			if (rs->rules[i].fields[f].type == AUDIT_FILTERKEY)
				match = strstr(rule_field_string(&rs->rules[i], f, buf,
								 sizeof(buf)),
					       key) != NULL;
		}
		if (!match)
			rs->rules[kept++] = rs->rules[i];
		else
			rule_free(&rs->rules[i]);
	}
	rs->n = kept;
	if (key[0])
		line_note(rd, "-D -k %s: %zu rules read so far deleted", key, before - kept);
	else
		line_note(rd, "-D: %zu rules read so far deleted", before - kept);
}

/*
 * What the kernel does with a rule added or deleted. An added rule goes
 * into the rule set, a deleted one is freed with its copy there; on an
 * error `r` is the caller's to free.
 */
static int apply_rule(struct reader *rd, struct audit_rule *r, bool adding, int list)
{
	for (size_t i = 0; i < rd->rs->n; i++) {
		if (!same_rule(&rd->rs->rules[i], r))
			continue;
		/* audit_compare_rule() also compares flags: -A of a loaded rule is new. */
		if (adding && !(list & AUDIT_FILTER_PREPEND))
			return line_error(rd, "Error sending add rule data request (Rule exists)");
		if (!adding) {
			remove_rule(rd->rs, i);
			rule_free(r);
			return 0;
		}
	}
	if (!adding)
		return line_error(rd, "Error sending delete rule data request (%s)",
				  strerror(ENOENT));
	return insert_rule(rd, r, list & AUDIT_FILTER_PREPEND);
}

/* auditctl's handle_request() for a rule, and what the kernel does with it. */
int kernel_list_send(struct reader *rd, struct line_state *ls)
{
	bool adding = ls->add != LIST_UNSET;
	int list = adding ? ls->add : ls->del;
	struct audit_rule_data *d;
	struct audit_rule r;
	char *refused = NULL;
	size_t len;
	int err;

	/* Rules on lists other than task get every syscall when the line names none. */
	if ((list & AUDIT_FILTER_MASK) != AUDIT_FILTER_TASK && _audit_syscalladded != 1)
		audit_rule_syscallbyname_data(ls->rule, "all");
	d = ls->rule;
	d->flags = list;
	d->action = ls->action;
	len = sizeof(*d) + d->buflen;
	if (rd->locked)
		return line_error(rd,
				  "Error sending %s rule data request (Operation not permitted)",
				  adding ? "add" : "delete");
	err = kernel_rule_check(d, len);
	if (err)
		return line_error(rd, "Error sending %s rule data request (%s)",
				  adding ? "add" : "delete", strerror(-err));
	if (adding && check_paths(rd, d, &refused))
		return -ENOMEM;
	/* auditctl here stops at a name its libaudit lacks: the kernel never sees the rule. */
	if (adding && !refused && ls->unknown_here[0] &&
	    asprintf(&refused, "this machine's auditctl knows no syscall %s", ls->unknown_here) < 0)
		return -ENOMEM;
	kernel_rule_store(d, &rd->classes);
	err = rule_from_data(&r, d, len);
	if (err) {
		free(refused);
		return err == -ENOMEM ?
			       err :
			       line_error(rd,
					  "Error sending %s rule data request (Invalid argument)",
					  adding ? "add" : "delete");
	}
	r.refused_here = refused;
	err = rule_set_origin(&r, rd->at->file, rd->at->line);
	if (!err)
		err = apply_rule(rd, &r, adding, list);
	if (err)
		rule_free(&r);
	return err;
}
