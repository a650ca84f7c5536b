// SPDX-License-Identifier: GPL-2.0
/* The duty cycle's schedule and what a count made in its windows says of the whole run. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "model/duty.h"

/* One length: a number and s, m or h (seconds without); -1 if invalid. */
static double parse_length(const char *s, size_t len)
{
	char buf[32], *end;
	double v, unit = 1;

	if (!len || len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	v = strtod(buf, &end);
	if (errno || end == buf || !isfinite(v) || v <= 0)
		return -1;
	if (*end == 'm')
		unit = 60;
	else if (*end == 'h')
		unit = 3600;
	else if (*end && *end != 's')
		return -1;
	if (*end && end[1])
		return -1;
	return v * unit;
}

int duty_parse(const char *arg, double *window_s, double *period_s)
{
	const char *slash = strchr(arg, '/');
	double w, p;

	if (!slash)
		return -1;
	w = parse_length(arg, slash - arg);
	p = parse_length(slash + 1, strlen(slash + 1));
	/* A window as long as its period is a full count: say that instead. */
	if (w < 0 || p < 0 || w >= p)
		return -1;
	*window_s = w;
	*period_s = p;
	return 0;
}

/*
 * This period's window at a random place in it, the first period's too: a
 * first window at the start would count whatever the start brings (a boot,
 * the seconds before a workload) as a sample of the period.
 */
static void place_window(struct duty *d)
{
	d->window_from_s = d->period_from_s + (d->period_s - d->window_s) * drand48();
	d->window_to_s = d->window_from_s + d->window_s;
}

void duty_start(struct duty *d, double window_s, double period_s, double ns_counting, double now)
{
	*d = (struct duty){
		.window_s = window_s,
		.period_s = window_s > 0 ? period_s : 0,
		.began_s = now,
		.period_from_s = now,
		.ns_counting = ns_counting,
	};
	srand48((long)getpid() ^ (long)(now * 1e6));
	if (d->period_s) {
		place_window(d);
		d->next_s = d->window_from_s;
	} else {
		d->in_window = true;
		d->opening = true;
		d->open_from_s = now;
	}
}

double duty_next_s(const struct duty *d)
{
	return d->period_s ? d->next_s : 0;
}

/* The window's end, its start, or once it is past the next period's start. */
static void plan_next(struct duty *d, double now)
{
	if (d->in_window)
		d->next_s = d->window_to_s;
	else if (now < d->window_from_s)
		d->next_s = d->window_from_s;
	else
		d->next_s = d->period_from_s + d->period_s;
}

/*
 * Idle time below which a CPU had none left in a window: /proc/stat
 * counts it in clock ticks (10 ms), so a tick and a share for rounding.
 */
static double saturated_below_s(double len_s)
{
	return 0.01 + 0.01 * len_s;
}

/* What one CPU's walks in a window are multiplied by (duty_window_corrected()). */
static double cpu_factor(double idle, double len_s, double saturated, double self_share_s,
			 double walks, double ns_counting)
{
	double busy = len_s - idle, share, taken;

	if (!isfinite(ns_counting) || busy <= 0 || walks <= 0)
		return 1;
	/* Without slices, saturated all the window or not at all. */
	if (saturated < 0)
		saturated = idle < saturated_below_s(len_s) ? busy : 0;
	if (saturated > busy)
		saturated = busy;
	share = saturated / busy;
	taken = walks * share * ns_counting / 1e9 + self_share_s * saturated / len_s;
	if (share <= 0 || saturated <= taken)
		return 1;
	/* The walks of its saturated time given back, the rest as counted. */
	return 1 - share + share * saturated / (saturated - taken);
}

void duty_window_corrected(const struct duty_cpu_edge *from, const struct duty_cpu_edge *to,
			   const double *saturated_s, double self_s, int ncpu, double len_s,
			   double ns_counting, double out[NR_DUTY_FIGURES])
{
	for (int f = 0; f < NR_DUTY_FIGURES; f++)
		out[f] = 0;
	for (int c = 0; c < ncpu; c++) {
		double walks = (double)(to[c].counts[DUTY_WALKS] - from[c].counts[DUTY_WALKS]);
		double factor = cpu_factor(to[c].idle_s - from[c].idle_s, len_s,
					   saturated_s ? saturated_s[c] : -1, self_s / ncpu, walks,
					   ns_counting);

		for (int f = 0; f < NR_DUTY_FIGURES; f++)
			out[f] += (double)(to[c].counts[f] - from[c].counts[f]) * factor;
	}
}

double duty_next_slice_s(const struct duty *d)
{
	return d->in_window && !d->opening && d->ncpu_open ? d->slice_from_s + DUTY_SLICE_S : 0;
}

void duty_slice(struct duty *d, double now, const double *idle_s, int ncpu)
{
	double len = now - d->slice_from_s;

	if (!duty_next_slice_s(d) || ncpu != d->ncpu_open || len <= 0)
		return;
	for (int c = 0; c < ncpu; c++) {
		if (idle_s[c] - d->slice_idle_s[c] < saturated_below_s(len))
			d->saturated_s[c] += len;
		d->slice_idle_s[c] = idle_s[c];
	}
	d->slice_from_s = now;
}

static void close_window(struct duty *d, double at, const __u64 counts[NR_DUTY_FIGURES],
			 const struct duty_cpu_edge *cpus, int ncpu)
{
	double len = at - d->open_from_s, corrected[NR_DUTY_FIGURES], by_cpu[NR_DUTY_FIGURES];
	bool per_cpu = cpus && d->ncpu_open && ncpu == d->ncpu_open;

	/*
	 * The CPUs were read just after the attach, the counts just before:
	 * the correction is their ratio, applied to the window's counts.
	 */
	if (per_cpu) {
		double idle[DUTY_MAX_CPUS];

		/* The last slice, to the window's end. */
		for (int c = 0; c < ncpu; c++)
			idle[c] = cpus[c].idle_s;
		duty_slice(d, at, idle, ncpu);
		duty_window_corrected(d->open_cpu, cpus, d->saturated_s,
				      d->self_cpu_s - d->open_self_cpu_s, ncpu, len, d->ns_counting,
				      corrected);
		duty_window_corrected(d->open_cpu, cpus, NULL, 0, ncpu, len, NAN, by_cpu);
	}
	d->in_window = false;
	d->closed_s = at;
	d->covered_s += len;
	d->windows++;
	for (int f = 0; f < NR_DUTY_FIGURES; f++) {
		__u64 counted = counts[f] - d->open_counts[f];
		double factor = per_cpu && by_cpu[f] > 0 ? corrected[f] / by_cpu[f] : 1;
		double window = counted * factor;
		double rate = len > 0 ? window / len : 0;

		d->closed_counted[f] += counted;
		d->closed_corrected[f] += window;
		d->sum_rate[f] += rate;
		d->sum_rate_sq[f] += rate * rate;
	}
}

bool duty_advance(struct duty *d, double now, const __u64 counts[NR_DUTY_FIGURES],
		  const struct duty_cpu_edge *cpus, int ncpu)
{
	bool was = d->in_window;

	if (!d->period_s)
		return false;
	if (d->in_window && now >= d->window_to_s)
		close_window(d, now, counts, cpus, ncpu);
	while (now >= d->period_from_s + d->period_s) {
		d->period_from_s += d->period_s;
		place_window(d);
	}
	if (!d->in_window && now >= d->window_from_s && now < d->window_to_s) {
		d->in_window = true;
		d->opening = true;
		d->open_from_s = now;
		memcpy(d->open_counts, counts, sizeof(d->open_counts));
		d->ncpu_open = 0;
	}
	plan_next(d, now);
	return was != d->in_window;
}

void duty_opened_at(struct duty *d, double at, const struct duty_cpu_edge *cpus, int ncpu)
{
	if (d->in_window && d->opening) {
		if (at > d->open_from_s)
			d->open_from_s = at;
		d->ncpu_open = cpus && ncpu <= DUTY_MAX_CPUS ? ncpu : 0;
		d->slice_from_s = d->open_from_s;
		d->open_self_cpu_s = d->self_cpu_s;
		for (int c = 0; c < d->ncpu_open; c++) {
			d->open_cpu[c] = cpus[c];
			d->slice_idle_s[c] = cpus[c].idle_s;
			d->saturated_s[c] = 0;
		}
	}
	d->opening = false;
}

double duty_covered_s(const struct duty *d, double now)
{
	if (!d->period_s)
		return now - d->began_s;
	return d->covered_s + (d->in_window ? now - d->open_from_s : 0);
}

double duty_elapsed_s(const struct duty *d, double now)
{
	return now - d->began_s;
}

double duty_estimate(const struct duty *d, double now, enum duty_figure f, __u64 counted)
{
	double covered = duty_covered_s(d, now);

	double rate;

	if (!d->period_s)
		return counted;
	if (covered <= 0)
		return NAN;
	/*
	 * What the windows counted is what happened then; the time between
	 * them ran at the windows' rate as corrected for counting's own time
	 * (the closed windows as corrected, the open one's part as counted).
	 */
	rate = ((double)(counted - d->closed_counted[f]) + d->closed_corrected[f]) / covered;
	return counted + rate * (duty_elapsed_s(d, now) - covered);
}

/*
 * The windows' rates as a sample of the run's: the standard error of
 * their mean times the time between the windows (what was counted is not
 * in doubt).
 */
double duty_stderr(const struct duty *d, double now, enum duty_figure f)
{
	double n = d->windows, mean, var, elapsed = duty_elapsed_s(d, now), uncovered;

	if (!d->period_s)
		return 0;
	if (d->windows < 2 || elapsed <= 0)
		return NAN;
	mean = d->sum_rate[f] / n;
	var = (d->sum_rate_sq[f] - n * mean * mean) / (n - 1);
	uncovered = elapsed - duty_covered_s(d, now);
	if (var < 0)
		var = 0;
	return (uncovered > 0 ? uncovered : 0) * sqrt(var / n);
}

void duty_set_idle(struct duty *d, bool audit_on, bool walks_happen)
{
	if (!audit_on)
		d->idle = DUTY_AUDIT_OFF;
	else if (!walks_happen)
		d->idle = DUTY_NO_RULES;
	else if (!d->in_window)
		d->idle = DUTY_BETWEEN_WINDOWS;
	else
		d->idle = DUTY_COUNTING;
}

bool duty_wants_attached(const struct duty *d)
{
	return d->idle == DUTY_COUNTING;
}

const char *duty_idle_name(enum duty_idle idle)
{
	static const char *const names[NR_DUTY_IDLE] = {
		[DUTY_COUNTING] = "counting",
		[DUTY_BETWEEN_WINDOWS] = "between-windows",
		[DUTY_AUDIT_OFF] = "audit-off",
		[DUTY_NO_RULES] = "no-rules",
	};

	return names[idle];
}

const char *duty_idle_why(enum duty_idle idle)
{
	static const char *const why[NR_DUTY_IDLE] = {
		[DUTY_COUNTING] = "counting",
		[DUTY_BETWEEN_WINDOWS] =
			"outside the counting windows (--duty): the counting programs are detached",
		[DUTY_AUDIT_OFF] =
			"audit is disabled: no syscall walks the exit list, so the counting programs are detached until it is enabled",
		[DUTY_NO_RULES] =
			"no rule that makes a syscall walk the exit list is loaded (every audit context is dummy), so the counting programs are detached until one is",
	};

	return why[idle];
}

void duty_view_make(const struct duty *d, double now, const __u64 counted[NR_DUTY_FIGURES],
		    double ns_counting, struct duty_view *v)
{
	*v = (struct duty_view){
		.cycled = d->period_s > 0,
		.window_s = d->window_s,
		.period_s = d->period_s,
		.covered_s = duty_covered_s(d, now),
		.elapsed_s = duty_elapsed_s(d, now),
		.windows = d->windows,
		.idle = d->idle,
		.attaches = d->attaches,
		.detaches = d->detaches,
		.self_added_s = counted[DUTY_WALKS] * ns_counting / 1e9,
		.correction =
			d->closed_counted[DUTY_WALKS] ?
				d->closed_corrected[DUTY_WALKS] / d->closed_counted[DUTY_WALKS] :
				NAN,
	};
	for (int f = 0; f < NR_DUTY_FIGURES; f++) {
		v->estimate[f] = duty_estimate(d, now, f, counted[f]);
		v->stderr_[f] = duty_stderr(d, now, f);
	}
}
