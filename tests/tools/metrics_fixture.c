// SPDX-License-Identifier: GPL-2.0
/*
 * The metrics page of a made-up host, rendered by metrics_render(): no BPF,
 * no audit. Three hosts with different rule sets count at fixed rates per
 * second, so a page rendered at SECONDS since start holds rate * SECONDS.
 *
 *   metrics_fixture HOST SECONDS   the page (HOST 1, 2 or 3)
 *   metrics_fixture HOST rates     the host's own rates: walks, skippable
 *                                  walks and estimated CPU saved per second
 */
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
	unsigned int rule_set; /* how many of the fixture's rules it has loaded: its rule set */
};

/* A small rule set, a STIG-sized one and an OSPP-sized one on two kernels. */
static const struct host hosts[] = {
	{ "6.1.0-fixture",
	  "tracepoint",
	  12,
	  { { 0, 900, 900, 12 }, { 1, 400, 400, 12 }, { 2, 50, 0, 0 } },
	  2 },
	{ "6.12.0-fixture",
	  "fentry",
	  180,
	  { { 0, 2000, 2000, 180 }, { 39, 700, 700, 180 }, { 257, 300, 0, 0 }, { 59, 20, 0, 0 } },
	  3 },
	{ "6.12.0-fixture", "fentry", 95, { { 0, 100, 60, 95 }, { 3, 800, 800, 95 } }, 3 },
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

static void fill(const struct host *h, double seconds, struct run_state *r,
		 struct counts_snapshot *t, struct resync *rs)
{
	for (size_t i = 0; i < sizeof(h->rates) / sizeof(h->rates[0]); i++) {
		const struct rate *x = &h->rates[i];
		struct scan_counts c = {
			.walks = x->walks * seconds,
			.skippable_walks = x->skippable * seconds,
			.needless_rule_visits = x->skippable * x->visits * seconds,
			.skippable_arch_mask = x->walks * seconds,
			.skippable_perm_mask = x->skippable * seconds,
		};

		if (!x->walks)
			continue;
		counts_add(&t->slot[x->nr], &c);
		counts_add(&t->total, &c);
	}
	resync_init(rs, 100, 0);
	rs->listings[RESYNC_START] = 1;
	rs->listings[RESYNC_PERIODIC] = seconds / 10;
	r->cfg.kernel = h->kernel;
	r->cfg.mode = h->mode;
	r->cfg.outcomes = true;
	r->live.mirror.exit_rules = h->exit_rules;
	r->live.mirror.generation = 1;
	/* A full count: its windows are the whole run, which the rules divide by. */
	r->live.duty.covered_s = seconds;
	r->live.duty.elapsed_s = seconds;
	r->live.resync = rs;
	fill_costs(t, calibration_walk_ns(r->cfg.calib, h->exit_rules), h->rule_set, r);
	fill_shadowing(h, r);
}

int main(int argc, char **argv)
{
	static struct counts_snapshot t;
	struct calibration calib = { .ns_per_entry = DEFAULT_NS_PER_ENTRY };
	struct run_state r = { .cfg.calib = &calib };
	struct resync rs;
	int n = argc == 3 ? atoi(argv[1]) : 0;

	if (n < 1 || n > 3) {
		fprintf(stderr, "usage: %s 1|2|3 SECONDS|rates\n", argv[0]);
		return 2;
	}
	if (!strcmp(argv[2], "rates")) {
		fill(&hosts[n - 1], 1, &r, &t, &rs);
		printf("%llu %llu %.9f\n", (unsigned long long)t.total.walks,
		       (unsigned long long)t.total.skippable_walks,
		       time_saved_ns(&calib, &t) / 1e9);
		return 0;
	}
	fill(&hosts[n - 1], atof(argv[2]), &r, &t, &rs);
	metrics_render(stdout, &r, &t);
	return 0;
}
