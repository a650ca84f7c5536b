// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <json-c/json.h>
#include "report.h"
#include "syscalls.h"
#include "whatif.h"

/* Bumped when a key changes meaning or goes away; new keys keep it. */
#define JSON_SCHEMA 1

static double share(__u64 part, __u64 whole)
{
	return whole ? 100.0 * part / whole : 0.0;
}

static unsigned int rules_naming(const struct ruleset *rs, unsigned int nr)
{
	unsigned int n = 0;

	for (size_t i = 0; i < rs->n; i++)
		n += rule_on_exit_list(&rs->rules[i]) && mask_test(rs->rules[i].mask, nr);
	return n;
}

static const struct counts_snapshot *sort_snap;

static int by_skippable(const void *a, const void *b)
{
	const struct scan_counts *x = &sort_snap->slot[*(const unsigned int *)a];
	const struct scan_counts *y = &sort_snap->slot[*(const unsigned int *)b];

	if (x->skippable != y->skippable)
		return x->skippable < y->skippable ? 1 : -1;
	if (x->scans != y->scans)
		return x->scans < y->scans ? 1 : -1;
	return 0;
}

/* Slots with any walk, most skippable first; returns how many. */
static unsigned int seen_slots(const struct counts_snapshot *s, unsigned int *order)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < NR_SLOTS; i++)
		if (s->slot[i].scans)
			order[n++] = i;
	sort_snap = s;
	qsort(order, n, sizeof(*order), by_skippable);
	return n;
}

