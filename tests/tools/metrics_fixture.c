// SPDX-License-Identifier: GPL-2.0
/*
 * The metrics page of a made-up host, rendered by metrics_render(): no BPF,
 * no audit. Three hosts with different rule sets make walks at fixed rates
 * per second. Hosts 1 and 2 count in full, so a page rendered at SECONDS
 * since start holds rate * SECONDS; host 3 counts as with --duty 1s/4s
 * (a window at the start of every period), so its counters grow only in
 * its windows, at its rates: rate * the seconds its windows covered.
 *
 *   metrics_fixture HOST SECONDS        the page (HOST 1, 2 or 3)
 *   metrics_fixture HOST SECONDS full   the page of the host counted in full
 *   metrics_fixture HOST rates          the host's own rates over the whole
 *                                       time: walks, skippable walks and
 *                                       estimated CPU saved per second
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/designs.h"
#include "model/resync.h"
#include "model/rule_cost.h"
#include "model/run_state.h"
#include "model/shadowing.h"
#include "model/time_saved.h"
#include "output/metrics_page.h"

/* One syscall's walks per second on a host: nr, walks, skippable, rule visits per walk. */
struct rate {
	unsigned int nr;
	__u64 walks, skippable, visits;
};

struct host {
	const char *kernel, *mode;
	unsigned int exit_rules;
	struct rate rates[4];
	unsigned int rule_set;	   /* how many of the fixture's rules it has loaded: its rule set */
	double window_s, period_s; /* --duty WINDOW/PERIOD; 0: a full count */
};

/* A small rule set, a STIG-sized one and an OSPP-sized one on two kernels. */
static const struct host hosts[] = {
	{ "6.1.0-fixture",
	  "tracepoint",
	  12,
	  { { 0, 900, 900, 12 }, { 1, 400, 400, 12 }, { 2, 50, 0, 0 } },
	  2,
	  0,
	  0 },
	{ "6.12.0-fixture",
	  "fentry",
	  180,
	  { { 0, 2000, 2000, 180 }, { 39, 700, 700, 180 }, { 257, 300, 0, 0 }, { 59, 20, 0, 0 } },
	  3,
	  0,
	  0 },
	{ "6.12.0-fixture", "fentry", 95, { { 0, 100, 60, 95 }, { 3, 800, 800, 95 } }, 3, 1, 4 },
};

/*
 * --per-rule on every host: the first `rule_set` of three keyed exit rules
 * (hosts 2 and 3 load the same set), sharing the walks' time (half, a
 * third, a sixth), and the designs at fixed shares of the
 * series' saving (the prefix costing a little where the series saves
 * nothing).
 */
static char *rule_text[] = { "-a always,exit -F arch=b64 -S openat -F dir=/etc -F key=etc",
			     "-a always,exit -F arch=b64 -S chmod -F auid>=1000 -F key=perm_mod",
			     "-a always,exit -S all -F auid=4000000 -F key=never" };
static const double rule_share[] = { 1 / 2.0, 1 / 3.0, 1 / 6.0 };
#define FIXTURE_RULES 3

static void fill_costs(const struct counts_snapshot *t, double walk_ns, unsigned int n,
		       struct run_state *r)
{
	static struct audit_rule rules[FIXTURE_RULES];
	static struct ruleset set = { .rules = rules };
	static struct rule_cost cost[FIXTURE_RULES];
	static struct rule_costs costs = { .rule = cost, .exact = true };
	static struct design_savings d;
	double saved = time_saved_ns(r->cfg.calib, t);

	set.n = n;
	for (unsigned int i = 0; i < n; i++) {
		rules[i] = (struct audit_rule){ .list = AUDIT_FILTER_EXIT, .text = rule_text[i] };
		snprintf(rules[i].key, sizeof(rules[i].key), "%s",
			 strstr(rule_text[i], "key=") + 4);
		cost[i] = (struct rule_cost){ .visits = t->total.walks,
					      .evaluations = t->total.walks * rule_share[i],
					      .ns = t->total.walks * walk_ns * rule_share[i] };
	}
	costs.walks_ns = t->total.walks * walk_ns;
	d.total_walks[DESIGN_SERIES] = t->total.skippable_walks;
	d.total_ns[DESIGN_SERIES] = saved;
	d.total_walks[DESIGN_2023] = t->total.skippable_walks;
	d.total_ns[DESIGN_2023] = 1.5 * saved;
	d.total_walks[DESIGN_PREFIX] = t->total.skippable_perm_mask;
	d.total_ns[DESIGN_PREFIX] = saved ? 0.7 * saved : -0.01 * costs.walks_ns;
	r->cfg.rule_top = n;
	r->live.rules = &set;
	r->live.rule_costs = &costs;
	r->live.designs = &d;
}

