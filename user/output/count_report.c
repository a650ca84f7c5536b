// SPDX-License-Identifier: GPL-2.0
/* A counting run's reports, text or JSON lines: at start, each interval and the summary. */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <json-c/json.h>
#include <libaudit.h>
#include "output/duty_report.h"
#include "output/count_report.h"
#include "output/blockers_report.h"
#include "output/full_mask_rules.h"
#include "output/shadowing_report.h"
#include "output/designs_report.h"
#include "output/json_out.h"
#include "output/rule_cost_table.h"
#include "audit/syscalls.h"
#include "model/never_prefix.h"
#include "model/whatif_masks.h"
#include "model/time_saved.h"

static double share(__u64 part, __u64 whole)
{
	return whole ? 100.0 * part / whole : 0.0;
}

/*
 * The exit rules whose mask has nr's bit, as a walk of slot arch `arch`
 * meets them: into *own those for its arch or every arch, which name its
 * syscall; the rest are another arch's, naming that arch's syscall of the
 * same number (the mask is arch-blind: the walk tests them too).
 */
static unsigned int rules_naming(const struct ruleset *rs, unsigned int arch, unsigned int nr,
				 unsigned int *own)
{
	int machine = arch_machine(arch);
	__u32 elf = machine >= 0 ? (__u32)audit_machine_to_elf(machine) : 0;
	unsigned int n = 0;

	*own = 0;
	for (size_t i = 0; i < rs->n; i++) {
		const struct audit_rule *rule = &rs->rules[i];

		if (!rule_on_exit_list(rule) || !mask_test(rule->mask, nr))
			continue;
		n++;
		*own += !rule->arch_elf || rule->arch_elf == elf;
	}
	return n;
}

static const struct counts_snapshot *sort_snap;

static int by_skippable(const void *a, const void *b)
{
	const struct scan_counts *x = &sort_snap->slot[*(const unsigned int *)a];
	const struct scan_counts *y = &sort_snap->slot[*(const unsigned int *)b];

	if (x->skippable_walks != y->skippable_walks)
		return x->skippable_walks < y->skippable_walks ? 1 : -1;
	if (x->walks != y->walks)
		return x->walks < y->walks ? 1 : -1;
	return 0;
}

/* Slots with any walk, most skippable first; returns how many. */
static unsigned int seen_slots(const struct counts_snapshot *s, unsigned int slots,
			       unsigned int *order)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < slots; i++)
		if (s->slot[i].walks)
			order[n++] = i;
	sort_snap = s;
	qsort(order, n, sizeof(*order), by_skippable);
	return n;
}

/* Counters exist only where the mode can know them: null says "cannot see". */
static bool counter_known(const struct report_ctx *r, enum counter_kind kind)
{
	switch (kind) {
	case COUNTER_OUTCOME:
	case COUNTER_WHATIF_OUTCOME:
		return r->run->cfg.outcomes;
	case COUNTER_TIMING:
		return r->run->cfg.timing;
	default:
		return true;
	}
}

/* The series leaves the io_uring list alone: its walks are never skippable. */
static bool counter_applies(enum counter_kind kind, bool uring, const char *name)
{
	if (!uring)
		return true;
	return kind == COUNTER_OUTCOME || (kind == COUNTER_BASE && !strcmp(name, "walks"));
}

static void add_counters(json_object *o, const struct report_ctx *r, const struct scan_counts *c,
			 bool uring)
{
	for (enum counter_id id = 0; id < NR_COUNTERS; id++) {
		const struct counter_info *ci = &counters[id];

		if (counter_applies(ci->kind, uring, ci->name))
			json_object_object_add(
				o, ci->name,
				counter_known(r, ci->kind) ?
					json_object_new_uint64(counter_value(c, id)) :
					NULL);
	}
}

/* Bucket b holds [2^b, 2^(b+1)) ns; bucket 0 also holds 0. */
static unsigned long long bucket_from(unsigned int b)
{
	return b ? 1ULL << b : 0;
}

/* --timing: the slot's walk times, funclatency's buckets; null without it. */
static json_object *hist_json(const struct report_ctx *r, unsigned int slot)
{
	json_object *arr;

	if (!r->run->live.hist)
		return NULL;
	arr = json_object_new_array();
	for (unsigned int b = 0; b < HIST_BUCKETS; b++) {
		const struct hist_value *h = &r->run->live.hist[slot][b];
		json_object *e;

		if (!h->walks)
			continue;
		e = json_object_new_object();
		add_u64(e, "from_ns", bucket_from(b));
		add_u64(e, "to_ns", (1ULL << (b + 1)) - 1);
		add_u64(e, "walks", h->walks);
		add_u64(e, "ns", h->ns);
		json_object_array_add(arr, e);
	}
	return arr;
}

