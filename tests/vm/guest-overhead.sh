#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest suite "overhead" (bench/overhead-guest.sh): what the trampoline
# modes add to getpid, against empty programs on the same functions
# (empty_probes MODE: floor-MODE, the floor of any tool hooking them), with
# 1, 64, 1024 and 4096 exit rules that cannot match getpid (vmovh_rules=
# R,R,... on the kernel command line picks others, vmovh_cycles=N the
# number of cycles). Each cycle times nothing attached before and after
# the tools. One line per measurement:
#   VMTEST OVERHEAD rules=R cycle=C tool=T ns=NS
# (tool "none" is nothing attached; NS, the least round's ns per call), and
# with bpftrace in the initramfs tracepoint mode against it (below).
# Emulated (TCG) nanoseconds: compare them only with each other.
. "${VMTEST_DIR:-/vmtest}/guest-lib.sh"
guest_test_args "$@"

cmdline_arg() { echo "$KCMDLINE" | sed -n "s/.*$1=\([^ ]*\).*/\1/p" | tr , ' '; }
RULE_SETS=$(cmdline_arg vmovh_rules)
RULE_SETS=${RULE_SETS:-1 64 1024 4096}
CYCLES=$(cmdline_arg vmovh_cycles)
CYCLES=${CYCLES:-3}

# suite_tests: one result per rule count (the loop at the end).
suite_tests() { for rules in $RULE_SETS; do echo "overhead-rules-$rules"; done; }
declared

# The least round: under -icount a round counts the instructions run on the
# one vCPU, getpid's and whatever else ran meanwhile (the loader's own
# work), and what else runs only adds. Every call of a round costs the same
# instructions, so long lists need fewer calls: about 4e8 instructions a
# round at most (each rule costs getpid some 20).
least_ns() {
	audit_bench -n $CALLS -r 5 -w 1 --json | sed -n 's/.*"min_ns": *\([0-9.]*\).*/\1/p'
}

# measure RULES CYCLE TOOL READY COMMAND...: starts COMMAND, waits until its
# output has a line matching READY (up to 5 minutes: bpftrace's LLVM takes a
# while under TCG), times getpid, and stops it with SIGINT.
measure() {
	_r=$1 _c=$2 _t=$3 _ready=$4
	shift 4
	# Emptied here, not by the child's redirection: the child may not have
	# run yet when the wait below first reads the file, and the last run's
	# ready line would send SIGINT before this tool handles it (a
	# background job starts with SIGINT ignored), leaving it running.
	: >"$T/ovh.out"
	"$@" >"$T/ovh.out" 2>"$T/ovh.err" &
	_pid=$!
	_w=0
	while ! grep -q "$_ready" "$T/ovh.out" 2>/dev/null; do
		sleep 0.2
		_w=$((_w + 1))
		if [ $_w -gt 1500 ] || ! kill -0 $_pid 2>/dev/null; then
			fail "overhead-$_t" "$* did not start: $(tail -n 1 "$T/ovh.err")"
			kill $_pid 2>/dev/null
			wait $_pid 2>/dev/null
			return
		fi
	done
	sleep 1
	echo "VMTEST OVERHEAD rules=$_r cycle=$_c tool=$_t ns=$(least_ns)"
	kill -INT $_pid
	stopped_or_dumped $_pid "$_t"
	wait $_pid
}

# What each tool prints once it counts.
AUDITSKIP_READY='"type":"start"'
BPFTRACE_READY='^Attaching'

# With bpftrace in the initramfs (VMTEST_BPFTRACE=1): tracepoint mode
# against bpftrace counting the same event and against bpftrace's program
# emptied, as bench/overhead.sh compares them on the host.
BPFTRACE_PROG='tracepoint:raw_syscalls:sys_exit { @[tid] = count(); }'
BPFTRACE_EMPTY='tracepoint:raw_syscalls:sys_exit { }'
COMPARE_BPFTRACE=
case " $MODES " in *" tracepoint "*) command -v bpftrace >/dev/null && COMPARE_BPFTRACE=1 ;; esac
[ -z "$COMPARE_BPFTRACE" ] || echo "VMTEST BPFTRACE $BPFTRACE_PROG"

# stopped_or_dumped PID TOOL: waits up to 60 s for the tool to end after
# SIGINT; if it does not, fails saying where it sleeps and its signal masks
# (the kernel's blocked tasks on the console) and kills it, instead of the
# guest's time limit ending the run with nothing to show.
stopped_or_dumped() {
	_w=0
	while [ -d /proc/$1 ] && ! grep -q '^State:.*Z' /proc/$1/status 2>/dev/null; do
		sleep 0.2
		_w=$((_w + 1))
		[ $_w -le 300 ] && continue
		fail "overhead-$2" "$2 did not end 60 s after SIGINT: $(grep '^State:' /proc/$1/status), wchan $(cat /proc/$1/wchan 2>/dev/null)"
		echo "  syscall $(cat /proc/$1/syscall 2>/dev/null);" \
			$(grep -E '^Sig(Pnd|Blk|Ign|Cgt):' /proc/$1/status | tr '\t' ' ')
		echo w >/proc/sysrq-trigger
		kill -KILL $1
		return
	done
}

auditctl -e 1 >/dev/null
# For their first seconds 6.12 guests timed getpid at twice what every later
# timing gave, and after 20 s idle no longer (the cause was not found: no
# message, the same clocksource). Idle time costs nothing under -icount.
sleep 30
for rules in $RULE_SETS; do
	CALLS=$((20000000 / rules))
	[ $CALLS -le 20000 ] || CALLS=20000
	rules_reset
	load_openat_rules $rules || { fail overhead-rules-$rules "could not load $rules rules"; continue; }
	c=1
	while [ $c -le $CYCLES ]; do
		echo "VMTEST OVERHEAD rules=$rules cycle=$c tool=none ns=$(least_ns)"
		for m in $TRAMPOLINE_MODES; do
			measure $rules $c $m "$AUDITSKIP_READY" auditskip -m $m --json
			measure $rules $c floor-$m attached empty_probes $m
		done
		if [ -n "$COMPARE_BPFTRACE" ]; then
			measure $rules $c tracepoint "$AUDITSKIP_READY" auditskip -m tracepoint --json
			measure $rules $c floor-tracepoint attached empty_probes enter
			measure $rules $c bpftrace "$BPFTRACE_READY" bpftrace -e "$BPFTRACE_PROG"
			measure $rules $c bpftrace-empty "$BPFTRACE_READY" bpftrace -e "$BPFTRACE_EMPTY"
		fi
		echo "VMTEST OVERHEAD rules=$rules cycle=$c tool=none ns=$(least_ns)"
		c=$((c + 1))
	done
	pass overhead-rules-$rules "$CYCLES cycles timed"
done
rules_reset
summary_line
