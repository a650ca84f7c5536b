// SPDX-License-Identifier: GPL-2.0
/*
 * auditctl's option parser without the kernel: a line's options go through
 * what auditctl 3.0.9 does with them (src/auditctl.c: setopt()), building
 * the rule with libaudit as auditctl does and refusing, with auditctl's own
 * messages, what it refuses.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <libaudit.h>
#include "audit/kernel_tables.h"
#include "audit/rules_file_internal.h"

/* audit_number_to_errmsg()'s table (lib/errormsg.h); where: 1 field first, 2 last, 0 none. */
static void fieldpair_message(struct reader *rd, int rc, const char *opt, __u32 field,
			      const char *value)
{
	static const struct {
		int code, where;
		const char *text;
	} msgs[] = {
		{ 1, 2, "-F missing operation for" },
		{ 2, 2, "-F unknown field:" },
		{ 3, 1, "must be before -S" },
		{ 4, 1, "machine type not found" },
		{ 5, 1, "elf mapping not found" },
		{ 6, 1, "requested bit level not supported by machine" },
		{ 7, 1, "can only be used with exit filter list" },
		{ 8, 2, "-F unknown message type -" },
		{ 9, 0, "msgtype field can only be used with exclude or user filter list" },
		{ 10, 0, "Failed upgrading rule" },
		{ 11, 0, "String value too long" },
		{ 12, 0,
		  "Only msgtype, *uid, *gid, pid, and subj* fields can be used with exclude filter" },
		{ 13, 1, "only takes = or != operators" },
		{ 14, 0, "Permission can only contain  'rwxa'" },
		{ 15, 2, "-F unknown errno -" },
		{ 16, 2, "-F unknown file type - " },
		{ 17, 1, "can only be used with exit and entry filter list" },
		{ 19, 0, "Key field needs a watch, syscall or exe path given prior to it" },
		{ 20, 2, "-F missing value after operation for" },
		{ 21, 2, "-F value should be number for" },
		{ 22, 2, "-F missing field name before operator for" },
		{ 24, 2, "-C missing field name before operator for" },
		{ 25, 2, "-C missing value after operation for " },
		{ 26, 2, "-C unknown field:" },
		{ 27, 2, "-C unknown right hand value for comparison with:" },
		{ 28, 2, "Too many fields in rule:" },
		{ 29, 1, "only takes = operator" },
		{ 30, 2, "Field option not supported by kernel:" },
		{ 31, 1, "must be used with exclude, user, or exit filter" },
		{ 32, 0, "filter is missing from rule" },
		{ 33, 2, "-C incompatible comparison" },
		{ 34, 1, "field is not valid for the filter" },
		{ 35, 1, "filter is not supported by the kernel" },
		{ 36, 2, "file system type is unknown for field:" },
		{ 37, 2, "value is too large for field:" },
	};

	/* 38: libaudit said it itself (audit_msg), which a quiet libaudit does not print. */
	if (rc == -38) {
		bool group = field == AUDIT_GID || field == AUDIT_EGID || field == AUDIT_SGID ||
			     field == AUDIT_FSGID || field == AUDIT_OBJ_GID;

		line_error(rd, "Unknown %s: %s", group ? "group" : "user", value);
		return;
	}
	for (size_t i = 0; i < sizeof(msgs) / sizeof(msgs[0]); i++) {
		if (msgs[i].code != -rc)
			continue;
		if (msgs[i].where == 1)
			line_error(rd, "%s %s", opt, msgs[i].text);
		else if (msgs[i].where == 2)
			line_error(rd, "%s %s", msgs[i].text, opt);
		else
			line_error(rd, "%s", msgs[i].text);
		return;
	}
	line_error(rd, "%s: cannot be added to the rule (libaudit error %d)", opt, rc);
}

