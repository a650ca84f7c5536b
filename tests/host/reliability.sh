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

# Thousands of rule changes while a workload runs; afterwards the mirror
# must equal the rule list within one resync.
test_churn() {
	local out=$TMP/churn.json rules=$TMP/churn-rules.json
	rm -f "$TMP/ready" "$TMP/go"
	"$AUDITSKIP" --json -i 0.5 --sync-ms 100 -- \
		"$GETPID_LOOP" 200000 --pause "$TMP/ready" "$TMP/go" 200000 >"$out" &
	local pid=$!
	# auditctl -R reads a whole batch per process: many changes, few forks.
	local batch=$TMP/batch.rules i
	: >"$batch"
	for i in $(seq 1 500); do
		echo "-a always,exit -F arch=b64 -S getpid -F uid=$((4300000 + i)) -k $KEY" >>"$batch"
		echo "-a always,exit -F arch=b64 -S openat -F uid=$((4300000 + i)) -k $KEY" >>"$batch"
		echo "-d always,exit -F arch=b64 -S getpid -F uid=$((4300000 + i)) -k $KEY" >>"$batch"
	done
	for i in 1 2; do
		auditctl -R "$batch" >/dev/null 2>&1
		remove_rules
	done
	auditctl -R "$batch" >/dev/null 2>&1 # ends with 500 openat rules
	sleep 0.3                            # three resyncs
	"$AUDITSKIP" rules --json >"$rules"
	touch "$TMP/go"
	wait "$pid"
	check_eq churn "$?" 0 "auditskip and the workload exited cleanly"
	check_eq churn "$(summary_field "$out" mask_hex)" "$(jq -r .mask_hex "$rules")" \
		"mirror equals the rule list after churn"
	check_eq churn "$(summary_field "$out" exit_rules)" 500 "mirror rule count"
	check_eq churn "$(jq -s '[.[] | select(.type == "interval") | .mirror_generation] |
		. == sort' "$out")" true "generation never goes back"
	check_detached churn
	remove_rules
}

run_tests
summary_line
