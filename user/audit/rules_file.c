// SPDX-License-Identifier: GPL-2.0
/*
 * auditctl -R without the kernel: each line goes through what auditctl
 * 3.0.9 does with it (src/auditctl.c: fileopt(), setopt(),
 * handle_request()), building the rule with libaudit as auditctl does, and
 * then through what the kernel does to the record (kernelrule.h).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <libaudit.h>
#include "audit/kernel_rule.h"
#include "audit/mask.h"
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

/* auditctl reads a line at most this long (LINE_SIZE with its NUL); more is the next line. */
#define LINE_MAX_READ 6143

/* The filter list is not set yet (libaudit.h's AUDIT_FILTER_UNSET). */
#define LIST_UNSET AUDIT_FILTER_UNSET

struct source_line {
	char *text;
	const char *file;
	unsigned int line;
};

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
};

/* One line's rule being built, auditctl's per-line globals. */
struct line_state {
	struct audit_rule_data *rule;
	int add, del, action;
	bool exclude;
	int multiple;
	char key[AUDIT_MAX_KEY_LEN + 1];
	bool delete_all;
	char delete_key[AUDIT_MAX_KEY_LEN + 1];
};

static int add_string(char ***v, size_t *n, const char *s)
{
	char **grown = realloc(*v, (*n + 1) * sizeof(**v));

	if (!grown)
		return -ENOMEM;
	*v = grown;
	grown[*n] = strdup(s);
	if (!grown[*n])
		return -ENOMEM;
	(*n)++;
	return 0;
}

static void note(struct reader *rd, const char *fmt, ...)
{
	char text[700], where[300];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	snprintf(where, sizeof(where), "%s:%u", rd->at->file, rd->at->line);
	{
		char line[1024];

		snprintf(line, sizeof(line), "%s: %s", where, text);
		add_string(&rd->rs->notes, &rd->rs->nnotes, line);
	}
}

