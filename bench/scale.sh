#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The loader at scale: with 0 (the baseline, in the same run) and then 100,
# 1,000 and 10,000 exit rules loaded, how long auditskip takes from
# exec to counting (its JSON start line), its peak RSS (VmHWM) after a few
# seconds of counting, and, up to 10,000 rules, a reload as augenrules does
# it (every rule deleted, then loaded again): how long after the reload's
# last rule the loader's interval line shows them all, and its CPU over the
# reload. Every syscall the loader makes walks the whole exit list, like
# anyone else's: that is most of what it costs at scale.
#
#   bench/scale.sh [-o FILE]       (make scale-bench)
#
# SCALE_RULES changes the rule counts (50,000 takes about 15 minutes to load
# and as long to delete), SCALE_RELOAD_MAX the largest one reloaded. Rules (key auditskip-bench, uids no process has) are loaded
# with one auditctl -R; rules and the enabled flag are restored at exit.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib-audit.sh

COMMAND="$0${*:+ $*}"
bench_parse_args "$@"
COUNTS=${SCALE_RULES:-100 1000 10000}
RELOAD_MAX=${SCALE_RELOAD_MAX:-10000}
HZ=$(getconf CLK_TCK)

bench_require "$AUDITSKIP"
bench_policy_save
bench_run_facts
auditctl -e 1 >/dev/null
auditctl -D >/dev/null

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }

# rules_files N: $BENCH_TMP/add-N.rules and del-N.rules.
rules_files() {
	local i
	for i in $(seq 1 "$1"); do
		echo "-a always,exit -F arch=b64 -S openat -F uid=$((4800000 + i)) -k $BENCH_KEY"
	done >"$BENCH_TMP/add-$1.rules"
	sed 's/^-a /-d /' "$BENCH_TMP/add-$1.rules" >"$BENCH_TMP/del-$1.rules"
}

# wait_line FILE JQ_FILTER SECONDS: until a line of FILE passes the filter.
wait_line() {
	local t=0
	until jq -e "$2" "$1" 2>/dev/null | grep -q true; do
		[ "$t" -lt $(($3 * 20)) ] || return 1
		sleep 0.05
		t=$((t + 1))
	done
}

ROWS=()
# measure N: one row of the table, with N rules loaded now.
measure() {
	local n=$1 out=$BENCH_TMP/run-$1.json t0 pid start rss catch="-" cpu="-" a b r0 lines
	t0=$(now)
	"$AUDITSKIP" --json -i 1 >"$out" 2>"$BENCH_TMP/run-$n.err" &
	pid=$!
	BENCH_CHILD_PIDS=$pid
	wait_line "$out" 'select(.type == "start") | true' 120 || die "$n rules: auditskip did not start: $(cat "$BENCH_TMP/run-$n.err")"
	start=$(since "$t0")
	sleep 5
	rss=$(awk '/^VmHWM/ { print $2 }' "/proc/$pid/status")
	if [ "$n" -gt 0 ] && [ "$n" -le "$RELOAD_MAX" ]; then
		a=$(cpu_ticks "$pid")
		r0=$(now)
		auditctl -R "$BENCH_TMP/del-$n.rules" >/dev/null 2>&1
		auditctl -R "$BENCH_TMP/add-$n.rules" >/dev/null 2>&1
		t0=$(now)
		lines=$(wc -l <"$out")
		# The first interval line written after the reload that shows every rule.
		until tail -n +"$((lines + 1))" "$out" | jq -e --argjson n "$n" \
			'select(.type == "interval" and .exit_rules == $n) | true' 2>/dev/null | grep -q true; do
			sleep 0.05
			[ "$(since "$t0" | cut -d. -f1)" -lt 60 ] || break
		done
		catch=$(since "$t0")
		b=$(cpu_ticks "$pid")
		cpu=$(awk -v t=$((b - a)) -v hz="$HZ" -v w="$(since "$r0")" 'BEGIN { printf "%.2f", t / hz / w * 100 }')
	fi
	kill -INT "$pid"
	wait "$pid" || true
	BENCH_CHILD_PIDS=
	ROWS+=("| $n | $start | $((rss / 1024)) | $catch | $cpu |")
	log "$n rules: start ${start} s, peak RSS $((rss / 1024)) MiB, reload caught up ${catch} s, CPU ${cpu}%"
}

measure 0
BASE_START=$(awk -F'|' '{ print $3 }' <<<"${ROWS[0]}")
for n in $COUNTS; do
	rules_files "$n"
	bench_on_exit "auditctl -R '$BENCH_TMP/del-$n.rules' >/dev/null 2>&1 || true"
	t0=$(now)
	auditctl -R "$BENCH_TMP/add-$n.rules" >/dev/null 2>&1 || die "cannot load $n rules"
	log "$n rules loaded in $(since "$t0") s"
	measure "$n"
	auditctl -R "$BENCH_TMP/del-$n.rules" >/dev/null 2>&1 || true
done

report() {
	echo "# auditskip at scale: start-up, memory and reloads against the number of exit rules"
	echo
	echo "Run $STARTED with \`$COMMAND\` (build $COMMIT): whole-machine counting, mode"
	echo "$(jq -r 'select(.type == "start") | .mode' "$BENCH_TMP/run-0.json"), \`-i 1\`."
	echo
	echo "$MACHINE"
	echo
	echo "| exit rules | exec to counting, s | peak RSS, MiB | reload: last rule to the interval line showing all, s | loader CPU during the reload, % of one CPU |"
	echo "|---|---|---|---|---|"
	printf '%s\n' "${ROWS[@]}"
	echo
	echo "- the first row, no rule loaded, is the baseline of this run (start-up ${BASE_START# } s)"
	echo "- a reload deletes every rule (one auditctl -R) and loads them again (another); the interval line comes once a second, so catch-up is known to about a second"
	return 0
}

if [ -n "$OUTFILE" ]; then
	report | tee "$OUTFILE"
else
	report
fi