/* Like funclatency: one line per bucket from the first to the last used, a bar of 40. */
static void print_hist(FILE *out, const struct hist_value *h, const char *name)
{
	unsigned int first = HIST_BUCKETS, last = 0;
	__u64 most = 0;

	for (unsigned int b = 0; b < HIST_BUCKETS; b++) {
		if (!h[b].walks)
			continue;
		first = b < first ? b : first;
		last = b;
		most = h[b].walks > most ? h[b].walks : most;
	}
	if (first == HIST_BUCKETS)
		return;
	fprintf(out, "\n  %s: walk time, ns\n  %20s : %-10s %-12s %s\n", name, "ns", "walks",
		"total ns", "distribution");
	for (unsigned int b = first; b <= last; b++) {
		char bar[41];
		int len = (int)(40 * h[b].walks / most);

		memset(bar, '*', len);
		bar[len] = '\0';
		fprintf(out, "  %9llu -> %-9llu: %-10llu %-12llu |%-40s|\n", bucket_from(b),
			(1ULL << (b + 1)) - 1, (unsigned long long)h[b].walks,
			(unsigned long long)h[b].ns, bar);
	}
}

/* with_hist: the histograms run since start, so only the summary has them. */
static json_object *slots_json(const struct report_ctx *r, const struct counts_snapshot *s,
			       bool uring, bool with_hist)
{
	static unsigned int order[NR_COUNT_SLOTS];
	json_object *arr = json_object_new_array();
	unsigned int n = seen_slots(s, uring ? NR_SLOTS : NR_COUNT_SLOTS, order);

	for (unsigned int i = 0; i < n; i++) {
		const struct scan_counts *c = &s->slot[order[i]];
		unsigned int nr = order[i] % NR_SLOTS, arch = order[i] / NR_SLOTS;
		json_object *e = json_object_new_object();
		char name[64];

		json_object_object_add(e, uring ? "op" : "nr", json_object_new_int(nr));
		if (!uring) {
			slot_name(arch, nr, name, sizeof(name));
			add_str(e, "name", name);
			add_str(e, "arch", arch_name(arch));
		}
		add_counters(e, r, c, uring);
		if (!uring) {
			json_object_object_add(
				e, "saved_ns",
				json_rounded(time_saved_slot_ns(r->run->cfg.calib, c), 0));
			if (with_hist)
				json_object_object_add(e, "walk_ns_log2", hist_json(r, order[i]));
		}
		json_object_array_add(arr, e);
	}
	return arr;
}

static json_object *uring_json(const struct report_ctx *r, const struct counts_snapshot *s)
{
	json_object *o;

	if (!r->run->cfg.uring)
		return NULL;
	o = json_object_new_object();
	add_u64(o, "exit_rules", r->run->live.mirror.uring_rules);
	add_u64(o, "mask_bits", mask_count(r->run->live.mirror.uring_mask));
	add_counters(o, r, &s->total, true);
	json_object_object_add(o, "ops", slots_json(r, s, true, false));
	return o;
}

/* What the mode cannot count exactly, counted (run_counters.h); null where it has no such gap. */
static json_object *blind_spots_json(const struct report_ctx *r)
{
	json_object *o = json_object_new_object();

	for (int id = 0; id < NR_RUN_COUNTERS; id++)
		json_object_object_add(o, run_counter_info[id].name,
				       run_counter_known(&r->run->cfg, id) ?
					       json_object_new_uint64(r->run->live.counters[id]) :
					       NULL);
	return o;
}

