/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Duty-cycled counting (--duty WINDOW/PERIOD): the counting programs stay
 * loaded, and are attached for one window in every period and detached
 * for the rest, so the syscalls outside the windows pay nothing. The
 * window's place in each period is drawn at random, the first period's
 * too, so neither the start nor a workload with a period of its own is
 * caught at the same phase each time: counted / covered time is an
 * unbiased estimate of the rate over the whole run. Its uncertainty comes
 * from how the rates of the closed windows spread.
 *
 * The loader also detaches while there is nothing to count (audit off, or
 * no rule that makes a syscall walk the exit list): see duty_idle().
 */
#ifndef __DUTY_H
#define __DUTY_H

#include <stdbool.h>
#include <linux/types.h>

/* The figures a duty-cycled run extrapolates: walks and skippable walks. */
enum duty_figure {
	DUTY_WALKS,
	DUTY_SKIPPABLE,
	NR_DUTY_FIGURES
};

/* Why nothing is counted now (the programs are detached), or DUTY_COUNTING. */
enum duty_idle {
	DUTY_COUNTING,
	DUTY_BETWEEN_WINDOWS, /* --duty: outside this period's window */
	DUTY_AUDIT_OFF,	      /* audit is disabled: no syscall is audited */
	DUTY_NO_RULES,	      /* no rule audit_n_rules counts: every context is dummy */
	NR_DUTY_IDLE
};

/* Most CPUs whose windows are corrected for counting's own time (duty_cpu_edge). */
#define DUTY_MAX_CPUS 1024
/*
 * How often an attached window reads each CPU's idle time, to tell the
 * slices a CPU had none left in (duty_slice()): short enough that a burst
 * of work fills whole slices, long against /proc/stat's 10 ms ticks.
 */
#define DUTY_SLICE_S 0.1

/* One CPU at a window's edge: its counts so far and the seconds it was idle. */
struct duty_cpu_edge {
	__u64 counts[NR_DUTY_FIGURES];
	double idle_s;
};

struct duty {
	double window_s, period_s; /* --duty; period_s 0: always on (a full count) */
	double began_s;		   /* the run's start, monotonic seconds */
	double period_from_s;	   /* the current period's start */
	double window_from_s;	   /* this period's window, [from, to) */
	double window_to_s;
	bool in_window;	      /* now within this period's window */
	double next_s;	      /* when the schedule next moves: a window opens or closes */
	bool opening;	      /* the open window's programs are not attached yet */
	enum duty_idle idle;  /* what the programs are detached for, if they are */
	double covered_s;     /* closed windows' time */
	double closed_s;      /* when the last window closed */
	double open_from_s;   /* the open window's start, if in_window */
	unsigned int windows; /* closed windows */
	__u64 open_counts[NR_DUTY_FIGURES]; /* the counts when the open window opened */
	/*
	 * Each CPU when the open window opened (ncpu_open of them; 0: not
	 * known, no correction), and what the closed windows counted as
	 * counted and as corrected (duty_window_corrected()).
	 */
	struct duty_cpu_edge open_cpu[DUTY_MAX_CPUS];
	int ncpu_open;
	/*
	 * The open window's slices: when the last began and each CPU's idle
	 * time then, and each CPU's time in slices it had no idle time in.
	 */
	double slice_from_s;
	double slice_idle_s[DUTY_MAX_CPUS];
	double saturated_s[DUTY_MAX_CPUS];
	/*
	 * The loader's own CPU time as last read at a window's edge (the
	 * caller sets it before duty_advance() and duty_opened_at()), and when
	 * the open window opened: what it took in the window was taken from
	 * the work of any saturated CPU it ran on.
	 */
	double self_cpu_s, open_self_cpu_s;
	double ns_counting; /* what counting adds to a syscall here, NAN: unknown */
	__u64 closed_counted[NR_DUTY_FIGURES];
	double closed_corrected[NR_DUTY_FIGURES];
	double sum_rate[NR_DUTY_FIGURES]; /* closed windows' rates, corrected, per second */
	double sum_rate_sq[NR_DUTY_FIGURES];
	unsigned int attaches, detaches; /* of the counting programs, so far */
};

/* "WINDOW/PERIOD", each a number with s, m or h (seconds without): 0, or -1 if invalid. */
int duty_parse(const char *arg, double *window_s, double *period_s);

/*
 * A run from `now`: window_s 0 counts all the time (period_s ignored).
 * ns_counting: what counting adds to each syscall here (calibrated), or
 * NAN: the windows are then taken as counted.
 */
void duty_start(struct duty *d, double window_s, double period_s, double ns_counting, double now);

