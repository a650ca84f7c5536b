// SPDX-License-Identifier: GPL-2.0
/*
 * The staleness verdict without audit_n_rules. A walk of a syscall that logs
 * no record, between two listings that found no rule that counts and with no
 * rule change heard in between, can only come from a count left too high: it
 * is shown as the evidence. A dummy context in such an interval proves the
 * count was 0.
 */
#include <string.h>
#include "model/stale.h"

enum stale_finding stale_finding(const struct stale_tally *t, bool undisturbed)
{
	if (!undisturbed)
		return STALE_FINDING_VOID;
	if (t->dummy_seen && t->proofs)
		return STALE_FINDING_CONFLICT;
	if (t->dummy_seen)
		return STALE_FINDING_CLEAN;
	if (t->proofs)
		return STALE_FINDING_STALE;
	return STALE_FINDING_SILENT;
}

void stale_start(struct stale_report *st)
{
	st->verdict = STALE_UNKNOWN;
	st->reason = "no interval without rules that count has been watched to its end yet";
}

void stale_learn(struct stale_report *st, enum stale_finding f, const struct stale_interval *iv)
{
	switch (f) {
	case STALE_FINDING_CLEAN:
		st->verdict = STALE_NO;
		st->reason = "a syscall entered with a dummy context while no rule counted";
		st->syscalls = 0;
		st->has_evidence = false;
		break;
	case STALE_FINDING_STALE:
		st->verdict = STALE_YES;
		st->reason = "syscalls that log no record walked while no rule counted";
		st->syscalls += iv->walks;
		st->evidence = *iv;
		st->has_evidence = true;
		break;
	case STALE_FINDING_CONFLICT:
		st->verdict = STALE_UNKNOWN;
		st->reason =
			"one interval without rules showed dummy contexts and walks of syscalls that log no record";
		st->syscalls = 0;
		st->has_evidence = false;
		break;
	case STALE_FINDING_VOID:
	case STALE_FINDING_SILENT:
		break;
	}
}

void stale_rules_loaded(struct stale_report *st)
{
	if (st->verdict == STALE_YES)
		return;
	st->verdict = STALE_UNKNOWN;
	st->reason =
		"rules that count are loaded and audit_n_rules cannot be read: staleness shows only while none is";
}

const char *stale_name(enum stale_verdict v)
{
	return v == STALE_YES ? "yes" : v == STALE_NO ? "no" : "unknown";
}
