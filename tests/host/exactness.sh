#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Host tests of what tracepoint mode must never get wrong: a command whose
# start fails never runs uncounted, and the stale verdict is never a false
# "yes" (sleepers across a deletion, reloads, rules added and deleted
# between two listings).
#
#   tests/host/exactness.sh [-l] [-t NAME]...
#
# Each test adds the rules it needs and removes them; rules and the enabled
# flag are restored on exit, also on failure.
set -u
cd "$(dirname "$0")/../.."
. tests/host/lib.sh

TESTS="gate stale-sleepers stale-reload"
select_tests "$TESTS" "$@"
host_begin

# A command whose start fails after it was forked must never run.
test_gate() {
	local marker=$TMP/ran status
	"$AUDITSKIP" --test-fail-start -- sh -c "touch '$marker'" >/dev/null 2>"$TMP/gate.err"
	status=$?
	if [ "$status" = 0 ]; then
		fail gate "exit status 0 after a failed start"
	else
		pass gate "exit status $status: $(head -n 1 "$TMP/gate.err")"
	fi
	sleep 0.2
	check_eq gate "$([ -e "$marker" ] && echo ran || echo "did not run")" "did not run" \
		"the command never ran uncounted"
	check_eq gate "$(pgrep -f "touch $marker" | wc -l)" 0 "no child left"
	check_detached gate
}

# Syscalls that entered while rules were loaded and return after they are
# deleted walk the list once more; that is not stale accounting. New
# processes then get dummy contexts, and the verdict must be "no".
test_stale_sleepers() {
	local out=$TMP/stale.json after=$TMP/stale-after.json pid sleepers=()
	add_rules 4 openat
	for _ in 1 2 3 4; do
		sleep 2 &
		sleepers+=($!)
	done
	"$AUDITSKIP" --json --sync-ms 200 -d 4 >"$out" &
	pid=$!
	while ! grep -q '"type":"start"' "$out" 2>/dev/null; do sleep 0.05; done
	remove_rules
	wait "${sleepers[@]}"
	wait "$pid"
	check_eq stale-sleepers "$(jq -r 'select(.type=="summary") | .stale.state' "$out")" no \
		"sleepers across 'auditctl -D' are not stale accounting"
	check_eq stale-sleepers "$(jq -r 'select(.type=="summary") | .stale.syscalls' "$out")" 0 \
		"no stale syscalls"
	"$AUDITSKIP" --json -- "$GETPID_LOOP" 10000 >"$after"
	check_eq stale-sleepers "$(syscall_field "$after" getpid walks)" 0 \
		"a new process's getpid calls have dummy contexts"
	check_eq stale-sleepers "$(jq -r 'select(.type=="summary") | .stale.state' "$after")" no \
		"and the verdict stays no"
}

# The reload that gave a false "yes": no rules, 12 loaded, sleepers across
# their removal, a rule added and deleted between two listings, then a storm
# of 1,000 such pairs. Syscalls that log a record (the loader's own bind to
# audit's log group, each rule change) walk the empty list on a healthy
# kernel; they prove nothing. The verdict must be "no", resting on dummy
# contexts, with no stale syscall counted.
test_stale_reload() {
	local out=$TMP/reload.json storm=$TMP/storm.rules pid sleepers=() i
	local rule="-F arch=b64 -S openat -F uid=4242424 -k $KEY"
	for i in $(seq 1 1000); do
		echo "-a always,exit $rule"
		echo "-d always,exit $rule"
	done >"$storm"
	"$AUDITSKIP" --json >"$out" &
	pid=$!
	while ! grep -q '"type":"start"' "$out" 2>/dev/null; do sleep 0.05; done
	sleep 1.5
	add_rules 12 openat
	for _ in 1 2 3; do
		sleep 2 &
		sleepers+=($!)
	done
	sleep 0.3
	remove_rules
	# shellcheck disable=SC2086
	auditctl -a always,exit $rule >/dev/null && auditctl -d always,exit $rule >/dev/null
	auditctl -R "$storm" >/dev/null
	wait "${sleepers[@]}"
	# Quiet for three listings (one a second): the last intervals end undisturbed.
	sleep 3
	kill -INT "$pid"
	wait "$pid"
	check_eq stale-reload "$(jq -r 'select(.type=="summary") | .stale.state' "$out")" no \
		"reloads and rules added and deleted between listings are not stale accounting"
	check_eq stale-reload "$(jq -r 'select(.type=="summary") | .stale.syscalls' "$out")" 0 \
		"no stale syscalls"
	check_eq stale-reload "$(jq -r 'select(.type=="summary") | .stale.reason' "$out")" \
		"a syscall entered with a dummy context while no rule counted" "the verdict's ground"
	check_eq stale-reload "$(jq -r 'select(.type=="summary") | .stale.evidence' "$out")" null \
		"no evidence of staleness"
	check_eq stale-reload "$(test_rules_loaded | wc -l)" 0 "the storm left no rule"
}

run_tests
summary_line