/*
 * A window's counts as the machine would have made them with nothing
 * attached: where a CPU had no idle time left, it was saturated, and the
 * time counting took there (the walks made then times ns_counting) was
 * taken from its work, which would have made more calls at the rate it
 * ran, so those walks scale by saturated / (saturated - their walks *
 * ns_counting); where it had idle time, counting took that, not its
 * work's, and the walks count as they are. saturated_s (NULL: not known)
 * is each CPU's time in slices with no idle time (duty_slice()), the walks
 * made then its share of the CPU's busy time; without it, a CPU with no
 * idle time in the whole window is saturated all of it, any other none.
 * The loader's own CPU time in the window (self_s) was taken from
 * saturated CPUs too: it is spread over the CPUs' time as they were
 * saturated (where it ran is not known). `from` and `to` are each CPU at
 * the window's edges, len_s its length.
 */
void duty_window_corrected(const struct duty_cpu_edge *from, const struct duty_cpu_edge *to,
			   const double *saturated_s, double self_s, int ncpu, double len_s,
			   double ns_counting, double out[NR_DUTY_FIGURES]);

/* When the next window opens or closes (0: never, a full count). */
double duty_next_s(const struct duty *d);

/*
 * Moves the schedule on to `now`: closes the window that ended (with the
 * counts at its end) and opens the one that began (with the counts then).
 * `cpus` (ncpu of them, NULL: not known) are the CPUs then, for a closing
 * window's duty_window_corrected(). True when in_window changed.
 */
bool duty_advance(struct duty *d, double now, const __u64 counts[NR_DUTY_FIGURES],
		  const struct duty_cpu_edge *cpus, int ncpu);

/*
 * A window that has just opened counts from `at`, when the programs were
 * attached (its listing and the attach came after it opened), and each
 * CPU then (`cpus`, ncpu of them; NULL: not known, no correction). Later
 * attaches in the same window (rules back) leave it as it is: the time
 * before them counted nothing because nothing walked.
 */
void duty_opened_at(struct duty *d, double at, const struct duty_cpu_edge *cpus, int ncpu);

/*
 * When the open window's next slice ends (0: no window attached, or no
 * CPU known), and that slice's end: each CPU's idle time (`idle_s`, ncpu
 * of them, as at the window's opening) at `now`.
 */
double duty_next_slice_s(const struct duty *d);
void duty_slice(struct duty *d, double now, const double *idle_s, int ncpu);

/* Time counted so far (closed windows and the open one's part), and the run's. */
double duty_covered_s(const struct duty *d, double now);
double duty_elapsed_s(const struct duty *d, double now);

/*
 * The estimate for the whole run of a count made in the windows: what they
 * counted, and the time between them at their rate, corrected for the time
 * counting took (the calls the machine made, not those it would have made
 * with nothing attached); and its standard error (NaN until two windows
 * have closed; 0 for a full count).
 */
double duty_estimate(const struct duty *d, double now, enum duty_figure f, __u64 counted);
double duty_stderr(const struct duty *d, double now, enum duty_figure f);

/*
 * What the programs are for now, from audit's state as last read: audit on
 * or off, and whether a rule makes syscalls walk the exit list (the rules
 * audit_n_rules counts, or a count above them: staleness). Set after every
 * sync and every move of the schedule.
 */
void duty_set_idle(struct duty *d, bool audit_on, bool walks_happen);

/* Whether the programs should be attached: in a window, with something to count. */
bool duty_wants_attached(const struct duty *d);

/* What the reports and the metrics show of it, at one moment. */
struct duty_view {
	bool cycled; /* --duty given; else the windows are the whole run */
	double window_s, period_s;
	double covered_s, elapsed_s; /* counted time, and the run's, so far */
	unsigned int windows;	     /* closed windows */
	enum duty_idle idle;	     /* why nothing is counted now, or DUTY_COUNTING */
	double estimate[NR_DUTY_FIGURES], stderr_[NR_DUTY_FIGURES]; /* NaN: not known yet */
	unsigned int attaches, detaches;
	/*
	 * What the counting programs added to the walks counted, at the price
	 * calibrate measured (ns_counting): NAN where it has none for the mode.
	 * Every syscall the hook sees pays it, walked or not: a lower bound.
	 */
	double self_added_s;
	/*
	 * The closed windows' walks as corrected for counting's own time on
	 * saturated CPUs, over the walks counted in them (duty_window_corrected()):
	 * 1 where nothing was corrected, NAN before a window closed.
	 */
	double correction;
};

/* ns_counting: what counting adds to a syscall here (calibration_counting_ns()), or NAN. */
void duty_view_make(const struct duty *d, double now, const __u64 counted[NR_DUTY_FIGURES],
		    double ns_counting, struct duty_view *v);

/* What the idle state says, for the text report and the JSON. */
const char *duty_idle_name(enum duty_idle idle);
const char *duty_idle_why(enum duty_idle idle);

#endif /* __DUTY_H */
