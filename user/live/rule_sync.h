/* SPDX-License-Identifier: GPL-2.0 */
/* A counting run's rule sync (rule_sync.c): status, listing, mirror, what-if masks, staleness. */
#ifndef __RULE_SYNC_H
#define __RULE_SYNC_H

#include "live/config_change.h"
#include "live/session.h"

/* What the change records read tell, but whether to list. */
void rule_sync_hear(struct session *ss, const struct config_changes *c);
/* The mirror map's descriptor. */
int rule_sync_mirror_fd(const struct session *ss);
/* Audit's state for the BPF side, and for when to list (lost records, audit off). */
void rule_sync_read_status(struct session *ss);
/* Lists the rules and applies them (reason `why`); 0 or -errno. */
int rule_sync_list(struct session *ss, enum resync_reason why);
/* Status, rules and what BPF logged: at start, and for the summary. */
int rule_sync_all(struct session *ss);

#endif /* __RULE_SYNC_H */
