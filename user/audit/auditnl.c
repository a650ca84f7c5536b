// SPDX-License-Identifier: GPL-2.0
/*
 * audit_receive() handles each request under audit_ctl_lock() and
 * acknowledges it (netlink_ack(), NLM_F_ACK being set), with the error when
 * there is one. Data replies (audit_send_reply() for AUDIT_GET,
 * audit_list_rules_send() for AUDIT_LIST_RULES, which ends with NLMSG_DONE)
 * come from a kernel thread that waits for that lock, so usually after the
 * acknowledgement; every reply carries the request's sequence number.
 */
#define _GNU_SOURCE /* recvmmsg() */
#include <errno.h>
#include <stddef.h>
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/filter.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include "audit/auditnl.h"

/* Far more than a rule record: the kernel sends what userspace added. */
#define RECV_BUF_SIZE 65536

static __u32 last_seq;

/*
 * Room for a listing of thousands of rules: the kernel's listing thread
 * drops what overflows the buffer (ENOBUFS, and the listing is taken
 * again) when this process is slow to read, as on a loaded machine.
 * SO_RCVBUFFORCE passes net.core.rmem_max with CAP_NET_ADMIN; without it
 * SO_RCVBUF is capped there.
 */
#define SOCKET_RCVBUF (8 << 20)

int auditnl_open(void)
{
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_AUDIT);
	int size = SOCKET_RCVBUF;

	if (fd < 0)
		return -errno;
	/* Best effort: the default buffer only means smaller batches. */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size)))
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
	return fd;
}

void auditnl_close(int fd)
{
	if (fd >= 0)
		close(fd);
}

int auditnl_send(int fd, __u16 type, const void *data, size_t len)
{
	/* Kept positive so that it can be returned as an int. */
	int seq = (int)(__atomic_add_fetch(&last_seq, 1, __ATOMIC_RELAXED) & INT_MAX);
	struct nlmsghdr nlh = {
		.nlmsg_len = NLMSG_LENGTH(len),
		.nlmsg_type = type,
		.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK,
		.nlmsg_seq = (__u32)seq,
	};
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	struct iovec iov[] = {
		{ &nlh, NLMSG_HDRLEN },
		{ (void *)data, len },
	};
	struct msghdr msg = {
		.msg_name = &kernel,
		.msg_namelen = sizeof(kernel),
		.msg_iov = iov,
		.msg_iovlen = len ? 2 : 1,
	};
	ssize_t n;

	if (len > RECV_BUF_SIZE)
		return -EMSGSIZE;
	do
		n = sendmsg(fd, &msg, 0);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	return seq;
}

/* Microseconds: whole milliseconds would end a wait up to one early. */
static long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

/*
 * Every syscall of this process walks audit's exit list like anyone
 * else's, so with thousands of rules loaded a syscall costs tens of
 * microseconds: a listing reads its one-rule datagrams many per
 * recvmmsg(), and polls only when none is queued.
 */
#define RECV_BATCH 64

struct recv_batch {
	struct mmsghdr msg[RECV_BATCH];
	struct iovec iov[RECV_BATCH];
	struct sockaddr_nl from[RECV_BATCH];
	char *buf; /* RECV_BATCH slots of RECV_BUF_SIZE; only the pages written become resident */
};

/*
 * The datagrams queued now, or once one comes before `deadline`
 * (CLOCK_MONOTONIC, microseconds): how many, or -ETIMEDOUT, or another negative errno.
 */
static int recv_until(int fd, struct recv_batch *b, long long deadline)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	for (;;) {
		long long left;
		int n, ret;

		for (int i = 0; i < RECV_BATCH; i++) {
			b->iov[i] =
				(struct iovec){ b->buf + (size_t)i * RECV_BUF_SIZE, RECV_BUF_SIZE };
			b->msg[i].msg_hdr = (struct msghdr){
				.msg_name = &b->from[i],
				.msg_namelen = sizeof(b->from[i]),
				.msg_iov = &b->iov[i],
				.msg_iovlen = 1,
			};
		}
		n = recvmmsg(fd, b->msg, RECV_BATCH, MSG_DONTWAIT, NULL);
		if (n > 0)
			return n;
		if (n < 0 && errno != EINTR && errno != EAGAIN)
			return -errno;
		if (n < 0 && errno == EINTR)
			continue;
		left = deadline - now_us();
		ret = poll(&p, 1, left > 0 ? (int)((left + 999) / 1000) : 0);
		if (ret < 0 && errno != EINTR)
			return -errno;
		if (ret == 0)
			return -ETIMEDOUT;
	}
}

