// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the profile reader (`make fuzz`, `make fuzz-regress`): any bytes must
 * give either a profile or -EINVAL with a message, never a crash, a leak or
 * undefined behaviour.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "model/profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct profile p;
	char why[256] = "";
	int err = profile_parse((const char *)data, size, &p, why, sizeof(why));

	if (err && (err != -EINVAL || !why[0]))
		abort();
	return 0;
}
