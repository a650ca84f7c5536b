#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make breakdown-guest`: where audit's time per syscall goes under
# Debian's larger rule sets, part by part (`auditskip hotspots`), on a few
# workloads, in a QEMU guest of Debian 12's 6.12 kernel
# (tests/vm/guest-breakdown.sh): what share of audit's cost the exit walk
# is, and so what any skip design can save at most.
#
#   bench/breakdown-guest.sh [-o FILE]       markdown on stdout (and in FILE)
#
# The guest runs with -icount (one vCPU): its nanoseconds count the
# instructions it executes (TCG emulates no cache), so they compare with
# each other, not with a real machine's. Nothing on the host changes.
set -euo pipefail
cd "$(dirname "$0")/.."
OUTFILE=
if [ "${1:-}" = -o ]; then
	OUTFILE=${2:?-o needs a file}
	shift 2
fi
[ $# = 0 ] || { echo "usage: $0 [-o FILE]" >&2; exit 2; }
KERNEL=6.12
LOGDIR=${VMTEST_LOGDIR:-.output/vmtest}/breakdown
STARTED=$(date -u '+%Y-%m-%d %H:%M:%S UTC')
COMMIT=$(git rev-parse --short HEAD 2>/dev/null || echo '?')
git diff --quiet HEAD 2>/dev/null || COMMIT="$COMMIT with uncommitted changes"

mkdir -p "$LOGDIR"
if ! VMTEST_LOGDIR=$LOGDIR VMTEST_ICOUNT=1 VMTEST_SMP=1 VMTEST_MEM=2G VMTEST_SUITES=breakdown \
	tests/vm/run.sh "$KERNEL" >"$LOGDIR.out" 2>&1; then
	cat "$LOGDIR.out" >&2
	echo "breakdown-guest: the guest run failed (above)" >&2
	exit 1
fi
CONSOLE=$LOGDIR/console-$KERNEL-breakdown.log

# rows: a table row per set and workload from the suite's BREAKDOWN lines.
# audit's time on the CPU is the entry's and the exit path's; the walk's
# share of it is what a skip of every walk would save at most.
rows() {
	grep -ah '^VMTEST BREAKDOWN ' "$CONSOLE" | awk '
		function pct(a, b) { return b > 0 ? sprintf("%.0f%%", 100 * a / b) : "-" }
		function gap(p, a) { return a > 0 ? sprintf("%+.1f%%", 100 * (p - a) / a) : "-" }
		{
			delete f
			for (i = 3; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
			audit = f["entry_ns"] + f["exit_ns"]
			built = f["records_ns"] + f["log_start_ns"]
			printf "| %s | %s | %d | %d | %d | %.0f | %.0f | %.0f (%s) | %.0f | %.0f (%s) | %.0f | %.0f | %.0f | %s |\n",
				f["set"], f["workload"], f["rules"], f["calls"], f["records"], f["syscall_ns"], audit,
				f["walk_ns"], pct(f["walk_ns"], audit), f["inodes_ns"], built, pct(built, audit),
				f["rest_ns"], f["entry_ns"], f["log_start_off_ns"] + f["off_cpu_ns"],
				gap(f["exit_ns"], f["alone_ns"])
		}'
}

report() {
	echo "# Where audit's time per syscall goes, per rule set and workload ($STARTED)"
	echo
	echo "Command: \`bench/breakdown-guest.sh${OUTFILE:+ -o $OUTFILE}\` (\`make breakdown-guest\`); commit $COMMIT."
	echo "Guest: Debian 12's $(grep -aho 'vmtest: booting [^ ]*' "$LOGDIR.out" | head -n 1 | cut -d' ' -f3),"
	echo "QEMU TCG with -icount shift=0, one vCPU: ns are instructions executed (no cache"
	echo "emulated); compare them with each other, not with a real machine's."
	echo "Rule sets: Debian 12's auditd examples, the lines this kernel refuses dropped, no"
	echo "control line; workloads run with login uid 1000 at nice -20 (tests/vm/guest-breakdown.sh)."
	echo
	echo "Per syscall of the workload (ns): the syscall's own time (sys_enter to sys_exit);"
	echo "audit's on the CPU (entry and exit path); its parts: the exit walk (and its share"
	echo "of audit's time: what skipping every walk would save at most), the names' checks"
	echo "(inodes), the records built and started (records and log_start), the rest of the"
	echo "exit path, the entry; then audit's time off the CPU (waits in log_start,"
	echo "preemptions in the exit path), and how far the exit path's parts came from the"
	echo "exit path timed alone in a run of its own."
	echo
	echo "| rule set | workload | rules | syscalls | records | syscall | audit | walk | inodes | records | rest | entry | off CPU | parts vs alone |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
	rows
	echo
	echo "The suite's own verdicts (each run timed the walk of every exit that ran the"
	echo "filters, the kernel's count of them; the gap of the parts to the exit path alone):"
	echo
	grep -ah '^VMTEST \(PASS\|FAIL\) breakdown/' "$CONSOLE" | sed 's/^VMTEST /- /'
}

if [ -n "$OUTFILE" ]; then
	report | tee "$OUTFILE"
else
	report
fi