/* auditctl's audit_rule_setup(): "list,action" in either order. */
static int lookup_list(const char *s, int *list, bool *exclude)
{
	static const struct {
		const char *name;
		int list;
	} lists[] = {
		{ "exit", AUDIT_FILTER_EXIT },	   { "task", AUDIT_FILTER_TASK },
		{ "user", AUDIT_FILTER_USER },	   { "exclude", AUDIT_FILTER_EXCLUDE },
		{ "filesystem", AUDIT_FILTER_FS },
	};

	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		if (!strcmp(s, lists[i].name)) {
			*list = lists[i].list;
			if (lists[i].list == AUDIT_FILTER_EXCLUDE)
				*exclude = true;
			return 0;
		}
	}
	return 2;
}

static int lookup_action(const char *s, int *action)
{
	if (!strcmp(s, "always"))
		*action = AUDIT_ALWAYS;
	else if (!strcmp(s, "never"))
		*action = AUDIT_NEVER;
	else if (!strcmp(s, "possible"))
		return 1;
	else
		return 2;
	return 0;
}

/* 0, 1 deprecated action, 2 bad keyword, 3 a second -a/-A/-d on the line. */
static int rule_setup(struct line_state *ls, const char *opt, int *list, int *action)
{
	char a[64], b[64];
	const char *comma = strchr(opt, ',');
	int rc;

	if (++ls->multiple != 1)
		return 3;
	if (!comma || strchr(comma + 1, ',') || (size_t)(comma - opt) >= sizeof(a) ||
	    strlen(comma + 1) >= sizeof(b))
		return 2;
	snprintf(a, sizeof(a), "%.*s", (int)(comma - opt), opt);
	snprintf(b, sizeof(b), "%s", comma + 1);
	if (lookup_action(a, action) == 2) {
		rc = lookup_list(a, list, &ls->exclude);
		if (rc)
			return rc;
	}
	if (*list == LIST_UNSET) {
		lookup_list(b, list, &ls->exclude);
	} else {
		rc = lookup_action(b, action);
		if (rc)
			return rc;
	}
	if (*list == LIST_UNSET || *action == -1)
		return 2;
	return 0;
}

/* auditctl's check_path() and audit_setup_watch_name(). */
static int setup_watch(struct reader *rd, struct line_state *ls, const char *arg)
{
	char path[PATH_MAX + 1], copy[PATH_MAX + 1];
	size_t len = strlen(arg);
	struct stat st;
	int type = AUDIT_WATCH;

	if (len >= PATH_MAX)
		return line_error(rd, "The path passed for the watch is too big");
	if (arg[0] != '/')
		return line_error(rd, "The path must start with '/'");
	snprintf(copy, sizeof(copy), "%s", arg);
	if (strlen(basename(copy)) > NAME_MAX)
		return line_error(rd, "The base name of the path is too big");
	if (strstr(arg, ".."))
		line_note(rd, "Warning - relative path notation is not supported");
	if (strchr(arg, '*') || strchr(arg, '?'))
		line_note(rd, "Warning - wildcard notation is not supported");
	snprintf(path, sizeof(path), "%s", arg);
	if (len > 2 && path[len - 1] == '/')
		while (len > 1 && path[len - 1] == '/')
			path[--len] = '\0';
	/* As auditctl: a directory that exists here is watched as a tree. */
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		type = AUDIT_DIR;
	if (audit_add_watch_dir(type, &ls->rule, path))
		return line_error(rd, "cannot set up the watch on %s", path);
	return 0;
}

static int setup_perms(struct reader *rd, struct line_state *ls, const char *opt)
{
	unsigned int val = 0;
	size_t len = strlen(opt);

	if (len > 4)
		return line_error(rd, "permission %s is too long", opt);
	for (size_t i = 0; i < len; i++) {
		switch (tolower((unsigned char)opt[i])) {
		case 'r':
			val |= AUDIT_PERM_READ;
			break;
		case 'w':
			val |= AUDIT_PERM_WRITE;
			break;
		case 'x':
			val |= AUDIT_PERM_EXEC;
			break;
		case 'a':
			val |= AUDIT_PERM_ATTR;
			break;
		default:
			return line_error(rd, "Permission %c isn't supported", opt[i]);
		}
	}
	if (audit_update_watch_perms(ls->rule, val))
		return line_error(rd, "Permissions should be preceeded by other fields");
	_audit_permadded = 1;
	return 0;
}