/* What one reply to the awaited request means: 1 done, 0 more to come, -errno. */
static int handle_reply(const struct nlmsghdr *nlh, auditnl_reply_fn fn, void *arg)
{
	const struct nlmsgerr *e = NLMSG_DATA(nlh);

	switch (nlh->nlmsg_type) {
	case NLMSG_ERROR:
		if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(*e)))
			return -EPROTO;
		if (e->error)
			return e->error < 0 ? e->error : -e->error;
		return fn ? 0 : 1; /* the acknowledgement: data may follow */
	case NLMSG_DONE:
		return 1;
	default:
		return fn ? fn(nlh, arg) : 0;
	}
}

/*
 * The message of a datagram at *off, *off moved past it; NULL at the end,
 * or with *err set to -EPROTO for a length that does not fit.
 */
static const struct nlmsghdr *next_message(const char *buf, size_t len, size_t *off, int *err)
{
	const struct nlmsghdr *nlh;

	if (len - *off < NLMSG_HDRLEN)
		return NULL;
	nlh = (const struct nlmsghdr *)(buf + *off);
	if (nlh->nlmsg_len < NLMSG_HDRLEN || nlh->nlmsg_len > len - *off) {
		*err = -EPROTO;
		return NULL;
	}
	*off += NLMSG_ALIGN(nlh->nlmsg_len);
	if (*off > len)
		*off = len;
	return nlh;
}

int auditnl_handle_datagram(const void *data, size_t len, __u32 seq, auditnl_reply_fn fn, void *arg,
			    bool *answered)
{
	const struct nlmsghdr *nlh;
	size_t off = 0;
	int ret = 0, err = 0;

	while (ret == 0 && (nlh = next_message(data, len, &off, &err))) {
		if (nlh->nlmsg_seq != seq)
			continue;
		*answered = true;
		ret = handle_reply(nlh, fn, arg);
	}
	return err ?: ret;
}

/* The datagrams of one batch, in order, until the request is done. */
static int handle_batch(const struct recv_batch *b, int n, __u32 seq, auditnl_reply_fn fn,
			void *arg, long long *deadline, int timeout_ms)
{
	int ret = 0;

	for (int i = 0; i < n && ret == 0; i++) {
		const struct msghdr *h = &b->msg[i].msg_hdr;
		bool answered = false;

		if (h->msg_flags & MSG_TRUNC)
			return -EMSGSIZE;
		/* Datagrams from other sockets (nl_pid not 0) are dropped. */
		if (h->msg_namelen != sizeof(b->from[i]) || b->from[i].nl_pid != 0)
			continue;
		ret = auditnl_handle_datagram(h->msg_iov->iov_base, b->msg[i].msg_len, seq, fn, arg,
					      &answered);
		/* Each reply to the request restarts the wait. */
		if (answered)
			*deadline = now_us() + timeout_ms * 1000LL;
	}
	return ret;
}

int auditnl_wait(int fd, __u32 seq, auditnl_reply_fn fn, void *arg, int timeout_ms)
{
	long long deadline = now_us() + timeout_ms * 1000LL;
	struct recv_batch *b = calloc(1, sizeof(*b));
	int ret = 0;

	if (b)
		b->buf = malloc((size_t)RECV_BATCH * RECV_BUF_SIZE);
	if (!b || !b->buf) {
		free(b);
		return -ENOMEM;
	}
	while (ret == 0) {
		int n = recv_until(fd, b, deadline);

		if (n < 0)
			ret = n;
		else
			ret = handle_batch(b, n, seq, fn, arg, &deadline, timeout_ms);
	}
	free(b->buf);
	free(b);
	return ret < 0 ? ret : 0;
}

int auditnl_request(int fd, __u16 type, const void *data, size_t len, auditnl_reply_fn fn,
		    void *arg)
{
	int seq = auditnl_send(fd, type, data, len);

	if (seq < 0)
		return seq;
	return auditnl_wait(fd, (__u32)seq, fn, arg, AUDITNL_TIMEOUT_MS);
}

/* ------------------------------------------------------------ status --- */

static int status_reply(const struct nlmsghdr *nlh, void *arg)
{
	size_t len = nlh->nlmsg_len - NLMSG_HDRLEN;

	if (nlh->nlmsg_type != AUDIT_GET)
		return 0;
	/* Older kernels send a shorter struct audit_status. */
	memcpy(arg, NLMSG_DATA(nlh),
	       len < sizeof(struct audit_status) ? len : sizeof(struct audit_status));
	return 1;
}

int auditnl_get_status(int fd, struct audit_status *st)
{
	memset(st, 0, sizeof(*st));
	return auditnl_request(fd, AUDIT_GET, NULL, 0, status_reply, st);
}

int auditnl_set_enabled(int fd, unsigned int enabled)
{
	struct audit_status s = { .mask = AUDIT_STATUS_ENABLED, .enabled = enabled };

	return auditnl_request(fd, AUDIT_SET, &s, sizeof(s), NULL, NULL);
}

/* ------------------------------------------------------------- rules --- */

