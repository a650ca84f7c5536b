// SPDX-License-Identifier: GPL-2.0
/*
 * Is this machine paying for stale audit_n_rules? Read from the kernel
 * where BPF can, else judged from the walks while no rule counts.
 */
#include <poll.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "auditskip.h" /* before the skeleton: its mirror section is a struct mask_mirror */
#include "auditskip.skel.h"
#include "live/clock.h"
#include "live/counts_read.h"
#include "live/stale_watch.h"
#include "live/sysinfo.h"

/*
 * Whether every audit record queued so far has reached us and none of them
 * is a change still unread: kauditd multicasts each record as it takes it
 * off audit's queue (kauditd_send_queue()), so once the backlog is empty,
 * what was logged before is on notify_fd. Unread records stay for wait_s().
 * False when changes cannot be heard at all, or the backlog did not empty
 * within 200 ms.
 */
static bool nothing_unheard(const struct session *ss)
{
	struct pollfd pfd = { .fd = ss->notify_fd, .events = POLLIN };
	struct audit_status_info st;

	if (ss->notify_fd < 0)
		return false;
	for (int tries = 0; tries < 40 && audit_status_read(&st) == 0; tries++) {
		if (!st.backlog)
			return poll(&pfd, 1, 0) == 0;
		usleep(5000);
	}
	return false;
}

/* The tally of an ended ruleless epoch, as the interval a verdict can rest on. */
static void ended_interval(const struct session *ss, const struct stale_tally *t,
			   struct stale_interval *iv)
{
	struct timespec mono;
	double wall = wall_s(), mono_s;

	clock_gettime(CLOCK_MONOTONIC, &mono);
	mono_s = mono.tv_sec + mono.tv_nsec / 1e9;
	*iv = (struct stale_interval){
		.from_s = ss->epoch_began_s,
		.to_s = wall,
		.last_change_s = ss->last_change_s,
		.walks = t->walks,
		.proofs = t->proofs,
		.nlog = t->proofs < STALE_LOG ? t->proofs : STALE_LOG,
	};
	memcpy(iv->log, t->log, sizeof(iv->log));
	for (unsigned int i = 0; i < iv->nlog; i++)
		iv->seen_s[i] = wall - (mono_s - t->log[i].seen_ns / 1e9);
}

/*
 * tracepoint mode, where audit_n_rules cannot be read: each listing ends the
 * ruleless epoch the last one began and begins the next (epoch 0 while rules
 * that count are loaded). Syscalls that entered in an epoch tally what their
 * contexts showed (note_ruleless() in the BPF object); the tally is final
 * once the next epoch has begun, and is weighed only if the epoch ended with
 * no rule that counts and every rule change made in it was heard: a rule
 * added and deleted between two listings is seen by no listing, but its
 * records are.
 */
static void watch_ruleless(struct session *ss, bool ruleless)
{
	struct stale_report *st = &ss->run.live.stale;
	struct auditskip_bpf *skel = ss->at.skel;
	__u64 ended = skel->bss->ruleless_epoch, next = ruleless ? ++ss->epochs : 0;
	struct stale_tally tally;
	struct stale_interval iv;
	bool undisturbed;

	if (next) {
		memset(&skel->bss->stale_tally[next & 1], 0, sizeof(tally));
		skel->bss->stale_tally[next & 1].epoch = next;
	}
	__atomic_store_n(&skel->bss->ruleless_epoch, next, __ATOMIC_RELEASE);
	if (ended) {
		memcpy(&tally, &skel->bss->stale_tally[ended & 1], sizeof(tally));
		undisturbed = ruleless && !ss->change_heard && nothing_unheard(ss);
		ended_interval(ss, &tally, &iv);
		stale_learn(st, stale_finding(&tally, undisturbed), &iv);
	}
	ss->epoch_began_s = wall_s();
	if (!ruleless)
		stale_rules_loaded(st);
}

/*
 * audit_n_rules counts every rule outside the user, exclude and fs lists.
 * Where BPF can read it, a larger value than the rules listed is staleness;
 * elsewhere tracepoint mode watches the times without such rules
 * (watch_ruleless()).
 */
void stale_watch(struct session *ss)
{
	struct stale_report *st = &ss->run.live.stale;
	struct auditskip_bpf *skel = ss->at.skel;
	bool ruleless, walked;
	__u64 walks;

	st->counted_rules = ruleset_counted_rules(&ss->rules);
	st->kernel_n_rules = ss->run.live.mirror.source == MIRROR_KERNEL_LIST ?
				     ss->run.live.mirror.kernel_n_rules :
				     skel->data->listed_n_rules;
	ruleless = st->counted_rules == 0;
	if (mode_sees(ss->at.mode, MODE_JUDGES_AT_ENTRY))
		watch_ruleless(ss, ruleless);
	walks = counts_read(bpf_map__fd(skel->maps.counts), NR_COUNT_SLOTS, &ss->now->exit) ?
			ss->walks_then :
			ss->now->exit.total.walks;
	walked = ss->was_ruleless && ruleless && walks != ss->walks_then;
	/*
	 * Where the kernel's counter says stale, the walks between two listings
	 * that found no rule that counts are what it costs (the other modes
	 * cannot tell a sleeper's last walk from them; it is one walk each).
	 */
	if (!mode_sees(ss->at.mode, MODE_JUDGES_AT_ENTRY) && walked &&
	    st->kernel_n_rules > (int)st->counted_rules)
		st->syscalls += walks - ss->walks_then;
	ss->walks_then = walks;
	ss->was_ruleless = ruleless;
	ss->change_heard = false;

	if (st->kernel_n_rules >= 0) {
		st->verdict =
			(unsigned int)st->kernel_n_rules > st->counted_rules ? STALE_YES : STALE_NO;
		st->reason = "audit_n_rules read from the kernel";
	} else if (mode_sees(ss->at.mode, MODE_JUDGES_AT_ENTRY)) {
		return;
	} else if (ruleless && !walked) {
		st->verdict = STALE_NO;
		st->reason = "no walk while no rule counted";
	} else {
		st->verdict = STALE_UNKNOWN;
		st->reason =
			"audit_n_rules cannot be read, and this mode cannot tell when a walk's syscall entered";
	}
}
