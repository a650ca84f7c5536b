// SPDX-License-Identifier: GPL-2.0
/*
 * Mask arithmetic and rule-list parsing. Rules are built with libaudit's own
 * rule builders, the code auditctl uses, so the records match what the
 * kernel's AUDIT_LIST_RULES reply carries.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "unit_main.h"
#include <errno.h>
#include <libaudit.h>
#include "audit/mask.h"
#include "audit/ruleset.h"
#include "audit/kernel_tables.h"
#include "model/whatif_masks.h"

/* auditctl's own flag (libaudit exports it, its header does not): fields such
 * as key= are refused until a syscall was added, and auditctl sets it. */
extern int _audit_syscalladded;
extern int _audit_elf; /* the arch= given, for syscall names */

/* A rule as auditctl would send it: "-a always,exit" plus syscalls and fields. */
static void add_pair(struct audit_rule_data **d, const char *pair)
{
	char *copy = strdup(pair);

	assert_int_equal(audit_rule_fieldpair_data(d, copy, AUDIT_FILTER_EXIT), 0);
	free(copy);
}

/* As auditctl orders it: arch= first (syscall names depend on it), then -S, then the rest. */
static struct audit_rule build_rule(const char *syscalls, ...)
{
	struct audit_rule_data *d = audit_rule_create_data();
	struct audit_rule r;
	va_list ap;
	const char *pair;

	assert_non_null(d);
	d->flags = AUDIT_FILTER_EXIT;
	d->action = AUDIT_ALWAYS;
	_audit_syscalladded = 0;
	_audit_elf = 0;
	va_start(ap, syscalls);
	while ((pair = va_arg(ap, const char *)))
		if (!strncmp(pair, "arch=", 5))
			add_pair(&d, pair);
	va_end(ap);
	if (syscalls) {
		char *list = strdup(syscalls), *save = NULL;

		for (char *sc = strtok_r(list, ",", &save); sc; sc = strtok_r(NULL, ",", &save))
			assert_int_equal(audit_rule_syscallbyname_data(d, sc), 0);
		free(list);
	} else {
		/* No -S: auditctl sets every bit; the kernel keeps all but the class bits. */
		for (int i = 0; i < AUDIT_BITMASK_SIZE; i++)
			d->mask[i] = ~0U;
		d->mask[AUDIT_BITMASK_SIZE - 1] &= 0x0000ffff;
	}
	_audit_syscalladded = 1;
	va_start(ap, syscalls);
	while ((pair = va_arg(ap, const char *)))
		if (strncmp(pair, "arch=", 5))
			add_pair(&d, pair);
	va_end(ap);
	assert_int_equal(rule_from_data(&r, d, sizeof(*d) + d->buflen), 0);
	audit_rule_free_data(d);
	return r;
}

static int nr_of(const char *name)
{
	return audit_name_to_syscall(name, audit_detect_machine());
}

static void test_bits(void **state)
{
	syscall_mask m = { 0 }, o = { 0 };
	char hex[MASK_HEX_LEN + 1];

	(void)state;
	mask_set(m, 0);
	mask_set(m, 39);
	mask_set(m, MASK_BITS - 1);
	mask_set(m, MASK_BITS); /* past the mask: ignored, as audit_in_mask() does */
	assert_true(mask_test(m, 39));
	assert_false(mask_test(m, 40));
	assert_false(mask_test(m, MASK_BITS));
	assert_int_equal(mask_count(m), 3);
	mask_set(o, 40);
	mask_or(o, m);
	assert_int_equal(mask_count(o), 4);
	assert_false(mask_equal(o, m));
	mask_to_hex(m, hex);
	assert_int_equal(strlen(hex), MASK_HEX_LEN);
	assert_memory_equal(hex,
			    "00000001"
			    "00000080",
			    16);
	assert_memory_equal(hex + MASK_HEX_LEN - 8, "80000000", 8);
}

static void test_full_mask(void **state)
{
	struct audit_rule all = build_rule(NULL, "auid>=1000", "key=everything", NULL);
	struct audit_rule one = build_rule("getpid", NULL);

	(void)state;
	assert_true(mask_is_full(all.mask));
	assert_int_equal(mask_count(all.mask), MASK_SYSCALL_BITS);
	assert_false(mask_is_full(one.mask));
	all.mask[3] &= ~1U; /* one syscall fewer is no longer full */
	assert_false(mask_is_full(all.mask));
}

static void test_parse_fields(void **state)
{
	struct audit_rule r = build_rule("openat,getpid", "uid=4000000", "key=mine", NULL);

	(void)state;
	assert_int_equal(r.list, AUDIT_FILTER_EXIT);
	assert_int_equal(mask_count(r.mask), 2);
	assert_true(mask_test(r.mask, nr_of("openat")));
	assert_true(mask_test(r.mask, nr_of("getpid")));
	assert_string_equal(r.key, "mine");
	assert_non_null(strstr(r.text, "-a always,exit -S "));
	assert_non_null(strstr(r.text, "-F uid=4000000"));
	assert_non_null(strstr(r.text, "-F key=mine"));
	assert_true(rule_on_exit_list(&r));
}

