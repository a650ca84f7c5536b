// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE /* asprintf() */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libaudit.h>
#include "audit/auditnl.h"
#include "audit/rule_text.h"
#include "audit/ruleset.h"

bool rule_field_is_id(unsigned int field)
{
	switch (field) {
	case AUDIT_UID:
	case AUDIT_EUID:
	case AUDIT_SUID:
	case AUDIT_FSUID:
	case AUDIT_LOGINUID:
	case AUDIT_OBJ_UID:
	case AUDIT_GID:
	case AUDIT_EGID:
	case AUDIT_SGID:
	case AUDIT_FSGID:
	case AUDIT_OBJ_GID:
		return true;
	}
	return false;
}

bool rule_field_is_string(unsigned int field)
{
	switch (field) {
	case AUDIT_SUBJ_USER ... AUDIT_SUBJ_CLR:
	case AUDIT_OBJ_USER ... AUDIT_OBJ_LEV_HIGH:
	case AUDIT_WATCH:
	case AUDIT_DIR:
	case AUDIT_FILTERKEY:
	case AUDIT_EXE:
		return true;
	}
	return false;
}

/* audit_comparator() on a record's field, with the operator as userspace writes it. */
static bool field_matches(__u32 left, __u32 op, __u32 right)
{
	switch (op) {
	case AUDIT_EQUAL:
		return left == right;
	case AUDIT_NOT_EQUAL:
		return left != right;
	case AUDIT_LESS_THAN:
		return left < right;
	case AUDIT_LESS_THAN_OR_EQUAL:
		return left <= right;
	case AUDIT_GREATER_THAN:
		return left > right;
	case AUDIT_GREATER_THAN_OR_EQUAL:
		return left >= right;
	case AUDIT_BIT_MASK:
		return left & right;
	case AUDIT_BIT_TEST:
		return (left & right) == right;
	}
	return true; /* unknown: assume it can match */
}

/*
 * audit_log_start() drops a record that an exclude-list rule matches
 * (audit_filter(), whatever the rule's action), silently: a rule whose
 * msgtype fields all accept AUDIT_CONFIG_CHANGE (or that has none) can
 * hide rule changes from the loader.
 */
static bool may_drop_config_change(const struct audit_rule_data *d)
{
	if ((d->flags & ~AUDIT_FILTER_PREPEND) != AUDIT_FILTER_EXCLUDE)
		return false;
	for (unsigned int i = 0; i < d->field_count; i++)
		if (d->fields[i] == AUDIT_MSGTYPE &&
		    !field_matches(AUDIT_CONFIG_CHANGE, d->fieldflags[i], d->values[i]))
			return false;
	return true;
}

/* What the reports and the model read off field i: perm, arch, key, inode hash. */
static void note_field(struct audit_rule *r, const struct rule_field *f, const char *s)
{
	/* perm!= matches what perm= does not: it narrows nothing. */
	if (f->type == AUDIT_PERM && f->op == AUDIT_EQUAL)
		r->perm = f->value;
	if (f->type == AUDIT_ARCH && f->op == AUDIT_EQUAL)
		r->arch_elf = f->value;
	if (f->type == AUDIT_WATCH || (f->type == AUDIT_INODE && f->op == AUDIT_EQUAL))
		r->inode_hash = true;
	if (f->type == AUDIT_FILTERKEY && !r->key[0])
		snprintf(r->key, sizeof(r->key), "%.*s", (int)f->value, s);
}

int rule_from_data(struct audit_rule *r, const struct audit_rule_data *d, size_t len)
{
	size_t off = 0;

	if (len < sizeof(*d) || d->field_count > AUDIT_MAX_FIELDS || len < sizeof(*d) + d->buflen)
		return -EINVAL;
	memset(r, 0, sizeof(*r));
	r->list = d->flags & ~AUDIT_FILTER_PREPEND;
	r->action = d->action;
	memcpy(r->mask, d->mask, sizeof(r->mask));
	r->field_count = d->field_count;
	r->strings_len = d->buflen < RULE_STRINGS_MAX ? d->buflen : RULE_STRINGS_MAX;
	r->fields = calloc(d->field_count ? d->field_count : 1, sizeof(*r->fields));
	r->strings = malloc(r->strings_len ? r->strings_len : 1);
	r->origin = strdup("");
	if (!r->fields || !r->strings || !r->origin) {
		rule_free(r);
		return -ENOMEM;
	}
	memcpy(r->strings, d->buf, r->strings_len);
	r->drops_config_change = may_drop_config_change(d);

	for (unsigned int i = 0; i < d->field_count; i++) {
		struct rule_field *f = &r->fields[i];

		*f = (struct rule_field){ .type = d->fields[i],
					  .op = d->fieldflags[i],
					  .value = d->values[i] };
		if (rule_field_is_string(f->type) && off + f->value > d->buflen) {
			rule_free(r);
			return -EINVAL;
		}
		note_field(r, f, d->buf + off);
		if (rule_field_is_string(f->type))
			off += f->value;
	}
	r->text = rule_listing(r);
	if (!r->text) {
		rule_free(r);
		return -ENOMEM;
	}
	return 0;
}

void rule_free(struct audit_rule *r)
{
	free(r->text);
	free(r->fields);
	free(r->strings);
	free(r->origin);
	free(r->refused_here);
	r->text = r->strings = r->origin = r->refused_here = NULL;
	r->fields = NULL;
}

