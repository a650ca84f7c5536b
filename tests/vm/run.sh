#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Boots Debian's stock cloud kernels in QEMU (TCG, no KVM) and runs the guest
# suites (tests/vm/guest-tests.sh, guest-stale.sh) inside them.
#
#   tests/vm/run.sh [KERNEL[:SUITE,...]]...   (no argument: what `make test`
#                                 runs, CI_KERNELS below)
#   tests/vm/run.sh all           every kernel of the matrix
#   ... -t NAME                   only the test NAME (repeatable; a shell
#                                 glob, no commas or spaces): guests whose
#                                 plan has none are not booted, and each
#                                 plan expects only the tests picked
#   ... -l                        the tests of each guest's plan (the ones
#                                 -t picks), booting none
#   make vmtest [KERNEL=NAME], make vmtest-all
#
# Kernels (lib-kernels.sh): 5.10 (Debian 11), 6.1 and 6.12 (Debian 12),
# 6.12-trixie (Debian 13; also deb13-6.12), 7.2 (sid, the newest packaged).
#
# Why guests at all: the hosts refuse fentry/fexit programs (EPERM by
# policy), so the trampoline modes can only be tried for real in a guest; and
# some tests leave the guest kernel's audit_n_rules stale, which must never
# happen on a host.
#
# Results come back over the serial console as "VMTEST PASS name" /
# "VMTEST FAIL name: reason" lines, and one "VMTEST MODE" line per attach
# mode (matrix-table.sh). A guest that crashed (oops, panic, BUG, or no
# "VMTEST DONE" before the time limit) is a harness failure: its oops text is
# printed and its test lines are not counted; it is never retried. The last
# line printed is "N passed, N failed"; the exit status is 0 when all
# passed, 1 when a test failed, 2 when a guest crashed.
#
# Environment: VMTEST_TIMEOUT (seconds per guest, default 900),
# VMTEST_MEM (default 1G), VMTEST_SMP (default 2), VMTEST_TCG_THREAD
# (single, the default, or multi: see lib-qemu.sh), VMTEST_ICOUNT (1: the
# guest's clock counts instructions, see lib-qemu.sh), VMTEST_BPFTRACE (1:
# the host's bpftrace in the initramfs, for the overhead suite), VMTEST_SUITES, VMTEST_LANE (below),
# VMTEST_BENCH (see below), VMTEST_STATIC (directory
# with the static auditskip and getpid_loop, default .output/static),
# VMTEST_APPEND (more kernel command line, e.g. to try the crash
# reporting with rdinit=/none), VMTEST_LOGDIR (console logs, results and
# the initramfs, default
# .output/vmtest: the kernel cache is shared between checkouts, these are
# not).

set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
VMDIR=$ROOT/tests/vm
CACHE=$VMDIR/cache            # git-ignored
# STATIC, TIMEOUT, MEM, SMP, ICOUNT, BPFTRACE and RULES_SRC are read by
# lib-initramfs.sh and lib-qemu.sh.
# shellcheck disable=SC2034
STATIC=${VMTEST_STATIC:-$ROOT/.output/static}   # built by `make static`
# The main suite takes 590 s on 7.2 beside the host suites (TCG): the
# limit is a hang detector, not a budget.
TIMEOUT=${VMTEST_TIMEOUT:-900}
MEM=${VMTEST_MEM:-1G}
SMP=${VMTEST_SMP:-2}
TCG_THREAD=${VMTEST_TCG_THREAD:-single}
ICOUNT=${VMTEST_ICOUNT:-}
BPFTRACE=${VMTEST_BPFTRACE:-}
LOGDIR=${VMTEST_LOGDIR:-$ROOT/.output/vmtest}
# Each guest's plan, the tests its suite's file declares for its kernel
# (declare_plan below), as LOGDIR/plans/SERIES-SUITE.txt.
PLANS=$LOGDIR/plans
RULES_SRC=/usr/share/doc/auditd/examples/rules