static void print_json(FILE *out, json_object *o)
{
	fprintf(out, "%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	fflush(out);
	json_object_put(o);
}

static void add_u64(json_object *o, const char *key, __u64 v)
{
	json_object_object_add(o, key, json_object_new_uint64(v));
}

static void add_str(json_object *o, const char *key, const char *v)
{
	json_object_object_add(o, key, json_object_new_string(v));
}

static json_object *mask_json(json_object *o, const syscall_mask m, __u32 exit_rules)
{
	char hex[MASK_HEX_LEN + 1];

	mask_to_hex(m, hex);
	add_u64(o, "exit_rules", exit_rules);
	add_u64(o, "mask_bits", mask_count(m));
	add_str(o, "mask_hex", hex);
	return o;
}

/* For each exit rule that sets every syscall bit: the aggregate without it. */
static json_object *full_mask_rules_json(const struct ruleset *rs)
{
	json_object *arr = json_object_new_array();

	for (size_t i = 0; i < rs->n; i++) {
		const struct audit_rule *rule = &rs->rules[i];
		json_object *o;
		syscall_mask without;

		if (!rule_on_exit_list(rule) || !mask_is_full(rule->mask))
			continue;
		ruleset_exit_mask(rs, i, without);
		o = json_object_new_object();
		add_str(o, "key", rule->key);
		add_str(o, "text", rule->text);
		add_u64(o, "mask_bits_without", mask_count(without));
		json_object_array_add(arr, o);
	}
	return arr;
}

static const char *stale_name(enum stale_verdict v)
{
	return v == STALE_YES ? "yes" : v == STALE_NO ? "no" : "unknown";
}

/* Outcome counters exist only where the mode sees the walk's result. */
static void add_whatif(json_object *o, const struct scan_counts *c)
{
	add_u64(o, "skippable_arch_mask", c->skippable_arch);
	add_u64(o, "skippable_perm_mask", c->skippable_perm);
}

static void add_timing(json_object *o, const struct report_ctx *r, const struct scan_counts *c)
{
	json_object_object_add(o, "measured_walk_ns",
			       r->cfg.timing ? json_object_new_uint64(c->walk_ns) : NULL);
	json_object_object_add(o, "measured_skippable_walk_ns",
			       r->cfg.timing ? json_object_new_uint64(c->skippable_walk_ns) : NULL);
}

static void add_outcomes(json_object *o, const struct report_ctx *r, const struct scan_counts *c)
{
	json_object_object_add(o, "needless_despite_mask",
			       r->cfg.outcomes ? json_object_new_uint64(c->needless) : NULL);
	json_object_object_add(o, "missed_matches",
			       r->cfg.outcomes ? json_object_new_uint64(c->missed) : NULL);
	json_object_object_add(o, "raced_matches",
			       r->cfg.outcomes ? json_object_new_uint64(c->raced) : NULL);
}

/* Skippable walks times what one walk over their mean list length costs. */
static double saved_ns(const struct report_ctx *r, const struct scan_counts *c)
{
	if (!c->skippable)
		return 0;
	return c->skippable *
	       calibration_walk_ns(r->cfg.calib, (double)c->walked_skipped / c->skippable);
}

double report_saved_ns(const struct report_ctx *r, const struct counts_snapshot *s)
{
	double ns = 0;

	for (unsigned int i = 0; i < NR_SLOTS; i++)
		ns += saved_ns(r, &s->slot[i]);
	return ns;
}

static double cpu_share(const struct report_ctx *r, double ns, double seconds)
{
	return seconds > 0 ? ns / (seconds * 1e9 * r->cfg.ncpus) : 0;
}

static json_object *slots_json(const struct report_ctx *r, const struct counts_snapshot *s,
			       bool uring)
{
	json_object *arr = json_object_new_array();
	unsigned int order[NR_SLOTS], n = seen_slots(s, order);

	for (unsigned int i = 0; i < n; i++) {
		const struct scan_counts *c = &s->slot[order[i]];
		json_object *e = json_object_new_object();
		char name[64];

		json_object_object_add(e, uring ? "op" : "nr", json_object_new_int(order[i]));
		if (!uring) {
			syscall_name(order[i], -1, name, sizeof(name));
			add_str(e, "name", name);
		}
		add_u64(e, "scans", c->scans);
		add_u64(e, "skippable", c->skippable);
		add_u64(e, "walked_skipped", c->walked_skipped);
		add_outcomes(e, r, c);
		if (!uring) {
			add_whatif(e, c);
			add_timing(e, r, c);
			json_object_object_add(e, "saved_ns", json_object_new_double(saved_ns(r, c)));
		}
		json_object_array_add(arr, e);
	}
	return arr;
}

static json_object *uring_json(const struct report_ctx *r, const struct counts_snapshot *s)
{
	json_object *o;

	if (!r->cfg.uring)
		return NULL;
	o = json_object_new_object();
	add_u64(o, "exit_rules", r->live.mirror.uring_rules);
	add_u64(o, "mask_bits", mask_count(r->live.mirror.uring_mask));
	add_u64(o, "scans", s->total.scans);
	add_u64(o, "skippable", s->total.skippable);
	add_u64(o, "walked_skipped", s->total.walked_skipped);
	add_outcomes(o, r, &s->total);
	json_object_object_add(o, "ops", slots_json(r, s, true));
	return o;
}

static json_object *missed_json(const struct report_ctx *r)
{
	json_object *arr = json_object_new_array();

	for (__u64 i = 0; i < r->live.missed_total && i < MISSED_LOG; i++) {
		const struct missed_match *m = &r->live.missed[i];
		json_object *e = json_object_new_object();
		char name[64];

		json_object_object_add(e, m->uring ? "op" : "nr", json_object_new_int(m->nr));
		if (!m->uring) {
			syscall_name(m->nr, -1, name, sizeof(name));
			add_str(e, "name", name);
		}
		add_str(e, "key", m->key);
		json_object_array_add(arr, e);
	}
	return arr;
}

/* What the stale contexts cost: the fixed price of a non-dummy context each. */
static double stale_cost_ns(const struct report_ctx *r)
{
	return r->live.stale.syscalls * r->cfg.calib->ns_context;
}

static json_object *stale_json(const struct report_ctx *r)
{
	const struct stale_report *st = &r->live.stale;
	json_object *o = json_object_new_object();

	add_str(o, "state", stale_name(st->verdict));
	add_u64(o, "syscalls", st->syscalls);
	json_object_object_add(o, "audit_n_rules", st->kernel_n_rules >= 0 ?
					json_object_new_int(st->kernel_n_rules) : NULL);
	add_u64(o, "counted_rules", st->counted_rules);
	json_object_object_add(o, "cost_ns", r->cfg.calib->ns_context > 0 ?
					     json_object_new_double(stale_cost_ns(r)) : NULL);
	return o;
}

static json_object *calibration_json(const struct report_ctx *r)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "calibrated", json_object_new_boolean(r->cfg.calib_from != NULL));
	json_object_object_add(o, "file", r->cfg.calib_from ? json_object_new_string(r->cfg.calib_from) :
							  NULL);
	json_object_object_add(o, "ns_per_entry", json_object_new_double(r->cfg.calib->ns_per_entry));
	json_object_object_add(o, "ns_context", json_object_new_double(r->cfg.calib->ns_context));
	return o;
}

