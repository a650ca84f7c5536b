/* SPDX-License-Identifier: GPL-2.0 */
/* What the loader learns about the running kernel and audit. */
#ifndef __SYSINFO_H
#define __SYSINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

struct audit_status_info {
	bool enabled;
	__u32 auditd_pid; /* 0 when no auditd is registered */
	__u32 lost;	  /* records audit dropped since boot (backlog, rate limit) */
	__u32 backlog;	  /* records queued for kauditd to send */
};

void kernel_release(char *buf, size_t size);
/* Whether the running kernel's release is at least MAJOR.MINOR (false when unreadable). */
bool kernel_at_least(int major, int minor);
/*
 * Whether the running kernel was built with OPTION=y ("CONFIG_KALLSYMS_ALL"):
 * 1 or 0 from /proc/config.gz or /boot/config-RELEASE, -1 when neither is there.
 */
int kernel_config(const char *option);
/*
 * The addresses of `n` symbols in one pass, 0 for each one not listed (no
 * data symbols without KALLSYMS_ALL, zeros without CAP_SYSLOG). 0, or a
 * negative errno when /proc/kallsyms cannot be read.
 */
int kallsyms_lookup(const char *const *names, __u64 *addrs, size_t n);
/* AUDIT_GET; 0 or a negative errno (-EPROTONOSUPPORT: audit not built in). */
int audit_status_read(struct audit_status_info *st);
/*
 * Each CPU's idle time so far (idle and iowait, /proc/stat), seconds, into
 * idle_s[0..ncpu) (0 for a CPU not listed: offline); 0 or -errno.
 */
int cpu_idle_read(double *idle_s, int ncpu);
/*
 * NULL when the process may read audit's status and rules (and, with
 * `bpf_too`, load BPF), else what is missing.
 */
const char *missing_privilege(bool bpf_too);

#endif /* __SYSINFO_H */
