// SPDX-License-Identifier: GPL-2.0
/*
 * kauditd copies every record to the AUDIT_NLGRP_READLOG multicast group
 * (kauditd_send_multicast_skb()), auditd or not. Rule changes, including
 * the automatic removal of watch and tree rules, log AUDIT_CONFIG_CHANGE;
 * a socket filter drops everything else in the kernel, so a busy audit log
 * costs the loader nothing.
 */
#include <errno.h>
#include <stddef.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/netlink.h>
#include <sys/socket.h>
#include "notify.h"

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
