/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Audit rules read from a file in auditctl's syntax (what `auditctl -R`
 * loads) or from a rules.d directory in the order augenrules concatenates
 * it, into the rules the kernel would then list: each line is built into the
 * struct audit_rule_data auditctl would send, passed through what
 * audit_rule_change() does to it, and read back with rule_from_data(), the
 * path the kernel's own listing takes. Nothing is loaded.
 */
#ifndef __RULESFILE_H
#define __RULESFILE_H

#include <stddef.h>
#include "audit/ruleset.h"

/* Where reading stopped, with the message auditctl would give. */
struct rules_file_error {
	char file[256];	   /* the file (in a directory: that file's path), "" for none */
	unsigned int line; /* 1-based, 0: not a line's fault */
	char message[512];
};

/*
 * Reads PATH, a rules file or a rules.d directory, into rs (emptied first;
 * free it with ruleset_free()). Returns 0, or a negative errno with err
 * filled (err may be NULL). Control lines (-D, -b, -f, -e, -r,
 * --backlog_wait_time, --loginuid-immutable, ...) change no rule but -D,
 * -d and -W; each is kept in rs->notes, as are auditctl's warnings.
 */
int rules_file_read(const char *path, struct ruleset *rs, struct rules_file_error *err);

/*
 * The rules read that would not load here (refused_here) taken
 * out, as auditctl -R with -i leaves them, and a note saying how many.
 * 0 or -ENOMEM.
 */
int rules_file_leave_out_refused(struct ruleset *rs);

/* The same for a buffer; name is what messages call it (e.g. "stdin"). */
int rules_text_read(const char *text, size_t len, const char *name, struct ruleset *rs,
		    struct rules_file_error *err);

#endif /* __RULESFILE_H */
