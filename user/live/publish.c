// SPDX-License-Identifier: GPL-2.0
/*
 * What a counting run publishes: the counts and what the BPF side logged,
 * read into the run's state; --per-rule's costs and designs worked out from
 * them; the metrics endpoint's page and the textfile refreshed.
 */
#include <errno.h>
#include <stdlib.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "auditskip.h" /* before the skeleton: its mirror section is a struct mask_mirror */
#include "auditskip.skel.h"
#include "http/metrics_server.h"
#include "live/clock.h"
#include "live/counts_read.h"
#include "live/duty_cycle.h"
#include "live/publish.h"
#include "live/rule_matches_read.h"
#include "model/designs.h"
#include "model/prediction.h"
#include "model/profile.h"
#include "output/metrics_textfile.h"

int publish_read_walks(struct session *ss)
{
	struct auditskip_bpf *skel = ss->at.skel;
	int err = counts_read(bpf_map__fd(skel->maps.counts), NR_COUNT_SLOTS, &ss->now->exit);

	if (!err && ss->hist)
		err = hist_read(bpf_map__fd(skel->maps.walk_hist), ss->hist);
	return err ? err :
		     counts_read(bpf_map__fd(skel->maps.uring_counts), NR_SLOTS, &ss->now->uring);
}

/*
 * Runs of the loaded programs that the kernel skipped because the program
 * was already running on that CPU (bpf_prog_inc_misses_counter()): where the
 * kernel runs a program preemptible (trampolines; syscall tracepoints on
 * kernels where they may fault), another task's syscall can come while one
 * is preempted. Each
 * may be a walk not counted, or a syscall whose entry was not seen.
 */
static __u64 recursion_misses(const struct bpf_object *obj)
{
	struct bpf_program *prog;
	__u64 n = 0;

	bpf_object__for_each_program (prog, obj) {
		struct bpf_prog_info info = {};
		__u32 len = sizeof(info);
		int fd = bpf_program__fd(prog);

		if (fd >= 0 && !bpf_obj_get_info_by_fd(fd, &info, &len))
			n += info.recursion_misses;
	}
	return n;
}

void publish_read_bpf_state(struct session *ss)
{
	struct auditskip_bpf *skel = ss->at.skel;
	struct run_live *live = &ss->run.live;

	if (ss->opt->per_comm) {
		free(ss->comms);
		ss->comms = NULL;
		if (comms_read(bpf_map__fd(skel->maps.comms), &ss->comms, &live->ncomms))
			live->ncomms = 0;
		live->comms = ss->comms;
		live->comms_lost = skel->bss->comms_lost;
	}
	live->missed_total = skel->bss->missed_total;
	live->clock_ns = skel->bss->clock_ns;
	live->lost_descendants = skel->bss->lost_children;
#define RUN_FROM_BSS(name) skel->bss->name
#define RUN_FROM_PROG_INFO(name) recursion_misses(skel->obj)
#define READ_RUN_COUNTER(name, source, ...) live->counters[RUN_COUNTER_##name] = source(name);
	RUN_COUNTERS(READ_RUN_COUNTER)
#undef READ_RUN_COUNTER
#undef RUN_FROM_PROG_INFO
#undef RUN_FROM_BSS
	for (__u32 i = 0; i < MISSED_LOG && i < live->missed_total; i++)
		bpf_map_lookup_elem(bpf_map__fd(skel->maps.missed_log), &i, &live->missed[i]);
}

/* What the designs are priced from: the walks so far as a profile, predicted under the rules. */
struct design_inputs {
	struct profile profile;
	struct prediction pred;
	struct kernel_classes classes; /* the tables', as the counts' perm-narrowed mask */
};

/* --per-rule: the designs (designs.h) on the walks so far, under the rules now. */
static void compare_designs(struct session *ss)
{
	struct design_inputs *in = ss->design_inputs;
	struct run_live *live = &ss->run.live;

	if (!in) {
		in = ss->design_inputs = calloc(1, sizeof(*in));
		if (!in)
			return;
		kernel_classes_from_tables(&in->classes);
	}
	design_savings_free(&ss->designs);
	live->designs = NULL;
	profile_from_counts(&in->profile, &ss->now->exit);
	if (prediction_make(&ss->rules, &in->profile, &in->classes, &in->pred))
		return;
	if (!design_savings_make(&ss->rules, &in->pred, &in->classes, &ss->calib, &ss->designs))
		live->designs = &ss->designs;
	prediction_free(&in->pred);
}

/*
 * --per-rule: each exit rule's visits, evaluations, matches and cost since
 * the start. Exact where the mode sees which rule a walk matched and the
 * list's priorities fit the listed rules (rule_matches_read.h).
 */
void publish_cost_rules(struct session *ss)
{
	struct auditskip_bpf *skel = ss->at.skel;
	struct run_live *live = &ss->run.live;
	struct rule_match_reading m = { 0 };
	const char *bound = NULL;
	__u64 *walks;

	if (!ss->opt->per_rule)
		return;
	walks = calloc(NR_COUNT_SLOTS, sizeof(*walks));
	if (!walks)
		return;
	if (!ss->run.cfg.outcomes)
		bound = "this mode does not see which rule a walk matched";
	else if (!ss->at.kernel_mirror)
		bound = "the kernel's exit list cannot be read here (audit_filter_list not in kallsyms, or no bpf_loop())";
	else if (rule_matches_read(bpf_map__fd(skel->maps.rule_matches),
				   bpf_map__fd(skel->maps.exit_prios), live->mirror.exit_rules,
				   &ss->rules, &m))
		bound = "the matches could not be read";
	else if (!m.placed)
		bound = "the rules changed since they were listed";
	else if (skel->bss->rule_matches_lost)
		bound = "the match map was full: some matches were not counted by rule";
	for (unsigned int s = 0; s < NR_COUNT_SLOTS; s++)
		walks[s] = ss->now->exit.slot[s].walks;
	rule_costs_free(&ss->rule_costs);
	live->rule_costs = NULL;
	if (!rule_costs_make(&ss->rules,
			     &(struct walk_tally){ .walks = walks,
						   .exact = !bound,
						   .matches = m.matches,
						   .nmatches = m.n },
			     &ss->calib, &ss->rule_costs))
		live->rule_costs = &ss->rule_costs;
	live->rule_costs_bound = bound;
	live->rule_matches_unplaced = m.unplaced;
	rule_match_reading_free(&m);
	free(walks);
	compare_designs(ss);
}

void publish_metrics(struct session *ss)
{
	if ((!ss->metrics && !ss->opt->metrics_textfile) || publish_read_walks(ss))
		return;
	publish_cost_rules(ss);
	duty_cycle_view(ss, now_s());
	if (ss->metrics)
		metrics_update(ss->metrics, &ss->run, &ss->now->exit);
	if (ss->opt->metrics_textfile)
		metrics_textfile_write(ss->opt->metrics_textfile, &ss->run, &ss->now->exit);
}
