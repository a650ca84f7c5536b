#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Soak: auditskip attached for SOAK_SECONDS (default 600) under steady
# getpid load while exit rules change every few seconds. Reports the
# loader's RSS and the BPF maps' locked memory at start and end (they must
# stay flat), lost updates, and the final getpid count against the
# workload's own.
#
#   bench/soak.sh [-o FILE]      (make soak)
#
# With SOAK_RELOAD=RULES (make soak-reload: an hour, RULES Debian's
# 30-stig), each change is a reload instead, as `augenrules --load` and
# `service auditd reload` do it: `auditctl -R` of a file that starts with
# -D and then adds the lines of RULES this host takes (and the permanent
# openat rule). Contexts go dummy for the moment the list is empty, so the
# workload's count is not the walks' then; the report holds the interval
# lines' sum to the summary, the verdict to "not stale", and gives the
# loader's CPU share and open files at start and end.
#
# A permanent openat rule keeps every context non-dummy, so each getpid the
# workload makes is one exit-filter walk. Rules and the enabled flag are
# restored on exit. No watched directory is ever removed (that would leave
# audit_n_rules stale until reboot).
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib-audit.sh

COMMAND="$0${*:+ $*}"
bench_parse_args "$@"
SOAK_SECONDS=${SOAK_SECONDS:-600}
CHANGE_EVERY=${CHANGE_EVERY:-3}

bench_require "$AUDITSKIP" "$GETPID_LOOP"
bench_policy_save
bench_run_facts
auditctl -e 1 >/dev/null
auditctl -D >/dev/null
auditctl -a always,exit -F arch=b64 -S openat -F uid=4500000 -k "$BENCH_KEY" >/dev/null
RELOAD_FILE=$BENCH_TMP/reload.rules
if [ -n "${SOAK_RELOAD:-}" ]; then
	[ -r "$SOAK_RELOAD" ] || die "cannot read $SOAK_RELOAD"
	# The lines this host takes (a dir= rule on a directory it lacks fails
	# auditctl -R as a whole), each tried on its own.
	{
		echo "-D"
		echo "-a always,exit -F arch=b64 -S openat -F uid=4500000 -k $BENCH_KEY"
		grep -E '^-[aAw] ' "$SOAK_RELOAD" | while IFS= read -r line; do
			# shellcheck disable=SC2086 # the rule's words
			auditctl $line >/dev/null 2>&1 && echo "$line"
		done
	} >"$RELOAD_FILE"
	auditctl -D >/dev/null
	auditctl -R "$RELOAD_FILE" >/dev/null || die "the reload file does not load"
fi

