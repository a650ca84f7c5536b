#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make overhead`: what auditskip itself adds to every syscall, against
# bpftrace counting the same event, in one run.
#
#   bench/overhead.sh [-o FILE]       markdown on stdout (and in FILE)
#
# With audit on and 1, then 1024 exit rules that cannot match getpid, times
# getpid (audit_bench) with nothing attached, with auditskip attached to the
# whole machine in every mode that loads here, and with
#   bpftrace -e 'tracepoint:raw_syscalls:sys_exit { @[tid] = count(); }'
# and, as floors, with one empty raw tracepoint program on sys_enter (that
# of tracepoint mode's design), one on each of sys_enter and sys_exit (that
# of a design with a program at each edge; bench/empty_probes.c), and
# bpftrace's program emptied; CYCLES times over (default 5), each cycle
# timing nothing attached before and after the tools; a tool's added cost is the median
# over cycles of its time minus the mean of that cycle's two unattached
# times. Also reports the loader's resident memory, its CPU use, and the
# memory of its BPF maps.
#
# The machine's rules and enabled flag are saved first and restored on exit,
# also on failure or Ctrl-C (bench/lib-audit.sh). Environment: RULE_SETS
# (default "1 1024"), MODES (default: all four), CYCLES, ROUND_MS (length of
# one audit_bench round, default 50), BENCH_RT, BENCH_CPU, BENCH_ARGS.
set -euo pipefail
cd "$(dirname "$0")/.."
COMMAND="$0${*:+ $*}"
. bench/lib-audit.sh

bench_parse_args "$@"

RULE_SETS=${RULE_SETS:-"1 1024"}
MODES=${MODES:-"filter-op filter-syscall syscall-exit tracepoint"}
CYCLES=${CYCLES:-5}
ROUND_MS=${ROUND_MS:-50}
BPFTRACE_PROG='tracepoint:raw_syscalls:sys_exit { @[tid] = count(); }'
BPFTRACE_EMPTY='tracepoint:raw_syscalls:sys_exit { }'
EMPTY_PROBES=$OUT/empty_probes

bench_require "$AUDIT_BENCH" "$AUDITSKIP" "$EMPTY_PROBES"
if ! command -v bpftrace >/dev/null; then
	log "installing bpftrace"
	export DEBIAN_FRONTEND=noninteractive
	apt-get install -y -q bpftrace >/dev/null 2>&1 ||
		{ apt-get update -q >/dev/null 2>&1 && apt-get install -y -q bpftrace >/dev/null 2>&1; } ||
		die "cannot install bpftrace"
fi
BPFTRACE_VERSION=$(bpftrace --version 2>/dev/null | head -n 1)

bench_policy_save
# bpftrace finds tracepoints through tracefs (auditskip does not need it).
if [ ! -d /sys/kernel/tracing/events/raw_syscalls ] && [ ! -d /sys/kernel/debug/tracing/events/raw_syscalls ]; then
	mount -t tracefs tracefs /sys/kernel/tracing || die "cannot mount tracefs (bpftrace needs it)"
	bench_on_exit 'umount /sys/kernel/tracing'
fi
STARTED=$(date -u '+%Y-%m-%d %H:%M:%S UTC')
auditctl -e 1 >/dev/null
auditctl -D >/dev/null
BENCH_LOADED=0

# ------------------------------------------------------------ tools ---

TOOL_PID=
BENCH_CHILD_PIDS=

