/* SPDX-License-Identifier: GPL-2.0 */
/* --kernel VERSION: which kernel's syscall table and classes read rules files. */
#ifndef __CLI_KERNEL_OPTION_H
#define __CLI_KERNEL_OPTION_H

#include <argp.h>

/* cli_children with --kernel added: for the commands that read rules files. */
extern const struct argp_child cli_children_with_kernel[];

#endif /* __CLI_KERNEL_OPTION_H */
