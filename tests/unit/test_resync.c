// SPDX-License-Identifier: GPL-2.0
/*
 * When the loader lists the rules: what each AUDIT_CONFIG_CHANGE record the
 * kernel logs means (texts as kernel/auditfilter.c, audit.c, audit_tree.c,
 * audit_watch.c and audit_fsnotify.c format them), which exclude rules can
 * hide those records, and the resync policy: changes and lost records want
 * a listing, spaced by its cost; the periodic check grows with the cost.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "unit_main.h"
#include <linux/audit.h>
#include <linux/netlink.h>
#include "live/config_change.h"
#include "model/resync.h"
#include "audit/ruleset.h"

static enum config_change_kind classify(const char *text)
{
	return config_change_classify(text, strlen(text));
}

static void test_rule_changes_want_a_listing(void **state)
{
	(void)state;
	assert_int_equal(
		classify(
			"audit(1764547200.123:456): auid=0 ses=1 subj=unconfined op=add_rule key=\"k\" list=4 res=1"),
		CONFIG_CHANGE_RULES);
	assert_int_equal(
		classify("audit(1.2:3): auid=0 ses=1 op=remove_rule key=(null) list=4 res=1"),
		CONFIG_CHANGE_RULES);
	/* A pruned tree and a removed watch or executable. */
	assert_int_equal(classify("audit(1.2:3): op=remove_rule dir=2F74 key=(null) list=4 res=1"),
			 CONFIG_CHANGE_RULES);
	assert_int_equal(
		classify(
			"audit(1.2:3): auid=0 ses=1 op=autoremove_rule path=\"/x\" key=(null) list=4 res=1"),
		CONFIG_CHANGE_RULES);
	/* No op=, an unknown op, or two of them (a label with spaces): assume the worst. */
	assert_int_equal(classify("audit(1.2:3): auid=0 ses=1 res=1"), CONFIG_CHANGE_RULES);
	assert_int_equal(classify("audit(1.2:3): op=new_thing res=1"), CONFIG_CHANGE_RULES);
	assert_int_equal(classify("audit(1.2:3): subj=a op=trim op=add_rule res=1"),
			 CONFIG_CHANGE_RULES);
	assert_int_equal(classify(""), CONFIG_CHANGE_RULES);
}

static void test_other_records(void **state)
{
	(void)state;
	/* Refused: res=0, also every change while locked. */
	assert_int_equal(classify("audit(1.2:3): auid=0 op=add_rule key=(null) list=4 res=0"),
			 CONFIG_CHANGE_NONE);
	assert_int_equal(classify("audit(1.2:3): auid=0 ses=1 op=add_rule audit_enabled=2 res=0"),
			 CONFIG_CHANGE_NONE);
	assert_int_equal(
		classify("audit(1.2:3): op=set audit_backlog_limit=8192 old=64 auid=0 res=1"),
		CONFIG_CHANGE_STATUS);
	assert_int_equal(classify("audit(1.2:3): op=set audit_enabled=0 old=1 auid=0 ses=1 res=1"),
			 CONFIG_CHANGE_AUDIT_OFF);
	assert_int_equal(classify("audit(1.2:3): op=seccomp-logging actions=? old-actions=? res=1"),
			 CONFIG_CHANGE_NONE);
	/* A key that reads like a field is one token, not a field. */
	assert_int_equal(classify("audit(1.2:3): op=trim key=\"op=add_rule\" res=1"),
			 CONFIG_CHANGE_NONE);
}

/* One netlink message of `type` holding `text`, NLMSG_ALIGNed, at `buf`. */
static size_t put_record(char *buf, __u16 type, const char *text)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	size_t len = strlen(text);

	memset(nlh, 0, sizeof(*nlh));
	nlh->nlmsg_len = NLMSG_LENGTH(len);
	nlh->nlmsg_type = type;
	memcpy(NLMSG_DATA(nlh), text, len);
	return NLMSG_ALIGN(nlh->nlmsg_len);
}

static void test_datagrams(void **state)
{
	char buf[1024];
	struct config_changes c = { 0 };
	size_t len;

	(void)state;
	len = put_record(buf, AUDIT_CONFIG_CHANGE,
			 "audit(1.2:3): op=add_rule key=(null) list=4 res=0");
	len += put_record(buf + len, AUDIT_CONFIG_CHANGE,
			  "audit(1.2:4): op=set audit_enabled=0 old=1 res=1");
	len += put_record(buf + len, AUDIT_SYSCALL, "audit(1.2:5): arch=c000003e op=add_rule");
	config_change_datagram(buf, len, &c);
	assert_int_equal(c.records, 2);
	assert_false(c.rules);
	assert_true(c.status);
	assert_true(c.audit_off);
	assert_false(c.lost);
	/* A message longer than its datagram cannot be read: as good as lost. */
	((struct nlmsghdr *)buf)->nlmsg_len = 4000;
	config_change_datagram(buf, len, &c);
	assert_true(c.lost);
}

