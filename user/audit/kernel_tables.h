/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Syscall numbers and audit's permission classes as released kernels build
 * them (kernel_tables_data.h, generated from their sources), for rules read
 * from a file: libaudit's own tables stop at its release (3.0.9 has no
 * fchmodat2), the kernel's do not. One table is in use at a time: by
 * default the one nearest the running kernel, else the one chosen with
 * --kernel.
 */
#ifndef __KERNEL_TABLES_H
#define __KERNEL_TABLES_H

#include <stdbool.h>
#include <linux/types.h>

/* The lists kernel_class_mask() fills a mask from. */
enum kernel_class_list {
	KCLASS_READ,
	KCLASS_WRITE,
	KCLASS_CHATTR,
	KCLASS_DIR_WRITE,
	KCLASS_SIGNAL,
	/* x86's audit_classify_syscall() cases: matched on open flags, as execve, as bind. */
	KCLASS_OPEN,
	KCLASS_OPENAT,
	KCLASS_OPENAT2,
	KCLASS_EXECVE,
	KCLASS_SOCKETCALL,
};

/*
 * Chooses the table for VERSION ("6.12", "6.12.118", "7.2"): the one of
 * that major.minor, else -1 (nothing changes). kernel_tables_versions()
 * lists the ones there are, for a message.
 */
int kernel_tables_choose(const char *version);
const char *kernel_tables_versions(void);
/* The version of the table in use, e.g. "6.12.118". */
const char *kernel_tables_version(void);
/* Of the versions there are, the nearest to RELEASE (a uname -r); -1 if RELEASE names none. */
int kernel_tables_nearest(const char *release);

/* machine: a libaudit MACH_*; -1 for a name or number the table's arch lacks, or an arch it has no
 * table for. */
int kernel_syscall_number(const char *name, int machine);
const char *kernel_syscall_name(unsigned int nr, int machine);
/*
 * NAME's number in any of the tables (syscall numbers are never reused),
 * and in *in_table whether the table in use has it: what an auditctl that
 * knows the name puts in a rule, whichever kernel it then runs on.
 */
int kernel_syscall_number_any(const char *name, int machine, bool *in_table);
/* Whether the tables cover MACHINE's arch at all. */
bool kernel_tables_have(int machine);
/* Sets in M the numbers, on MACHINE, of the syscalls in a class list of the table in use. */
void kernel_class_mask(enum kernel_class_list list, int machine, __u32 *m);

#endif /* __KERNEL_TABLES_H */
