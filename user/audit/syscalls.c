// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <libaudit.h>
#include "audit/kernel_tables.h"
#include "audit/syscalls.h"

static int native_machine(void)
{
	static int native = -2;

	if (native == -2)
		native = audit_detect_machine();
	return native;
}

int arch_machine(enum slot_arch arch)
{
	int native = native_machine();

	if (arch == ARCH_NATIVE)
		return native;
	return native == MACH_86_64 ? MACH_X86 : native == MACH_AARCH64 ? MACH_ARM : -1;
}

const char *arch_name(enum slot_arch arch)
{
	int machine = arch_machine(arch);
	const char *name = machine >= 0 ? audit_machine_to_name(machine) : NULL;

	return name ? name : arch == ARCH_NATIVE ? "native" : "compat";
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
	/* Newer than libaudit's table: the kernel's own may name it. */
	if (!name && machine >= 0)
		name = kernel_syscall_name(nr, machine);
	if (name)
		snprintf(buf, size, "%s", name);
	else
		snprintf(buf, size, "syscall_%u", nr);
}

const char *syscall_table_name(unsigned int nr, int machine)
{
	if (machine < 0)
		return NULL;
	return kernel_tables_have(machine) ? kernel_syscall_name(nr, machine) :
					     audit_syscall_to_name(nr, machine);
}

void slot_name(enum slot_arch arch, unsigned int nr, char *buf, size_t size)
{
	int machine = arch_machine(arch);

	if (arch != ARCH_NATIVE && machine < 0) {
		snprintf(buf, size, "compat_%u", nr);
		return;
	}
	syscall_name(nr, machine, buf, size);
}
