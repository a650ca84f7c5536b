/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the kernel does to an AUDIT_ADD_RULE record before it lists it
 * (kernel/auditfilter.c: audit_to_entry_common(), audit_data_to_entry(),
 * audit_add_rule()), for rules read from a file rather than loaded.
 */
#ifndef __KERNELRULE_H
#define __KERNELRULE_H

#include <stddef.h>
#include <linux/audit.h>
#include "auditskip.h"

/*
 * The classes audit_register_class() fills at boot, built from the kernel
 * table in use (kernel_tables.h): its class lists in its syscall numbers
 * for this machine's arch (even slots) and its compat arch (odd slots).
 */
void kernel_classes_from_tables(struct kernel_classes *kc);

/*
 * 0 if the kernel would take the record, else the negative errno
 * audit_rule_change() returns: the list, the action, each field's operator
 * and value, the shape of watch and tree paths. Whether a path exists on
 * this machine is not checked here.
 */
int kernel_rule_check(const struct audit_rule_data *d, size_t len);

/*
 * The rule as the kernel stores and lists it: AUDIT_FILTER_PREPEND dropped
 * (audit_add_rule() clears it once the rule is placed) and the top
 * AUDIT_SYSCALL_CLASSES mask bits replaced by the classes they select.
 */
void kernel_rule_store(struct audit_rule_data *d, const struct kernel_classes *kc);

#endif /* __KERNELRULE_H */