int rule_set_origin(struct audit_rule *r, const char *file, unsigned int line)
{
	char *origin;

	if (asprintf(&origin, "%s:%u", file, line) < 0)
		return -ENOMEM;
	free(r->origin);
	r->origin = origin;
	return 0;
}

const char *rule_field_string(const struct audit_rule *r, unsigned int i, char *buf, size_t size)
{
	size_t off = 0, len;

	for (unsigned int j = 0; j < i; j++)
		if (rule_field_is_string(r->fields[j].type))
			off += r->fields[j].value;
	len = r->fields[i].value;
	if (off > r->strings_len)
		off = r->strings_len;
	if (off + len > r->strings_len)
		len = r->strings_len - off;
	snprintf(buf, size, "%.*s", (int)len, r->strings + off);
	return buf;
}

bool rule_on_list(const struct audit_rule *r, unsigned int list)
{
	return r->list == list && !r->inode_hash;
}

static void free_rules(struct audit_rule *rules, size_t n)
{
	for (size_t i = 0; i < n; i++)
		rule_free(&rules[i]);
}

struct rule_list {
	struct audit_rule *rules;
	size_t n, cap;
};

/* Records rule_from_data() cannot read are left out. */
static int add_listed_rule(const struct audit_rule_data *d, size_t len, void *arg)
{
	struct rule_list *l = arg;
	int err;

	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 64;
		struct audit_rule *grown = realloc(l->rules, cap * sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		l->rules = grown;
		l->cap = cap;
	}
	err = rule_from_data(&l->rules[l->n], d, len);
	if (err == -ENOMEM)
		return err;
	if (!err)
		l->n++;
	return 0;
}

/*
 * A listing whose records overflowed the socket (ENOBUFS: the kernel
 * dropped some) is incomplete: taken again, a few times.
 */
#define LIST_TRIES 3

int ruleset_load(struct ruleset *rs)
{
	struct rule_list l = { 0 };
	int fd, err;

	memset(rs, 0, sizeof(*rs));
	for (int tries = 0;; tries++) {
		fd = auditnl_open();
		if (fd < 0)
			return fd;
		free_rules(l.rules, l.n);
		l.n = 0;
		err = auditnl_list_rules(fd, add_listed_rule, &l);
		auditnl_close(fd);
		if (err != -ENOBUFS || tries + 1 == LIST_TRIES)
			break;
	}
	if (err) {
		free_rules(l.rules, l.n);
		free(l.rules);
		return err;
	}
	/* The array grew by doubling: kept for as long as the run, at its size. */
	rs->rules = l.n ? realloc(l.rules, l.n * sizeof(*l.rules)) : l.rules;
	if (!rs->rules)
		rs->rules = l.rules;
	rs->n = l.n;
	return 0;
}

static void free_strings(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void ruleset_free(struct ruleset *rs)
{
	free_rules(rs->rules, rs->n);
	free(rs->rules);
	free_strings(rs->sources, rs->nsources);
	free_strings(rs->notes, rs->nnotes);
	free_strings(rs->settings.lines, rs->settings.n);
	memset(rs, 0, sizeof(*rs));
}

size_t ruleset_rules_on(const struct ruleset *rs, unsigned int list)
{
	size_t n = 0;

	for (size_t i = 0; i < rs->n; i++)
		n += rule_on_list(&rs->rules[i], list);
	return n;
}

void ruleset_mask(const struct ruleset *rs, unsigned int list, long skip, syscall_mask out)
{
	memset(out, 0, sizeof(syscall_mask));
	for (size_t i = 0; i < rs->n; i++)
		if ((long)i != skip && rule_on_list(&rs->rules[i], list))
			mask_or(out, rs->rules[i].mask);
}

bool ruleset_may_drop_config_change(const struct ruleset *rs)
{
	for (size_t i = 0; i < rs->n; i++)
		if (rs->rules[i].drops_config_change)
			return true;
	return false;
}

void ruleset_id(const struct ruleset *rs, char id[RULESET_ID_LEN])
{
	__u64 h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < rs->n; i++)
		for (const char *c = rs->rules[i].text;; c++) {
			/* Each rule ends in a newline, as a rules file has it. */
			h = (h ^ (unsigned char)(*c ? *c : '\n')) * 0x100000001b3ULL;
			if (!*c)
				break;
		}
	snprintf(id, RULESET_ID_LEN, "%016llx", (unsigned long long)h);
}

size_t ruleset_counted_rules(const struct ruleset *rs)
{
	size_t n = 0;

	for (size_t i = 0; i < rs->n; i++) {
		unsigned int list = rs->rules[i].list;

		n += list != AUDIT_FILTER_USER && list != AUDIT_FILTER_EXCLUDE &&
		     list != AUDIT_FILTER_FS;
	}
	return n;
}

void ruleset_mirror(const struct ruleset *rs, struct mask_mirror *m)
{
	m->exit_rules = ruleset_rules_on(rs, AUDIT_FILTER_EXIT);
	m->uring_rules = ruleset_rules_on(rs, AUDIT_FILTER_URING_EXIT);
	ruleset_mask(rs, AUDIT_FILTER_EXIT, -1, m->mask);
	ruleset_mask(rs, AUDIT_FILTER_URING_EXIT, -1, m->uring_mask);
}
