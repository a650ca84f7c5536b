// SPDX-License-Identifier: GPL-2.0
#include <string.h>
#include <libaudit.h>
#include "audit/mask.h"
#include "audit/syscalls.h"
#include "output/mask_bit_name.h"

/* nr's name in arch's table, NULL when that arch or that number has none. */
static const char *table_name(enum slot_arch arch, unsigned int nr)
{
	int machine = arch_machine(arch);

	return syscall_table_name(nr, machine);
}

bool mask_bit_named(unsigned int nr)
{
	return table_name(ARCH_NATIVE, nr) || table_name(ARCH_COMPAT, nr);
}

void mask_bit_name(unsigned int nr, char *buf, size_t size)
{
	const char *native = table_name(ARCH_NATIVE, nr), *compat = table_name(ARCH_COMPAT, nr);

	if (native && (!compat || !strcmp(native, compat)))
		snprintf(buf, size, "%s", native);
	else if (native)
		snprintf(buf, size, "nr %u (%s %s, %s %s)", nr, arch_name(ARCH_NATIVE), native,
			 arch_name(ARCH_COMPAT), compat);
	else if (compat)
		snprintf(buf, size, "nr %u (%s %s)", nr, arch_name(ARCH_COMPAT), compat);
	else
		snprintf(buf, size, "nr %u", nr);
}

void print_syscall_count_note(FILE *out)
{
	int compat = arch_machine(ARCH_COMPAT);

	if (compat < 0) {
		fprintf(out, "Syscalls are counted by number: the numbers %s's table names.\n",
			arch_name(ARCH_NATIVE));
		return;
	}
	fprintf(out,
		"Syscalls are counted by number: the patch's mask is arch-blind, so a number counts once\n"
		"when %s's or %s's table names it (an arch's own mask counts its own table's numbers);\n"
		"a number the two tables name differently is shown with both names.\n",
		arch_name(ARCH_NATIVE), arch_name(ARCH_COMPAT));
}
