/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The calibration run: what one visited exit-rule entry costs on this
 * machine, measured by timing getpid(2) with 0..N exit rules that cannot
 * match it. The result and its file are calibration.h's.
 */
#ifndef __CALIBRATE_H
#define __CALIBRATE_H

#include <stdbool.h>
#include "model/calibration.h"

/*
 * Carried by every rule calibrate_run_on_cpu() adds but the one keyless
 * never rule it times a match with, so a leftover is recognisable.
 */
#define CALIBRATION_KEY "auditskip-calibrate"

/*
 * Saves the whole rule list (raw AUDIT_LIST_RULES records), removes it, times
 * getpid in freshly forked children (pinned to `cpu`, -1: the CPU the caller
 * runs on; SCHED_FIFO where allowed) at 0, 1 and max_rules/4 steps of
 * non-matching exit rules on openat, in 5 passes keeping each point's lowest
 * pass median, prices an evaluation of each field kind (calibration.h's
 * enum eval_kind) with rules naming getpid, times the call that walks an
 * empty exit list where fentry works (calltime.h) and what the best attach
 * mode's counting programs add to a getpid, then puts the saved list back
 * in its order and verifies it
 * record by record. Enables audit for the run if it was off and restores the
 * flag. Refuses to start when the list cannot be saved (audit locked:
 * enabled 2). SIGINT, SIGTERM, SIGHUP and SIGQUIT are held until the rules
 * are back. 0 or a negative errno; every failure is printed.
 */
int calibrate_run_on_cpu(int max_rules, int cpu, bool verbose, struct calibration *out);

#endif /* __CALIBRATE_H */
