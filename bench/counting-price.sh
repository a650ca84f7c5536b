#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make price-bench`: how steady the price of counting is that a `--duty`
# run measures at its start (doc/duty-cycle.md#its-own-cost), against what
# a full count adds to a getpid loop, in one run.
#
#   bench/counting-price.sh [-o FILE]       markdown on stdout (and in FILE)
#
# With audit on and one exit rule that cannot match getpid:
#   quiet   STARTS (default 12) `--duty 1s/2s -d 1` runs, their calibration
#           pricing no counting, so each measures the price at its start;
#   bursts  the same beside getpid_loop bursts (0.3 s on, 0.3 s off);
#   calibrate  CALIBRATIONS (default 3) `auditskip calibrate` runs, their
#           counting price (a run that fails is counted, not priced);
#   truth   PAIRS (default 24) pairs of getpid_loop runs of LOOP_N calls
#           (default 2,000,000), one with a whole-machine count running and
#           one without, the order alternating: the CPU time a call gained.
# Each line gives the spread of its values (min, quartiles, max).
#
# The machine's rules and enabled flag are saved first and restored on
# exit (bench/lib-audit.sh). Environment: STARTS, CALIBRATIONS, PAIRS,
# LOOP_N.
set -euo pipefail
cd "$(dirname "$0")/.."
COMMAND="$0${*:+ $*}"
. bench/lib-audit.sh

bench_parse_args "$@"
STARTS=${STARTS:-12}
CALIBRATIONS=${CALIBRATIONS:-3}
PAIRS=${PAIRS:-24}
LOOP_N=${LOOP_N:-2000000}
NO_COUNTING_PRICE=tests/data/calibration-slope.json

bench_require "$AUDITSKIP" "$GETPID_LOOP"
bench_policy_save
bench_run_facts
auditctl -e 1 >/dev/null
auditctl -D >/dev/null
bench_set_rules 1

# starts FILE: STARTS duty-cycled runs' price measured at their start, one
# a line ("null" where a start found none).
starts() {
	for _ in $(seq 1 "$STARTS"); do
		"$AUDITSKIP" -m tracepoint --json -d 1 --duty 1s/2s --calibration "$NO_COUNTING_PRICE" \
			2>>"$BENCH_TMP/starts.err" | jq -r 'select(.type == "summary") | .coverage.counting_ns'
	done >"$1"
}

# Bursts of getpid calls in the background until bursts_stop.
bursts_start() {
	(while :; do
		timeout 0.3 "$GETPID_LOOP" 100000000000 >/dev/null || true
		sleep 0.3
	done) &
	BURSTS_PID=$!
	BENCH_CHILD_PIDS="${BENCH_CHILD_PIDS:-} $BURSTS_PID"
}
bursts_stop() {
	pkill -P "$BURSTS_PID" 2>/dev/null || true
	kill "$BURSTS_PID" 2>/dev/null || true
	wait "$BURSTS_PID" 2>/dev/null || true
	BENCH_CHILD_PIDS=${BENCH_CHILD_PIDS/ $BURSTS_PID/}
}

# calibrations FILE: CALIBRATIONS calibrate runs' price of counting, one a
# line ("null" for a run that failed, its reason logged: on a noisy host
# calibrate may refuse its curve).
calibrations() {
	for _ in $(seq 1 "$CALIBRATIONS"); do
		rm -f "$BENCH_TMP/cal.json"
		if "$AUDITSKIP" calibrate --max-rules 16 --calibration "$BENCH_TMP/cal.json" >"$BENCH_TMP/cal.out" 2>&1; then
			jq -r .counting.ns_added "$BENCH_TMP/cal.json"
		else
			log "calibrate failed: $(tail -n 1 "$BENCH_TMP/cal.out")"
			echo null
		fi
	done >"$1"
}

# loop_cpu_s: the CPU time (s) of LOOP_N getpid calls.
loop_cpu_s() { bench_cpu_s "$GETPID_LOOP" "$LOOP_N"; }
# truth FILE: ns a getpid gained with a full count running, a pair a line.
truth() {
	local p alone counted
	for p in $(seq 1 "$PAIRS"); do
		if [ $((p % 2)) = 1 ]; then
			alone=$(loop_cpu_s)
			bench_counter_start full -m tracepoint
			counted=$(loop_cpu_s)
			bench_counter_stop full
		else
			bench_counter_start full -m tracepoint
			counted=$(loop_cpu_s)
			bench_counter_stop full
			alone=$(loop_cpu_s)
		fi
		awk -v a="$alone" -v c="$counted" -v n="$LOOP_N" 'BEGIN { printf "%.1f\n", (c - a) / n * 1e9 }'
	done >"$1"
}

# spread NAME FILE: a table row of the values' min, quartiles and max, and
# how many lines held no value.
spread() {
	sort -g "$2" | awk -v name="$1" '$1 !~ /^-?[0-9.]+$/ { none++; next } { v[++n] = $1 }
		function q(p) { return v[int(p * (n - 1) + 0.5) + 1] }
		END {
			if (n == 0) { printf "| %s | 0 | - | - | - | - | - | %d |\n", name, none; exit }
			printf "| %s | %d | %.1f | %.1f | %.1f | %.1f | %.1f | %d |\n", name, n, v[1], q(0.25), q(0.5), q(0.75), v[n], none
		}'
}

log "$STARTS starts quiet, $STARTS beside bursts, $CALIBRATIONS calibrations, $PAIRS pairs of $LOOP_N-call loops"
starts "$BENCH_TMP/quiet"
bursts_start
starts "$BENCH_TMP/bursts"
bursts_stop
calibrations "$BENCH_TMP/calibrate"
truth "$BENCH_TMP/truth"

{
	echo "# Counting's price, measured at a run's start, against a full count ($STARTED)"
	echo
	echo "Command: \`$COMMAND\` (STARTS=$STARTS, CALIBRATIONS=$CALIBRATIONS, PAIRS=$PAIRS, LOOP_N=$LOOP_N); one exit rule that cannot match getpid; tracepoint mode; commit $COMMIT."
	echo
	echo "$MACHINE"
	echo
	echo "ns a getpid gains with the counting programs attached:"
	echo
	echo "| measure | n | min | q1 | median | q3 | max | without a price |"
	echo "|---|---|---|---|---|---|---|---|"
	spread "\`--duty\` start, quiet" "$BENCH_TMP/quiet"
	spread "\`--duty\` start, beside bursts" "$BENCH_TMP/bursts"
	spread "\`calibrate\`" "$BENCH_TMP/calibrate"
	spread "full count, getpid_loop's CPU time (truth)" "$BENCH_TMP/truth"
} | tee ${OUTFILE:+"$OUTFILE"}
