/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stale audit_n_rules (the series' first fix): the verdict, and in
 * tracepoint mode, where the counter cannot be read, the evidence it rests on.
 */
#ifndef __STALE_H
#define __STALE_H

#include <stdbool.h>
#include <linux/types.h>
#include "auditskip.h"

enum stale_verdict {
	STALE_UNKNOWN,
	STALE_NO,
	STALE_YES
};

/* A time between two listings that found no rule that counts. */
struct stale_interval {
	double from_s;	      /* wall clock: the listing that began it */
	double to_s;	      /* the listing that ended it */
	double last_change_s; /* the last rule change heard before it, 0: none */
	__u64 walks;	      /* syscalls that entered in it and walked */
	__u64 proofs;	      /* of them, syscalls that log no record */
	unsigned int nlog;
	struct stale_walk log[STALE_LOG];
	double seen_s[STALE_LOG]; /* wall clock when each logged walk was counted */
};

struct stale_report {
	enum stale_verdict verdict;
	const char *reason;	    /* what the verdict rests on, or why it is unknown */
	__u64 syscalls;		    /* non-dummy syscalls while no rule needed a context */
	int kernel_n_rules;	    /* audit_n_rules, -1 where it cannot be read */
	unsigned int counted_rules; /* rules that should make up audit_n_rules */
	bool has_evidence;	    /* `evidence` shows what a "yes" rests on */
	struct stale_interval evidence;
};

/* What one ended interval showed (tracepoint mode, see note_ruleless()). */
enum stale_finding {
	STALE_FINDING_VOID,	/* a rule change in it, or rules at its end: proves nothing */
	STALE_FINDING_SILENT,	/* no audited syscall entered in it */
	STALE_FINDING_CLEAN,	/* a dummy context: audit_n_rules was 0 */
	STALE_FINDING_STALE,	/* a syscall that logs no record walked */
	STALE_FINDING_CONFLICT, /* both, which the kernel's code does not allow */
};

/* `undisturbed`: it ended with no rule that counts, and no rule change was heard in it. */
enum stale_finding stale_finding(const struct stale_tally *t, bool undisturbed);

/* Before any interval has ended. */
void stale_start(struct stale_report *st);

/*
 * Folds one ended interval into the verdict: "yes" on proof, with the
 * interval as its evidence; "no" on a dummy context, which also withdraws
 * an earlier "yes" (a stale count never goes away before a reboot).
 */
void stale_learn(struct stale_report *st, enum stale_finding f, const struct stale_interval *iv);

/* Rules that count are loaded: no interval can show anything until they go. */
void stale_rules_loaded(struct stale_report *st);

/* "yes", "no", "unknown". */
const char *stale_name(enum stale_verdict v);

#endif /* __STALE_H */
