#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Boot stability of the guest harness: boots the main guest suite N times,
# one guest at a time, cycling through the given kernels, and counts clean
# boots (the suite reached "VMTEST DONE", no oops, panic or BUG) against
# crashed ones. Test failures inside a clean boot are recorded, not counted
# as crashes: this measures the harness, not the tool.
#
#   bench/guest-boots.sh [-n N] [-k "KERNEL..."] [-o FILE]
#   bench/guest-boots.sh -r [-o FILE]
#
# -n boots (default 20), -k kernels to cycle through (default every kernel
# of tests/vm/run.sh), -o a markdown report (default stdout; with -o it is
# rewritten after every boot, so a run cut short still has one). -r only
# reports on the boots of the last run that have finished. QEMU settings
# come from the environment as for tests/vm/run.sh (VMTEST_TCG_THREAD=multi
# reproduces the old setting). Each boot's logs stay in .output/boots/.

set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck disable=SC2034 # read by common.sh's log
LOG_PREFIX="guest-boots: "
# shellcheck source=../tests/lib/common.sh
. "$ROOT/tests/lib/common.sh"
N=20
KERNELS=
OUT=
REPORT_ONLY=0
while getopts n:k:o:r opt; do
	case "$opt" in
	n) N=$OPTARG ;;
	k) KERNELS=$OPTARG ;;
	o) OUT=$OPTARG ;;
	r) REPORT_ONLY=1 ;;
	*) echo "usage: $0 [-n N] [-k \"KERNEL...\"] [-o FILE] | -r [-o FILE]" >&2; exit 1 ;;
	esac
done
case "$N" in '' | *[!0-9]* | 0) echo "guest-boots: -n wants a positive number" >&2; exit 1 ;; esac
if [ -z "$KERNELS" ]; then
	CACHE=$ROOT/tests/vm/cache
	# shellcheck source=../tests/vm/lib-kernels.sh
	. "$ROOT/tests/vm/lib-kernels.sh"
	KERNELS=$(vm_kernel_names | tr '\n' ' ')
fi
WORK=$ROOT/.output/boots
if [ "$REPORT_ONLY" = 1 ]; then
	[ -s "$WORK/settings" ] || { echo "guest-boots: no earlier run in $WORK" >&2; exit 1; }
	# shellcheck disable=SC1091
	. "$WORK/settings"
else
	read -ra KS <<<"$KERNELS"
	rm -rf "$WORK"
	mkdir -p "$WORK"
	# Every boot runs the same harness and tools: a snapshot of the tree as
	# it is now (tests/vm and the test library it installs, the static
	# builds), which later edits do not change.
	SNAP=$WORK/tree
	mkdir -p "$SNAP/tests" "$SNAP/.output"
	cp -a "$ROOT/tests/vm" "$ROOT/tests/lib" "$SNAP/tests/"
	cp -a "$ROOT/.output/static" "$SNAP/.output/"
	cp "$ROOT/VERSION" "$SNAP/"
	REV=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')
	DIRTY=
	git -C "$ROOT" diff --quiet HEAD -- tests/vm tests/lib 2>/dev/null ||
		DIRTY=" (tests/vm or tests/lib with uncommitted changes)"
	T_START=$(date +%s)
	{
		echo "N=$N"
		echo "KERNELS='$KERNELS'"
		echo "REV=$REV"
		echo "DIRTY='$DIRTY'"
		echo "T_START=$T_START"
		echo "VMTEST_TCG_THREAD=${VMTEST_TCG_THREAD:-single}"
		echo "VMTEST_SMP=${VMTEST_SMP:-2}"
		echo "VMTEST_MEM=${VMTEST_MEM:-1G}"
	} >"$WORK/settings"
fi
read -ra KS <<<"$KERNELS"
VMTEST_TCG_THREAD=${VMTEST_TCG_THREAD:-single}
VMTEST_SMP=${VMTEST_SMP:-2}
VMTEST_MEM=${VMTEST_MEM:-1G}

