// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>
#include <libaudit.h>
#include "audit/kernel_tables.h"
#include "audit/syscalls.h"
#include "model/whatif_masks.h"

/*
 * Numbers the table in use has no name for are newer than it: a class of
 * the running kernel may hold them, so they stay in the mask. Every arch
 * numbers its syscalls below UNNAMED_LIMIT (x32's carry a high bit and
 * are past the mask).
 */
#define UNNAMED_LIMIT 512

static void set_unnamed(syscall_mask m, int machine)
{
	for (unsigned int nr = 0; nr < UNNAMED_LIMIT; nr++)
		if (!kernel_syscall_name(nr, machine))
			mask_set(m, nr);
}

/*
 * audit_match_perm() for one arch: which syscalls can pass perm=`perm`.
 * The classes come from the running kernel where BPF read them, else from
 * the kernel table in use; the syscalls audit_classify_syscall() sends to
 * its open, execve and socketcall cases are code, not data: tables only.
 */
void perm_syscalls(unsigned int perm, int machine, bool compat, const struct kernel_classes *kc,
		   syscall_mask m)
{
	static const struct {
		unsigned int perm, class;
		enum kernel_class_list list;
	} classes[] = {
		{ AUDIT_PERM_WRITE, AUDIT_CLASS_WRITE, KCLASS_WRITE },
		{ AUDIT_PERM_READ, AUDIT_CLASS_READ, KCLASS_READ },
		{ AUDIT_PERM_ATTR, AUDIT_CLASS_CHATTR, KCLASS_CHATTR },
	};

	if (!kc)
		set_unnamed(m, machine);
	for (size_t i = 0; i < sizeof(classes) / sizeof(classes[0]); i++) {
		if (!(perm & classes[i].perm))
			continue;
		if (kc)
			mask_or(m, kc->mask[classes[i].class + compat]);
		else
			kernel_class_mask(classes[i].list, machine, m);
	}
	/* Open flags give MAY_READ and MAY_WRITE only (ACC_MODE()). */
	if (perm & (AUDIT_PERM_READ | AUDIT_PERM_WRITE)) {
		kernel_class_mask(KCLASS_OPEN, machine, m);
		kernel_class_mask(KCLASS_OPENAT, machine, m);
		kernel_class_mask(KCLASS_OPENAT2, machine, m);
	}
	if (perm & AUDIT_PERM_EXEC)
		kernel_class_mask(KCLASS_EXECVE, machine, m);
	if (perm & AUDIT_PERM_WRITE)
		kernel_class_mask(KCLASS_SOCKETCALL, machine, m);
}

/*
 * This machine's AUDIT_ARCH and, on a biarch machine (x86_64 with i386,
 * aarch64 with arm), its compat one: the arches the counters' slots have.
 */
void whatif_arches(__u32 elf[NR_ARCHES])
{
	for (int a = 0; a < NR_ARCHES; a++) {
		int machine = arch_machine(a);

		elf[a] = machine >= 0 ? audit_machine_to_elf(machine) : 0;
	}
}

/*
 * Whether rule r counts in arch a's masks, as patches/KVER-archperm has it:
 * an arch= rule in the masks of the arch audit_classify_arch() sorts it to
 * (the compat one's, else the native one's), any other rule in both.
 */
static bool rule_counts_in_arch(const struct audit_rule *r, const __u32 elf[NR_ARCHES], int a)
{
	bool compat;

	if (!elf[a])
		return false;
	if (!r->arch_elf)
		return true;
	compat = elf[ARCH_COMPAT] && r->arch_elf == elf[ARCH_COMPAT];
	return a == (compat ? ARCH_COMPAT : ARCH_NATIVE);
}

void rule_arch_perm_mask(const struct audit_rule *r, const struct kernel_classes *kc, int a,
			 syscall_mask out)
{
	__u32 elf[NR_ARCHES];

	memset(out, 0, sizeof(syscall_mask));
	whatif_arches(elf);
	if (!rule_counts_in_arch(r, elf, a))
		return;
	if (r->perm && mask_is_full(r->mask))
		perm_syscalls(r->perm, audit_elf_to_machine(elf[a]), a == ARCH_COMPAT, kc, out);
	else
		memcpy(out, r->mask, sizeof(syscall_mask));
}

void rule_perm_mask(const struct audit_rule *r, const struct kernel_classes *kc, syscall_mask out)
{
	syscall_mask arch;

	memset(out, 0, sizeof(syscall_mask));
	for (int a = 0; a < NR_ARCHES; a++) {
		rule_arch_perm_mask(r, kc, a, arch);
		mask_or(out, arch);
	}
}

void whatif_build(const struct ruleset *rs, const struct kernel_classes *kc, struct whatif_masks *w)
{
	size_t exit_numbered = 0;

	memset(w, 0, sizeof(*w));
	whatif_arches(w->arch_elf);
	for (size_t i = 0; i < rs->n; i++) {
		const struct audit_rule *r = &rs->rules[i];
		syscall_mask narrowed;

		if (r->list != AUDIT_FILTER_EXIT)
			continue;
		exit_numbered++;
		for (int a = 0; a < NR_ARCHES; a++) {
			rule_arch_perm_mask(r, kc, a, narrowed);
			mask_or(w->entry_mask[a], narrowed);
			if (!rule_on_exit_list(r))
				continue;
			mask_or(w->perm_mask[a], narrowed);
			if (w->arch_elf[a] && (!r->arch_elf || r->arch_elf == w->arch_elf[a]))
				mask_or(w->arch_mask[a], r->mask);
		}
	}
	/* A task or io_uring rule needs every context whole. */
	if (ruleset_counted_rules(rs) != exit_numbered)
		memset(w->entry_mask, 0xff, sizeof(w->entry_mask));
}

bool whatif_differs(const struct ruleset *rs, const struct whatif_masks *w)
{
	syscall_mask all;

	ruleset_exit_mask(rs, -1, all);
	for (int a = 0; a < NR_ARCHES; a++)
		if (w->arch_elf[a] &&
		    (!mask_equal(w->arch_mask[a], all) || !mask_equal(w->perm_mask[a], all) ||
		     !mask_is_full(w->entry_mask[a])))
			return true;
	return false;
}

const struct kernel_classes *kernel_classes_valid(const struct kernel_classes *kc)
{
	int native = audit_detect_machine();

	/*
	 * The symbol is only named classes: check it holds audit's, by a
	 * member of each that every arch has (asm-generic/audit_read.h,
	 * audit_write.h, audit_change_attr.h; read(2) and write(2) are in no
	 * class, and arm64 has no rename(2) or chmod(2)).
	 */
	if (!kc || !kc->read ||
	    !mask_test(kc->mask[AUDIT_CLASS_READ], audit_name_to_syscall("getxattr", native)) ||
	    !mask_test(kc->mask[AUDIT_CLASS_WRITE], audit_name_to_syscall("ftruncate", native)) ||
	    !mask_test(kc->mask[AUDIT_CLASS_CHATTR], audit_name_to_syscall("fchmod", native)))
		return NULL;
	return kc;
}

const char *whatif_perm_classes(const struct kernel_classes *kc)
{
	static char from[96];

	if (kc)
		return "classes read from the running kernel";
	snprintf(from, sizeof(from), "classes of Linux %s's table; numbers it cannot name kept",
		 kernel_tables_version());
	return from;
}
