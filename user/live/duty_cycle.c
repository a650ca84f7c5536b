// SPDX-License-Identifier: GPL-2.0
/* The counting programs attached only when the duty cycle and audit's state want them. */
#include <math.h>
#include <stdio.h>
#include <sys/resource.h>
#include <bpf/libbpf.h>
#include "auditskip.h" /* before the skeleton: its mirror section is a struct mask_mirror */
#include "auditskip.skel.h"
#include "live/clock.h"
#include "live/counts_read.h"
#include "live/duty_cycle.h"
#include "live/sysinfo.h"

/* Each CPU at the last window edge read (read_edge()). */
static struct duty_cpu_edge cpus[DUTY_MAX_CPUS];

/* Whole-machine counts detach while nothing walks, where the programs attach again. */
static bool idle_detaches(const struct session *ss)
{
	return ss->opt->idle_detach && ss->at.reattaches;
}

/*
 * Whether a syscall walks the exit list now, as the last listing saw it:
 * a rule audit_n_rules counts (exit, io_uring or task list: any makes the
 * context non-dummy), or a count above the rules listed (stale). Where the
 * count cannot be read, the stale watch must have judged it 0 first (it
 * watches the walks while no rule counts); with no rule loaded none can be
 * removed behind audit's back, so it stays 0 until a rule is loaded.
 */
static bool walks_happen(const struct session *ss)
{
	const struct stale_report *st = &ss->run.live.stale;

	if (!idle_detaches(ss) || st->counted_rules > 0 || st->kernel_n_rules > 0)
		return true;
	return st->kernel_n_rules < 0 && st->verdict != STALE_NO;
}

static bool audit_enabled(const struct session *ss)
{
	return !idle_detaches(ss) || ss->at.skel->bss->audit_on;
}

/* The loader's CPU time, all threads: listings, reads, the metrics server. */
static double self_cpu_s(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		return 0;
	return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec +
	       ru.ru_stime.tv_usec / 1e6;
}

/*
 * The counts now, into ss->now and c (the last read stand if it fails),
 * and, where a window is corrected for the time counting took (--duty and
 * a calibrated price for the mode: duty_window_corrected()), each CPU's
 * counts from the same read and its idle time into cpus. The CPUs read, 0
 * when not.
 */
static int read_edge(struct session *ss, __u64 c[NR_DUTY_FIGURES])
{
	static double idle[DUTY_MAX_CPUS];
	int ncpu = libbpf_num_possible_cpus();
	bool by_cpu = ss->duty.period_s && isfinite(ss->duty.ns_counting) && ncpu > 0 &&
		      ncpu <= DUTY_MAX_CPUS;

	if (counts_read_cpus(bpf_map__fd(ss->at.skel->maps.counts), NR_COUNT_SLOTS, &ss->now->exit,
			     by_cpu ? cpus : NULL))
		return 0;
	c[DUTY_WALKS] = ss->now->exit.total.walks;
	c[DUTY_SKIPPABLE] = ss->now->exit.total.skippable_walks;
	ss->duty.self_cpu_s = self_cpu_s();
	if (!by_cpu || cpu_idle_read(idle, ncpu))
		return 0;
	for (int k = 0; k < ncpu; k++)
		cpus[k].idle_s = idle[k];
	return ncpu;
}

static void detach(struct session *ss)
{
	if (!ss->at.counting)
		return;
	attach_stop_counting(&ss->at);
	ss->duty.detaches++;
}

/*
 * A window opens with a listing when none ran since the last one closed
 * (a change whose record was lost is in it), the first window always
 * (nothing was attached since the start's listing, up to a period ago);
 * within the periodic check's share of a CPU: a short period with many
 * rules would list more often.
 */
static bool listing_due(const struct session *ss, double now)
{
	const struct resync *r = &ss->resync;

	return (!ss->duty.windows || r->listed_at <= ss->duty.closed_s) &&
	       (now - r->listed_at) * RESYNC_PERIODIC_SHARE >= r->cost_s;
}

/* A slice of the open window ended: each CPU's idle time since (duty_slice()). */
static void end_slice(struct session *ss, double now)
{
	double idle[DUTY_MAX_CPUS];
	double next = duty_next_slice_s(&ss->duty);

	if (!next || now < next)
		return;
	if (cpu_idle_read(idle, ss->duty.ncpu_open))
		ss->duty.ncpu_open = 0; /* the window goes uncorrected, as any without its CPUs */
	else
		duty_slice(&ss->duty, now, idle, ss->duty.ncpu_open);
}

double duty_cycle_next_s(const struct session *ss)
{
	double edge = duty_next_s(&ss->duty), slice = duty_next_slice_s(&ss->duty);

	return slice && (!edge || slice < edge) ? slice : edge;
}

bool duty_cycle_update(struct session *ss, double now)
{
	struct duty *d = &ss->duty;
	double next = duty_next_s(d);
	__u64 c[NR_DUTY_FIGURES] = { ss->now->exit.total.walks,
				     ss->now->exit.total.skippable_walks };
	bool opened;
	int ncpu;

	end_slice(ss, now);
	if (!next || now < next)
		return false;
	/*
	 * A closing window's counts are read once nothing adds to them, and
	 * it ends when the programs were detached, not when the loop woke.
	 */
	if (d->in_window) {
		detach(ss);
		now = now_s();
	}
	ncpu = read_edge(ss, c);
	opened = duty_advance(d, now, c, cpus, ncpu) && d->in_window;
	duty_set_idle(d, audit_enabled(ss), walks_happen(ss));
	return opened && duty_wants_attached(d) && listing_due(ss, now);
}

int duty_cycle_apply(struct session *ss)
{
	int err;

	duty_set_idle(&ss->duty, audit_enabled(ss), walks_happen(ss));
	if (!duty_wants_attached(&ss->duty)) {
		/* A window that opens with nothing to count counts (zero) from its start. */
		ss->duty.opening = false;
		if (ss->at.counting && ss->opt->verbose)
			fprintf(stderr, "auditskip: detached: %s\n", duty_idle_why(ss->duty.idle));
		detach(ss);
		return 0;
	}
	if (ss->at.counting)
		return 0;
	/* attach_start_counting() says what failed. */
	err = attach_start_counting(&ss->at);
	if (err)
		return err;
	ss->duty.attaches++;
	/* Counted from here: the window's listing came between its start and now. */
	if (ss->duty.in_window) {
		double at = now_s();
		__u64 c[NR_DUTY_FIGURES];

		duty_opened_at(&ss->duty, at, cpus, read_edge(ss, c));
	}
	return 0;
}

void duty_cycle_view(struct session *ss, double now)
{
	__u64 c[NR_DUTY_FIGURES] = { ss->now->exit.total.walks,
				     ss->now->exit.total.skippable_walks };

	duty_set_idle(&ss->duty, audit_enabled(ss), walks_happen(ss));
	duty_view_make(&ss->duty, now, c, ss->run.cfg.counting_ns, &ss->run.live.duty);
	ss->run.live.self_cpu_s = self_cpu_s();
}
