// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include "audit/loadable_file.h"
#include "audit/rule_text.h"

void loadable_file_begin(FILE *out, const struct ruleset *rs)
{
	const struct ruleset_settings *s = &rs->settings;

	fprintf(out, "-D\n");
	if (s->continue_errors)
		fprintf(out, "-c\n");
	else if (s->ignore_errors)
		fprintf(out, "-i\n");
	for (size_t i = 0; i < s->n; i++)
		fprintf(out, "%s\n", s->lines[i]);
	if (rs->nnotes)
		fprintf(out,
			"## What reading the rules noted (the settings read are kept here):\n");
	for (size_t i = 0; i < rs->nnotes; i++)
		fprintf(out, "##   %s\n", rs->notes[i]);
}

int loadable_file_rule(FILE *out, const struct audit_rule *r, __u32 add_arch, const __u32 *mask,
		       char *line)
{
	int err = rule_to_rules_file(r, add_arch, mask, line);

	if (err)
		return err;
	if (r->refused_here)
		fprintf(out,
			"## left out: it would not load here (%s), and auditctl -R would stop there\n"
			"# %s\n",
			r->refused_here, line);
	else
		fprintf(out, "%s\n", line);
	return 0;
}

void loadable_file_end(FILE *out, const struct ruleset *rs)
{
	if (rs->settings.has_enable)
		fprintf(out, "-e %d\n", rs->settings.enable);
}
