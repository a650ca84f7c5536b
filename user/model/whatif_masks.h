/* SPDX-License-Identifier: GPL-2.0 */
/* Sharper aggregate masks than the patch's, to say what more they would skip. */
#ifndef __WHATIF_MASKS_H
#define __WHATIF_MASKS_H

#include "auditskip.h"
#include "audit/ruleset.h"

/*
 * The syscalls of arch a (ARCH_NATIVE, ARCH_COMPAT) a rule can match, as
 * patches/KVER-archperm counts them: none when its arch= names the other
 * one; its own mask; or for a rule with a perm= field and every syscall
 * bit, only those audit_match_perm() can accept with some arguments.
 */
void rule_arch_perm_mask(const struct audit_rule *r, const struct kernel_classes *kc, int a,
			 syscall_mask out);
/* The same over both arches. */
void rule_perm_mask(const struct audit_rule *r, const struct kernel_classes *kc, syscall_mask out);
/*
 * ORs into `m` the syscalls of arch `machine` (compat: this machine's compat
 * arch) that can pass perm=`perm` in audit_match_perm(): the classes of
 * `kc`, else those of the kernel table in use and every number it cannot
 * name; and the syscalls audit_classify_syscall() checks by open flags, as
 * execve or as bind.
 */
void perm_syscalls(unsigned int perm, int machine, bool compat, const struct kernel_classes *kc,
		   syscall_mask m);
/* This machine's AUDIT_ARCH and its compat one (0: none), in slot order. */
void whatif_arches(__u32 elf[NR_ARCHES]);
/* The masks of struct whatif_masks from the rules rs; kc NULL: the tables' classes. */
void whatif_build(const struct ruleset *rs, const struct kernel_classes *kc,
		  struct whatif_masks *w);
/* kc if it holds audit's classes as BPF read them, else NULL. */
const struct kernel_classes *kernel_classes_valid(const struct kernel_classes *kc);
/* Whether an exit mask differs from the patch's or the entry mask can skip: else BPF need not look.
 */
bool whatif_differs(const struct ruleset *rs, const struct whatif_masks *w);
/* Where the perm-narrowed mask's syscall classes come from, for the report. */
const char *whatif_perm_classes(const struct kernel_classes *kc);

#endif /* __WHATIF_MASKS_H */