/* The reason a line fails, auditctl's words; the caller decides whether reading stops. */
static int line_error(struct reader *rd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(rd->msg, sizeof(rd->msg), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

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
		note(rd, "Warning - relative path notation is not supported");
	if (strchr(arg, '*') || strchr(arg, '?'))
		note(rd, "Warning - wildcard notation is not supported");
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
		audit_rule_syscallbyname_data(&tmp, tok);
	if (memcmp(tmp.mask, ls->rule->mask, sizeof(tmp.mask)))
		note(rd,
		     "WARNING - 32/64 bit syscall mismatch in line %u, you should specify an arch",
		     rd->at->line);
	free(copy);
	_audit_elf = saved;
}

static int parse_syscalls(struct reader *rd, struct line_state *ls, const char *opt)
{
	char *copy, *tok, *save;
	int rc = 0;

	if (!strchr(opt, ',')) {
		rc = audit_rule_syscallbyname_data(ls->rule, opt);
		if (rc == -1)
			return line_error(rd, "Syscall name unknown: %s", opt);
		if (rc == -2)
			return line_error(rd, "Elf type unknown: 0x%x", _audit_elf);
		return 0;
	}
	copy = strdup(opt);
	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		rc = audit_rule_syscallbyname_data(ls->rule, tok);
		if (rc == -1) {
			line_error(rd, "Syscall name unknown: %s", tok);
			break;
		}
		if (rc == -2) {
			line_error(rd, "Elf type unknown: 0x%x", _audit_elf);
			break;
		}
	}
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
		note(rd, "key %s has illegal character", k);
	if (have)
		strcat(ls->key, (char[]){ AUDIT_KEY_SEPARATOR, 0 });
	strcat(ls->key, k);
	return 0;
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
		rc = audit_rule_fieldpair_data(&ls->rule, copy, flags);
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

/* Status settings: checked as auditctl checks them, then only reported. */
static int opt_control(struct reader *rd, int c, const char *arg)
{
	switch (c) {
	case 'e':
		if (!arg || (strcmp(arg, "0") && strcmp(arg, "1") && strcmp(arg, "2")))
			return line_error(rd, "Enable must be 0, 1, or 2 was %s", arg ? arg : "");
		if (!strcmp(arg, "2")) {
			rd->locked = true;
			note(rd, "-e 2: audit configuration locked until reboot (not applied)");
		} else {
			note(rd, "-e %s: audit %s (not applied)", arg,
			     arg[0] == '1' ? "enabled" : "disabled");
		}
		return 0;
	case 'f':
		if (!arg || (strcmp(arg, "0") && strcmp(arg, "1") && strcmp(arg, "2")))
			return line_error(rd, "Failure must be 0, 1, or 2 was %s", arg ? arg : "");
		note(rd, "-f %s: failure mode %s (not applied)", arg,
		     arg[0] == '0' ? "silent" :
		     arg[0] == '1' ? "printk" :
				     "panic");
		return 0;
	case 'r':
		if (!is_number(arg))
			return line_error(rd, "Rate must be a numeric value was %s", arg);
		note(rd, "-r %s: rate limit (not applied)", arg);
		return 0;
	case 'b':
		if (!is_number(arg))
			return line_error(rd, "Backlog must be a numeric value was %s", arg);
		note(rd, "-b %s: backlog limit (not applied)", arg);
		return 0;
	case 1:
		note(rd, "--loginuid-immutable: loginuids unchangeable once set (not applied)");
		return 0;
	case 2:
		if (!is_number(arg))
			return line_error(rd, "Backlog_wait_time must be a numeric value was %s",
					  arg);
		note(rd, "--backlog_wait_time %s (not applied)", arg);
		return 0;
	case 3:
		note(rd, "--reset-lost (not applied)");
		return 0;
	case 4:
		note(rd, "--reset_backlog_wait_time_actual (not applied)");
		return 0;
	case 5:
		if (strcasecmp(arg, "TERM") && strcasecmp(arg, "HUP") && strcasecmp(arg, "USR1") &&
		    strcasecmp(arg, "USR2") && strcasecmp(arg, "CONT"))
			return line_error(rd, "%s is an unsupported signal", arg);
		note(rd, "--signal %s: signal to auditd (not sent)", arg);
		return 0;
	}
	return 0;
}

/*
 * auditctl's setopt() for one line: 1 a rule to send, 0 nothing to send,
 * -EINVAL with rd->msg, or another negative errno.
 */
static int parse_line(struct reader *rd, struct line_state *ls, int argc, char **argv)
{
	int c, err = 0, ret = 0;
	bool listed = false;

	optind = 0;
	opterr = 0;
	while (!err && (c = getopt_long(argc, argv, "hicslDvtC:e:f:r:b:a:A:d:S:F:m:R:w:W:k:p:q:",
					long_opts, NULL)) != -1) {
		int rc;

		switch (c) {
		case 'i':
			rd->ignore_errors = true;
			note(rd, "-i: auditctl ignores errors in the lines after this one");
			break;
		case 'c':
			rd->ignore_errors = rd->continue_errors = true;
			note(rd, "-c: auditctl goes on past errors and fails at the end");
			break;
		case 'e':
		case 'f':
		case 'r':
		case 'b':
		case 1:
		case 2:
		case 3:
		case 4:
		case 5:
			err = opt_control(rd, c, optarg);
			break;
		case 's':
		case 'l':
		case 'v':
		case 'm':
		case 't':
		case 'q':
			/* No rule changes: status, listing, a user message, tree trimming. */
			listed = c == 'l';
			note(rd, "-%c: no rule change (not run)", c);
			break;
		case 'h':
			err = line_error(rd, "-h prints auditctl's usage: not a rule");
			break;
		case 'R':
			err = line_error(rd, "Error - nested rule files not supported");
			break;
		case 'a':
		case 'A':
			if (strstr(optarg, "task") && _audit_syscalladded) {
				err = line_error(rd, "Syscall auditing requested for task list");
				break;
			}
			rc = rule_setup(ls, optarg, &ls->add, &ls->action);
			if (rc == 3)
				err = line_error(
					rd,
					"Multiple rule insert/delete operations are not allowed");
			else if (rc == 2)
				err = line_error(rd, "%s rule - bad keyword %s",
						 c == 'a' ? "Append" : "Add", optarg);
			else if (rc == 1) {
				/* auditctl skips the line, and so does the kernel's listing. */
				note(rd, "Append rule - possible is deprecated: line skipped");
				return 0;
			} else {
				if (c == 'A')
					ls->add |= AUDIT_FILTER_PREPEND;
				ret = 1;
			}
			break;
		case 'd':
			rc = rule_setup(ls, optarg, &ls->del, &ls->action);
			if (rc == 3)
				err = line_error(
					rd,
					"Multiple rule insert/delete operations are not allowed");
			else if (rc == 2)
				err = line_error(rd, "Delete rule - bad keyword %s", optarg);
			else if (rc == 1) {
				note(rd, "Delete rule - possible is deprecated: line skipped");
				return 0;
			} else {
				ret = 1;
			}
			break;
		case 'S':
			err = opt_syscall(rd, ls, optarg);
			break;
		case 'F':
			err = opt_field(rd, ls, optarg, false);
			break;
		case 'C':
			err = opt_field(rd, ls, optarg, true);
			break;
		case 'D':
			if (argc > 4 || argc == 3) {
				err = line_error(rd,
						 "Wrong number of options for Delete all request");
				break;
			}
			if (argc == 4) {
				if (optind >= argc || strcmp(argv[optind], "-k")) {
					err = line_error(rd, "Only the -k option is allowed");
					break;
				}
				snprintf(ls->delete_key, sizeof(ls->delete_key), "%s", argv[3]);
				argc -= 2;
			}
			ls->delete_all = true;
			break;
		case 'w':
		case 'W':
			if (c == 'w' && (ls->add != LIST_UNSET || ls->del != LIST_UNSET)) {
				err = line_error(rd, "watch option can't be given with a syscall");
				break;
			}
			if (c == 'w')
				ls->add = AUDIT_FILTER_EXIT;
			else
				ls->del = AUDIT_FILTER_EXIT;
			ls->action = AUDIT_ALWAYS;
			_audit_syscalladded = 1;
			err = setup_watch(rd, ls, optarg);
			if (!err)
				ret = 1;
			break;
		case 'k':
			if (!(_audit_syscalladded || _audit_permadded || _audit_exeadded ||
			      _audit_filterfsadded) ||
			    (ls->add == LIST_UNSET && ls->del == LIST_UNSET)) {
				err = line_error(
					rd,
					"key option needs a watch or syscall given prior to it");
				break;
			}
			err = add_key(rd, ls, optarg);
			break;
		case 'p':
			if (ls->add == LIST_UNSET && ls->del == LIST_UNSET)
				err = line_error(
					rd, "permission option needs a watch given prior to it");
			else
				err = setup_perms(rd, ls, optarg);
			break;
		default:
			err = line_error(rd, "Option %s on line %u is invalid",
					 optind >= 2 ? argv[optind - 1] : " ", rd->at->line);
			break;
		}
	}
	if (err)
		return err;
	if (optind == 1)
		return line_error(rd, "'%s' is not an option", argv[1]);
	if (optind < argc)
		return line_error(rd, "parameter passed without an option given");
	if (ls->key[0] && !listed) {
		char pair[AUDIT_MAX_KEY_LEN + 8];
		int flags = ls->add != LIST_UNSET ? ls->add & AUDIT_FILTER_MASK :
			    ls->del != LIST_UNSET ? ls->del & AUDIT_FILTER_MASK :
						    0;
		int rc;

		snprintf(pair, sizeof(pair), "key=%s", ls->key);
		rc = audit_rule_fieldpair_data(&ls->rule, pair, flags);
		if (rc) {
			fieldpair_message(rd, rc, pair, AUDIT_FILTERKEY, ls->key);
			return -EINVAL;
		}
	}
	return ret;
}

/* The i-th field's string in a record. */
static const char *data_string(const struct audit_rule_data *d, unsigned int i, size_t *len)
{
	size_t off = 0;

	for (unsigned int j = 0; j < i; j++)
		if (rule_field_is_string(d->fields[j]))
			off += d->values[j];
	*len = d->values[i];
	return d->buf + off;
}

/*
 * Paths the kernel resolves when the rule is added: a tree's directory
 * (audit_add_tree_rule()), a watch's and an exe's parent (audit_add_watch(),
 * audit_alloc_mark()). Missing here, the kernel here refuses the rule; the
 * file may be meant for a machine that has them, so this is a note.
 */
static void check_paths(struct reader *rd, const struct audit_rule_data *d)
{
	for (unsigned int i = 0; i < d->field_count; i++) {
		char path[PATH_MAX + 1], *slash;
		const char *what;
		struct stat st;
		size_t len;
		const char *s;

		if (d->fields[i] != AUDIT_DIR && d->fields[i] != AUDIT_WATCH &&
		    d->fields[i] != AUDIT_EXE)
			continue;
		s = data_string(d, i, &len);
		snprintf(path, sizeof(path), "%.*s", (int)len, s);
		if (d->fields[i] == AUDIT_DIR) {
			what = "directory";
		} else {
			slash = strrchr(path, '/');
			if (!slash)
				continue;
			slash[slash == path] = '\0';
			what = "parent directory";
		}
		if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
			continue;
		note(rd,
		     "the kernel here would refuse this rule (No such file or directory): its %s %s is missing on this machine; the rule is kept for the analysis",
		     what, path);
	}
}

static bool same_rule(const struct audit_rule *a, const struct audit_rule *b)
{
	return a->list == b->list && a->action == b->action && mask_equal(a->mask, b->mask) &&
	       a->field_count == b->field_count &&
	       !memcmp(a->fields, b->fields, a->field_count * sizeof(a->fields[0])) &&
	       a->strings_len == b->strings_len && !memcmp(a->strings, b->strings, a->strings_len);
}

static int grow_rules(struct reader *rd)
{
	struct ruleset *rs = rd->rs;

	if (rs->n == rd->rules_cap) {
		size_t cap = rd->rules_cap ? rd->rules_cap * 2 : 64;
		struct audit_rule *grown = realloc(rs->rules, cap * sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		rs->rules = grown;
		rd->rules_cap = cap;
	}
	return 0;
}

/*
 * The kernel lists rules list by list (audit_list_rules() walks
 * audit_rules_list[] in order), each in the order audit_add_rule() put
 * them: -A at the front of its list, -a at the back.
 */
static int insert_rule(struct reader *rd, const struct audit_rule *r, bool prepend)
{
	struct ruleset *rs = rd->rs;
	size_t at = 0;
	int err = grow_rules(rd);

	if (err)
		return err;
	while (at < rs->n &&
	       (rs->rules[at].list < r->list || (!prepend && rs->rules[at].list == r->list)))
		at++;
	memmove(&rs->rules[at + 1], &rs->rules[at], (rs->n - at) * sizeof(*r));
	rs->rules[at] = *r;
	rs->n++;
	return 0;
}

static void remove_rule(struct ruleset *rs, size_t i)
{
	rule_free(&rs->rules[i]);
	memmove(&rs->rules[i], &rs->rules[i + 1], (rs->n - i - 1) * sizeof(rs->rules[0]));
	rs->n--;
}

/* The keys auditctl -D -k KEY matches: any rule whose key holds KEY (key_match()). */
static void delete_all(struct reader *rd, const char *key)
{
	struct ruleset *rs = rd->rs;
	size_t kept = 0, before = rs->n;

	for (size_t i = 0; i < rs->n; i++) {
		bool match = !key[0];

		for (unsigned int f = 0; !match && f < rs->rules[i].field_count; f++) {
			char buf[AUDIT_MAX_KEY_LEN + 1];

			if (rs->rules[i].fields[f].type == AUDIT_FILTERKEY)
				match = strstr(rule_field_string(&rs->rules[i], f, buf,
								 sizeof(buf)),
					       key) != NULL;
		}
		if (!match)
			rs->rules[kept++] = rs->rules[i];
		else
			rule_free(&rs->rules[i]);
	}
	rs->n = kept;
	if (key[0])
		note(rd, "-D -k %s: %zu rules read so far deleted", key, before - kept);
	else
		note(rd, "-D: %zu rules read so far deleted", before - kept);
}

/*
 * What the kernel does with a rule added or deleted. An added rule goes
 * into the rule set, a deleted one is freed with its copy there; on an
 * error `r` is the caller's to free.
 */
static int apply_rule(struct reader *rd, struct audit_rule *r, bool adding, int list)
{
	for (size_t i = 0; i < rd->rs->n; i++) {
		if (!same_rule(&rd->rs->rules[i], r))
			continue;
		/* audit_compare_rule() also compares flags: -A of a loaded rule is new. */
		if (adding && !(list & AUDIT_FILTER_PREPEND))
			return line_error(rd, "Error sending add rule data request (Rule exists)");
		if (!adding) {
			remove_rule(rd->rs, i);
			rule_free(r);
			return 0;
		}
	}
	if (!adding)
		return line_error(rd, "Error sending delete rule data request (%s)",
				  strerror(ENOENT));
	return insert_rule(rd, r, list & AUDIT_FILTER_PREPEND);
}

/* auditctl's handle_request() for a rule, and what the kernel does with it. */
static int send_rule(struct reader *rd, struct line_state *ls)
{
	bool adding = ls->add != LIST_UNSET;
	int list = adding ? ls->add : ls->del;
	struct audit_rule_data *d;
	struct audit_rule r;
	size_t len;
	int err;

	/* Rules on lists other than task get every syscall when the line names none. */
	if ((list & AUDIT_FILTER_MASK) != AUDIT_FILTER_TASK && _audit_syscalladded != 1)
		audit_rule_syscallbyname_data(ls->rule, "all");
	d = ls->rule;
	d->flags = list;
	d->action = ls->action;
	len = sizeof(*d) + d->buflen;
	if (rd->locked)
		return line_error(rd,
				  "Error sending %s rule data request (Operation not permitted)",
				  adding ? "add" : "delete");
	err = kernel_rule_check(d, len);
	if (err)
		return line_error(rd, "Error sending %s rule data request (%s)",
				  adding ? "add" : "delete", strerror(-err));
	if (adding)
		check_paths(rd, d);
	kernel_rule_store(d, &rd->classes);
	err = rule_from_data(&r, d, len);
	if (err == -ENOMEM)
		return err;
	if (err)
		return line_error(rd, "Error sending %s rule data request (Invalid argument)",
				  adding ? "add" : "delete");
	err = rule_set_origin(&r, rd->at->file, rd->at->line);
	if (!err)
		err = apply_rule(rd, &r, adding, list);
	if (err)
		rule_free(&r);
	return err;
}

/* auditctl's preprocess(): "\ " and "\\" are kept from splitting, then put back. */
static void hide_escapes(char *buf)
{
	bool esc = false;

	for (size_t i = 0; buf[i]; i++) {
		if (buf[i] == '\\' && !esc) {
			esc = true;
			continue;
		}
		if (esc) {
			if (buf[i] == ' ')
				buf[i] = buf[i - 1] = 0x07;
			else if (buf[i] == '\\')
				buf[i] = buf[i - 1] = 0x04;
			esc = false;
		}
	}
}

static void restore_escapes(char *s)
{
	char *out = s;

	while (*s) {
		/* Only the pairs hide_escapes() made: a lone marker byte is kept. */
		if ((*s == 0x07 || *s == 0x04) && s[1] == *s) {
			*out++ = *s == 0x07 ? ' ' : '\\';
			s += 2;
			continue;
		}
		*out++ = *s++;
	}
	*out = '\0';
}

/* 0 on success or a skipped error, else the error that ends reading. */
static int read_line(struct reader *rd, const struct source_line *sl)
{
	struct line_state ls = { .add = LIST_UNSET, .del = LIST_UNSET, .action = -1 };
	char *buf, **argv, *tok;
	int argc = 0, ret;
	size_t i = 0, ntok;

	rd->at = sl;
	rd->msg[0] = '\0';
	while (sl->text[i] == ' ')
		i++;
	if (!sl->text[i])
		return 0;
	buf = strdup(sl->text);
	if (!buf)
		return -ENOMEM;
	hide_escapes(buf);
	ntok = strlen(buf) / 2 + 3;
	argv = calloc(ntok + 1, sizeof(*argv));
	if (!argv) {
		free(buf);
		return -ENOMEM;
	}
	/* audit_strsplit(): split on spaces only. */
	argv[argc++] = "auditctl";
	for (tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
		if (argc == 1 && tok[0] == '#')
			goto done;
		if (argc > 1)
			restore_escapes(tok);
		argv[argc++] = tok;
	}
	if (argc == 1)
		goto done;

	_audit_syscalladded = _audit_permadded = _audit_archadded = 0;
	_audit_exeadded = _audit_filterfsadded = 0;
	_audit_elf = 0;
	ls.rule = audit_rule_create_data();
	if (!ls.rule) {
		ret = -ENOMEM;
		goto out;
	}
	ret = parse_line(rd, &ls, argc, argv);
	if (ret == 0 && ls.delete_all) {
		if (rd->locked)
			ret = line_error(rd, "Error deleting rule (Operation not permitted)");
		else
			delete_all(rd, ls.delete_key);
	} else if (ret == 0 && _audit_syscalladded && ls.add == LIST_UNSET &&
		   ls.del == LIST_UNSET) {
		ret = line_error(rd, "Error - no list specified");
	} else if (ret == 1) {
		ret = send_rule(rd, &ls);
	}
	audit_rule_free_data(ls.rule);
	if (ret == -EINVAL && rd->msg[0]) {
		if (rd->ignore_errors) {
			note(rd, "%s (auditctl goes on: -%c)", rd->msg,
			     rd->continue_errors ? 'c' : 'i');
			rd->failed_on |= rd->continue_errors;
			if (rd->continue_errors && rd->err && !rd->err->message[0]) {
				snprintf(rd->err->file, sizeof(rd->err->file), "%s", sl->file);
				rd->err->line = sl->line;
				snprintf(rd->err->message, sizeof(rd->err->message), "%s", rd->msg);
			}
			ret = 0;
		} else if (rd->err) {
			snprintf(rd->err->file, sizeof(rd->err->file), "%s", sl->file);
			rd->err->line = sl->line;
			snprintf(rd->err->message, sizeof(rd->err->message), "%s", rd->msg);
		}
	}
	goto out;
done:
	ret = 0;
out:
	free(argv);
	free(buf);
	return ret;
}

static int read_lines(struct reader *rd, const struct source_line *lines, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int err = read_line(rd, &lines[i]);

		if (err)
			return err;
	}
	if (rd->failed_on)
		return -EINVAL;
	return 0;
}

struct line_list {
	struct source_line *v;
	size_t n, cap;
};

static int push_line(struct line_list *l, const char *text, size_t len, const char *file,
		     unsigned int line)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 256;
		struct source_line *grown = realloc(l->v, cap * sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		l->v = grown;
		l->cap = cap;
	}
	l->v[l->n].text = strndup(text, len);
	if (!l->v[l->n].text)
		return -ENOMEM;
	l->v[l->n].file = file;
	l->v[l->n].line = line;
	l->n++;
	return 0;
}

