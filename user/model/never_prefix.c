// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <libaudit.h>
#include "audit/kernel_tables.h"
#include "audit/loadable_file.h"
#include "audit/rule_text.h"
#include "audit/syscalls.h"
#include "model/eval_price.h"
#include "model/never_prefix.h"
#include "model/whatif_masks.h"

/*
 * Syscalls whose own code logs a record through the task's audit context
 * with no rule asking, on success: a netlink message to audit
 * (CONFIG_CHANGE, and the rule changes' records) or to nf_tables
 * (NETFILTER_CFG), sent with any of the send calls or written; x_tables'
 * setsockopt (NETFILTER_CFG); a device set promiscuous by ioctl or netlink
 * (ANOM_PROMISCUOUS); bpf's program loads and unloads (BPF); the clock set
 * or adjusted (TIME_INJOFFSET from do_settimeofday64() and
 * timekeeping_inject_offset(), TIME_ADJNTPVAL from __do_adjtimex()). Such
 * a record marks the context for recording (auditsc_get_stamp() sets its
 * priority to 1), and brings its SYSCALL record only if no never rule
 * raises the priority above that.
 */
const char *const never_prefix_left_out_names[] = {
	"sendto",	   "sendmsg",  "sendmmsg",
	"write",	   "writev",   "socketcall",
	"setsockopt",	   "ioctl",    "bpf",
	"settimeofday",	   "stime",    "clock_settime",
	"clock_settime64", "adjtimex", "clock_adjtime",
	"clock_adjtime64", NULL,
};

const char never_prefix_left_out_why[] =
	"their own code logs records with no rule (netlink to audit or nf_tables, x_tables, promiscuous mode, bpf, the clock set or adjusted), whose SYSCALL record a never rule would silence";

const char never_prefix_caveat[] =
	"a record any call can log without a rule (an LSM's AVC denial, seccomp's, protected_symlinks' ANOM_LINK, a tty's TTY) loses the SYSCALL record that comes with it when the call is one the prefix names";

static bool logs_records(unsigned int nr, int machine)
{
	for (size_t i = 0; never_prefix_left_out_names[i]; i++)
		if (audit_name_to_syscall(never_prefix_left_out_names[i], machine) == (int)nr)
			return true;
	return false;
}

/* A rule on the task list that records: every syscall of its tasks, with no exit rule. */
static bool records_tasks(const struct audit_rule *r)
{
	return r->list == AUDIT_FILTER_TASK && r->action == AUDIT_ALWAYS;
}

static const char *refusal(const struct ruleset *rs)
{
	if (rs->disables_audit)
		return "the rules end with -e 0: audit stays off and nothing walks";
	for (size_t i = 0; i < rs->n; i++)
		if (records_tasks(&rs->rules[i]))
			return "a task rule records every syscall of its tasks (always,task), which a never,exit rule would silence";
	if (!ruleset_exit_rules(rs))
		return "no rule is on the exit list: the walk is empty, and a prefix would only lengthen it";
	return NULL;
}

/* A never rule on the exit list whose only field is arch=: passes for every syscall of it. */
static bool arch_only_never(const struct audit_rule *r)
{
	return rule_on_exit_list(r) && r->action == AUDIT_NEVER && r->arch_elf &&
	       r->field_count == 1 && r->fields[0].type == AUDIT_ARCH &&
	       r->fields[0].op == AUDIT_EQUAL;
}

/*
 * Whether `r` belongs to a prefix already at the front of the exit list:
 * the leading never rules with an arch field alone. *leading starts true
 * and is carried from rule to rule in list order.
 */
static bool in_leading_prefix(const struct audit_rule *r, bool *leading)
{
	if (!rule_on_exit_list(r))
		return false;
	*leading = *leading && arch_only_never(r);
	return *leading;
}

/*
 * The syscalls of arch slot `a` (AUDIT_ARCH `elf`) rule `r` can make a
 * record for, into m; false for none. A never rule makes none: a walk it
 * ends makes none, as a walk no rule matches makes none. A perm= rule can
 * match only the syscalls of its classes (audit_match_perm()); an io_uring
 * rule only io_uring_enter, whose inline ops it filters before the exit.
 */
