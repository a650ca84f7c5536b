#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# calibrate as an admin meets it, on this kernel: its report holds no
# libbpf chatter without -v (fentry is refused here; the report says the
# call is not timed, in its own words) and every evaluation kind is named;
# Ctrl-C stops it with exit 130, nothing saved, the rule list and audit's
# enabled flag as they were, and says so.
#
#   tests/host/calibrate.sh [-l] [-t NAME]...   (as tests/host/run.sh)
set -u
cd "$(dirname "$0")/../.."
. tests/host/lib.sh

AUDIT_KEYS="$AUDIT_KEYS auditskip-calibrate"
select_tests "clean-report sigint" "$@"
host_begin

# A rule of the suite's own, which calibrate must put back.
own_rule() {
	auditctl -a always,exit -F arch=b64 -S openat -F uid=4000001 -k "$KEY" >/dev/null
}

test_clean_report() {
	local try status=75
	own_rule
	# 75 is calibrate's "too noisy, try again": a loaded machine's answer,
	# tried again up to three times; any other failure fails.
	for try in 1 2 3; do
		"$AUDITSKIP" calibrate --max-rules 16 --calibration "$TMP/cal.json" \
			>"$TMP/cal.out" 2>"$TMP/cal.err"
		status=$?
		[ "$status" = 75 ] || break
		log "calibrate: too noisy (try $try)"
	done
	check_eq clean-report "$status" 0 "exit status ($(tail -n 1 "$TMP/cal.err"))"
	check_eq clean-report "$(grep -c 'libbpf:' "$TMP/cal.out" "$TMP/cal.err" | awk -F: '{ s += $2 } END { print s }')" 0 \
		"no libbpf line without -v"
	check_eq clean-report "$(grep -c '(null)' "$TMP/cal.out")" 0 "every evaluation kind named"
	grep -q 'measured from 0 to 16 entries' "$TMP/cal.out" &&
		pass clean-report "the range the curve was measured over is stated" ||
		fail clean-report "no measured range in: $(head -n 3 "$TMP/cal.out")"
	# What counting adds, measured with the counting programs of the mode
	# that loads here, then unloaded.
	grep -qE 'what counting adds to a syscall: -?[0-9.]+ ns .*mode (tracepoint|filter-op|filter-syscall|syscall-exit)' "$TMP/cal.out" &&
		pass clean-report "what counting adds is measured" ||
		fail clean-report "no measure of what counting adds: $(grep 'counting adds' "$TMP/cal.out")"
	"$AUDITSKIP" --json -- true 2>/dev/null | jq -r 'select(.type == "start") | .mode' >"$TMP/best.mode"
	check_eq clean-report "$(jq -r '.counting.mode // "none"' "$TMP/cal.json")" \
		"$(cat "$TMP/best.mode")" "the mode measured in the file, the one a count picks here"
	check_detached clean-report "after calibrate"
	auditctl -D -k "$KEY" >/dev/null
}

test_sigint() {
	local pid status t=0
	own_rule
	audit_rules_now >"$TMP/before.rules"
	"$AUDITSKIP" calibrate --calibration "$TMP/int.json" >"$TMP/int.out" 2>"$TMP/int.err" &
	pid=$!
	BACKGROUND="$BACKGROUND $pid"
	# Once its own rules are loaded, the policy is changed: the moment that counts.
	while ! auditctl -l | grep -q 'key=auditskip-calibrate' && [ $t -lt 300 ]; do
		sleep 0.1
		t=$((t + 1))
	done
	kill -INT "$pid"
	wait "$pid"
	status=$?
	check_eq sigint "$status" 130 "exit status after SIGINT"
	grep -q 'stopped by Interrupt.*as they were' "$TMP/int.err" &&
		pass sigint "$(cat "$TMP/int.err")" ||
		fail sigint "message: $(head -c 300 "$TMP/int.err")"
	audit_rules_now | cmp -s - "$TMP/before.rules" &&
		pass sigint "the rule list is as before" ||
		fail sigint "rules now: $(audit_rules_now | head -n 3 | tr '\n' ';')"
	[ ! -e "$TMP/int.json" ] && pass sigint "nothing saved" || fail sigint "a calibration was saved"
	auditctl -D -k "$KEY" >/dev/null
}

run_tests
summary_line
