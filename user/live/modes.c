// SPDX-License-Identifier: GPL-2.0
/* The attach modes' table (modes.h), best first: the first that loads is used. */
#include <stdio.h>
#include <string.h>
#include "live/modes.h"

const struct mode_info modes[MODE_COUNT] = {
	[MODE_FILTER_OP] = {
		.name = "filter-op",
		.target = "__audit_filter_op",
		.how = "fentry on __audit_filter_op, syscall exit-list walks only",
		.blind = "the outcome and time of a walk its task was switched out in (walks_switched_out)",
		.summary = "fentry on __audit_filter_op",
		.progs = { "start_filter_op", "end_filter_op" },
		.sees = MODE_SEES_OUTCOMES | MODE_TIMES_WALKS | MODE_SEES_URING |
			MODE_HOOKS_WALKS_ONLY,
	},
	[MODE_FILTER_SYSCALL] = {
		.name = "filter-syscall",
		.target = "audit_filter_syscall",
		.how = "fentry on audit_filter_syscall",
		.blind = "the auditd exemption inside the function (approximated by auditd's pid), the "
			 "outcome and time of a walk its task was switched out in (walks_switched_out)",
		.summary = "fentry on audit_filter_syscall",
		.progs = { "start_filter_syscall", "end_filter_syscall" },
		.sees = MODE_SEES_OUTCOMES | MODE_TIMES_WALKS | MODE_HOOKS_WALKS_ONLY,
	},
	[MODE_SYSCALL_EXIT] = {
		.name = "syscall-exit",
		.target = "__audit_syscall_exit",
		.how = "fentry on __audit_syscall_exit, __audit_free and __audit_uring_exit, with the "
		       "kernel's conditions for filtering",
		.blind = "the auditd exemption (approximated by auditd's pid), outcomes, io_uring walks",
		.summary = "fentry on __audit_syscall_exit",
		/*
		 * __audit_free() is where exit and exit_group walk (without it
		 * those go uncounted); io_uring audit came with 5.16.
		 */
		.progs = { "count_syscall_exit", "?count_audit_free", "?count_uring_exit" },
		.sees = MODE_COUNTS_MIRROR_LAG,
	},
	[MODE_TRACEPOINT] = {
		.name = "tracepoint",
		.how = "raw_syscalls:sys_enter (a syscall's walk counted at the task's next entry, "
		       "signal or end), and the audit context's dummy flag",
		.blind = "the auditd exemption (approximated by auditd's pid), outcomes, io_uring walks, "
			 "rule changes until the loader hears of them (mirror_lag_walks counts the walks "
			 "judged meanwhile where audit_n_rules can be read), the exit walk each io_uring "
			 "op run inline in io_uring_enter makes (uring_enter_walks counts those calls); "
			 "the walk of a task's last syscall when it ends in exit or exit_group or is "
			 "killed without a signal is inferred from the context at that syscall's entry "
			 "(exit_walks_inferred)",
		.summary = "raw_syscalls:sys_enter and the context's dummy flag",
		.progs = { "count_sys_enter", "count_before_signal", "count_exit_walk" },
		.sees = MODE_JUDGES_AT_ENTRY | MODE_COUNTS_MIRROR_LAG | MODE_NEEDS_TASK_STORAGE,
	},
};

int mode_from_name(const char *name)
{
	for (int i = 0; i < MODE_COUNT; i++)
		if (!strcmp(modes[i].name, name))
			return i;
	return -1;
}

bool mode_sees(enum attach_mode m, unsigned int what)
{
	return (modes[m].sees & what) == what;
}

const char *mode_names_or(void)
{
	static char names[160];
	size_t len = 0;

	if (names[0])
		return names;
	for (int i = 0; i < MODE_COUNT; i++)
		len += snprintf(names + len, sizeof(names) - len, "%s%s",
				!i		    ? "" :
				i == MODE_COUNT - 1 ? " or " :
						      ", ",
				modes[i].name);
	return names;
}