/* An exclude rule with these msgtype fields (AUDIT_* operators). */
static bool exclude_drops(int nfields, const __u32 *ops, const __u32 *values)
{
	struct audit_rule_data *d = calloc(1, sizeof(*d));
	struct audit_rule r;
	bool drops;

	assert_non_null(d);
	d->flags = AUDIT_FILTER_EXCLUDE;
	d->action = AUDIT_NEVER;
	d->field_count = nfields;
	for (int i = 0; i < nfields; i++) {
		d->fields[i] = AUDIT_MSGTYPE;
		d->fieldflags[i] = ops[i];
		d->values[i] = values[i];
	}
	assert_int_equal(rule_from_data(&r, d, sizeof(*d)), 0);
	free(d);
	drops = r.drops_config_change;
	rule_free(&r);
	return drops;
}

static void test_exclude_rules(void **state)
{
	const __u32 eq[] = { AUDIT_EQUAL }, ne[] = { AUDIT_NOT_EQUAL };
	const __u32 range_ops[] = { AUDIT_GREATER_THAN_OR_EQUAL, AUDIT_LESS_THAN };
	const __u32 change[] = { AUDIT_CONFIG_CHANGE }, syscall[] = { AUDIT_SYSCALL };
	const __u32 around[] = { 1300, 1400 }, below[] = { 1300, 1305 };

	(void)state;
	assert_true(exclude_drops(0, NULL, NULL)); /* everything: the records too */
	assert_true(exclude_drops(1, eq, change));
	assert_false(exclude_drops(1, eq, syscall));
	assert_false(exclude_drops(1, ne, change));
	assert_true(exclude_drops(1, ne, syscall));
	assert_true(exclude_drops(2, range_ops, around));
	assert_false(exclude_drops(2, range_ops, below));
}

static void test_changes_and_lost_records(void **state)
{
	struct resync r;

	(void)state;
	resync_init(&r, 1000, 0);
	resync_listed(&r, RESYNC_START, 100.0, 0.1, true);
	/* 0.1 s per listing: checked every 20 s, changes at most every 0.5 s. */
	assert_float_equal(r.period_s, 0.1 / RESYNC_PERIODIC_SHARE, 1e-9);
	assert_float_equal(resync_due(&r), 120.0, 1e-9);
	assert_int_equal(resync_reason(&r), RESYNC_PERIODIC);
	resync_want(&r, RESYNC_CHANGE);
	assert_float_equal(resync_due(&r), 100.0 + 0.1 * (1 / RESYNC_CHANGE_SHARE - 1), 1e-9);
	assert_int_equal(resync_reason(&r), RESYNC_CHANGE);
	resync_listed(&r, RESYNC_CHANGE, 101.0, 0.1, true);
	assert_false(r.wanted);
	/* The lost counter: its first value is a baseline, a move wants a listing. */
	resync_status(&r, true, 7);
	assert_false(r.wanted);
	resync_status(&r, true, 7);
	assert_false(r.wanted);
	resync_status(&r, true, 9);
	assert_true(r.wanted);
	assert_int_equal(resync_reason(&r), RESYNC_LOST);
	resync_listed(&r, RESYNC_LOST, 102.0, 0.1, true);
	assert_int_equal(r.listings[RESYNC_START], 1);
	assert_int_equal(r.listings[RESYNC_CHANGE], 1);
	assert_int_equal(r.listings[RESYNC_LOST], 1);
}

static void test_audit_off_and_on(void **state)
{
	struct resync r;

	(void)state;
	resync_init(&r, 1000, 0);
	resync_listed(&r, RESYNC_START, 10.0, 0.001, true);
	/* Turned off (its record), on again before the next status read: a listing. */
	resync_audit_off(&r);
	resync_status(&r, true, 0);
	assert_true(r.wanted);
	resync_listed(&r, RESYNC_CHANGE, 11.0, 0.001, true);
	/* Seen off by a status read, then on. */
	resync_status(&r, false, 0);
	assert_false(r.wanted);
	resync_status(&r, true, 0);
	assert_true(r.wanted);
}

static void test_periodic_period(void **state)
{
	struct resync r;

	(void)state;
	resync_init(&r, 1000, 0);
	/* Cheap listings: every tick, as before. */
	resync_listed(&r, RESYNC_START, 0, 0.0001, true);
	assert_float_equal(r.period_s, 1.0, 1e-9);
	/* An exclude rule may drop the records: every tick whatever it costs. */
	resync_listed(&r, RESYNC_PERIODIC, 1, 0.5, false);
	assert_float_equal(r.period_s, 1.0, 1e-9);
	resync_listed(&r, RESYNC_PERIODIC, 2, 0.5, true);
	assert_float_equal(r.period_s, 100.0, 1e-9);
	/* Tests can fix it. */
	resync_init(&r, 1000, 60000);
	resync_listed(&r, RESYNC_START, 0, 0.0001, true);
	assert_float_equal(r.period_s, 60.0, 1e-9);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rule_changes_want_a_listing),
		cmocka_unit_test(test_other_records),
		cmocka_unit_test(test_datagrams),
		cmocka_unit_test(test_exclude_rules),
		cmocka_unit_test(test_changes_and_lost_records),
		cmocka_unit_test(test_audit_off_and_on),
		cmocka_unit_test(test_periodic_period),
	};

	return unit_main(argc, argv, "resync", tests, NULL, NULL);
}
