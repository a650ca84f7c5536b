/* SPDX-License-Identifier: GPL-2.0 */
/* --kernel VERSION: which kernel's syscall table and classes read rules files. */
#ifndef __CLI_KERNEL_OPTION_H
#define __CLI_KERNEL_OPTION_H

#include <argp.h>
#include "audit/ruleset.h"

/* cli_children with --kernel and --keep-refused added: for the commands that read rules files. */
extern const struct argp_child cli_children_with_kernel[];

/*
 * A rules file's rules that would not load here, taken out unless
 * --keep-refused (rules_file_leave_out_refused()): 0, or -1 after a message.
 */
int cli_leave_out_refused(struct ruleset *rs);

#endif /* __CLI_KERNEL_OPTION_H */
