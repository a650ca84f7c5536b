#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Reliability on the host (tracepoint mode): counters that add up across
# CPUs and intervals, kill -9 leaving nothing behind, and a mirror that
# converges after heavy rule churn. Rules and the enabled flag are restored.
#
#   tests/host/reliability.sh [-l] [-t NAME]...   (as tests/host/run.sh)
set -u
cd "$(dirname "$0")/../.."
. tests/host/lib.sh

select_tests "counters kill9 churn" "$@"
host_begin

# Per-CPU counters summed exactly: one workload pinned to each CPU, with
# interval lines that must add up to the summary and never go backwards.
test_counters() {
	local out=$TMP/cpus.json n=$((30000 + RANDOM % 10000))
	add_rules 8 openat
	"$AUDITSKIP" --json -i 0.2 -- "$GETPID_LOOP" "$n" --per-cpu >"$out"
	check_eq counters "$(syscall_field "$out" getpid skippable_walks)" "$((n * $(nproc)))" \
		"getpid walks, $n on each of $(nproc) CPUs"
	check_eq counters "$(jq -s '[.[] | select(.type == "interval") | .walks] | add' "$out")" \
		"$(summary_field "$out" walks)" "interval walks add up to the summary"
	check_eq counters "$(jq -s '[.[] | select(.type == "interval") | .needless_rule_visits] | add' "$out")" \
		"$(summary_field "$out" needless_rule_visits)" "interval visits add up to the summary"
	check_eq counters \
		"$(jq -s '[.[] | select(.type == "interval") | .skippable_walks <= .walks] | all' "$out")" \
		true "no interval counts more skippable walks than walks"
	remove_rules
}

# Nothing is pinned, so the kernel drops every program with the last fd.
test_kill9() {
	local out=$TMP/kill9.json
	"$AUDITSKIP" --json -i 1 >"$out" &
	local pid=$!
	while ! grep -q '"type":"start"' "$out" 2>/dev/null; do sleep 0.05; done
	kill -9 "$pid"
	wait "$pid" 2>/dev/null
	check_detached "kill -9"
}

# Thousands of rule changes while a workload runs, with the periodic listing
# off (a day): only the change records audit logs can bring the mirror up to
# date. An interval line printed while the workload still waits, long before
# the summary's own listing, must show the rules `auditctl -l` lists, read
# without any of auditskip's code, and must come from listings the changes
# caused, begun after the churn began.
test_churn() {
	local out=$TMP/churn.json list=$TMP/churn.list line began
	# Rules through the whole run, so that every getpid walks the exit list
	# (with none loaded, audit makes no walk), none of them naming getpid.
	add_rules 8 openat "$KEY-full"
	rm -f "$TMP/ready" "$TMP/go"
	"$AUDITSKIP" --json -i 0.2 --sync-ms 100 --test-list-period-ms 86400000 -- \
		"$GETPID_LOOP" 200000 --pause "$TMP/ready" "$TMP/go" 200000 >"$out" &
	local pid=$!
	BACKGROUND="$BACKGROUND $pid"
	if ! wait_for 10 test -e "$TMP/ready" || ! wait_for 10 grep -q '"type":"interval"' "$out"; then
		fail churn "auditskip did not start"
		remove_rules "$KEY-full"
		return
	fi
	# auditctl -R reads a whole batch per process: many changes, few forks.
	# (Rounds end with -d lines, not auditctl -D -k: that takes every key
	# $KEY begins, $KEY-full too.)
	local batch=$TMP/batch.rules unbatch=$TMP/unbatch.rules last=$TMP/last.rules i
	: >"$batch"
	: >"$unbatch"
	: >"$last"
	for i in $(seq 1 500); do
		echo "-a always,exit -F arch=b64 -S getpid -F uid=$((4300000 + i)) -k $KEY" >>"$batch"
		echo "-a always,exit -F arch=b64 -S openat -F uid=$((4300000 + i)) -k $KEY" >>"$batch"
		echo "-d always,exit -F arch=b64 -S getpid -F uid=$((4300000 + i)) -k $KEY" >>"$batch"
		echo "-d always,exit -F arch=b64 -S openat -F uid=$((4300000 + i)) -k $KEY" >>"$unbatch"
	done
	# The last round ends in a list no earlier round left (a third of the
	# openat rules gone, getppid rules in): a mirror left at any earlier
	# listing differs from it.
	for i in $(seq 1 3 500); do
		echo "-d always,exit -F arch=b64 -S openat -F uid=$((4300000 + i)) -k $KEY" >>"$last"
		echo "-a always,exit -F arch=b64 -S getppid -F uid=$((4300000 + i)) -k $KEY" >>"$last"
	done
	began=$(date +%s.%N)
	for i in 1 2; do
		auditctl -R "$batch" >/dev/null 2>&1
		auditctl -R "$unbatch" >/dev/null 2>&1
	done
	auditctl -R "$batch" >/dev/null 2>&1
	auditctl -R "$last" >/dev/null 2>&1
	auditctl -l >"$list"
	local want_rules want_mask
	want_rules=$(expected_exit_rules <"$list")
	want_mask=$(expected_mask_hex <"$list")
	# Bounded: a listing after the last change is due within a tick or two.
	# shellcheck disable=SC2016 # expanded by the inner shell
	if wait_for 20 sh -c 'grep "\"type\":\"interval\"" "$1" | tail -n 1 |
		jq -e --arg m "$2" --argjson n "$3" ".mask_hex == \$m and .exit_rules == \$n" >/dev/null' \
		sh "$out" "$want_mask" "$want_rules"; then
		pass churn "an interval line shows the rules auditctl -l lists ($want_rules exit rules) while the workload waits"
	else
		fail churn "no interval line within 20 s showed the rules auditctl -l lists ($want_rules exit rules): last $(grep '"type":"interval"' "$out" | tail -n 1 | jq -c '{exit_rules, mirror_generation, resync}')"
	fi
	# A whole line (the next may be half written).
	line=$(grep '"type":"interval".*}$' "$out" | tail -n 1)
	check_eq churn "$(jq -r '.resync.by_reason.periodic' <<<"$line")" 0 "no periodic listing ran"
	check_eq churn "$(jq -r '.resync.by_reason.change > 0' <<<"$line")" true \
		"listings for the changes heard ($(jq -c .resync.by_reason <<<"$line"))"
	check_eq churn "$(jq -r --argjson b "$began" '.resync.listing_began >= $b' <<<"$line")" true \
		"its last listing began after the churn began"
	touch "$TMP/go"
	wait "$pid"
	check_eq churn "$?" 0 "auditskip and the workload exited cleanly"
	BACKGROUND=${BACKGROUND/ $pid/}
	check_eq churn "$(syscall_field "$out" getpid walks)" 400000 "getpid walks, as many as the workload made"
	# No rule of the test names getpid; one of the host's own may.
	local want_skip=400000
	expected_mask_has "$(ausyscall x86_64 getpid --exact)" <"$list" && want_skip=0
	check_eq churn "$(syscall_field "$out" getpid skippable_walks)" "$want_skip" \
		"skippable getpid walks (no rule of the test named getpid while it ran)"
	check_eq churn "$(jq -s '[.[] | select(.type == "interval") | .mirror_generation] |
		. == sort' "$out")" true "generation never goes back"
	check_detached churn
	remove_rules # $KEY-full too
}

run_tests
summary_line
