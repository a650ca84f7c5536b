// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel logs every rule change as AUDIT_CONFIG_CHANGE after the change
 * is in the list: audit_log_rule_change() for netlink adds and deletes
 * ("op=add_rule key=... list=N res=1"), audit_tree_log_remove_rule() and
 * audit_watch_log_rule_change() for tree and watch rules removed
 * automatically, audit_mark_log_rule_change() for exe= rules
 * ("autoremove_rule"). None of them carries the rule's syscall mask, so any
 * of them means listing the rules again. They are logged only while audit
 * is enabled, and so are the settings (audit_do_config_change(): "op=set
 * audit_enabled=0 old=1 ... res=1" is the last record before audit goes
 * quiet; turning it on again is not logged). The status read every tick
 * tells when audit is back: the moment to list the rules that changed
 * unlogged meanwhile.
 */
#include <string.h>
#include <linux/audit.h>
#include "audit/auditnl.h"
#include "live/config_change.h"

/* The fields a record's meaning rests on; each may appear once. */
struct record_fields {
	const char *op, *res, *enabled;
	size_t op_len, res_len, enabled_len;
	bool repeated;
};

static bool token_is(const char *tok, size_t len, const char *key, const char **val,
		     size_t *val_len, bool *repeated)
{
	size_t k = strlen(key);

	if (len <= k || memcmp(tok, key, k) || tok[k] != '=')
		return false;
	if (*val)
		*repeated = true;
	*val = tok + k + 1;
	*val_len = len - k - 1;
	return true;
}

/*
 * Fields are "name=value" separated by spaces; values the kernel cannot
 * trust (keys, paths) are hex-encoded when they hold a space or a quote
 * (audit_log_untrustedstring()), so a space always ends a field.
 */
static void split_fields(const char *text, size_t len, struct record_fields *f)
{
	size_t i = 0;

	memset(f, 0, sizeof(*f));
	while (i < len) {
		size_t start, n;

		while (i < len && (text[i] == ' ' || text[i] == '\0' || text[i] == '\n'))
			i++;
		start = i;
		while (i < len && text[i] != ' ' && text[i] != '\0' && text[i] != '\n')
			i++;
		n = i - start;
		if (!n)
			continue;
		if (!token_is(text + start, n, "op", &f->op, &f->op_len, &f->repeated) &&
		    !token_is(text + start, n, "res", &f->res, &f->res_len, &f->repeated))
			token_is(text + start, n, "audit_enabled", &f->enabled, &f->enabled_len,
				 &f->repeated);
	}
}

static bool value_is(const char *v, size_t len, const char *want)
{
	return v && len == strlen(want) && !memcmp(v, want, len);
}

enum config_change_kind config_change_classify(const char *text, size_t len)
{
	static const char *const rule_ops[] = { "add_rule", "remove_rule", "autoremove_rule" };
	/* Configuration that no rule and no setting the loader reads depends on. */
	static const char *const other_ops[] = { "trim", "make_equiv", "tty_set",
						 "seccomp-logging" };
	struct record_fields f;

	split_fields(text, len, &f);
	if (!f.op || f.repeated)
		return CONFIG_CHANGE_RULES;
	/* A refused change changed nothing (res=0: also every change while locked). */
	if (value_is(f.res, f.res_len, "0"))
		return CONFIG_CHANGE_NONE;
	for (size_t i = 0; i < sizeof(rule_ops) / sizeof(rule_ops[0]); i++)
		if (value_is(f.op, f.op_len, rule_ops[i]))
			return CONFIG_CHANGE_RULES;
	if (value_is(f.op, f.op_len, "set")) {
		/* From now on nothing is logged, until audit is turned on again. */
		if (value_is(f.enabled, f.enabled_len, "0"))
			return CONFIG_CHANGE_AUDIT_OFF;
		return CONFIG_CHANGE_STATUS;
	}
	for (size_t i = 0; i < sizeof(other_ops) / sizeof(other_ops[0]); i++)
		if (value_is(f.op, f.op_len, other_ops[i]))
			return CONFIG_CHANGE_NONE;
	/* An operation this code does not know: assume the worst. */
	return CONFIG_CHANGE_RULES;
}

/* One record from the log group, added to what the records so far told. */
static void count_record(__u16 type, const char *text, size_t len, void *arg)
{
	struct config_changes *c = arg;

	if (type != AUDIT_CONFIG_CHANGE)
		return;
	c->records++;
	switch (config_change_classify(text, len)) {
	case CONFIG_CHANGE_RULES:
		c->rules = true;
		break;
	case CONFIG_CHANGE_STATUS:
		c->status = true;
		break;
	case CONFIG_CHANGE_AUDIT_OFF:
		c->status = true;
		c->audit_off = true;
		break;
	case CONFIG_CHANGE_NONE:
		break;
	}
}

void config_change_datagram(const void *data, size_t len, struct config_changes *c)
{
	if (auditnl_log_datagram(data, len, count_record, c))
		c->lost = true;
}

int config_change_open(int rcvbuf)
{
	return auditnl_log_open(AUDIT_CONFIG_CHANGE, rcvbuf);
}

void config_change_drain(int fd, struct config_changes *c)
{
	if (auditnl_log_drain(fd, count_record, c))
		c->lost = true;
}
