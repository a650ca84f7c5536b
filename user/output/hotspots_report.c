// SPDX-License-Identifier: GPL-2.0
/*
 * The hotspots report. A part this kernel does not let a trampoline time
 * is shown as "-" (null in JSON) and said why once, above the table; its
 * time is then inside rest, which is the exit path less the timed parts.
 */
#include <stdio.h>
#include "audit/syscalls.h"
#include "output/hotspots_report.h"
#include "output/json_out.h"

static const char *const part_label[HS_NR_PARTS] = {
	[HS_ENTRY] = "entry",	  [HS_WALK] = "walk",		[HS_INODES] = "inodes",
	[HS_RECORDS] = "records", [HS_LOG_START] = "log_start", [HS_EXIT] = "exit path",
};

static double share(double part, double whole)
{
	return whole > 0 ? 100.0 * part / whole : 0;
}

/* The per-call exit path over the calls that ran one, the parts' sum against it alone. */
static double exit_per_exit_call(const struct hs_breakdown *b)
{
	return b->exits ? b->exit_on_ns * (double)b->calls / (double)b->exits : 0;
}

static void print_header(FILE *out, const struct hotspots_run *r)
{
	struct hs_breakdown all;
	double alone = hotspots_alone_ns(r), parts;

	hotspots_breakdown(r, -1, &all);
	fprintf(out, "audit's time per syscall, kernel %s, %s, %.2f s\n", r->kernel,
		r->command_status >= 0 ? "the command" : "the whole machine", r->seconds);
	for (int p = 0; p < HS_NR_PARTS; p++)
		if (p != HS_REF && !r->part_timed[p])
			fprintf(out, "not timed: %s: %s\n", part_label[p], r->why_not[p]);
	if (!r->part_timed[HS_EXIT])
		return;
	fprintf(out,
		"hooks' own cost, taken off: %.0f ns of each timed interval, %.0f ns for each "
		"hooked call inside one\n",
		r->ref_gap_ns, r->pair_ns);
	parts = exit_per_exit_call(&all);
	if (alone >= 0)
		fprintf(out,
			"exit path timed alone, on the CPU: %.0f ns a call; its parts on the CPU "
			"add up to %.0f (%+.1f%%)\n",
			alone, parts, share(parts - alone, alone));
	fprintf(out, "records written: %llu", (unsigned long long)all.records);
	if (r->lost_records >= 0)
		fprintf(out, " (lost by audit meanwhile: %ld)", r->lost_records);
	fprintf(out, "; exits that ran the filters: %llu of %llu, walks timed: %llu\n",
		(unsigned long long)all.filtered, (unsigned long long)all.exits,
		(unsigned long long)all.walks);
}

static void print_row(FILE *out, const char *name, const struct hs_breakdown *b)
{
	fprintf(out, "%-16s %9llu %9.0f", name, (unsigned long long)b->calls, b->syscall_ns);
	if (b->shown_timed[HS_SHOW_REST])
		fprintf(out, " %6.0f %5.1f%%", b->exit_ns, share(b->exit_ns, b->syscall_ns));
	else
		fprintf(out, " %6s %6s", "-", "");
	for (int k = 0; k < HS_NR_SHOWN; k++) {
		if (b->shown_timed[k])
			fprintf(out, " %6.0f %5.1f%%", b->part_ns[k],
				share(b->part_ns[k], b->syscall_ns));
		else
			fprintf(out, " %6s %6s", "-", "");
	}
	if (b->shown_timed[HS_SHOW_LOG_START]) /* records are counted at audit_log_start */
		fprintf(out, " %7.2f\n", b->calls ? (double)b->records / (double)b->calls : 0);
	else
		fprintf(out, " %7s\n", "-");
}

