// SPDX-License-Identifier: GPL-2.0
/*
 * The audit netlink reply loop, against the running kernel: a wait that no
 * reply ends returns -ETIMEDOUT after its timeout instead of hanging, replies
 * to another request do not count as (or extend the wait for) the awaited
 * one, the kernel's refusal comes back as its errno, and a data request
 * ends at its reply or NLMSG_DONE. Nothing here changes audit's state.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <time.h>
#include <cmocka.h>
#include "unit_main.h"
#include <errno.h>
#include <poll.h>
#include <cap-ng.h>
#include "audit/auditnl.h"

/* Short, so that the suite stays quick; the loaders' requests use AUDITNL_TIMEOUT_MS. */
#define TIMEOUT_MS 300

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int open_socket(void)
{
	int fd = auditnl_open();

	if (fd < 0)
		fail_msg("cannot open a NETLINK_AUDIT socket: %d (no audit in this kernel?)", fd);
	return fd;
}

/* AUDIT_GET and AUDIT_LIST_RULES need it (audit_netlink_ok()). */
static bool may_control_audit(void)
{
	assert_int_equal(capng_get_caps_process(), 0);
	return capng_have_capability(CAPNG_EFFECTIVE, CAP_AUDIT_CONTROL);
}

/* A socket nobody sent anything on: no reply can come. */
static void test_unanswered_times_out(void **state)
{
	int fd = open_socket();
	double t0 = now_ms(), waited;

	(void)state;
	assert_int_equal(auditnl_wait(fd, 12345, NULL, NULL, TIMEOUT_MS), -ETIMEDOUT);
	waited = now_ms() - t0;
	print_message("no reply: -ETIMEDOUT after %.0f ms (timeout %d ms)\n", waited, TIMEOUT_MS);
	/* It was the timeout that ended the wait, not an early error. */
	assert_true(waited >= TIMEOUT_MS);
	auditnl_close(fd);
}

/*
 * The kernel answers AUDIT_GET (its status and acknowledgement, or -EPERM
 * without CAP_AUDIT_CONTROL), but a wait for another sequence number reads
 * those replies, drops them and still times out.
 */
static void test_other_replies_do_not_count(void **state)
{
	int fd = open_socket(), seq;
	struct pollfd p = { .fd = fd, .events = POLLIN };

	(void)state;
	seq = auditnl_send(fd, AUDIT_GET, NULL, 0);
	assert_true(seq > 0);
	/* The answer is there before the wait starts. */
	assert_int_equal(poll(&p, 1, AUDITNL_TIMEOUT_MS), 1);
	assert_int_equal(auditnl_wait(fd, (__u32)seq + 1, NULL, NULL, TIMEOUT_MS), -ETIMEDOUT);
	/* ... and was consumed by it. */
	assert_int_equal(poll(&p, 1, 0), 0);
	/* So the request itself has nothing left to wait for. */
	assert_int_equal(auditnl_wait(fd, (__u32)seq, NULL, NULL, TIMEOUT_MS), -ETIMEDOUT);
	auditnl_close(fd);
}

/* audit_netlink_ok() refuses the old AUDIT_LIST outright. */
static void test_refusal_is_its_errno(void **state)
{
	int fd = open_socket();

	(void)state;
	assert_int_equal(auditnl_request(fd, AUDIT_LIST, NULL, 0, NULL, NULL), -EOPNOTSUPP);
	auditnl_close(fd);
}

static int count_rule(const struct audit_rule_data *d, size_t len, void *arg)
{
	size_t *n = arg;

	assert_true(len >= sizeof(*d) + d->buflen);
	(*n)++;
	return 0;
}

/*
 * Status and listing, several on one socket: each ends at its reply or
 * NLMSG_DONE (a missed end would be -ETIMEDOUT), and a reply left over from
 * one request (an acknowledgement after the data) does not confuse the next.
 */
static void test_requests_end(void **state)
{
	int fd = open_socket(), want = may_control_audit() ? 0 : -EPERM;
	struct audit_status st;
	size_t n = 0, again = 0;

	(void)state;
	assert_int_equal(auditnl_get_status(fd, &st), want);
	if (!want)
		assert_true(st.enabled <= 2);
	assert_int_equal(auditnl_list_rules(fd, count_rule, &n), want);
	assert_int_equal(auditnl_get_status(fd, &st), want);
	assert_int_equal(auditnl_list_rules(fd, count_rule, &again), want);
	print_message("status and listing answered (%zu rules, then %zu)\n", n, again);
	auditnl_close(fd);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unanswered_times_out),
		cmocka_unit_test(test_other_replies_do_not_count),
		cmocka_unit_test(test_refusal_is_its_errno),
		cmocka_unit_test(test_requests_end),
	};

	return unit_main(argc, argv, "audit netlink", tests, NULL, NULL);
}