/*
 * A name libaudit does not know, numbered from the kernel tables for the
 * rule's arch (_audit_elf), as an auditctl whose tables are as new would
 * number it. The number, its bit set, and in *in_table whether the kernel
 * table in use has the syscall; or -1: no table knows the name.
 */
static int kernel_table_syscall(struct audit_rule_data *rule, const char *name, bool *in_table)
{
	int machine = audit_elf_to_machine(_audit_elf);
	int nr = machine >= 0 ? kernel_syscall_number_any(name, machine, in_table) : -1;

	if (nr < 0 || nr >= AUDIT_BITMASK_SIZE * 32)
		return -1;
	rule->mask[nr / 32] |= 1U << (nr % 32);
	return nr;
}

/* One name of -S: libaudit's number, else the kernel tables' (auditctl here refuses it). */
static int syscall_by_name(struct reader *rd, struct line_state *ls, const char *name)
{
	int rc = audit_rule_syscallbyname_data(ls->rule, name);
	const char *arch = audit_machine_to_name(audit_elf_to_machine(_audit_elf));
	bool in_table;
	int nr;

	if (rc == -2)
		return line_error(rd, "Elf type unknown: 0x%x", _audit_elf);
	if (rc != -1)
		return 0;
	nr = kernel_table_syscall(ls->rule, name, &in_table);
	if (nr < 0)
		return line_error(rd, "Syscall name unknown: %s", name);
	if (!ls->unknown_here[0])
		snprintf(ls->unknown_here, sizeof(ls->unknown_here), "%s", name);
	if (in_table)
		line_note(
			rd,
			"auditctl here would refuse this line (Syscall name unknown: %s); an auditctl that knows %s loads it as syscall %d of %s (Linux %s's table), as --keep-refused reads it",
			name, name, nr, arch, kernel_tables_version());
	else
		line_note(
			rd,
			"auditctl here would refuse this line (Syscall name unknown: %s); an auditctl that knows %s loads it as syscall %d of %s, as --keep-refused reads it, but Linux %s has no such syscall: that bit never matches",
			name, name, nr, arch, kernel_tables_version());
	return 0;
}

/* auditctl's check_rule_mismatch(): numbers that differ between the 64- and 32-bit tables. */
static void check_mismatch(struct reader *rd, struct line_state *ls, const char *opt)
{
	unsigned int saved = _audit_elf;
	struct audit_rule_data tmp;
	char *copy, *tok, *save;

	switch (_audit_elf) {
	case AUDIT_ARCH_X86_64:
		_audit_elf = AUDIT_ARCH_I386;
		break;
	case AUDIT_ARCH_PPC64:
		_audit_elf = AUDIT_ARCH_PPC;
		break;
	case AUDIT_ARCH_S390X:
		_audit_elf = AUDIT_ARCH_S390;
		break;
	}
	copy = strdup(opt);
	if (!copy) {
		_audit_elf = saved;
		return;
	}
	memset(&tmp, 0, sizeof(tmp));
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		if (audit_rule_syscallbyname_data(&tmp, tok) == -1)
			kernel_table_syscall(&tmp, tok, &(bool){ false });
	if (memcmp(tmp.mask, ls->rule->mask, sizeof(tmp.mask)))
		line_note(
			rd,
			"WARNING - 32/64 bit syscall mismatch in line %u, you should specify an arch",
			rd->at->line);
	free(copy);
	_audit_elf = saved;
}

