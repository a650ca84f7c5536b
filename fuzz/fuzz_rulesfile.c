// SPDX-License-Identifier: GPL-2.0
/*
 * A rules file in auditctl's syntax (`rules --file`): any bytes are read as
 * one, into the rules the kernel would list.
 */
#include <stddef.h>
#include <stdint.h>
#include "audit/rules_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rules_file_error err;
	struct ruleset rs;

	/* Freed whether or not it read, as `rules --file` does. */
	(void)rules_text_read((const char *)data, size, "fuzz", &rs, &err);
	ruleset_free(&rs);
	return 0;
}