static bool rule_can_match(const struct audit_rule *r, const struct kernel_classes *kc, int a,
			   __u32 elf, syscall_mask m)
{
	int machine = audit_elf_to_machine(elf);
	int uring_enter;

	memset(m, 0, sizeof(syscall_mask));
	if (r->action == AUDIT_NEVER || (r->arch_elf && r->arch_elf != elf))
		return false;
	if (r->list == AUDIT_FILTER_URING_EXIT) {
		uring_enter = audit_name_to_syscall("io_uring_enter", machine);
		if (uring_enter >= 0)
			mask_set(m, uring_enter);
	} else if (r->list == AUDIT_FILTER_EXIT) {
		memcpy(m, r->mask, sizeof(syscall_mask));
		if (r->perm) {
			syscall_mask classes = { 0 };

			perm_syscalls(r->perm, machine, a == ARCH_COMPAT, kc, classes);
			mask_and(m, classes);
		}
	}
	return mask_count(m) > 0;
}

/*
 * Adds the rules of `rs` that can match syscalls of arch slot `a` to
 * p->keepers[a]; the syscalls they can match into `kept`, those the
 * exit-list ones can into `by_exit_list`.
 */
static int find_keepers(struct never_prefix *p, const struct ruleset *rs,
			const struct kernel_classes *kc, int a, syscall_mask kept,
			syscall_mask by_exit_list)
{
	unsigned char *matchers = calloc(MASK_SYSCALL_BITS, sizeof(*matchers));
	syscall_mask m;

	p->keepers[a] = calloc(rs->n ? rs->n : 1, sizeof(*p->keepers[a]));
	if (!matchers || !p->keepers[a]) {
		free(matchers);
		return -ENOMEM;
	}
	for (size_t i = 0; i < rs->n; i++) {
		if (!rule_can_match(&rs->rules[i], kc, a, p->arch_elf[a], m))
			continue;
		p->keepers[a][p->nkeepers[a]++] =
			(struct prefix_keeper){ .rule = &rs->rules[i], .syscalls = mask_count(m) };
		mask_or(kept, m);
		if (rule_on_exit_list(&rs->rules[i]))
			mask_or(by_exit_list, m);
		for (unsigned int nr = 0; nr < MASK_SYSCALL_BITS; nr++)
			matchers[nr] += mask_test(m, nr) && matchers[nr] < 2;
	}
	/* Each keeper's mask again (cheaper than keeping one per rule) for what it alone matches.
	 */
	for (size_t k = 0; k < p->nkeepers[a]; k++) {
		struct prefix_keeper *kp = &p->keepers[a][k];

		rule_can_match(kp->rule, kc, a, p->arch_elf[a], m);
		for (unsigned int nr = 0; nr < MASK_SYSCALL_BITS; nr++)
			if (mask_test(m, nr) && matchers[nr] == 1)
				mask_set(kp->sole, nr);
	}
	free(matchers);
	return 0;
}

/* The prefix rule of arch slot `a`: every syscall of the arch not in `kept`. */
static void name_syscalls(struct never_prefix *p, int a, const syscall_mask kept,
			  const syscall_mask by_exit_list)
{
	int machine = audit_elf_to_machine(p->arch_elf[a]);

	for (unsigned int nr = 0; nr < MASK_SYSCALL_BITS; nr++) {
		if (!syscall_table_name(nr, machine))
			continue;
		if (mask_test(kept, nr)) {
			p->can_match[a]++;
			p->not_exit_list[a] += !mask_test(by_exit_list, nr);
		} else if (logs_records(nr, machine)) {
			p->left_out[a]++;
		} else {
			mask_set(p->named[a], nr);
		}
	}
	p->nnamed[a] = mask_count(p->named[a]);
	p->rules += p->nnamed[a] > 0;
}

int never_prefix_build(const struct ruleset *rs, const struct kernel_classes *kc,
		       struct never_prefix *p)
{
	bool leading = true;