static int parse_syscalls(struct reader *rd, struct line_state *ls, const char *opt)
{
	char *copy, *tok, *save;
	int rc = 0;

	copy = strdup(opt);
	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save))
		rc = syscall_by_name(rd, ls, tok);
	free(copy);
	return rc ? -EINVAL : 0;
}

static bool list_is(int v, int list)
{
	return v != LIST_UNSET && (v & AUDIT_FILTER_MASK) == list;
}

static int opt_syscall(struct reader *rd, struct line_state *ls, const char *opt)
{
	bool unknown_arch = !_audit_elf;

	if (list_is(ls->add, AUDIT_FILTER_TASK) || list_is(ls->del, AUDIT_FILTER_TASK))
		return line_error(rd, "Error: syscall auditing being added to task list");
	if (list_is(ls->add, AUDIT_FILTER_USER) || list_is(ls->del, AUDIT_FILTER_USER))
		return line_error(rd, "Error: syscall auditing being added to user list");
	if (list_is(ls->add, AUDIT_FILTER_FS) || list_is(ls->del, AUDIT_FILTER_FS))
		return line_error(rd, "Error: syscall auditing being added to filesystem list");
	if (ls->exclude)
		return line_error(rd, "Error: syscall auditing cannot be put on exclude list");
	if (unknown_arch) {
		int machine = audit_detect_machine();

		if (machine < 0)
			return line_error(rd, "Error detecting machine type");
		_audit_elf = audit_machine_to_elf(machine);
		if (!_audit_elf)
			return line_error(rd, "Error looking up elf type %d", machine);
	}
	if (parse_syscalls(rd, ls, opt))
		return -EINVAL;
	_audit_syscalladded = 1;
	if (unknown_arch && ls->add != LIST_UNSET)
		check_mismatch(rd, ls, opt);
	return 0;
}

static int add_key(struct reader *rd, struct line_state *ls, const char *k)
{
	size_t have = strlen(ls->key);

	if (strlen(k) + have + (have > 0) > AUDIT_MAX_KEY_LEN)
		return line_error(rd, "key option exceeds size limit");
	if (strchr(k, AUDIT_KEY_SEPARATOR))
		line_note(rd, "key %s has illegal character", k);
	if (have)
		strcat(ls->key, (char[]){ AUDIT_KEY_SEPARATOR, 0 });
	strcat(ls->key, k);
	return 0;
}

/* libaudit's codes (lib/errormsg.h) of fieldpair_message()'s table. */
enum {
	EAU_OPEQNOTEQ = 13,
	EAU_FIELDTOOMANY = 28,
	EAU_FSTYPEUNKNOWN = 36
};

/*
 * fstype= as libaudit reads it on the filesystem list (audit_name_to_fstype()
 * or a number; = and != only), without the feature check before it.
 */
static int fstype_pair(struct line_state *ls, const char *pair)
{
	const char *v = pair + strlen("fstype");
	struct audit_rule_data *r = ls->rule;
	__u32 op;
	long type;

	if (v[0] == '=') {
		op = AUDIT_EQUAL;
		v++;
	} else if (v[0] == '!' && v[1] == '=') {
		op = AUDIT_NOT_EQUAL;
		v += 2;
	} else {
		return -EAU_OPEQNOTEQ;
	}
	type = isdigit((unsigned char)*v) ? (long)strtoul(v, NULL, 0) : audit_name_to_fstype(v);
	if (type == -1)
		return -EAU_FSTYPEUNKNOWN;
	if (r->field_count >= AUDIT_MAX_FIELDS - 1)
		return -EAU_FIELDTOOMANY;
	r->fields[r->field_count] = AUDIT_FSTYPE;
	r->fieldflags[r->field_count] = op;
	r->values[r->field_count++] = (__u32)type;
	_audit_filterfsadded = 1;
	return 0;
}

