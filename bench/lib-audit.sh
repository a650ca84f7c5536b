# shellcheck shell=bash disable=SC2034
# SPDX-License-Identifier: GPL-2.0
# Shared by the host benchmarks (bash): taking the audit policy for a
# benchmark (the policy lock, then saving rules and enabled flag), loading
# N exit rules that cannot match getpid, timing getpid with audit_bench,
# counting in the background (bench_counter_start), and noticing when
# another process changed audit policy under a measurement.
#
# Every rule added here carries BENCH_KEY. Saving and restoring are
# tests/lib/common.sh's: the rules that were loaded before are saved with
# `auditctl -l` and put back with `auditctl -R`, then compared line by line;
# the enabled flag is put back last. This runs from an EXIT trap, so a
# failure or Ctrl-C restores too. log and die come from there as well.

. tests/lib/common.sh

OUT=${OUT:-.output}
BENCH_KEY=auditskip-bench
AUDIT_BENCH=$OUT/audit_bench
AUDITSKIP=$OUT/auditskip
GETPID_LOOP=$OUT/getpid_loop
# Time getpid at real-time priority, pinned (BENCH_RT=0: normal priority).
BENCH_RT=${BENCH_RT:-1}
BENCH_CPU=${BENCH_CPU:-$(($(nproc) - 1))}
BENCH_ARGS=${BENCH_ARGS:-}
BENCH_TMP=$(mktemp -d /tmp/auditskip-bench.XXXXXX)
AUDIT_KEYS=$BENCH_KEY

# The scripts' one option: -o FILE also writes the report there.
bench_parse_args() {
	OUTFILE=
	while [ $# -gt 0 ]; do
		case "$1" in
		-o)
			OUTFILE=${2:?-o needs a file}
			shift 2
			;;
		*)
			die "usage: $0 [-o FILE]"
			;;
		esac
	done
}

bench_require() {
	[ "$(id -u)" = 0 ] || die "run as root (it changes audit rules and loads BPF programs)"
	command -v auditctl >/dev/null || die "auditctl is missing (apt-get install auditd)"
	command -v jq >/dev/null || die "jq is missing (apt-get install jq)"
	local f
	for f in "$@"; do
		[ -x "$f" ] || die "$f is missing: run 'make' first"
	done
}

audit_policy_sig() { { audit_enabled_flag; audit_rules_now; } | md5sum; }

# Takes the lock and saves rules and flag (restored at exit); refuses a
# locked configuration and rules of BENCH_KEY already loaded.
bench_policy_save() {
	audit_policy_save "$BENCH_TMP" || die "$AUDIT_POLICY_ERROR"
	if grep -q -- "key=$BENCH_KEY\$" "$SAVED_RULES"; then
		die "rules with key $BENCH_KEY are loaded already (left over from an interrupted run?): remove them with 'auditctl -D -k $BENCH_KEY'"
	fi
	log "saved $(wc -l <"$SAVED_RULES") rules and audit enabled=$SAVED_ENABLED"
}

# Commands run at exit before the policy is restored (e.g. unmounting).
BENCH_EXIT_HOOKS=()
bench_on_exit() { BENCH_EXIT_HOOKS+=("$1"); }

# At exit, before the policy is restored: stop what the run started.
before_policy_restore() {
	local hook
	if [ -n "${BENCH_CHILD_PIDS:-}" ]; then
		kill -INT "$BENCH_CHILD_PIDS" 2>/dev/null
		wait "$BENCH_CHILD_PIDS" 2>/dev/null
	fi
	[ -n "${WATCH_PID:-}" ] && kill "$WATCH_PID" 2>/dev/null
	for hook in "${BENCH_EXIT_HOOKS[@]}"; do
		eval "$hook" || log "at exit, failed: $hook"
	done
}

after_policy_restore() {
	[ "$RESTORE_STATUS" = 0 ] &&
		log "restored $(wc -l <"$SAVED_RULES") rules (verified with auditctl -l)"
	log "restored audit enabled=$(audit_enabled_flag)"
	[ "$RESTORE_STATUS" = 0 ] && [ -z "$(ls "$BENCH_TMP"/*.kept 2>/dev/null)" ] &&
		rm -rf "$BENCH_TMP"
}

