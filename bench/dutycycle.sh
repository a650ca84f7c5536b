#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make duty-bench`: what a duty cycle (--duty DUTY, default 1s/30s) costs
# and how close its estimate is, against a full count, in one run.
#
#   bench/dutycycle.sh [-o FILE]       markdown on stdout (and in FILE)
#
# With audit on and one exit rule that cannot match getpid, two workloads
# of fixed work, each pinned to the last CPU at real-time priority:
#   steady  getpid_loop, as many calls as take STEADY_S (default 60) alone;
#   bursty  the same calls in BURSTS (default 30) bursts, each followed by a
#           pause as long as the burst.
# Each cycle (CYCLES, default 2) times each workload with nothing attached,
# with a full count (auditskip, whole machine, no --duty), with --duty DUTY,
# and with
# nothing again; a tool's added time is its workload CPU time minus the mean
# of the cycle's two unattached ones, and the loader's own CPU time is read
# from /proc. Then the workload once more with the full count and the
# duty-cycled one running side by side over the same period: the duty
# cycle's estimate of the skippable walks against the full count's.
#
# CALIBRATE=0 leaves calibrate out, as on a host where it never ran: the
# duty-cycled runs then measure counting's price at their start (the
# packaged service's case).
#
# The machine's rules and enabled flag are saved first and restored on
# exit (bench/lib-audit.sh). Environment: STEADY_S, BURSTS, CYCLES,
# SIDE_REPEAT, BENCH_RT, BENCH_CPU, CALIBRATE.
set -euo pipefail
cd "$(dirname "$0")/.."
COMMAND="$0${*:+ $*}"
. bench/lib-audit.sh

bench_parse_args "$@"
STEADY_S=${STEADY_S:-60}
BURSTS=${BURSTS:-30}
CYCLES=${CYCLES:-2}
DUTY=${DUTY:-1s/30s}
CALIBRATE=${CALIBRATE:-1}
SIDE_REPEAT=${SIDE_REPEAT:-1}

bench_require "$AUDITSKIP" "$GETPID_LOOP"
bench_policy_save
bench_run_facts
auditctl -e 1 >/dev/null
auditctl -D >/dev/null
bench_set_rules 1
# What counting adds to a syscall here, for the duty cycle's correction of
# its windows (doc/duty-cycle.md): calibrate under this rule, or with
# CALIBRATE=0 the duty-cycled run's own measure at its start.
DUTY_CAL=()
if [ "$CALIBRATE" = 1 ]; then
	"$AUDITSKIP" calibrate --max-rules 16 --calibration "$BENCH_TMP/cal.json" >"$BENCH_TMP/cal.out" 2>&1 ||
		log "calibrate failed: $(tail -n 1 "$BENCH_TMP/cal.out"); the duty cycle's windows go uncorrected"
	[ -s "$BENCH_TMP/cal.json" ] && DUTY_CAL=(--calibration "$BENCH_TMP/cal.json")
fi

PIN=(taskset -c "$BENCH_CPU")
[ "$BENCH_RT" = 1 ] && PIN+=(chrt -f 1)

# cpu_s CMD...: the CPU time (s) the command took, pinned.
cpu_s() { bench_cpu_s "${PIN[@]}" "$@"; }

# The workloads: their CPU time in s.
steady() { cpu_s "$GETPID_LOOP" "$STEADY_N"; }
bursty() {
	local total=0
	for _ in $(seq 1 "$BURSTS"); do
		total=$(awk -v a="$total" -v b="$(cpu_s "$GETPID_LOOP" "$BURST_N")" 'BEGIN { print a + b }')
		sleep "$BURST_PAUSE"
	done
	echo "$total"
}

