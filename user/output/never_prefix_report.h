/* SPDX-License-Identifier: GPL-2.0 */
/* advise --never-prefix's report: text or one JSON object. */
#ifndef __NEVER_PREFIX_REPORT_H
#define __NEVER_PREFIX_REPORT_H

#include <stdbool.h>
#include <stdio.h>
#include "model/never_prefix.h"

/* Where the perm= narrowing's classes come from: advise's key and words. */
struct never_prefix_classes {
	const char *key, *words;
};

/*
 * pp NULL: no profile; price: the prefix priced without one (NULL: not
 * priced), with the calibration file calib_from (NULL: none, the series'
 * slope); output NULL: nothing written.
 */
void never_prefix_report(FILE *out, const struct never_prefix *p,
			 const struct never_prefix_prediction *pp, const char *profile,
			 const struct never_prefix_price *price, const char *calib_from,
			 const struct never_prefix_classes *classes, const char *output, bool json);

#endif /* __NEVER_PREFIX_REPORT_H */
