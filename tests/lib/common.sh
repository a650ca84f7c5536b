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
#
# Every suite takes the same options (select_tests, guest_test_args):
#   -t NAME   run only the test NAME (repeatable; a shell glob)
#   -l        list the suite's tests, one a line, and run none
# A NAME no test has is an error, never an empty pass.

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
	result_wanted "PASS $1${2:+: $2}" "$1" || return 0
	echo "${RESULT_PREFIX}PASS $1${2:+: $2}"
	PASSED=$((PASSED + 1))
	on_result "$1"
}

fail() { # fail NAME REASON
	result_wanted "FAIL $1: $2" "$1" || return 0
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

# The closing line; false when anything failed. Under guest_test_args, a
# pattern that named no result is a failure of its own; in a suite that runs
# its tests with run_test, so is a selected test that run_test never ran.
summary_line() {
	if [ -n "$TESTS_RUN" ]; then
		for _name in $SELECTED; do
			case "$TESTS_RUN" in
			*" $_name "*) ;;
			*)
				echo "${RESULT_PREFIX}FAIL $_name: declared and selected, but never run"
				FAILED=$((FAILED + 1))
				;;
			esac
		done
	fi
	if [ -n "$RESULT_PATTERNS" ]; then
		while IFS= read -r _p; do
			case " $RESULTS_SEEN " in
			*" $_p "* | "  ") ;;
			*)
				echo "${RESULT_PREFIX}FAIL $_p: no test of this suite matches -t '$_p'"
				FAILED=$((FAILED + 1))
				;;
			esac
		done <<EOF
$RESULT_PATTERNS
EOF
	fi
	echo "${RESULT_PREFIX}$PASSED passed, $FAILED failed"
	[ "$FAILED" = 0 ]
}

# ---------------------------------------------------------- picking tests ---
# TEST_PATTERNS: the -t patterns, one a line (empty: every test).
# RESULT_PATTERNS: the same, where the result lines are what is picked (the
# guests); RESULTS_SEEN: those of them a result matched.
TEST_PATTERNS=
TEST_LIST=0
RESULT_PATTERNS=
RESULTS_SEEN=
SELECTED=
TESTS_RUN=

usage_error() {
	echo "$0: $* (usage: $0 [-l] [-t NAME]..., NAME may be a glob)" >&2
	exit 2
}

# test_selected NAME: true when no -t was given or one of them matches NAME.
test_selected() {
	[ -n "$TEST_PATTERNS" ] || return 0
	while IFS= read -r _p; do
		# shellcheck disable=SC2254
		case $1 in $_p) return 0 ;; esac
	done <<EOF
$TEST_PATTERNS
EOF
	return 1
}

# test_args ARGS...: -t and -l into TEST_PATTERNS and TEST_LIST (1);
# anything else is a usage error.
test_args() {
	TEST_PATTERNS=
	TEST_LIST=0
	OPTIND=1
	while getopts ":lt:" _opt; do
		case $_opt in
		l) TEST_LIST=1 ;;
		t)
			[ -n "$OPTARG" ] || usage_error "-t needs a test name"
			TEST_PATTERNS="$TEST_PATTERNS${TEST_PATTERNS:+
}$OPTARG"
			;;
		:) usage_error "-$OPTARG needs a test name" ;;
		*) usage_error "unknown option -$OPTARG" ;;
		esac
	done
	shift $((OPTIND - 1))
	[ $# -eq 0 ] || usage_error "unexpected argument '$1'"
}

# select_tests "NAME..." ARGS...: for a suite whose tests are known up front
# (the host suites). SELECTED becomes the names ARGS pick, in the order
# given; -l prints them and exits; a pattern that matches none exits 2.
select_tests() {
	_all=$1
	shift
	test_args "$@"
	if [ -n "$TEST_PATTERNS" ]; then
		while IFS= read -r _p; do
			_hit=0
			for _name in $_all; do
				# shellcheck disable=SC2254
				case $_name in $_p) _hit=1 ;; esac
			done
			[ $_hit = 1 ] || usage_error "no test matches '$_p'; the tests are: $_all"
		done <<EOF
$TEST_PATTERNS
EOF
	fi
	SELECTED=
	for _name in $_all; do
		test_selected "$_name" && SELECTED="$SELECTED $_name"
	done
	if [ "$TEST_LIST" = 1 ]; then
		for _name in $SELECTED; do echo "$_name"; done
		exit 0
	fi
}

# guest_test_args ARGS...: for a suite whose tests are its result lines
# (the guests: names are made as they run, per mode and rule set; each
# suite's suite_tests declares them, and tests/vm/run.sh -l prints them
# per kernel). Only the
# picked results are printed and counted; a result that the work of a
# picked one gives on the way is logged instead.
guest_test_args() {
	test_args "$@"
	[ "$TEST_LIST" = 0 ] || usage_error "-l: tests/vm/run.sh KERNEL:SUITE -l lists the tests (each suite's suite_tests)"
	RESULT_PATTERNS=$TEST_PATTERNS
}

# result_wanted LINE NAME: true when NAME's result is printed and counted.
result_wanted() {
	[ -n "$RESULT_PATTERNS" ] || return 0
	if test_selected "$2"; then
		while IFS= read -r _p; do
			# shellcheck disable=SC2254
			case $2 in $_p) RESULTS_SEEN="$RESULTS_SEEN $_p " ;; esac
		done <<EOF
$RESULT_PATTERNS
EOF
		return 0
	fi
	log "not picked by -t: $1"
	return 1
}

