// SPDX-License-Identifier: GPL-2.0
/*
 * Workload profiles and the predictions made on them.
 *
 * The profile reader is a parser of outside input: what profile_save()
 * writes it reads back unchanged, and every kind of damage gets -EINVAL
 * with a message naming what is wrong. The prediction is arithmetic on a
 * profile and a rule set, checked here against values worked out by hand;
 * tests/host/whatif.sh checks it against real counts with the rules loaded.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "unit_main.h"
#include <errno.h>
#include <unistd.h>
#include <libaudit.h>
#include "model/prediction.h"
#include "model/profile.h"

#define NATIVE_GETPID 39 /* x86_64 */
#define NATIVE_OPENAT 257
#define COMPAT_GETPID 20 /* i386; x86_64's 20 is writev */

static const char good[] =
	"{\"format\": \"auditskip-profile\", \"version\": 1, \"kernel\": \"6.18.44\",\n"
	" \"arches\": [\"x86_64\", \"i386\"], \"mode\": \"tracepoint\", \"scope\": \"pid 1\",\n"
	" \"seconds\": 1.5,\n"
	" \"syscalls\": [{\"arch\": \"x86_64\", \"nr\": 39, \"name\": \"getpid\", \"calls\": 1000},\n"
	"              {\"arch\": \"i386\", \"nr\": 20, \"calls\": 7},\n"
	"              {\"arch\": \"x86_64\", \"nr\": 2048, \"calls\": 2}],\n"
	" \"blind_spots\": {\"exit_calls_inferred\": 1, \"uring_enter_calls\": 0}}\n";

static struct profile prof, back;

static void parses_a_profile(void **state)
{
	char why[256] = "";

	(void)state;
	assert_int_equal(profile_parse(good, strlen(good), &prof, why, sizeof(why)), 0);
	assert_string_equal(prof.kernel, "6.18.44");
	assert_string_equal(prof.arches[ARCH_NATIVE], "x86_64");
	assert_string_equal(prof.arches[ARCH_COMPAT], "i386");
	assert_string_equal(prof.mode, "tracepoint");
	assert_true(prof.seconds == 1.5);
	assert_int_equal(prof.calls[NATIVE_GETPID], 1000);
	assert_int_equal(prof.calls[NR_SLOTS + COMPAT_GETPID], 7);
	assert_int_equal(prof.calls[SLOT_OUT_OF_RANGE], 2);
	assert_int_equal(prof.calls[NATIVE_OPENAT], 0);
	assert_true(prof.blind_spots_known);
	assert_int_equal(prof.exit_calls_inferred, 1);
}

/* The buffer need not end in a NUL: only `len` bytes are read. */
static void reads_only_len_bytes(void **state)
{
	char *buf = malloc(strlen(good) + 8), why[256];

	(void)state;
	memcpy(buf, good, strlen(good));
	memcpy(buf + strlen(good), "garbage!", 8);
	assert_int_equal(profile_parse(buf, strlen(good), &prof, why, sizeof(why)), 0);
	assert_int_equal(profile_parse(buf, strlen(good) + 8, &prof, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "text after the JSON object"));
	free(buf);
}

static void saves_and_loads_back(void **state)
{
	char path[] = "/tmp/test_profile.XXXXXX", why[256];
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(profile_parse(good, strlen(good), &prof, why, sizeof(why)), 0);
	assert_int_equal(profile_save(path, &prof), 0);
	assert_int_equal(profile_load(path, &back, why, sizeof(why)), 0);
	assert_memory_equal(&prof, &back, sizeof(prof));
	unlink(path);
	assert_int_equal(profile_load(path, &back, why, sizeof(why)), -ENOENT);
}

