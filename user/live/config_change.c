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
#define _GNU_SOURCE /* recvmmsg() */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/netlink.h>
#include <sys/socket.h>
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

void config_change_datagram(const void *data, size_t len, struct config_changes *c)
{
	const char *buf = data;
	size_t off = 0;

	while (len - off >= NLMSG_HDRLEN) {
		const struct nlmsghdr *nlh = (const struct nlmsghdr *)(buf + off);

		if (nlh->nlmsg_len < NLMSG_HDRLEN || nlh->nlmsg_len > len - off) {
			c->lost = true;
			return;
		}
		off += NLMSG_ALIGN(nlh->nlmsg_len);
		if (off > len)
			off = len;
		if (nlh->nlmsg_type != AUDIT_CONFIG_CHANGE)
			continue;
		c->records++;
		switch (config_change_classify(NLMSG_DATA(nlh), nlh->nlmsg_len - NLMSG_HDRLEN)) {
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
}

/*
 * kauditd copies every record to the AUDIT_NLGRP_READLOG multicast group
 * (kauditd_send_multicast_skb()), auditd or not. A socket filter drops
 * everything but AUDIT_CONFIG_CHANGE in the kernel, so a busy audit log
 * costs the loader nothing.
 */
int config_change_open(int rcvbuf)
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
	if ((rcvbuf && setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf))) ||
	    setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof(prog)) ||
	    bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

/*
 * Records read per recvmmsg(): with many rules loaded each syscall walks a
 * long exit list. A record longer than a slot (a path of thousands of
 * characters, hex-encoded) is cut short and counts as lost.
 */
#define DRAIN_BATCH 16
#define DRAIN_SLOT 16384

void config_change_drain(int fd, struct config_changes *c)
{
	struct mmsghdr msg[DRAIN_BATCH];
	struct iovec iov[DRAIN_BATCH];
	char *buf = malloc((size_t)DRAIN_BATCH * DRAIN_SLOT);

	if (!buf) {
		c->lost = true;
		return;
	}
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
			c->lost = true;
			continue;
		}
		if (n <= 0)
			break;
		for (int i = 0; i < n; i++) {
			if (msg[i].msg_hdr.msg_flags & MSG_TRUNC)
				c->lost = true;
			else
				config_change_datagram(buf + (size_t)i * DRAIN_SLOT, msg[i].msg_len,
						       c);
		}
		if (n < DRAIN_BATCH)
			break;
	}
	free(buf);
}