static json_object *missed_json(const struct report_ctx *r)
{
	json_object *arr = json_object_new_array();

	for (__u64 i = 0; i < r->run->live.missed_total && i < MISSED_LOG; i++) {
		const struct missed_match *m = &r->run->live.missed[i];
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

/*
 * Wall-clock seconds with milliseconds: UTC as RFC 3339 writes it (JSON),
 * or the local time of day (the text report).
 */
static void format_time(double s, bool utc, char *buf, size_t size)
{
	time_t t = (time_t)s;
	struct tm tm;
	size_t n;

	if (utc)
		gmtime_r(&t, &tm);
	else
		localtime_r(&t, &tm);
	n = strftime(buf, size, utc ? "%Y-%m-%dT%H:%M:%S" : "%H:%M:%S", &tm);
	snprintf(buf + n, size - n, utc ? ".%03dZ" : ".%03d", (int)((s - (double)t) * 1000));
}

static json_object *utc_json(double s)
{
	char buf[40];

	if (s <= 0)
		return NULL;
	format_time(s, true, buf, sizeof(buf));
	return json_object_new_string(buf);
}

/* The interval a "yes" rests on: when, and the walks that prove it. */
static json_object *stale_evidence_json(const struct stale_interval *iv)
{
	json_object *o = json_object_new_object(), *arr = json_object_new_array();

	json_object_object_add(o, "from", utc_json(iv->from_s));
	json_object_object_add(o, "to", utc_json(iv->to_s));
	json_object_object_add(o, "last_rule_change", utc_json(iv->last_change_s));
	add_u64(o, "walks", iv->walks);
	add_u64(o, "proofs", iv->proofs);
	for (unsigned int i = 0; i < iv->nlog; i++) {
		const struct stale_walk *w = &iv->log[i];
		json_object *e = json_object_new_object();
		char name[64];

		slot_name(w->arch, w->nr, name, sizeof(name));
		add_str(e, "syscall", name);
		add_str(e, "arch", arch_name(w->arch));
		add_u64(e, "pid", w->pid);
		add_u64(e, "tgid", w->tgid);
		add_str(e, "comm", w->comm);
		json_object_object_add(e, "seen", utc_json(iv->seen_s[i]));
		json_object_array_add(arr, e);
	}
	json_object_object_add(o, "syscalls", arr);
	return o;
}

static json_object *stale_json(const struct report_ctx *r)
{
	const struct stale_report *st = &r->run->live.stale;
	const struct calibration *calib = r->run->cfg.calib;
	json_object *o = json_object_new_object();

	add_str(o, "state", stale_name(st->verdict));
	add_str_or_null(o, "reason", st->reason);
	json_object_object_add(o, "evidence",
			       st->has_evidence ? stale_evidence_json(&st->evidence) : NULL);
	add_u64(o, "syscalls", st->syscalls);
	json_object_object_add(o, "audit_n_rules",
			       st->kernel_n_rules >= 0 ? json_object_new_int(st->kernel_n_rules) :
							 NULL);
	add_u64(o, "counted_rules", st->counted_rules);
	json_object_object_add(o, "cost_ns",
			       calib->ns_context > 0 ?
				       json_rounded(time_stale_cost_ns(calib, st->syscalls), 0) :
				       NULL);
	return o;
}

/* How often the loader listed the rules, why, and what a listing cost it. */
static json_object *resync_json(const struct report_ctx *r)
{
	static const char *const reasons[NR_RESYNC_REASONS] = {
		[RESYNC_START] = "start",
		[RESYNC_CHANGE] = "change",
		[RESYNC_LOST] = "lost",
		[RESYNC_PERIODIC] = "periodic",
	};
	const struct resync *rs = r->run->live.resync;
	json_object *o = json_object_new_object(), *by = json_object_new_object();
	__u64 total = 0;

	for (int i = 0; i < NR_RESYNC_REASONS; i++) {
		add_u64(by, reasons[i], rs ? rs->listings[i] : 0);
		total += rs ? rs->listings[i] : 0;
	}
	add_u64(o, "listings", total);
	json_object_object_add(o, "by_reason", by);
	add_u64(o, "notifications", r->run->live.notifications ? *r->run->live.notifications : 0);
	json_object_object_add(o, "listing_cpu_s", json_rounded(rs ? rs->cost_s : 0, 6));
	json_object_object_add(o, "period_s", json_rounded(rs ? rs->period_s : 0, 6));
	json_object_object_add(o, "listing_began", json_rounded(rs ? rs->began_wall_s : 0, 6));
	return o;
}

static json_object *calibration_json(const struct report_ctx *r)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "calibrated",
			       json_object_new_boolean(r->run->cfg.calib_from != NULL));
	add_str_or_null(o, "file", r->run->cfg.calib_from);
	json_object_object_add(o, "ns_per_entry", json_rounded(r->run->cfg.calib->ns_per_entry, 2));
	json_object_object_add(o, "ns_context", json_rounded(r->run->cfg.calib->ns_context, 2));
	json_object_object_add(o, "ns_walk_call", json_rounded(r->run->cfg.calib->ns_walk_call, 2));
	return o;
}

/*
 * The mode's blind spots, short: without their parentheses and what follows
 * a ';' (JSON's blind_to and doc/modes.md have them whole).
 */
static void print_blind_short(FILE *out, const char *blind)
{
	int depth = 0;

	fprintf(out, "  cannot see: ");
	for (const char *c = blind; *c && *c != ';'; c++) {
		depth += (*c == '(') - (*c == ')');
		if (depth || *c == ')' || (*c == ' ' && c[1] == '('))
			continue;
		fputc(*c, out);
	}
	fprintf(out, "%s\n",
		strchr(blind, '(') || strchr(blind, ';') ? " (--json: blind_to, whole)" : "");
}