/* Each damaged file, and a word of the message it must get. */
static const struct {
	const char *text, *says;
} damaged[] = {
	{ "", "ends too soon" },
	{ "{\"format\": \"auditskip-profile\", ", "ends too soon" },
	{ "[1, 2]", "not a JSON object" },
	{ "{} {}", "text after the JSON object" },
	{ "{\"format\": \"calibration\", \"version\": 1}", "not an auditskip profile" },
	{ "{\"format\": \"auditskip-profile\"}", "no \"version\"" },
	{ "{\"format\": \"auditskip-profile\", \"version\": 2}", "format version 2" },
	{ "{\"format\": \"auditskip-profile\", \"version\": 1}", "no \"kernel\"" },
	{ "{\"format\": \"auditskip-profile\", \"version\": 1, \"kernel\": 6}", "not a string" },
	{ "{\"format\": \"auditskip-profile\", \"version\": 1, \"kernel\": \"k\"}",
	  "no \"arches\"" },
	{ "{\"format\": \"auditskip-profile\", \"version\": 1, \"kernel\": \"k\", \"arches\": []}",
	  "holds 0 names" },
	{ "{\"format\": \"auditskip-profile\", \"version\": 1, \"kernel\": \"k\", \"arches\": [\"a\", \"b\", \"c\"]}",
	  "holds 3 names" },
	{ "{\"format\": \"auditskip-profile\", \"version\": 1, \"kernel\": \"k\", \"arches\": [\"a\", \"a\"]}",
	  "names a twice" },
	{ "{\"format\": \"auditskip-profile\", \"version\": 1, \"kernel\": \"k\", \"arches\": [\"x86_64\"]}",
	  "no \"syscalls\"" },
	{ "{\"format\": \"auditskip-profile\", \"version\": 1, \"kernel\": \"k\", \"arches\": [\"x86_64\"], "
	  "\"syscalls\": [{\"arch\": \"i386\", \"nr\": 1, \"calls\": 1}]}",
	  "is not in \"arches\"" },
	{ "{\"format\": \"auditskip-profile\", \"version\": 1, \"kernel\": \"k\", \"arches\": [\"x86_64\"], "
	  "\"syscalls\": [{\"arch\": \"x86_64\", \"nr\": 2049, \"calls\": 1}]}",
	  "\"nr\" is not a number from 0 to 2048" },
	{ "{\"format\": \"auditskip-profile\", \"version\": 1, \"kernel\": \"k\", \"arches\": [\"x86_64\"], "
	  "\"syscalls\": [{\"arch\": \"x86_64\", \"nr\": -1, \"calls\": 1}]}",
	  "\"nr\" is not a number" },
	{ "{\"format\": \"auditskip-profile\", \"version\": 1, \"kernel\": \"k\", \"arches\": [\"x86_64\"], "
	  "\"syscalls\": [{\"arch\": \"x86_64\", \"nr\": 1.5, \"calls\": 1}]}",
	  "\"nr\" is not a number" },
	{ "{\"format\": \"auditskip-profile\", \"version\": 1, \"kernel\": \"k\", \"arches\": [\"x86_64\"], "
	  "\"syscalls\": [{\"arch\": \"x86_64\", \"nr\": 1, \"calls\": 0}]}",
	  "\"calls\" is not a positive integer" },
	{ "{\"format\": \"auditskip-profile\", \"version\": 1, \"kernel\": \"k\", \"arches\": [\"x86_64\"], "
	  "\"syscalls\": [{\"arch\": \"x86_64\", \"nr\": 1, \"calls\": \"3\"}]}",
	  "\"calls\" is not a positive integer" },
	{ "{\"format\": \"auditskip-profile\", \"version\": 1, \"kernel\": \"k\", \"arches\": [\"x86_64\"], "
	  "\"syscalls\": [{\"arch\": \"x86_64\", \"nr\": 1, \"calls\": 1}, {\"arch\": \"x86_64\", \"nr\": 1, \"calls\": 2}]}",
	  "listed twice" },
	{ "{\"format\": \"auditskip-profile\", \"version\": 1, \"kernel\": \"k\", \"arches\": [\"x86_64\"], "
	  "\"syscalls\": [], \"blind_spots\": 3}",
	  "\"blind_spots\" is neither" },
	{ "{\"format\": \"auditskip-profile\", \"version\": 1, \"kernel\": \"k\", \"arches\": [\"x86_64\"], "
	  "\"syscalls\": [], \"blind_spots\": {\"exit_calls_inferred\": 1}}",
	  "needs the integers" },
	{ "{\"format\": \"auditskip-profile\", \"version\": 1, \"kernel\": \"k\", \"arches\": [\"x86_64\"], "
	  "\"syscalls\": [], \"seconds\": \"long\"}",
	  "\"seconds\" is not a number" },
};

static void refuses_damaged_files(void **state)
{
	char why[256];

	(void)state;
	for (size_t i = 0; i < sizeof(damaged) / sizeof(damaged[0]); i++) {
		why[0] = '\0';
		if (profile_parse(damaged[i].text, strlen(damaged[i].text), &prof, why,
				  sizeof(why)) != -EINVAL ||
		    !strstr(why, damaged[i].says))
			fail_msg("'%s': got '%s', want a message with '%s'", damaged[i].text, why,
				 damaged[i].says);
		/* Nothing half-read is left behind. */
		assert_int_equal(prof.calls[1], 0);
	}
}

static void refuses_nul_bytes_and_huge_files(void **state)
{
	char why[256], *huge;

	(void)state;
	assert_int_equal(profile_parse("{\"a\0\": 1}", 9, &prof, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "NUL"));
	huge = calloc(1, PROFILE_MAX_BYTES + 1);
	assert_int_equal(profile_parse(huge, PROFILE_MAX_BYTES + 1, &prof, why, sizeof(why)),
			 -EINVAL);
	assert_non_null(strstr(why, "larger than"));
	free(huge);
}

