/* SPDX-License-Identifier: GPL-2.0 */
/* The staleness verdict, brought up to date at each rule listing. */
#ifndef __STALE_WATCH_H
#define __STALE_WATCH_H

#include "live/session.h"

/* After a listing: audit_n_rules against the rules listed, or the walks seen without one. */
void stale_watch(struct session *ss);

#endif /* __STALE_WATCH_H */