static json_object *counts_json(const struct report_ctx *r, const char *type,
				const struct walk_counts *w, double seconds)
{
	double saved = time_saved_ns(r->run->cfg.calib, &w->exit);
	json_object *o = json_object_new_object();
	struct prefix_ends ends;

	add_str(o, "type", type);
	json_object_object_add(o, "schema", json_object_new_int(JSON_SCHEMA));
	add_u64(o, "time", (__u64)time(NULL));
	json_object_object_add(o, "seconds", json_rounded(seconds, 6));
	add_str(o, "mode", r->run->cfg.mode);
	add_str(o, "kernel", r->run->cfg.kernel);
	add_str(o, "mirror_source",
		r->run->live.mirror.source == MIRROR_KERNEL_LIST ? "kernel-list" : "netlink");
	add_u64(o, "mirror_generation", r->run->live.mirror.generation);
	mask_json(o, r->run->live.mirror.mask, r->run->live.mirror.exit_rules);
	add_counters(o, r, &w->exit.total, false);
	never_prefix_count(r->run->live.rules, &w->exit, &ends);
	add_u64(o, "prefix_walks", ends.walks);
	add_u64(o, "prefix_visits", ends.visits);
	json_object_object_add(o, "timing_clock_ns",
			       r->run->cfg.timing ? json_object_new_uint64(r->run->live.clock_ns) :
						    NULL);
	add_str(o, "perm_classes", r->run->live.perm_classes);
	json_object_object_add(o, "saved_ns", json_rounded(saved, 0));
	json_object_object_add(o, "saved_ns_per_s",
			       json_rounded(seconds > 0 ? saved / seconds : 0, 0));
	json_object_object_add(
		o, "saved_cpu_share",
		json_rounded(time_saved_cpu_share(saved, seconds, r->run->cfg.ncpus), 9));
	json_object_object_add(o, "calibration", calibration_json(r));
	json_object_object_add(o, "missed", missed_json(r));
	add_u64(o, "lost_descendants", r->run->live.lost_descendants);
	json_object_object_add(o, "syscalls",
			       slots_json(r, &w->exit, false, !strcmp(type, "summary")));
	json_object_object_add(o, "uring", uring_json(r, &w->uring));
	json_object_object_add(o, "stale", stale_json(r));
	json_object_object_add(o, "blind_spots", blind_spots_json(r));
	json_object_object_add(o, "resync", resync_json(r));
	json_object_object_add(o, "coverage", duty_json(r->run));
	return o;
}

void report_start(const struct report_ctx *r)
{
	unsigned int bits = mask_count(r->run->live.mirror.mask);

	if (r->json) {
		json_object *o = json_object_new_object();

		add_str(o, "type", "start");
		json_object_object_add(o, "schema", json_object_new_int(JSON_SCHEMA));
		add_str(o, "mode", r->run->cfg.mode);
		add_str(o, "kernel", r->run->cfg.kernel);
		add_str(o, "blind_to", r->run->cfg.blind);
		add_str(o, "mirror", r->run->cfg.mirror_how);
		add_str(o, "scope", r->run->cfg.scope);
		mask_json(o, r->run->live.mirror.mask, r->run->live.mirror.exit_rules);
		json_object_object_add(o, "full_mask_rules",
				       full_mask_rules_json(r->run->live.rules));
		print_json(r->out, o);
		return;
	}
	fprintf(r->out, "auditskip: kernel %s, mode %s\n", r->run->cfg.kernel, r->run->cfg.mode);
	print_blind_short(r->out, r->run->cfg.blind);
	fprintf(r->out, "  mask mirror: %s\n", r->run->cfg.mirror_how);
	fprintf(r->out, "  exit-list rules: %u, mask bits set: %u of %u\n",
		r->run->live.mirror.exit_rules, bits, MASK_BITS);
	fprintf(r->out, "  counting: %s\n", r->run->cfg.scope);
	fflush(r->out);
}

void report_interval(const struct report_ctx *r, const struct walk_counts *w, double seconds)
{
	const struct counts_snapshot *d = &w->exit;
	char stamp[16];
	time_t now = time(NULL);

	if (r->json) {
		print_json(r->out, counts_json(r, "interval", w, seconds));
		return;
	}
	strftime(stamp, sizeof(stamp), "%H:%M:%S", localtime(&now));
	fprintf(r->out,
		"%s  walks %llu  skippable %llu (%.1f%%)  needless rule visits %llu  rules %u  mask bits %u%s\n",
		stamp, (unsigned long long)d->total.walks,
		(unsigned long long)d->total.skippable_walks,
		share(d->total.skippable_walks, d->total.walks),
		(unsigned long long)d->total.needless_rule_visits, r->run->live.mirror.exit_rules,
		mask_count(r->run->live.mirror.mask), duty_interval_note(r->run));
	if (r->run->cfg.outcomes && d->total.missed_matches)
		fprintf(r->out, "          MISSED MATCHES %llu: see the summary\n",
			(unsigned long long)d->total.missed_matches);
	fflush(r->out);
}