/* ------------------------------------------------------------ prediction --- */

static struct audit_rule *add_rule(struct ruleset *rs, unsigned int list, __u32 arch_elf)
{
	struct audit_rule *r;

	rs->rules = realloc(rs->rules, (rs->n + 1) * sizeof(*rs->rules));
	r = &rs->rules[rs->n++];
	memset(r, 0, sizeof(*r));
	r->list = list;
	r->action = AUDIT_ALWAYS;
	r->arch_elf = arch_elf;
	r->field_count = 1;
	return r;
}

static void profile_of(struct profile *p)
{
	memset(p, 0, sizeof(*p));
	strcpy(p->arches[ARCH_NATIVE], "x86_64");
	strcpy(p->arches[ARCH_COMPAT], "i386");
	p->calls[NATIVE_GETPID] = 1000;
	p->calls[NATIVE_OPENAT] = 10;
	p->calls[NR_SLOTS + COMPAT_GETPID] = 5;
	p->calls[SLOT_OUT_OF_RANGE] = 2;
}

/*
 * Two openat rules on x86_64 and one rule on i386's getpid (20): the patch's
 * arch-blind mask has 20 and 257; the x86_64 mask only 257.
 */
static void predicts_walks_and_skips(void **state)
{
	struct ruleset rs = { 0 };
	struct prediction pr;
	struct audit_rule *r;

	(void)state;
	profile_of(&prof);
	mask_set(add_rule(&rs, AUDIT_FILTER_EXIT, AUDIT_ARCH_X86_64)->mask, NATIVE_OPENAT);
	mask_set(add_rule(&rs, AUDIT_FILTER_EXIT, AUDIT_ARCH_X86_64)->mask, NATIVE_OPENAT);
	mask_set(add_rule(&rs, AUDIT_FILTER_EXIT, AUDIT_ARCH_I386)->mask, COMPAT_GETPID);
	/* A watch: counted in audit_n_rules, not on the exit list. */
	r = add_rule(&rs, AUDIT_FILTER_EXIT, 0);
	r->inode_hash = true;
	memset(r->mask, 0xff, sizeof(r->mask));
	assert_int_equal(prediction_make(&rs, &prof, NULL, &pr), 0);
	assert_true(pr.walks_at_all);
	assert_int_equal(pr.exit_rules, 3);
	assert_int_equal(pr.mask_bits, 2);
	assert_int_equal(pr.total.walks, 1017);
	/* getpid (39) and out-of-range skip; openat and i386 getpid (20) walk. */
	assert_int_equal(pr.slot[NATIVE_GETPID].skippable_walks, 1000);
	assert_int_equal(pr.slot[NATIVE_OPENAT].skippable_walks, 0);
	assert_int_equal(pr.slot[NR_SLOTS + COMPAT_GETPID].skippable_walks, 0);
	assert_int_equal(pr.slot[SLOT_OUT_OF_RANGE].skippable_walks, 2);
	assert_int_equal(pr.total.skippable_walks, 1002);
	assert_int_equal(pr.total.needless_rule_visits, 1002 * 3);
	/* Per arch the same here: i386's mask has 20, and only i386 calls 20. */
	assert_int_equal(pr.total.skippable_arch_mask, 1002);
	assert_int_equal(pr.total.skippable_perm_mask, 1002);
	/* The watch names every syscall with no perm=: no context is spared but out of range. */
	assert_int_equal(pr.total.skippable_entry_mask, 2);
	/* Field checks: every call whose bit the rule sets, any arch. */
	assert_int_equal(pr.field_checks[0], 10);
	assert_int_equal(pr.field_checks[2], 5);
	assert_int_equal(pr.field_checks_own_arch[2], 5);
	assert_int_equal(pr.field_checks[3], 0);
	prediction_free(&pr);

	/* x86_64 writev (20) is called: the i386 rule's bit sends it into its fields. */
	prof.calls[COMPAT_GETPID] = 3;
	assert_int_equal(prediction_make(&rs, &prof, NULL, &pr), 0);
	assert_int_equal(pr.slot[COMPAT_GETPID].skippable_walks, 0);
	assert_int_equal(pr.slot[COMPAT_GETPID].skippable_arch_mask, 3);
	assert_int_equal(pr.field_checks[2], 8);
	assert_int_equal(pr.field_checks_own_arch[2], 5);
	prediction_free(&pr);
	ruleset_free(&rs);
}

