// SPDX-License-Identifier: GPL-2.0
/* The share of the run counted, and the estimate for all of it, as text, JSON and metrics. */
#include <math.h>
#include "output/duty_report.h"
#include "output/json_out.h"

static double share_pct(double part, double whole)
{
	return whole > 0 ? 100.0 * part / whole : 0;
}

static void print_estimate(FILE *out, const char *label, double est, double se)
{
	if (isnan(est)) {
		fprintf(out, "  %-24s %12s  (no window has opened yet)\n", label, "unknown");
		return;
	}
	if (isnan(se))
		fprintf(out, "  %-24s %12.0f  (uncertainty known once two windows have closed)\n",
			label, est);
	else
		fprintf(out, "  %-24s %12.0f  (+/- %.0f, one standard error)\n", label, est, se);
}

void duty_print(FILE *out, const struct run_state *r)
{
	const struct duty_view *v = &r->live.duty;

	if (v->cycled) {
		fprintf(out,
			"  %-24s %11.1f%%  (%.1f s of %.1f s; a %.0f s window every %.0f s, %u closed)\n",
			"time counted (--duty)", share_pct(v->covered_s, v->elapsed_s),
			v->covered_s, v->elapsed_s, v->window_s, v->period_s, v->windows);
		print_estimate(out, "walks, whole run (est.)", v->estimate[DUTY_WALKS],
			       v->stderr_[DUTY_WALKS]);
		print_estimate(out, "skippable, whole run", v->estimate[DUTY_SKIPPABLE],
			       v->stderr_[DUTY_SKIPPABLE]);
		fprintf(out,
			"  (the counts above are the windows'; the estimates scale them to the run)\n");
		if (!isfinite(r->cfg.counting_ns))
			fprintf(out,
				"  (not corrected for the time counting takes from busy CPUs: %s)\n",
				r->cfg.counting_price);
		else if (isfinite(v->correction))
			fprintf(out,
				"  (the windows' walks times %.3f: the time counting took on CPUs left no idle time, given back to their work)\n",
				v->correction);
	}
	fprintf(out,
		"  %-24s %10.3f s  (%.4f%% of one CPU over the run: listings, reads, reports)\n",
		"auditskip's own CPU time", r->live.self_cpu_s,
		share_pct(r->live.self_cpu_s, v->elapsed_s));
	if (isfinite(v->self_added_s))
		fprintf(out,
			"  %-24s %10.3f s  (at least: %.1f ns a syscall, %s, times the walks counted)\n",
			"its programs added", v->self_added_s, r->cfg.counting_ns,
			r->cfg.counting_price);
	else
		fprintf(out, "  %-24s %12s  (%s)\n", "its programs added", "unknown",
			r->cfg.counting_price);
	if (v->idle != DUTY_COUNTING && v->idle != DUTY_BETWEEN_WINDOWS)
		fprintf(out, "  Not counting now: %s.\n", duty_idle_why(v->idle));
}

const char *duty_interval_note(const struct run_state *r)
{
	switch (r->live.duty.idle) {
	case DUTY_BETWEEN_WINDOWS:
		return "  (between windows: detached)";
	case DUTY_AUDIT_OFF:
		return "  (audit off: detached)";
	case DUTY_NO_RULES:
		return "  (no rule: detached)";
	default:
		return "";
	}
}

/* A float, or null where it is not known (NaN). */
static json_object *maybe(double v, int decimals)
{
	return isnan(v) ? NULL : json_rounded(v, decimals);
}

json_object *duty_json(const struct run_state *r)
{
	const struct duty_view *v = &r->live.duty;
	json_object *o = json_object_new_object();

	json_object_object_add(o, "duty_cycled", json_object_new_boolean(v->cycled));
	json_object_object_add(o, "window_s", v->cycled ? json_rounded(v->window_s, 6) : NULL);
	json_object_object_add(o, "period_s", v->cycled ? json_rounded(v->period_s, 6) : NULL);
	json_object_object_add(o, "covered_s", json_rounded(v->covered_s, 6));
	json_object_object_add(o, "elapsed_s", json_rounded(v->elapsed_s, 6));
	add_u64(o, "windows", v->windows);
	add_str(o, "state", duty_idle_name(v->idle));
	add_str(o, "why", duty_idle_why(v->idle));
	json_object_object_add(o, "estimated_walks", maybe(v->estimate[DUTY_WALKS], 0));
	json_object_object_add(o, "estimated_walks_stderr", maybe(v->stderr_[DUTY_WALKS], 0));
	json_object_object_add(o, "estimated_skippable_walks",
			       maybe(v->estimate[DUTY_SKIPPABLE], 0));
	json_object_object_add(o, "estimated_skippable_walks_stderr",
			       maybe(v->stderr_[DUTY_SKIPPABLE], 0));
	add_u64(o, "attaches", v->attaches);
	add_u64(o, "detaches", v->detaches);
	json_object_object_add(o, "self_cpu_s", json_rounded(r->live.self_cpu_s, 6));
	json_object_object_add(o, "self_added_s", maybe(v->self_added_s, 6));
	json_object_object_add(o, "counting_ns", maybe(r->cfg.counting_ns, 1));
	add_str(o, "counting_price", r->cfg.counting_price);
	json_object_object_add(o, "correction", maybe(v->correction, 6));
	return o;
}

