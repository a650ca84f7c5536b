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

/* Where the classes narrowing perm= rules come from. */
enum advise_classes {
	CLASSES_NONE,	/* nowhere: perm= rules are kept */
	CLASSES_KERNEL, /* read from the running kernel with BPF */
	CLASSES_TABLE,	/* the kernel table in use (audit/kernel_tables.h) */
};

struct advice {
	struct rule_advice *rules; /* one per rule of the set, in its order */
	size_t n;
	syscall_mask before, after; /* the aggregate exit mask as loaded and as rewritten */
	size_t exit_rules_before, exit_rules_after;
	enum advise_classes classes; /* where the perm= rewrites' classes come from */
};

/*
 * kc: the permission classes, `from` where (CLASSES_KERNEL or
 * CLASSES_TABLE); NULL and CLASSES_NONE leave every perm= rule as it is.
 * 0 or -ENOMEM.
 */
int advise_build(const struct ruleset *rs, const struct kernel_classes *kc,
		 enum advise_classes from, struct advice *a);
/* Where the perm= rewrites' classes come from: "kernel", "table" or "unreadable". */
const char *advise_classes_key(const struct advice *a);
/* The same in words. */
const char *advise_classes_from(const struct advice *a);
void advise_free(struct advice *a);
/* The rewritten set as a file for `auditctl -R`; 0, or -EINVAL after a message. */
int advise_write_rules(FILE *out, const struct ruleset *rs, const struct advice *a,
		       const char *source);
void advise_report(FILE *out, const struct ruleset *rs, const struct advice *a, bool json);

#endif /* __ADVISE_H */
