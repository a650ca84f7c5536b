/* SPDX-License-Identifier: GPL-2.0 */
/* Hears of audit rule changes as they happen (AUDIT_CONFIG_CHANGE records). */
#ifndef __NOTIFY_H
#define __NOTIFY_H

#include <stdbool.h>

/* A non-blocking socket on audit's log multicast group, or a negative errno. */
int config_change_open(void);
/* Reads what is queued; true if a rule change was among it. */
bool config_change_drain(int fd);

#endif /* __NOTIFY_H */
