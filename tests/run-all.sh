#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The whole suite: unit tests, host tests (tracepoint mode on this kernel),
# guest tests (every mode on Debian's 6.1 and 6.12 kernels). Each suite
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

# cmocka's summary, rewritten into the common closing line.
unit_tests() {
	local t out p f status=0
	p=0
	f=0
	for t in "$OUT"/test_*; do
		out=$("$t" 2>&1) || status=1
		echo "$out"
		p=$((p + $(echo "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | tail -n 1)))
		f=$((f + $(echo "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | head -n 1 | grep . || echo 0)))
	done
	echo "$p passed, $f failed"
	return $status
}

run_suite "unit tests" unit_tests
run_suite "host tests (tracepoint mode, $(uname -r))" tests/host/run.sh
run_suite "reliability (host)" tests/host/reliability.sh
run_suite "metrics and JSON schema (host)" tests/host/metrics.sh
run_suite "guest tests (QEMU, Debian kernels)" tests/vm/run.sh
echo "=== all suites"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