static void free_lines(struct line_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].text);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/*
 * The lines fgets() would give auditctl: split at '\n', and a line longer
 * than auditctl's buffer continues as the next one, numbered as such.
 */
static int split_lines(struct line_list *l, const char *text, size_t len, const char *file)
{
	unsigned int line = 1;
	size_t start = 0;

	while (start < len) {
		size_t end = start;
		int err;

		while (end < len && text[end] != '\n' && end - start < LINE_MAX_READ)
			end++;
		/* auditctl stops at a NUL inside a line. */
		err = push_line(l, text + start, strnlen(text + start, end - start), file, line++);
		if (err)
			return err;
		start = end < len && text[end] == '\n' ? end + 1 : end;
	}
	return 0;
}

static int slurp(const char *path, char **text, size_t *len)
{
	FILE *f = fopen(path, "r");
	size_t cap = 0, n = 0;
	char *buf = NULL;

	if (!f)
		return -errno;
	for (;;) {
		if (n == cap) {
			char *grown = realloc(buf, cap ? cap * 2 : 65536);

			if (!grown) {
				free(buf);
				fclose(f);
				return -ENOMEM;
			}
			buf = grown;
			cap = cap ? cap * 2 : 65536;
		}
		size_t got = fread(buf + n, 1, cap - n, f);

		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		int err = -EIO;

		free(buf);
		fclose(f);
		return err;
	}
	fclose(f);
	*text = buf;
	*len = n;
	return 0;
}

