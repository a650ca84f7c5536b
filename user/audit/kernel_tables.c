// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <libaudit.h>
#include "audit/kernel_tables.h"
#include "audit/mask.h"

struct kernel_syscall {
	int nr;
	const char *name;
	unsigned int in; /* bit i: in kernel_versions[i] */
};

struct kernel_class_member {
	enum kernel_class_list list;
	const char *name;
	unsigned int in;
};

#include "audit/kernel_tables_data.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define NR_VERSIONS ((int)ARRAY_LEN(kernel_versions))

static int chosen = -1;

/* major * 1000 + minor of "MAJOR.MINOR..."; -1 if it does not start so. */
static int version_key(const char *v)
{
	int major, minor;

	return sscanf(v, "%d.%d", &major, &minor) == 2 ? major * 1000 + minor : -1;
}

/*
 * The table at or above RELEASE nearest to it, else the newest: classes
 * only gain members from one release to the next (6.13 put setxattrat in
 * the attr class), so a newer table's classes hold every syscall an older
 * kernel's do, while an older table's could miss some of a newer kernel's.
 */
int kernel_tables_nearest(const char *release)
{
	int want = version_key(release);

	if (want < 0)
		return -1;
	for (int i = 0; i < NR_VERSIONS; i++)
		if (version_key(kernel_versions[i]) >= want)
			return i;
	return NR_VERSIONS - 1;
}

static int table(void)
{
	struct utsname u;

	if (chosen < 0) {
		chosen = uname(&u) ? -1 : kernel_tables_nearest(u.release);
		if (chosen < 0)
			chosen = NR_VERSIONS - 1;
	}
	return chosen;
}

int kernel_tables_choose(const char *version)
{
	int want = version_key(version);

	for (int i = 0; want >= 0 && i < NR_VERSIONS; i++)
		if (version_key(kernel_versions[i]) == want) {
			chosen = i;
			return 0;
		}
	return -1;
}

const char *kernel_tables_versions(void)
{
	static char list[64];
	size_t at = 0;

	for (int i = 0; i < NR_VERSIONS && at < sizeof(list); i++) {
		int key = version_key(kernel_versions[i]);

		at += snprintf(list + at, sizeof(list) - at, "%s%d.%d", i ? ", " : "", key / 1000,
			       key % 1000);
	}
	return list;
}

const char *kernel_tables_version(void)
{
	return kernel_versions[table()];
}

static const struct kernel_syscall *arch_table(int machine, size_t *n)
{
	switch (machine) {
	case MACH_86_64:
		*n = ARRAY_LEN(syscalls_x86_64);
		return syscalls_x86_64;
	case MACH_X86:
		*n = ARRAY_LEN(syscalls_i386);
		return syscalls_i386;
	case MACH_AARCH64:
		*n = ARRAY_LEN(syscalls_aarch64);
		return syscalls_aarch64;
	case MACH_ARM:
		*n = ARRAY_LEN(syscalls_arm);
		return syscalls_arm;
	}
	*n = 0;
	return NULL;
}

bool kernel_tables_have(int machine)
{
	size_t n;

	return arch_table(machine, &n) != NULL;
}

int kernel_syscall_number(const char *name, int machine)
{
	size_t n;
	const struct kernel_syscall *t = arch_table(machine, &n);

	for (size_t i = 0; i < n; i++)
		if ((t[i].in & 1u << table()) && !strcmp(t[i].name, name))
			return t[i].nr;
	return -1;
}

int kernel_syscall_number_any(const char *name, int machine, bool *in_table)
{
	size_t n;
	const struct kernel_syscall *t = arch_table(machine, &n);

	for (size_t i = 0; i < n; i++)
		if (!strcmp(t[i].name, name)) {
			*in_table = t[i].in & 1u << table();
			return t[i].nr;
		}
	return -1;
}

const char *kernel_syscall_name(unsigned int nr, int machine)
{
	size_t n;
	const struct kernel_syscall *t = arch_table(machine, &n);

	for (size_t i = 0; i < n; i++)
		if ((t[i].in & 1u << table()) && t[i].nr == (int)nr)
			return t[i].name;
	return NULL;
}

void kernel_class_mask(enum kernel_class_list list, int machine, __u32 *m)
{
	for (size_t i = 0; i < ARRAY_LEN(class_members); i++) {
		int nr;

		if (class_members[i].list != list || !(class_members[i].in & 1u << table()))
			continue;
		/* A name this arch lacks is left out, like the kernel's #ifdef __NR_. */
		nr = kernel_syscall_number(class_members[i].name, machine);
		if (nr >= 0)
			mask_set(m, nr);
	}
}
