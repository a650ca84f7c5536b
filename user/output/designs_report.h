/* SPDX-License-Identifier: GPL-2.0 */
/* The designs on the same walks (designs.h), as whatif and a counting run print them. */
#ifndef __DESIGNS_REPORT_H
#define __DESIGNS_REPORT_H

#include <stdio.h>
#include <json-c/json.h>
#include "model/designs.h"

/* seconds: of the walks priced, for the rates (0: none given). */
void designs_print(FILE *out, const struct design_savings *d, double seconds);
json_object *designs_json(const struct design_savings *d, double seconds);

#endif /* __DESIGNS_REPORT_H */
