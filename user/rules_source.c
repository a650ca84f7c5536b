// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "rules_source.h"

int rules_source_read(const char *path, struct ruleset *rs, char *why, size_t why_size)
{
	int err;

	if (!strcmp(path, "-")) {
		err = ruleset_load(rs);
		if (err)
			snprintf(why, why_size, "cannot list the audit rules loaded now: %s",
				 strerror(-err));
		return err;
	}
	snprintf(why, why_size,
		 "%s: reading rules files is not built in yet: load it and use --rules -", path);
	return -EOPNOTSUPP;
}