/* A perm= rule with every bit: narrowed to the classes its perm can meet. */
static void narrows_perm_rules(void **state)
{
	struct ruleset rs = { 0 };
	struct prediction pr;
	struct audit_rule *r;

	(void)state;
	profile_of(&prof);
	r = add_rule(&rs, AUDIT_FILTER_EXIT, AUDIT_ARCH_X86_64);
	memset(r->mask, 0xff, sizeof(r->mask));
	r->mask[MASK_WORDS - 1] = 0xffff; /* the kernel clears the class bits */
	r->perm = AUDIT_PERM_WRITE;
	assert_int_equal(prediction_make(&rs, &prof, NULL, &pr), 0);
	assert_int_equal(pr.total.skippable_walks, 2);
	/* getpid cannot meet perm=w; openat can, and i386 20 is not its arch. */
	assert_int_equal(pr.slot[NATIVE_GETPID].skippable_perm_mask, 1000);
	assert_int_equal(pr.slot[NATIVE_OPENAT].skippable_perm_mask, 0);
	assert_int_equal(pr.slot[NR_SLOTS + COMPAT_GETPID].skippable_arch_mask, 5);
	/* Per arch: a b64 rule leaves every i386 call out of both archperm forms. */
	assert_int_equal(pr.slot[NR_SLOTS + COMPAT_GETPID].skippable_perm_mask, 5);
	assert_int_equal(pr.slot[NR_SLOTS + COMPAT_GETPID].skippable_entry_mask, 5);
	/* No watch: the entry form spares the same calls' contexts. */
	assert_int_equal(pr.slot[NATIVE_GETPID].skippable_entry_mask, 1000);
	assert_int_equal(pr.slot[NATIVE_OPENAT].skippable_entry_mask, 0);
	assert_int_equal(pr.perm_mask_bits[ARCH_COMPAT], 0);
	prediction_free(&pr);
	ruleset_free(&rs);
}

static void nothing_walks_without_a_counted_rule(void **state)
{
	struct ruleset rs = { 0 };
	struct prediction pr;

	(void)state;
	profile_of(&prof);
	/* User-list rules are not in audit_n_rules: contexts stay dummy. */
	add_rule(&rs, AUDIT_FILTER_USER, 0);
	assert_int_equal(prediction_make(&rs, &prof, NULL, &pr), 0);
	assert_false(pr.walks_at_all);
	assert_int_equal(pr.total.walks, 0);
	prediction_free(&pr);
	/* An unconditional never,task: new tasks get no context at all. */
	add_rule(&rs, AUDIT_FILTER_TASK, 0)->action = AUDIT_NEVER;
	rs.rules[1].field_count = 0;
	mask_set(add_rule(&rs, AUDIT_FILTER_EXIT, 0)->mask, NATIVE_OPENAT);
	assert_int_equal(prediction_make(&rs, &prof, NULL, &pr), 0);
	assert_true(pr.task_never);
	assert_int_equal(pr.total.walks, 0);
	prediction_free(&pr);
	/* With fields (uid=...) it exempts only some tasks: assumed none profiled. */
	rs.rules[1].field_count = 1;
	assert_int_equal(prediction_make(&rs, &prof, NULL, &pr), 0);
	assert_false(pr.task_never);
	assert_int_equal(pr.conditional_task_rules, 1);
	assert_int_equal(pr.total.walks, 1017);
	prediction_free(&pr);
	ruleset_free(&rs);
}

static void prices_skips_with_the_time_model(void **state)
{
	struct calibration c = { .ns_per_entry = 2.0 };
	struct ruleset rs = { 0 };
	struct prediction pr;

	(void)state;
	profile_of(&prof);
	for (int i = 0; i < 4; i++)
		mask_set(add_rule(&rs, AUDIT_FILTER_EXIT, 0)->mask, NATIVE_OPENAT);
	assert_int_equal(prediction_make(&rs, &prof, NULL, &pr), 0);
	/* No points: 4 entries at 2 ns each, for 1000 + 5 + 2 skippable walks. */
	assert_true(prediction_saved_ns(&pr, &c, COUNTER_ID_skippable_walks) == 1007 * 8.0);
	prediction_free(&pr);
	ruleset_free(&rs);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses_a_profile),
		cmocka_unit_test(reads_only_len_bytes),
		cmocka_unit_test(saves_and_loads_back),
		cmocka_unit_test(refuses_damaged_files),
		cmocka_unit_test(refuses_nul_bytes_and_huge_files),
		cmocka_unit_test(predicts_walks_and_skips),
		cmocka_unit_test(narrows_perm_rules),
		cmocka_unit_test(nothing_walks_without_a_counted_rule),
		cmocka_unit_test(prices_skips_with_the_time_model),
	};

	return unit_main(argc, argv, "tests", tests, NULL, NULL);
}
