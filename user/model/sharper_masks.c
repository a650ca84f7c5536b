// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>
#include <libaudit.h>
#include "audit/kernel_tables.h"
#include "audit/syscalls.h"
#include "model/sharper_masks.h"

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

void rule_perm_mask(const struct audit_rule *r, const struct kernel_classes *kc, syscall_mask out)
{
	__u32 elf[2];

	if (!r->perm || !mask_is_full(r->mask)) {
		memcpy(out, r->mask, sizeof(syscall_mask));
		return;
	}
	memset(out, 0, sizeof(syscall_mask));
	whatif_arches(elf);
	for (int i = 0; i < 2; i++)
		if (elf[i] && (!r->arch_elf || r->arch_elf == elf[i]))
			perm_syscalls(r->perm, audit_elf_to_machine(elf[i]), i == ARCH_COMPAT, kc,
				      out);
}

void whatif_build(const struct ruleset *rs, const struct kernel_classes *kc, struct whatif_masks *w)
{
	memset(w, 0, sizeof(*w));
	whatif_arches(w->arch_elf);
	for (size_t i = 0; i < rs->n; i++) {
		const struct audit_rule *r = &rs->rules[i];
		syscall_mask narrowed;

		if (!rule_on_exit_list(r))
			continue;
		for (int a = 0; a < 2; a++)
			if (w->arch_elf[a] && (!r->arch_elf || r->arch_elf == w->arch_elf[a]))
				mask_or(w->arch_mask[a], r->mask);
		rule_perm_mask(r, kc, narrowed);
		mask_or(w->perm_mask, narrowed);
	}
}

bool whatif_differs(const struct ruleset *rs, const struct whatif_masks *w)
{
	syscall_mask all;

	ruleset_exit_mask(rs, -1, all);
	for (int a = 0; a < NR_ARCHES; a++)
		if (w->arch_elf[a] && !mask_equal(w->arch_mask[a], all))
			return true;
	return !mask_equal(w->perm_mask, all);
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