# The call count that takes STEADY_S alone.
probe=$(cpu_s "$GETPID_LOOP" 2000000)
STEADY_N=$(awk -v p="$probe" -v s="$STEADY_S" 'BEGIN { printf "%d", 2000000 * s / p }')
BURST_N=$((STEADY_N / BURSTS))
BURST_PAUSE=$(awk -v s="$STEADY_S" -v b="$BURSTS" 'BEGIN { printf "%.2f", s / b }')
log "steady: $STEADY_N getpid calls; bursty: $BURSTS bursts of $BURST_N, $BURST_PAUSE s apart; --duty $DUTY"

declare -A ADDED LOADER SHARE SPREAD
for cycle in $(seq 1 "$CYCLES"); do
	for w in steady bursty; do
		b1=$($w)
		bench_counter_start full
		t_full=$($w)
		bench_counter_stop full
		LOADER[$w,full]="${LOADER[$w,full]:-} $LOADER_S"
		bench_counter_start duty --duty "$DUTY" "${DUTY_CAL[@]}"
		t_duty=$($w)
		bench_counter_stop duty
		LOADER[$w,duty]="${LOADER[$w,duty]:-} $LOADER_S"
		SHARE[$w]="${SHARE[$w]:-} $(jq -r 'select(.type == "summary") | .coverage.covered_s / .coverage.elapsed_s' "$BENCH_TMP/duty.json")"
		b2=$($w)
		base=$(awk -v a="$b1" -v b="$b2" 'BEGIN { print (a + b) / 2 }')
		ADDED[$w,base]="${ADDED[$w,base]:-} $base"
		SPREAD[$w]="${SPREAD[$w]:-} $(awk -v a="$b1" -v b="$b2" 'BEGIN { print (a > b ? a - b : b - a) }')"
		ADDED[$w,full]="${ADDED[$w,full]:-} $(awk -v t="$t_full" -v b="$base" 'BEGIN { print t - b }')"
		ADDED[$w,duty]="${ADDED[$w,duty]:-} $(awk -v t="$t_duty" -v b="$base" 'BEGIN { print t - b }')"
		log "cycle $cycle $w: base $b1 $b2 s, full $t_full s, duty $t_duty s"
	done
done

# Side by side over the same period: the estimate against the full count.
# The full count starts first, so that the duty-cycled run prices counting
# beside it, as its windows count (a second program on the tracepoints
# costs less than the first). The getpid rounds of that pricing are not
# the workload's: what the full count's reports held before the workload
# began is taken off its total (its reports come every 0.2 s; the rounds
# ended before the duty-cycled run's start line, 0.5 s earlier).
declare -A EST
for w in steady bursty; do
	bench_counter_start full -i 0.2
	bench_counter_start duty --duty "$DUTY" "${DUTY_CAL[@]}"
	sleep 0.5
	before=$(jq -s '[.[] | select(.type == "interval") | .skippable_walks] | add // 0' "$BENCH_TMP/full.json")
	for _ in $(seq 1 "$SIDE_REPEAT"); do $w >/dev/null; done
	bench_counter_stop duty
	bench_counter_stop full
	EST[$w,before]=$before
	EST[$w,full]=$(jq -r --argjson b "$before" 'select(.type == "summary") | .skippable_walks - $b' "$BENCH_TMP/full.json")
	EST[$w,est]=$(jq -r 'select(.type == "summary") | .coverage.estimated_skippable_walks' "$BENCH_TMP/duty.json")
	EST[$w,se]=$(jq -r 'select(.type == "summary") | .coverage.estimated_skippable_walks_stderr' "$BENCH_TMP/duty.json")
	EST[$w,cov]=$(jq -r 'select(.type == "summary") | "\(.coverage.covered_s) of \(.coverage.elapsed_s) s, \(.coverage.windows) windows"' "$BENCH_TMP/duty.json")
	EST[$w,corr]=$(jq -r 'select(.type == "summary") | .coverage.correction' "$BENCH_TMP/duty.json")
	EST[$w,price]=$(jq -r 'select(.type == "summary") | .coverage | "\(.counting_ns) ns, \(.counting_price)"' "$BENCH_TMP/duty.json")