static void set_error(struct rules_file_error *err, const char *file, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return;
	snprintf(err->file, sizeof(err->file), "%s", file);
	err->line = 0;
	va_start(ap, fmt);
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
	va_end(ap);
}

static int reader_init(struct reader *rd, struct ruleset *rs, struct rules_file_error *err)
{
	memset(rd, 0, sizeof(*rd));
	memset(rs, 0, sizeof(*rs));
	if (err)
		memset(err, 0, sizeof(*err));
	rd->rs = rs;
	rd->err = err;
	kernel_classes_from_tables(&rd->classes);
	return 0;
}

int rules_text_read(const char *text, size_t len, const char *name, struct ruleset *rs,
		    struct rules_file_error *err)
{
	struct line_list lines = { 0 };
	struct reader rd;
	int ret;

	reader_init(&rd, rs, err);
	ret = add_string(&rs->sources, &rs->nsources, name);
	if (!ret)
		ret = split_lines(&lines, text, len, rs->sources[0]);
	if (!ret)
		ret = read_lines(&rd, lines.v, lines.n);
	free_lines(&lines);
	if (ret == -ENOMEM)
		set_error(err, name, "out of memory");
	return ret;
}

/*
 * GNU ls -v's order (gnulib's filevercmp()), which augenrules lists
 * rules.d with: names compared without their suffixes first, then whole;
 * runs of digits by value, '~' before everything, letters before other
 * characters.
 */