/* audit_find_rule(): watch and inode= rules live on the inode hash. */
static void test_inode_hash_rules(void **state)
{
	struct audit_rule watch = build_rule(NULL, "path=/etc/passwd", "perm=wa", NULL);
	struct audit_rule inode = build_rule(NULL, "inode=1234", NULL);
	struct audit_rule not_inode = build_rule("openat", "inode!=1234", NULL);
	struct audit_rule tree = build_rule(NULL, "dir=/etc", "perm=wa", NULL);

	(void)state;
	assert_true(watch.inode_hash);
	assert_false(rule_on_exit_list(&watch));
	assert_true(inode.inode_hash);
	assert_false(rule_on_exit_list(&inode));
	/* An inode!= rule stays on the exit list (audit_data_to_entry() drops inode_f). */
	assert_false(not_inode.inode_hash);
	assert_true(rule_on_exit_list(&not_inode));
	/* Tree rules stay on the exit list. */
	assert_false(tree.inode_hash);
	assert_true(rule_on_exit_list(&tree));
	assert_non_null(strstr(tree.text, "-F dir=/etc"));
	assert_non_null(strstr(tree.text, "-F perm=wa"));
}

static void test_aggregate(void **state)
{
	struct audit_rule rules[4];
	struct ruleset rs = { .rules = rules, .n = 4 };
	syscall_mask agg;

	(void)state;
	rules[0] = build_rule("openat", "uid=1", NULL);
	rules[1] = build_rule(NULL, "path=/etc/shadow", NULL); /* inode hash: left out */
	rules[2] = build_rule(NULL, "auid>=1000", NULL);       /* full mask */
	rules[3] = build_rule("execve", NULL);

	assert_int_equal(ruleset_exit_rules(&rs), 3);
	ruleset_exit_mask(&rs, -1, agg);
	assert_true(mask_is_full(agg));
	/* Without the full-mask rule only openat and execve remain. */
	ruleset_exit_mask(&rs, 2, agg);
	assert_int_equal(mask_count(agg), 2);
	assert_true(mask_test(agg, nr_of("openat")));
	assert_true(mask_test(agg, nr_of("execve")));
	assert_false(mask_test(agg, nr_of("getpid")));
}

/* audit_add_rule(): every list but user, exclude and fs counts in audit_n_rules. */
static void test_counted_rules(void **state)
{
	struct audit_rule rules[4];
	struct ruleset rs = { .rules = rules, .n = 4 };
	syscall_mask uring;

	(void)state;
	rules[0] = build_rule("openat", NULL);
	rules[1] = build_rule(NULL, "path=/etc/shadow", NULL); /* inode hash, still counted */
	rules[2] = build_rule("getpid", NULL);
	rules[2].list = AUDIT_FILTER_EXCLUDE;
	rules[3] = build_rule("openat", NULL);
	rules[3].list = AUDIT_FILTER_URING_EXIT;

	assert_int_equal(ruleset_counted_rules(&rs), 3);
	assert_int_equal(ruleset_exit_rules(&rs), 1);
	assert_int_equal(ruleset_rules_on(&rs, AUDIT_FILTER_URING_EXIT), 1);
	ruleset_mask(&rs, AUDIT_FILTER_URING_EXIT, -1, uring);
	assert_int_equal(mask_count(uring), 1);
}

/* audit_match_perm(): a perm= rule with every syscall bit can match only these. */
/* Bits of syscalls libaudit can name on `machine`. */
static unsigned int named_bits(const syscall_mask m, int machine)
{
	unsigned int n = 0;

	for (unsigned int nr = 0; nr < MASK_BITS; nr++)
		n += mask_test(m, nr) && audit_syscall_to_name(nr, machine);
	return n;
}

static void test_perm_narrowing(void **state)
{
	struct audit_rule exec64 = build_rule(NULL, "arch=b64", "perm=x", NULL);
	struct audit_rule tree = build_rule(NULL, "dir=/etc", "perm=wa", NULL);
	struct audit_rule tree64 = build_rule(NULL, "arch=b64", "dir=/etc", "perm=wa", NULL);
	struct audit_rule listed = build_rule("getpid", "perm=w", NULL);
	syscall_mask m;

	(void)state;
	rule_perm_mask(&exec64, NULL, m);
	assert_int_equal(named_bits(m, MACH_86_64), 2);
	assert_true(mask_test(m, nr_of("execve")));
	assert_true(mask_test(m, nr_of("execveat")));
	/* Newer than the kernel table, so possibly in a class: kept. */
	assert_null(kernel_syscall_name(500, MACH_86_64));
	assert_true(mask_test(m, 500));
	/* fchmodat2 (452), unknown to libaudit 3.0.9, is named by the table: not exec. */
	assert_false(mask_test(m, 452));
	assert_false(mask_test(m, 600));

	rule_perm_mask(&tree64, NULL, m);
	assert_true(mask_test(m, nr_of("chmod")));
	assert_true(mask_test(m, nr_of("rename")));
	assert_true(mask_test(m, nr_of("openat")));
	assert_false(mask_test(m, nr_of("getpid")));
	assert_false(mask_test(m, nr_of("execve")));
	assert_false(mask_test(m, audit_name_to_syscall("chmod", MACH_X86)));
	/* No arch field: the compat numbers count too (i386 chmod is 15). */
	rule_perm_mask(&tree, NULL, m);
	assert_true(mask_test(m, nr_of("chmod")));
	assert_true(mask_test(m, audit_name_to_syscall("chmod", MACH_X86)));
	assert_true(named_bits(m, MACH_86_64) < 200);

	/* Only full-mask rules are narrowed. */
	rule_perm_mask(&listed, NULL, m);
	assert_true(mask_equal(m, listed.mask));
}