int auditnl_rule_reply(const struct nlmsghdr *nlh, void *arg)
{
	const struct audit_rule_data *d = NLMSG_DATA(nlh);
	size_t len = nlh->nlmsg_len - NLMSG_HDRLEN;
	struct auditnl_rule_walk *w = arg;

	if (nlh->nlmsg_type != AUDIT_LIST_RULES)
		return 0;
	/* audit_krule_to_data(): the header, then buflen bytes of strings. */
	if (len < sizeof(*d) || d->buflen > len - sizeof(*d))
		return -EPROTO;
	return w->fn(d, len, w->arg);
}

int auditnl_list_rules(int fd, auditnl_rule_fn fn, void *arg)
{
	struct auditnl_rule_walk w = { fn, arg };

	return auditnl_request(fd, AUDIT_LIST_RULES, NULL, 0, auditnl_rule_reply, &w);
}

int auditnl_add_rule(int fd, const struct audit_rule_data *d)
{
	return auditnl_request(fd, AUDIT_ADD_RULE, d, sizeof(*d) + d->buflen, NULL, NULL);
}

int auditnl_delete_rule(int fd, const struct audit_rule_data *d)
{
	return auditnl_request(fd, AUDIT_DEL_RULE, d, sizeof(*d) + d->buflen, NULL, NULL);
}

/* ---------------------------------------------- the log multicast group --- */

/*
 * kauditd copies every record to the AUDIT_NLGRP_READLOG multicast group
 * (kauditd_send_multicast_skb()), auditd or not. A socket filter drops
 * every other type in the kernel, so a busy audit log costs the reader
 * nothing.
 */
int auditnl_log_open(__u16 type, int rcvbuf)
{
	/* Classic BPF loads are big-endian; htons() makes the compare work on both. */
	struct sock_filter code[] = {
		BPF_STMT(BPF_LD | BPF_H | BPF_ABS, offsetof(struct nlmsghdr, nlmsg_type)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, htons(type), 0, 1),
		BPF_STMT(BPF_RET | BPF_K, 0xffff),
		BPF_STMT(BPF_RET | BPF_K, 0),
	};
	struct sock_fprog prog = { sizeof(code) / sizeof(code[0]), code };
	struct sockaddr_nl sa = {
		.nl_family = AF_NETLINK,
		.nl_groups = 1U << (AUDIT_NLGRP_READLOG - 1),
	};
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK, NETLINK_AUDIT);

	if (fd < 0)
		return -errno;
	if ((rcvbuf && setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf))) ||
	    setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof(prog)) ||
	    bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

int auditnl_log_datagram(const void *data, size_t len, auditnl_record_fn fn, void *arg)
{
	const struct nlmsghdr *nlh;
	size_t off = 0;
	int err = 0;

	while ((nlh = next_message(data, len, &off, &err)))
		fn(nlh->nlmsg_type, NLMSG_DATA(nlh), nlh->nlmsg_len - NLMSG_HDRLEN, arg);
	return err;
}

/*
 * Datagrams read per recvmmsg(): with many rules loaded each syscall walks
 * a long exit list. A record longer than a slot (a path of thousands of
 * characters, hex-encoded) is cut short and counts as lost.
 */
#define DRAIN_BATCH 16
#define DRAIN_SLOT 16384

int auditnl_log_drain(int fd, auditnl_record_fn fn, void *arg)
{
	struct mmsghdr msg[DRAIN_BATCH];
	struct iovec iov[DRAIN_BATCH];
	char *buf = malloc((size_t)DRAIN_BATCH * DRAIN_SLOT);
	int ret = 0;

	if (!buf)
		return -ENOBUFS;
	for (;;) {
		int n;

		for (int i = 0; i < DRAIN_BATCH; i++) {
			iov[i] = (struct iovec){ buf + (size_t)i * DRAIN_SLOT, DRAIN_SLOT };
			msg[i].msg_hdr = (struct msghdr){ .msg_iov = &iov[i], .msg_iovlen = 1 };
		}
		n = recvmmsg(fd, msg, DRAIN_BATCH, MSG_DONTWAIT, NULL);
		if (n < 0 && errno == EINTR)
			continue;
		/* The socket overflowed: records were dropped, read on. */
		if (n < 0 && errno == ENOBUFS) {
			ret = -ENOBUFS;
			continue;
		}
		if (n <= 0)
			break;
		for (int i = 0; i < n; i++) {
			if (msg[i].msg_hdr.msg_flags & MSG_TRUNC)
				ret = -ENOBUFS;
			else if (auditnl_log_datagram(buf + (size_t)i * DRAIN_SLOT, msg[i].msg_len,
						      fn, arg))
				ret = -ENOBUFS;
		}
		if (n < DRAIN_BATCH)
			break;
	}
	free(buf);
	return ret;
}