static json_object *counts_json(const struct report_ctx *r, const char *type,
				const struct walk_counts *w, double seconds)
{
	double saved = report_saved_ns(r, &w->exit);

	json_object *o = json_object_new_object();

	add_str(o, "type", type);
	json_object_object_add(o, "schema", json_object_new_int(JSON_SCHEMA));
	add_u64(o, "time", (__u64)time(NULL));
	json_object_object_add(o, "seconds", json_object_new_double(seconds));
	add_str(o, "mode", r->cfg.mode);
	add_str(o, "kernel", r->cfg.kernel);
	add_str(o, "mirror_source", r->live.mirror.source == MIRROR_KERNEL_LIST ? "kernel-list" :
							      "netlink");
	add_u64(o, "mirror_generation", r->live.mirror.generation);
	mask_json(o, r->live.mirror.mask, r->live.mirror.exit_rules);
	add_u64(o, "scans", w->exit.total.scans);
	add_u64(o, "skippable", w->exit.total.skippable);
	add_u64(o, "walked_skipped", w->exit.total.walked_skipped);
	add_whatif(o, &w->exit.total);
	add_timing(o, r, &w->exit.total);
	json_object_object_add(o, "timing_clock_ns",
			       r->cfg.timing ? json_object_new_uint64(r->live.clock_ns) : NULL);
	add_outcomes(o, r, &w->exit.total);
	json_object_object_add(o, "saved_ns", json_object_new_double(saved));
	json_object_object_add(o, "saved_ns_per_s",
			       json_object_new_double(seconds > 0 ? saved / seconds : 0));
	json_object_object_add(o, "saved_cpu_share",
			       json_object_new_double(cpu_share(r, saved, seconds)));
	json_object_object_add(o, "calibration", calibration_json(r));
	json_object_object_add(o, "missed", missed_json(r));
	add_u64(o, "lost_descendants", r->live.lost_descendants);
	json_object_object_add(o, "syscalls", slots_json(r, &w->exit, false));
	json_object_object_add(o, "uring", uring_json(r, &w->uring));
	json_object_object_add(o, "stale", stale_json(r));
	return o;
}

void report_start(const struct report_ctx *r)
{
	unsigned int bits = mask_count(r->live.mirror.mask);

	if (r->cfg.json) {
		json_object *o = json_object_new_object();

		add_str(o, "type", "start");
		json_object_object_add(o, "schema", json_object_new_int(JSON_SCHEMA));
		add_str(o, "mode", r->cfg.mode);
		add_str(o, "kernel", r->cfg.kernel);
		add_str(o, "blind_to", r->cfg.blind);
		add_str(o, "mirror", r->cfg.mirror_how);
		add_str(o, "scope", r->cfg.scope);
		mask_json(o, r->live.mirror.mask, r->live.mirror.exit_rules);
		json_object_object_add(o, "full_mask_rules", full_mask_rules_json(r->live.rules));
		print_json(r->cfg.out, o);
		return;
	}
	fprintf(r->cfg.out, "auditskip: kernel %s, mode %s\n", r->cfg.kernel, r->cfg.mode);
	fprintf(r->cfg.out, "  cannot see: %s\n", r->cfg.blind);
	fprintf(r->cfg.out, "  mask mirror: %s\n", r->cfg.mirror_how);
	fprintf(r->cfg.out, "  exit-list rules: %u, mask bits set: %u of %u\n", r->live.mirror.exit_rules,
		bits, MASK_BITS);
	fprintf(r->cfg.out, "  counting: %s\n", r->cfg.scope);
	fflush(r->cfg.out);
}

