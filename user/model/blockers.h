/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fewest exit rules that keep the skip from firing. The skip fires for
 * a syscall whose bit no exit rule sets, so the rules to remove (or to
 * narrow, by dropping that syscall) for a syscall u are exactly C(u), the
 * rules whose mask holds u: the smallest set is the smallest C(u) over the
 * syscalls that exist. That is exact, with no search: any set that frees a
 * syscall u holds all of C(u). Full-mask rules are in every C(u), but a
 * union of narrower masks can cover every syscall too.
 */
#ifndef __BLOCKERS_H
#define __BLOCKERS_H

#include <stdbool.h>
#include <stddef.h>
#include "audit/ruleset.h"

enum blocker_mask {
	BLOCKERS_PATCH, /* the patch's arch-blind mask, every exit rule's own mask */
	BLOCKERS_ARCH,	/* one arch's mask: the rules that apply to it */
	BLOCKERS_PERM,	/* perm= rules narrowed to the syscalls they can match */
};

struct skip_blockers {
	enum blocker_mask kind;
	int arch;		/* BLOCKERS_ARCH: ARCH_NATIVE or ARCH_COMPAT */
	unsigned int syscalls;	/* syscalls that exist, the ones considered */
	unsigned int skippable; /* of those, the ones the skip fires for already */
	size_t *rules;		/* indices into the ruleset, none when skippable > 0 */
	size_t n;
	unsigned int freed;	 /* syscalls removing them lets skip */
	unsigned int example_nr; /* the lowest of them */
	syscall_mask without;	 /* the mask without them */
};

/* 0 or -ENOMEM; b->rules is freed with blockers_free(). arch is for BLOCKERS_ARCH. */
int blockers_find(const struct ruleset *rs, enum blocker_mask kind, int arch,
		  struct skip_blockers *b);
void blockers_free(struct skip_blockers *b);

#endif /* __BLOCKERS_H */
