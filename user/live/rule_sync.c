// SPDX-License-Identifier: GPL-2.0
/*
 * A counting run's rule sync: audit's status, the rule listing and what the
 * loader keeps from it (names, keys, shadowing, the mirror where no BPF
 * program keeps it, the what-if masks, staleness), and what the change
 * records heard ask for.
 */
#include <errno.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "auditskip.h" /* before the skeleton: its mirror section is a struct mask_mirror */
#include "auditskip.skel.h"
#include "live/clock.h"
#include "live/config_change.h"
#include "live/publish.h"
#include "live/rule_sync.h"
#include "live/stale_watch.h"
#include "live/sysinfo.h"
#include "model/whatif_masks.h"

void rule_sync_hear(struct session *ss, const struct config_changes *c)
{
	ss->notifications += c->records;
	if (c->audit_off)
		resync_audit_off(&ss->resync);
	if (c->status)
		ss->status_due = true;
	if (c->lost || c->rules) {
		ss->change_heard = true;
		ss->last_change_s = wall_s();
	}
}

int rule_sync_mirror_fd(const struct session *ss)
{
	return bpf_map__fd(ss->at.skel->maps.data_mirror);
}

/* audit_n_rules as BPF reads it now, or -1 (its address is not known). */
static int kernel_n_rules_now(struct session *ss)
{
	struct bpf_program *prog = ss->at.skel->progs.read_n_rules_now;
	LIBBPF_OPTS(bpf_test_run_opts, opts);

	if (!bpf_program__autoload(prog) || bpf_prog_test_run_opts(bpf_program__fd(prog), &opts))
		return -1;
	return ss->at.skel->data->n_rules_now;
}

/*
 * Where no BPF program rebuilds it, the loader writes the mirror itself,
 * tagged with the rule count it was listed at (n_rules: -1 unknown, and
 * then every walk counts as judged by a lagging mirror). Its write count
 * moves on when the masks do, like a rebuild's, so a walk that ran across
 * it is told apart as raced; a new tag alone is no change of the masks.
 */
static int write_netlink_mirror(struct session *ss, int n_rules)
{
	struct mask_mirror *cur = &ss->run.live.mirror;
	struct mask_mirror m = {
		.source = MIRROR_NETLINK,
		.kernel_n_rules = n_rules,
		.generation = cur->generation,
		.seq = cur->seq,
	};
	__u32 zero = 0;

	ruleset_mirror(&ss->rules, &m);
	if (ss->opt->corrupt_nr >= 0)
		m.mask[ss->opt->corrupt_nr / 32] &= ~(1U << (ss->opt->corrupt_nr % 32));
	if (cur->source != m.source || cur->exit_rules != m.exit_rules ||
	    cur->uring_rules != m.uring_rules || !mask_equal(cur->mask, m.mask) ||
	    !mask_equal(cur->uring_mask, m.uring_mask)) {
		m.generation++;
		m.seq++;
	} else if (cur->kernel_n_rules == m.kernel_n_rules) {
		return 0;
	}
	if (bpf_map_update_elem(rule_sync_mirror_fd(ss), &zero, &m, BPF_ANY))
		return -errno;
	*cur = m;
	return 0;
}

void rule_sync_read_status(struct session *ss)
{
	struct auditskip_bpf *skel = ss->at.skel;
	struct audit_status_info st;

	ss->status_due = false;
	if (audit_status_read(&st))
		return;
	skel->bss->audit_on = st.enabled;
	skel->bss->auditd_tgid = st.auditd_pid;
	resync_status(&ss->resync, st.enabled, st.lost);
}

/*
 * The rules a never rule before them silences, once a listing rather than
 * at every report and scrape: the tables' permission classes, as the
 * counts' perm-narrowed mask and `auditskip rules` take them, so that the
 * three agree. Without memory the reports leave them out.
 */
static void find_shadowing(struct session *ss)
{
	shadowing_free(&ss->shadowing);
	ss->run.live.shadowing =
		shadowing_find(&ss->rules, NULL, &ss->shadowing) ? NULL : &ss->shadowing;
}

