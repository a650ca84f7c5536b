/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Audit's netlink socket: requests to the kernel and their replies. Every
 * wait for a reply is bounded, so a kernel that never answers cannot hang
 * the caller.
 */
#ifndef __AUDITNL_H
#define __AUDITNL_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/audit.h>
#include <linux/netlink.h>

/* How long a request waits for each of its replies before -ETIMEDOUT. */
#define AUDITNL_TIMEOUT_MS 2000

/* A NETLINK_AUDIT socket, or a negative errno (-EPROTONOSUPPORT: no audit). */
int auditnl_open(void);
void auditnl_close(int fd);

/*
 * Called for each reply to the request that is not its acknowledgement or
 * NLMSG_DONE: a negative errno ends the wait with it, 1 ends it with 0 (the
 * awaited reply came), 0 waits for more.
 */
typedef int (*auditnl_reply_fn)(const struct nlmsghdr *nlh, void *arg);

/* Sends one request (NLM_F_ACK set); its sequence number, or a negative errno. */
int auditnl_send(int fd, __u16 type, const void *data, size_t len);
/*
 * The reply loop: reads the replies to request `seq` until the kernel's
 * refusal (its errno), the acknowledgement (when `fn` is NULL: no data
 * expected), NLMSG_DONE, or `fn` ending it. Replies to other requests are
 * dropped. -ETIMEDOUT when no reply to `seq` comes for `timeout_ms`.
 */
int auditnl_wait(int fd, __u32 seq, auditnl_reply_fn fn, void *arg, int timeout_ms);
/*
 * The replies to `seq` among the messages of one datagram from the kernel:
 * 1 done, 0 more to come, or a negative errno (-EPROTO: malformed).
 * `answered` becomes true when one of them was a reply to `seq`.
 */
int auditnl_handle_datagram(const void *data, size_t len, __u32 seq, auditnl_reply_fn fn, void *arg,
			    bool *answered);
/* auditnl_send() then auditnl_wait() with AUDITNL_TIMEOUT_MS. */
int auditnl_request(int fd, __u16 type, const void *data, size_t len, auditnl_reply_fn fn,
		    void *arg);

/* AUDIT_GET, zero-filled past what the kernel sends. 0 or a negative errno. */
int auditnl_get_status(int fd, struct audit_status *st);
/* AUDIT_SET of the enabled flag (0 or 1). 0 or a negative errno. */
int auditnl_set_enabled(int fd, unsigned int enabled);

/*
 * Called for each AUDIT_LIST_RULES record; `len` is the record's length,
 * at least sizeof(*d) + d->buflen. 0 or a negative errno, which ends the
 * listing with it.
 */
typedef int (*auditnl_rule_fn)(const struct audit_rule_data *d, size_t len, void *arg);
/* Every rule, in the kernel's order (list by list, each in filter order). */
struct auditnl_rule_walk {
	auditnl_rule_fn fn;
	void *arg;
};
/* The auditnl_reply_fn of a listing: `arg` is a struct auditnl_rule_walk. */
int auditnl_rule_reply(const struct nlmsghdr *nlh, void *arg);
int auditnl_list_rules(int fd, auditnl_rule_fn fn, void *arg);
/* AUDIT_ADD_RULE / AUDIT_DEL_RULE of one record as the listing gives it. */
int auditnl_add_rule(int fd, const struct audit_rule_data *d);
int auditnl_delete_rule(int fd, const struct audit_rule_data *d);

/* ------------------------------------------------- the log multicast group --- */

/*
 * Called for each record read from the log multicast group: its type and
 * its text (`len` bytes, not NUL-terminated).
 */
typedef void (*auditnl_record_fn)(__u16 type, const char *text, size_t len, void *arg);

/*
 * A non-blocking socket on audit's log multicast group that receives only
 * records of `type` (a socket filter drops the rest in the kernel), or a
 * negative errno. `rcvbuf`: its receive buffer in bytes, 0 for the default.
 */
int auditnl_log_open(__u16 type, int rcvbuf);
/*
 * The records of one datagram from the group, in order, to `fn`: 0, or
 * -EPROTO when a message is malformed (the records before it were handed on).
 */
int auditnl_log_datagram(const void *data, size_t len, auditnl_record_fn fn, void *arg);
/*
 * Reads every datagram queued on `fd` and hands its records to `fn`: 0, or
 * -ENOBUFS when records were lost on the way (dropped by a full socket,
 * cut short, malformed, or left unread for want of memory).
 */
int auditnl_log_drain(int fd, auditnl_record_fn fn, void *arg);

#endif /* __AUDITNL_H */
