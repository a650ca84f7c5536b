// SPDX-License-Identifier: GPL-2.0
/*
 * getpid_rounds: the child that times getpid rounds on request (the paired
 * measure of counting's price), on real syscalls: rounds come back one per
 * request, and a child that died is an error to its caller, never a
 * SIGPIPE that would kill calibrate before it restores the rules.
 */
#include <errno.h>
#include <signal.h>
#include <sys/wait.h>
#include "unit_main.h"
#include "live/getpid_timing.h"

static void test_rounds(void **state)
{
	struct getpid_rounds r;
	double ns;

	(void)state;
	assert_int_equal(getpid_rounds_start(&r, -1, false, CLOCK_THREAD_CPUTIME_ID), 0);
	for (int i = 0; i < 4; i++) {
		ns = -1;
		assert_int_equal(getpid_rounds_next(&r, &ns), 0);
		/* a getpid takes some ns, not a round's whole 10 ms */
		assert_true(ns > 0 && ns < 1e6);
	}
	assert_int_equal(getpid_rounds_stop(&r), 0);
	/* stopped once: a second stop has nothing to wait for */
	assert_int_equal(getpid_rounds_stop(&r), 0);
}

static void test_child_gone(void **state)
{
	struct getpid_rounds r;
	siginfo_t info;
	double ns;

	(void)state;
	assert_int_equal(getpid_rounds_start(&r, -1, false, CLOCK_THREAD_CPUTIME_ID), 0);
	assert_int_equal(kill(r.pid, SIGKILL), 0);
	/* dead, its socket closed, not yet reaped: the stop below reaps it */
	assert_int_equal(waitid(P_PID, r.pid, &info, WEXITED | WNOWAIT), 0);
	assert_int_equal(getpid_rounds_next(&r, &ns), -EIO);
	assert_int_equal(getpid_rounds_stop(&r), -EIO);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rounds),
		cmocka_unit_test(test_child_gone),
	};

	/* as calibrate runs it: SIGPIPE not ignored */
	signal(SIGPIPE, SIG_DFL);
	return unit_main(argc, argv, "getpid_rounds", tests, NULL, NULL);
}