# Memory of a process's BPF maps (sum of fdinfo memlock) and their names.
map_memlock() {
	local pid=$1 f total=0 m id names=()
	for f in /proc/"$pid"/fdinfo/*; do
		grep -q '^map_type:' "$f" 2>/dev/null || continue
		m=$(awk '$1 == "memlock:" { print $2 }' "$f")
		id=$(awk '$1 == "map_id:" { print $2 }' "$f")
		total=$((total + ${m:-0}))
		names+=("$(bpftool map show id "$id" -j 2>/dev/null | jq -r '.name // "?"'):$m")
	done
	echo "$total ${names[*]}"
}

tool_alive() { kill -0 "$1" 2>/dev/null || die "the tool (pid $1) exited during the measurement"; }
# The tool's CPU time and memory, read only while it still runs.
tool_ticks() { tool_alive "$1" && cpu_ticks "$1"; }
tool_rss() { tool_alive "$1" && rss_of "$1"; }

# start_tool NAME: starts it in the background and waits until it counts;
# sets TOOL_PID, or returns 1 with the reason in $BENCH_TMP/tool.err.
start_tool() {
	local name=$1 i
	TOOL_NAME=$name
	: >"$BENCH_TMP/tool.out"
	: >"$BENCH_TMP/tool.err"
	case "$name" in
	bpftrace)
		bpftrace -e "$BPFTRACE_PROG" >"$BENCH_TMP/tool.out" 2>"$BENCH_TMP/tool.err" &
		;;
	bpftrace-empty)
		bpftrace -e "$BPFTRACE_EMPTY" >"$BENCH_TMP/tool.out" 2>"$BENCH_TMP/tool.err" &
		;;
	raw-enter | raw-both)
		"$EMPTY_PROBES" "${name#raw-}" >"$BENCH_TMP/tool.out" 2>"$BENCH_TMP/tool.err" &
		;;
	*)
		"$AUDITSKIP" -m "$name" --json >"$BENCH_TMP/tool.out" 2>"$BENCH_TMP/tool.err" &
		;;
	esac
	TOOL_PID=$!
	BENCH_CHILD_PIDS=$TOOL_PID
	ALLOWED_PID=$TOOL_PID	# its tracer is the one being measured
	for _ in $(seq 1 300); do
		if ! kill -0 "$TOOL_PID" 2>/dev/null; then
			wait "$TOOL_PID" 2>/dev/null || true
			TOOL_PID=
			BENCH_CHILD_PIDS=
			ALLOWED_PID=
			return 1
		fi
		case "$name" in
		bpftrace*) grep -q '^Attaching' "$BENCH_TMP/tool.out" && break ;;
		raw-*) grep -q '^attached' "$BENCH_TMP/tool.out" && break ;;
		*) grep -q '"type": *"start"' "$BENCH_TMP/tool.out" && break ;;
		esac
		sleep 0.1
	done
	# Let the loader's first resync and the attach settle.
	sleep 1
}

# stop_tool: SIGINT, as a person stops a tool. One that has not ended 10 s
# later gets SIGTERM, then SIGKILL, and the log says so: bpftrace once took
# a SIGINT it never acted on and the bench waited for it for ten minutes.
stop_tool() {
	local sig
	[ -n "$TOOL_PID" ] || return 0
	kill -INT "$TOOL_PID" 2>/dev/null || true
	for sig in TERM KILL; do
		for _ in $(seq 1 100); do
			kill -0 "$TOOL_PID" 2>/dev/null || break 2
			sleep 0.1
		done
		log "$TOOL_NAME did not end 10 s after SIGINT: sending SIG$sig"
		kill -s "$sig" "$TOOL_PID" 2>/dev/null || true
	done
	wait "$TOOL_PID" 2>/dev/null || true
	TOOL_PID=
	BENCH_CHILD_PIDS=
	ALLOWED_PID=
}

# ------------------------------------------------------------ measure ---

declare -A ADDED LOADABLE REFUSED RSS MAPS CPU BASE
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print ""; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

for mode in $MODES; do
	if start_tool "$mode"; then
		LOADABLE[$mode]=1
		stop_tool
	else
		REFUSED[$mode]=$(grep -v '^\s*$' "$BENCH_TMP/tool.err" | tail -n 1 | cut -c1-160)
		log "mode $mode does not load here: ${REFUSED[$mode]}"
	fi
done
TOOLS=()
for mode in $MODES; do [ -n "${LOADABLE[$mode]:-}" ] && TOOLS+=("$mode"); done
[ ${#TOOLS[@]} -gt 0 ] || die "auditskip loads in no mode here"
# The floors of the designs themselves: one empty raw tracepoint program
# (sys_enter), one at each syscall edge, and bpftrace's own empty program.
TOOLS+=(raw-enter raw-both bpftrace-empty bpftrace)

for rules in $RULE_SETS; do
	log "$rules exit rules"
	bench_set_rules "$rules"
	# Rounds of about ROUND_MS whatever the list length.
	bench_guarded audit_bench_json -n 5000 -r 3 -w 1
	per_call=$(jq -r '.median_ns' "$GUARDED_OUT")
	iters=$(awk -v ns="$per_call" -v ms="$ROUND_MS" 'BEGIN { n = int(ms * 1e6 / ns); print n < 1000 ? 1000 : n }')
	for tool in base "${TOOLS[@]}"; do : >"$BENCH_TMP/added-$rules-$tool"; done
	for cycle in $(seq 1 "$CYCLES"); do
		bench_median -n "$iters"
		b1=$MEDIAN
		declare -A T=()
		for tool in "${TOOLS[@]}"; do
			start_tool "$tool" || die "$tool did not start: $(tail -n 2 "$BENCH_TMP/tool.err")"
			ticks0=$(tool_ticks "$TOOL_PID")
			t0=$(date +%s.%N)
			bench_median -n "$iters"
			T[$tool]=$MEDIAN
			if [ "$cycle" = 1 ]; then
				ticks1=$(tool_ticks "$TOOL_PID")
				t1=$(date +%s.%N)
				RSS[$rules,$tool]=$(tool_rss "$TOOL_PID")
				MAPS[$rules,$tool]=$(map_memlock "$TOOL_PID")
				CPU[$rules,$tool]=$(awk -v a="$ticks0" -v b="$ticks1" -v t0="$t0" -v t1="$t1" \
					-v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.1f", 100 * (b - a) / hz / (t1 - t0) }')
			fi
			stop_tool
		done
		bench_median -n "$iters"
		b2=$MEDIAN
		base=$(awk -v a="$b1" -v b="$b2" 'BEGIN { print (a + b) / 2 }')
		echo "$base" >>"$BENCH_TMP/added-$rules-base"
		for tool in "${TOOLS[@]}"; do
			awk -v t="${T[$tool]}" -v b="$base" 'BEGIN { print t - b }' >>"$BENCH_TMP/added-$rules-$tool"
		done
		log "  cycle $cycle: nothing $b1 / $b2 ns; $(for tool in "${TOOLS[@]}"; do printf '%s %s ns; ' "$tool" "${T[$tool]}"; done)"
	done
	BASE[$rules]=$(median <"$BENCH_TMP/added-$rules-base")
	for tool in "${TOOLS[@]}"; do
		ADDED[$rules,$tool]=$(median <"$BENCH_TMP/added-$rules-$tool")
	done
done

# ---------------------------------------------------------------- report ---
signed() { awk -v v="$1" 'BEGIN { printf "%+.0f ns", v }'; }

tool_label() {
	case "$1" in
	bpftrace) echo bpftrace ;;
	bpftrace-empty) echo "bpftrace, empty program" ;;
	raw-enter) echo "one empty raw_tp (sys_enter)" ;;
	raw-both) echo "two empty raw_tp (sys_enter, sys_exit)" ;;
	*) echo "auditskip ($1)" ;;
	esac
}

report() {
	local rules tool first last
	echo "# auditskip: overhead per syscall against bpftrace"
	echo
	echo "Run $STARTED with \`$COMMAND\` (\`make overhead\`)."
	echo
	machine_description
	echo "- $BPFTRACE_VERSION: \`bpftrace -e '$BPFTRACE_PROG'\`"
	echo "- auditskip: \`auditskip -m MODE --json\` (whole machine, resync every 250 ms)"
	echo "- timing: audit_bench median of 21 rounds of about $ROUND_MS ms$([ "$BENCH_RT" = 1 ] && echo ", SCHED_FIFO priority 1 pinned to CPU $BENCH_CPU"); audit on; rules \`-a always,exit -F arch=b64 -S $BENCH_SYSCALL -F uid=N\` (getpid never matches)"
	echo "- each of $CYCLES cycles: nothing attached, each tool in turn, nothing attached again;"
	echo "  added = median over cycles of (tool - mean of the cycle's two unattached medians),"
	echo "  with the range over cycles in brackets; \"nothing attached\" is the median of those means"
	echo
	echo "## Added ns per getpid"
	echo
	printf '| exit rules | nothing attached |'
	for tool in "${TOOLS[@]}"; do printf ' %s |' "$(tool_label "$tool")"; done
	printf ' auditskip / bpftrace |\n|---|---|'
	for tool in "${TOOLS[@]}"; do printf -- '---|'; done
	printf -- '---|\n'
	for rules in $RULE_SETS; do
		printf '| %s | %s |' "$rules" "$(fmt_ns "${BASE[$rules]}")"
		for tool in "${TOOLS[@]}"; do
			printf ' %s (%s) |' "$(signed "${ADDED[$rules,$tool]}")" \
				"$(sort -g "$BENCH_TMP/added-$rules-$tool" | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%+.0f..%+.0f", lo, hi }')"
		done
		printf ' %s |\n' "$(awk -v a="${ADDED[$rules,${TOOLS[0]}]}" -v b="${ADDED[$rules,bpftrace]}" \
			'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')"
	done
	echo
	for mode in $MODES; do
		[ -n "${REFUSED[$mode]:-}" ] && echo "- mode $mode does not load here: \`${REFUSED[$mode]}\`"
	done
	echo
	echo "## Memory and CPU of the tools (first cycle)"
	echo
	echo "| exit rules | tool | resident (VmRSS) | BPF maps (memlock) | maps | tool's own CPU |"
	echo "|---|---|---|---|---|---|"
	for rules in $RULE_SETS; do
		for tool in "${TOOLS[@]}"; do
			read -r mem names <<<"${MAPS[$rules,$tool]}"
			printf '| %s | %s | %s KiB | %s KiB | %s | %s%% |\n' "$rules" \
				"$(tool_label "$tool")" \
				"${RSS[$rules,$tool]}" "$((mem / 1024))" "${names:-}" "${CPU[$rules,$tool]}"
		done
	done
	echo
	echo "## Goals"
	echo
	set -- $RULE_SETS
	first=$1
	last=${!#}
	range() { sort -g "$BENCH_TMP/added-$1-$2" | awk 'NR == 1 { lo = $1 } { hi = $1 } END { print lo, hi }'; }
	echo "- added cost as a fraction of bpftrace's (goal for tracepoint mode: at most 0.50): $(for rules in $RULE_SETS; do
		printf '%s rules:' "$rules"
		for tool in tracepoint raw-enter raw-both bpftrace-empty; do
			[ -n "${ADDED[$rules,$tool]:-}" ] || continue
			awk -v l="$(tool_label "$tool")" -v a="${ADDED[$rules,$tool]}" -v b="${ADDED[$rules,bpftrace]}" \
				'BEGIN { printf " %s %.2f,", l, (b > 0 ? a / b : 0) }'
		done
		printf '; '
	done)"
	echo "  Tracepoint mode has one program, on sys_enter (it counts each walk at the task's next entry:"
	echo "  doc/modes.md); \"one empty raw_tp\" is that design's floor, \"two empty raw_tp\" the"
	echo "  floor of a design with a program at each syscall edge."
	for tool in "${TOOLS[@]}"; do
		case "$tool" in raw-* | bpftrace*) continue ;; esac
		[ "$tool" = tracepoint ] &&
			echo "- tracepoint mode's own work (auditskip minus one empty raw_tp on sys_enter): $(for rules in $RULE_SETS; do
				awk -v r="$rules" -v a="${ADDED[$rules,tracepoint]}" -v f="${ADDED[$rules,raw-enter]}" -v b="${ADDED[$rules,bpftrace]}" \
					'BEGIN { printf "%s rules %+.0f ns (empty program %.2f of bpftrace, auditskip %.2f); ", r, a - f, f / b, a / b }'
			done)"
		# A verdict only where the spread over cycles is smaller than the
		# difference it would decide.
		awk -v t="$tool" -v f="$first" -v l="$last" \
			-v a1="${ADDED[$first,$tool]}" -v b1="${ADDED[$first,bpftrace]}" \
			-v an="${ADDED[$last,$tool]}" -v bn="${ADDED[$last,bpftrace]}" \
			-v ra1="$(range "$first" "$tool")" -v rb1="$(range "$first" bpftrace)" \
			-v ran="$(range "$last" "$tool")" -v rbn="$(range "$last" bpftrace)" '
		function less(a, b, ra, rb,   x, y) {
			split(ra, x, " "); split(rb, y, " ")
			if (x[2] < y[1]) return "yes"
			if (x[1] > y[2]) return "NO"
			return (a < b ? "probably (medians)" : "NO (medians)") ", but the ranges over cycles overlap"
		}
		BEGIN {
			printf "- auditskip (%s) adds less than bpftrace: with %s rule(s) %s (%.0f vs %.0f ns); with %s rules %s (%.0f vs %.0f ns)\n",
				t, f, less(a1, b1, ra1, rb1), a1, b1, l, less(an, bn, ran, rbn), an, bn
			split(ran, x, " "); split(ra1, y, " ")
			d = a1 != 0 ? (an - a1) / a1 * 100 : 0
			if (x[2] - x[1] > 0.2 * (a1 > 0 ? a1 : -a1) || y[2] - y[1] > 0.2 * (a1 > 0 ? a1 : -a1))
				verdict = sprintf("cannot tell here: the ranges over cycles (%+.0f..%+.0f and %+.0f..%+.0f ns) are wider than 10%% of %.0f ns", y[1], y[2], x[1], x[2], a1)
			else
				verdict = (d <= 10 && d >= -10) ? "yes" : "NO"
			printf "- its added cost with %s rules within 10%% of that with %s: %s (medians %+.0f ns, %+.1f%%)\n",
				l, f, verdict, an - a1, d
		}'
	done
	[ "$BENCH_RETRIES" = 0 ] ||
		echo "- $BENCH_RETRIES measurement(s) were repeated: $(sort "$BENCH_TMP/retries" | uniq -c | sed 's/^ *//' | tr '\n' ';')"
}

if [ -n "$OUTFILE" ]; then
	report | tee "$OUTFILE"
else
	report
fi
