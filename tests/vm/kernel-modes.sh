# shellcheck shell=sh disable=SC2034,SC2086
# SPDX-License-Identifier: GPL-2.0
# The per-kernel facts the guest suites and their test names depend on.
# POSIX sh, sourced in the guest by guest-lib.sh (with uname -r) and on the
# host when a suite declares its tests for a kernel (tests/vm/run.sh, with
# the series' release: "6.12.0" for 6.12 and 6.12-trixie).
#
#   kernel_modes RELEASE   sets AUTO, MODES, ABSENT, LOADER_MIRROR,
#                          TRAMPOLINE_MODES and OUTCOME_MODES
#
# Which modes each Debian kernel can attach (see shared KERNEL-NOTES, sec. 2):
# 6.1 has audit_filter_syscall but no __audit_filter_op; on 6.12
# audit_filter_syscall is inlined away and __audit_filter_op exists.
kernel_modes() {
	LOADER_MIRROR=
	case "$1" in
	6.1.*)
		AUTO=filter-syscall
		MODES="filter-syscall syscall-exit tracepoint"
		ABSENT=filter-op
		;;
	5.10.*)
		# No task storage before 5.11: tracepoint mode cannot keep each
		# task's syscall, and says so. No bpf_loop() before 5.17: the
		# loader keeps the mirror, from the rule changes it hears of.
		AUTO=syscall-exit
		MODES="syscall-exit"
		ABSENT="filter-op filter-syscall tracepoint"
		LOADER_MIRROR=1
		;;
	6.12.* | 7.2.*)
		AUTO=filter-op
		MODES="filter-op syscall-exit tracepoint"
		ABSENT=filter-syscall
		;;
	*)
		AUTO=unknown
		MODES="syscall-exit tracepoint"
		ABSENT=
		;;
	esac
	# Modes that see the audit exit filter itself through a BPF trampoline;
	# only they can be exact about every walk (tracepoint mode infers it
	# from the context's dummy flag).
	TRAMPOLINE_MODES=$(echo $MODES | sed 's/ *tracepoint//')
	# Modes that see whether a rule matched (missed matches).
	OUTCOME_MODES=$(echo $TRAMPOLINE_MODES | sed 's/ *syscall-exit//')
}
