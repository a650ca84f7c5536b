// SPDX-License-Identifier: GPL-2.0
/* The designs compared: see designs_report.h. */
#include "output/designs_report.h"
#include "output/json_out.h"

static double per_second(double seconds, double ns)
{
	return seconds > 0 ? ns / seconds : 0;
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
		[DESIGN_PREFIX] = "the never,exit prefix (stock kernel)",
	};

	fprintf(out,
		"\nDesigns compared on these walks (WALKS: walks each spares or cuts short;\n"
		"NS/S: time saved per second of the workload, a COST where negative):\n");
	fprintf(out, "  %-38s %12s %12s  %s\n", "DESIGN", "WALKS", "NS/S", "NEEDS");
	for (int k = 0; k < NR_DESIGNS; k++) {
		const char *why = why_not(d, k);
		double ns = per_second(seconds, d->total_ns[k]);

		fprintf(out, "  %-38s %12llu %12.0f  %s\n", what[k],
			(unsigned long long)d->total_walks[k], ns, design_needs[k]);
		if (why)
			fprintf(out, "  %-38s does not fire: %s\n", "", why);
		else if (ns < 0)
			fprintf(out,
				"  %-38s a cost: it adds more to the walks it does not end\n"
				"  %-38s than it saves on those it ends\n",
				"", "");
	}
	fprintf(out,
		"  records: the series changes none; the 2023 design and the prefix drop the\n"
		"  SYSCALL record of a record logged without a rule during a call they cover.\n");
}
