/* SPDX-License-Identifier: GPL-2.0 */
/* What a counting run publishes (publish.c): counts and BPF state read, costs, the metrics page. */
#ifndef __PUBLISH_H
#define __PUBLISH_H

#include "live/session.h"

/* The counts (exit list, io_uring list, --timing's histograms) into ss->now: 0 or -errno. */
int publish_read_walks(struct session *ss);
/* What the BPF side logged since the last sync, for the report. */
void publish_read_bpf_state(struct session *ss);
/* --per-rule: each exit rule's cost since the start, and the designs on the walks so far. */
void publish_cost_rules(struct session *ss);
/* The totals so far to the metrics endpoint and the node_exporter textfile. */
void publish_metrics(struct session *ss);

#endif /* __PUBLISH_H */
