#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make overhead-guest`: what the trampoline modes add to getpid in QEMU
# guests of Debian's 6.1 and 6.12 kernels, against empty programs on the
# same functions (the floor of any tool of this design), at 1, 64, 1024
# and 4096 exit rules, all in one guest run per kernel
# (tests/vm/guest-overhead.sh).
#
#   bench/overhead-guest.sh [-o FILE] [KERNEL...]   (default: 6.1 6.12)
#
# Environment: RULE_SETS (default "1 64 1024 4096"), CYCLES (default 3).
#
# The guests run with -icount (one vCPU): their clock counts the
# instructions they execute, one per ns, so a busy host or the other guest
# beside them changes no timing, and a cycle repeats the last to about a
# ns. These nanoseconds count instructions (TCG emulates no
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
RULE_SETS=${RULE_SETS:-1 64 1024 4096}
CYCLES=${CYCLES:-3}
COMMAND="RULE_SETS=\"$RULE_SETS\" CYCLES=$CYCLES bench/overhead-guest.sh${OUTFILE:+ -o $OUTFILE} $KERNELS"
LOGDIR=${VMTEST_LOGDIR:-.output/vmtest}
STARTED=$(date -u '+%Y-%m-%d %H:%M:%S UTC')

# One guest per kernel, side by side, each in its own log directory. Some
# 40 timings of up to a minute each when the host is busy: more than
# run.sh's default time limit. The tests the guests will give, one per
# rule count asked for, guest-overhead.sh declares from vmovh_rules=.
pids=()
for k in $KERNELS; do
	VMTEST_LOGDIR=$LOGDIR/overhead-$k VMTEST_TIMEOUT=${VMTEST_TIMEOUT:-2400} \
		VMTEST_ICOUNT=1 VMTEST_SMP=1 VMTEST_MEM=2G VMTEST_BPFTRACE=${VMTEST_BPFTRACE:-1} VMTEST_SUITES=overhead \
		VMTEST_APPEND="vmovh_rules=$(echo $RULE_SETS | tr ' ' ,) vmovh_cycles=$CYCLES" \
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

# added TABLE KERNEL: the table's rows for one kernel, each a median over
# cycles of (tool - mean of the cycle's two unattached timings). TABLE is
# "floor" (each mode against its empty programs) or "bpftrace" (tracepoint
# mode against bpftrace, when the guest had it).
added() {
	grep -h '^VMTEST OVERHEAD ' "$LOGDIR/overhead-$2/console-$2-overhead.log" |
		awk -v table="$1" -v k="$2" '
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
		function adds(r, m,   c, l) {
			l = ""
			for (c in cycles) l = l " " (t[r, c, m] - base[r, c])
			return med(l)
		}
		function ratio(a, b) { return b > 0 ? sprintf("%.2f", a / b) : "-" }
		{
			for (i = 3; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
			key = f["rules"] SUBSEP f["cycle"]
			if (f["tool"] == "none") base[key] += f["ns"] / 2
			else { t[key, f["tool"]] = f["ns"]; tools[f["tool"]] = 1 }
			rules[f["rules"]] = 1; cycles[f["cycle"]] = 1
		}
		END {
			for (r in rules) {
				bl = ""
				for (c in cycles) bl = bl " " base[r, c]
				if (table == "bpftrace") {
					if (!("tracepoint" in tools) || !("bpftrace" in tools)) continue
					a = adds(r, "tracepoint"); b = adds(r, "bpftrace")
					# (in parentheses: a bare ">" among the arguments of printf redirects)
					printf "| %s | %s | %.0f ns (%s) | %+.0f ns | %+.0f ns | %+.0f ns | %+.0f ns | %s |\n", k, r, med(bl), span(bl), a, adds(r, "floor-tracepoint"), b, adds(r, "bpftrace-empty"), ratio(a, b)
					continue
				}
				for (m in tools) {
					if (m ~ /^(floor-|bpftrace)/) continue
					a = adds(r, m); fa = adds(r, "floor-" m)
					printf "| %s | %s | %.0f ns (%s) | %s | %+.0f ns | %+.0f ns | %s |\n", k, r, med(bl), span(bl), m, a, fa, ratio(a, fa)
				}
			}
		}' | sort -t'|' -k3n -k5
}

report() {
	echo "# auditskip: trampoline modes' overhead in QEMU guests"
	echo
	echo "Run $STARTED with \`$COMMAND\` (\`make overhead-guest\`), QEMU TCG with"
	echo "-icount shift=0, 1 vCPU: guest ns = instructions executed (no cache is emulated; compare"
	echo "these nanoseconds only with each other). getpid's least round of audit_bench (what else"
	echo "runs on the vCPU only adds instructions); \"floor\" is empty programs on the functions"
	echo "the mode hooks (\`empty_probes MODE\`: an fentry and fexit pair, one fentry for"
	echo "syscall-exit, one raw tracepoint on sys_enter for tracepoint mode), what any tool"
	echo "of the mode's design pays."
	echo
	echo "| kernel | exit rules | nothing attached (range over cycles) | mode | auditskip adds | floor adds | auditskip / floor |"
	echo "|---|---|---|---|---|---|---|"
	for k in $KERNELS; do added floor "$k"; done
	echo
	echo "Goal (trampoline modes): auditskip within 1.3 times the floor's added cost. Where the"
	echo "unattached times of the cycles spread wider than the costs compared, a row says nothing."
	local prog
	prog=$(sed -n 's/^VMTEST BPFTRACE //p' \
		"$LOGDIR/overhead-${KERNELS%% *}/console-${KERNELS%% *}-overhead.log.txt" | head -n 1)
	[ -n "$prog" ] || return 0
	echo
	echo "## Tracepoint mode against bpftrace"
	echo
	echo "bench/overhead.sh's comparison in the same guests: \`bpftrace -e '$prog'\`"
	echo "(the host's $(bpftrace --version 2>/dev/null | head -n 1)), and its program emptied."
	echo
	echo "| kernel | exit rules | nothing attached (range over cycles) | tracepoint mode adds | its empty program adds | bpftrace adds | bpftrace's empty program adds | tracepoint / bpftrace |"
	echo "|---|---|---|---|---|---|---|---|"
	for k in $KERNELS; do added bpftrace "$k"; done
	echo
	echo "Goal: at most 0.50."
}

if [ -n "$OUTFILE" ]; then
	report | tee "$OUTFILE"
else
	report
fi