report() {
	echo "# Guest boot stability, $(date +%F)"
	echo
	local t_total=$(($(date +%s) - T_START))
	if [ "$REPORT_ONLY" = 1 ] && [ "$done_boots" -gt 0 ]; then
		t_total=$(($(stat -c %Y "$WORK/$done_boots-${KS[$(((done_boots - 1) % ${#KS[@]}))]}.out") - T_START))
	fi
	echo "\`bench/guest-boots.sh -n $N -k \"$KERNELS\"\`: the main guest suite booted $N"
	echo "times, one guest at a time, cycling through the kernels. A boot is clean when the"
	echo "suite reached \`VMTEST DONE\` with no oops, panic or BUG on the console; test"
	echo "failures inside a clean boot are listed, not counted as crashes."
	echo
	echo "- QEMU: $(qemu-system-x86_64 --version | head -n 1), \`-accel tcg,thread=$VMTEST_TCG_THREAD -cpu max -smp $VMTEST_SMP -m $VMTEST_MEM\`"
	echo "- host: $(nproc) CPUs, $(uname -r), shared with other work while this ran"
	echo "- auditskip $(cat "$ROOT/VERSION") at $REV$DIRTY"
	echo
	if [ "$done_boots" != "$N" ]; then
		echo "**Cut short: $done_boots of $N boots finished.**"
		echo
	fi
	echo "**$clean clean, $crashed crashed, $interrupted without a result** out of $done_boots"
	echo "boots; longest run of consecutive clean boots: $best. Total time $((t_total / 60)) min."
	echo
	echo "| boot | kernel | uname -r | seconds | result |"
	echo "|---|---|---|---|---|"
	printf '%s\n' "${rows[@]}"
}
clean=0
crashed=0
interrupted=0
run=0
best=0
rows=()
done_boots=0
for i in $(seq 1 "$N"); do
	k=${KS[$(((i - 1) % ${#KS[@]}))]}
	d=$WORK/$i-$k
	status=0
	if [ "$REPORT_ONLY" = 1 ]; then
		# Not the boot still running: its run.sh has not printed its summary
		# and no later boot has started.
		[ -e "$d.out" ] || break
		if ! grep -qE '^[0-9]+ passed, [0-9]+ failed' "$d.out" &&
			[ ! -e "$WORK/$((i + 1))-${KS[$((i % ${#KS[@]}))]}.out" ]; then
			break
		fi
		grep -q 'HARNESS FAILURE' "$d.out" && status=2
	else
		VMTEST_SUITES=main VMTEST_LOGDIR=$d "$SNAP/tests/vm/run.sh" "$k" >"$d.out" 2>&1 ||
			status=$?
	fi
	done_boots=$i
	# (each of these may find nothing; that must not end the run)
	log_txt=$(ls "$d"/console-*.log.txt 2>/dev/null | head -n 1 || true)
	secs=$(sed -n 's/^== [^ ]*: .*, \([0-9]*\)s$/\1/p' "$d.out" | tail -n 1 || true)
	kver=$(grep -o 'VMTEST BOOT [^ ]*' "$log_txt" 2>/dev/null | head -n 1 | cut -d' ' -f3 || true)
	counts=$(grep -E '^== [^ ]*: [0-9]+ passed, [0-9]+ failed' "$d.out" | tail -n 1 |
		sed 's/^== [^ ]*: \([0-9]*\) passed, \([0-9]*\) failed.*/\1 \2/' || true)
	fails=$(grep -o '^  FAIL [^:]*' "$d.out" | sed 's/^  FAIL //' | tr '\n' ' ' || true)
	oops=$(grep -m 1 -o -E '(Oops|BUG:|kernel BUG at|Kernel panic|general protection fault).*' \
		"$log_txt" 2>/dev/null | cut -c1-120 || true)
	if grep -q 'HARNESS FAILURE' "$d.out" || [ "$status" -eq 2 ] || [ -n "$oops" ]; then
		crashed=$((crashed + 1))
		run=0
		what=$(grep -m 1 -o 'HARNESS FAILURE.*' "$d.out" || echo "exit status $status")
		verdict="**crash**: $what${oops:+ (\`$oops\`)}"
	elif [ -z "$counts" ]; then
		# run.sh itself did not finish (killed from outside, say): no verdict
		# on the guest either way, and the run of clean boots ends here.
		interrupted=$((interrupted + 1))
		run=0
		verdict="**no result**: run.sh did not finish (see .output/boots/$i-$k.out)"
	else
		clean=$((clean + 1))
		run=$((run + 1))
		verdict="clean: ${counts% *} passed, ${counts#* } failed${fails:+ ($fails)}"
	fi
	[ "$run" -gt "$best" ] && best=$run
	rows+=("| $i | $k | ${kver:-?} | ${secs:-?} | $verdict |")
	[ "$REPORT_ONLY" = 1 ] || echo "guest-boots: boot $i/$N ($k): $verdict" >&2
	[ -z "$OUT" ] || [ "$REPORT_ONLY" = 1 ] || { report >"$OUT.tmp" && mv "$OUT.tmp" "$OUT"; }
done

if [ -n "$OUT" ]; then
	report >"$OUT.tmp" && mv "$OUT.tmp" "$OUT"
	echo "guest-boots: $clean clean, $crashed crashed, $interrupted without a result of $N; report in $OUT" >&2
else
	report
fi
[ "$crashed" -eq 0 ] && [ "$interrupted" -eq 0 ]