	memset(p, 0, sizeof(*p));
	whatif_arches(p->arch_elf);
	p->refused = refusal(rs);
	if (p->refused)
		return 0;
	for (size_t i = 0; i < rs->n; i++) {
		p->replaced += in_leading_prefix(&rs->rules[i], &leading);
		p->watch_rules += rs->rules[i].list == AUDIT_FILTER_EXIT && rs->rules[i].inode_hash;
	}
	if (p->replaced == ruleset_exit_rules(rs)) {
		p->refused = "the exit list holds a never,exit prefix and nothing else";
		return 0;
	}
	p->exit_rules = ruleset_exit_rules(rs) - p->replaced;
	if (p->exit_rules == 1) {
		p->refused =
			"one rule is on the exit list: a walk visits that one entry, which a prefix entry would at best replace, and every walk it does not end visits the prefix too";
		return 0;
	}
	for (int a = 0; a < NR_ARCHES; a++) {
		syscall_mask kept = { 0 }, by_exit_list = { 0 };

		if (!p->arch_elf[a])
			continue;
		if (find_keepers(p, rs, kc, a, kept, by_exit_list)) {
			never_prefix_free(p);
			return -ENOMEM;
		}
		name_syscalls(p, a, kept, by_exit_list);
	}
	return 0;
}

double never_prefix_break_even(const struct never_prefix *p)
{
	double saved = (double)p->exit_rules - 1, cost = p->rules;

	return p->rules && saved + cost > 0 ? cost / (saved + cost) : 0;
}

void never_prefix_free(struct never_prefix *p)
{
	for (int a = 0; a < NR_ARCHES; a++) {
		free(p->keepers[a]);
		p->keepers[a] = NULL;
		p->nkeepers[a] = 0;
	}
}

unsigned int never_prefix_ends_at(const struct ruleset *rs, const __u32 arch_elf[NR_ARCHES],
				  int arch, unsigned int nr)
{
	unsigned int entry = 0;

	for (size_t i = 0; i < rs->n; i++) {
		const struct audit_rule *r = &rs->rules[i];

		if (!rule_on_exit_list(r))
			continue;
		if (!arch_only_never(r))
			return 0;
		entry++;
		if (r->arch_elf == arch_elf[arch] && mask_test(r->mask, nr))
			return entry;
	}
	return 0;
}

void never_prefix_count(const struct ruleset *rs, const struct counts_snapshot *s,
			struct prefix_ends *out)
{
	__u32 elf[NR_ARCHES];

	memset(out, 0, sizeof(*out));
	if (!rs)
		return;
	whatif_arches(elf);
	for (unsigned int k = 0; k < NR_COUNT_SLOTS; k++) {
		__u64 walks = s->slot[k].walks;
		unsigned int entry;

		if (!walks)
			continue;
		entry = never_prefix_ends_at(rs, elf, k / NR_SLOTS, k % NR_SLOTS);
		out->walks += entry ? walks : 0;
		out->visits += (__u64)entry * walks;
	}
}

int never_prefix_rule(const struct never_prefix *p, int arch, char *buf)
{
	static const struct audit_rule never = { .list = AUDIT_FILTER_EXIT,
						 .action = AUDIT_NEVER,
						 .text = "the never,exit prefix rule" };

	return rule_to_rules_file(&never, p->arch_elf[arch], p->named[arch], buf);
}

int never_prefix_write(FILE *out, const struct ruleset *rs, const struct never_prefix *p,
		       const char *source)
{
	char *line = malloc(RULES_FILE_LINE_MAX);
	bool leading = true;
	int err = 0;

	if (!line)
		return -ENOMEM;
	fprintf(out,
		"## Written by auditskip advise --never-prefix from %s.\n"
		"## Load with 'auditctl -R FILE': it replaces every audit rule loaded.\n"
		"## The never,exit rules first end the exit walk at once for the syscalls\n"
		"## no rule below can match (exit rules, watches, path= and io_uring rules);\n"
		"## the rules below are the set's, in order.\n",
		source);
	loadable_file_begin(out, rs);
	for (int a = 0; a < NR_ARCHES && !err; a++) {
		if (!p->nnamed[a])
			continue;
		err = never_prefix_rule(p, a, line);
		if (!err)
			fprintf(out, "%s\n", line);
	}
	if (!err)
		fprintf(out, "\n");
	for (size_t i = 0; i < rs->n && !err; i++)
		if (!in_leading_prefix(&rs->rules[i], &leading))
			err = loadable_file_rule(out, &rs->rules[i], 0, NULL, line);
	if (!err)
		loadable_file_end(out, rs);
	free(line);
	return err ? -EINVAL : 0;
}

/*
 * The rules as loaded from the file never_prefix_write() writes: the
 * prefix rules, then those of `rs` but a prefix it replaces. The rules are
 * shared with `rs` and `prefix` (free only the array).
 */
