#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The loader's own CPU in steady state (no rule changing) with 10,000 exit
# rules loaded, against the same with none, in one run: utime + stime from
# /proc/PID/stat over RESYNC_WINDOW seconds (default 60) after RESYNC_SETTLE
# (default 10) seconds of start-up. Every syscall the loader makes walks the
# whole exit list like anyone else's, so what it costs grows with the rules
# even when it does nothing new.
#
#   bench/resync.sh [-o FILE]          (make resync-bench)
#
# BASELINE_AUDITSKIP=PATH also measures another build (e.g. main's, which
# lists every rule once a second) the same way. RESYNC_RULES changes the
# rule count. The rules (key auditskip-bench, uids no process has) are
# loaded with one auditctl -R and deleted the same way; rules and the
# enabled flag are restored at exit. Nothing else of audit's configuration
# (backlog, rate limit, auditd) is touched.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib-audit.sh

COMMAND="$0${*:+ $*}"
bench_parse_args "$@"
RULES=${RESYNC_RULES:-10000}
WINDOW=${RESYNC_WINDOW:-60}
SETTLE=${RESYNC_SETTLE:-10}
BASELINE=${BASELINE_AUDITSKIP:-}
HZ=$(getconf CLK_TCK)

bench_require "$AUDITSKIP" ${BASELINE:+"$BASELINE"}
bench_policy_save
bench_run_facts
auditctl -e 1 >/dev/null
auditctl -D >/dev/null

ADD=$BENCH_TMP/add.rules
DEL=$BENCH_TMP/del.rules
for i in $(seq 1 "$RULES"); do
	echo "-a always,exit -F arch=b64 -S openat -F uid=$((4700000 + i)) -k $BENCH_KEY"
done >"$ADD"
sed 's/^-a /-d /' "$ADD" >"$DEL"
# Deleting one by one is far cheaper than auditctl -D -k's listing and search.
bench_on_exit "[ \"\$(auditctl -l | grep -c -- 'key=$BENCH_KEY\$')\" = 0 ] || auditctl -R '$DEL' >/dev/null 2>&1 || true"


# measure NAME BINARY: sets CPU_PCT (of one CPU over the window) and, for a
# build that reports it, RESYNC (the summary's resync object).
# A build that fails to start is tried again (up to 3 times), and said so.
START_FAILURES=
measure() {
	local name=$1 bin=$2 out=$BENCH_TMP/$1.json a b pid tries=0
	while :; do
		"$bin" --json -d $((SETTLE + WINDOW + 30)) >"$out" 2>"$BENCH_TMP/$name.err" &
		pid=$!
		BENCH_CHILD_PIDS=$pid
		sleep "$SETTLE"
		kill -0 "$pid" 2>/dev/null && break
		tries=$((tries + 1))
		START_FAILURES="$START_FAILURES; $name: $(head -n 1 "$BENCH_TMP/$name.err")"
		[ "$tries" -lt 3 ] || die "$name: auditskip did not start: $(cat "$BENCH_TMP/$name.err")"
		log "$name: did not start ($(head -n 1 "$BENCH_TMP/$name.err")); again"
	done
	a=$(cpu_ticks "$pid")
	sleep "$WINDOW"
	b=$(cpu_ticks "$pid")
	kill -INT "$pid"
	wait "$pid" || true
	BENCH_CHILD_PIDS=
	CPU_PCT=$(awk -v t=$((b - a)) -v hz="$HZ" -v w="$WINDOW" 'BEGIN { printf "%.3f", t / hz / w * 100 }')
	RESYNC=$(jq -c 'select(.type == "summary") | .resync // empty' "$out")
	log "$name: $CPU_PCT% of one CPU over ${WINDOW} s${RESYNC:+; $RESYNC}"
}

measure new-0 "$AUDITSKIP"
NEW0=$CPU_PCT
BASE0=-
if [ -n "$BASELINE" ]; then
	measure base-0 "$BASELINE"
	BASE0=$CPU_PCT
fi

log "loading $RULES exit rules with auditctl -R"
t0=$(date +%s)
auditctl -R "$ADD" >"$BENCH_TMP/load.log" 2>&1 || die "cannot load the rules: $(tail -n 3 "$BENCH_TMP/load.log")"
LOAD_S=$(($(date +%s) - t0))
LOADED=$("$AUDITSKIP" rules --json | jq -r .exit_rules)
[ "$LOADED" = "$RULES" ] || die "$LOADED exit rules loaded, want $RULES"

measure new-n "$AUDITSKIP"
NEWN=$CPU_PCT
NEWN_RESYNC=$RESYNC
BASEN=-
if [ -n "$BASELINE" ]; then
	measure base-n "$BASELINE"
	BASEN=$CPU_PCT
fi

log "deleting the $RULES rules"
t0=$(date +%s)
auditctl -R "$DEL" >/dev/null 2>&1 || true
DELETE_S=$(($(date +%s) - t0))

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b == "-" || b == 0) print "-"; else printf "%.1f", a / b }'; }

report() {
	echo "# auditskip: the loader's CPU with many rules loaded"
	echo
	echo "Run $STARTED with \`$COMMAND\`: whole-machine counting (mode"
	echo "$(jq -r 'select(.type == "start") | .mode' "$BENCH_TMP/new-n.json")), no rule changing; utime + stime of the"
	echo "loader from /proc/PID/stat over ${WINDOW} s after ${SETTLE} s of start-up, as a share of one CPU."
	echo
	echo "$MACHINE"
	echo
	echo "| build | 0 rules | $RULES exit rules | ratio |"
	echo "|---|---|---|---|"
	echo "| this one ($COMMIT) | $NEW0% | $NEWN% | $(ratio "$NEWN" "$NEW0") |"
	[ -n "$BASELINE" ] && echo "| baseline (\`$BASELINE\`) | $BASE0% | $BASEN% | $(ratio "$BASEN" "$BASE0") |"
	echo
	echo "- at $RULES rules this build listed the rules $(jq -r .by_reason.periodic <<<"$NEWN_RESYNC") times in ${WINDOW} s (the periodic check), besides $(jq -r .by_reason.start <<<"$NEWN_RESYNC") times at start-up and the end; one listing took $(jq -r '.listing_cpu_s * 1000 | floor' <<<"$NEWN_RESYNC") ms of CPU, so the check ran every $(jq -r '.period_s | floor' <<<"$NEWN_RESYNC") s"
	[ -n "$BASELINE" ] && echo "- at $RULES rules this build used $(ratio "$BASEN" "$NEWN") times less CPU than the baseline"
	echo "- loading the rules (auditctl -R) took ${LOAD_S} s, deleting them ${DELETE_S} s"
	[ -n "$START_FAILURES" ] && echo "- failed starts, each tried again: ${START_FAILURES#; }"
	return 0
}

if [ -n "$OUTFILE" ]; then
	report | tee "$OUTFILE"
else
	report
fi
