#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make reproduce`: the patch series' getpid table measured on this machine,
# with auditskip's prediction of the patched kernel beside it.
#
#   bench/reproduce.sh [-o FILE]      markdown on stdout (and in FILE)
#
# 1. Calibrates ns per visited exit-rule entry (user/live/calibrate.c, at
#    CAL_RULES rules; it saves, removes and restores the rules itself).
# 2. With audit on and only our rules loaded (-a always,exit -F arch=b64
#    -S openat -F uid=N, which getpid can never match), for no rules and for
#    each of RULE_COUNTS: getpid's median latency from audit_bench ("before"),
#    and auditskip's count of the rule entries getpid's skippable walks
#    visited; predicted after = before - visits per call x ns per entry.
# 3. Checks the calibration against the measurements: 256 x ns_per_entry
#    against measured(256) - measured(1).
#
# The machine's rules and enabled flag are saved first and restored on exit,
# also on failure or Ctrl-C (bench/lib-audit.sh). Environment: RULE_COUNTS
# (default "1 32 128 256"), CAL_RULES (64), LOOP_CALLS (getpid calls counted
# by auditskip, 100000), BENCH_RT (1: time at SCHED_FIFO priority 1, pinned
# to BENCH_CPU, default the last CPU), BENCH_ARGS (extra audit_bench options).
#
# The stale-accounting rows of the series (a watch or tree removed
# automatically) must never be produced on a host: they leave the kernel's
# audit_n_rules wrong until reboot. They belong in a QEMU guest.
set -euo pipefail
cd "$(dirname "$0")/.."
COMMAND="$0${*:+ $*}"
. bench/lib-audit.sh

bench_parse_args "$@"

RULE_COUNTS=${RULE_COUNTS:-"1 32 128 256"}
CAL_RULES=${CAL_RULES:-64}
LOOP_CALLS=${LOOP_CALLS:-100000}

bench_require "$AUDIT_BENCH" "$AUDITSKIP" "$GETPID_LOOP"

bench_policy_save
STARTED=$(date -u '+%Y-%m-%d %H:%M:%S UTC')

# ---------------------------------------------------------- calibration ---
CAL_JSON=$BENCH_TMP/calibration.json
for try in 1 2 3 4 5 6; do
	while [ -n "$(syscall_tracer_pids)" ]; do
		log "another process has a BPF program on the syscall tracepoints: waiting"
		sleep 10
	done
	rc=0
	# The watcher sees policy changes as "disturbed" too: calibrate itself
	# changes it, so only tracers count here.
	watch_start
	"$AUDITSKIP" calibrate --max-rules "$CAL_RULES" --cpu "$BENCH_CPU" --calibration "$CAL_JSON" -v \
		>"$BENCH_TMP/cal.out" 2>"$BENCH_TMP/cal.err" || rc=$?
	watch_stop || true
	if [ "$rc" = 0 ] && grep -q '^tracer' "$BENCH_TMP/disturbed"; then
		log "a syscall tracer was attached during calibration: $(grep '^tracer' "$BENCH_TMP/disturbed" | sort -u | head -n 2 | tr '\n' ' ')"
		rc=75
	fi
	[ "$rc" = 0 ] && break
	cat "$BENCH_TMP/cal.err" >&2
	[ "$rc" = 75 ] && [ "$try" -lt 6 ] || die "calibration failed (exit status $rc)"
	audit_rules_now | cmp -s - "$SAVED_RULES" ||
		die "rules changed by another process during calibration; not trying again"
	log "calibration disturbed or too noisy: trying again in 20 s"
	sleep 20
done
grep -v '^calibrate: pass' "$BENCH_TMP/cal.err" >&2 || true
NS_PER_ENTRY=$(jq -r '.ns_per_entry' "$CAL_JSON")
NS_CONTEXT=$(jq -r '.ns_context' "$CAL_JSON")
# The calibration must have left the saved rules and flag as they were.
audit_rules_now | cmp -s - "$SAVED_RULES" || die "rules differ after calibration"
[ "$(audit_enabled_flag)" = "$SAVED_ENABLED" ] || die "enabled flag differs after calibration"

# --------------------------------------------------------- measurements ---
auditctl -e 1 >/dev/null
auditctl -D >/dev/null
BENCH_LOADED=0

