# SPDX-License-Identifier: GPL-2.0
# Shared by the host tests: audit state save/restore, assertions, leftovers.
# Every rule a test adds carries KEY, so cleanup removes exactly those.

KEY=auditskip-test
OUT=${OUT:-.output}
AUDITSKIP=$OUT/auditskip
GETPID_LOOP=$OUT/getpid_loop
TMP=$(mktemp -d /tmp/auditskip-test.XXXXXX)
PASSED=0
FAILED=0

audit_enabled_flag() {
	auditctl -s | awk '$1 == "enabled" { print $2 }'
}

SAVED_ENABLED=$(audit_enabled_flag)

restore_audit() {
	auditctl -D -k "$KEY" >/dev/null 2>&1
	[ -n "$SAVED_ENABLED" ] && [ "$SAVED_ENABLED" != 2 ] && auditctl -e "$SAVED_ENABLED" >/dev/null
	rm -rf "$TMP"
}
trap restore_audit EXIT
trap 'exit 130' INT TERM

pass() {
	echo "PASS $1"
	PASSED=$((PASSED + 1))
}

fail() {
	echo "FAIL $1: $2"
	FAILED=$((FAILED + 1))
}

# check NAME EXPECTED ACTUAL [what]
check() {
	if [ "$2" = "$3" ]; then
		pass "$1${4:+ ($4)}"
	else
		fail "$1${4:+ ($4)}" "expected $2, got $3"
	fi
}

# A syscall's field from a summary line: syscall_field FILE NAME FIELD
syscall_field() {
	jq -r --arg n "$2" --arg f "$3" \
		'select(.type == "summary") | ([.syscalls[] | select(.name == $n) | .[$f]] | add) // 0' "$1"
}

summary_field() {
	jq -r --arg f "$2" 'select(.type == "summary") | .[$f]' "$1"
}

# Program names the kernel keeps (15 characters) for everything auditskip loads.
leftover_programs() {
	bpftool prog list 2>/dev/null |
		grep -cE 'name (start_filter_|end_filter_|count_sys|follow_fork|forget_exit|mirror_)' || true
}

# The kernel frees a closed program after an RCU grace period, so give it
# a few seconds; a program still listed after that is really left behind.
check_detached() {
	local left tries=0
	while left=$(leftover_programs) && [ "$left" != 0 ] && [ $tries -lt 50 ]; do
		sleep 0.1
		tries=$((tries + 1))
	done
	check "$1: nothing left attached" 0 "$left"
}

add_rules() { # add_rules COUNT SYSCALL: rules that name SYSCALL but cannot match
	for i in $(seq 1 "$1"); do
		auditctl -a always,exit -F arch=b64 -S "$2" -F uid=$((4000000 + i)) -k "$KEY" >/dev/null ||
			return 1
	done
}

require_root_and_audit() {
	if [ "$(id -u)" != 0 ]; then
		echo "FAIL host tests: must run as root (they add audit rules and load BPF)"
		exit 1
	fi
	if ! command -v auditctl >/dev/null || [ -z "$SAVED_ENABLED" ]; then
		echo "FAIL host tests: auditctl cannot read audit status (install auditd; is CONFIG_AUDIT on?)"
		exit 1
	fi
	if [ "$SAVED_ENABLED" = 2 ]; then
		echo "FAIL host tests: audit configuration is locked (enabled 2); reboot to change rules"
		exit 1
	fi
}

summary_line() {
	echo "$PASSED passed, $FAILED failed"
	[ "$FAILED" = 0 ]
}