/*
 * libaudit refuses exe= and sessionid= unless the running kernel's feature
 * bitmap has them, and any field of the filesystem list unless it has that
 * list, and reads that bitmap only with CAP_AUDIT_CONTROL: run by anyone
 * else, or on a file meant for another machine, the rule would be dropped
 * although every kernel with a table here (5.10 and later) takes it, and
 * the reading would depend on who reads. Such a pair goes through libaudit
 * as a field of the same syntax that needs no feature, and gets its own
 * field number back; fstype= is read here as libaudit reads it.
 */
static int fieldpair_as_kernel_takes(struct line_state *ls, char *pair, int flags)
{
	static const struct {
		const char *name, *stand_in;
		__u32 field, feature;
	} gated[] = {
		{ "exe", "path", AUDIT_EXE, AUDIT_FEATURE_BITMAP_EXECUTABLE_PATH },
		{ "sessionid", "pid", AUDIT_SESSIONID, AUDIT_FEATURE_BITMAP_SESSIONID_FILTER },
	};
	char swapped[PATH_MAX + 64];

	if (flags == AUDIT_FILTER_FS && !(audit_get_features() & AUDIT_FEATURE_BITMAP_FILTER_FS)) {
		if (!strncmp(pair, "fstype", 6) && strchr("=!<>&", pair[6]))
			return fstype_pair(ls, pair);
		/* key= (the only other field the list takes) reads alike on the exit list. */
		return audit_rule_fieldpair_data(&ls->rule, pair, AUDIT_FILTER_EXIT);
	}
	for (size_t i = 0; i < sizeof(gated) / sizeof(gated[0]); i++) {
		size_t len = strlen(gated[i].name);
		int permadded = _audit_permadded, rc;

		if (strncmp(pair, gated[i].name, len) || !strchr("=!<>&", pair[len]) ||
		    flags != AUDIT_FILTER_EXIT || (audit_get_features() & gated[i].feature))
			continue;
		snprintf(swapped, sizeof(swapped), "%s%s", gated[i].stand_in, pair + len);
		rc = audit_rule_fieldpair_data(&ls->rule, swapped, flags);
		_audit_permadded = permadded;
		if (rc == 0)
			ls->rule->fields[ls->rule->field_count - 1] = gated[i].field;
		return rc;
	}
	return audit_rule_fieldpair_data(&ls->rule, pair, flags);
}

static int opt_field(struct reader *rd, struct line_state *ls, char *opt, bool compare)
{
	int flags = LIST_UNSET, rc;
	char copy[PATH_MAX + 64];

	if (ls->add != LIST_UNSET)
		flags = ls->add & AUDIT_FILTER_MASK;
	else if (ls->del != LIST_UNSET)
		flags = ls->del & AUDIT_FILTER_MASK;
	else if (!compare)
		/* auditctl lets arch= through here only before -t, which reads no rule. */
		return line_error(rd, "List must be given before field");
	if (!compare && !strncmp(opt, "key=", 4))
		return add_key(rd, ls, opt + 4);
	snprintf(copy, sizeof(copy), "%s", opt);
	if (compare)
		rc = audit_rule_interfield_comp_data(&ls->rule, copy, flags);
	else
		rc = fieldpair_as_kernel_takes(ls, copy, flags);
	if (rc) {
		const char *value = strpbrk(opt, "=<>&!");

		while (value && *value && strchr("=<>&!", *value))
			value++;
		/* libaudit cut the pair at its operator: the message names the field. */
		fieldpair_message(rd, rc, copy, audit_name_to_field(copy), value ? value : "");
		return -EINVAL;
	}
	if (ls->rule->fields[ls->rule->field_count - 1] == AUDIT_PERM)
		_audit_permadded = 1;
	if (!compare && ls->rule->fields[ls->rule->field_count - 1] == AUDIT_EXE)
		_audit_exeadded = 1;
	return 0;
}