/*
 * Lists the rules and refreshes what the loader owns from them: names,
 * keys and staleness, the mirror where no BPF program keeps it, the
 * what-if masks.
 */
static int list_and_apply(struct session *ss)
{
	struct auditskip_bpf *skel = ss->at.skel;
	struct whatif_masks w;
	struct ruleset fresh;
	__u32 zero = 0;
	bool settled = false;
	int listed_at, err;

	/*
	 * One syscall that logs no record in every ruleless epoch, so that a
	 * stale count shows on an idle machine too (note_ruleless()).
	 */
	if (mode_sees(ss->at.mode, MODE_JUDGES_AT_ENTRY))
		syscall(SYS_getppid);
	/* What is queued now is in this listing; what comes later is for the next. */
	if (ss->notify_fd >= 0) {
		struct config_changes c = { 0 };

		config_change_drain(ss->notify_fd, &c);
		rule_sync_hear(ss, &c);
	}
	/*
	 * The listing, the mirror and audit_n_rules must be of one list: a
	 * rule premarked while we listed is missing from the listing, and a
	 * staleness verdict that held a count against another list than the
	 * one listed would be false. Listed again while the mirror was
	 * written (a rule change, or the first listing's own rebuild) or the
	 * count moved; after four tries the mirror the loader keeps is tagged
	 * as behind and the verdict waits for the next listing.
	 */
	for (int tries = 0;; tries++) {
		struct mask_mirror was;
		int before, after;

		if (bpf_map_lookup_elem(rule_sync_mirror_fd(ss), &zero, &was))
			return -errno;
		before = kernel_n_rules_now(ss);
		err = ruleset_load(&fresh); /* in trampoline modes this also rebuilds the mirror */
		if (err)
			return err;
		after = kernel_n_rules_now(ss);
		if (bpf_map_lookup_elem(rule_sync_mirror_fd(ss), &zero, &ss->run.live.mirror)) {
			ruleset_free(&fresh);
			return -errno;
		}
		settled = ss->run.live.mirror.seq == was.seq && before == after;
		listed_at = settled ? after : -1;
		if (settled || tries == 3)
			break;
		ruleset_free(&fresh);
	}
	ruleset_free(&ss->rules);
	ss->rules = fresh;
	ss->run.live.rules = &ss->rules;
	ss->run.live.rule_costs = NULL; /* costed against the rules replaced */
	ss->run.live.designs = NULL;
	find_shadowing(ss);
	if (ss->run.live.mirror.source != MIRROR_KERNEL_LIST) {
		err = write_netlink_mirror(ss, listed_at);
		if (err)
			return err;
	}
	whatif_build(&ss->rules, NULL, &w);
	w.mirror_seq = ss->run.live.mirror.seq;
	if (bpf_map_update_elem(bpf_map__fd(skel->maps.data_whatif), &zero, &w, BPF_ANY))
		return -errno;
	skel->bss->whatif_differs = whatif_differs(&ss->rules, &w);
	if (settled)
		stale_watch(ss);
	return 0;
}

/* A listing's CPU time sets when the next one may run; a failed one is tried again. */
int rule_sync_list(struct session *ss, enum resync_reason why)
{
	double cpu0 = thread_cpu_s(), began = wall_s();
	int err = list_and_apply(ss);

	if (err) {
		resync_failed(&ss->resync, now_s(), thread_cpu_s() - cpu0);
		return err;
	}
	resync_listed(&ss->resync, why, now_s(), thread_cpu_s() - cpu0,
		      !ruleset_may_drop_config_change(&ss->rules));
	ss->resync.began_wall_s = began;
	return 0;
}

int rule_sync_all(struct session *ss)
{
	int err;

	rule_sync_read_status(ss);
	err = rule_sync_list(ss, RESYNC_START);
	publish_read_bpf_state(ss);
	return err;
}
