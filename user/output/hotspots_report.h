/* SPDX-License-Identifier: GPL-2.0 */
/* `auditskip hotspots`' report: a table per syscall, or one JSON object. */
#ifndef __HOTSPOTS_REPORT_H
#define __HOTSPOTS_REPORT_H

#include <stdio.h>
#include "model/hotspots.h"

/* The `top` syscalls of the largest exit path time (0: all), and the sum of all. */
void hotspots_print_text(FILE *out, const struct hotspots_run *r, int top);
void hotspots_print_json(FILE *out, const struct hotspots_run *r, int top);

#endif /* __HOTSPOTS_REPORT_H */
