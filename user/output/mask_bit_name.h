/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The bits of the patch's mask, which is arch-blind: bit 5 stands for
 * x86_64's fstat and i386's open alike. The reports name a bit from both
 * tables and count a number once.
 */
#ifndef __MASK_BIT_NAME_H
#define __MASK_BIT_NAME_H

#include <stdbool.h>
#include <stdio.h>

/* Whether the native or the compat table names syscall number nr. */
bool mask_bit_named(unsigned int nr);
/*
 * "getpid" when one name fits (the tables agree, or only the native one
 * names it); "nr 5 (x86_64 fstat, i386 open)" when they differ, "nr 7 (i386
 * waitpid)" when only the compat one names it; "nr 463" when neither does.
 */
void mask_bit_name(unsigned int nr, char *buf, size_t size);
/* Says, once a report, what its counts of syscalls count. */
void print_syscall_count_note(FILE *out);

#endif /* __MASK_BIT_NAME_H */