/*
 * The rules a never rule before them silences: none on the first two
 * hosts, on the third its last rule (as if a never rule stood before it).
 */
static void fill_shadowing(const struct host *h, struct run_state *r)
{
	static struct shadowed_rule last = { .rule = FIXTURE_RULES - 1, .wholly = true };
	static struct shadowing s = { .rules = &last };

	s.n = h == &hosts[2];
	r->live.shadowing = &s;
}

/* The seconds of the first `seconds` that windows covered: one at the start of each period. */
static double covered_s(const struct host *h, double seconds, bool full)
{
	if (full || !h->period_s)
		return seconds;
	return floor(seconds / h->period_s) * h->window_s +
	       fmin(fmod(seconds, h->period_s), h->window_s);
}

/*
 * The share counted and the estimate, as a duty-cycled run reports them:
 * every window sees the same rates, so from the second closed window on
 * their spread, the standard error, is 0.
 */
static void fill_duty(const struct host *h, double seconds, bool full, double covered,
		      const struct counts_snapshot *t, struct duty_view *v)
{
	const double counted[NR_DUTY_FIGURES] = { t->total.walks, t->total.skippable_walks };

	v->cycled = !full && h->period_s > 0;
	v->window_s = v->cycled ? h->window_s : 0;
	v->period_s = v->cycled ? h->period_s : 0;
	v->covered_s = covered;
	v->elapsed_s = seconds;
	v->attaches = v->cycled ? floor(seconds / h->period_s) + 1 : 1;
	v->windows = v->cycled ? v->attaches - (fmod(seconds, h->period_s) < h->window_s) : 0;
	v->idle = v->cycled && fmod(seconds, h->period_s) >= h->window_s ? DUTY_BETWEEN_WINDOWS :
									   DUTY_COUNTING;
	v->detaches = v->windows;
	for (int f = 0; f < NR_DUTY_FIGURES; f++) {
		v->estimate[f] = covered > 0 ? counted[f] * seconds / covered : NAN;
		v->stderr_[f] = !v->cycled || v->windows >= 2 ? 0 : NAN;
	}
}

/* The host's page at `seconds` since start: its counters count its windows only. */
static void fill(const struct host *h, double seconds, bool full, struct run_state *r,
		 struct counts_snapshot *t, struct resync *rs)
{
	double covered = covered_s(h, seconds, full);

	for (size_t i = 0; i < sizeof(h->rates) / sizeof(h->rates[0]); i++) {
		const struct rate *x = &h->rates[i];
		struct scan_counts c = {
			.walks = x->walks * covered,
			.skippable_walks = x->skippable * covered,
			.needless_rule_visits = x->skippable * x->visits * covered,
			.skippable_arch_mask = x->walks * covered,
			.skippable_perm_mask = x->skippable * covered,
		};

		if (!x->walks)
			continue;
		counts_add(&t->slot[x->nr], &c);
		counts_add(&t->total, &c);
	}
	/* Listings run while detached too: they go with the whole time. */
	resync_init(rs, 100, 0);
	rs->listings[RESYNC_START] = 1;
	rs->listings[RESYNC_PERIODIC] = seconds / 10;
	r->cfg.kernel = h->kernel;
	r->cfg.mode = h->mode;
	r->cfg.outcomes = true;
	r->live.mirror.exit_rules = h->exit_rules;
	r->live.mirror.generation = 1;
	r->live.resync = rs;
	fill_duty(h, seconds, full, covered, t, &r->live.duty);
	fill_costs(t, calibration_walk_ns(r->cfg.calib, h->exit_rules), h->rule_set, r);
	fill_shadowing(h, r);
}

int main(int argc, char **argv)
{
	static struct counts_snapshot t;
	struct calibration calib = { .ns_per_entry = DEFAULT_NS_PER_ENTRY };
	struct run_state r = { .cfg.calib = &calib };
	struct resync rs;
	int n = argc == 3 || argc == 4 ? atoi(argv[1]) : 0;
	bool full = argc == 4;

	if (n < 1 || n > 3 || (argc == 4 && strcmp(argv[3], "full"))) {
		fprintf(stderr, "usage: %s 1|2|3 SECONDS [full] | 1|2|3 rates\n", argv[0]);
		return 2;
	}
	if (!strcmp(argv[2], "rates")) {
		/* Its rates over the whole time: what a full count sees in a second. */
		fill(&hosts[n - 1], 1, true, &r, &t, &rs);
		printf("%llu %llu %.9f\n", (unsigned long long)t.total.walks,
		       (unsigned long long)t.total.skippable_walks,
		       time_saved_ns(&calib, &t) / 1e9);
		return 0;
	}
	fill(&hosts[n - 1], atof(argv[2]), full, &r, &t, &rs);
	metrics_render(stdout, &r, &t);
	return 0;
}