static int version_order(unsigned char c)
{
	if (isdigit(c))
		return 0;
	if (isalpha(c))
		return c;
	if (c == '~')
		return -1;
	return c + 256;
}

static int version_compare(const char *a, size_t alen, const char *b, size_t blen)
{
	size_t i = 0, j = 0;

	while (i < alen || j < blen) {
		int first_diff = 0;

		while ((i < alen && !isdigit((unsigned char)a[i])) ||
		       (j < blen && !isdigit((unsigned char)b[j]))) {
			int ac = i == alen ? 0 : version_order(a[i]);
			int bc = j == blen ? 0 : version_order(b[j]);

			if (ac != bc)
				return ac - bc;
			i++;
			j++;
		}
		while (i < alen && a[i] == '0')
			i++;
		while (j < blen && b[j] == '0')
			j++;
		while (i < alen && j < blen && isdigit((unsigned char)a[i]) &&
		       isdigit((unsigned char)b[j])) {
			if (!first_diff)
				first_diff = a[i] - b[j];
			i++;
			j++;
		}
		if (i < alen && isdigit((unsigned char)a[i]))
			return 1;
		if (j < blen && isdigit((unsigned char)b[j]))
			return -1;
		if (first_diff)
			return first_diff;
	}
	return 0;
}

/* Length without the suffix (\.[A-Za-z~][A-Za-z0-9~]*)*$ that filevercmp() sets aside. */
static size_t without_suffix(const char *s)
{
	size_t len = strlen(s), prefix = len;

	for (size_t i = len; i-- > 0;) {
		if (s[i] == '.' && i + 1 < len &&
		    (isalpha((unsigned char)s[i + 1]) || s[i + 1] == '~')) {
			size_t k = i + 1;

			while (k < prefix && (isalnum((unsigned char)s[k]) || s[k] == '~'))
				k++;
			if (k == prefix) {
				prefix = i;
				continue;
			}
		}
		if (!isalnum((unsigned char)s[i]) && s[i] != '~')
			break;
	}
	return prefix;
}