void hotspots_print_text(FILE *out, const struct hotspots_run *r, int top)
{
	struct hs_breakdown b;
	char name[32];

	print_header(out, r);
	fprintf(out, "\nns per call and share of the syscall's own time (sys_enter to sys_exit)\n");
	fprintf(out, "%-16s %9s %9s %13s", "syscall", "calls", "syscall", "exit path");
	for (int k = 0; k < HS_NR_SHOWN; k++)
		fprintf(out, " %13s", hs_shown_names[k]);
	fprintf(out, " %7s\n", "records");
	for (int i = 0; i < r->nrows && (!top || i < top); i++) {
		syscall_name(r->rows[i].nr, -1, name, sizeof(name));
		hotspots_breakdown(r, i, &b);
		print_row(out, name, &b);
	}
	hotspots_breakdown(r, -1, &b);
	print_row(out, "all", &b);
	if (r->lost_tasks)
		fprintf(out, "syscalls not followed (the task map was full): %llu\n",
			(unsigned long long)r->lost_tasks);
}

static json_object *part_json(const struct hs_breakdown *b, int k)
{
	json_object *o;

	if (!b->shown_timed[k])
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "ns", json_rounded(b->part_ns[k], 1));
	json_object_object_add(o, "share", json_rounded(share(b->part_ns[k], b->syscall_ns), 2));
	return o;
}

static json_object *breakdown_json(const struct hs_breakdown *b)
{
	json_object *o = json_object_new_object(), *parts = json_object_new_object();

	add_u64(o, "calls", b->calls);
	add_u64(o, "exits", b->exits);
	add_u64(o, "filtered", b->filtered);
	add_u64(o, "walks", b->walks);
	add_u64(o, "records", b->records);
	json_object_object_add(o, "syscall_ns", json_rounded(b->syscall_ns, 1));
	json_object_object_add(o, "exit_ns",
			       b->shown_timed[HS_SHOW_REST] ? json_rounded(b->exit_ns, 1) : NULL);
	for (int k = 0; k < HS_NR_SHOWN; k++)
		json_object_object_add(parts, hs_shown_names[k], part_json(b, k));
	json_object_object_add(o, "parts", parts);
	return o;
}

static json_object *not_timed_json(const struct hotspots_run *r)
{
	json_object *o = json_object_new_object();

	for (int p = 0; p < HS_NR_PARTS; p++)
		if (p != HS_REF && !r->part_timed[p])
			add_str(o, part_label[p], r->why_not[p]);
	return o;
}

void hotspots_print_json(FILE *out, const struct hotspots_run *r, int top)
{
	json_object *o = json_object_new_object(), *rows = json_object_new_array(), *row;
	double alone = hotspots_alone_ns(r);
	struct hs_breakdown b;
	char name[32];

	add_u64(o, "schema", JSON_SCHEMA);
	add_str(o, "kernel", r->kernel);
	json_object_object_add(o, "command_status",
			       r->command_status >= 0 ? json_object_new_int(r->command_status) :
							NULL);
	json_object_object_add(o, "seconds", json_rounded(r->seconds, 3));
	json_object_object_add(o, "not_timed", not_timed_json(r));
	add_str_or_null(o, "walk_function", r->walk_func);
	json_object_object_add(o, "hook_interval_ns", json_rounded(r->ref_gap_ns, 1));
	json_object_object_add(o, "hook_nested_ns", json_rounded(r->pair_ns, 1));
	hotspots_breakdown(r, -1, &b);
	json_object_object_add(o, "exit_alone_ns", alone >= 0 ? json_rounded(alone, 1) : NULL);
	json_object_object_add(o, "exit_parts_ns", json_rounded(exit_per_exit_call(&b), 1));
	json_object_object_add(o, "lost_records",
			       r->lost_records >= 0 ? json_object_new_int64(r->lost_records) :
						      NULL);
	add_u64(o, "lost_tasks", r->lost_tasks);
	json_object_object_add(o, "all", breakdown_json(&b));
	for (int i = 0; i < r->nrows && (!top || i < top); i++) {
		hotspots_breakdown(r, i, &b);
		row = breakdown_json(&b);
		syscall_name(r->rows[i].nr, -1, name, sizeof(name));
		add_u64(row, "nr", r->rows[i].nr);
		add_str(row, "name", name);
		json_object_array_add(rows, row);
	}
	json_object_object_add(o, "syscalls", rows);
	print_json(out, o);
}