static json_object *comms_json(const struct report_ctx *r)
{
	json_object *arr = json_object_new_array();

	for (size_t i = 0; i < r->run->live.ncomms && i < (size_t)r->run->cfg.comm_top; i++) {
		json_object *e = json_object_new_object();

		add_str(e, "comm", r->run->live.comms[i].comm);
		add_u64(e, "walks", r->run->live.comms[i].c.walks);
		add_u64(e, "skippable_walks", r->run->live.comms[i].c.skippable_walks);
		add_u64(e, "needless_rule_visits", r->run->live.comms[i].c.needless_rule_visits);
		json_object_array_add(arr, e);
	}
	return arr;
}

static void print_comms(FILE *out, const struct report_ctx *r)
{
	if (!r->run->cfg.comm_top || !r->run->live.ncomms)
		return;
	fprintf(out, "\nTop processes by skippable walks (since start):\n");
	fprintf(out, "  %-16s %12s %12s %7s %15s\n", "COMM", "WALKS", "SKIPPABLE", "SHARE",
		"NEEDLESS VISITS");
	for (size_t i = 0; i < r->run->live.ncomms && i < (size_t)r->run->cfg.comm_top; i++) {
		const struct comm_counts *c = &r->run->live.comms[i].c;

		fprintf(out, "  %-16s %12llu %12llu %6.1f%% %15llu\n", r->run->live.comms[i].comm,
			(unsigned long long)c->walks, (unsigned long long)c->skippable_walks,
			share(c->skippable_walks, c->walks),
			(unsigned long long)c->needless_rule_visits);
	}
	if (r->run->live.comms_lost)
		fprintf(out, "  (%llu walks of further names not counted: %d names at most)\n",
			(unsigned long long)r->run->live.comms_lost, MAX_COMMS);
}

/* One summary row: the counter's own label, its value, and what it means. */
static void print_counter(const struct report_ctx *r, const struct scan_counts *t,
			  enum counter_id id, const char *note)
{
	const struct counter_info *ci = &counters[id];

	if (!counter_known(r, ci->kind)) {
		fprintf(r->out, "  %-24s %12s  (mode %s cannot see a walk's outcome)\n", ci->label,
			"n/a", r->run->cfg.mode);
		return;
	}
	fprintf(r->out, "  %-24s %12llu  (%s)\n", ci->label,
		(unsigned long long)counter_value(t, id), note);
}

static void print_safety(const struct report_ctx *r, const struct scan_counts *t)
{
	FILE *out = r->out;

	print_counter(r, t, COUNTER_ID_missed_matches,
		      "a rule matched with its bit clear: must be 0");
	print_counter(r, t, COUNTER_ID_missed_arch_mask, "the same for the per-arch masks");
	print_counter(r, t, COUNTER_ID_missed_perm_mask, "the same for the perm-narrowed mask");
	print_counter(r, t, COUNTER_ID_missed_entry_mask, "the same for the entry masks");
	if (!r->run->cfg.outcomes)
		return;
	print_counter(r, t, COUNTER_ID_needless_despite_mask, "bit set, no rule matched");
	print_counter(r, t, COUNTER_ID_raced_matches, "the rule was published during the walk");
	if (!r->run->live.missed_total)
		return;
	fprintf(out,
		"\n  !! %llu MISSED MATCHES: the aggregate mask would have suppressed audit records.\n",
		(unsigned long long)r->run->live.missed_total);
	for (__u64 i = 0; i < r->run->live.missed_total && i < MISSED_LOG; i++) {
		const struct missed_match *m = &r->run->live.missed[i];
		char name[64];

		if (m->uring)
			snprintf(name, sizeof(name), "io_uring op %u", m->nr);
		else
			syscall_name(m->nr, -1, name, sizeof(name));
		fprintf(out, "     %s, rule key \"%s\"\n", name, m->key[0] ? m->key : "(none)");
	}
}

