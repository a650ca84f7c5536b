// SPDX-License-Identifier: GPL-2.0
/*
 * The calibration file (--calibration FILE, /var/lib/auditskip/): any bytes
 * are read as one, and a file that is accepted is used as the time model,
 * whose prices must then be finite (a NaN would be printed into the JSON).
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include "model/calibration.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct calibration c;

	if (calibration_parse((const char *)data, size, &c))
		return 0;
	/* What the report does with an accepted model. */
	for (double entries = 0; entries <= 1e6; entries = entries ? entries * 4 : 1)
		if (!isfinite(calibration_walk_ns(&c, entries)))
			abort();
	return 0;
}