done

mean() { tr ' ' '\n' | awk 'NF { s += $1; n++ } END { if (n) printf "%.3f", s / n; else print "-" }'; }
report() {
	echo "# Duty cycle against a full count ($STARTED)"
	echo
	echo "Command: \`$COMMAND\` (CYCLES=$CYCLES, STEADY_S=$STEADY_S, BURSTS=$BURSTS, SIDE_REPEAT=$SIDE_REPEAT, BENCH_RT=$BENCH_RT, CALIBRATE=$CALIBRATE);"
	echo "options: \`--duty $DUTY\`; one exit rule that cannot"
	echo "match getpid; commit $COMMIT."
	echo
	echo "$MACHINE"
	echo
	echo "Workload CPU time added (s, mean over cycles; the workload alone: the base),"
	echo "the loaders' own CPU time (s) over the same runs, the share of the duty-cycled"
	echo "run its windows covered, and the noise: the largest difference between a"
	echo "cycle's two unattached runs, as a share of what the full count added (the"
	echo "duty / full ratio cannot be told closer than that):"
	echo
	echo "| workload | base | full count adds | duty cycle adds | duty / full | loader CPU, full | loader CPU, duty | windows' share | noise |"
	echo "|---|---|---|---|---|---|---|---|---|"
	for w in steady bursty; do
		local base full duty spread
		base=$(mean <<<"${ADDED[$w,base]}")
		full=$(mean <<<"${ADDED[$w,full]}")
		duty=$(mean <<<"${ADDED[$w,duty]}")
		spread=$(tr ' ' '\n' <<<"${SPREAD[$w]}" | awk 'NF && $1 > m { m = $1 } END { print m + 0 }')
		echo "| $w | $base | $full | $duty | $(awk -v d="$duty" -v f="$full" 'BEGIN { if (f > 0) printf "%.3f", d / f; else print "-" }') | $(mean <<<"${LOADER[$w,full]}") | $(mean <<<"${LOADER[$w,duty]}") | $(mean <<<"${SHARE[$w]}") | $(awk -v s="$spread" -v f="$full" 'BEGIN { if (f > 0) printf "%.3f", s / f; else print "-" }') |"
	done
	echo
	echo "Per cycle (s): $(for w in steady bursty; do printf '%s full:%s duty:%s base:%s; ' "$w" "${ADDED[$w,full]}" "${ADDED[$w,duty]}" "${ADDED[$w,base]}"; done)"
	echo
	echo "Skippable walks over the same period, both tools running side by side (the"
	echo "full count started first; its walks before the workload began, the duty-cycled"
	echo "run's pricing among them, taken off); the duty cycle's windows corrected for"
	echo "the time counting took from CPUs left no idle time (correction, at the price"
	echo "of counting the duty-cycled run used: calibrated, or measured at its start"
	echo "with CALIBRATE=0):"
	echo
	echo "| workload | full count | taken off | duty-cycle estimate | +/- (1 s.e.) | estimate / full | correction | uncorrected / full | counting's price | covered |"
	echo "|---|---|---|---|---|---|---|---|---|---|"
	for w in steady bursty; do
		echo "| $w | ${EST[$w,full]} | ${EST[$w,before]} | ${EST[$w,est]} | ${EST[$w,se]} | $(awk -v e="${EST[$w,est]}" -v f="${EST[$w,full]}" 'BEGIN { if (f > 0 && e != "null") printf "%.3f", e / f; else print "-" }') | ${EST[$w,corr]} | $(awk -v e="${EST[$w,est]}" -v c="${EST[$w,corr]}" -v f="${EST[$w,full]}" 'BEGIN { if (f > 0 && e != "null") printf "%.3f", e / (c == "null" ? 1 : c) / f; else print "-" }') | ${EST[$w,price]} | ${EST[$w,cov]} |"
	done
}
report | tee ${OUTFILE:+"$OUTFILE"}
