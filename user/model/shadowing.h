/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Rules a never rule before them silences. The exit walk
 * (__audit_filter_op()) stops at the first entry whose mask has the
 * syscall's bit and whose fields pass, and audit_filter_rules() begins by
 * passing over every rule whose priority is not above the context's, which
 * a match raises to the matching rule's. Exit-list rules, watches and
 * path= rules take their priorities from one counter in list order
 * (audit_add_rule(): `-A` counts up from the middle, appending counts
 * down), so a never rule that matches ends the walk AND outranks every
 * later rule: later exit rules, and the watches and path= rules that
 * audit_filter_inodes() tries after the walk, make no record for that
 * syscall.
 *
 * A never rule whose only fields are arch= or arch!= (and key=, which
 * audit_filter_rules() ignores) matches every syscall of its mask on the
 * arches they pass; with no field, on every arch, by number. A later rule
 * is shadowed for a syscall S of arch A when such a rule before it has S
 * on A, and the later rule could otherwise match S on A: its mask has S,
 * its arch fields pass A, and with perm= (operator =) S is in its
 * permission classes (perm_syscalls()). Never rules with other fields are
 * conditional: they may shadow, when their fields pass.
 *
 * Left out: the io_uring exit list (its rules filter each op during the
 * syscall, not at its exit) and the other lists, whose rules take no
 * priority; and later never rules, whose silence an earlier one only
 * repeats.
 */
#ifndef __SHADOWING_H
#define __SHADOWING_H

#include <stdbool.h>
#include <stddef.h>
#include "auditskip.h"
#include "audit/ruleset.h"

/* The syscalls of one arch whose walk one never rule is the first to end. */
struct shadow_by {
	size_t never; /* the never rule: its index in the ruleset */
	syscall_mask syscalls;
	unsigned int count;
};

/* A shadowed rule on one arch. */
struct shadow_arch {
	syscall_mask syscalls;	/* shadowed: it could match them, a never rule first */
	unsigned int count;	/* bits in syscalls */
	unsigned int can_match; /* syscalls of the arch it could otherwise match */
	struct shadow_by *by;	/* the never rules that end those walks, in list order */
	size_t nby;
};

struct shadowed_rule {
	size_t rule; /* its index in the ruleset */
	/* Every syscall it could match, on every arch, is shadowed (with `may`: or may be). */
	bool wholly;
	struct shadow_arch arch[NR_ARCHES]; /* by slot: ARCH_NATIVE, ARCH_COMPAT */
};

struct shadowing {
	__u32 arch_elf[NR_ARCHES]; /* this machine's arches, 0: none */
	/* Shadowed by an unconditional never rule before them, in list order. */
	struct shadowed_rule *rules;
	size_t n;
	/*
	 * The syscalls of the rest that a conditional never rule before them
	 * could match (its mask, arch fields and perm= allow it): silenced
	 * whenever its other fields pass.
	 */
	struct shadowed_rule *may;
	size_t nmay;
};

/*
 * The rules of `rs` shadowed by never rules before them; kc: permission
 * classes, NULL for the kernel table in use (as the what-if masks take
 * them). Syscalls are the numbers each arch's table names. 0 or -ENOMEM
 * (then `s` is empty); free with shadowing_free().
 */
int shadowing_find(const struct ruleset *rs, const struct kernel_classes *kc, struct shadowing *s);
void shadowing_free(struct shadowing *s);

/* Of the shadowed rules, how many are wholly so. */
size_t shadowing_wholly(const struct shadowing *s);

#endif /* __SHADOWING_H */
