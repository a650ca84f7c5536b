/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Least privilege after start-up: once the programs are attached, the port
 * is bound and audit's log group is joined, the counting loop keeps only
 * CAP_AUDIT_CONTROL (audit status and the rule list over netlink), and
 * CAP_BPF only on kernels whose bpf() wants it for every command.
 */
#ifndef __PRIVILEGES_H
#define __PRIVILEGES_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct run_as {
	const char *name; /* NULL: stay root (uid 0), with the same few capabilities */
	uid_t uid;
	gid_t gid;
};

/* Looks NAME up; 0, or -ENOENT with `err` filled. */
int run_as_lookup(const char *name, struct run_as *who, char *err, size_t err_size);

/*
 * A step of the loop that needs no capability but may on some kernels
 * (a read of a BPF map through an open fd): 0, or a negative errno.
 */
typedef int (*privilege_probe_fn)(void *arg);

/*
 * Drops every capability but those the loop needs (from all sets, the
 * bounding set too where CAP_SETPCAP allows), switches to `who` if it
 * names a user, and sets no_new_privs so no exec can give any back. Must
 * run before any thread is started: capabilities are per thread. `kept`
 * gets the names of what stays, e.g. "cap_audit_control". 0, or a
 * negative errno with `err` filled.
 */
int privileges_lower(const struct run_as *who, privilege_probe_fn probe, void *probe_arg,
		     char *kept, size_t kept_size, char *err, size_t err_size);

#endif /* __PRIVILEGES_H */