# open files of process $1
fds() { find "/proc/$1/fd" -mindepth 1 -maxdepth 1 | wc -l; }
# CPU seconds (user + system) process $1 has used
cpu_s() { awk -v hz="$(getconf CLK_TCK)" '{ sub(/^.*\) /, ""); print ($12 + $13) / hz }' "/proc/$1/stat"; }
# rss KiB and summed memlock of the map fds of process $1
memory() {
	local pid=$1 rss maps=0 f
	rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status")
	for f in /proc/"$pid"/fdinfo/*; do
		grep -q '^map_type:' "$f" 2>/dev/null || continue
		maps=$((maps + $(awk '/^memlock:/ { print $2 }' "$f")))
	done
	echo "$rss $((maps / 1024))"
}

OUTJ=$BENCH_TMP/soak.json
"$AUDITSKIP" --json -i 60 -- "$GETPID_LOOP" --for "$SOAK_SECONDS" >"$OUTJ" 2>"$BENCH_TMP/soak.err" &
SKIP_PID=$!
bench_on_exit "kill $SKIP_PID 2>/dev/null || true"
while ! grep -q '"type":"start"' "$OUTJ" 2>/dev/null; do
	kill -0 "$SKIP_PID" 2>/dev/null || die "auditskip did not start: $(cat "$BENCH_TMP/soak.err")"
	sleep 0.2
done
sleep 2
read -r RSS0 MAPS0 < <(memory "$SKIP_PID")
FDS0=$(fds "$SKIP_PID")
CPU0=$(cpu_s "$SKIP_PID")
T0=$(date +%s.%N)
log "attached (RSS ${RSS0} KiB, maps ${MAPS0} KiB, $FDS0 files); changing rules every ${CHANGE_EVERY} s for ${SOAK_SECONDS} s"

# Rule changes: a batch of getpid and openat rules in, then out again.
CHANGES=0
i=0
while kill -0 "$SKIP_PID" 2>/dev/null; do
	i=$((i + 1))
	if [ -n "${SOAK_RELOAD:-}" ]; then
		auditctl -R "$RELOAD_FILE" >/dev/null 2>&1 || die "reload $i failed"
		CHANGES=$((CHANGES + 1))
	elif [ $((i % 2)) = 1 ]; then
		for j in 1 2 3 4; do
			auditctl -a always,exit -F arch=b64 -S getpid -F uid=$((4510000 + j)) -k "$BENCH_KEY-soak"
			auditctl -a always,exit -F arch=b64 -S read -F uid=$((4510000 + j)) -k "$BENCH_KEY-soak"
		done >/dev/null 2>&1
		CHANGES=$((CHANGES + 8))
	else
		auditctl -D -k "$BENCH_KEY-soak" >/dev/null
		CHANGES=$((CHANGES + 8))
	fi
	# The end sample by the clock: a reload takes seconds of its own, so
	# counting changes would come short of the end.
	if [ "$(awk -v t0="$T0" -v t="$(date +%s.%N)" -v n="$((SOAK_SECONDS - 2 * CHANGE_EVERY))" 'BEGIN { print (t - t0 >= n) }')" = 1 ] &&
		[ -z "${RSS1:-}" ]; then
		read -r RSS1 MAPS1 < <(memory "$SKIP_PID")
		FDS1=$(fds "$SKIP_PID")
		CPU_SHARE=$(awk -v c0="$CPU0" -v c1="$(cpu_s "$SKIP_PID")" -v t0="$T0" -v t1="$(date +%s.%N)" \
			'BEGIN { printf "%.3f", 100 * (c1 - c0) / (t1 - t0) }')
	fi
	sleep "$CHANGE_EVERY"
done
wait "$SKIP_PID" || die "auditskip or the workload failed: $(tail -n 3 "$BENCH_TMP/soak.err")"
[ -n "${RSS1:-}" ] || die "the workload ended before the end sample was taken"

# The workload prints its count on the same stdout as auditskip's JSON.
MADE=$(grep -v '^{' "$OUTJ" | tail -n 1)
grep '^{' "$OUTJ" >"$OUTJ.lines"
mv "$OUTJ.lines" "$OUTJ"
COUNTED=$(jq -r 'select(.type == "summary") | [.syscalls[] | select(.name == "getpid" and .arch == "x86_64") | .walks] | add // 0' "$OUTJ")
INTERVALS=$(jq -s '[.[] | select(.type == "interval") | [.syscalls[] | select(.name == "getpid" and .arch == "x86_64") | .walks] | add // 0] | add // 0' "$OUTJ")
GENERATIONS=$(jq -r 'select(.type == "summary") | .mirror_generation' "$OUTJ")

report() {
	echo "# auditskip soak"
	echo
	echo "Run $STARTED with \`$COMMAND\` (build $COMMIT): ${SOAK_SECONDS} s of \`getpid_loop --for\` under auditskip"
	if [ -n "${SOAK_RELOAD:-}" ]; then
		echo "(mode $(jq -r 'select(.type == "start") | .mode' "$OUTJ")), every ${CHANGE_EVERY} s a reload: \`auditctl -R\` of -D and"
		echo "$(($(wc -l <"$RELOAD_FILE") - 1)) rules ($SOAK_RELOAD, the lines this host takes, and a permanent openat rule)."
	else
		echo "(mode $(jq -r 'select(.type == "start") | .mode' "$OUTJ")), exit rules changed every ${CHANGE_EVERY} s."
	fi
	echo
	echo "$MACHINE"
	echo
	echo "| | start | end |"
	echo "|---|---|---|"
	echo "| loader RSS | ${RSS0} KiB | ${RSS1} KiB |"
	echo "| BPF maps (memlock) | ${MAPS0} KiB | ${MAPS1} KiB |"
	echo "| open files | ${FDS0} | ${FDS1} |"
	echo
	echo "- loader CPU over the run: ${CPU_SHARE:-?}% of one CPU"
	echo "- staleness verdict at the end: $(jq -r 'select(.type == "summary") | .stale.state' "$OUTJ")"
	echo "- getpid calls the workload made: $MADE"
	if [ -n "${SOAK_RELOAD:-}" ]; then
		echo "- getpid walks auditskip counted: $COUNTED (fewer than the calls: none walks while a reload has emptied the list)"
	else
		echo "- getpid walks auditskip counted: $COUNTED ($([ "$MADE" = "$COUNTED" ] && echo "equal" || echo "DIFFERENT"))"
	fi
	echo "- sum of the interval lines: $INTERVALS ($([ "$INTERVALS" = "$COUNTED" ] && echo "equal to the summary" || echo "DIFFERENT from the summary"))"
	echo "- $([ -n "${SOAK_RELOAD:-}" ] && echo reloads || echo "rule changes") made: $CHANGES; mirror generations seen: $GENERATIONS (changes that land between two resyncs count once)"
	echo "- lost descendants: $(jq -r 'select(.type == "summary") | .lost_descendants' "$OUTJ"); missed matches: $(jq -r 'select(.type == "summary") | .missed_matches // "n/a (mode)"' "$OUTJ")"
}

if [ -n "$OUTFILE" ]; then
	report | tee "$OUTFILE"
else
	report
fi
