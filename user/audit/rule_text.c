// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <libaudit.h>
#include "audit/rule_text.h"

struct line {
	char *buf;
	size_t size, len;
	bool overflow;
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

/* Unsigned values: written as auditctl -l shows them (4294967295 is an unset id). */
static bool field_is_unsigned(unsigned int field)
{
	return rule_field_is_id(field) || field == AUDIT_INODE ||
	       (field >= AUDIT_ARG0 && field <= AUDIT_ARG3);
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

static void put_arch(struct line *l, const char *op, __u32 elf)
{
	int machine = audit_elf_to_machine(elf);
	const char *name = machine >= 0 ? audit_machine_to_name(machine) : NULL;

	if (name)
		put(l, " -F arch%s%s", op, name);
	else
		put(l, " -F arch%s0x%x", op, elf);
}

static void put_syscalls(struct line *l, const struct audit_rule *r, const __u32 *mask, int machine)
{
	unsigned int shown = 0;

	if (mask_is_full(mask) ||
	    (r->list != AUDIT_FILTER_EXIT && r->list != AUDIT_FILTER_URING_EXIT))
		return;
	for (unsigned int nr = 0; nr < MASK_SYSCALL_BITS; nr++) {
		/* io_uring ops have no names in libaudit 3.0.9's tables: numbers. */
		const char *name = r->list == AUDIT_FILTER_EXIT && machine >= 0 ?
					   audit_syscall_to_name(nr, machine) :
					   NULL;

		if (!mask_test(mask, nr))
			continue;
		if (name && audit_name_to_syscall(name, machine) != (int)nr)
			name = NULL;
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

/* Keys are one string in the kernel, joined by AUDIT_KEY_SEPARATOR. */
static int put_keys(struct line *l, const char *s, size_t n)
{
	size_t start = 0;

	for (size_t i = 0; i <= n; i++) {
		if (i < n && s[i] != AUDIT_KEY_SEPARATOR)
			continue;
		if (i == start || has_space(s + start, i - start))
			return -EINVAL;
		put(l, " -k %.*s", (int)(i - start), s + start);
		start = i + 1;
	}
	return 0;
}

/*
 * The rule's arch= fields, add_arch's first when given; *machine is the
 * machine its syscall numbers are named for, -1 when no arch says.
 */
static int put_archs(struct line *l, const struct audit_rule *r, __u32 add_arch, int *machine)
{
	*machine = -1;
	if (add_arch) {
		put_arch(l, "=", add_arch);
		*machine = audit_elf_to_machine(add_arch);
	}
	for (unsigned int i = 0; i < r->field_count; i++) {
		const struct rule_field *f = &r->fields[i];
		const char *op = audit_operator_to_symbol(f->op);

		if (f->type != AUDIT_ARCH)
			continue;
		if (!op)
			return -EINVAL;
		put_arch(l, op, f->value);
		if (f->op == AUDIT_EQUAL)
			*machine = audit_elf_to_machine(f->value);
	}
	return 0;
}

/* A field whose value is the string s of len bytes: the keys, or -F name=value. */
static int put_string_field(struct line *l, unsigned int type, const char *name, const char *op,
			    const char *s, unsigned int len)
{
	if (type == AUDIT_FILTERKEY)
		return put_keys(l, s, len) ? -EINVAL : 0;
	if (!name || !len || has_space(s, len))
		return -EINVAL;
	put(l, " -F %s%s%.*s", name, op, (int)len, s);
	return 0;
}

/* A field whose value is a number (arch= is written before the syscalls). */
static int put_number_field(struct line *l, unsigned int type, const char *name, const char *op,
			    unsigned int v)
{
	switch (type) {
	case AUDIT_ARCH:
		break;
	case AUDIT_PERM:
		put_perm(l, op, v);
		break;
	case AUDIT_FIELD_COMPARE:
		if (v >= sizeof(compare_sides) / sizeof(compare_sides[0]) || !compare_sides[v][0])
			return -EINVAL;
		put(l, " -C %s%s%s", compare_sides[v][0], op, compare_sides[v][1]);
		break;
	case AUDIT_FILETYPE: {
		const char *ftype = audit_ftype_to_name(v);

		if (!ftype)
			return -EINVAL;
		put(l, " -F %s%s%s", name, op, ftype);
		break;
	}
	default:
		if (!name)
			return -EINVAL;
		if (field_is_unsigned(type))
			put(l, " -F %s%s%u", name, op, v);
		else
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

		if (!op)
			return -EINVAL;
		if (rule_field_is_string(f)) {
			const char *s = r->strings + off;

			/* A value past what the rule kept (RULE_STRINGS_MAX) cannot be written. */
			if (off + v > r->strings_len)
				return -EINVAL;
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

int rule_to_auditctl(const struct audit_rule *r, __u32 add_arch, const __u32 *mask, char *buf,
		     size_t size)
{
	const char *action, *list;
	struct line l = { .buf = buf, .size = size };
	int machine;

	if (!size)
		return -EINVAL;
	buf[0] = '\0';
	action = audit_action_to_name(r->action);
	list = audit_flag_to_name(r->list);
	if (!action || !list)
		return -EINVAL;
	put(&l, "-a %s,%s", action, list);
	if (put_archs(&l, r, add_arch, &machine))
		return -EINVAL;
	if (machine < 0)
		machine = audit_detect_machine();
	put_syscalls(&l, r, mask ? mask : r->mask, machine);
	if (put_fields(&l, r))
		return -EINVAL;
	return l.overflow ? -ENOSPC : 0;
}