static void print_stale_evidence(FILE *out, const struct stale_interval *iv)
{
	char from[24], to[24], change[24] = "none heard", seen[24];

	format_time(iv->from_s, false, from, sizeof(from));
	format_time(iv->to_s, false, to, sizeof(to));
	if (iv->last_change_s > 0)
		format_time(iv->last_change_s, false, change, sizeof(change));
	fprintf(out,
		"    evidence: between listings at %s and %s that found no rule that counts (last rule change before: %s),\n"
		"    %llu syscalls walked, %llu of them syscalls that log no record:\n",
		from, to, change, (unsigned long long)iv->walks, (unsigned long long)iv->proofs);
	for (unsigned int i = 0; i < iv->nlog; i++) {
		const struct stale_walk *w = &iv->log[i];
		char name[64];

		slot_name(w->arch, w->nr, name, sizeof(name));
		format_time(iv->seen_s[i], false, seen, sizeof(seen));
		fprintf(out, "      %s (%s) by pid %u, tgid %u, \"%s\", counted at %s\n", name,
			arch_name(w->arch), w->pid, w->tgid, w->comm, seen);
	}
}

static void print_stale(FILE *out, const struct report_ctx *r)
{
	const struct stale_report *st = &r->run->live.stale;
	const struct calibration *calib = r->run->cfg.calib;
	char n_rules[32] = "unreadable";

	if (st->kernel_n_rules >= 0)
		snprintf(n_rules, sizeof(n_rules), "%d", st->kernel_n_rules);
	fprintf(out, "  stale rule accounting  %14s  (audit_n_rules %s, rules that count %u)\n",
		stale_name(st->verdict), n_rules, st->counted_rules);
	if (st->verdict == STALE_YES)
		fprintf(out,
			"    %llu syscalls ran with a full audit context no rule needed; it lasts until reboot\n",
			(unsigned long long)st->syscalls);
	if (st->syscalls && calib->ns_context > 0)
		fprintf(out, "    estimated cost: %.3f ms (%.0f ns a syscall, calibrated)\n",
			time_stale_cost_ns(calib, st->syscalls) / 1e6, calib->ns_context);
	if (st->reason)
		fprintf(out, "    %s\n", st->reason);
	if (st->has_evidence)
		print_stale_evidence(out, &st->evidence);
}

static void print_saved(FILE *out, const struct report_ctx *r, const struct counts_snapshot *t,
			double seconds)
{
	double ns = time_saved_ns(r->run->cfg.calib, t);

	/* Of one CPU, as the per-rule table gives it. */
	fprintf(out, "  estimated time saved   %11.3f ms  (%.0f ns/s, %.4f%% of one CPU)\n",
		ns / 1e6, seconds > 0 ? ns / seconds : 0,
		100 * time_saved_cpu_share(ns, seconds, 1));
	if (r->run->cfg.timing)
		fprintf(out,
			"    measured (--timing): skippable walks took %.3f ms, all walks %.3f ms\n"
			"    (fentry to fexit, less one clock read of %llu ns; the probes' own entry cost is outside)\n",
			t->total.measured_skippable_walk_ns / 1e6, t->total.measured_walk_ns / 1e6,
			(unsigned long long)r->run->live.clock_ns);
	if (r->run->cfg.calib_from)
		fprintf(out, "    calibrated (%s, %s)\n", r->run->cfg.calib_from,
			r->run->cfg.calib->kernel);
	else
		fprintf(out,
			"    UNCALIBRATED: %.1f ns per visited entry, the series' slope from 128 to 256 rules;\n"
			"    run 'auditskip calibrate' to measure this machine\n",
			r->run->cfg.calib->ns_per_entry);
}

static struct rule_cost_view rule_view(const struct report_ctx *r, double seconds)
{
	return (struct rule_cost_view){
		.rules = r->run->live.rules,
		.costs = r->run->live.rule_costs,
		.calib = r->run->cfg.calib,
		.seconds = seconds,
		.top = r->run->cfg.rule_top,
		.more = "--per-rule=N",
	};
}

/* --per-rule: every exit rule's counts and cost, and whether they are exact. */
static json_object *rule_costs_summary_json(const struct report_ctx *r, double seconds)
{
	const struct run_live *live = &r->run->live;
	struct rule_cost_view v = rule_view(r, seconds);
	json_object *o = json_object_new_object();

	if (!live->rule_costs)
		return NULL;
	json_object_object_add(o, "exact", json_object_new_boolean(live->rule_costs->exact));
	add_str_or_null(o, "bound_because", live->rule_costs_bound);
	add_u64(o, "matches_unplaced", live->rule_matches_unplaced);
	json_object_object_add(o, "walks_ns", json_rounded(live->rule_costs->walks_ns, 0));
	json_object_object_add(o, "walk_calls_ns", json_rounded(live->rule_costs->calls_ns, 0));
	json_object_object_add(
		o, "evaluations_priced",
		json_object_new_boolean(calibration_prices_evaluations(r->run->cfg.calib)));
	json_object_object_add(o, "rules", rule_costs_json(&v));
	return o;
}

