#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The what-if suite (vmsuite=whatif): profiles taken with no rule loaded in
# each mode that can profile (syscall-exit, tracepoint), then a rule set
# loaded and the same workloads counted in every mode this kernel loads;
# `auditskip whatif --file -` on each profile must equal, per syscall,
# what the mode that took it counts, and what the reference (filter-op,
# else filter-syscall: they hook the walk itself) counts.
#
# Result lines:
#   PASS whatif/<ruleset>/<workload>/<profile mode>/<counting mode>
#   FAIL ...: <arch> <syscall>(<nr>) walks got X want Y   (X predicted)

# shellcheck source=guest-lib.sh
. "${VMTEST_DIR:-/vmtest}/guest-lib.sh"
guest_test_args "$@"

# The reference hooks the walk itself (filter-op, else filter-syscall).
REF=${OUTCOME_MODES%% *}
PROFILE_MODES=
for _m in $MODES; do
	case $_m in
	syscall-exit | tracepoint) PROFILE_MODES="$PROFILE_MODES $_m" ;;
	esac
done

# name|command: deterministic corpus workloads.
workloads() {
	cat <<EOF
getpid|/bin/corpus getpid 200
fork|/bin/corpus fork 10
threads|/bin/corpus threads 4 25
exec|/bin/corpus exec 5
int80|/bin/corpus int80 50
fork32|/bin/corpus32 fork 10
exitgroup-live|/bin/corpus exitgroup-live 4
EOF
}

# The rule set check_set counts under (the end of this file).
CHECK_SET=mixed

# suite_tests: check_set's results, each workload's count in each
# profiling mode and in the reference against that mode's prediction.
suite_tests() {
	for _wl in $(workloads | cut -d'|' -f1); do
		for _pm in $PROFILE_MODES; do
			for _cm in $_pm $REF; do echo "whatif/$CHECK_SET/$_wl/$_pm/$_cm"; done
		done
	done
}
declared

# The workloads on fd 3: a loop fed by a pipe runs in a subshell, whose
# results would not reach summary_line's count.
profile_all() {
	workloads >"$T/workloads"
	while IFS='|' read -r _wl _cmd <&3; do
		for _pm in $PROFILE_MODES; do
			# shellcheck disable=SC2086 # the command is split into words on purpose
			tool "p.$_wl.$_pm" profile -m "$_pm" -o "$T/$_wl.$_pm.prof" -- $_cmd
			[ "$rc" = 0 ] || { fail "whatif/profile/$_wl/$_pm" "exit status $rc"; dump "p.$_wl.$_pm"; }
		done
	done 3<"$T/workloads"
}

# check_set NAME: every workload counted in every mode, against each profile's prediction.
check_set() {
	workloads >"$T/workloads"
	while IFS='|' read -r _wl _cmd <&3; do
		for _cm in $MODES; do
			# shellcheck disable=SC2086
			tool "c.$1.$_wl.$_cm" --json -m "$_cm" -- $_cmd </dev/null
			jlast "$T/c.$1.$_wl.$_cm.out" summary >"$T/c.flat"
			sctab "$T/c.flat" | awk '$3 > 0' >"$T/c.$_cm.tab"
			[ -s "$T/c.$_cm.tab" ] || { fail "whatif/$1/$_wl/count/$_cm" "no walk counted (exit status $rc)"; dump "c.$1.$_wl.$_cm"; }
		done
		for _pm in $PROFILE_MODES; do
			tool "w.$1.$_wl.$_pm" whatif --json --file - --profile "$T/$_wl.$_pm.prof"
			jflat <"$T/w.$1.$_wl.$_pm.out" >"$T/w.flat"
			sctab "$T/w.flat" | awk '$3 > 0' >"$T/w.tab"
			for _cm in $_pm $REF; do
				cmptab "$T/c.$_cm.tab" "$T/w.tab" >"$T/d"
				report_diffs "whatif/$1/$_wl/$_pm/$_cm" "$T/d" 8
			done
		done
	done 3<"$T/workloads"
}

if [ -z "$PROFILE_MODES" ]; then
	fail whatif/modes "no mode that can profile loads on $KVER (modes: $MODES)"
	exit 1
fi
auditctl -e 1 >/dev/null
rules_reset
profile_all
rules_reset
for _i in 1 2 3 4 5 6 7 8; do
	auditctl -a always,exit -F arch=b64 -S openat -F uid=$((4100000 + _i)) -k w >/dev/null
done
auditctl -a always,exit -F arch=b32 -S mkdir -F uid=4242 -k w >/dev/null
auditctl -a always,exit -F arch=b64 -S clone,wait4,exit_group -F uid=4243 -k w >/dev/null
check_set $CHECK_SET
rules_reset
summary_line
