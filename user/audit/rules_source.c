// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "audit/rules_source.h"
#include "audit/rules_file.h"

int rules_source_read(const char *path, struct ruleset *rs, char *why, size_t why_size)
{
	struct rules_file_error e = { 0 };
	int err;

	if (!strcmp(path, "-")) {
		err = ruleset_load(rs);
		if (err)
			snprintf(why, why_size, "cannot list the audit rules loaded now: %s",
				 strerror(-err));
		return err;
	}
	err = rules_file_read(path, rs, &e);
	if (!err)
		return 0;
	if (!e.file[0] && e.message[0])
		snprintf(why, why_size, "%s", e.message);
	else if (e.line)
		snprintf(why, why_size, "%s:%u: %s", e.file[0] ? e.file : path, e.line, e.message);
	else
		snprintf(why, why_size, "%s: %s", e.file[0] ? e.file : path,
			 e.message[0] ? e.message : strerror(-err));
	return err;
}
