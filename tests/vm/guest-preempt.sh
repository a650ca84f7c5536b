#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The preemption suite (vmsuite=preempt, booted with preempt=full by
# run.sh): filter-op and filter-syscall keep the walk each CPU is in, which
# pairs a walk's fexit with its fentry only while the task stays on its CPU.
# Here a CPU hog shares CPU 0 with getpid calls walking 1024 rules, with
# --timing (so every walk's end is paired), and the tick switches the task
# out inside walks: those must be counted (blind_spots.walks_switched_out),
# the walks timed plus them must be all the walks but the program runs the
# kernel skipped (counted too), and no match be missed.
# A `never` getpid rule after the 1024 makes every getpid walk visit them all
# and match at the end (no record): the getpid walks, and the matches among
# them, must be the getpid calls the workload made (less only the program
# runs the kernel skipped), so that "no match missed" is said of every walk.

# shellcheck source=guest-lib.sh
. "${VMTEST_DIR:-/vmtest}/guest-lib.sh"
guest_test_args "$@"

# suite_tests: one result per outcome mode (the loop at the end).
suite_tests() { for M in $OUTCOME_MODES; do echo "preempt-$M"; done; }
declared

t_switched_out() {
	_m=$1
	rules_reset
	if ! load_openat_rules 1024 ||
		! auditctl -a never,exit -F arch=b64 -S getpid -k vmtest-match >/dev/null; then
		fail preempt-$_m "could not load rules"
		return
	fi
	taskset -c 0 sh -c 'while :; do :; done' &
	_hog=$!
	# The workload's own tally: getpid_loop makes exactly this many getpid
	# calls (busybox taskset makes none), and each walks the exit list once
	# while the rules are loaded: the tool's getpid walks are held to it,
	# not to its own count.
	_calls=5000
	tool preempt-$_m --mode $_m --timing --json -- taskset -c 0 getpid_loop $_calls
	kill $_hog
	wait $_hog 2>/dev/null
	rules_reset
	jlast "$T/preempt-$_m.out" summary >"$T/preempt-$_m.flat"
	_out=$(get "$T/preempt-$_m.flat" blind_spots.walks_switched_out)
	_walks=$(scsum "$T/preempt-$_m.flat" walks)
	_timed=$(histsum "$T/preempt-$_m.flat" walks)
	# A program run the kernel skipped (another task preempted inside the
	# same program on this CPU) is counted as blind_spots.recursion_misses.
	# A skipped fexit leaves a counted walk neither timed nor seen switched
	# out; a skipped fentry leaves a walk never counted whose fexit finds no
	# start and counts it switched out (walk_begun()). So timed plus
	# switched out differs from the walks, either way, by at most the runs
	# skipped.
	_skipped=$(get "$T/preempt-$_m.flat" blind_spots.recursion_misses)
	_missed=$(get "$T/preempt-$_m.flat" missed_matches)
	# A getpid walk that is not needless matched (its bit is set: none is skippable).
	_gw=$(scget "$T/preempt-$_m.flat" $NR_GETPID walks)
	_needless=$(scget "$T/preempt-$_m.flat" $NR_GETPID needless_despite_mask)
	_matched=$((${_gw:-0} - ${_needless:-0}))
	log "preempt-$_m: $_walks walks, $_timed timed, ${_out:-none} switched out, ${_skipped:-none} program runs skipped, $_matched getpid walks matched, missed matches ${_missed:-none}"
	if [ $rc -ne 0 ]; then
		fail preempt-$_m "auditskip exit status $rc"
		dump preempt-$_m
	elif [ -z "$_out" ] || [ "$_out" -le 0 ]; then
		fail preempt-$_m "no walk counted as switched out (${_out:-none}) with a hog on the walking CPU"
	elif [ -z "$_skipped" ] || [ $((_timed + _out - _walks)) -gt "$_skipped" ] ||
		[ $((_walks - _timed - _out)) -gt "$_skipped" ]; then
		fail preempt-$_m "timed $_timed + switched out $_out, walks $_walks: more apart than the ${_skipped:-unreported} program runs skipped"
	elif [ "${_gw:-0}" -gt "$_calls" ] || [ $((_calls - ${_gw:-0})) -gt "$_skipped" ]; then
		# A skipped fentry loses a walk (counted in recursion_misses); none
		# can be counted that the workload did not make.
		fail preempt-$_m "getpid walks ${_gw:-none}, the workload made $_calls calls (program runs skipped: $_skipped)"
	elif [ $((_calls - _matched)) -gt $((_skipped + _out)) ]; then
		# A walk switched out has no outcome (blind_spots.walks_switched_out):
		# it is the only match besides a skipped run the tool may not see.
		fail preempt-$_m "$_matched getpid walks seen matching the never rule, the workload made $_calls calls, each matching (program runs skipped: $_skipped, walks switched out: $_out)"
	elif [ "$_missed" != 0 ]; then
		fail preempt-$_m "missed_matches ${_missed:-none}"
	else
		pass preempt-$_m "$_out of $_walks walks switched out; getpid walks $_gw, $_matched matched, of $_calls calls"
	fi
}

if ! grep -qw preempt=full /proc/cmdline; then
	fail preempt "booted without preempt=full: $(cat /proc/cmdline)"
elif [ -z "$OUTCOME_MODES" ]; then
	fail preempt "no outcome mode (filter-op, filter-syscall) on this kernel"
else
	for M in $OUTCOME_MODES; do run_test preempt-$M t_switched_out $M; done
fi
summary_line
