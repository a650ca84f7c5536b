/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the parts of the rules-file reader share (rules_file.h is the
 * interface): the line being read, the rule being built from it and the
 * helpers that report on it. auditctl_parse.c turns a line's options into a
 * rule as auditctl does, kernel_list.c keeps the rules as the kernel keeps
 * and lists them, augenrules_order.c orders a rules.d directory as
 * augenrules does, and rules_reader.c reads the lines and drives the rest.
 */
#ifndef __RULES_FILE_INTERNAL_H
#define __RULES_FILE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <libaudit.h>
#include "audit/control_bytes.h"
#include "audit/kernel_rule.h"
#include "audit/rules_file.h"

/*
 * libaudit's rule-building state, which audit_rule_fieldpair_data() and
 * audit_rule_syscallbyname_data() read and write (lib/private.h); auditctl
 * resets it before each line.
 */
extern int _audit_permadded;
extern int _audit_archadded;
extern int _audit_syscalladded;
extern int _audit_exeadded;
extern int _audit_filterfsadded;
extern unsigned int _audit_elf;

/* The filter list is not set yet (libaudit.h's AUDIT_FILTER_UNSET). */
#define LIST_UNSET AUDIT_FILTER_UNSET

/* What fgets() did to a line, for the messages (line_damage.c). */
enum line_damage {
	LINE_CUT = 1 << 0,	 /* longer than auditctl's buffer: the rest is the next line */
	LINE_CONTINUED = 1 << 1, /* the rest of a cut line */
	LINE_NUL = 1 << 2,	 /* a NUL byte ended it early */
};

/* One line of a rules file, and where it was read. */
struct source_line {
	char *text;
	const char *file;
	unsigned int line;
	unsigned int damage; /* enum line_damage */
};

/* One reading: the rule set it fills, and auditctl's state from line to line. */
struct reader {
	struct ruleset *rs;
	struct rules_file_error *err;
	struct kernel_classes classes;
	size_t rules_cap;
	bool ignore_errors;   /* -i seen: auditctl goes on after an error */
	bool continue_errors; /* -c seen: it goes on, and fails at the end */
	bool failed_on;	      /* an error was passed over under -c */
	bool locked;	      /* -e 2 seen: the kernel refuses rule changes */
	/* The line being read. */
	const struct source_line *at;
	char msg[512];
	unsigned int lines_read; /* lines with a word that is not a comment */
	bool crlf_noted;	 /* one note for a file of CRLF lines */
};

/* One line's rule being built, auditctl's per-line globals. */
struct line_state {
	struct audit_rule_data *rule;
	int add, del, action;
	bool exclude;
	int multiple;
	char key[AUDIT_MAX_KEY_LEN + 1];
	bool listed; /* the last of -s, -l, -v, -m, -t, -q was -l: the key is not added */
	bool delete_all;
	char delete_key[AUDIT_MAX_KEY_LEN + 1];
	/* the first -S name this machine's auditctl does not know: it refuses the line */
	char unknown_here[32];
};

/* Lines in the order they are read. */
struct line_list {
	struct source_line *v;
	size_t n, cap;
};

/* rules_reader.c: appends a copy of s to the list v of n strings. */
int string_list_add(char ***v, size_t *n, const char *s);
/* A note on the line being read (a warning, a setting not applied). */
void line_note(struct reader *rd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The reason a line fails, auditctl's words; the caller decides whether reading stops. */
int line_error(struct reader *rd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Appends a copy of text[0..len) as a line of file. */
int push_line(struct line_list *l, const char *text, size_t len, const char *file,
	      unsigned int line);
void free_lines(struct line_list *l);
/* Appends a copy of the line `from`, its place and damage kept. */
int copy_line(struct line_list *l, const struct source_line *from);

/* line_damage.c: why a line may have failed that its words do not show (CRLF, BOM, NUL, length); ""
 * if none. */
const char *line_damage_hint(const struct source_line *sl);

/*
 * auditctl_parse.c: auditctl's setopt() for one line: 1 a rule to send, 0
 * nothing to send, -EINVAL with rd->msg, or another negative errno.
 */
int auditctl_parse_line(struct reader *rd, struct line_state *ls, int argc, char **argv);

/* kernel_list.c: the line's rule sent, as auditctl's handle_request() sends it. */
int kernel_list_send(struct reader *rd, struct line_state *ls);
/* -D [-k KEY]: the rules read so far deleted, those whose key holds KEY if one is given. */
void kernel_list_delete_all(struct reader *rd, const char *key);

/* augenrules_order.c: whether augenrules reads a file of this name in rules.d. */
bool augenrules_takes_name(const char *name);
/* qsort()'s comparison of two names (char *) in ls -v's order. */
int augenrules_name_compare(const void *pa, const void *pb);
/* The lines in the order augenrules writes them into audit.rules. */
int augenrules_order(const struct line_list *in, struct line_list *out);

#endif /* __RULES_FILE_INTERNAL_H */
