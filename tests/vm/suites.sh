# shellcheck shell=sh
# SPDX-License-Identifier: GPL-2.0
# Where each guest suite lives: POSIX sh, sourced by guest-init.sh (in the
# guest, busybox sh) and by tests/vm/run.sh (on the host), so that adding a
# suite is adding its file.
#
#   suite_script SUITE   the suite's file and its argument: guest-SUITE.sh;
#                        main is guest-tests.sh, and stale-CASE is
#                        guest-stale.sh CASE
#   is_suite DIR SUITE   true when DIR has SUITE's file and it declares its
#                        tests (guest-lib.sh and guest-records.sh, sourced
#                        by suites, are none)
#
# A suite's file declares its tests: run with VMTEST_DECLARE=RELEASE (see
# guest-lib.sh) it prints the result names it gives on that kernel release
# and runs nothing (its suite_tests function).
suite_script() {
	case $1 in
	main) echo guest-tests.sh ;;
	stale-*) echo "guest-stale.sh ${1#stale-}" ;;
	*) echo "guest-$1.sh" ;;
	esac
}

is_suite() {
	_script=$(suite_script "$2")
	grep -q '^suite_tests() *{' "$1/${_script%% *}" 2>/dev/null
}
