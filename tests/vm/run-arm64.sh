#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Boots Debian 12's newest 6.12 cloud arm64 kernel under
# qemu-system-aarch64 (-M virt -cpu max, TCG) and runs the guest suites
# there, as tests/vm/run.sh does on x86, plus guest-arm64-compat.sh (32-bit
# ARM syscalls on the arm64 kernel).
#
#   tests/vm/run-arm64.sh [arm64-6.12]
#   make vmtest-arm64          (builds the static arm64 tools first)
#
# The kernel, busybox-static, auditctl and bpftool (with their libraries)
# come from Debian's arm64 archive through a private sources list
# (tests/vm/lib-arm64.sh); the tools under test are static arm64 builds
# (`make static ARCH=arm64`, in .output/arm64/static).
#
# Environment: as run.sh (VMTEST_TIMEOUT, default 1800 here: TCG emulating
# another arch is slower, and the main suite took 22 minutes on a busy
# 2-core machine; VMTEST_MEM, VMTEST_SMP, VMTEST_SUITES, default
# "main stale-watch stale-tree"; VMTEST_STATIC).

set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
VMDIR=$ROOT/tests/vm
CACHE=$VMDIR/cache            # git-ignored
# Read by lib-initramfs.sh and lib-qemu.sh.
# shellcheck disable=SC2034
{
	STATIC=${VMTEST_STATIC:-$ROOT/.output/arm64/static}
	TIMEOUT=${VMTEST_TIMEOUT:-1800}
	MEM=${VMTEST_MEM:-1G}
	SMP=${VMTEST_SMP:-2}
	RULES_SRC=/usr/share/doc/auditd/examples/rules
	VM_ARCH=arm64
	VM_INSTALL_BINS=arm64_install_bins
	VM_TOOLS="auditskip getpid_loop uring_openat audit_bench getpid_loop_arm32"
}

LOG_PREFIX="vmtest-arm64: "
# shellcheck source=../lib/common.sh
. "$ROOT/tests/lib/common.sh"
die() { log "$*"; echo "0 passed, 1 failed"; exit 1; }

# compat: guest-arm64-compat.sh, 32-bit ARM syscalls, in an initramfs of its own.
SUITES=${VMTEST_SUITES:-main compat stale-watch stale-tree}
[ $# -le 1 ] || die "usage: $0 [arm64-6.12]"
case "${1:-arm64-6.12}" in
arm64-6.12) series=arm64-6.12 ;;
*) die "unknown kernel '$1' (use arm64-6.12)" ;;
esac

# shellcheck source=lib-initramfs.sh
. "$VMDIR/lib-initramfs.sh"
# shellcheck source=lib-qemu.sh
. "$VMDIR/lib-qemu.sh"
# shellcheck source=lib-arm64.sh
. "$VMDIR/lib-arm64.sh"
# shellcheck source=lib-console.sh
. "$VMDIR/lib-console.sh"

vm_host_tools
case "$(od -An -c -j 1 -N 3 "$STATIC/auditskip" 2>/dev/null | tr -d ' ')" in
ELF) ;;
*) die "$STATIC/auditskip is missing: run 'make static ARCH=arm64'" ;;
esac
mkdir -p "$CACHE/debs" "$CACHE/kernels"
arm64_apt_update

TOTAL_PASS=0
TOTAL_FAIL=0
SUMMARY=()

# run_guest KERNEL SUITE: one boot, its results and, on failure, details.
run_guest() {
	local kernel=$1 suite=$2 name logf res secs npass nfail initrd
	if [ "$suite" = main ]; then name=$series; else name=$series-$suite; fi
	logf=$CACHE/console-$name.log
	res=$CACHE/results-$name.txt
	log "booting $(basename "$kernel") (timeout ${TIMEOUT}s), console log: $logf"
	initrd=$CACHE/initramfs-arm64.cpio.gz
	[ "$suite" = compat ] && initrd=$CACHE/initramfs-arm64-compat.cpio.gz
	vm_boot "$kernel" "$initrd" "$logf" "vmsuite=$suite"
	secs=$VM_SECS

	console_results "$logf.txt" >"$res"
	npass=$(grep -c '^VMTEST PASS ' "$res" || true)
	nfail=$(grep -c '^VMTEST FAIL ' "$res" || true)

	echo "== $name: $(basename "$kernel"), ${secs}s"
	sed 's/^VMTEST /  /' "$res"
	if [ "$VM_STATUS" -eq 124 ] || [ "$VM_STATUS" -eq 137 ]; then
		echo "  (qemu stopped after ${TIMEOUT}s)"
	fi
	# The same accounting as tests/vm/run.sh (lib-console.sh): DONE, rc,
	# the summary against the result lines, any kernel problem on the
	# console; no plan yet (the suites' declarations are run.sh's, for x86).
	CONSOLE_INDENT="  " console_account "$name" "$logf.txt"
	nfail=$((nfail + CONSOLE_FAILS))
	if [ "$nfail" -gt 0 ]; then
		echo "-- $name: details (VMTEST INFO lines):"
		grep -o 'VMTEST INFO .*' "$logf.txt" | sed 's/^VMTEST INFO /  /' | tail -n 80 || true
		echo "-- $name: console tail:"
		tail -n 40 "$logf.txt" | console_strip
	fi
	echo "== $name: $npass passed, $nfail failed, ${secs}s"
	TOTAL_PASS=$((TOTAL_PASS + npass))
	TOTAL_FAIL=$((TOTAL_FAIL + nfail))
	SUMMARY+=("$name ($(basename "$kernel" | sed 's/^vmlinuz-//')): $npass passed, $nfail failed, ${secs}s")
}

vm_build_initramfs "$CACHE/initramfs-arm64-root" "$CACHE/initramfs-arm64.cpio.gz"
case " $SUITES " in
*" compat "*)
	[ -x "$STATIC/getpid_loop_arm32" ] || log "WARNING: $STATIC/getpid_loop_arm32 is missing"
	vm_build_initramfs "$CACHE/initramfs-arm64-root" "$CACHE/initramfs-arm64-compat.cpio.gz" \
		"$VMDIR/guest-arm64-compat.sh"
	;;
esac
if ! kernel=$(arm64_fetch_kernel) || [ -z "$kernel" ]; then
	echo "== $series: FAIL no kernel package found or downloaded"
	echo "0 passed, 1 failed"
	exit 1
fi
for suite in $SUITES; do
	run_guest "$kernel" "$suite"
done

echo "== summary"
for s in "${SUMMARY[@]}"; do echo "  $s"; done
echo "$TOTAL_PASS passed, $TOTAL_FAIL failed"
[ "$TOTAL_FAIL" -eq 0 ]
