// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <libaudit.h>
#include "syscalls.h"
#include "auditskip.h"

static int native_machine(void)
{
	static int native = -2;

	if (native == -2)
		native = audit_detect_machine();
	return native;
}

void fork_syscalls(long nrs[FORK_NRS])
{
	static const char *const names[FORK_NRS] = { "clone", "clone3", "fork", "vfork" };

	for (int i = 0; i < FORK_NRS; i++) {
		int nr = native_machine() >= 0 ? audit_name_to_syscall(names[i], native_machine()) : -1;

		nrs[i] = nr >= 0 ? nr : -1;
	}
}

void syscall_name(unsigned int nr, int machine, char *buf, size_t size)
{
	const char *name;

	if (nr == SLOT_OUT_OF_RANGE) {
		snprintf(buf, size, "out-of-range");
		return;
	}
	if (machine < 0)
		machine = native_machine();
	name = machine >= 0 ? audit_syscall_to_name(nr, machine) : NULL;
	if (name)
		snprintf(buf, size, "%s", name);
	else
		snprintf(buf, size, "syscall_%u", nr);
}
