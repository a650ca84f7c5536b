// SPDX-License-Identifier: GPL-2.0
/*
 * The metrics page: the totals since start in Prometheus text exposition
 * format 0.0.4, as the HTTP server (http/metrics_server.c) serves it at /metrics
 * and --metrics-textfile writes it.
 *
 * Per-syscall counters are one family each with a `syscall` label and no
 * separate unlabelled total: every walk lands in exactly one slot (slot
 * 2048 is "out-of-range"), so sum() over the label is the exact total, and a
 * family that mixed the total in with its parts would double any sum().
 */
#include <stddef.h>
#include <stdlib.h>
#include <stdio.h>
#include <time.h>
#include "audit/mask.h"
#include "audit/syscalls.h"
#include "model/never_prefix.h"
#include "model/time_saved.h"
#include "output/duty_report.h"
#include "output/metrics_page.h"
#include "output/rule_cost_table.h"

#ifndef AUDITSKIP_VERSION
#define AUDITSKIP_VERSION "unknown"
#endif

/* Label values: backslash, double quote and line feed are escaped (format 0.0.4). */
static void put_label_value(FILE *out, const char *v)
{
	for (; *v; v++) {
		if (*v == '\\')
			fputs("\\\\", out);
		else if (*v == '"')
			fputs("\\\"", out);
		else if (*v == '\n')
			fputs("\\n", out);
		else
			fputc(*v, out);
	}
}