LOG_PREFIX="vmtest: "
# shellcheck source=../lib/common.sh
. "$ROOT/tests/lib/common.sh"
die() { log "$*"; echo "0 passed, 1 failed"; exit 1; }

# -t and -l, wherever they stand among the kernels.
PATTERNS=()
LIST=0
ARGS=()
while [ $# -gt 0 ]; do
	case $1 in
	-t)
		[ $# -ge 2 ] && [ -n "$2" ] || die "-t needs a test name"
		case $2 in *[,\ ]*) die "-t '$2': a test name has no commas or spaces" ;; esac
		PATTERNS+=("$2")
		TEST_PATTERNS="$TEST_PATTERNS${TEST_PATTERNS:+
}$2"
		shift 2
		;;
	-l)
		LIST=1
		shift
		;;
	-*) die "unknown option $1 (usage: $0 [KERNEL[:SUITE,...]]... [-l] [-t NAME]...)" ;;
	*)
		ARGS+=("$1")
		shift
		;;
	esac
done
set -- ${ARGS[@]+"${ARGS[@]}"}

# picked_plan PLAN: the tests of $PLANS/PLAN.txt (SERIES-SUITE) that -t
# picks (test_selected).
picked_plan() {
	local name
	[ -f "$PLANS/$1.txt" ] || return 0
	while IFS= read -r name; do
		if test_selected "$name"; then echo "$name"; fi
	done <"$PLANS/$1.txt"
}

# plan_patterns PLAN: the -t patterns that pick a test of PLAN, joined by
# commas: what that guest is given (vmtests=), as a guest fails a pattern
# none of its tests matches.
plan_patterns() {
	local p all=$TEST_PATTERNS picked=
	for p in ${PATTERNS[@]+"${PATTERNS[@]}"}; do
		TEST_PATTERNS=$p
		if [ -n "$(picked_plan "$1")" ]; then
			picked="$picked${picked:+,}$p"
		fi
	done
	TEST_PATTERNS=$all
	echo "$picked"
}

# VMTEST_SUITES: which boots per kernel (default all three); VMTEST_BENCH=1
# also times getpid with audit_bench in the stale suites (bench/reproduce.sh).
SUITES=${VMTEST_SUITES:-main stale-watch stale-tree}
BENCH_ARG=
[ "${VMTEST_BENCH:-0}" = 1 ] && BENCH_ARG=" vmbench=1"
BENCH_ARG="$BENCH_ARG${VMTEST_APPEND:+ $VMTEST_APPEND}"
# Kernels of `make test`, NAME or NAME:SUITE,... (the 40-minute CI budget:
# see doc/tests.md): the oldest, Debian 12's two and the newest, with
# the main and stale suites; the real-workload corpus (the longest suite by
# far), the rule advisor's and the never,exit prefix's record checks
# (advise, prefix: they need the kernel's permission classes), the what-if
# suite, the preemption suite and the hotspots suite on 6.12,
# the rule reloads on 6.1 and 7.2. `all` (make
# vmtest-all) runs the corpus and the what-ifs on every kernel and adds
# 6.12-trixie, the same series as Debian 12's 6.12.
# The corpus and 6.1's reloads are entries of their own, so that make
# test's two lanes (VMTEST_LANE below, every other entry) take about the
# same time: 6.12's corpus, 5.10 and 6.1 in one, 6.12's other suites, 7.2
# and 6.1's reloads in the other. The witness suite (every file advise
# writes against a workload that fires each rule, record for record)
# runs on 6.12 in the first lane and on 7.2 in the second.
CI_KERNELS="6.12:corpus 6.12:main,stale-watch,stale-tree,advise,prefix,whatif,preempt,hotspots 5.10 7.2:main,stale-watch,stale-tree,reload 6.1:main,stale-watch,stale-tree 6.1:reload 6.12:witness 7.2:witness"

