// SPDX-License-Identifier: GPL-2.0
/*
 * A rule in the form `auditctl -l` lists it, which `auditctl -R` (and
 * `auditskip rules --file`) reads back into the same kernel rule. Two
 * departures from auditctl -l, both so that it reads back: a watch is
 * written -F path= or -F dir= (a -w PATH reads back as a file or a tree
 * watch depending on what PATH is on the machine reading it), and
 * filetype= by name (libaudit reads no number there).
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libaudit.h>
#include "audit/control_bytes.h"
#include "audit/rule_text.h"
#include "audit/syscalls.h"

/*
 * strict: for a rules file, where what auditctl cannot read back is an
 * error; otherwise, for reports, it is written as auditctl -l writes it.
 */
struct line {
	char *buf;
	size_t size, len;
	bool overflow, strict;
};

static void put(struct line *l, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (l->overflow)
		return;
	va_start(ap, fmt);
	n = vsnprintf(l->buf + l->len, l->size - l->len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= l->size - l->len)
		l->overflow = true;
	else
		l->len += n;
}

/* Something auditctl would not read back; false when the line must stop here. */
static bool unreadable(const struct line *l)
{
	return !l->strict;
}

static const char *op_symbol(__u32 op)
{
	const char *sym = audit_operator_to_symbol(op);

	return sym ? sym : "?";
}

/* The two sides of -C for each AUDIT_COMPARE_* (audit_rule_interfield_comp_data()). */
static const char *const compare_sides[][2] = {
	[AUDIT_COMPARE_UID_TO_OBJ_UID] = { "uid", "obj_uid" },
	[AUDIT_COMPARE_GID_TO_OBJ_GID] = { "gid", "obj_gid" },
	[AUDIT_COMPARE_EUID_TO_OBJ_UID] = { "euid", "obj_uid" },
	[AUDIT_COMPARE_EGID_TO_OBJ_GID] = { "egid", "obj_gid" },
	[AUDIT_COMPARE_AUID_TO_OBJ_UID] = { "auid", "obj_uid" },
	[AUDIT_COMPARE_SUID_TO_OBJ_UID] = { "suid", "obj_uid" },
	[AUDIT_COMPARE_SGID_TO_OBJ_GID] = { "sgid", "obj_gid" },
	[AUDIT_COMPARE_FSUID_TO_OBJ_UID] = { "fsuid", "obj_uid" },
	[AUDIT_COMPARE_FSGID_TO_OBJ_GID] = { "fsgid", "obj_gid" },
	[AUDIT_COMPARE_UID_TO_AUID] = { "uid", "auid" },
	[AUDIT_COMPARE_UID_TO_EUID] = { "uid", "euid" },
	[AUDIT_COMPARE_UID_TO_FSUID] = { "uid", "fsuid" },
	[AUDIT_COMPARE_UID_TO_SUID] = { "uid", "suid" },
	[AUDIT_COMPARE_AUID_TO_FSUID] = { "auid", "fsuid" },
	[AUDIT_COMPARE_AUID_TO_SUID] = { "auid", "suid" },
	[AUDIT_COMPARE_AUID_TO_EUID] = { "auid", "euid" },
	[AUDIT_COMPARE_EUID_TO_SUID] = { "euid", "suid" },
	[AUDIT_COMPARE_EUID_TO_FSUID] = { "euid", "fsuid" },
	[AUDIT_COMPARE_SUID_TO_FSUID] = { "suid", "fsuid" },
	[AUDIT_COMPARE_GID_TO_EGID] = { "gid", "egid" },
	[AUDIT_COMPARE_GID_TO_FSGID] = { "gid", "fsgid" },
	[AUDIT_COMPARE_GID_TO_SGID] = { "gid", "sgid" },
	[AUDIT_COMPARE_EGID_TO_FSGID] = { "egid", "fsgid" },
	[AUDIT_COMPARE_EGID_TO_SGID] = { "egid", "sgid" },
	[AUDIT_COMPARE_SGID_TO_FSGID] = { "sgid", "fsgid" },
};

/*
 * b64 and b32 as auditctl -l writes them, where they read back to the same
 * arch on this machine; any other arch by its name.
 */
static const char *arch_word(__u32 elf)
{
	int native = arch_machine(ARCH_NATIVE), compat = arch_machine(ARCH_COMPAT);
	__u32 native_elf = native >= 0 ? (__u32)audit_machine_to_elf(native) : 0;
	__u32 compat_elf = compat >= 0 ? (__u32)audit_machine_to_elf(compat) : 0;
	int machine;

	if (elf && elf == native_elf)
		return elf & __AUDIT_ARCH_64BIT ? "b64" : "b32";
	if (elf && elf == compat_elf)
		return "b32";
	machine = audit_elf_to_machine(elf);
	return machine >= 0 ? audit_machine_to_name(machine) : NULL;
}