static void metric_family(FILE *out, const char *name, const char *type, const char *help)
{
	fprintf(out, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* A gauge whose value may be unknown: Prometheus takes NaN. */
static void float_gauge(FILE *out, const char *name, const char *help, double v)
{
	metric_family(out, name, "gauge", help);
	if (isnan(v))
		fprintf(out, "%s NaN\n", name);
	else
		fprintf(out, "%s %.6f\n", name, v);
}

static void state_set(FILE *out, const struct duty_view *v)
{
	metric_family(out, "auditskip_counting_state", "gauge",
		      "1 for what the counting programs are doing now: state=\"counting\" "
		      "(attached), \"between-windows\" (--duty), \"audit-off\" or \"no-rules\" "
		      "(nothing to count: detached until that changes).");
	for (int i = 0; i < NR_DUTY_IDLE; i++)
		fprintf(out, "auditskip_counting_state{state=\"%s\"} %d\n", duty_idle_name(i),
			v->idle == (enum duty_idle)i);
}

void duty_metrics(FILE *out, const struct run_state *r)
{
	const struct duty_view *v = &r->live.duty;

	state_set(out, v);
	metric_family(out, "auditskip_covered_seconds_total", "counter",
		      "Time the counting windows covered: every counter of this page counts only "
		      "them (the whole run without --duty).");
	fprintf(out, "auditskip_covered_seconds_total %.6f\n", v->covered_s);
	metric_family(out, "auditskip_elapsed_seconds_total", "counter",
		      "Time since the run began.");
	fprintf(out, "auditskip_elapsed_seconds_total %.6f\n", v->elapsed_s);
	float_gauge(out, "auditskip_duty_window_seconds",
		    "--duty: the counting window in each period (0: a full count).", v->window_s);
	float_gauge(out, "auditskip_duty_period_seconds", "--duty: the period (0: a full count).",
		    v->period_s);
	float_gauge(out, "auditskip_estimated_walks",
		    "Exit-filter walks over the whole run, estimated from the windows' count "
		    "(NaN before the first window; the count itself without --duty).",
		    v->estimate[DUTY_WALKS]);
	float_gauge(out, "auditskip_estimated_walks_stderr",
		    "The estimate's standard error, from how the closed windows' rates spread "
		    "(NaN until two have closed; 0 without --duty).",
		    v->stderr_[DUTY_WALKS]);
	float_gauge(out, "auditskip_estimated_skippable_walks",
		    "Skippable walks over the whole run, estimated as auditskip_estimated_walks.",
		    v->estimate[DUTY_SKIPPABLE]);
	float_gauge(out, "auditskip_estimated_skippable_walks_stderr",
		    "The estimate's standard error, as auditskip_estimated_walks_stderr.",
		    v->stderr_[DUTY_SKIPPABLE]);
	metric_family(
		out, "auditskip_self_cpu_seconds_total", "counter",
		"CPU time of auditskip's own process, every thread (getrusage): listings, "
		"map reads, reports and this page; not the time its programs add to syscalls.");
	fprintf(out, "auditskip_self_cpu_seconds_total %.6f\n", r->live.self_cpu_s);
	if (isfinite(v->correction)) {
		metric_family(out, "auditskip_duty_correction", "gauge",
			      "What the estimates multiply the closed windows' walks by: the time "
			      "counting took on CPUs left no idle time, given back to their work.");
		fprintf(out, "auditskip_duty_correction %.6f\n", v->correction);
	}
	if (isfinite(r->cfg.counting_ns)) {
		metric_family(out, "auditskip_self_added_seconds_per_syscall", "gauge",
			      "What the counting programs add to a syscall here: price="
			      "\"calibrated\" (auditskip calibrate) or \"measured at start\" "
			      "(a --duty run without a calibration of its mode).");
		fprintf(out, "auditskip_self_added_seconds_per_syscall{price=\"%s\"} %.4g\n",
			r->cfg.counting_price, r->cfg.counting_ns / 1e9);
	}
	if (isfinite(v->self_added_s)) {
		metric_family(
			out, "auditskip_self_added_seconds_total", "counter",
			"CPU time the counting programs added to the syscalls counted, at the "
			"price auditskip calibrate measured, or without a calibration the price "
			"a --duty run measured at its start: a lower bound (every syscall the "
			"hook sees pays it, walked or not).");
		fprintf(out, "auditskip_self_added_seconds_total %.6f\n", v->self_added_s);
	}
	metric_family(out, "auditskip_counting_attaches_total", "counter",
		      "Times the counting programs were attached (once a window with --duty).");
	fprintf(out, "auditskip_counting_attaches_total %u\n", v->attaches);
}
