// SPDX-License-Identifier: GPL-2.0
/*
 * The staleness verdict of tracepoint mode: what an interval between two
 * listings without rules proves, and what it does not. Walks of syscalls
 * that may log a record (a bind to audit's log group clears `dummy`) prove
 * nothing; a dummy context withdraws an earlier "yes".
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include "unit_main.h"
#include "model/stale.h"

static struct stale_interval interval(__u64 walks, __u64 proofs)
{
	struct stale_interval iv = { .from_s = 100, .to_s = 101, .walks = walks, .proofs = proofs };

	iv.nlog = proofs < STALE_LOG ? proofs : STALE_LOG;
	return iv;
}

static void test_record_walks_prove_nothing(void **state)
{
	struct stale_tally t = { .epoch = 1, .walks = 3 };

	(void)state;
	assert_int_equal(stale_finding(&t, true), STALE_FINDING_SILENT);
	t.dummy_seen = 1;
	assert_int_equal(stale_finding(&t, true), STALE_FINDING_CLEAN);
}

static void test_disturbed_interval_proves_nothing(void **state)
{
	struct stale_tally t = { .epoch = 1, .walks = 5, .proofs = 5 };

	(void)state;
	assert_int_equal(stale_finding(&t, false), STALE_FINDING_VOID);
	assert_int_equal(stale_finding(&t, true), STALE_FINDING_STALE);
	t.dummy_seen = 1;
	assert_int_equal(stale_finding(&t, true), STALE_FINDING_CONFLICT);
}

static void test_yes_on_proof_with_evidence(void **state)
{
	struct stale_report st = { .kernel_n_rules = -1 };
	struct stale_interval iv = interval(40, 12);

	(void)state;
	stale_start(&st);
	assert_int_equal(st.verdict, STALE_UNKNOWN);
	stale_learn(&st, STALE_FINDING_SILENT, &iv);
	assert_int_equal(st.verdict, STALE_UNKNOWN);
	stale_learn(&st, STALE_FINDING_STALE, &iv);
	assert_int_equal(st.verdict, STALE_YES);
	assert_true(st.has_evidence);
	assert_int_equal(st.evidence.nlog, STALE_LOG);
	assert_int_equal(st.syscalls, 40);
	/* Rules loaded later hide nothing of a count that stays until reboot. */
	stale_rules_loaded(&st);
	assert_int_equal(st.verdict, STALE_YES);
	stale_learn(&st, STALE_FINDING_VOID, &iv);
	assert_int_equal(st.verdict, STALE_YES);
	stale_learn(&st, STALE_FINDING_STALE, &iv);
	assert_int_equal(st.syscalls, 80);
}

static void test_dummy_context_withdraws_yes(void **state)
{
	struct stale_report st = { .kernel_n_rules = -1 };
	struct stale_interval iv = interval(7, 1);

	(void)state;
	stale_start(&st);
	stale_learn(&st, STALE_FINDING_STALE, &iv);
	assert_int_equal(st.verdict, STALE_YES);
	stale_learn(&st, STALE_FINDING_CLEAN, &iv);
	assert_int_equal(st.verdict, STALE_NO);
	assert_false(st.has_evidence);
	assert_int_equal(st.syscalls, 0);
	assert_non_null(st.reason);
}

static void test_unknown_while_rules_loaded(void **state)
{
	struct stale_report st = { .kernel_n_rules = -1 };
	struct stale_interval iv = interval(0, 0);

	(void)state;
	stale_start(&st);
	stale_learn(&st, STALE_FINDING_CLEAN, &iv);
	assert_int_equal(st.verdict, STALE_NO);
	stale_rules_loaded(&st);
	assert_int_equal(st.verdict, STALE_UNKNOWN);
	assert_non_null(strstr(st.reason, "loaded"));
	stale_learn(&st, STALE_FINDING_CONFLICT, &iv);
	assert_int_equal(st.verdict, STALE_UNKNOWN);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_record_walks_prove_nothing),
		cmocka_unit_test(test_disturbed_interval_proves_nothing),
		cmocka_unit_test(test_yes_on_proof_with_evidence),
		cmocka_unit_test(test_dummy_context_withdraws_yes),
		cmocka_unit_test(test_unknown_while_rules_loaded),
	};

	return unit_main(argc, argv, "staleness verdict", tests, NULL, NULL);
}