static void put_arch(struct line *l, const char *op, __u32 elf)
{
	const char *name = arch_word(elf);

	if (name)
		put(l, " -F arch%s%s", op, name);
	else
		put(l, " -F arch%s0x%X", op, elf);
}

/*
 * A bit's name in `machine`'s table, only where libaudit reads the name back
 * to the same number; NULL: write the number (auditctl takes both).
 */
static const char *syscall_word(const struct audit_rule *r, unsigned int nr, int machine)
{
	/* io_uring ops have no names in libaudit 3.0.9's tables. */
	const char *name = r->list == AUDIT_FILTER_EXIT && machine >= 0 ?
				   audit_syscall_to_name(nr, machine) :
				   NULL;

	if (name && audit_name_to_syscall(name, machine) != (int)nr)
		return NULL;
	return name;
}

static void put_syscalls(struct line *l, const struct audit_rule *r, const __u32 *mask, int machine)
{
	unsigned int shown = 0;

	if (r->list != AUDIT_FILTER_EXIT && r->list != AUDIT_FILTER_URING_EXIT)
		return;
	if (mask_is_full(mask)) {
		/* io_uring rules without -S: libaudit 3.0.9 reads no "all" there. */
		if (r->list == AUDIT_FILTER_EXIT)
			put(l, " -S all");
		return;
	}
	/*
	 * An exit rule with no bit (its -S named only classes the kernel
	 * lacks) has no auditctl word; the kernel clears a class bit it has no
	 * class for, and 2032 is the last class it would ever register.
	 */
	if (!mask_count(mask)) {
		put(l, " -S %u", MASK_SYSCALL_BITS);
		return;
	}
	/* Every bit, as auditctl -l: a rule can hold bits the kernel takes for no class. */
	for (unsigned int nr = 0; nr < MASK_BITS; nr++) {
		const char *name;

		if (!mask_test(mask, nr))
			continue;
		name = syscall_word(r, nr, machine);
		put(l, "%s", shown++ ? "," : " -S ");
		if (name)
			put(l, "%s", name);
		else
			put(l, "%u", nr);
	}
}

static void put_perm(struct line *l, const char *op, unsigned int perm)
{
	put(l, " -F perm%s%s%s%s%s", op, perm & AUDIT_PERM_READ ? "r" : "",
	    perm & AUDIT_PERM_WRITE ? "w" : "", perm & AUDIT_PERM_EXEC ? "x" : "",
	    perm & AUDIT_PERM_ATTR ? "a" : "");
}

static bool has_space(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (isspace((unsigned char)s[i]) || !s[i])
			return true;
	return false;
}

/*
 * A string value of n bytes. Reports show control bytes escaped (a key read
 * from a CRLF file ends in \r) and never send them raw to a terminal; a
 * rules file cannot hold them (auditctl reads a line to its end).
 */
static int put_value(struct line *l, const char *s, size_t n)
{
	char raw[PATH_MAX + 1], shown[4 * PATH_MAX + 1];

	for (size_t i = 0; i < n; i++)
		if (iscntrl((unsigned char)s[i]) && !unreadable(l))
			return -EINVAL;
	snprintf(raw, sizeof(raw), "%.*s", (int)n, s);
	escape_controls(shown, sizeof(shown), raw);
	put(l, "%s", shown);
	return 0;
}

/* Keys are one string in the kernel, joined by AUDIT_KEY_SEPARATOR: -F key= each. */
static int put_keys(struct line *l, const char *s, size_t n)
{
	size_t start = 0;

	for (size_t i = 0; i <= n; i++) {
		if (i < n && s[i] != AUDIT_KEY_SEPARATOR)
			continue;
		if ((i == start || has_space(s + start, i - start)) && !unreadable(l))
			return -EINVAL;
		put(l, " -F key=");
		if (put_value(l, s + start, i - start))
			return -EINVAL;
		start = i + 1;
	}
	return 0;
}

/*
 * The rule's arch= fields, add_arch's first when given; *machine is the
 * machine its syscall numbers are named for, as libaudit reads them: the
 * last arch written, -1 when none.
 */
static void put_archs(struct line *l, const struct audit_rule *r, __u32 add_arch, int *machine)
{
	*machine = -1;
	if (add_arch) {
		put_arch(l, "=", add_arch);
		*machine = audit_elf_to_machine(add_arch);
	}
	for (unsigned int i = 0; i < r->field_count; i++) {
		const struct rule_field *f = &r->fields[i];

		if (f->type != AUDIT_ARCH)
			continue;
		put_arch(l, op_symbol(f->op), f->value);
		*machine = audit_elf_to_machine(f->value);
	}
}

/* A field whose value is the string s of len bytes: the keys, or -F name=value. */
static int put_string_field(struct line *l, unsigned int type, const char *name, const char *op,
			    const char *s, unsigned int len)
{
	if (type == AUDIT_FILTERKEY)
		return put_keys(l, s, len);
	if ((!name || !len || has_space(s, len)) && !unreadable(l))
		return -EINVAL;
	put(l, " -F %s%s", name ? name : "?", op);
	return put_value(l, s, len);
}

