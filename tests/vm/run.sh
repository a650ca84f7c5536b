#!/bin/bash
# Boots Debian's stock cloud kernels in QEMU (TCG, no KVM) and runs
# tests/vm/guest-tests.sh inside them.
#
#   tests/vm/run.sh [6.1|6.12]...     (no argument: both)
#   make vmtest [KERNEL=6.1]
#
# Why guests at all: the hosts refuse fentry/fexit programs (EPERM by
# policy), so the trampoline modes can only be tried for real in a guest; and
# some tests leave the guest kernel's audit_n_rules stale, which must never
# happen on a host.
#
# Results come back over the serial console as "VMTEST PASS name" /
# "VMTEST FAIL name: reason" lines. The last line printed is
# "N passed, N failed"; the exit status is non-zero if any test failed or a
# guest did not finish.
#
# Environment: VMTEST_TIMEOUT (seconds per guest, default 420; a guest
# takes about two minutes on an idle machine),
# VMTEST_MEM (default 1G), VMTEST_SMP (default 2), VMTEST_SUITES,
# VMTEST_BENCH (see below), VMTEST_STATIC (directory
# with the static auditskip and getpid_loop, default .output/static).

set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
VMDIR=$ROOT/tests/vm
CACHE=$VMDIR/cache            # git-ignored
# STATIC, TIMEOUT, MEM, SMP and RULES_SRC are read by lib-initramfs.sh and
# lib-qemu.sh.
# shellcheck disable=SC2034
STATIC=${VMTEST_STATIC:-$ROOT/.output/static}   # built by `make static`
TIMEOUT=${VMTEST_TIMEOUT:-420}
MEM=${VMTEST_MEM:-1G}
SMP=${VMTEST_SMP:-2}
RULES_SRC=/usr/share/doc/auditd/examples/rules

log() { echo "vmtest: $*" >&2; }
die() { log "$*"; echo "0 passed, 1 failed"; exit 1; }

# VMTEST_SUITES: which boots per kernel (default all three); VMTEST_BENCH=1
# also times getpid with audit_bench in the stale suites (bench/reproduce.sh).
SUITES=${VMTEST_SUITES:-main stale-watch stale-tree}
BENCH_ARG=
[ "${VMTEST_BENCH:-0}" = 1 ] && BENCH_ARG=" vmbench=1"
if [ $# -eq 0 ]; then
	set -- 6.1 6.12
fi
for k in "$@"; do
	case "$k" in
	6.1 | 6.12) ;;
	*) die "unknown kernel series '$k' (use 6.1 or 6.12)" ;;
	esac
done

# Initramfs building and booting are shared with tests/kernel-ab/run.sh.
# shellcheck source=lib-initramfs.sh
. "$VMDIR/lib-initramfs.sh"
# shellcheck source=lib-qemu.sh
. "$VMDIR/lib-qemu.sh"

# ------------------------------------------------------------ host tools ---
# A fresh machine may lack them; installed from Debian's registry when root.
vm_host_tools

mkdir -p "$CACHE/debs" "$CACHE/kernels"

# ---------------------------------------------------------------- kernels ---

# newest_pkg SERIES: name of the newest linux-image-SERIES...-cloud-amd64-
# unsigned package apt knows with an installable candidate; empty if none.
# Versions are looked up at run time so the tests follow Debian's updates.
newest_pkg() {
	local re="^linux-image-${1//./\\.}[.-].*-cloud-amd64-unsigned\$"
	local p
	for p in $(apt-cache pkgnames linux-image- 2>/dev/null | grep -E "$re" | sort -rV); do
		# (no `| grep -q` here: with pipefail its early exit fails the test)
		if [[ "$(apt-cache policy "$p" 2>/dev/null)" == *"Candidate: "[0-9]* ]]; then
			echo "$p"
			return
		fi
	done
}

