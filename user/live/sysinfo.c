// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>
#include <zlib.h>
#include <cap-ng.h>
#include "audit/auditnl.h"
#include "live/sysinfo.h"

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
#ifndef CAP_BPF
#define CAP_BPF 39
#endif

void kernel_release(char *buf, size_t size)
{
	struct utsname u;

	snprintf(buf, size, "%s", uname(&u) ? "unknown" : u.release);
}

bool kernel_at_least(int major, int minor)
{
	char release[65];
	int ma, mi;

	kernel_release(release, sizeof(release));
	if (sscanf(release, "%d.%d", &ma, &mi) != 2)
		return false;
	return ma > major || (ma == major && mi >= minor);
}

int kernel_config(const char *option)
{
	char path[320], line[256], release[256];
	size_t len = strlen(option);
	gzFile f = gzopen("/proc/config.gz", "r");
	int found = 0;

	if (!f) {
		kernel_release(release, sizeof(release));
		snprintf(path, sizeof(path), "/boot/config-%s", release);
		/* gzopen reads an uncompressed file as it is. */
		f = gzopen(path, "r");
	}
	if (!f)
		return -1;
	while (!found && gzgets(f, line, sizeof(line)))
		found = !strncmp(line, option, len) && !strcmp(line + len, "=y\n");
	gzclose(f);
	return found;
}

int kallsyms_lookup(const char *const *names, __u64 *addrs, size_t n)
{
	/*
	 * One pass for every symbol: /proc/kallsyms gives a page a read(),
	 * thousands of them, and each is a syscall the exit filter walks
	 * (10,000 rules deep on a large rule set).
	 */
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512], sym[256], type;
	unsigned long long a;
	size_t found = 0;

	for (size_t i = 0; i < n; i++)
		addrs[i] = 0;
	if (!f)
		return -errno;
	while (found < n && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &a, &type, sym) != 3)
			continue;
		for (size_t i = 0; i < n; i++) {
			/* Without CAP_SYSLOG or with kptr_restrict, every address reads 0. */
			if (!addrs[i] && a && !strcmp(sym, names[i])) {
				addrs[i] = a;
				found++;
			}
		}
	}
	fclose(f);
	return 0;
}

int audit_status_read(struct audit_status_info *st)
{
	struct audit_status s;
	int fd, err;

	fd = auditnl_open();
	if (fd < 0)
		return fd;
	err = auditnl_get_status(fd, &s);
	auditnl_close(fd);
	if (err)
		return err;
	st->enabled = s.enabled != 0;
	st->auditd_pid = s.pid;
	st->lost = s.lost;
	st->backlog = s.backlog;
	return 0;
}

const char *missing_privilege(bool bpf_too)
{
	bool bpf;

	if (capng_get_caps_process())
		return "cannot read this process's capabilities";
	bpf = capng_have_capability(CAPNG_EFFECTIVE, CAP_SYS_ADMIN) ||
	      (capng_have_capability(CAPNG_EFFECTIVE, CAP_BPF) &&
	       capng_have_capability(CAPNG_EFFECTIVE, CAP_PERFMON));
	if (bpf_too && !bpf)
		return "CAP_BPF and CAP_PERFMON (or CAP_SYS_ADMIN) to load BPF programs";
	/* audit_netlink_ok(): AUDIT_GET and AUDIT_LIST_RULES need it. */
	if (!capng_have_capability(CAPNG_EFFECTIVE, CAP_AUDIT_CONTROL))
		return "CAP_AUDIT_CONTROL to read audit's status and rules";
	return NULL;
}

int cpu_idle_read(double *idle_s, int ncpu)
{
	double tick = sysconf(_SC_CLK_TCK);
	unsigned long long user, nice, sys, idle, iowait;
	char line[512];
	FILE *f = fopen("/proc/stat", "r");
	int cpu;

	if (!f)
		return -errno;
	for (int c = 0; c < ncpu; c++)
		idle_s[c] = 0;
	while (fgets(line, sizeof(line), f))
		/* "cpuN ...": the "cpu " line is every CPU's sum. */
		if (!strncmp(line, "cpu", 3) && line[3] >= '0' && line[3] <= '9' &&
		    sscanf(line, "cpu%d %llu %llu %llu %llu %llu", &cpu, &user, &nice, &sys, &idle,
			   &iowait) == 6 &&
		    cpu >= 0 && cpu < ncpu)
			idle_s[cpu] = (idle + iowait) / (tick > 0 ? tick : 100);
	fclose(f);
	return 0;
}
