/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel's audit rules, as AUDIT_LIST_RULES reports them. */
#ifndef __RULES_H
#define __RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/audit.h>
#include "audit/mask.h"

/* One field as the kernel lists it: a string field's value is its length. */
struct rule_field {
	__u32 type; /* AUDIT_UID, AUDIT_WATCH, ... */
	__u32 op;   /* AUDIT_EQUAL, ... */
	__u32 value;
};

/* The string fields' text, in field order, as AUDIT_LIST_RULES packs it. */
#define RULE_STRINGS_MAX 1024

struct audit_rule {
	unsigned int list;   /* AUDIT_FILTER_* */
	unsigned int action; /* AUDIT_ALWAYS or AUDIT_NEVER */
	syscall_mask mask;
	/*
	 * The listing reports watch and inode rules under the exit list's
	 * number, but audit_find_rule() keeps them on audit_inode_hash[],
	 * which the exit walk never visits.
	 */
	bool inode_hash;
	__u32 arch_elf;		  /* an arch= field's AUDIT_ARCH_*, 0: every arch */
	unsigned int perm;	  /* a perm= field's AUDIT_PERM_* bits, 0: none (or perm!=) */
	bool drops_config_change; /* an exclude rule that can drop AUDIT_CONFIG_CHANGE records */
	char key[AUDIT_MAX_KEY_LEN + 1];
	/*
	 * The rest is allocated to size (rule_free()): a rule set of 10,000
	 * rules, listed again at every change, is kept twice during a listing.
	 */
	char *text; /* as auditctl -l lists it (rule_listing()) */
	unsigned int field_count;
	struct rule_field *fields;
	char *strings; /* truncated past RULE_STRINGS_MAX */
	unsigned int strings_len;
	/* Where a rule read from a file came from ("30-stig.rules:18"), else "". */
	char *origin;
	/*
	 * Read from a file: why it would not load here (a directory it names
	 * is missing, or auditctl here knows no syscall it names), NULL: it
	 * would load. Kept for the analysis; a file written for auditctl
	 * leaves it out.
	 */
	char *refused_here;
};

/* What a rules file sets besides rules, for a file written from it to keep. */
struct ruleset_settings {
	/* -b, -f, -r, --backlog_wait_time, --loginuid-immutable, in file order. */
	char **lines;
	size_t n;
	bool ignore_errors;   /* -i */
	bool continue_errors; /* -c */
	bool has_enable;      /* an -e line was read */
	int enable;	      /* the last -e: 0, 1 or 2 */
};

struct ruleset {
	struct audit_rule *rules;
	size_t n;
	/*
	 * Read from a file (rulesfile.h): the files in the order read, and the
	 * lines that are not rules or that auditctl warns about, "FILE:LINE: ...".
	 */
	char **sources;
	size_t nsources;
	char **notes;
	size_t nnotes;
	/* The last -e of the file was -e 0: loaded, it leaves audit off and nothing walks. */
	bool disables_audit;
	struct ruleset_settings settings;
};

/*
 * Fills `r` from one AUDIT_LIST_RULES record; returns 0, -EINVAL or -ENOMEM.
 * On 0 the rule owns memory that rule_free() releases (a ruleset's rules
 * are released by ruleset_free()).
 */
int rule_from_data(struct audit_rule *r, const struct audit_rule_data *d, size_t len);
void rule_free(struct audit_rule *r);
/* Sets where a rule read from a file came from; 0 or -ENOMEM. */
int rule_set_origin(struct audit_rule *r, const char *file, unsigned int line);
/* A string field's value (NUL-terminated into buf), the i-th field of r. */
const char *rule_field_string(const struct audit_rule *r, unsigned int i, char *buf, size_t size);
/* Whether the kernel stores field `type` as a string (audit_data_to_entry()). */
bool rule_field_is_string(unsigned int type);
/* A uid or gid field (the kernel keeps it as a kuid_t or kgid_t). */
bool rule_field_is_id(unsigned int type);
/* On audit_filter_list[list] (AUDIT_FILTER_EXIT: what audit_filter_syscall() walks). */
bool rule_on_list(const struct audit_rule *r, unsigned int list);

/* Lists the kernel's rules over netlink; 0 or a negative errno. */
int ruleset_load(struct ruleset *rs);
void ruleset_free(struct ruleset *rs);
size_t ruleset_rules_on(const struct ruleset *rs, unsigned int list);
/* OR of the masks of the rules on `list`, leaving out rule `skip` (-1: none). */
void ruleset_mask(const struct ruleset *rs, unsigned int list, long skip, syscall_mask out);
/* An exclude rule can hide rule changes from the loader (no record is logged). */
bool ruleset_may_drop_config_change(const struct ruleset *rs);
/* The rules audit_add_rule() counts in audit_n_rules. */
size_t ruleset_counted_rules(const struct ruleset *rs);

/*
 * The rule set's identity: 16 hex digits of FNV-1a over its rules as the
 * kernel lists them, in order, so hosts that load the same rules share it
 * (the `ruleset` label of auditskip_rules_info, and `rules` prints it).
 */
#define RULESET_ID_LEN 17
void ruleset_id(const struct ruleset *rs, char id[RULESET_ID_LEN]);

/* The exit list, which most callers mean. */
static inline bool rule_on_exit_list(const struct audit_rule *r)
{
	return rule_on_list(r, AUDIT_FILTER_EXIT);
}

/* An exit-list rule with every syscall bit: while one is loaded the skip never fires. */
static inline bool rule_sets_every_bit(const struct audit_rule *r)
{
	return rule_on_exit_list(r) && mask_is_full(r->mask);
}

/*
 * The mask mirror's rules and masks as the loader keeps them (exit and
 * io_uring lists); its source, tags and write counts are the caller's.
 */
void ruleset_mirror(const struct ruleset *rs, struct mask_mirror *m);

static inline size_t ruleset_exit_rules(const struct ruleset *rs)
{
	return ruleset_rules_on(rs, AUDIT_FILTER_EXIT);
}

static inline void ruleset_exit_mask(const struct ruleset *rs, long skip, syscall_mask out)
{
	ruleset_mask(rs, AUDIT_FILTER_EXIT, skip, out);
}

#endif /* __RULES_H */