# fetch_kernel SERIES: prints the path of the kernel image, downloading and
# unpacking the package into the cache only when that version is not there.
fetch_kernel() {
	local series=$1 pkg ver dir deb
	pkg=$(newest_pkg "$series")
	if [ -z "$pkg" ]; then
		# Package lists may be missing or stale on a fresh machine.
		log "apt-cache knows no $series cloud kernel; running apt-get update"
		apt-get update -q >/dev/null 2>&1 || log "apt-get update failed"
		pkg=$(newest_pkg "$series")
	fi
	if [ -z "$pkg" ]; then
		# Offline: fall back to the newest kernel already in the cache.
		dir=$(ls -d "$CACHE/kernels/linux-image-$series"[.-]* 2>/dev/null | sort -V | tail -n 1 || true)
		[ -n "$dir" ] || return 1
		log "using cached $(basename "$dir")"
	else
		ver=$(apt-cache policy "$pkg" | sed -n 's/^ *Candidate: //p')
		dir=$CACHE/kernels/$pkg
		if [ "$(cat "$dir/.version" 2>/dev/null)" != "$ver" ]; then
			log "downloading $pkg $ver"
			rm -rf "$dir" "$CACHE/debs/${pkg}"_*.deb
			# apt-get download warns when it cannot drop to the _apt user for
			# a root-owned directory; the download itself is fine.
			(cd "$CACHE/debs" && apt-get download -q "$pkg" 2>&1 | grep -v 'unsandboxed' >&2 || true)
			deb=$(ls "$CACHE/debs/${pkg}"_*.deb 2>/dev/null | head -n 1)
			[ -n "$deb" ] || return 1
			mkdir -p "$dir.tmp"
			# Only boot/ is needed: the guest loads no modules. Unpacking just
			# that keeps the cache small (the modules are ~250 MB).
			dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$dir.tmp" ./boot
			echo "$ver" >"$dir.tmp/.version"
			rm -rf "$dir" && mv "$dir.tmp" "$dir"
			rm -f "$deb"
		fi
	fi
	ls "$dir"/boot/vmlinuz-* | head -n 1
}

# ------------------------------------------------------------------ guests ---

TOTAL_PASS=0
TOTAL_FAIL=0
SUMMARY=()

# run_guest SERIES KERNEL_IMAGE [SUITE]: one boot; SUITE picks the guest suite.
run_guest() {
	local series=$1${3:+-$3} kernel=$2 suite=${3:-main} logf=$CACHE/console-$1${3:+-$3}.log
	local secs status npass nfail done_line
	log "booting $(basename "$kernel") (timeout ${TIMEOUT}s), console log: $logf"
	vm_boot "$kernel" "$CACHE/initramfs.cpio.gz" "$logf" "vmsuite=$suite$BENCH_ARG"
	status=$VM_STATUS
	secs=$VM_SECS

	# Tolerate kernel noise in front of a marker on the same line.
	grep -o 'VMTEST \(PASS\|FAIL\) .*' "$logf.txt" >"$CACHE/results-$series.txt" || true
	npass=$(grep -c '^VMTEST PASS ' "$CACHE/results-$series.txt" || true)
	nfail=$(grep -c '^VMTEST FAIL ' "$CACHE/results-$series.txt" || true)
	done_line=$(grep -o 'VMTEST DONE.*' "$logf.txt" || true)

	echo "== $series: $(basename "$kernel"), ${secs}s"
	sed 's/^VMTEST /  /' "$CACHE/results-$series.txt"
	if [ -z "$done_line" ]; then
		if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
			echo "  FAIL guest: did not finish within ${TIMEOUT}s"
		else
			echo "  FAIL guest: did not finish (qemu exit status $status)"
		fi
		nfail=$((nfail + 1))
	fi
	if [ "$nfail" -gt 0 ]; then
		echo "-- $series: details (VMTEST INFO lines):"
		grep -o 'VMTEST INFO .*' "$logf.txt" | sed 's/^VMTEST INFO /  /' | tail -n 80 || true
		echo "-- $series: console tail:"
		# (terminal control sequences from the firmware stripped)
		tail -n 40 "$logf.txt" | sed 's/\x1b\[[0-9;?]*[a-zA-Z]//g' | cut -c1-300
	fi
	echo "== $series: $npass passed, $nfail failed, ${secs}s"
	TOTAL_PASS=$((TOTAL_PASS + npass))
	TOTAL_FAIL=$((TOTAL_FAIL + nfail))
	SUMMARY+=("$series ($(basename "$kernel" | sed 's/^vmlinuz-//')): $npass passed, $nfail failed, ${secs}s")
}

vm_build_initramfs "$CACHE/initramfs-root" "$CACHE/initramfs.cpio.gz"
for series in "$@"; do
	if ! kernel=$(fetch_kernel "$series") || [ -z "$kernel" ]; then
		echo "== $series: FAIL no kernel package found or downloaded"
		SUMMARY+=("$series: no kernel")
		TOTAL_FAIL=$((TOTAL_FAIL + 1))
		continue
	fi
	# Stale accounting lasts until reboot: each case gets a fresh guest.
	for suite in $SUITES; do
		if [ "$suite" = main ]; then
			run_guest "$series" "$kernel"
		else
			run_guest "$series" "$kernel" "$suite"
		fi
	done
done

echo "== summary"
for s in "${SUMMARY[@]}"; do echo "  $s"; done
echo "$TOTAL_PASS passed, $TOTAL_FAIL failed"
[ "$TOTAL_FAIL" -eq 0 ]
