/* SPDX-License-Identifier: GPL-2.0 */
/* Syscall and arch names from libaudit's tables. */
#ifndef __SYSCALLS_H
#define __SYSCALLS_H

#include <stddef.h>
#include "auditskip.h"

/* machine: a libaudit MACH_* value, or -1 for this machine's own. */
void syscall_name(unsigned int nr, int machine, char *buf, size_t size);
/*
 * nr's name on `machine` in the table every count of syscalls uses: the
 * kernel table in use (kernel_tables.h) where it covers the arch, else
 * libaudit's; NULL where it names none. Counted through this alone, a set
 * has one number of syscalls per arch in every command.
 */
const char *syscall_table_name(unsigned int nr, int machine);
/* The libaudit MACH_* of a counters' arch: this machine's, or its compat one (-1: none). */
int arch_machine(enum slot_arch arch);
/* "x86_64", "i386", ...: the name audit gives the arch. */
const char *arch_name(enum slot_arch arch);
/* A slot's syscall, named from its own arch's table. */
void slot_name(enum slot_arch arch, unsigned int nr, char *buf, size_t size);

#endif /* __SYSCALLS_H */