static void family(FILE *out, const char *name, const char *type, const char *help)
{
	fprintf(out, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void gauge(FILE *out, const char *name, const char *help, unsigned long long v)
{
	family(out, name, "gauge", help);
	fprintf(out, "%s %llu\n", name, v);
}

/* auditskip_NAME_total for a counter of SCAN_COUNTERS. */
static void counter_family(FILE *out, const struct counter_info *ci, char *name, size_t size)
{
	snprintf(name, size, "auditskip_%s_total", ci->name);
	family(out, name, "counter", ci->help);
}

/* One series per syscall seen so far: at most NR_COUNT_SLOTS, usually a few dozen. */
static void per_syscall_counter(FILE *out, const struct counts_snapshot *t, enum counter_id id)
{
	char name[96], sc[64];

	counter_family(out, &counters[id], name, sizeof(name));
	for (unsigned int k = 0; k < NR_COUNT_SLOTS; k++) {
		if (!t->slot[k].walks)
			continue;
		slot_name(k / NR_SLOTS, k % NR_SLOTS, sc, sizeof(sc));
		fprintf(out, "%s{syscall=\"", name);
		put_label_value(out, sc);
		fprintf(out, "\",arch=\"%s\"} %llu\n", arch_name(k / NR_SLOTS),
			(unsigned long long)counter_value(&t->slot[k], id));
	}
}

/*
 * Counters that exist only where the mode can know them (outcomes): a series
 * that is always 0 would look like a measurement.
 */
static void counter_metrics(FILE *out, const struct run_state *r, const struct counts_snapshot *t)
{
	char name[96];

	for (enum counter_id id = 0; id < NR_COUNTERS; id++) {
		const struct counter_info *ci = &counters[id];
		bool outcome = ci->kind == COUNTER_OUTCOME || ci->kind == COUNTER_WHATIF_OUTCOME;

		if (ci->metric == METRIC_PER_SYSCALL) {
			per_syscall_counter(out, t, id);
		} else if (ci->metric == METRIC_TOTAL && (!outcome || r->cfg.outcomes)) {
			counter_family(out, ci, name, sizeof(name));
			fprintf(out, "%s %llu\n", name,
				(unsigned long long)counter_value(&t->total, id));
		}
	}
}

/* auditskip_NAME_total of each run-level counter the mode can know (run_counters.h). */
static void run_counter_metrics(FILE *out, const struct run_state *r)
{
	char name[96];

	for (int id = 0; id < NR_RUN_COUNTERS; id++) {
		if (!run_counter_known(&r->cfg, id))
			continue;
		snprintf(name, sizeof(name), "auditskip_%s_total", run_counter_info[id].name);
		family(out, name, "counter", run_counter_info[id].help);
		fprintf(out, "%s %llu\n", name, (unsigned long long)r->live.counters[id]);
	}
}

/* Exit rules that set every syscall bit. */
static unsigned int full_mask_rules(const struct ruleset *rs)
{
	unsigned int n = 0;

	for (size_t i = 0; rs && i < rs->n; i++)
		n += rule_sets_every_bit(&rs->rules[i]);
	return n;
}

/* Absent until the rules are listed and worked through: a 0 before then would claim none. */
static void shadowed_rules(FILE *out, const struct run_state *r)
{
	if (!r->live.shadowing)
		return;
	gauge(out, "auditskip_shadowed_rules",
	      "Rules of the loaded set wholly or partly shadowed: a never rule before them ends the "
	      "walk of syscalls they could match, and outranks them, so they make no record for "
	      "those ('auditskip rules' names them and what shadows them).",
	      r->live.shadowing->n);
}

static void info(FILE *out, const struct run_state *r)
{
	const char *labels[][2] = {
		{ "mode", r->cfg.mode },
		{ "kernel", r->cfg.kernel },
		{ "mirror",
		  r->live.mirror.source == MIRROR_KERNEL_LIST ? "kernel-list" : "netlink" },
		{ "version", AUDITSKIP_VERSION },
	};

	family(out, "auditskip_info", "gauge",
	       "Always 1; the labels say how auditskip counts: attach mode, kernel release, "
	       "how the mask mirror is kept, auditskip version.");
	fputs("auditskip_info{", out);
	for (size_t i = 0; i < sizeof(labels) / sizeof(labels[0]); i++) {
		fprintf(out, "%s%s=\"", i ? "," : "", labels[i][0]);
		put_label_value(out, labels[i][1] ? labels[i][1] : "");
		fputc('"', out);
	}
	fputs("} 1\n", out);
}

/* auditskip_build_info: the labels by which a fleet is grouped; three values, one series. */
static void build_info(FILE *out, const struct run_state *r)
{
	family(out, "auditskip_build_info", "gauge",
	       "Always 1; the labels say which auditskip counts, on which kernel release, in "
	       "which attach mode.");
	fputs("auditskip_build_info{version=\"", out);
	put_label_value(out, AUDITSKIP_VERSION);
	fputs("\",kernel=\"", out);
	put_label_value(out, r->cfg.kernel ? r->cfg.kernel : "");
	fputs("\",mode=\"", out);
	put_label_value(out, r->cfg.mode ? r->cfg.mode : "");
	fputs("\"} 1\n", out);
}

/* Which rule set the host has loaded: one series, its label changing with the rules. */
static void rules_info(FILE *out, const struct run_state *r)
{
	char id[RULESET_ID_LEN];

	if (!r->live.rules)
		return;
	ruleset_id(r->live.rules, id);
	family(out, "auditskip_rules_info", "gauge",
	       "Always 1; ruleset: the loaded rule set's id ('auditskip rules' prints it), shared by "
	       "hosts that load the same rules.");
	fprintf(out, "auditskip_rules_info{ruleset=\"%s\"} 1\n", id);
}

/* The mirror's changes: a count since start, so a counter (the gauge stays for old queries). */
static void mirror_changes(FILE *out, const struct run_state *r)
{
	gauge(out, "auditskip_mirror_generation",
	      "Deprecated, use auditskip_mirror_changes_total: the same count, typed gauge.",
	      r->live.mirror.generation);
	family(out, "auditskip_mirror_changes_total", "counter",
	       "Changes of the mask mirror since auditskip started.");
	fprintf(out, "auditskip_mirror_changes_total %llu\n",
		(unsigned long long)r->live.mirror.generation);
}

/* Walks a loaded never,exit prefix ended, and the entries they visited. */
static void prefix_walks(FILE *out, const struct run_state *r, const struct counts_snapshot *t)
{
	struct prefix_ends ends;

	never_prefix_count(r->live.rules, t, &ends);
	family(out, "auditskip_prefix_walks_total", "counter",
	       "Exit walks ended at once by never,exit rules with only an arch field at the front "
	       "of the list (advise --never-prefix): cheap, and never skippable by the patch.");
	fprintf(out, "auditskip_prefix_walks_total %llu\n", (unsigned long long)ends.walks);
	family(out, "auditskip_prefix_visits_total", "counter",
	       "Rule entries the walks in auditskip_prefix_walks_total visited.");
	fprintf(out, "auditskip_prefix_visits_total %llu\n", (unsigned long long)ends.visits);
}

/* The monotonic time `mono_s` as seconds since the epoch. */
static double wall_clock_s(double mono_s)
{
	struct timespec m, w;

	clock_gettime(CLOCK_MONOTONIC, &m);
	clock_gettime(CLOCK_REALTIME, &w);
	return w.tv_sec + w.tv_nsec / 1e9 - (m.tv_sec + m.tv_nsec / 1e9 - mono_s);
}

/* Listings of the rules by reason (four series), and when the last one ended. */
static void resyncs(FILE *out, const struct run_state *r)
{
	const struct resync *rs = r->live.resync;
	__u64 total = 0;

	if (!rs)
		return;
	family(out, "auditskip_resyncs_total", "counter",
	       "Full listings of audit's rules by reason: start, change (audit logged one), lost "
	       "(change records may be lost), periodic (the check).");
	for (int i = 0; i < NR_RESYNC_REASONS; i++) {
		fprintf(out, "auditskip_resyncs_total{reason=\"%s\"} %llu\n", resync_reason_name(i),
			(unsigned long long)rs->listings[i]);
		total += rs->listings[i];
	}
	if (!total)
		return;
	family(out, "auditskip_last_resync_timestamp_seconds", "gauge",
	       "When the last listing of audit's rules ended, in seconds since the epoch.");
	fprintf(out, "auditskip_last_resync_timestamp_seconds %.3f\n", wall_clock_s(rs->listed_at));
}

/*
 * Metrics that exist only where the mode can know them: a series that is
 * always 0 would look like a measurement.
 */

/* auditskip_stale (gauge): audit_n_rules left counting rules no list holds. */
static void stale_state(FILE *out, const struct run_state *r)
{
	gauge(out, "auditskip_stale",
	      "1 when audit_n_rules counts rules that are gone (every syscall pays for a full "
	      "audit context until reboot), else 0; see auditskip_stale_known.",
	      r->live.stale.verdict == STALE_YES);
	gauge(out, "auditskip_stale_known",
	      "0 while rules are loaded and audit_n_rules cannot be read: staleness unknown.",
	      r->live.stale.verdict != STALE_UNKNOWN);
	family(out, "auditskip_stale_syscalls_total", "counter",
	       "Syscalls that ran with a full audit context while no rule needed one.");
	fprintf(out, "auditskip_stale_syscalls_total %llu\n",
		(unsigned long long)r->live.stale.syscalls);
}

/* auditskip_estimated_saved_seconds_total (counter): CPU time the skip would have saved. */
static void estimated_saved_seconds(FILE *out, const struct run_state *r,
				    const struct counts_snapshot *t)
{
	family(out, "auditskip_estimated_saved_seconds_total", "counter",
	       "CPU time the skip would have saved, from the calibrated time model.");
	fprintf(out, "auditskip_estimated_saved_seconds_total %.9f\n",
		time_saved_ns(r->cfg.calib, t) / 1e9);
	family(out, "auditskip_estimated_saved_sharper_seconds_total", "counter",
	       "CPU time a sharper mask would have saved (the patch's saving included): mask=\"arch\" "
	       "one aggregate per arch, mask=\"perm\" perm= rules narrowed to their syscalls.");
	fprintf(out, "auditskip_estimated_saved_sharper_seconds_total{mask=\"arch\"} %.9f\n",
		time_saved_mask_ns(r->cfg.calib, t, COUNTER_ID_skippable_arch_mask,
				   r->live.mirror.exit_rules) /
			1e9);
	fprintf(out, "auditskip_estimated_saved_sharper_seconds_total{mask=\"perm\"} %.9f\n",
		time_saved_mask_ns(r->cfg.calib, t, COUNTER_ID_skippable_perm_mask,
				   r->live.mirror.exit_rules) /
			1e9);
}

/* --per-comm: the top names only, so label cardinality stays bounded. */
static void per_comm(FILE *out, const struct run_state *r)
{
	static const struct {
		const char *name, *help;
		size_t offset;
	} fams[] = {
		{ "auditskip_comm_walks_total",
		  "Exit-filter walks of the processes with this name (top --per-comm names).",
		  offsetof(struct comm_counts, walks) },
		{ "auditskip_comm_skippable_walks_total",
		  "Skippable walks of the processes with this name (top --per-comm names).",
		  offsetof(struct comm_counts, skippable_walks) },
	};

	if (!r->cfg.comm_top)
		return;
	for (size_t f = 0; f < sizeof(fams) / sizeof(fams[0]); f++) {
		family(out, fams[f].name, "counter", fams[f].help);
		for (size_t i = 0; i < r->live.ncomms && i < (size_t)r->cfg.comm_top; i++) {
			fprintf(out, "%s{comm=\"", fams[f].name);
			put_label_value(out, r->live.comms[i].comm);
			fprintf(out, "\"} %llu\n",
				*(const unsigned long long *)((const char *)&r->live.comms[i].c +
							      fams[f].offset));
		}
	}
}

/*
 * --per-rule: the dearest N exit rules, labelled by their place in the
 * list and their key, so label cardinality stays bounded.
 */
static void per_rule(FILE *out, const struct run_state *r)
{
	static const struct {
		const char *name, *help;
	} fams[] = {
		{ "auditskip_rule_visits_total",
		  "Exit walks that reached this rule's entry (the dearest --per-rule rules)." },
		{ "auditskip_rule_evaluations_total",
		  "Of those, walks whose syscall bit is set in its mask, so its fields ran." },
		{ "auditskip_rule_matches_total", "Walks this rule matched, which ended them." },
		{ "auditskip_rule_cost_seconds_total",
		  "Its share of the walks' time and its evaluations, calibrated." },
	};
	const struct rule_costs *rc = r->live.rule_costs;
	const struct ruleset *rs = r->live.rules;
	size_t n, *order;

	if (!r->cfg.rule_top || !rc)
		return;
	gauge(out, "auditskip_rule_costs_exact",
	      "1: the per-rule counts are exact (the kernel said where each walk stopped); 0: upper bounds.",
	      rc->exact);
	order = rule_costs_order(&(struct rule_cost_view){ .rules = rs, .costs = rc }, &n);
	if (!order)
		return;
	for (size_t f = 0; f < sizeof(fams) / sizeof(fams[0]); f++) {
		/* Absent where the mode cannot see where a walk ended: not a 0. */
		if (f == 2 && !rc->exact)
			continue;
		family(out, fams[f].name, "counter", fams[f].help);
		for (size_t k = 0; k < n && k < (size_t)r->cfg.rule_top; k++) {
			const struct rule_cost *c = &rc->rule[order[k]];

			fprintf(out, "%s{rule=\"%zu\",key=\"", fams[f].name, order[k] + 1);
			put_label_value(out, rs->rules[order[k]].key);
			if (f == 0)
				fprintf(out, "\"} %llu\n", (unsigned long long)c->visits);
			else if (f == 1)
				fprintf(out, "\"} %llu\n", (unsigned long long)c->evaluations);
			else if (f == 2)
				fprintf(out, "\"} %llu\n", (unsigned long long)c->matches);
			else
				fprintf(out, "\"} %.9f\n", c->ns / 1e9);
		}
	}
	free(order);
}

/*
 * --per-rule: what each design would have spared of the walks so far,
 * priced again under the rules now at every sync: gauges, since a rule
 * change can lower them, and the prefix's saving is negative where it
 * costs more than it saves.
 */
static void designs(FILE *out, const struct run_state *r)
{
	const struct design_savings *d = r->live.designs;

	if (!d)
		return;
	family(out, "auditskip_design_spared_walks", "gauge",
	       "Walks so far each design would spare or cut short: series, 2023, archperm, archperm-entry or prefix (doc/profiles.md).");
	for (int k = 0; k < NR_DESIGNS; k++)
		fprintf(out, "auditskip_design_spared_walks{design=\"%s\"} %llu\n", design_names[k],
			(unsigned long long)d->total_walks[k]);
	family(out, "auditskip_design_saved_seconds", "gauge",
	       "CPU time each design would have saved so far (time model; negative: it costs more).");
	for (int k = 0; k < NR_DESIGNS; k++)
		fprintf(out, "auditskip_design_saved_seconds{design=\"%s\"} %.9f\n",
			design_names[k], d->total_ns[k] / 1e9);
}

void metrics_render(FILE *out, const struct run_state *r, const struct counts_snapshot *t)
{
	counter_metrics(out, r, t);
	run_counter_metrics(out, r);
	gauge(out, "auditskip_exit_rules",
	      "Rules on audit's exit filter list, as the mask mirror counts them.",
	      r->live.mirror.exit_rules);
	gauge(out, "auditskip_mask_syscalls",
	      "Syscall numbers whose bit is set in the aggregate mask of the exit rules "
	      "(of 2048): only their walks are not skippable.",
	      mask_count(r->live.mirror.mask));
	gauge(out, "auditskip_full_mask_rules",
	      "Exit rules that set every syscall bit: while one is loaded no walk is skippable.",
	      full_mask_rules(r->live.rules));
	shadowed_rules(out, r);
	prefix_walks(out, r, t);
	mirror_changes(out, r);
	info(out, r);
	build_info(out, r);
	rules_info(out, r);
	resyncs(out, r);
	stale_state(out, r);
	estimated_saved_seconds(out, r, t);
	duty_metrics(out, r);
	per_comm(out, r);
	per_rule(out, r);
	designs(out, r);
}
