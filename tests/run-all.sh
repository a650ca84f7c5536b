#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The whole suite: unit tests, host tests (tracepoint mode on this kernel),
# guest tests (every mode on Debian's kernels, beside the host tests). Each suite
# ends with "N passed, N failed"; this adds them up into the last line.
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-.output}
passed=0
failed=0

# run_suite NAME COMMAND...: shows the suite's output, adds its counts.
run_suite() {
	local name=$1 log
	shift
	log=$(mktemp)
	echo "=== $name"
	"$@" 2>&1 | tee "$log"
	local status=${PIPESTATUS[0]}
	local line p f
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
	if [ -n "$line" ]; then
		p=${line%% passed*}
		f=${line#*passed, }
		f=${f%% failed*}
	else
		p=0
		f=1
		echo "FAIL $name: the suite ended without a summary line (exit $status)"
	fi
	[ "$status" != 0 ] && [ "$f" = 0 ] && f=1 && echo "FAIL $name: exit status $status"
	passed=$((passed + p))
	failed=$((failed + f))
	rm -f "$log"
}

# tap_results SUITE: cmocka's TAP output (CMOCKA_MESSAGE_OUTPUT=TAP) on
# stdin, as the common result lines: "ok N - test" becomes "PASS SUITE: test";
# "not ok N - test" and the "# ..." lines under it become one
# "FAIL SUITE: test: message"; a run that stops short of its plan fails.
tap_results() {
	awk -v suite="$1" '
		function flush() {
			if (failing != "")
				print "FAIL " suite ": " failing ": " (why == "" ? "failed" : why)
			failing = ""
			why = ""
		}
		/^1\.\.[0-9]+$/ { plan = substr($0, 4) + 0; next }
		/^# (not )?ok - / { flush(); next }
		/^(not )?ok [0-9]+ - / {
			flush()
			seen++
			name = $0
			sub(/^(not )?ok [0-9]+ - /, "", name)
			if ($1 == "ok")
				print "PASS " suite ": " name
			else
				failing = name
			next
		}
		failing != "" && /^# / { why = why (why == "" ? "" : "; ") substr($0, 3); next }
		{ print }
		END {
			flush()
			if (plan == "" || seen != plan)
				print "FAIL " suite ": ran " seen + 0 " of " (plan == "" ? "?" : plan) " tests"
		}'
}

# Every unit test binary, its results counted into the common closing line.
unit_tests() {
	local t name out status=0
	out=$(mktemp)
	for t in "$OUT"/test_*; do
		name=$(basename "$t")
		if [ ! -x "$t" ]; then
			echo "FAIL unit tests: no $OUT/test_* binary (make $OUT/test_mask ...)"
			status=1
			continue
		fi
		CMOCKA_MESSAGE_OUTPUT=TAP "$t" 2>&1 | tap_results "$name" | tee -a "$out"
		[ "${PIPESTATUS[0]}" = 0 ] || status=1
	done
	echo "$(grep -c '^PASS ' "$out") passed, $(grep -c '^FAIL ' "$out") failed"
	rm -f "$out"
	return $status
}

# Unformatted code fails the run like a failing test.
format_check() {
	local out
	out=$(make -s format-check)
	echo "$out"
	echo "$(echo "$out" | grep -c '^PASS ') passed, $(echo "$out" | grep -c '^FAIL ') failed"
}

# The guests change no host state and take one host thread each (TCG): two
# lanes of them (tests/vm/run.sh, VMTEST_LANE) run beside the host suites,
# their output shown when they are done. Each in a session of its own, so
# that stopping the suite stops their QEMUs.
GUEST_PIDS=()
GUEST_LOGS=()
for lane in 1 2; do
	GUEST_LOGS+=("$(mktemp)")
	VMTEST_LANE=$lane/2 VMTEST_LOGDIR="$OUT/vmtest/lane$lane" \
		setsid tests/vm/run.sh >"${GUEST_LOGS[-1]}" 2>&1 &
	GUEST_PIDS+=($!)
done
# The kernel A/B (doc/kernel-ab.md) on 6.12, its main and corpus checks: the
# patched kernel's own walks against auditskip's count in every mode. The two
# kernels are built at the lowest priority, so that the suites beside the
# build keep their pace, and kept in KERNEL_AB_KERNELS: a machine builds them
# once (some 15 CPU minutes), until the source, config, compiler or patches
# change. Its four guests boot when the other guests are done. The archperm
# designs' kernels are left to `make kernel-ab` (doc/kernel-ab.md): four
# more boots would take the run past its hour.
KERNEL_AB_LOG=$(mktemp)
LANE_PIDS="${GUEST_PIDS[*]}" KERNEL_AB_KERNELS=${KERNEL_AB_KERNELS:-/var/cache/auditskip/kernels} \
	KERNEL_AB_TESTS="main corpus" KERNEL_AB_DESIGNS=none setsid bash -c '
		nice -n 19 tests/kernel-ab/build-kernels.sh 6.12 || exit 1
		for p in $LANE_PIDS; do while kill -0 "$p" 2>/dev/null; do sleep 5; done; done
		exec tests/kernel-ab/run.sh 6.12' >"$KERNEL_AB_LOG" 2>&1 &
GUEST_PIDS+=($!)
GUEST_LOGS+=("$KERNEL_AB_LOG")
trap 'for p in "${GUEST_PIDS[@]}"; do kill -- -"$p" 2>/dev/null; done; rm -f "${GUEST_LOGS[@]}"' EXIT

run_suite "format (clang-format, .clang-format)" format_check
run_suite "layering (includes by folder, scripts/check-layers.sh)" scripts/check-layers.sh
run_suite "unit tests" unit_tests
run_suite "offline commands without libbpf (host, as nobody)" tests/host/offline.sh
run_suite "rule text read back (host, offline)" tests/host/ruletext.sh
run_suite "kernel tables: current upstream rule sets, --kernel (host, offline)" tests/host/tables.sh
run_suite "Prometheus rules and dashboard (promtool, no root)" tests/host/prometheus-rules.sh
run_suite "a fleet of three pages in one box (Prometheus, no root)" tests/host/fleet.sh
run_suite "fuzz regression inputs (libFuzzer harnesses, ASan and UBSan)" fuzz/run.sh regress
run_suite "host tests (tracepoint mode, $(uname -r))" tests/host/run.sh
run_suite "reliability (host)" tests/host/reliability.sh
run_suite "resync under rule floods (host)" tests/host/resync.sh
run_suite "duty cycle and nothing attached while nothing walks (host)" tests/host/duty.sh
run_suite "metrics and JSON schema (host)" tests/host/metrics.sh
run_suite "endpoint: privileges, hostile clients, TLS (host)" tests/host/endpoint.sh
run_suite "exactness on real workloads (host)" tests/host/exactness.sh
run_suite "profiles and what-ifs (host)" tests/host/whatif.sh
run_suite "package, service, textfile (host)" tests/host/package.sh
run_suite "rules files read as the kernel lists them (host)" tests/host/rulesfile.sh
run_suite "rule advisor (host)" tests/host/advise.sh
run_suite "nothing lost: advise's files keep every record, load whole (host)" tests/host/nothing-lost.sh
run_suite "calibrate as an admin meets it: clean report, Ctrl-C (host)" tests/host/calibrate.sh
run_suite "help, man page, messages and numbers (offline)" tests/host/surface.sh
run_suite "named mutants, the quick ones: each must fail its suite (tests/mutants)" tests/mutants/run.sh --quick
# Waited for here, not in run_suite's pipeline: a subshell cannot wait for
# its parent's child.
GUEST_STATUS=()
for p in "${GUEST_PIDS[@]}"; do
	s=0
	wait "$p" || s=$?
	GUEST_STATUS+=("$s")
done
guest_lane() {
	cat "${GUEST_LOGS[$1 - 1]}"
	return "${GUEST_STATUS[$1 - 1]}"
}
run_suite "guest tests, lane 1 of 2 (QEMU, Debian kernels)" guest_lane 1
run_suite "guest tests, lane 2 of 2 (QEMU, Debian kernels)" guest_lane 2
run_suite "kernel A/B: 6.12 unpatched and patched (QEMU, main and corpus, every mode)" guest_lane 3
run_suite "timing under -icount: calibrate against audit_bench, the model's saving against the patched 6.12 kernel's (QEMU)" env KERNEL_AB_KERNELS="${KERNEL_AB_KERNELS:-/var/cache/auditskip/kernels}" KERNEL_AB_TESTS=timing KERNEL_AB_DESIGNS=none tests/kernel-ab/run.sh 6.12
echo "=== all suites"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