/* --per-rule: the dearest rules, and why the counts are bounds where they are. */
static void print_rule_costs(const struct report_ctx *r, double seconds)
{
	const struct run_live *live = &r->run->live;
	struct rule_cost_view v = rule_view(r, seconds);

	if (!r->run->cfg.rule_top || !live->rule_costs)
		return;
	rule_costs_print(r->out, &v);
	if (live->rule_costs_bound)
		fprintf(r->out, "  bounds, not exact: %s\n", live->rule_costs_bound);
	if (live->rule_matches_unplaced)
		fprintf(r->out, "  %llu matches of rules no longer listed are not in the table\n",
			(unsigned long long)live->rule_matches_unplaced);
	if (live->designs)
		designs_print(r->out, live->designs, seconds);
}

/*
 * The loaded rules a never rule before them silences: how many, and the
 * first few as `auditskip rules --json` gives them (null for both where
 * they could not be worked out).
 */
static void shadowed_summary_json(json_object *o, const struct run_state *run)
{
	const struct shadowing *s = run->live.shadowing;

	json_object_object_add(o, "shadowed_rule_count", s ? json_object_new_uint64(s->n) : NULL);
	json_object_object_add(
		o, "shadowed_rules",
		s ? shadowed_rules_json(run->live.rules, s->rules, s->n, SHADOWED_SUMMARY_RULES) :
		    NULL);
}

static void print_summary_json(const struct report_ctx *r, const struct walk_counts *w,
			       double seconds, int command_status)
{
	json_object *o = counts_json(r, "summary", w, seconds);

	json_object_object_add(o, "full_mask_rules", full_mask_rules_json(r->run->live.rules));
	json_object_object_add(o, "skip_blockers", skip_blockers_json(r->run->live.rules));
	shadowed_summary_json(o, r->run);
	if (r->run->cfg.comm_top) {
		json_object_object_add(o, "comms", comms_json(r));
		add_u64(o, "comms_lost", r->run->live.comms_lost);
	}
	if (r->run->cfg.rule_top) {
		json_object_object_add(o, "rule_costs", rule_costs_summary_json(r, seconds));
		json_object_object_add(
			o, "designs",
			r->run->live.designs ? designs_json(r->run->live.designs, seconds) : NULL);
	}
	if (command_status >= 0)
		json_object_object_add(o, "command_status", json_object_new_int(command_status));
	print_json(r->out, o);
}

/* Walks a never,exit prefix ended at once: cheap, never skippable (it fills the mask). */
static void print_prefix(const struct report_ctx *r, const struct counts_snapshot *t)
{
	struct prefix_ends ends;

	never_prefix_count(r->run->live.rules, t, &ends);
	if (!ends.walks)
		return;
	fprintf(r->out,
		"  %-24s %12llu  (%.1f%% of walks; %llu entries visited: never,exit rules with only\n"
		"  %-24s %12s   arch= first ended them, and fill the mask with their syscalls)\n",
		"walks ended by prefix", (unsigned long long)ends.walks,
		share(ends.walks, t->total.walks), (unsigned long long)ends.visits, "", "");
}

/* The summary's totals, one counter a line, then time saved and staleness. */
static void print_totals(const struct report_ctx *r, const struct walk_counts *w, double seconds)
{
	const struct counts_snapshot *t = &w->exit;
	FILE *out = r->out;
	char note[64];

	print_counter(r, &t->total, COUNTER_ID_walks,
		      "every audited syscall's exit walks the list");
	snprintf(note, sizeof(note), "%.1f%% of walks",
		 share(t->total.skippable_walks, t->total.walks));
	print_counter(r, &t->total, COUNTER_ID_skippable_walks, note);
	print_counter(r, &t->total, COUNTER_ID_needless_rule_visits,
		      "rule entries those walks visited");
	fprintf(out, "  %-24s %12u  (mask bits set: %u)\n", "exit-list rules now",
		r->run->live.mirror.exit_rules, mask_count(r->run->live.mirror.mask));
	print_counter(r, &t->total, COUNTER_ID_skippable_arch_mask,
		      "one aggregate per arch, beyond the patch");
	print_counter(r, &t->total, COUNTER_ID_skippable_perm_mask, r->run->live.perm_classes);
	print_counter(r, &t->total, COUNTER_ID_skippable_entry_mask,
		      "calls the entry form would give a dummy context");
	print_safety(r, &t->total);
	print_prefix(r, t);
	if (r->run->cfg.uring)
		fprintf(out,
			"  %-24s %12llu  (never skipped: the series leaves that list alone; %u rules)\n",
			"io_uring exit walks", (unsigned long long)w->uring.total.walks,
			r->run->live.mirror.uring_rules);
	for (int id = 0; id < NR_RUN_COUNTERS; id++) {
		const struct run_counter_info *ci = &run_counter_info[id];
		__u64 v = r->run->live.counters[id];

		if (run_counter_known(&r->run->cfg, id) && (v || ci->show == RUN_SHOW_KNOWN))
			fprintf(out, "  %-24s %12llu  (%s)\n", ci->label, (unsigned long long)v,
				ci->note);
	}
	print_saved(out, r, t, seconds);
	print_stale(out, r);
	duty_print(out, r->run);
	if (!t->total.walks)
		fprintf(out,
			"  No exit-filter walk ran: with no rule loaded audit contexts stay dummy, and tasks\n"
			"  started before audit was enabled are never audited.\n");
}