static int ls_v_compare(const void *pa, const void *pb)
{
	const char *a = *(const char *const *)pa, *b = *(const char *const *)pb;
	size_t ap = without_suffix(a), bp = without_suffix(b);
	int diff = version_compare(a, ap, b, bp);

	if (!diff && (ap != strlen(a) || bp != strlen(b)))
		diff = version_compare(a, strlen(a), b, strlen(b));
	return diff ? diff : strcmp(a, b);
}

/*
 * mawk, Debian's awk, reads augenrules' "^\\s*-e" as "s" repeated, not
 * white space: a line is moved only when the option starts it.
 */
static bool starts_with_option(const char *line, const char *opt)
{
	while (*line == 's')
		line++;
	return !strncmp(line, opt, strlen(opt));
}

static bool is_bare_delete(const char *line)
{
	if (!starts_with_option(line, "-D"))
		return false;
	while (*line == 's')
		line++;
	for (line += 2; *line == 's'; line++)
		;
	return !*line;
}

/*
 * augenrules: the files' lines in ls -v order, empty and comment lines
 * dropped, the last bare -D first, then the last -b and the last -f, the
 * other lines in order, and the last -e at the end.
 */
static int augenrules_order(const struct line_list *in, struct line_list *out)
{
	const struct source_line *del = NULL, *backlog = NULL, *failure = NULL, *enable = NULL;
	struct line_list rest = { 0 };
	int err = 0;

	for (size_t i = 0; i < in->n && !err; i++) {
		const struct source_line *l = &in->v[i];

		if (!l->text[0] || l->text[0] == '#' || (starts_with_option(l->text, "#")))
			continue;
		if (starts_with_option(l->text, "-e"))
			enable = l;
		else if (is_bare_delete(l->text))
			del = l;
		else if (starts_with_option(l->text, "-f"))
			failure = l;
		else if (starts_with_option(l->text, "-b"))
			backlog = l;
		else
			err = push_line(&rest, l->text, strlen(l->text), l->file, l->line);
	}
	const struct source_line *head[] = { del, backlog, failure };

	for (size_t i = 0; i < 3 && !err; i++)
		if (head[i])
			err = push_line(out, head[i]->text, strlen(head[i]->text), head[i]->file,
					head[i]->line);
	for (size_t i = 0; i < rest.n && !err; i++)
		err = push_line(out, rest.v[i].text, strlen(rest.v[i].text), rest.v[i].file,
				rest.v[i].line);
	if (enable && !err)
		err = push_line(out, enable->text, strlen(enable->text), enable->file,
				enable->line);
	free_lines(&rest);
	return err;
}

