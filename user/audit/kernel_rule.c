// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <stdio.h>
#include <sys/socket.h>
#include <libaudit.h>
#include "audit/kernel_rule.h"
#include "audit/mask.h"
#include "audit/ruleset.h"
#include "audit/kernel_tables.h"
#include "audit/syscalls.h"

void kernel_classes_from_tables(struct kernel_classes *kc)
{
	static const struct {
		int class;
		enum kernel_class_list list;
	} tables[] = {
		{ AUDIT_CLASS_DIR_WRITE, KCLASS_DIR_WRITE }, { AUDIT_CLASS_CHATTR, KCLASS_CHATTR },
		{ AUDIT_CLASS_READ, KCLASS_READ },	     { AUDIT_CLASS_WRITE, KCLASS_WRITE },
		{ AUDIT_CLASS_SIGNAL, KCLASS_SIGNAL },
	};
	int native = arch_machine(ARCH_NATIVE), compat = arch_machine(ARCH_COMPAT);

	memset(kc, 0, sizeof(*kc));
	for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++) {
		kernel_class_mask(tables[i].list, native, kc->mask[tables[i].class]);
		/* The _32 class is the next one, in the compat arch's numbers. */
		kernel_class_mask(tables[i].list, compat, kc->mask[tables[i].class + 1]);
	}
	kc->read = 1;
}

/* audit_to_op(): the operators the kernel knows. */
static bool op_known(__u32 op)
{
	switch (op) {
	case AUDIT_EQUAL:
	case AUDIT_NOT_EQUAL:
	case AUDIT_BIT_MASK:
	case AUDIT_BIT_TEST:
	case AUDIT_LESS_THAN:
	case AUDIT_GREATER_THAN:
	case AUDIT_GREATER_THAN_OR_EQUAL:
	case AUDIT_LESS_THAN_OR_EQUAL:
		return true;
	}
	return false;
}

/* audit_field_valid()'s first checks: fields only some lists take, and the one list taking few. */
static bool list_takes_field(unsigned int list, __u32 type)
{
	if (type == AUDIT_MSGTYPE && list != AUDIT_FILTER_EXCLUDE && list != AUDIT_FILTER_USER)
		return false;
	if (type == AUDIT_FSTYPE && list != AUDIT_FILTER_FS)
		return false;
	if (type == AUDIT_PERM && list == AUDIT_FILTER_URING_EXIT)
		return false;
	if (list == AUDIT_FILTER_FS && type != AUDIT_FSTYPE && type != AUDIT_FILTERKEY)
		return false;
	return true;
}

/* The operators each field takes; none for a field the kernel does not know. */
static bool field_takes_op(__u32 type, __u32 op)
{
	bool eq_ne = op == AUDIT_EQUAL || op == AUDIT_NOT_EQUAL;

	switch (type) {
	case AUDIT_ARG0 ... AUDIT_ARG3:
	case AUDIT_PERS:
	case AUDIT_DEVMINOR:
		return true;
	case AUDIT_UID:
	case AUDIT_EUID:
	case AUDIT_SUID:
	case AUDIT_FSUID:
	case AUDIT_LOGINUID:
	case AUDIT_OBJ_UID:
	case AUDIT_GID:
	case AUDIT_EGID:
	case AUDIT_SGID:
	case AUDIT_FSGID:
	case AUDIT_OBJ_GID:
	case AUDIT_PID:
	case AUDIT_MSGTYPE:
	case AUDIT_PPID:
	case AUDIT_DEVMAJOR:
	case AUDIT_EXIT:
	case AUDIT_SUCCESS:
	case AUDIT_INODE:
	case AUDIT_SESSIONID:
	case AUDIT_SUBJ_SEN:
	case AUDIT_SUBJ_CLR:
	case AUDIT_OBJ_LEV_LOW:
	case AUDIT_OBJ_LEV_HIGH:
	case AUDIT_SADDR_FAM:
		return op != AUDIT_BIT_MASK && op != AUDIT_BIT_TEST;
	case AUDIT_SUBJ_USER:
	case AUDIT_SUBJ_ROLE:
	case AUDIT_SUBJ_TYPE:
	case AUDIT_OBJ_USER:
	case AUDIT_OBJ_ROLE:
	case AUDIT_OBJ_TYPE:
	case AUDIT_WATCH:
	case AUDIT_DIR:
	case AUDIT_FILTERKEY:
	case AUDIT_LOGINUID_SET:
	case AUDIT_ARCH:
	case AUDIT_FSTYPE:
	case AUDIT_PERM:
	case AUDIT_FILETYPE:
	case AUDIT_FIELD_COMPARE:
	case AUDIT_EXE:
		return eq_ne;
	}
	return false;
}

/* The values the kernel limits some fields to. */
static bool field_takes_value(__u32 type, __u32 val)
{
	switch (type) {
	case AUDIT_LOGINUID_SET:
		return val <= 1;
	case AUDIT_PERM:
		return !(val & ~15U);
	case AUDIT_FILETYPE:
		return !(val & ~0170000U); /* S_IFMT */
	case AUDIT_FIELD_COMPARE:
		return val <= AUDIT_MAX_FIELD_COMPARE;
	case AUDIT_SADDR_FAM:
		return val < AF_MAX;
	}
	return true;
}