static const struct option long_opts[] = {
	{ "loginuid-immutable", 0, NULL, 1 },
	{ "backlog_wait_time", 1, NULL, 2 },
	{ "reset-lost", 0, NULL, 3 },
	{ "reset_backlog_wait_time_actual", 0, NULL, 4 },
	{ "signal", 1, NULL, 5 },
	{ NULL, 0, NULL, 0 },
};

static bool is_number(const char *s)
{
	return s && isdigit((unsigned char)s[0]);
}

/* A setting kept for a file written from this one (rules_file_write.h); 0 or -ENOMEM. */
static int keep_setting(struct reader *rd, const char *option, const char *arg)
{
	char line[128];
	struct ruleset_settings *s = &rd->rs->settings;

	snprintf(line, sizeof(line), "%s%s%s", option, arg ? " " : "", arg ? arg : "");
	return string_list_add(&s->lines, &s->n, line);
}

/* Status settings: checked as auditctl checks them, then only reported. */
static int opt_control(struct reader *rd, int c, const char *arg)
{
	switch (c) {
	case 'e':
		if (!arg || (strcmp(arg, "0") && strcmp(arg, "1") && strcmp(arg, "2")))
			return line_error(rd, "Enable must be 0, 1, or 2 was %s", arg ? arg : "");
		rd->rs->disables_audit = !strcmp(arg, "0");
		rd->rs->settings.has_enable = true;
		rd->rs->settings.enable = arg[0] - '0';
		if (!strcmp(arg, "2")) {
			rd->locked = true;
			line_note(rd,
				  "-e 2: audit configuration locked until reboot (not applied)");
		} else if (arg[0] == '0') {
			line_note(
				rd,
				"-e 0: audit disabled once these rules are loaded: nothing walks");
		} else {
			line_note(rd, "-e 1: audit enabled (not applied)");
		}
		return 0;
	case 'f':
		if (!arg || (strcmp(arg, "0") && strcmp(arg, "1") && strcmp(arg, "2")))
			return line_error(rd, "Failure must be 0, 1, or 2 was %s", arg ? arg : "");
		line_note(rd, "-f %s: failure mode %s (not applied)", arg,
			  arg[0] == '0' ? "silent" :
			  arg[0] == '1' ? "printk" :
					  "panic");
		return keep_setting(rd, "-f", arg);
	case 'r':
		if (!is_number(arg))
			return line_error(rd, "Rate must be a numeric value was %s", arg);
		line_note(rd, "-r %s: rate limit (not applied)", arg);
		return keep_setting(rd, "-r", arg);
	case 'b':
		if (!is_number(arg))
			return line_error(rd, "Backlog must be a numeric value was %s", arg);
		line_note(rd, "-b %s: backlog limit (not applied)", arg);
		return keep_setting(rd, "-b", arg);
	case 1:
		line_note(rd,
			  "--loginuid-immutable: loginuids unchangeable once set (not applied)");
		return keep_setting(rd, "--loginuid-immutable", NULL);
	case 2:
		if (!is_number(arg))
			return line_error(rd, "Backlog_wait_time must be a numeric value was %s",
					  arg);
		line_note(rd, "--backlog_wait_time %s (not applied)", arg);
		return keep_setting(rd, "--backlog_wait_time", arg);
	case 3:
		line_note(rd, "--reset-lost (not applied)");
		return 0;
	case 4:
		line_note(rd, "--reset_backlog_wait_time_actual (not applied)");
		return 0;
	case 5:
		if (strcasecmp(arg, "TERM") && strcasecmp(arg, "HUP") && strcasecmp(arg, "USR1") &&
		    strcasecmp(arg, "USR2") && strcasecmp(arg, "CONT"))
			return line_error(rd, "%s is an unsupported signal", arg);
		line_note(rd, "--signal %s: signal to auditd (not sent)", arg);
		return 0;
	}
	return 0;
}