# Initramfs building and booting are shared with tests/kernel-ab/run.sh;
# the kernel matrix with bench/guest-boots.sh.
# shellcheck source=lib-kernels.sh
. "$VMDIR/lib-kernels.sh"
# shellcheck source=lib-initramfs.sh
. "$VMDIR/lib-initramfs.sh"
# shellcheck source=lib-qemu.sh
. "$VMDIR/lib-qemu.sh"
# shellcheck source=lib-console.sh
. "$VMDIR/lib-console.sh"
# shellcheck source=suites.sh
. "$VMDIR/suites.sh"

# declare_plan SERIES SUITE: $PLANS/SERIES-SUITE.txt, the tests the
# suite's file declares (suite_tests) for a kernel of SERIES ("6.12.0" for
# 6.12 and 6.12-trixie: the release kernel-modes.sh goes by), booted with
# the command line run_guest gives it, from the rule sets the initramfs
# gets. Dies when the suite declares nothing.
declare_plan() {
	local script out=$PLANS/$1-$2.txt
	script=$(suite_script "$2")
	mkdir -p "$PLANS"
	# ($script is the file and its argument, split into words on purpose)
	# shellcheck disable=SC2086
	VMTEST_DECLARE=${1%%-*}.0 VMTEST_DIR=$VMDIR VMTEST_COMMON=$ROOT/tests/lib/common.sh \
		VMTEST_MODE_FACTS=$STATIC/mode-facts.sh \
		VMTEST_RULES_DIR=$RULES_SRC VMTEST_WITNESS_DIR=$ROOT/tests/data \
		VMTEST_CMDLINE="vmsuite=$2$BENCH_ARG" sh "$VMDIR"/$script >"$out.tmp" ||
		die "$1:$2: $VMDIR/$script declares no tests (VMTEST_DECLARE)"
	LC_ALL=C sort "$out.tmp" >"$out"
	rm -f "$out.tmp"
	[ -s "$out" ] || die "$1:$2: $VMDIR/$script declares no tests"
}

