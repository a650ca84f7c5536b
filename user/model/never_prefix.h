/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A saving a stock kernel can have today: `never,exit` rules put first, one
 * per arch, naming the syscalls no rule of that arch can match. The exit
 * walk stops at the first entry whose mask has the syscall's bit and whose
 * fields pass; a never rule with only an arch field passes for every
 * syscall of its arch, so those walks end at entry 1 or 2 instead of
 * visiting every rule.
 *
 * Its match also sets the context's priority to the never rule's, and
 * audit_filter_rules() passes over every rule of a lower priority: the
 * exit-list rules after it, and the watches and path= rules that
 * audit_filter_inodes() tries after the walk (one counter numbers them
 * all, in list order), and the io_uring rules an inline op matched before
 * the syscall's exit. So every such rule keeps the syscalls it can match
 * (by its permission classes where it has perm=) out of the prefix.
 *
 * A never rule sets the state to "disabled" where it ends the walk, which
 * silences the SYSCALL record that a record logged during the call (a
 * CONFIG_CHANGE, NETFILTER_CFG, BPF, an LSM's AVC, seccomp's) would
 * otherwise bring with it: the syscalls whose own code logs such records
 * are left out; denials any syscall can log are a named caveat.
 */
#ifndef __NEVER_PREFIX_H
#define __NEVER_PREFIX_H

#include <stdbool.h>
#include <stdio.h>
#include "auditskip.h"
#include "audit/ruleset.h"
#include "model/calibration.h"
#include "model/counts.h"
#include "model/prediction.h"

/* A rule that keeps syscalls of an arch out of the prefix: it can match them. */
struct prefix_keeper {
	const struct audit_rule *rule;
	unsigned int syscalls; /* of the arch's, how many it can match */
	syscall_mask sole;     /* those no other rule can match */
};

struct never_prefix {
	__u32 arch_elf[NR_ARCHES];	   /* this machine's arches, 0: none */
	syscall_mask named[NR_ARCHES];	   /* the prefix rule's syscalls, per arch */
	unsigned int nnamed[NR_ARCHES];	   /* bits in named */
	unsigned int can_match[NR_ARCHES]; /* syscalls of the arch some rule can match */
	/* Of can_match: those no exit-list rule can (watches, path= and io_uring rules can). */
	unsigned int not_exit_list[NR_ARCHES];
	unsigned int left_out[NR_ARCHES]; /* matched by none, but log records of their own */
	/* Per arch, every rule that can match some of its syscalls, in list order. */
	struct prefix_keeper *keepers[NR_ARCHES];
	size_t nkeepers[NR_ARCHES];
	unsigned int rules; /* prefix rules written (arches with a syscall) */
	/*
	 * Per arch, with a profile: a rule left out because on the profiled
	 * walks it saves less than it costs the other arch's walks it does not
	 * end, which visit it first; `unpaid_ns` is what it would have saved
	 * less what it costs (below 0).
	 */
	bool unpaid[NR_ARCHES];
	double unpaid_ns[NR_ARCHES];
	const char *refused; /* why no prefix is written, NULL: none refused */
	/* Rules of a prefix already at the front of the set: left out, replaced. */
	size_t replaced;
	size_t exit_rules; /* on the exit list behind the prefix */
	/*
	 * Watch rules (audit_inode_hash[]): after a never rule's match the
	 * check of each name against its bucket's rules stops at their lower
	 * priority, a saving the prediction does not price.
	 */
	size_t watch_rules;
};

/*
 * Counting rule visits alone: the share of the exit walks that must be of
 * syscalls the prefix names for it to pay (a walk it ends visits one entry
 * instead of every exit rule; every other walk visits its entries first).
 * 0 when it writes no rule.
 */
double never_prefix_break_even(const struct never_prefix *p);

/*
 * Without a profile: the prefix priced walk by walk with the calibration
 * on the set's rules (visits on the latency curve, evaluations by field
 * kind, as with a profile), each syscall counted once, the workload's mix
 * unknown.
 */
struct never_prefix_price {
	/* Per arch: what a walk its rule ends saves, over the syscalls it names. */
	double ended_ns[NR_ARCHES]; /* the mean */
	double ended_min_ns[NR_ARCHES], ended_max_ns[NR_ARCHES];
	double ended_cost_ns[NR_ARCHES]; /* the mean such a walk still costs: entries and match */
	/*
	 * Per arch: a rule left out, as a walk it ends saves nothing on average
	 * (each other walk pays for it too); lost_ns: what such a walk costs
	 * more behind it on average, lost_min_ns and lost_max_ns the savings'
	 * range by syscall (below 0: a cost).
	 */
	bool lost[NR_ARCHES];
	double lost_ns[NR_ARCHES], lost_min_ns[NR_ARCHES], lost_max_ns[NR_ARCHES];
	/* The mean cost of a native walk it does not end (the prefix entries visited first). */
	double passed_ns;
	/* The share of native walks it must end to pay (passed / (ended + passed)); 0: none. */
	double break_even;
	/*
	 * A native walk it ends saves no more than one it does not end pays
	 * (it pays only where most walks are of its syscalls), or less than the
	 * prefix's own entries and match cost it (a small error in either
	 * price turns the saving into a cost).
	 */
	bool unlikely;
	bool evaluations_priced; /* the calibration priced evaluations, not visits alone */
	double ns_context; /* what an audited call's context costs (calibration), 0: unknown */
};