static int prefixed_set(const struct ruleset *rs, const struct never_prefix *p,
			struct audit_rule prefix[NR_ARCHES], struct rule_field arch[NR_ARCHES],
			struct ruleset *out)
{
	bool leading = true;

	memset(out, 0, sizeof(*out));
	out->rules = calloc(rs->n + NR_ARCHES, sizeof(*out->rules));
	if (!out->rules)
		return -ENOMEM;
	for (int a = 0; a < NR_ARCHES; a++) {
		if (!p->nnamed[a])
			continue;
		arch[a] = (struct rule_field){ AUDIT_ARCH, AUDIT_EQUAL, p->arch_elf[a] };
		prefix[a] = (struct audit_rule){ .list = AUDIT_FILTER_EXIT,
						 .action = AUDIT_NEVER,
						 .arch_elf = p->arch_elf[a],
						 .field_count = 1,
						 .fields = &arch[a] };
		memcpy(prefix[a].mask, p->named[a], sizeof(syscall_mask));
		out->rules[out->n++] = prefix[a];
	}
	for (size_t i = 0; i < rs->n; i++)
		if (!in_leading_prefix(&rs->rules[i], &leading))
			out->rules[out->n++] = rs->rules[i];
	return 0;
}

/* A walk of syscall `nr` of arch `elf` under `rs`: its visits and evaluations. */
static double walk_cost_ns(const struct calibration *c, const struct ruleset *rs, __u32 elf,
			   unsigned int nr)
{
	size_t visited;
	double evals = eval_walk_ns(c, rs, elf, nr, &visited);

	return calibration_walk_ns(c, (double)visited) + evals;
}

int never_prefix_slot_savings(const struct never_prefix *p, const struct ruleset *rs,
			      const struct calibration *c, const __u64 *walks, double *saved)
{
	struct audit_rule prefix[NR_ARCHES];
	struct rule_field arch[NR_ARCHES];
	struct ruleset with;

	if (prefixed_set(rs, p, prefix, arch, &with))
		return -ENOMEM;
	for (unsigned int s = 0; s < NR_COUNT_SLOTS; s++) {
		__u32 elf = p->arch_elf[s / NR_SLOTS];
		unsigned int nr = s % NR_SLOTS;

		saved[s] = walks[s] ? (double)walks[s] * (walk_cost_ns(c, rs, elf, nr) -
							  walk_cost_ns(c, &with, elf, nr)) :
				      0;
	}
	free(with.rules);
	return 0;
}

/*
 * Per arch with a rule, what the walks it ends save (mean, least, most), and
 * the mean a native walk it does not end pays.
 */
static int price_walks(const struct never_prefix *p, const struct ruleset *rs,
		       const struct calibration *c, struct never_prefix_price *out)
{
	struct audit_rule prefix[NR_ARCHES];
	struct rule_field arch[NR_ARCHES];
	unsigned int passed = 0;
	struct ruleset with;

	if (prefixed_set(rs, p, prefix, arch, &with))
		return -ENOMEM;
	out->passed_ns = 0;
	for (int a = 0; a < NR_ARCHES; a++) {
		int machine = audit_elf_to_machine(p->arch_elf[a]);
		unsigned int ended = 0;

		out->ended_ns[a] = out->ended_min_ns[a] = out->ended_max_ns[a] = 0;
		out->ended_cost_ns[a] = 0;
		if (!p->arch_elf[a])
			continue;
		for (unsigned int nr = 0; nr < MASK_SYSCALL_BITS; nr++) {
			double d, behind;

			if (!syscall_table_name(nr, machine))
				continue;
			behind = walk_cost_ns(c, &with, p->arch_elf[a], nr);
			d = walk_cost_ns(c, rs, p->arch_elf[a], nr) - behind;
			if (p->nnamed[a] && mask_test(p->named[a], nr)) {
				out->ended_cost_ns[a] += behind;
				if (!ended++ || d < out->ended_min_ns[a])
					out->ended_min_ns[a] = d;
				if (ended == 1 || d > out->ended_max_ns[a])
					out->ended_max_ns[a] = d;
				out->ended_ns[a] += d;
			} else if (a == ARCH_NATIVE) {
				out->passed_ns -= d;
				passed++;
			}
		}
		if (ended) {
			out->ended_ns[a] /= ended;
			out->ended_cost_ns[a] /= ended;
		}
	}
	if (passed)
		out->passed_ns /= passed;
	free(with.rules);
	return 0;
}