void report_interval(const struct report_ctx *r, const struct walk_counts *w, double seconds)
{
	const struct counts_snapshot *d = &w->exit;
	char stamp[16];
	time_t now = time(NULL);

	if (r->cfg.json) {
		print_json(r->cfg.out, counts_json(r, "interval", w, seconds));
		return;
	}
	strftime(stamp, sizeof(stamp), "%H:%M:%S", localtime(&now));
	fprintf(r->cfg.out,
		"%s  walks %llu  skippable %llu (%.1f%%)  needless rule visits %llu  rules %u  mask bits %u\n",
		stamp, (unsigned long long)d->total.scans, (unsigned long long)d->total.skippable,
		share(d->total.skippable, d->total.scans),
		(unsigned long long)d->total.walked_skipped, r->live.mirror.exit_rules,
		mask_count(r->live.mirror.mask));
	if (r->cfg.outcomes && d->total.missed)
		fprintf(r->cfg.out, "          MISSED MATCHES %llu: see the summary\n",
			(unsigned long long)d->total.missed);
	fflush(r->cfg.out);
}

static json_object *comms_json(const struct report_ctx *r)
{
	json_object *arr = json_object_new_array();

	for (size_t i = 0; i < r->live.ncomms && i < (size_t)r->cfg.comm_top; i++) {
		json_object *e = json_object_new_object();

		add_str(e, "comm", r->live.comms[i].comm);
		add_u64(e, "scans", r->live.comms[i].c.scans);
		add_u64(e, "skippable", r->live.comms[i].c.skippable);
		add_u64(e, "walked_skipped", r->live.comms[i].c.walked_skipped);
		json_object_array_add(arr, e);
	}
	return arr;
}

static void print_comms(FILE *out, const struct report_ctx *r)
{
	if (!r->cfg.comm_top || !r->live.ncomms)
		return;
	fprintf(out, "\nTop processes by skippable walks (since start):\n");
	fprintf(out, "  %-16s %12s %12s %7s %15s\n", "COMM", "WALKS", "SKIPPABLE", "SHARE",
		"NEEDLESS VISITS");
	for (size_t i = 0; i < r->live.ncomms && i < (size_t)r->cfg.comm_top; i++) {
		const struct comm_counts *c = &r->live.comms[i].c;

		fprintf(out, "  %-16s %12llu %12llu %6.1f%% %15llu\n", r->live.comms[i].comm,
			(unsigned long long)c->scans, (unsigned long long)c->skippable,
			share(c->skippable, c->scans), (unsigned long long)c->walked_skipped);
	}
	if (r->live.comms_lost)
		fprintf(out, "  (%llu walks of further names not counted: %d names at most)\n",
			(unsigned long long)r->live.comms_lost, MAX_COMMS);
}

static void print_full_mask_rules(FILE *out, const struct ruleset *rs)
{
	bool any = false;

	for (size_t i = 0; i < rs->n; i++) {
		const struct audit_rule *rule = &rs->rules[i];
		syscall_mask without;

		if (!rule_on_exit_list(rule) || !mask_is_full(rule->mask))
			continue;
		if (!any)
			fprintf(out,
				"\nRules that set every syscall bit (while one is loaded the skip never fires):\n");
		any = true;
		ruleset_exit_mask(rs, i, without);
		fprintf(out, "  %s\n    without it the aggregate mask would have %u bits set\n",
			rule->text, mask_count(without));
	}
}

