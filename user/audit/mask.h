/* SPDX-License-Identifier: GPL-2.0 */
/* Arithmetic on audit's 64 x 32-bit syscall masks. */
#ifndef __MASK_H
#define __MASK_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "auditskip.h"

/*
 * The kernel claims the top AUDIT_SYSCALL_CLASSES bits as class selectors
 * and clears them when it stores a rule (audit_to_entry_common()), so a
 * rule written without -S holds every bit below this one.
 */
#define MASK_SYSCALL_BITS (MASK_BITS - 16)

typedef __u32 syscall_mask[MASK_WORDS];

bool mask_test(const syscall_mask m, unsigned int nr);
void mask_set(syscall_mask m, unsigned int nr);
void mask_or(syscall_mask dst, const syscall_mask src);
void mask_and(syscall_mask dst, const syscall_mask src);
unsigned int mask_count(const syscall_mask m);
bool mask_equal(const syscall_mask a, const syscall_mask b);
/* Every syscall bit the kernel can store is set. */
bool mask_is_full(const syscall_mask m);
/* Lower-case hex, word 0 first, 8 digits a word; buf holds MASK_HEX_LEN + 1. */
#define MASK_HEX_LEN (MASK_WORDS * 8)
void mask_to_hex(const syscall_mask m, char *buf);

#endif /* __MASK_H */
