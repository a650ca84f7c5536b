// SPDX-License-Identifier: GPL-2.0
/* The designs compared: see designs_report.h. */
#include "output/designs_report.h"
#include "output/json_out.h"

static double per_second(double seconds, double ns)
{
	return seconds > 0 ? ns / seconds : 0;
}

static double share_of_walks(const struct design_savings *d, enum design k)
{
	return d->all_walks ? 100.0 * (double)d->total_walks[k] / (double)d->all_walks : 0;
}

static const char *why_not(const struct design_savings *d, enum design k)
{
	return k == DESIGN_2023 ? d->not_2023 : k == DESIGN_PREFIX ? d->no_prefix : NULL;
}

json_object *designs_json(const struct design_savings *d, double seconds)
{
	json_object *arr = json_object_new_array();

	for (int k = 0; k < NR_DESIGNS; k++) {
		json_object *e = json_object_new_object();

		add_str(e, "design", design_names[k]);
		add_u64(e, "walks", d->total_walks[k]);
		json_object_object_add(e, "walks_share_pct", json_rounded(share_of_walks(d, k), 1));
		add_u64(e, "dummy_contexts", d->total_contexts[k]);
		json_object_object_add(e, "saved_ns", json_rounded(d->total_ns[k], 0));
		json_object_object_add(e, "saved_ns_per_s",
				       json_rounded(per_second(seconds, d->total_ns[k]), 1));
		add_str(e, "needs", design_needs[k]);
		add_str(e, "records", design_records[k]);
		add_str_or_null(e, "does_not_fire", why_not(d, k));
		json_object_array_add(arr, e);
	}
	return arr;
}

void designs_print(FILE *out, const struct design_savings *d, double seconds)
{
	static const char *const what[NR_DESIGNS] = {
		[DESIGN_SERIES] = "the series (exit mask, walk skipped)",
		[DESIGN_2023] = "2023 (dummy context at entry)",
		[DESIGN_ARCHPERM] = "archperm (per-arch, perm-aware exit)",
		[DESIGN_ARCHPERM_ENTRY] = "archperm-entry (the same, and at entry)",
		[DESIGN_PREFIX] = "the never,exit prefix (stock kernel)",
	};

	fprintf(out,
		"\nDesigns compared on these walks (WALKS: walks each spares or cuts short, and\n"
		"their share of all %llu; NS/S: time saved per second of the workload, a COST\n"
		"where negative):\n",
		(unsigned long long)d->all_walks);
	fprintf(out, "  %-40s %12s %6s %12s  %s\n", "DESIGN", "WALKS", "SHARE", "NS/S", "NEEDS");
	for (int k = 0; k < NR_DESIGNS; k++) {
		const char *why = why_not(d, k);
		double ns = per_second(seconds, d->total_ns[k]);

		fprintf(out, "  %-40s %12llu %5.1f%% %12.0f  %s\n", what[k],
			(unsigned long long)d->total_walks[k], share_of_walks(d, k), ns,
			design_needs[k]);
		if (why)
			fprintf(out, "  %-40s does not fire: %s\n", "", why);
		else if (ns < 0)
			fprintf(out,
				"  %-40s a cost: it adds more to the walks it does not end\n"
				"  %-40s than it saves on those it ends\n",
				"", "");
		else if (d->total_contexts[k])
			fprintf(out, "  %-40s of which %llu calls get a dummy context\n", "",
				(unsigned long long)d->total_contexts[k]);
	}
	fprintf(out,
		"  records: the series and archperm change none; 2023 and the prefix drop the\n"
		"  SYSCALL record of a record logged without a rule during a call they cover,\n"
		"  archperm-entry the PATH records of names the call looked up before it.\n");
}