# bench_cpu_s CMD...: the CPU time (user + system, s) the command took.
bench_cpu_s() {
	/usr/bin/time -f '%U %S' -o "$BENCH_TMP/time" "$@" >/dev/null
	awk '{ printf "%.3f\n", $1 + $2 }' "$BENCH_TMP/time"
}

# bench_counter_start NAME ARGS...: auditskip counting the whole machine in
# the background, its JSON in $BENCH_TMP/NAME.json; returns once its start
# line is there (its programs attached). Its pid in BENCH_COUNTERS[NAME].
declare -A BENCH_COUNTERS
bench_counter_start() {
	local name=$1
	shift
	"$AUDITSKIP" --json "$@" >"$BENCH_TMP/$name.json" 2>"$BENCH_TMP/$name.err" &
	BENCH_COUNTERS[$name]=$!
	BENCH_CHILD_PIDS="${BENCH_CHILD_PIDS:-} ${BENCH_COUNTERS[$name]}"
	for _ in $(seq 1 300); do
		grep -q '"type":"start"' "$BENCH_TMP/$name.json" 2>/dev/null && return 0
		kill -0 "${BENCH_COUNTERS[$name]}" 2>/dev/null || die "$name did not start: $(tail -n 2 "$BENCH_TMP/$name.err")"
		sleep 0.1
	done
	die "$name did not start within 30 s"
}
# bench_counter_stop NAME: SIGINT, and its exit status checked; sets
# LOADER_S to the loader's CPU time (s) until then.
bench_counter_stop() {
	local pid=${BENCH_COUNTERS[$1]} ticks status=0
	ticks=$(awk '{ print $14 + $15 }' "/proc/$pid/stat")
	kill -INT "$pid"
	wait "$pid" || status=$?
	[ "$status" = 0 ] || die "$1 exited with status $status: $(tail -n 2 "$BENCH_TMP/$1.err")"
	BENCH_CHILD_PIDS=${BENCH_CHILD_PIDS/ $pid/}
	LOADER_S=$(awk -v t="$ticks" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.2f", t / hz }')
}

# Rule i: "-a always,exit -F arch=b64 -S SYSCALL -F uid=4700000+i -k BENCH_KEY".
BENCH_LOADED=0
BENCH_SYSCALL=${BENCH_SYSCALL:-openat}

# Leaves exactly N bench rules loaded (after all other rules were removed).
bench_set_rules() {
	local want=$1
	if [ "$want" -lt "$BENCH_LOADED" ]; then
		auditctl -D -k "$BENCH_KEY" >/dev/null
		BENCH_LOADED=0
	fi
	while [ "$BENCH_LOADED" -lt "$want" ]; do
		BENCH_LOADED=$((BENCH_LOADED + 1))
		auditctl -a always,exit -F arch=b64 -S "$BENCH_SYSCALL" \
			-F uid=$((4700000 + BENCH_LOADED)) -k "$BENCH_KEY" >/dev/null ||
			die "cannot add exit rule $BENCH_LOADED"
	done
}

# True when audit is on and exactly our BENCH_LOADED rules are loaded.
bench_state_ok() {
	local now n mine
	[ "$(audit_enabled_flag)" = 1 ] || return 1
	now=$(audit_rules_now)
	n=$(printf '%s' "$now" | grep -c . || true)
	mine=$(printf '%s' "$now" | grep -c -- "key=$BENCH_KEY\$" || true)
	[ "$n" = "$BENCH_LOADED" ] && [ "$mine" = "$BENCH_LOADED" ]
}

# Puts our state back after someone else changed it.
bench_reassert_state() {
	local n=$BENCH_LOADED
	auditctl -e 1 >/dev/null
	auditctl -D >/dev/null
	BENCH_LOADED=0
	bench_set_rules "$n"
}

# Processes with a BPF program on raw_syscalls:sys_enter/sys_exit (either
# way of attaching), one pid a line. Anyone else's tracer there adds its cost
# to every syscall measured, so it disturbs a measurement like a rule change.
syscall_tracer_pids() {
	bpftool perf list -j 2>/dev/null |
		jq -r '.[] | select(.tracepoint == "sys_exit" or .tracepoint == "sys_enter") | .pid' |
		sort -u
}

# Samples, every 0.2 s until stopped, whether anything but ALLOWED_PID has a
# syscall tracer and whether audit policy is still ours; writes what it saw
# to $BENCH_TMP/disturbed.
ALLOWED_PID=
GUARD_TRACERS=1
watch_start() {
	local sig
	sig=$(audit_policy_sig)
	: >"$BENCH_TMP/disturbed"
	(
		while :; do
			if [ "$GUARD_TRACERS" = 1 ]; then
				for p in $(syscall_tracer_pids); do
					[ "$p" = "${ALLOWED_PID:-}" ] ||
						echo "tracer pid $p ($(cat /proc/"$p"/comm 2>/dev/null))"
				done
			fi
			[ "$(audit_policy_sig)" = "$sig" ] || echo "audit policy changed"
			sleep 0.2
		done
	) >>"$BENCH_TMP/disturbed" 2>/dev/null &
	WATCH_PID=$!
}

watch_stop() { # true when nothing foreign was seen
	kill "$WATCH_PID" 2>/dev/null
	wait "$WATCH_PID" 2>/dev/null || true
	[ ! -s "$BENCH_TMP/disturbed" ]
}

# bench_guarded CMD...: runs CMD with its output in $GUARDED_OUT; repeats it
# when audit policy was not ours before or after, or another process had a
# syscall tracer attached meanwhile. Waits up to GUARD_WAIT seconds (default
# 900) for a quiet machine. (No subshell, so BENCH_RETRIES and BENCH_LOADED
# stay current.)
BENCH_RETRIES=0
GUARDED_OUT=$BENCH_TMP/guarded.out
bench_guarded() {
	local waited=0 why
	while [ "$waited" -le "${GUARD_WAIT:-900}" ]; do
		if ! bench_state_ok; then
			why="audit policy changed by another process"
			bench_reassert_state
		elif [ "$GUARD_TRACERS" = 1 ] &&
			[ -n "$(syscall_tracer_pids | grep -vx "${ALLOWED_PID:-none}")" ]; then
			why="another process has a BPF program on the syscall tracepoints"
		else
			watch_start
			"$@" >"$GUARDED_OUT" || {
				watch_stop
				die "failed: $*"
			}
			if watch_stop && bench_state_ok; then
				return 0
			fi
			if [ -s "$BENCH_TMP/disturbed" ]; then
				why="disturbed during the measurement: $(sort -u "$BENCH_TMP/disturbed" | head -n 3 | tr '\n' ' ')"
			else
				why="audit policy not as set after the measurement"
			fi
		fi
		BENCH_RETRIES=$((BENCH_RETRIES + 1))
		echo "$why" >>"$BENCH_TMP/retries"
		log "$why: waiting 10 s and measuring again"
		sleep 10
		waited=$((waited + 10))
	done
	die "the machine did not become quiet within ${GUARD_WAIT:-900} s; giving up"
}

# audit_bench's JSON, in a process forked now (audit must already be on).
audit_bench_json() {
	local pre=()
	[ "$BENCH_RT" = 1 ] && pre=(chrt -f 1)
	# shellcheck disable=SC2086
	"${pre[@]}" "$AUDIT_BENCH" -c "$BENCH_CPU" $BENCH_ARGS "$@" --json
}

# bench_median [audit_bench options]: sets MEDIAN (ns), guarded.
bench_median() {
	bench_guarded audit_bench_json "$@"
	MEDIAN=$(jq -r '.median_ns' "$GUARDED_OUT")
}

# bench_run_facts: STARTED (UTC), MACHINE and COMMIT (the tree's build,
# said to carry uncommitted changes when it does), for a report written
# minutes later.
bench_run_facts() {
	STARTED=$(date -u '+%Y-%m-%d %H:%M:%S UTC')
	MACHINE=$(machine_description)
	COMMIT=$(git rev-parse --short HEAD 2>/dev/null || echo '?')
	git diff --quiet HEAD 2>/dev/null || COMMIT="$COMMIT with uncommitted changes"
}

machine_description() {
	echo "- uname -a: \`$(uname -a)\`"
	echo "- nproc: $(nproc); CPU: $(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)"
	echo "- load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "- auditskip $(cat VERSION 2>/dev/null || echo '?'), commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
}

fmt_ns() { # one decimal is noise here: whole nanoseconds
	awk -v v="$1" 'BEGIN { if (v == "" || v == "-") print "-"; else printf "%.0f ns", v }'
}
