/* SPDX-License-Identifier: GPL-2.0 */
/* Syscall names from libaudit's tables. */
#ifndef __SYSCALLS_H
#define __SYSCALLS_H

#include <stddef.h>
#include "auditskip.h"

/* machine: a libaudit MACH_* value, or -1 for this machine's own. */
void syscall_name(unsigned int nr, int machine, char *buf, size_t size);

/* This machine's numbers for clone, clone3, fork and vfork; -1 where absent. */
void fork_syscalls(long nrs[FORK_NRS]);

#endif /* __SYSCALLS_H */
