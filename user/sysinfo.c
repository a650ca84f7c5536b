// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <cap-ng.h>
#include "auditnl.h"
#include "sysinfo.h"

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

int kallsyms_lookup(const char *name, __u64 *addr)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512], sym[256], type;
	unsigned long long a;
	int err = -ENOENT;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &a, &type, sym) != 3 || strcmp(sym, name))
			continue;
		/* Without CAP_SYSLOG or with kptr_restrict, every address reads 0. */
		if (a) {
			*addr = a;
			err = 0;
		}
		break;
	}
	fclose(f);
	return err;
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

const char *missing_privilege(void)
{
	bool bpf;

	if (capng_get_caps_process())
		return "cannot read this process's capabilities";
	bpf = capng_have_capability(CAPNG_EFFECTIVE, CAP_SYS_ADMIN) ||
	      (capng_have_capability(CAPNG_EFFECTIVE, CAP_BPF) &&
	       capng_have_capability(CAPNG_EFFECTIVE, CAP_PERFMON));
	if (!bpf)
		return "CAP_BPF and CAP_PERFMON (or CAP_SYS_ADMIN) to load BPF programs";
	/* audit_netlink_ok(): AUDIT_GET and AUDIT_LIST_RULES need it. */
	if (!capng_have_capability(CAPNG_EFFECTIVE, CAP_AUDIT_CONTROL))
		return "CAP_AUDIT_CONTROL to read audit's status and rules";
	return NULL;
}
