#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make overhead-guest`: what the trampoline modes add to getpid in QEMU
# guests of Debian's 6.1 and 6.12 kernels, against the same programs
# returning at once (the floor of any tool of this design), at 1 and 1024
# exit rules, all in one guest run per kernel (tests/vm/guest-overhead.sh).
#
#   bench/overhead-guest.sh [-o FILE] [KERNEL...]   (default: 6.1 6.12)
#
# The guests run with -icount (one vCPU): their clock counts the
# instructions they execute, one per ns, so a busy host or the other guest
# beside them changes no timing, and a cycle repeats the last to a few
# tenths of a ns. These nanoseconds count instructions (TCG emulates no
# cache): they are compared only with each other, in the same guest run,
# and say nothing about real hardware's absolute cost.
set -euo pipefail
cd "$(dirname "$0")/.."
OUTFILE=
if [ "${1:-}" = -o ]; then
	OUTFILE=$2
	shift 2
fi
KERNELS=${*:-6.1 6.12}
COMMAND="bench/overhead-guest.sh${OUTFILE:+ -o $OUTFILE} $KERNELS"
LOGDIR=${VMTEST_LOGDIR:-.output/vmtest}
STARTED=$(date -u '+%Y-%m-%d %H:%M:%S UTC')

# One guest per kernel, side by side, each in its own log directory. Some
# 40 timings of up to a minute each when the host is busy: more than
# run.sh's default time limit.
mkdir -p "$LOGDIR"
pids=()
for k in $KERNELS; do
	VMTEST_LOGDIR=$LOGDIR/overhead-$k VMTEST_TIMEOUT=${VMTEST_TIMEOUT:-2400} \
		VMTEST_ICOUNT=1 VMTEST_SMP=1 VMTEST_SUITES=overhead \
		tests/vm/run.sh "$k" >"$LOGDIR/overhead-$k.out" 2>&1 &
	pids+=($!)
done
failed=
set -- $KERNELS
for pid in "${pids[@]}"; do
	if ! wait "$pid"; then
		cat "$LOGDIR/overhead-$1.out" >&2
		failed="$failed $1"
	fi
	shift
done
[ -z "$failed" ] || { echo "overhead-guest: the guest of$failed failed (see above)" >&2; exit 1; }

# Medians over cycles of (tool - mean of the cycle's two unattached timings).
report() {
	echo "# auditskip: trampoline modes' overhead in QEMU guests"
	echo
	echo "Run $STARTED with \`$COMMAND\` (\`make overhead-guest\`), QEMU TCG with"
	echo "-icount shift=0, 1 vCPU: guest ns = instructions executed (no cache is emulated; compare"
	echo "these nanoseconds only with each other). getpid's least round of audit_bench (what else"
	echo "runs on the vCPU only adds instructions); \"floor\" is the same mode's programs attached"
	echo "and returning at once (\`--test-hollow\`): what any tool with an fentry and fexit pair"
	echo "on the same function pays."
	echo
	echo "| kernel | exit rules | nothing attached (range over cycles) | mode | auditskip adds | floor adds | auditskip / floor |"
	echo "|---|---|---|---|---|---|---|"
	for k in $KERNELS; do
		grep -h '^VMTEST OVERHEAD ' "$LOGDIR/overhead-$k/console-$k-overhead.log" |
			awk -v k="$k" '
			function span(list,   n, a, i, lo, hi) {
				n = split(list, a, " ")
				lo = hi = a[1]
				for (i = 2; i <= n; i++) { if (a[i] < lo) lo = a[i]; if (a[i] > hi) hi = a[i] }
				return sprintf("%.0f..%.0f", lo, hi)
			}
			function med(list,   n, a, i, j, x) {
				n = split(list, a, " ")
				for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { x = a[i]; a[i] = a[j]; a[j] = x }
				return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
			}
			{
				for (i = 3; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
				key = f["rules"] SUBSEP f["cycle"]
				if (f["tool"] == "none") { base[key] += f["ns"] / 2; nbase[key]++ }
				else { t[key, f["tool"]] = f["ns"]; tools[f["tool"]] = 1 }
				rules[f["rules"]] = 1; cycles[f["cycle"]] = 1
			}
			END {
				for (r in rules) {
					bl = ""
					for (c in cycles) bl = bl " " base[r, c]
					for (m in tools) {
						if (m ~ /^floor-/) continue
						al = ""; fl = ""
						for (c in cycles) {
							al = al " " (t[r, c, m] - base[r, c])
							fl = fl " " (t[r, c, "floor-" m] - base[r, c])
						}
						added = med(al); floor_added = med(fl)
						# (in parentheses: a bare ">" among the arguments of printf redirects)
						printf "| %s | %s | %.0f ns (%s) | %s | %+.0f ns | %+.0f ns | %s |\n", k, r, med(bl), span(bl), m, added, floor_added, (floor_added > 0 ? sprintf("%.2f", added / floor_added) : "-")
					}
				}
			}' | sort -t'|' -k3n -k5
	done
	echo
	echo "Goal: auditskip within 1.3 times the floor's added cost. Where the unattached times of"
	echo "the cycles spread wider than the costs compared, a row says nothing."
}

if [ -n "$OUTFILE" ]; then
	report | tee "$OUTFILE"
else
	report
fi
