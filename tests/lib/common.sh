# shellcheck shell=sh disable=SC2034
# SPDX-License-Identifier: GPL-2.0
# Shared by every test suite and by the benchmarks: result lines, an
# equality assert, progress lines, and saving and restoring audit policy.
# POSIX sh, so the same file serves bash on the host and busybox sh in the
# QEMU guests (tests/vm/lib-initramfs.sh copies it to /vmtest/common.sh).
#
# One result line per assertion, in every suite:
#   PASS name
#   PASS name: detail
#   FAIL name: reason                 (check_eq: "detail: got X, want Y")
# and, last, "N passed, N failed" (summary_line). RESULT_PREFIX, when set
# before this file is sourced, goes in front of each: the guests use
# "VMTEST " so the host can pick their lines out of the serial console.
# Progress and detail lines (log) go to stderr, after LOG_PREFIX (default:
# the script's name).

RESULT_PREFIX=${RESULT_PREFIX:-}
LOG_PREFIX=${LOG_PREFIX:-"$(basename "$0"): "}
PASSED=0
FAILED=0

log() { echo "$LOG_PREFIX$*" >&2; }

die() {
	log "$*"
	exit 1
}

# Called after each result line with the name; a suite may redefine it.
on_result() { :; }

pass() { # pass NAME [DETAIL]
	echo "${RESULT_PREFIX}PASS $1${2:+: $2}"
	PASSED=$((PASSED + 1))
	on_result "$1"
}

fail() { # fail NAME REASON
	echo "${RESULT_PREFIX}FAIL $1: $2"
	FAILED=$((FAILED + 1))
	on_result "$1"
}

# check_eq NAME GOT WANT [DETAIL]: passes when the strings are equal; a
# failure says what came and what was wanted.
check_eq() {
	if [ "$2" = "$3" ]; then
		pass "$1" "${4:-}"
	else
		fail "$1" "${4:+$4: }got ${2:-(empty)}, want ${3:-(empty)}"
	fi
}

# The closing line; false when anything failed.
summary_line() {
	echo "${RESULT_PREFIX}$PASSED passed, $FAILED failed"
	[ "$FAILED" = 0 ]
}

# ----------------------------------------------------------- audit policy ---
# audit_policy_save DIR keeps the rule list (auditctl -l, in DIR/saved.rules)
# and the enabled flag, and installs an EXIT trap that puts both back, also
# after a failure, Ctrl-C, TERM or HUP. Restoring deletes the rules whose key
# is in AUDIT_KEYS, reloads the saved list with auditctl -R only if the list
# still differs, checks it line by line, and sets the enabled flag last.
# A script may redefine before_policy_restore (stop what it started) and
# after_policy_restore (remove its files; RESTORE_STATUS is 0 when the
# policy is back exactly). On a locked or unreadable configuration it
# changes nothing and returns 1 with the reason in AUDIT_POLICY_ERROR.
# Suites and benchmarks that change the policy run one at a time: the first
# takes AUDIT_POLICY_LOCK (held on fd 9 until exit), the others wait for it.

AUDIT_KEYS=${AUDIT_KEYS:-}
SAVED_ENABLED=
SAVED_RULES=
POLICY_SAVED=0
RESTORE_STATUS=0
AUDIT_POLICY_ERROR=
AUDIT_POLICY_LOCK=${AUDIT_POLICY_LOCK:-/run/lock/auditskip-audit-policy.lock}

# 0, 1, or 2 (locked); empty when audit status cannot be read.
audit_enabled_flag() {
	auditctl -s 2>/dev/null | awk '$1 == "enabled" { print $2 }'
}

# The rule list as auditctl prints it, empty when there are no rules.
audit_rules_now() {
	auditctl -l 2>/dev/null | grep -v '^No rules$' || true
}

before_policy_restore() { :; }
after_policy_restore() { :; }

audit_policy_save() {
	if ! command -v auditctl >/dev/null; then
		AUDIT_POLICY_ERROR="auditctl is missing (install auditd)"
		return 1
	fi
	exec 9>"$AUDIT_POLICY_LOCK"
	if ! flock -n 9; then
		echo "waiting for another suite or benchmark to release $AUDIT_POLICY_LOCK" >&2
		if ! flock -w 1800 9; then
			AUDIT_POLICY_ERROR="$AUDIT_POLICY_LOCK still held after 30 minutes; nothing was touched"
			return 1
		fi
	fi
	SAVED_ENABLED=$(audit_enabled_flag)
	if [ -z "$SAVED_ENABLED" ]; then
		AUDIT_POLICY_ERROR="auditctl cannot read audit status (is CONFIG_AUDIT on?); nothing was touched"
		return 1
	fi
	if [ "$SAVED_ENABLED" = 2 ]; then
		AUDIT_POLICY_ERROR="audit configuration is locked (enabled 2): rules cannot be changed and restored until reboot; nothing was touched"
		return 1
	fi
	SAVED_RULES=$1/saved.rules
	audit_rules_now >"$SAVED_RULES"
	POLICY_SAVED=1
	trap audit_policy_exit EXIT
	trap 'exit 130' INT TERM HUP
}

# Sets RESTORE_STATUS; true when rules and flag are back as saved.
audit_policy_restore() {
	[ "$POLICY_SAVED" = 1 ] || return 0
	POLICY_SAVED=0
	RESTORE_STATUS=0
	for _key in $AUDIT_KEYS; do
		auditctl -D -k "$_key" >/dev/null 2>&1
	done
	if ! audit_rules_now | cmp -s - "$SAVED_RULES"; then
		auditctl -D >/dev/null 2>&1
		if [ -s "$SAVED_RULES" ]; then
			auditctl -R "$SAVED_RULES" >"$SAVED_RULES.reload" 2>&1 || true
		fi
	fi
	if ! audit_rules_now | cmp -s - "$SAVED_RULES"; then
		log "RULES NOT RESTORED EXACTLY; the saved list is kept in $SAVED_RULES.kept:"
		audit_rules_now | diff "$SAVED_RULES" - >&2 || true
		cp "$SAVED_RULES" "$SAVED_RULES.kept" 2>/dev/null
		RESTORE_STATUS=1
	fi
	if ! auditctl -e "$SAVED_ENABLED" >/dev/null; then
		log "CANNOT RESTORE audit enabled=$SAVED_ENABLED"
		RESTORE_STATUS=1
	fi
	[ "$RESTORE_STATUS" = 0 ]
}

audit_policy_exit() {
	_rc=$?
	# Everything below must run whatever fails on the way.
	set +e
	trap - INT TERM HUP
	before_policy_restore
	if ! audit_policy_restore && [ "$_rc" = 0 ]; then
		_rc=1
	fi
	after_policy_restore
	exit "$_rc"
}

# A TCP port no socket uses now, for a server of the test's own: below the
# kernel's ephemeral range, so no outgoing connection (a scraper's, the
# hostile clients') takes it between this choice and the server's bind.
free_port() {
	local p low
	read -r low _ </proc/sys/net/ipv4/ip_local_port_range
	[ "$low" -gt 12000 ] || low=32768
	while :; do
		p=$((10000 + RANDOM % (low - 10000)))
		[ -z "$(ss -Htan "sport = :$p")" ] && echo "$p" && return
	done
}

# wait_for SECONDS COMMAND...: true once COMMAND succeeds, false after SECONDS.
wait_for() {
	local deadline=$((SECONDS + $1))
	shift
	until "$@"; do
		[ "$SECONDS" -ge "$deadline" ] && return 1
		sleep 0.1
	done
}