static void print_safety(FILE *out, const struct report_ctx *r, const struct scan_counts *t)
{
	if (!r->cfg.outcomes) {
		fprintf(out, "  missed matches                   n/a  (mode %s cannot see a walk's outcome)\n",
			r->cfg.mode);
		return;
	}
	fprintf(out, "  missed matches         %14llu  (a rule matched with its bit clear: must be 0)\n",
		(unsigned long long)t->missed);
	fprintf(out, "  needless despite mask  %14llu  (bit set, no rule matched)\n",
		(unsigned long long)t->needless);
	fprintf(out, "  raced matches          %14llu  (the rule was published during the walk)\n",
		(unsigned long long)t->raced);
	if (!r->live.missed_total)
		return;
	fprintf(out, "\n  !! %llu MISSED MATCHES: the aggregate mask would have suppressed audit records.\n",
		(unsigned long long)r->live.missed_total);
	for (__u64 i = 0; i < r->live.missed_total && i < MISSED_LOG; i++) {
		const struct missed_match *m = &r->live.missed[i];
		char name[64];

		if (m->uring)
			snprintf(name, sizeof(name), "io_uring op %u", m->nr);
		else
			syscall_name(m->nr, -1, name, sizeof(name));
		fprintf(out, "     %s, rule key \"%s\"\n", name, m->key[0] ? m->key : "(none)");
	}
}

static void print_stale(FILE *out, const struct report_ctx *r)
{
	const struct stale_report *st = &r->live.stale;
	char n_rules[32] = "unreadable";

	if (st->kernel_n_rules >= 0)
		snprintf(n_rules, sizeof(n_rules), "%d", st->kernel_n_rules);
	fprintf(out, "  stale rule accounting  %14s  (audit_n_rules %s, rules that count %u)\n",
		stale_name(st->verdict), n_rules, st->counted_rules);
	if (st->verdict == STALE_YES)
		fprintf(out,
			"    %llu syscalls ran with a full audit context no rule needed; it lasts until reboot\n",
			(unsigned long long)st->syscalls);
	if (st->syscalls && r->cfg.calib->ns_context > 0)
		fprintf(out, "    estimated cost: %.3f ms (%.0f ns a syscall, calibrated)\n",
			stale_cost_ns(r) / 1e6, r->cfg.calib->ns_context);
	else if (st->verdict == STALE_UNKNOWN)
		fprintf(out,
			"    unknown while rules are loaded and audit_n_rules cannot be read (no KALLSYMS_ALL)\n");
}

static void print_saved(FILE *out, const struct report_ctx *r, const struct counts_snapshot *t,
			double seconds)
{
	double ns = report_saved_ns(r, t);

	fprintf(out, "  estimated time saved   %11.3f ms  (%.0f ns/s, %.3f%% of all CPUs)\n", ns / 1e6,
		seconds > 0 ? ns / seconds : 0, 100 * cpu_share(r, ns, seconds));
	if (r->cfg.timing)
		fprintf(out,
			"    measured (--timing): skippable walks took %.3f ms, all walks %.3f ms\n"
			"    (fentry to fexit, less one clock read of %llu ns; the probes' own entry cost is outside)\n",
			t->total.skippable_walk_ns / 1e6, t->total.walk_ns / 1e6,
			(unsigned long long)r->live.clock_ns);
	if (r->cfg.calib_from)
		fprintf(out, "    calibrated (%s, %s)\n", r->cfg.calib_from, r->cfg.calib->kernel);
	else
		fprintf(out,
			"    UNCALIBRATED: %.1f ns per visited entry, the series' slope from 128 to 256 rules;\n"
			"    run 'auditskip calibrate' to measure this machine\n",
			r->cfg.calib->ns_per_entry);
}

