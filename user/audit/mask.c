// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>
#include "audit/mask.h"

bool mask_test(const syscall_mask m, unsigned int nr)
{
	return mask_bit(m, nr);
}

void mask_set(syscall_mask m, unsigned int nr)
{
	if (nr < MASK_BITS)
		m[nr / 32] |= 1U << (nr % 32);
}

void mask_or(syscall_mask dst, const syscall_mask src)
{
	for (int i = 0; i < MASK_WORDS; i++)
		dst[i] |= src[i];
}

void mask_and(syscall_mask dst, const syscall_mask src)
{
	for (int i = 0; i < MASK_WORDS; i++)
		dst[i] &= src[i];
}

unsigned int mask_count(const syscall_mask m)
{
	unsigned int n = 0;

	for (int i = 0; i < MASK_WORDS; i++)
		n += __builtin_popcount(m[i]);
	return n;
}

bool mask_equal(const syscall_mask a, const syscall_mask b)
{
	return memcmp(a, b, sizeof(syscall_mask)) == 0;
}

bool mask_is_full(const syscall_mask m)
{
	for (unsigned int nr = 0; nr < MASK_SYSCALL_BITS; nr++)
		if (!mask_test(m, nr))
			return false;
	return true;
}

void mask_to_hex(const syscall_mask m, char *buf)
{
	for (int i = 0; i < MASK_WORDS; i++)
		snprintf(buf + i * 8, 9, "%08x", m[i]);
}