/* audit_field_valid(): which operators and values each field takes on each list. */
static int field_valid(unsigned int list, __u32 type, __u32 op, __u32 val)
{
	if (!list_takes_field(list, type) || !field_takes_op(type, op) ||
	    !field_takes_value(type, val))
		return -EINVAL;
	return 0;
}

/* audit_rule_change()'s checks of the record itself: its list and action. */
static bool list_and_action_valid(unsigned int list, __u32 action)
{
	switch (list) {
	case AUDIT_FILTER_EXIT:
	case AUDIT_FILTER_URING_EXIT:
	case AUDIT_FILTER_TASK:
	case AUDIT_FILTER_USER:
	case AUDIT_FILTER_EXCLUDE:
	case AUDIT_FILTER_FS:
		break;
	default: /* AUDIT_FILTER_ENTRY is deprecated */
		return false;
	}
	return action == AUDIT_NEVER || action == AUDIT_ALWAYS;
}

/* The fields a rule may have once only, or not beside each other. */
struct fields_seen {
	bool watch, tree, inode, key, exe;
};

/* A field, whose string (if any) starts at off in the buffer, against the fields before it. */
static int field_fits_rule(const struct audit_rule_data *d, unsigned int list, __u32 type, __u32 op,
			   __u32 val, size_t off, struct fields_seen *seen)
{
	bool exit_list = list == AUDIT_FILTER_EXIT || list == AUDIT_FILTER_URING_EXIT;
	bool path_seen = seen->inode || seen->watch || seen->tree;

	switch (type) {
	case AUDIT_WATCH: /* audit_to_watch() */
		if (d->buf[off] != '/' || d->buf[off + val - 1] == '/' || !exit_list ||
		    op != AUDIT_EQUAL || path_seen)
			return -EINVAL;
		seen->watch = true;
		break;
	case AUDIT_DIR: /* audit_make_tree() */
		if (d->buf[off] != '/' || !exit_list || op != AUDIT_EQUAL || path_seen)
			return -EINVAL;
		seen->tree = true;
		break;
	case AUDIT_INODE: /* audit_to_inode() */
		if (list != AUDIT_FILTER_EXIT || path_seen)
			return -EINVAL;
		seen->inode = op == AUDIT_EQUAL;
		break;
	case AUDIT_FILTERKEY:
		if (seen->key || val > AUDIT_MAX_KEY_LEN)
			return -EINVAL;
		seen->key = true;
		break;
	case AUDIT_EXE:
		if (seen->exe || d->buf[off] != '/' || d->buf[off + val - 1] == '/')
			return -EINVAL;
		seen->exe = true;
		break;
	}
	return 0;
}

int kernel_rule_check(const struct audit_rule_data *d, size_t len)
{
	unsigned int list = d->flags & ~AUDIT_FILTER_PREPEND;
	struct fields_seen seen = { 0 };
	size_t remain = len - sizeof(*d), off = 0;

	if (!list_and_action_valid(list, d->action))
		return -EINVAL;
	if (d->field_count > AUDIT_MAX_FIELDS)
		return -EINVAL;

	for (unsigned int i = 0; i < d->field_count; i++) {
		__u32 type = d->fields[i], op = d->fieldflags[i], val = d->values[i];
		int err;

		if (!op_known(op))
			return -EINVAL;
		/* audit_data_to_entry(): auid=unset is the legacy spelling of loginuid_set=0. */
		if (type == AUDIT_LOGINUID && val == AUDIT_UID_UNSET) {
			type = AUDIT_LOGINUID_SET;
			val = 0;
		}
		err = field_valid(list, type, op, val);
		if (err)
			return err;
		if (rule_field_is_string(type)) {
			/* audit_unpack_string() */
			if (val == 0 || val > remain)
				return -EINVAL;
			if (val > PATH_MAX)
				return -ENAMETOOLONG;
		}
		/* make_kuid() and make_kgid() have no id for (u32)-1. */
		if (rule_field_is_id(type) && val == (__u32)-1)
			return -EINVAL;
		err = field_fits_rule(d, list, type, op, val, off, &seen);
		if (err)
			return err;
		if (rule_field_is_string(type)) {
			off += val;
			remain -= val;
		}
	}
	return 0;
}

void kernel_rule_store(struct audit_rule_data *d, const struct kernel_classes *kc)
{
	d->flags &= ~AUDIT_FILTER_PREPEND;
	for (int i = 0; i < AUDIT_SYSCALL_CLASSES; i++) {
		int bit = MASK_BITS - i - 1;

		if (!(d->mask[bit / 32] & (1U << (bit % 32))))
			continue;
		d->mask[bit / 32] &= ~(1U << (bit % 32));
		/* Classes 10 to 15 are never registered. */
		if (i < AUDIT_CLASSES)
			mask_or(d->mask, kc->mask[i]);
	}
}