/*
 * Prices prefix `p` for `rs` as above, and leaves out each arch's rule
 * whose walks it ends save nothing on average (a loss judged without the
 * workload's mix). 0 or -ENOMEM.
 */
int never_prefix_price(struct never_prefix *p, const struct ruleset *rs,
		       const struct calibration *c, struct never_prefix_price *out);

/* The syscalls left out for the records they log (NULL-terminated), and why. */
extern const char *const never_prefix_left_out_names[];
extern const char never_prefix_left_out_why[];
/* What a prefix can still change, in words: records no rule asks for. */
extern const char never_prefix_caveat[];

/*
 * The prefix for rule set `rs` with permission classes `kc` (never NULL:
 * perm= rules are narrowed by them, as the kernel narrows them). Refused
 * (p->refused set) where audit stays off, nothing is on the exit list, or a
 * task rule records every syscall of its tasks (a never rule would silence
 * them). A prefix already at the front of the set is replaced. 0 or -ENOMEM;
 * free with never_prefix_free() (the keepers point into `rs`).
 */
int never_prefix_build(const struct ruleset *rs, const struct kernel_classes *kc,
		       struct never_prefix *p);
void never_prefix_free(struct never_prefix *p);

/*
 * The walk of syscall `nr` of slot arch `arch` under `rs` with its leading
 * exit-list `never` rules that have an arch field alone: the entry (1-based)
 * where they end it, 0 where they do not. What a counting run uses to tell
 * walks a loaded prefix ends from walks that reach the rules.
 */
unsigned int never_prefix_ends_at(const struct ruleset *rs, const __u32 arch_elf[NR_ARCHES],
				  int arch, unsigned int nr);

/*
 * A counting run under `rs`: of the exit walks in `s`, those a loaded
 * prefix ended (never_prefix_ends_at() on the list as it is now), and the
 * entries they visited.
 */
struct prefix_ends {
	__u64 walks, visits;
};
void never_prefix_count(const struct ruleset *rs, const struct counts_snapshot *s,
			struct prefix_ends *out);

/*
 * The prefix rule of arch slot `arch` as a rules-file line into `buf` of
 * RULES_FILE_LINE_MAX bytes: 0, or as rule_to_rules_file().
 */
int never_prefix_rule(const struct never_prefix *p, int arch, char *buf);

/*
 * The rules file: its comment header, the prefix rules, then every rule of
 * `rs` in order. 0, or -EINVAL after a message (a rule auditctl cannot read
 * back).
 */
int never_prefix_write(FILE *out, const struct ruleset *rs, const struct never_prefix *p,
		       const char *source);

/* What the prefix does to a recorded workload, against the patch's skip. */
struct never_prefix_prediction {
	__u64 walks;		 /* the workload's exit walks under the rules */
	__u64 ended[NR_ARCHES];	 /* of those, the walks the prefix ends, per arch */
	double seconds;		 /* the profile's length */
	double prefix_ns;	 /* saved by the prefix on a stock kernel */
	double patch_ns;	 /* saved by the patch's skip, the same rules */
	double patch_rewrite_ns; /* saved by the patch's skip under advise's rewrite */
	size_t exit_rules;	 /* before the prefix */
	bool evaluations_priced; /* the calibration priced evaluations, not visits alone */
};

/*
 * What the prefix saves on `walks[slot]` walks of each slot (arch *
 * NR_SLOTS + nr) under `rs`, into saved[slot]: each walk priced under `rs`
 * and under the prefixed set as below. 0 or -ENOMEM.
 */
int never_prefix_slot_savings(const struct never_prefix *p, const struct ruleset *rs,
			      const struct calibration *c, const __u64 *walks, double *saved);

/*
 * Fits the prefix to a profiled workload (`before`: the prediction for
 * `rs` on it): leaves out each arch's rule that saves less there than it
 * costs, as the b32 rule does where no i386 task runs (every native walk
 * the b64 rule does not end tests its mask, and its arch field where the
 * number is one of i386's). Leaving a rule out changes no record. 0 or
 * -ENOMEM.
 */
int never_prefix_fit(struct never_prefix *p, const struct ruleset *rs,
		     const struct prediction *before, const struct calibration *c);

/*
 * Prices each profiled walk under `rs` and under the prefixed set, each as
 * its visits (the latency curve) and its evaluations (eval_price.h): a walk
 * the prefix ends drops the rules it visited and evaluated for the prefix
 * entries; every other walk now visits those first. `before`: the
 * prediction for `rs`; `rewritten`: for advise's rewrite of it. 0 or -ENOMEM.
 */
int never_prefix_predict(const struct never_prefix *p, const struct ruleset *rs,
			 const struct prediction *before, const struct prediction *rewritten,
			 const struct calibration *c, double seconds,
			 struct never_prefix_prediction *out);

#endif /* __NEVER_PREFIX_H */