# auditskip's count of getpid's walks in a getpid_loop it starts: sets
# SCANS, SKIPPABLE, VISITS (rule entries the skippable walks visited) and
# SAVED_NS (its time model's saving for them, from this run's calibration).
count_getpid() {
	# (auditskip's own tracer is expected here; counting is not timing.)
	GUARD_TRACERS=0
	bench_guarded "$AUDITSKIP" --json --calibration "$CAL_JSON" -- "$GETPID_LOOP" "$LOOP_CALLS"
	GUARD_TRACERS=1
	read -r SCANS SKIPPABLE VISITS SAVED_NS < <(jq -r 'select(.type == "summary") |
		[.syscalls[] | select(.name == "getpid" and .arch == "x86_64")] |
		"\(map(.walks) | add // 0) \(map(.skippable_walks) | add // 0) \(map(.needless_rule_visits) | add // 0) \(map(.saved_ns) | add // 0)"' \
		"$GUARDED_OUT")
}

declare -A BEFORE AFTER SAVING PER_CALL SKIP_SHARE
log "no rules"
bench_median
NONE_NS=$MEDIAN
count_getpid
STALE_SCANS=$SCANS
# With no rules, contexts are dummy and nothing walks; walks here mean the
# kernel's audit_n_rules is stale (a watch or tree was removed automatically
# since boot), and "no rules" is not a dummy-context baseline on this host.
for n in $RULE_COUNTS; do
	log "$n exit rules"
	bench_set_rules "$n"
	bench_median
	BEFORE[$n]=$MEDIAN
	count_getpid
	[ "$SCANS" -gt 0 ] || die "auditskip counted no getpid walks with $n rules"
	PER_CALL[$n]=$(awk -v v="$VISITS" -v s="$SCANS" 'BEGIN { printf "%.2f", v / s }')
	SKIP_SHARE[$n]=$(awk -v k="$SKIPPABLE" -v s="$SCANS" 'BEGIN { printf "%.1f", 100 * k / s }')
	SAVING[$n]=$(awk -v ns="$SAVED_NS" -v s="$SCANS" 'BEGIN { printf "%.1f", ns / s }')
	AFTER[$n]=$(awk -v b="$MEDIAN" -v s="${SAVING[$n]}" 'BEGIN { printf "%.1f", b - s }')
done

# ------------------------------------------------------ guest stale rows ---
declare -A GUEST
log "stale accounting rows: booting QEMU guests (a few minutes)"
VMTEST_SUITES="stale-watch stale-tree" VMTEST_BENCH=1 tests/vm/run.sh 6.12 >"$BENCH_TMP/guest.log" 2>&1 ||
	die "guest run failed: $(tail -n 20 "$BENCH_TMP/guest.log")"
GUEST_KERNEL=$(sed -n 's/.*== 6.12-stale-watch: \(vmlinuz-[^,]*\),.*/\1/p' "$BENCH_TMP/guest.log" | head -n 1)
while read -r _ _ _ label json; do
	GUEST[$label]=$(jq -r .median_ns <<<"$json")
done < <(grep -ho 'VMTEST BENCH .*' .output/vmtest/console-6.12-stale-*.log.txt)

# ---------------------------------------------------------------- report ---
report() {
	local n
	echo "# auditskip: the patch series' getpid table on this machine"
	echo
	echo "Run $STARTED with \`$COMMAND\` (\`make reproduce\`)."
	echo
	machine_description
	echo "- timing: audit_bench median of 21 rounds x 200000 getpid calls$([ "$BENCH_RT" = 1 ] && echo ", SCHED_FIFO priority 1 pinned to CPU $BENCH_CPU" || echo ", normal priority")${BENCH_ARGS:+, extra options \`$BENCH_ARGS\`}"
	echo "- rules: \`-a always,exit -F arch=b64 -S $BENCH_SYSCALL -F uid=N\` (getpid can never match); audit enabled, no other rules"
	echo
	echo "## Calibration"
	echo
	echo "getpid's median latency with N such rules, each measured in a freshly forked child"
	echo "(5 passes up and down, lowest of the pass medians), and the least-squares slope over N >= 1:"
	echo
	printf '| rules |'
	jq -r '.points[] | " \(.rules) |"' "$CAL_JSON" | tr -d '\n'
	echo
	printf '|---|'
	jq -r '.points[] | "---|"' "$CAL_JSON" | tr -d '\n'
	echo
	printf '| getpid |'
	jq -r '.points[] | " \(.ns * 10 | round / 10) ns |"' "$CAL_JSON" | tr -d '\n'
	echo
	echo
	printf -- '- ns per visited entry: **%.2f ns**; fixed cost of a non-dummy context: %.1f ns\n' \
		"$NS_PER_ENTRY" "$NS_CONTEXT"
	echo
	echo "## Exit rules that cannot match getpid"
	echo
	echo "\"before\" is measured on this (unpatched) kernel; \"after\" is auditskip's prediction for"
	echo "the patched kernel: before minus auditskip's \`saved_ns\` per getpid call, i.e. its skippable"
	echo "walks priced by the calibration's latency curve (extended past the largest calibrated"
	echo "count along the least-squares slope of the curve's upper half)."
	echo
	printf '| exit rules | none |'
	for n in $RULE_COUNTS; do printf ' %s |' "$n"; done
	printf '\n|---|---|'
	for n in $RULE_COUNTS; do printf -- '---|'; done
	printf '\n| before (measured) | %s |' "$(fmt_ns "$NONE_NS")"
	for n in $RULE_COUNTS; do printf ' %s |' "$(fmt_ns "${BEFORE[$n]}")"; done
	printf '\n| after (predicted) | %s |' "$(fmt_ns "$NONE_NS")"
	for n in $RULE_COUNTS; do printf ' %s |' "$(fmt_ns "${AFTER[$n]}")"; done
	printf '\n| predicted saving | 0 ns |'
	for n in $RULE_COUNTS; do printf ' %s |' "$(fmt_ns "${SAVING[$n]}")"; done
	printf '\n| skippable getpid walks | - |'
	for n in $RULE_COUNTS; do printf ' %s%% |' "${SKIP_SHARE[$n]}"; done
	printf '\n| entries visited per getpid | 0 |'
	for n in $RULE_COUNTS; do printf ' %s |' "${PER_CALL[$n]}"; done
	echo
	echo
	echo "\"none\" is the baseline: audit on, no rules loaded."
	if [ "$STALE_SCANS" -gt 0 ]; then
		echo "**This host's audit_n_rules is stale**: with no rules loaded auditskip still counted"
		echo "$STALE_SCANS exit-list walks for $LOOP_CALLS getpid calls, so contexts are not dummy and"
		echo "\"none\" is not a no-rules baseline here (a watch or tree was removed automatically"
		echo "since boot; only a reboot resets it)."
	else
		echo "With no rules auditskip counted no walks for $LOOP_CALLS getpid calls: contexts were dummy,"
		echo "so audit_n_rules is not stale on this host."
	fi
	echo
	echo "## Check of the calibration"
	echo
	if [ -n "${BEFORE[1]:-}" ] && [ -n "${BEFORE[256]:-}" ]; then
		awk -v b1="${BEFORE[1]}" -v b256="${BEFORE[256]}" -v pred="${SAVING[256]}" -v cal="$CAL_RULES" 'BEGIN {
			meas = b256 - b1; err = meas != 0 ? (pred - meas) / meas * 100 : 0
			printf "- auditskip'"'"'s predicted saving per getpid with 256 rules (calibrated at %d rules): %.0f ns\n", cal, pred
			printf "- measured(256 rules) - measured(1 rule): %.0f - %.0f = %.0f ns\n", b256, b1, meas
			printf "- difference: %+.1f%%: **%s** (limit 20%%)\n", err, (err <= 20 && err >= -20) ? "within" : "NOT within"
		}'
	else
		echo "- not computed: RULE_COUNTS must include 1 and 256"
	fi
	[ "$BENCH_RETRIES" = 0 ] ||
		echo "- $BENCH_RETRIES measurement(s) were repeated: $(sort "$BENCH_TMP/retries" | uniq -c | sed 's/^ *//' | tr '\n' ';')"
	echo
	echo "## Stale accounting (automatically removed watch / tree): emulated timings"
	echo
	echo "These rows leave the kernel's audit_n_rules stale until reboot, so they run in QEMU"
	echo "guests (TCG, no KVM) booting Debian's $GUEST_KERNEL, one fresh guest per case"
	echo "(\`VMTEST_SUITES=\"stale-watch stale-tree\" VMTEST_BENCH=1 tests/vm/run.sh 6.12\`). Emulated"
	echo "nanoseconds compare only with each other. audit_bench median of 11 x 100000 getpid:"
	echo
	echo "| | no rules | stale state |"
	echo "|---|---|---|"
	printf '| automatically removed watch | %s | %s |\n' "$(fmt_ns "${GUEST[no-rules]:-}")" "$(fmt_ns "${GUEST[stale-watch]:-}")"
	printf '| automatically removed tree | %s | %s |\n' "$(fmt_ns "${GUEST[no-rules]:-}")" "$(fmt_ns "${GUEST[stale-tree]:-}")"
	echo
	echo "auditskip said stale: yes in both guests (tests/vm/guest-stale.sh checks it)."
}

if [ -n "$OUTFILE" ]; then
	report | tee "$OUTFILE"
else
	report
fi
