#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The libFuzzer harnesses (fuzz/fuzz_NAME.c, built by make into $FUZZ_OUT):
#
#   fuzz/run.sh fuzz [SECONDS]   each harness for SECONDS (default 30), from
#                                fuzz/corpus/NAME/; new inputs go to
#                                $FUZZ_OUT/corpus/NAME/, crashes and leaks to
#                                $FUZZ_OUT/findings/NAME/
#   fuzz/run.sh regress          every input of fuzz/corpus/NAME/ and
#                                fuzz/regress/NAME/ once
#
# One PASS or FAIL line per harness (fuzz) or input (regress), then
# "N passed, N failed". A finding, once fixed, goes into fuzz/regress/NAME/.
set -u
cd "$(dirname "$0")/.."
. tests/lib/common.sh

FUZZ_OUT=${FUZZ_OUT:-${OUT:-.output}/fuzz}
MODE=${1:-}
SECONDS_EACH=${2:-30}
NAMES=$(for f in fuzz/fuzz_*.c; do [ -f "$f" ] || continue; f=${f#fuzz/fuzz_}; echo "${f%.c}"; done)

# harness NAME: sets bin to the harness binary; a missing one is a FAIL of
# NAME and a false return. Called in this shell, never in $(...), so that
# the FAIL line reaches the output and the count.
harness() {
	bin=$FUZZ_OUT/fuzz_$1
	if [ ! -x "$bin" ]; then
		fail "$1" "$bin is missing: run 'make fuzzers'"
		return 1
	fi
}

fuzz_one() {
	local name=$1 bin work found log execs
	harness "$name" || return
	work=$FUZZ_OUT/corpus/$name
	found=$FUZZ_OUT/findings/$name
	log=$FUZZ_OUT/$name.log
	mkdir -p "$work" "$found"
	rm -f "$found"/*
	"$bin" -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=1024 \
		-artifact_prefix="$found/" -print_final_stats=1 "$work" "fuzz/corpus/$name" >"$log" 2>&1
	execs=$(awk '/stat::number_of_executed_units/ { print $NF }' "$log")
	if [ -n "$(ls -A "$found")" ]; then
		fail "$name" "$(ls "$found" | wc -l) finding(s) in $found (log $log): $(grep -m1 -E 'ERROR|runtime error' "$log")"
	elif ! grep -q 'Done [0-9]* runs' "$log"; then
		fail "$name" "the fuzzer stopped early (log $log): $(tail -n 1 "$log")"
	else
		pass "$name" "${SECONDS_EACH} s, ${execs:-?} inputs, no crash, leak or undefined behaviour"
	fi
}

regress_one() {
	local name=$1 bin f
	harness "$name" || return
	for f in fuzz/corpus/"$name"/* fuzz/regress/"$name"/*; do
		[ -f "$f" ] || continue
		if "$bin" "$f" >"$FUZZ_OUT/regress.log" 2>&1; then
			pass "$name" "$f"
		else
			fail "$name" "$f: $(grep -m1 -E 'ERROR|runtime error' "$FUZZ_OUT/regress.log")"
		fi
	done
}

[ -n "$NAMES" ] || fail harnesses "no fuzz/fuzz_*.c: nothing to fuzz"

case "$MODE" in
fuzz) for n in $NAMES; do fuzz_one "$n"; done ;;
regress) for n in $NAMES; do regress_one "$n"; done ;;
*)
	echo "usage: $0 fuzz [SECONDS] | regress" >&2
	exit 2
	;;
esac
summary_line
