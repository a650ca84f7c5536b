// SPDX-License-Identifier: GPL-2.0
/* What a walk's evaluations cost: see eval_price.h. */
#include <linux/audit.h>
#include "model/eval_price.h"

enum eval_kind eval_kind_of_field(__u32 type)
{
	switch (type) {
	case AUDIT_ARCH:
		return EVAL_ARCH;
	case AUDIT_LOGINUID:
	case AUDIT_LOGINUID_SET:
	case AUDIT_SESSIONID:
		return EVAL_AUID;
	case AUDIT_GID:
	case AUDIT_EGID:
	case AUDIT_SGID:
	case AUDIT_FSGID:
		return EVAL_GID;
	case AUDIT_PERM:
	case AUDIT_FILETYPE:
		return EVAL_PERM;
	case AUDIT_EXIT:
		return EVAL_EXIT;
	case AUDIT_SUCCESS:
		return EVAL_SUCCESS;
	case AUDIT_DIR:
		return EVAL_DIR;
	case AUDIT_EXE:
		return EVAL_EXE;
	case AUDIT_SUBJ_USER:
	case AUDIT_SUBJ_ROLE:
	case AUDIT_SUBJ_TYPE:
	case AUDIT_SUBJ_SEN:
	case AUDIT_SUBJ_CLR:
	case AUDIT_OBJ_USER:
	case AUDIT_OBJ_ROLE:
	case AUDIT_OBJ_TYPE:
	case AUDIT_OBJ_LEV_LOW:
	case AUDIT_OBJ_LEV_HIGH:
		return EVAL_LSM;
	default: /* uid, pid, a0..a3, field comparisons */
		return EVAL_UID;
	}
}

/* An arch field's outcome for a syscall of `arch_elf`, known offline. */
static bool arch_passes(const struct rule_field *f, __u32 arch_elf)
{
	return f->op == AUDIT_NOT_EQUAL ? f->value != arch_elf : f->value == arch_elf;
}

double eval_price_ns(const struct calibration *c, const struct audit_rule *r, __u32 arch_elf,
		     unsigned int nr, bool *ends)
{
	bool passed = false;
	double ns = 0;

	*ends = false;
	if (!mask_test(r->mask, nr))
		return 0;
	for (unsigned int i = 0; i < r->field_count; i++) {
		const struct rule_field *f = &r->fields[i];

		if (f->type == AUDIT_FILTERKEY)
			continue;
		if (f->type != AUDIT_ARCH || !arch_passes(f, arch_elf))
			return ns + calibration_eval_ns(c, eval_kind_of_field(f->type));
		ns += calibration_arch_pass_ns(c);
		passed = true;
	}
	/* The match kind's price holds one field that passes: the first here. */
	*ends = true;
	return ns - (passed ? calibration_arch_pass_ns(c) : 0) + calibration_eval_ns(c, EVAL_MATCH);
}

double eval_walk_ns(const struct calibration *c, const struct ruleset *rs, __u32 arch_elf,
		    unsigned int nr, size_t *visited)
{
	size_t entries = 0;
	double ns = 0;

	for (size_t i = 0; i < rs->n; i++) {
		bool ends;

		if (!rule_on_exit_list(&rs->rules[i]))
			continue;
		entries++;
		ns += eval_price_ns(c, &rs->rules[i], arch_elf, nr, &ends);
		if (ends)
			break;
	}
	if (visited)
		*visited = entries;
	return ns;
}
