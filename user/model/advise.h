/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The rule advisor: for each exit rule whose syscall bits include some
 * that can never change its decision, an equivalent rewrite with fewer
 * (perm= rules narrowed to the syscalls of their permission classes, split
 * by arch where they name none); rules that can never match are dropped;
 * every other rule is kept as it is, with the reason.
 */
#ifndef __ADVISE_H
#define __ADVISE_H

#include <stdbool.h>
#include <stdio.h>
#include "audit/ruleset.h"

enum advice_kind {
	ADVICE_KEEP,   /* written as it is */
	ADVICE_NARROW, /* written with fewer syscall bits, once per arch it names or applies to */
	ADVICE_DROP,   /* never matches: left out */
};

struct advice_part {
	__u32 arch_elf; /* the arch= field written first, 0: the rule's own fields only */
	syscall_mask mask;
};

struct rule_advice {
	enum advice_kind kind;
	int nparts; /* rules written for it */
	struct advice_part part[NR_ARCHES];
	char reason[256];
};

struct advice {
	struct rule_advice *rules; /* one per rule of the set, in its order */
	size_t n;
	syscall_mask before, after; /* the aggregate exit mask as loaded and as rewritten */
	size_t exit_rules_before, exit_rules_after;
	bool classes_read; /* the perm= rewrites use the running kernel's classes */
};

/*
 * kc: the permission classes read from the running kernel, or NULL, which
 * leaves every perm= rule as it is (a table may be older than the kernel).
 * 0 or -ENOMEM.
 */
int advise_build(const struct ruleset *rs, const struct kernel_classes *kc, struct advice *a);
void advise_free(struct advice *a);
/* The rewritten set as a file for `auditctl -R`; 0, or -EINVAL after a message. */
int advise_write_rules(FILE *out, const struct ruleset *rs, const struct advice *a,
		       const char *source);
void advise_report(FILE *out, const struct ruleset *rs, const struct advice *a, bool json);

#endif /* __ADVISE_H */