static bool rules_name(const char *name)
{
	size_t len = strlen(name);

	/* ls without -a leaves out hidden names; augenrules greps "\\.rules$". */
	return name[0] != '.' && len > 6 && !strcmp(name + len - 6, ".rules");
}

static int read_directory(struct reader *rd, const char *dir)
{
	struct line_list raw = { 0 }, ordered = { 0 };
	char **names = NULL;
	size_t n = 0;
	struct dirent *de;
	DIR *d = opendir(dir);
	int err = 0;

	if (!d) {
		err = -errno;
		set_error(rd->err, dir, "cannot read the directory: %s", strerror(-err));
		return err;
	}
	while ((de = readdir(d)) && !err)
		if (rules_name(de->d_name))
			err = add_string(&names, &n, de->d_name);
	closedir(d);
	if (!err)
		qsort(names, n, sizeof(*names), ls_v_compare);
	for (size_t i = 0; i < n && !err; i++) {
		char path[PATH_MAX];
		char *text;
		size_t len;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		err = slurp(path, &text, &len);
		if (err) {
			/* augenrules' cat fails on it and goes on. */
			if (err == -ENOMEM)
				break;
			{
				char line[PATH_MAX + 128];

				snprintf(
					line, sizeof(line),
					"%s: cannot be read (%s): left out, as augenrules leaves it",
					path, strerror(-err));
				add_string(&rd->rs->notes, &rd->rs->nnotes, line);
			}
			err = 0;
			continue;
		}
		err = add_string(&rd->rs->sources, &rd->rs->nsources, path);
		if (!err)
			err = split_lines(&raw, text, len, rd->rs->sources[rd->rs->nsources - 1]);
		free(text);
	}
	if (!err)
		err = augenrules_order(&raw, &ordered);
	if (!err)
		err = read_lines(rd, ordered.v, ordered.n);
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free_lines(&raw);
	free_lines(&ordered);
	return err;
}

