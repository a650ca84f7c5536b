// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the web configuration reader (--web.config.file):
 * any bytes must give either a configuration or an error with a message,
 * never a crash, a leak or undefined behaviour.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include "http/webconfig.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct web_config wc;
	char why[256] = "";
	int err = webconfig_parse((const char *)data, size, &wc, why, sizeof(why));

	if (err && !why[0])
		abort();
	if (!err)
		webconfig_free(&wc);
	return 0;
}