void report_summary(const struct report_ctx *r, const struct walk_counts *w, double seconds,
		    int command_status)
{
	const struct counts_snapshot *t = &w->exit;
	unsigned int order[NR_SLOTS], n;

	if (r->cfg.json) {
		json_object *o = counts_json(r, "summary", w, seconds);

		json_object_object_add(o, "full_mask_rules", full_mask_rules_json(r->live.rules));
		if (r->cfg.comm_top) {
			json_object_object_add(o, "comms", comms_json(r));
			add_u64(o, "comms_lost", r->live.comms_lost);
		}
		if (command_status >= 0)
			json_object_object_add(o, "command_status",
					       json_object_new_int(command_status));
		print_json(r->cfg.out, o);
		return;
	}
	fprintf(r->cfg.out, "\nSummary over %.1f s (mode %s, kernel %s, %s):\n", seconds, r->cfg.mode,
		r->cfg.kernel, r->cfg.scope);
	fprintf(r->cfg.out, "  exit-filter walks      %14llu\n", (unsigned long long)t->total.scans);
	fprintf(r->cfg.out, "  skippable walks        %14llu  (%.1f%% of walks)\n",
		(unsigned long long)t->total.skippable, share(t->total.skippable, t->total.scans));
	fprintf(r->cfg.out, "  needless rule visits   %14llu  (rule entries those walks visited)\n",
		(unsigned long long)t->total.walked_skipped);
	fprintf(r->cfg.out, "  exit-list rules now    %14u  (mask bits set: %u)\n", r->live.mirror.exit_rules,
		mask_count(r->live.mirror.mask));
	fprintf(r->cfg.out, "  skippable, arch masks  %14llu  (one aggregate per arch, beyond the patch)\n",
		(unsigned long long)t->total.skippable_arch);
	fprintf(r->cfg.out, "  skippable, perm masks  %14llu  (perm= rules narrowed to their syscalls)\n",
		(unsigned long long)t->total.skippable_perm);
	print_safety(r->cfg.out, r, &t->total);
	if (r->cfg.uring)
		fprintf(r->cfg.out, "  io_uring exit walks    %14llu  (skippable %llu, %u io_uring rules)\n",
			(unsigned long long)w->uring.total.scans,
			(unsigned long long)w->uring.total.skippable, r->live.mirror.uring_rules);
	print_saved(r->cfg.out, r, t, seconds);
	print_stale(r->cfg.out, r);
	if (!t->total.scans)
		fprintf(r->cfg.out,
			"  No exit-filter walk ran: with no rule loaded audit contexts stay dummy, and tasks\n"
			"  started before audit was enabled are never audited.\n");

	n = seen_slots(t, order);
	if (n) {
		fprintf(r->cfg.out, "\nTop syscalls by skippable walks (RULES: exit rules naming it):\n");
		fprintf(r->cfg.out, "  %5s %-20s %12s %12s %7s %15s %6s\n", "NR", "SYSCALL", "WALKS",
			"SKIPPABLE", "SHARE", "NEEDLESS VISITS", "RULES");
	}
	for (unsigned int i = 0; i < n && i < (unsigned int)r->cfg.top; i++) {
		const struct scan_counts *c = &t->slot[order[i]];
		char name[64];

		syscall_name(order[i], -1, name, sizeof(name));
		fprintf(r->cfg.out, "  %5u %-20s %12llu %12llu %6.1f%% %15llu %6u\n", order[i], name,
			(unsigned long long)c->scans, (unsigned long long)c->skippable,
			share(c->skippable, c->scans), (unsigned long long)c->walked_skipped,
			rules_naming(r->live.rules, order[i]));
	}
	print_comms(r->cfg.out, r);
	print_full_mask_rules(r->cfg.out, r->live.rules);
	if (command_status >= 0)
		fprintf(r->cfg.out, "\nCommand exited with status %d.\n", command_status);
	fflush(r->cfg.out);
}

