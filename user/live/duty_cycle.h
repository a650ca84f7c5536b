/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Attaches and detaches the counting programs as the duty cycle's
 * schedule (model/duty.h) and audit's state say: detached between
 * windows, and while no syscall walks the exit list.
 */
#ifndef __DUTY_CYCLE_H
#define __DUTY_CYCLE_H

#include <stdbool.h>
#include "live/session.h"

/*
 * Moves the schedule on to `now` (a window that ended is closed, the
 * programs detached first). True when a window opens with something to
 * count and no listing ran since the last one closed (a slice of the open
 * window that ended is taken first): the caller lists the
 * rules before duty_cycle_apply() attaches, so that the window starts from
 * them whatever was missed meanwhile.
 */
bool duty_cycle_update(struct session *ss, double now);
/* When the loop must next wake for the duty cycle: a window's edge or slice (0: never). */
double duty_cycle_next_s(const struct session *ss);
/* Attaches or detaches to match; 0, or a negative errno (said on stderr). */
int duty_cycle_apply(struct session *ss);
/* The share counted, the estimates and the loader's own CPU time, for the next report or page. */
void duty_cycle_view(struct session *ss, double now);

#endif /* __DUTY_CYCLE_H */