/* One aggregate per arch: a b32 rule's bits do not stop native walks. */
static void test_arch_masks(void **state)
{
	struct audit_rule rules[2];
	struct ruleset rs = { .rules = rules, .n = 2 };
	struct whatif_masks w;

	(void)state;
	rules[0] = build_rule("mkdir", "arch=b32", "uid=4242", NULL); /* i386 mkdir is 39 */
	rules[1] = build_rule("openat", "arch=b64", NULL);
	whatif_build(&rs, NULL, &w);
	assert_int_equal(w.arch_elf[0], AUDIT_ARCH_X86_64);
	assert_int_equal(w.arch_elf[1], AUDIT_ARCH_I386);
	assert_false(mask_test(w.arch_mask[0], nr_of("getpid")));
	assert_true(mask_test(w.arch_mask[1], audit_name_to_syscall("mkdir", MACH_X86)));
	assert_true(mask_test(w.arch_mask[0], nr_of("openat")));
	/* The archperm masks are per arch too. */
	assert_int_equal(mask_count(w.perm_mask[0]), 1);
	assert_int_equal(mask_count(w.perm_mask[1]), 1);
	assert_true(mask_test(w.perm_mask[1], audit_name_to_syscall("mkdir", MACH_X86)));
}

/*
 * The entry form's masks: watches count by their permission classes, the
 * exit form's do not hold them, and a task rule keeps every context whole.
 */
static void test_entry_masks(void **state)
{
	struct audit_rule rules[3];
	struct ruleset rs = { .rules = rules, .n = 2 };
	struct whatif_masks w;
	int chmod32 = audit_name_to_syscall("chmod", MACH_X86);

	(void)state;
	rules[0] = build_rule("openat", "arch=b64", "uid=4242", NULL);
	rules[1] = build_rule(NULL, "path=/etc/passwd", "perm=wa", NULL);
	assert_true(rules[1].inode_hash);
	whatif_build(&rs, NULL, &w);
	assert_int_equal(mask_count(w.perm_mask[0]), 1);
	assert_int_equal(mask_count(w.perm_mask[1]), 0);
	assert_true(mask_test(w.entry_mask[0], nr_of("openat")));
	assert_true(mask_test(w.entry_mask[0], nr_of("chmod")));
	assert_true(mask_test(w.entry_mask[0], nr_of("ftruncate")));
	assert_false(mask_test(w.entry_mask[0], nr_of("getpid")));
	assert_false(mask_test(w.entry_mask[0], nr_of("execve")));
	assert_true(mask_test(w.entry_mask[1], chmod32));
	assert_false(mask_test(w.entry_mask[1], audit_name_to_syscall("getpid", MACH_X86)));
	assert_true(whatif_differs(&rs, &w));

	rules[2] = build_rule(NULL, "uid=4242", NULL);
	rules[2].list = AUDIT_FILTER_TASK;
	rs.n = 3;
	whatif_build(&rs, NULL, &w);
	assert_true(mask_is_full(w.entry_mask[0]) && mask_is_full(w.entry_mask[1]));
	assert_false(mask_test(w.perm_mask[0], nr_of("getpid")));
}

static void test_rejects_truncated(void **state)
{
	struct audit_rule_data *d = audit_rule_create_data();
	struct audit_rule r;
	char *pair = strdup("key=abcdef");

	(void)state;
	d->flags = AUDIT_FILTER_EXIT;
	_audit_syscalladded = 1;
	assert_int_equal(audit_rule_fieldpair_data(&d, pair, AUDIT_FILTER_EXIT), 0);
	assert_int_equal(rule_from_data(&r, d, sizeof(*d) + d->buflen - 1), -EINVAL);
	d->values[0] = 1000; /* string longer than the buffer */
	assert_int_equal(rule_from_data(&r, d, sizeof(*d) + d->buflen), -EINVAL);
	free(pair);
	audit_rule_free_data(d);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bits),	       cmocka_unit_test(test_full_mask),
		cmocka_unit_test(test_parse_fields),   cmocka_unit_test(test_inode_hash_rules),
		cmocka_unit_test(test_aggregate),      cmocka_unit_test(test_counted_rules),
		cmocka_unit_test(test_perm_narrowing), cmocka_unit_test(test_arch_masks),
		cmocka_unit_test(test_entry_masks),    cmocka_unit_test(test_rejects_truncated),
	};

	return unit_main(argc, argv, "mask and rules", tests, NULL, NULL);
}
