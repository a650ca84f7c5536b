// SPDX-License-Identifier: GPL-2.0
/*
 * audit_receive() handles each request under audit_ctl_lock() and
 * acknowledges it (netlink_ack(), NLM_F_ACK being set), with the error when
 * there is one. Data replies (audit_send_reply() for AUDIT_GET,
 * audit_list_rules_send() for AUDIT_LIST_RULES, which ends with NLMSG_DONE)
 * come from a kernel thread that waits for that lock, so usually after the
 * acknowledgement; every reply carries the request's sequence number.
 */
#include <errno.h>
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
#include "auditnl.h"

/* Far more than a rule record: the kernel sends what userspace added. */
#define RECV_BUF_SIZE 65536

static __u32 last_seq;

int auditnl_open(void)
{
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_AUDIT);

	return fd < 0 ? -errno : fd;
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

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/*
 * One datagram from the kernel, waiting until `deadline` (CLOCK_MONOTONIC
 * ms): its length, or -ETIMEDOUT, or another negative errno. Datagrams from
 * other sockets (nl_pid not 0) are dropped.
 */
static int recv_until(int fd, void *buf, size_t size, long long deadline)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	struct sockaddr_nl from;
	socklen_t fromlen;
	ssize_t n;
	int ret;

	for (;;) {
		long long left = deadline - now_ms();

		ret = poll(&p, 1, left > 0 ? (int)left : 0);
		if (ret < 0 && errno == EINTR)
			continue;
		if (ret < 0)
			return -errno;
		if (ret == 0)
			return -ETIMEDOUT;
		fromlen = sizeof(from);
		n = recvfrom(fd, buf, size, MSG_DONTWAIT | MSG_TRUNC, (struct sockaddr *)&from,
			     &fromlen);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n < 0)
			return -errno;
		if ((size_t)n > size)
			return -EMSGSIZE;
		if (fromlen == sizeof(from) && from.nl_pid == 0)
			return (int)n;
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
 * The replies to `seq` among the messages of one datagram: 1 done, 0 more to
 * come, or a negative errno. Each of them restarts the wait.
 */
static int handle_datagram(const char *buf, size_t len, __u32 seq, auditnl_reply_fn fn, void *arg,
			   long long *deadline, int timeout_ms)
{
	size_t off = 0;
	int ret = 0;

	while (ret == 0 && len - off >= NLMSG_HDRLEN) {
		const struct nlmsghdr *nlh = (const struct nlmsghdr *)(buf + off);

		if (nlh->nlmsg_len < NLMSG_HDRLEN || nlh->nlmsg_len > len - off)
			return -EPROTO;
		off += NLMSG_ALIGN(nlh->nlmsg_len);
		if (off > len)
			off = len;
		if (nlh->nlmsg_seq != seq)
			continue;
		*deadline = now_ms() + timeout_ms;
		ret = handle_reply(nlh, fn, arg);
	}
	return ret;
}

int auditnl_wait(int fd, __u32 seq, auditnl_reply_fn fn, void *arg, int timeout_ms)
{
	long long deadline = now_ms() + timeout_ms;
	char *buf = malloc(RECV_BUF_SIZE);
	int ret = 0;

	if (!buf)
		return -ENOMEM;
	while (ret == 0) {
		int len = recv_until(fd, buf, RECV_BUF_SIZE, deadline);

		if (len < 0)
			ret = len;
		else
			ret = handle_datagram(buf, len, seq, fn, arg, &deadline, timeout_ms);
	}
	free(buf);
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

struct rule_walk {
	auditnl_rule_fn fn;
	void *arg;
};

static int rule_reply(const struct nlmsghdr *nlh, void *arg)
{
	const struct audit_rule_data *d = NLMSG_DATA(nlh);
	size_t len = nlh->nlmsg_len - NLMSG_HDRLEN;
	struct rule_walk *w = arg;

	if (nlh->nlmsg_type != AUDIT_LIST_RULES)
		return 0;
	/* audit_krule_to_data(): the header, then buflen bytes of strings. */
	if (len < sizeof(*d) || sizeof(*d) + d->buflen > len)
		return -EPROTO;
	return w->fn(d, len, w->arg);
}

int auditnl_list_rules(int fd, auditnl_rule_fn fn, void *arg)
{
	struct rule_walk w = { fn, arg };

	return auditnl_request(fd, AUDIT_LIST_RULES, NULL, 0, rule_reply, &w);
}

int auditnl_add_rule(int fd, const struct audit_rule_data *d)
{
	return auditnl_request(fd, AUDIT_ADD_RULE, d, sizeof(*d) + d->buflen, NULL, NULL);
}

int auditnl_delete_rule(int fd, const struct audit_rule_data *d)
{
	return auditnl_request(fd, AUDIT_DEL_RULE, d, sizeof(*d) + d->buflen, NULL, NULL);
}

/* ------------------------------------------------ the log multicast group --- */

/*
 * kauditd copies every record to the AUDIT_NLGRP_READLOG multicast group
 * (kauditd_send_multicast_skb()), auditd or not. Rule changes, including
 * the automatic removal of watch and tree rules, log AUDIT_CONFIG_CHANGE;
 * a socket filter drops everything else in the kernel, so a busy audit log
 * costs the loader nothing.
 */
int config_change_open(void)
{
	/* Classic BPF loads are big-endian; htons() makes the compare work on both. */
	struct sock_filter code[] = {
		BPF_STMT(BPF_LD | BPF_H | BPF_ABS, offsetof(struct nlmsghdr, nlmsg_type)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, htons(AUDIT_CONFIG_CHANGE), 0, 1),
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
	if (setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof(prog)) ||
	    bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

bool config_change_drain(int fd)
{
	char buf[8192];
	bool changed = false;

	/* Overflowed (ENOBUFS) means records were lost: resync all the same. */
	for (;;) {
		ssize_t n = recv(fd, buf, sizeof(buf), 0);

		if (n > 0 || (n < 0 && errno == ENOBUFS))
			changed = true;
		else if (n < 0 && errno == EINTR)
			continue;
		else
			return changed;
	}
}
