// SPDX-License-Identifier: GPL-2.0
/*
 * What the counting loop needs, measured on 6.18 and read in the kernel:
 *
 * - CAP_AUDIT_CONTROL: every resync sends AUDIT_GET and AUDIT_LIST_RULES,
 *   and audit_netlink_ok() refuses both without it (netlink_capable()
 *   checks the sender and the socket's opener, and each request opens its
 *   own socket).
 * - Not CAP_AUDIT_READ: audit_multicast_bind() checks it when the socket
 *   joins the log group, which happens before the drop; records reach a
 *   joined socket without any check.
 * - Not CAP_BPF, CAP_PERFMON, CAP_SYS_ADMIN: the programs stay attached
 *   through their links, and reading or updating a map through an fd the
 *   process holds is checked against the fd's mode only. Kernels before
 *   5.19 with kernel.unprivileged_bpf_disabled set refuse every bpf()
 *   command without CAP_BPF (CAP_SYS_ADMIN before 5.8); rather than trust
 *   a version number, the caller's probe (a map read) is tried without
 *   them first and one is kept only if the read fails without it.
 * - Not CAP_SYSLOG: /proc/kallsyms is read once, at start.
 * - Nothing for --metrics-textfile: the file is written as the process's
 *   own user, so its directory must let that user write.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <cap-ng.h>
#include <linux/capability.h>
#include <linux/types.h>
#include "live/privileges.h"

#ifndef CAP_BPF
#define CAP_BPF 39
#endif

int run_as_lookup(const char *name, struct run_as *who, char *err, size_t err_size)
{
	struct passwd pw, *found = NULL;
	char buf[4096];
	int rc = getpwnam_r(name, &pw, buf, sizeof(buf), &found);

	if (rc || !found) {
		snprintf(err, err_size, "no user '%s'%s%s", name, rc ? ": " : "",
			 rc ? strerror(rc) : "");
		return -ENOENT;
	}
	*who = (struct run_as){ .name = name, .uid = pw.pw_uid, .gid = pw.pw_gid };
	return 0;
}

static __u64 bit(int cap)
{
	return cap >= 0 ? 1ULL << cap : 0;
}

/* The process's permitted set, as a bit mask. */
static __u64 permitted_now(void)
{
	__u64 m = 0;

	if (capng_get_caps_process())
		return 0;
	for (int c = 0; c < 64; c++)
		if (capng_have_capability(CAPNG_PERMITTED, c))
			m |= bit(c);
	return m;
}

/* Sets permitted and effective (inheritable cleared); effective must be within permitted. */
static int apply_caps(__u64 permitted, __u64 effective)
{
	capng_clear(CAPNG_SELECT_CAPS);
	for (int c = 0; c < 64; c++) {
		if (permitted & bit(c))
			capng_update(CAPNG_ADD, CAPNG_PERMITTED, c);
		if (effective & bit(c))
			capng_update(CAPNG_ADD, CAPNG_EFFECTIVE, c);
	}
	return capng_apply(CAPNG_SELECT_CAPS) ? -EPERM : 0;
}

/*
 * The least of none, CAP_BPF or CAP_SYS_ADMIN with which the probe passes,
 * tried with only `base` and it in effect; -1 for none, -2 when none works.
 */
static int bpf_cap_needed(__u64 permitted, __u64 base, privilege_probe_fn probe, void *arg)
{
	static const int candidates[] = { -1, CAP_BPF, CAP_SYS_ADMIN };
	int found = -2;

	for (size_t i = 0; i < sizeof(candidates) / sizeof(candidates[0]); i++) {
		int c = candidates[i];

		if (c >= 0 && !(permitted & bit(c)))
			continue;
		if (apply_caps(permitted, base | bit(c)))
			break;
		if (!probe(arg)) {
			found = c;
			break;
		}
	}
	/* Back to everything permitted, for the steps below. */
	apply_caps(permitted, permitted);
	return found;
}

/* The bounding set down to `keep`; it takes CAP_SETPCAP, without which it stays as it is. */
static int drop_bounding(__u64 keep, bool *dropped)
{
	*dropped = false;
	if (capng_get_caps_process() || !capng_have_capability(CAPNG_EFFECTIVE, CAP_SETPCAP))
		return 0;
	for (int c = 0; c < 64 && prctl(PR_CAPBSET_READ, c, 0, 0, 0) >= 0; c++)
		if (!(keep & bit(c)) && prctl(PR_CAPBSET_DROP, c, 0, 0, 0))
			return -errno;
	*dropped = true;
	return 0;
}

/* Supplementary groups are the user's own, so a group can grant the textfile's directory. */
static int switch_user(const struct run_as *who)
{
	if (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) || initgroups(who->name, who->gid) ||
	    setresgid(who->gid, who->gid, who->gid) || setresuid(who->uid, who->uid, who->uid))
		return -errno;
	return prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0) ? -errno : 0;
}

static void cap_names(__u64 caps, char *out, size_t size)
{
	size_t len = 0;

	out[0] = '\0';
	for (int c = 0; c < 64; c++) {
		const char *name = caps & bit(c) ? capng_capability_to_name(c) : NULL;

		if (name && len < size)
			len += snprintf(out + len, size - len, "%scap_%s", len ? "," : "", name);
	}
}

int privileges_lower(const struct run_as *who, privilege_probe_fn probe, void *probe_arg,
		     char *kept, size_t kept_size, char *err, size_t err_size)
{
	__u64 permitted = permitted_now(), keep = bit(CAP_AUDIT_CONTROL);
	bool bounding_dropped;
	int bpf_cap, rc;

	if (!(permitted & keep)) {
		snprintf(err, err_size, "CAP_AUDIT_CONTROL is not permitted");
		return -EPERM;
	}
	bpf_cap = bpf_cap_needed(permitted, keep, probe, probe_arg);
	if (bpf_cap == -2) {
		snprintf(err, err_size,
			 "reading a BPF map fails even with CAP_BPF or CAP_SYS_ADMIN");
		return -EPERM;
	}
	keep |= bit(bpf_cap);
	rc = drop_bounding(keep, &bounding_dropped);
	if (rc) {
		snprintf(err, err_size, "cannot shrink the bounding set: %s", strerror(-rc));
		return rc;
	}
	if (who->name) {
		rc = switch_user(who);
		if (rc) {
			snprintf(err, err_size, "cannot switch to user %s (uid %u): %s", who->name,
				 (unsigned int)who->uid, strerror(-rc));
			return rc;
		}
	}
	rc = apply_caps(keep, keep);
	/* Ambient capabilities (4.3 and later) would survive an exec. */
	if (!rc && prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) && errno != EINVAL)
		rc = -errno;
	/* A root-owned process regains its bounding set at exec, unless no_new_privs. */
	if (!rc && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		rc = -errno;
	if (rc) {
		snprintf(err, err_size, "cannot drop capabilities: %s", strerror(-rc));
		return rc;
	}
	if (permitted_now() != keep) {
		snprintf(err, err_size, "capabilities still permitted after the drop");
		return -EPERM;
	}
	cap_names(keep, kept, kept_size);
	if (!bounding_dropped && kept_size > strlen(kept))
		snprintf(kept + strlen(kept), kept_size - strlen(kept),
			 " (bounding set left as given: no CAP_SETPCAP)");
	return 0;
}