int rules_file_read(const char *path, struct ruleset *rs, struct rules_file_error *err)
{
	struct line_list lines = { 0 };
	struct reader rd;
	struct stat st;
	char *text;
	size_t len;
	int ret;

	reader_init(&rd, rs, err);
	if (stat(path, &st)) {
		ret = -errno;
		set_error(err, path, "%s",
			  ret == -ENOENT ? "audit rules file doesn't exist" : strerror(-ret));
		return ret;
	}
	if (S_ISDIR(st.st_mode))
		return read_directory(&rd, path);
	if (!S_ISREG(st.st_mode)) {
		set_error(err, path, "Error - %s is not a regular file", path);
		return -EINVAL;
	}
	ret = slurp(path, &text, &len);
	if (ret) {
		set_error(err, path, "Error opening %s (%s)", path, strerror(-ret));
		return ret;
	}
	ret = add_string(&rs->sources, &rs->nsources, path);
	/* auditctl -R refuses these; the reading goes on, and says so. */
	if (!ret && st.st_uid != 0)
		add_string(&rs->notes, &rs->nnotes,
			   "auditctl -R would refuse this file: it isn't owned by root");
	if (!ret && (st.st_mode & S_IWOTH))
		add_string(&rs->notes, &rs->nnotes,
			   "auditctl -R would refuse this file: it is world writable");
	if (!ret)
		ret = split_lines(&lines, text, len, rs->sources[0]);
	free(text);
	if (!ret)
		ret = read_lines(&rd, lines.v, lines.n);
	free_lines(&lines);
	if (ret == -ENOMEM)
		set_error(err, path, "out of memory");
	return ret;
}