/* Named syscalls whose bit is (or is not) set; the list only when short. */
static void print_syscalls(FILE *out, const syscall_mask m, bool set, const char *title)
{
	unsigned int n = 0, listed = 0;
	char name[64];

	for (unsigned int nr = 0; nr < MASK_SYSCALL_BITS; nr++) {
		syscall_name(nr, -1, name, sizeof(name));
		n += mask_test(m, nr) == set && strncmp(name, "syscall_", 8);
	}
	fprintf(out, "%s: %u", title, n);
	if (n > 48) {
		fprintf(out, " (too many to list)\n");
		return;
	}
	for (unsigned int nr = 0; nr < MASK_SYSCALL_BITS; nr++) {
		syscall_name(nr, -1, name, sizeof(name));
		if (mask_test(m, nr) == set && strncmp(name, "syscall_", 8))
			fprintf(out, "%s%s", listed++ % 8 ? " " : "\n  ", name);
	}
	fprintf(out, "\n");
}

void report_rules(FILE *out, const struct ruleset *rs, bool json)
{
	struct whatif_masks w;
	syscall_mask all;
	char name[64];

	ruleset_exit_mask(rs, -1, all);
	if (json) {
		json_object *o = json_object_new_object(), *arr = json_object_new_array();
		json_object *skip = json_object_new_array();

		json_object_object_add(o, "schema", json_object_new_int(JSON_SCHEMA));
		mask_json(o, all, ruleset_exit_rules(rs));
		for (size_t i = 0; i < rs->n; i++) {
			const struct audit_rule *rule = &rs->rules[i];
			json_object *e = json_object_new_object();

			add_str(e, "text", rule->text);
			add_str(e, "key", rule->key);
			add_u64(e, "list", rule->list);
			json_object_object_add(e, "exit_list",
					       json_object_new_boolean(rule_on_exit_list(rule)));
			json_object_object_add(e, "inode_hash",
					       json_object_new_boolean(rule->inode_hash));
			add_u64(e, "mask_bits", mask_count(rule->mask));
			json_object_array_add(arr, e);
		}
		json_object_object_add(o, "rules", arr);
		for (unsigned int nr = 0; nr < MASK_SYSCALL_BITS; nr++) {
			syscall_name(nr, -1, name, sizeof(name));
			if (!mask_test(all, nr) && strncmp(name, "syscall_", 8))
				json_object_array_add(skip, json_object_new_string(name));
		}
		json_object_object_add(o, "skipped_syscalls", skip);
		json_object_object_add(o, "full_mask_rules", full_mask_rules_json(rs));
		whatif_build(rs, &w);
		add_u64(o, "native_arch_mask_bits", mask_count(w.arch_mask[0]));
		add_u64(o, "compat_arch_mask_bits", mask_count(w.arch_mask[1]));
		add_u64(o, "perm_mask_bits", mask_count(w.perm_mask));
		print_json(out, o);
		return;
	}

	fprintf(out, "Exit-list rules (walked by audit_filter_syscall for every audited syscall):\n");
	for (size_t i = 0; i < rs->n; i++)
		if (rule_on_exit_list(&rs->rules[i]))
			fprintf(out, "  %4u bits  %s\n", mask_count(rs->rules[i].mask),
				rs->rules[i].text);
	fprintf(out, "\nOn the inode hash (not walked by the exit filter):\n");
	for (size_t i = 0; i < rs->n; i++)
		if (rs->rules[i].inode_hash)
			fprintf(out, "            %s\n", rs->rules[i].text);
	fprintf(out, "\nAggregate mask of %zu exit rules: %u of %u bits set\n",
		ruleset_exit_rules(rs), mask_count(all), MASK_BITS);
	whatif_build(rs, &w);
	fprintf(out, "Beyond the patch: native-arch mask %u bits, compat-arch mask %u bits, "
		     "perm-narrowed mask %u bits\n",
		mask_count(w.arch_mask[0]), mask_count(w.arch_mask[1]), mask_count(w.perm_mask));
	print_syscalls(out, all, true, "Syscalls that still walk the list");
	print_syscalls(out, all, false, "Syscalls the fast path would skip");
	print_full_mask_rules(out, rs);
}
