// SPDX-License-Identifier: GPL-2.0
/*
 * An io_uring workload for the io_uring exit list: N IORING_OP_OPENAT of
 * /dev/null, one at a time, each file closed again with close(2). Audit
 * filters each op it issues (audit_uring_entry()/audit_uring_exit());
 * an op that must retry from an io-wq worker is filtered once more there,
 * which the warm-up below rules out.
 *
 * At the end it prints "uring_openat: N ops submitted" on stderr, N the
 * sum of what io_uring_submit() said it submitted: the walks a mode blind
 * to io_uring ops may miss are held to that count, the workload's own.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <liburing.h>

int main(int argc, char **argv)
{
	struct io_uring ring;
	char *end;
	long n, submitted = 0;
	int err;

	n = argc == 2 ? strtol(argv[1], &end, 10) : -1;
	if (argc != 2 || *end || n < 0) {
		fprintf(stderr, "usage: uring_openat N\n");
		return 2;
	}
	/*
	 * /dev/null's dentry in the cache first: an op whose lookup misses it
	 * is retried from an io-wq worker and filtered twice; now each op is
	 * filtered exactly once, and a test can hold the walks to N.
	 */
	close(open("/dev/null", O_RDONLY));
	err = io_uring_queue_init(8, &ring, 0);
	if (err) {
		fprintf(stderr, "uring_openat: io_uring_queue_init: %s\n", strerror(-err));
		return 1;
	}
	for (long i = 0; i < n; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);
		struct io_uring_cqe *cqe;

		io_uring_prep_openat(sqe, AT_FDCWD, "/dev/null", O_RDONLY, 0);
		/* One op a submit: each io_uring_enter runs exactly one op inline. */
		err = io_uring_submit(&ring);
		if (err != 1) {
			fprintf(stderr, "uring_openat: io_uring_submit: %s\n",
				err < 0 ? strerror(-err) : "no op submitted");
			return 1;
		}
		submitted += err;
		err = io_uring_wait_cqe(&ring, &cqe);
		if (err || cqe->res < 0) {
			fprintf(stderr, "uring_openat: openat: %s\n",
				strerror(err ? -err : -cqe->res));
			return 1;
		}
		close(cqe->res);
		io_uring_cqe_seen(&ring, cqe);
	}
	io_uring_queue_exit(&ring);
	fprintf(stderr, "uring_openat: %ld ops submitted\n", submitted);
	return 0;
}