if [ $# -eq 0 ]; then
	# shellcheck disable=SC2086
	set -- $CI_KERNELS
elif [ "$*" = all ]; then
	SUITES="$SUITES corpus whatif"
	# shellcheck disable=SC2046
	set -- $(vm_kernel_names)
fi
# VMTEST_LANE=I/N: only the Ith of every N entries (make test runs two
# lanes side by side: each guest takes one host thread).
if [ -n "${VMTEST_LANE:-}" ]; then
	lane=${VMTEST_LANE%/*} lanes=${VMTEST_LANE#*/} picked=() i=0
	for k in "$@"; do
		[ $((i % lanes + 1)) != "$lane" ] || picked+=("$k")
		i=$((i + 1))
	done
	set -- "${picked[@]}"
fi
# KERNELS[i] boots the suites KSUITES[i] (a kernel may come twice).
KERNELS=()
KSUITES=()
for k in "$@"; do
	c=$(vm_kernel_canon "${k%%:*}")
	[ -n "$c" ] || die "unknown kernel '$k' (use one of: $(vm_kernel_names | tr '\n' ' ')or all)"
	i=${#KERNELS[@]}
	KERNELS+=("$c")
	KSUITES[i]=$SUITES
	[ "$k" = "${k#*:}" ] || KSUITES[i]=${k#*:}
	KSUITES[i]=${KSUITES[i]//,/ }
	for suite in ${KSUITES[i]}; do
		is_suite "$VMDIR" "$suite" || die "unknown suite '$suite' in '$k' (a suite is a tests/vm/guest-SUITE.sh that declares its tests; see suites.sh)"
		declare_plan "$c" "$suite"
	done
done

# -l lists the plans; -t keeps the guests whose plan has a test it picks,
# and a name no plan has is an error.
if [ "$LIST" = 1 ]; then
	for i in "${!KERNELS[@]}"; do
		for suite in ${KSUITES[i]}; do
			echo "== ${KERNELS[i]}:$suite ($VMDIR/$(suite_script "$suite"))"
			picked_plan "${KERNELS[i]}-$suite"
		done
	done
	exit 0
fi
if [ ${#PATTERNS[@]} -gt 0 ]; then
	hits=,
	for i in "${!KERNELS[@]}"; do
		for suite in ${KSUITES[i]}; do
			hits="$hits$(plan_patterns "${KERNELS[i]}-$suite"),"
		done
	done
	for p in "${PATTERNS[@]}"; do
		[[ $hits == *",$p,"* ]] || die "no test matches -t '$p' in the plans of: $(for i in "${!KERNELS[@]}"; do printf '%s:%s ' "${KERNELS[i]}" "${KSUITES[i]// /,}"; done)(tests/vm/run.sh ... -l lists them)"
	done
	for i in "${!KERNELS[@]}"; do
		kept=
		for suite in ${KSUITES[i]}; do
			[ -n "$(picked_plan "${KERNELS[i]}-$suite")" ] && kept="$kept $suite"
		done
		KSUITES[i]=${kept# }
	done
fi

# ------------------------------------------------------------ host tools ---
# A fresh machine may lack them; installed from Debian's registry when root.
vm_host_tools

mkdir -p "$CACHE/debs" "$CACHE/kernels"

# ------------------------------------------------------------------ guests ---

TOTAL_PASS=0
TOTAL_FAIL=0
SUMMARY=()

HARNESS_FAIL=0

# run_guest NAME KERNEL_IMAGE [SUITE]: one boot; SUITE picks the guest suite.
run_guest() {
	local series=$1${3:+-$3} kernel=$2 suite=${3:-main}
	# vm_boot reads TIMEOUT; the corpus runs hundreds of tool runs.
	local TIMEOUT=$TIMEOUT
	[ "$suite" = corpus ] && TIMEOUT=${VMTEST_CORPUS_TIMEOUT:-2400}
	[ "$suite" = advise ] && TIMEOUT=${VMTEST_ADVISE_TIMEOUT:-900}
	# The hotspots suite compares times: the guest's clock counts
	# instructions, on one vCPU (under -icount a second one's instructions
	# move the clock as well).
	local ICOUNT=$ICOUNT SMP=$SMP
	[ "$suite" = hotspots ] && ICOUNT=1 SMP=1
	local logf=$LOGDIR/console-$1${3:+-$3}.log res=$LOGDIR/results-$1${3:+-$3}.txt
	local secs status npass nfail done_line crash tests
	tests=$(plan_patterns "$1-$suite")
	log "booting $(basename "$kernel") (timeout ${TIMEOUT}s), console log: $logf"
	# The preempt suite needs a kernel that preempts inside a walk.
	vm_boot "$kernel" "$LOGDIR/initramfs.cpio.gz" "$logf" \
		"vmsuite=$suite${tests:+ vmtests=$tests}$BENCH_ARG$([ "$suite" = preempt ] && echo " preempt=full")"
	status=$VM_STATUS
	secs=$VM_SECS

	# Tolerate kernel noise in front of a marker on the same line.
	grep -o 'VMTEST \(PASS\|FAIL\|MODE\) .*' "$logf.txt" >"$res" || true
	npass=$(grep -c '^VMTEST PASS ' "$res" || true)
	nfail=$(grep -c '^VMTEST FAIL ' "$res" || true)
	done_line=$(grep -o 'VMTEST DONE.*' "$logf.txt" || true)
	crash=$(vm_crash_text "$logf")

	echo "== $series: $(basename "$kernel"), ${secs}s"
	if [ -n "$crash" ] || [ -z "$done_line" ]; then
		# The suite's lines up to the crash say nothing reliable about the
		# tool: none of them is counted.
		if [ -n "$crash" ]; then
			echo "  HARNESS FAILURE: the guest kernel crashed (test lines not counted):"
			echo "$crash" | sed 's/^/    /'
		elif [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
			echo "  HARNESS FAILURE: no VMTEST DONE within ${TIMEOUT}s (test lines not counted)"
		else
			echo "  HARNESS FAILURE: no VMTEST DONE (qemu exit status $status; test lines not counted)"
		fi
		echo "-- $series: last result lines:"
		grep -v '^VMTEST MODE ' "$res" | tail -n 5 | sed 's/^VMTEST /  /' || true
		echo "-- $series: console tail:"
		# (terminal control sequences from the firmware stripped)
		tail -n 40 "$logf.txt" | sed 's/\x1b\[[0-9;?]*[a-zA-Z]//g' | cut -c1-300
		echo "== $series: harness failure, ${secs}s"
		HARNESS_FAIL=$((HARNESS_FAIL + 1))
		TOTAL_FAIL=$((TOTAL_FAIL + 1))
		SUMMARY+=("$series ($(basename "$kernel" | sed 's/^vmlinuz-//')): HARNESS FAILURE, ${secs}s")
		return
	fi
	grep -v '^VMTEST MODE ' "$res" | sed 's/^VMTEST /  /' || true
	account "$1-$suite" "$res" "$logf.txt"
	nfail=$((nfail + ACCOUNT_FAILS))
	if [ "$nfail" -gt 0 ]; then
		echo "-- $series: details (VMTEST INFO lines):"
		grep -o 'VMTEST INFO .*' "$logf.txt" | sed 's/^VMTEST INFO /  /' | tail -n 80 || true
	fi
	echo "== $series: $npass passed, $nfail failed, ${secs}s"
	TOTAL_PASS=$((TOTAL_PASS + npass))
	TOTAL_FAIL=$((TOTAL_FAIL + nfail))
	SUMMARY+=("$series ($(basename "$kernel" | sed 's/^vmlinuz-//')): $npass passed, $nfail failed, ${secs}s")
}

# account PLAN RESULTS CONSOLE: what a guest that finished must also show
# (console_account, lib-console.sh: DONE and the suite's rc, its summary
# line equal to the result lines, every test of $PLANS/PLAN.txt, the
# suite's declaration, and no other, no kernel problem on the console),
# each missing piece a FAIL line, counted in ACCOUNT_FAILS.
account() {
	local plan=$PLANS/$1.txt console=$3
	ACCOUNT_FAILS=0
	if [ ${#PATTERNS[@]} -gt 0 ]; then
		# Under -t, only the tests it picked are expected.
		picked_plan "$1" >"$LOGDIR/picked-$1.txt"
		plan=$LOGDIR/picked-$1.txt
	fi
	CONSOLE_INDENT="  " console_account "$1" "$console" "$plan"
	ACCOUNT_FAILS=$((ACCOUNT_FAILS + CONSOLE_FAILS))
}

vm_build_initramfs "$LOGDIR/initramfs-root" "$LOGDIR/initramfs.cpio.gz"
for i in "${!KERNELS[@]}"; do
	series=${KERNELS[i]}
	# (-t left no suite of this entry.)
	[ -n "${KSUITES[i]}" ] || continue
	if ! kernel=$(vm_fetch_kernel "$series") || [ -z "$kernel" ]; then
		echo "== $series: FAIL no kernel package found or downloaded"
		SUMMARY+=("$series: no kernel")
		TOTAL_FAIL=$((TOTAL_FAIL + 1))
		continue
	fi
	# Stale accounting lasts until reboot: each case gets a fresh guest.
	for suite in ${KSUITES[i]}; do
		if [ "$suite" = main ]; then
			run_guest "$series" "$kernel"
		else
			run_guest "$series" "$kernel" "$suite"
		fi
	done
done

echo "== attach modes (tests/vm/matrix-table.sh)"
# shellcheck disable=SC2046
"$VMDIR/matrix-table.sh" "$LOGDIR" $(printf '%s\n' "${KERNELS[@]}" | awk '!seen[$0]++') 2>&1 || true
echo "== summary"
for s in "${SUMMARY[@]}"; do echo "  $s"; done
echo "$TOTAL_PASS passed, $TOTAL_FAIL failed"
[ "$HARNESS_FAIL" -eq 0 ] || exit 2
[ "$TOTAL_FAIL" -eq 0 ]