static int put_compare(struct line *l, const char *op, unsigned int v)
{
	if (v >= sizeof(compare_sides) / sizeof(compare_sides[0]) || !compare_sides[v][0]) {
		if (!unreadable(l))
			return -EINVAL;
		put(l, " -C %u%s?", v, op);
		return 0;
	}
	put(l, " -C %s%s%s", compare_sides[v][0], op, compare_sides[v][1]);
	return 0;
}

/* A field whose value is a number (arch= is written before the syscalls). */
static int put_number_field(struct line *l, unsigned int type, const char *name, const char *op,
			    unsigned int v)
{
	const char *word = NULL;

	if (type == AUDIT_ARCH)
		return 0;
	if (type == AUDIT_PERM) {
		put_perm(l, op, v);
		return 0;
	}
	if (type == AUDIT_FIELD_COMPARE)
		return put_compare(l, op, v);
	if (type == AUDIT_FILETYPE && !(word = audit_ftype_to_name(v)) && !unreadable(l))
		return -EINVAL;
	if (type == AUDIT_MSGTYPE)
		word = audit_msg_type_to_name(v);
	if (!name) {
		/* auditctl -l's form for a field libaudit cannot name. */
		if (!unreadable(l))
			return -EINVAL;
		put(l, " f%u%s%d", type, op, (int)v);
	} else if (word) {
		put(l, " -F %s%s%s", name, op, word);
	} else if (type == AUDIT_INODE) {
		put(l, " -F %s%s%u", name, op, v);
	} else if (type >= AUDIT_ARG0 && type <= AUDIT_ARG3) {
		put(l, " -F %s%s0x%X", name, op, v);
	} else {
		put(l, " -F %s%s%d", name, op, (int)v);
	}
	return 0;
}

/* Every field but arch=, in the rule's order. */
static int put_fields(struct line *l, const struct audit_rule *r)
{
	size_t off = 0;

	for (unsigned int i = 0; i < r->field_count; i++) {
		unsigned int f = r->fields[i].type, v = r->fields[i].value;
		const char *op = audit_operator_to_symbol(r->fields[i].op);
		const char *name = audit_field_to_name(f);
		int err;

		if (!op && !unreadable(l))
			return -EINVAL;
		if (!op)
			op = "?";
		if (rule_field_is_string(f)) {
			const char *s = r->strings + off;

			/* A value past what the rule kept (RULE_STRINGS_MAX) cannot be written
			 * whole. */
			if (off + v > r->strings_len) {
				if (!unreadable(l))
					return -EINVAL;
				v = off < r->strings_len ? r->strings_len - off : 0;
			}
			off += v;
			err = put_string_field(l, f, name, op, s, v);
		} else {
			err = put_number_field(l, f, name, op, v);
		}
		if (err)
			return err;
	}
	return 0;
}

static int render(struct line *l, const struct audit_rule *r, __u32 add_arch, const __u32 *mask)
{
	const char *action = audit_action_to_name(r->action);
	const char *list = audit_flag_to_name(r->list);
	int machine;

	if ((!action || !list) && !unreadable(l))
		return -EINVAL;
	put(l, "-a %s,%s", action ? action : "?", list ? list : "?");
	put_archs(l, r, add_arch, &machine);
	if (machine < 0)
		machine = arch_machine(ARCH_NATIVE);
	put_syscalls(l, r, mask ? mask : r->mask, machine);
	if (put_fields(l, r))
		return -EINVAL;
	return l->overflow ? -ENOSPC : 0;
}

int rule_to_auditctl(const struct audit_rule *r, __u32 add_arch, const __u32 *mask, char *buf,
		     size_t size)
{
	struct line l = { .buf = buf, .size = size, .strict = true };

	if (!size)
		return -EINVAL;
	buf[0] = '\0';
	return render(&l, r, add_arch, mask);
}

int rule_to_rules_file(const struct audit_rule *r, __u32 add_arch, const __u32 *mask, char *buf)
{
	int err = rule_to_auditctl(r, add_arch, mask, buf, RULES_FILE_LINE_MAX);

	if (err)
		fprintf(stderr, "auditskip: cannot write this rule in auditctl syntax (%s): %s\n",
			err == -ENOSPC ?
				"longer than the 6142 characters auditctl -R reads a line" :
				"a value a rules file cannot hold",
			r->text);
	return err;
}

char *rule_listing(const struct audit_rule *r)
{
	size_t size = 1024;

	for (;;) {
		struct line l = { .size = size };

		l.buf = malloc(size);
		if (!l.buf)
			return NULL;
		l.buf[0] = '\0';
		if (render(&l, r, 0, NULL) != -ENOSPC) {
			/* Kept per rule, 10,000 of them in a large set: only its length. */
			char *fit = realloc(l.buf, strlen(l.buf) + 1);

			return fit ? fit : l.buf;
		}
		free(l.buf);
		size *= 2;
	}
}