/* What an option does to its line, besides an error (negative). */
enum option_result {
	OPTION_READ,	   /* read; the line goes on */
	OPTION_RULE,	   /* the line now has a rule to send */
	OPTION_SKIPS_LINE, /* the whole line is dropped, as auditctl drops it */
};

/* -a and -A: the list and action of a rule to add, -A at its list's front. */
static int opt_add(struct reader *rd, struct line_state *ls, int c, const char *arg)
{
	int rc;

	if (strstr(arg, "task") && _audit_syscalladded)
		return line_error(rd, "Syscall auditing requested for task list");
	rc = rule_setup(ls, arg, &ls->add, &ls->action);
	if (rc == 3)
		return line_error(rd, "Multiple rule insert/delete operations are not allowed");
	if (rc == 2)
		return line_error(rd, "%s rule - bad keyword %s", c == 'a' ? "Append" : "Add", arg);
	if (rc == 1) {
		/* auditctl skips the line, and so does the kernel's listing. */
		line_note(rd, "Append rule - possible is deprecated: line skipped");
		return OPTION_SKIPS_LINE;
	}
	if (c == 'A')
		ls->add |= AUDIT_FILTER_PREPEND;
	return OPTION_RULE;
}

/* -d: the list and action of a rule to delete. */
static int opt_delete(struct reader *rd, struct line_state *ls, const char *arg)
{
	int rc = rule_setup(ls, arg, &ls->del, &ls->action);

	if (rc == 3)
		return line_error(rd, "Multiple rule insert/delete operations are not allowed");
	if (rc == 2)
		return line_error(rd, "Delete rule - bad keyword %s", arg);
	if (rc == 1) {
		line_note(rd, "Delete rule - possible is deprecated: line skipped");
		return OPTION_SKIPS_LINE;
	}
	return OPTION_RULE;
}

/* -D, alone or with -k KEY; the -k and its key are taken off *argc. */
static int opt_delete_all(struct reader *rd, struct line_state *ls, int *argc, char **argv)
{
	if (*argc > 4 || *argc == 3)
		return line_error(rd, "Wrong number of options for Delete all request");
	if (*argc == 4) {
		if (optind >= *argc || strcmp(argv[optind], "-k"))
			return line_error(rd, "Only the -k option is allowed");
		snprintf(ls->delete_key, sizeof(ls->delete_key), "%s", argv[3]);
		*argc -= 2;
	}
	ls->delete_all = true;
	return OPTION_READ;
}

/* -w adds a watch, -W deletes one: a rule on the exit list. */
static int opt_watch(struct reader *rd, struct line_state *ls, int c, const char *arg)
{
	if (c == 'w' && (ls->add != LIST_UNSET || ls->del != LIST_UNSET))
		return line_error(rd, "watch option can't be given with a syscall");
	if (c == 'w')
		ls->add = AUDIT_FILTER_EXIT;
	else
		ls->del = AUDIT_FILTER_EXIT;
	ls->action = AUDIT_ALWAYS;
	_audit_syscalladded = 1;
	if (setup_watch(rd, ls, arg))
		return -EINVAL;
	return OPTION_RULE;
}

static int opt_key(struct reader *rd, struct line_state *ls, const char *arg)
{
	if (!(_audit_syscalladded || _audit_permadded || _audit_exeadded || _audit_filterfsadded) ||
	    (ls->add == LIST_UNSET && ls->del == LIST_UNSET))
		return line_error(rd, "key option needs a watch or syscall given prior to it");
	return add_key(rd, ls, arg);
}

static int opt_perms(struct reader *rd, struct line_state *ls, const char *arg)
{
	if (ls->add == LIST_UNSET && ls->del == LIST_UNSET)
		return line_error(rd, "permission option needs a watch given prior to it");
	return setup_perms(rd, ls, arg);
}

