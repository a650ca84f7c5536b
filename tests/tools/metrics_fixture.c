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
#include "model/resync.h"
#include "model/run_state.h"
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
};

/* A small rule set, a STIG-sized one and an OSPP-sized one on two kernels. */
static const struct host hosts[] = {
	{ "6.1.0-fixture",
	  "tracepoint",
	  12,
	  { { 0, 900, 900, 12 }, { 1, 400, 400, 12 }, { 2, 50, 0, 0 } } },
	{ "6.12.0-fixture",
	  "fentry",
	  180,
	  { { 0, 2000, 2000, 180 }, { 39, 700, 700, 180 }, { 257, 300, 0, 0 }, { 59, 20, 0, 0 } } },
	{ "6.12.0-fixture", "fentry", 95, { { 0, 100, 60, 95 }, { 3, 800, 800, 95 } } },
};

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
	r->live.resync = rs;
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