/* The slots in `order` (most skippable first), named from their own arch's table. */
static void print_top_syscalls(const struct report_ctx *r, const struct counts_snapshot *t,
			       const unsigned int *order, unsigned int n)
{
	FILE *out = r->out;

	if (!n)
		return;
	fprintf(out,
		"\nTop syscalls by skippable walks (RULES: exit rules naming it; + N as NAME (ARCH): another\n"
		"arch's rules naming its syscall of that number, which the walk tests too):\n");
	fprintf(out, "  %5s %-20s %12s %12s %7s %15s %6s\n", "NR", "SYSCALL", "WALKS", "SKIPPABLE",
		"SHARE", "NEEDLESS VISITS", "RULES");
	for (unsigned int i = 0; i < n && i < (unsigned int)r->top; i++) {
		const struct scan_counts *c = &t->slot[order[i]];
		unsigned int nr = order[i] % NR_SLOTS, arch = order[i] / NR_SLOTS, own, all;
		unsigned int them = arch == ARCH_NATIVE ? ARCH_COMPAT : ARCH_NATIVE;
		char name[64], other[64];

		slot_name(arch, nr, name, sizeof(name));
		if (arch != ARCH_NATIVE)
			snprintf(name + strlen(name), sizeof(name) - strlen(name), " (%s)",
				 arch_name(arch));
		all = rules_naming(r->run->live.rules, arch, nr, &own);
		fprintf(out, "  %5u %-20s %12llu %12llu %6.1f%% %15llu %6u", nr, name,
			(unsigned long long)c->walks, (unsigned long long)c->skippable_walks,
			share(c->skippable_walks, c->walks),
			(unsigned long long)c->needless_rule_visits, own);
		if (all > own && arch_machine(them) >= 0) {
			slot_name(them, nr, other, sizeof(other));
			fprintf(out, " + %u as %s (%s)", all - own, other, arch_name(them));
		}
		fprintf(out, "\n");
	}
}

/* --timing: the walk-time histograms of the first three syscalls of the table. */
static void print_walk_times(const struct report_ctx *r, const unsigned int *order, unsigned int n)
{
	unsigned int shown = r->top < 3 ? r->top : 3;

	if (!r->run->live.hist || !n)
		return;
	fprintf(r->out, "\nWalk times (--timing) of the first %u syscalls above:\n", shown);
	for (unsigned int i = 0; i < n && i < shown; i++) {
		char name[64];

		slot_name(order[i] / NR_SLOTS, order[i] % NR_SLOTS, name, sizeof(name));
		print_hist(r->out, r->run->live.hist[order[i]], name);
	}
}

void report_summary(const struct report_ctx *r, const struct walk_counts *w, double seconds,
		    int command_status)
{
	static unsigned int order[NR_COUNT_SLOTS];
	unsigned int n;

	if (r->json) {
		print_summary_json(r, w, seconds, command_status);
		return;
	}
	fprintf(r->out, "\nSummary over %.1f s (mode %s, kernel %s, %s):\n", seconds,
		r->run->cfg.mode, r->run->cfg.kernel, r->run->cfg.scope);
	print_totals(r, w, seconds);
	n = seen_slots(&w->exit, NR_COUNT_SLOTS, order);
	print_top_syscalls(r, &w->exit, order, n);
	print_walk_times(r, order, n);
	print_comms(r->out, r);
	print_rule_costs(r, seconds);
	print_full_mask_rules(r->out, r->run->live.rules);
	print_skip_blockers(r->out, r->run->live.rules, false);
	print_shadowing_brief(r->out, r->run->live.rules, r->run->live.shadowing);
	if (command_status >= 0)
		fprintf(r->out, "\nCommand exited with status %d.\n", command_status);
	fflush(r->out);
}

/* Named syscalls whose bit is (or is not) set; the list only when short. */
