/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What audit logs of its own configuration (AUDIT_CONFIG_CHANGE records on
 * the log multicast group): which records mean the rules may have changed,
 * and which ones were lost on the way.
 */
#ifndef __CONFIG_CHANGE_H
#define __CONFIG_CHANGE_H

#include <stdbool.h>
#include <stddef.h>

enum config_change_kind {
	CONFIG_CHANGE_NONE, /* nothing the loader keeps: a refused change, tty or seccomp logging */
	CONFIG_CHANGE_STATUS,	 /* one of audit's settings: read the status again */
	CONFIG_CHANGE_RULES,	 /* the rules may have changed: list them */
	CONFIG_CHANGE_AUDIT_OFF, /* audit was turned off: changes go unlogged until it is on */
};

/* What the text of one record (not NUL-terminated, `len` bytes) tells. */
enum config_change_kind config_change_classify(const char *text, size_t len);

/* What the records read so far told, added up until the caller clears it. */
struct config_changes {
	unsigned long long records; /* AUDIT_CONFIG_CHANGE records read */
	bool rules;		    /* one of them may have changed the rules */
	bool status;		    /* one of them changed audit's settings */
	bool audit_off;		    /* one of them turned audit off */
	bool lost; /* records were dropped (ENOBUFS) or cut short: list the rules */
};

/*
 * The records of one datagram from the multicast group, added to `c`
 * (a record that cannot be read counts as a rule change).
 */
void config_change_datagram(const void *data, size_t len, struct config_changes *c);

/*
 * A non-blocking socket on audit's log multicast group that receives only
 * AUDIT_CONFIG_CHANGE records, or a negative errno. `rcvbuf`: its receive
 * buffer in bytes, 0 for the default.
 */
int config_change_open(int rcvbuf);
/* Reads everything queued on `fd` into `c`. */
void config_change_drain(int fd, struct config_changes *c);

#endif /* __CONFIG_CHANGE_H */