/* Options that change nothing of the rule, or of the reading only. */
static int opt_other(struct reader *rd, struct line_state *ls, int c, char **argv)
{
	switch (c) {
	case 'i':
		rd->ignore_errors = rd->rs->settings.ignore_errors = true;
		line_note(rd, "-i: auditctl ignores errors in the lines after this one");
		return OPTION_READ;
	case 'c':
		rd->ignore_errors = rd->continue_errors = rd->rs->settings.continue_errors = true;
		line_note(rd, "-c: auditctl goes on past errors and fails at the end");
		return OPTION_READ;
	case 's':
	case 'l':
	case 'v':
	case 'm':
	case 't':
	case 'q':
		/* No rule changes: status, listing, a user message, tree trimming. */
		ls->listed = c == 'l';
		line_note(rd, "-%c: no rule change (not run)", c);
		return OPTION_READ;
	case 'h':
		return line_error(rd, "-h prints auditctl's usage: not a rule");
	case 'R':
		return line_error(rd, "Error - nested rule files not supported");
	}
	return line_error(rd, "Option %s on line %u is invalid",
			  optind >= 2 ? argv[optind - 1] : " ", rd->at->line);
}

/* One option of the line, as setopt()'s switch takes it. */
static int parse_option(struct reader *rd, struct line_state *ls, int c, int *argc, char **argv)
{
	switch (c) {
	case 'e':
	case 'f':
	case 'r':
	case 'b':
	case 1:
	case 2:
	case 3:
	case 4:
	case 5:
		return opt_control(rd, c, optarg);
	case 'a':
	case 'A':
		return opt_add(rd, ls, c, optarg);
	case 'd':
		return opt_delete(rd, ls, optarg);
	case 'S':
		return opt_syscall(rd, ls, optarg);
	case 'F':
		return opt_field(rd, ls, optarg, false);
	case 'C':
		return opt_field(rd, ls, optarg, true);
	case 'D':
		return opt_delete_all(rd, ls, argc, argv);
	case 'w':
	case 'W':
		return opt_watch(rd, ls, c, optarg);
	case 'k':
		return opt_key(rd, ls, optarg);
	case 'p':
		return opt_perms(rd, ls, optarg);
	}
	return opt_other(rd, ls, c, argv);
}

/* The line's keys, joined, as the rule's one key field (what auditctl does after its options). */
static int add_key_field(struct reader *rd, struct line_state *ls)
{
	char pair[AUDIT_MAX_KEY_LEN + 8];
	int flags = ls->add != LIST_UNSET ? ls->add & AUDIT_FILTER_MASK :
		    ls->del != LIST_UNSET ? ls->del & AUDIT_FILTER_MASK :
					    0;
	int rc;

	snprintf(pair, sizeof(pair), "key=%s", ls->key);
	rc = fieldpair_as_kernel_takes(ls, pair, flags);
	if (rc) {
		fieldpair_message(rd, rc, pair, AUDIT_FILTERKEY, ls->key);
		return -EINVAL;
	}
	return 0;
}

/*
 * auditctl's setopt() for one line: 1 a rule to send, 0 nothing to send,
 * -EINVAL with rd->msg, or another negative errno.
 */
int auditctl_parse_line(struct reader *rd, struct line_state *ls, int argc, char **argv)
{
	int c, ret = 0;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "hicslDvtC:e:f:r:b:a:A:d:S:F:m:R:w:W:k:p:q:", long_opts,
				NULL)) != -1) {
		int rc = parse_option(rd, ls, c, &argc, argv);

		if (rc < 0)
			return rc;
		if (rc == OPTION_SKIPS_LINE)
			return 0;
		if (rc == OPTION_RULE)
			ret = 1;
	}
	if (optind == 1)
		return line_error(rd, "'%s' is not an option", argv[1]);
	if (optind < argc)
		return line_error(rd, "parameter passed without an option given");
	if (ls->key[0] && !ls->listed && add_key_field(rd, ls))
		return -EINVAL;
	return ret;
}