int never_prefix_price(struct never_prefix *p, const struct ruleset *rs,
		       const struct calibration *c, struct never_prefix_price *out)
{
	double ended;
	int err;

	memset(out, 0, sizeof(*out));
	out->evaluations_priced = calibration_prices_evaluations(c);
	out->ns_context = c->ns_context;
	err = price_walks(p, rs, c, out);
	for (int a = 0; a < NR_ARCHES && !err; a++) {
		if (!p->nnamed[a] || out->ended_ns[a] > 0)
			continue;
		out->lost[a] = true;
		out->lost_ns[a] = -out->ended_ns[a];
		out->lost_min_ns[a] = out->ended_min_ns[a];
		out->lost_max_ns[a] = out->ended_max_ns[a];
		memset(p->named[a], 0, sizeof(syscall_mask));
		p->nnamed[a] = 0;
		p->rules--;
		/* The other arch's walks no longer visit it. */
		err = price_walks(p, rs, c, out);
	}
	ended = out->ended_ns[ARCH_NATIVE];
	if (!err && p->nnamed[ARCH_NATIVE] && ended + out->passed_ns > 0) {
		out->break_even = out->passed_ns / (ended + out->passed_ns);
		out->unlikely = ended <= out->passed_ns || ended < out->ended_cost_ns[ARCH_NATIVE];
	}
	return err;
}

/* What prefix `p` saves on the walks of `before`, into *ns. 0 or -ENOMEM. */
static int prefix_saving(const struct never_prefix *p, const struct ruleset *rs,
			 const struct prediction *before, const struct calibration *c, double *ns)
{
	__u64 *walks = calloc(NR_COUNT_SLOTS, sizeof(*walks));
	double *saved = calloc(NR_COUNT_SLOTS, sizeof(*saved));
	int err = walks && saved ? 0 : -ENOMEM;

	for (unsigned int s = 0; s < NR_COUNT_SLOTS && !err; s++)
		walks[s] = before->slot[s].walks;
	err = err ?: never_prefix_slot_savings(p, rs, c, walks, saved);
	*ns = 0;
	for (unsigned int s = 0; s < NR_COUNT_SLOTS && !err; s++)
		*ns += saved[s];
	free(walks);
	free(saved);
	return err;
}

int never_prefix_fit(struct never_prefix *p, const struct ruleset *rs,
		     const struct prediction *before, const struct calibration *c)
{
	double with_ns;
	int err = prefix_saving(p, rs, before, c, &with_ns);

	for (int a = 0; a < NR_ARCHES && !err; a++) {
		struct never_prefix without = *p;
		double without_ns;

		if (!p->nnamed[a])
			continue;
		memset(without.named[a], 0, sizeof(syscall_mask));
		without.nnamed[a] = 0;
		err = prefix_saving(&without, rs, before, c, &without_ns);
		if (err || with_ns >= without_ns)
			continue;
		*p = without;
		p->unpaid[a] = true;
		p->unpaid_ns[a] = with_ns - without_ns;
		p->rules--;
		with_ns = without_ns;
	}
	return err;
}

int never_prefix_predict(const struct never_prefix *p, const struct ruleset *rs,
			 const struct prediction *before, const struct prediction *rewritten,
			 const struct calibration *c, double seconds,
			 struct never_prefix_prediction *out)
{
	memset(out, 0, sizeof(*out));
	out->seconds = seconds;
	out->exit_rules = before->exit_rules;
	out->walks = before->total.walks;
	out->evaluations_priced = calibration_prices_evaluations(c);
	for (unsigned int s = 0; s < NR_COUNT_SLOTS; s++) {
		int a = s / NR_SLOTS;

		if (p->nnamed[a] && mask_test(p->named[a], s % NR_SLOTS))
			out->ended[a] += before->slot[s].walks;
	}
	out->patch_ns = prediction_saved_ns(before, c, COUNTER_ID_skippable_walks);
	out->patch_rewrite_ns = prediction_saved_ns(rewritten, c, COUNTER_ID_skippable_walks);
	return prefix_saving(p, rs, before, c, &out->prefix_ns);
}