# run_test "NAME..." COMMAND...: runs COMMAND, whose results are NAME...,
# unless -t picked none of them. A COMMAND that prints no result line at
# all (it returned early, skipped itself silently) is a FAIL of NAME.
run_test() {
	_names=$1
	shift
	for _name in $_names; do
		if test_selected "$_name"; then
			TESTS_RUN="$TESTS_RUN $_names "
			_results_before=$((PASSED + FAILED))
			"$@"
			_rt_status=$?
			# Host suites only: a guest function may name its results otherwise.
			if [ -z "$RESULT_PREFIX" ] && [ $((PASSED + FAILED)) = "$_results_before" ]; then
				echo "${RESULT_PREFIX}FAIL $_names: ran, but printed no result line"
				FAILED=$((FAILED + 1))
			fi
			return $_rt_status
		fi
	done
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
# What host suites price the never,exit prefix with: the series' 2.8 ns an
# entry and no evaluation prices, as on a machine never calibrated, so that
# a calibration saved here (auditskip calibrate) moves nothing they expect.
SLOPE_CALIBRATION=tests/data/calibration-slope.json
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

# schema_errors FILE: FILE (one JSON document) against
# tests/host/json-schema.json, with Debian's python3-jsonschema; prints the
# first errors and fails when there are any, or when the validator is missing.
schema_errors() {
	/usr/bin/python3 - tests/host/json-schema.json "$1" <<-'EOF'
		import json, sys
		import jsonschema

		validator = jsonschema.Draft202012Validator(json.load(open(sys.argv[1])))
		errors = list(validator.iter_errors(json.load(open(sys.argv[2]))))
		for e in errors[:5]:
		    print(e.json_path, e.message[:200])
		sys.exit(1 if errors else 0)
	EOF
}

# ------------------------------------------------ reading what a run left ---

# kv FILE KEY: the value of a KEY=VALUE line (tests/tools/hostile_clients).
kv() { awk -F= -v k="$2" '$1 == k { print $2 }' "$1"; }

# Of a running process: open file descriptors, resident set (KiB), and
# utime + stime so far (clock ticks).
fds_of() { find /proc/"$1"/fd -mindepth 1 -maxdepth 1 | wc -l; }
rss_of() { awk '$1 == "VmRSS:" { print $2 }' /proc/"$1"/status; }
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

# series FILE SERIES: the value of the exact series (name and labels) on a
# /metrics page, or "none".
series() {
	awk -v s="$2" '$1 == s { v = $2 } END { print v == "" ? "none" : v }' "$1"
}

# scrape URL FILE [curl options]: the page into FILE; true when it is
# auditskip's (it has the info metric).
scrape() {
	_url=$1
	_file=$2
	shift 2
	curl -sf -m 5 "$@" -o "$_file" "$_url" && grep -q '^auditskip_info{' "$_file"
}

# served_page URL [curl options]: auditskip serves its page at URL.
served_page() {
	_url=$1
	shift
	curl -sf -m 5 "$@" "$_url" | grep -q '^auditskip_info{'
}

# promql EXPR: a Prometheus server's JSON answer (at PROM_PORT) to an
# instant query; promval EXPR: its first sample's value, or "none" (jq).
promql() {
	curl -s --get --data-urlencode "query=$1" "http://127.0.0.1:$PROM_PORT/api/v1/query"
}
promval() {
	promql "$1" | jq -r '.data.result[0].value[1] // "none"'
}
promval_is() { # promval_is EXPR VALUE
	[ "$(promval "$1")" = "$2" ]
}

# sctab FLAT: a flattened summary's (or what-if's) syscalls[] (the guests'
# jflat), one sorted line per entry:
#   KEY NAME WALKS SKIPPABLE SKIPPABLE_ARCH_MASK SKIPPABLE_PERM_MASK
# KEY is ARCH:NR where entries have an arch, else NR.
sctab() {
	awk -F= '
	$1 ~ /^syscalls\.[0-9]+\.[a-z_]+$/ {
		split($1, p, ".")
		v[p[2], p[3]] = substr($0, length($1) + 2)
		seen[p[2]] = 1
	}
	END {
		for (i in seen) {
			k = v[i, "nr"]
			if (v[i, "arch"] != "")
				k = v[i, "arch"] ":" k
			n = v[i, "name"]
			if (n == "")
				n = "?"
			print k, n, v[i, "walks"] + 0, v[i, "skippable_walks"] + 0,
				v[i, "skippable_arch_mask"] + 0, v[i, "skippable_perm_mask"] + 0
		}
	}' "$1" | sort
}

# cmptab WANT GOT: two sctab tables' differences, sorted, one a line:
#   ARCH NAME(NR) FIELD got X want Y
# (ARCH "-" where the tables have none; an entry missing on one side counts
# as zero there).
cmptab() {
	awk '
	FILENAME == ARGV[1] { want[$1] = $0; keys[$1] = 1; next }
	{ got[$1] = $0; keys[$1] = 1 }
	END {
		split("walks skippable skippable_arch_mask skippable_perm_mask", f, " ")
		for (k in keys) {
			nr = k
			ar = "-"
			if (c = index(k, ":")) {
				ar = substr(k, 1, c - 1)
				nr = substr(k, c + 1)
			}
			nw = split(want[k], w, " ")
			ng = split(got[k], g, " ")
			name = nw ? w[2] : g[2]
			for (j = 1; j <= 4; j++) {
				x = ng ? g[j + 2] + 0 : 0
				y = nw ? w[j + 2] + 0 : 0
				if (x != y)
					print ar, name "(" nr ")", f[j], "got", x, "want", y
			}
		}
	}' "$1" "$2" | sort
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
