#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Stale rule accounting (the series' second patch), in a fresh guest of its
# own: a removed watch or tree leaves audit_n_rules counting a rule that is
# gone until reboot, so each case needs a guest nobody made stale before.
#   guest-stale.sh watch   fresh: not stale; an exit rule added and deleted:
#                          not stale; a watched directory removed: stale,
#                          still after auditctl -D
#   guest-stale.sh tree    a watched tree removed: stale, still after -D
#   ... [-t NAME]...       only the results NAME names (the steps before
#                          them run all the same: each needs the last)

. "${VMTEST_DIR:-/vmtest}/guest-lib.sh"

CASE=${1:-}
[ $# -eq 0 ] || shift
guest_test_args "$@"
LOOPS=1000

# stale_run NAME MODE: auditskip's summary for a getpid loop, flattened.
stale_run() {
	tool "$1" --mode "$2" --json -- getpid_loop $LOOPS
	jlast "$T/$1.out" summary >"$T/$1.flat"
}

# expect NAME MODE STATE: the run's stale state, with the evidence it rests on.
expect() {
	stale_run "$1" "$2"
	_state=$(get "$T/$1.flat" stale.state)
	_n=$(get "$T/$1.flat" stale.audit_n_rules)
	_counted=$(get "$T/$1.flat" stale.counted_rules)
	_paid=$(get "$T/$1.flat" stale.syscalls)
	_walks=$(scget "$T/$1.flat" $NR_GETPID walks)
	_why=$(get "$T/$1.flat" stale.reason)
	_proofs=$(get "$T/$1.flat" stale.evidence.proofs)
	_first=$(get "$T/$1.flat" stale.evidence.syscalls.0.syscall)
	log "$1 ($2): stale=$_state audit_n_rules=$_n counted=$_counted syscalls=$_paid getpid walks=${_walks:-0}"
	log "$1 ($2): reason: $_why; evidence: ${_proofs:-no} proofs, first ${_first:-none} by $(get "$T/$1.flat" stale.evidence.syscalls.0.comm)"
	if [ $rc -ne 0 ] || [ -z "$_state" ]; then
		fail "$1-$2" "auditskip exit status $rc"
		dump "$1"
	elif [ "$_state" != "$3" ]; then
		fail "$1-$2" "stale=$_state, want $3"
	elif [ "$3" = yes ] && [ "${_walks:-0}" -lt $LOOPS ]; then
		# Stale contexts are non-dummy: every getpid walks the (empty) list.
		fail "$1-$2" "stale but only ${_walks:-0} getpid walks of $LOOPS"
	elif [ "$3" = yes ] && [ "$_paid" -lt $LOOPS ]; then
		fail "$1-$2" "stale but only $_paid syscalls counted as paying for it"
	elif [ "$3" = no ] && [ "${_walks:-0}" != 0 ]; then
		fail "$1-$2" "not stale yet ${_walks} getpid walks"
	elif [ "$2" = "$AUTO" ] && [ "$3" = yes ] && [ "$_n" -le "$_counted" ]; then
		fail "$1-$2" "audit_n_rules=$_n not above the $_counted rules that count"
	elif [ "$2" = tracepoint ] && [ "$3" = yes ] && [ "${_proofs:-0}" -lt 1 ]; then
		fail "$1-$2" "a yes without evidence (reason: $_why)"
	elif [ "$2" = tracepoint ] && [ "$3" = yes ] &&
		! echo "$_first" | grep -qE '^(getpid|getppid|gettid|getuid|geteuid|getgid|getegid|getpgrp|sched_yield)$'; then
		fail "$1-$2" "evidence names '$_first', not a syscall that logs no record"
	elif [ "$2" = tracepoint ] && [ "$3" = no ] &&
		[ "$_why" != "a syscall entered with a dummy context while no rule counted" ]; then
		fail "$1-$2" "a no resting on '$_why'"
	else
		pass "$1-$2"
	fi
}

# With vmbench=1 (bench/reproduce.sh): getpid latency now, as the series
# times it; TCG makes the numbers emulated, comparable only with each other.
bench() {
	grep -q vmbench=1 /proc/cmdline || return 0
	echo "VMTEST BENCH $CASE $1 $(audit_bench -n 100000 -r 11 -w 1 --json)"
}

# Both ways of telling: audit_n_rules read by BPF (auto mode, kallsyms) and
# walks while no rule is loaded (tracepoint mode, where it loads: the main
# suite checks that 5.10 refuses it, and why).
STALE_MODES=$AUTO
case " $MODES " in *" tracepoint "*) STALE_MODES="$STALE_MODES tracepoint" ;; esac
expect_both() {
	for _sm in $STALE_MODES; do expect "$1" "$_sm" "$2"; done
}

# The steps of each case, in order (below); each gives STEP-MODE for
# every mode of STALE_MODES.
WATCH_STEPS="fresh plain-rule-deleted watch-removed watch-removed-after-D"
TREE_STEPS="tree-removed tree-removed-after-D"

# suite_tests: the results of CASE (watch or tree); an unknown case
# declares nothing and fails.
suite_tests() {
	case "$CASE" in
	watch) _steps=$WATCH_STEPS ;;
	tree) _steps=$TREE_STEPS ;;
	*) die "unknown case '$CASE' (watch or tree)" ;;
	esac
	echo audit-enable
	for _st in $_steps; do
		for _sm in $STALE_MODES; do echo "$_st-$_sm"; done
	done
}
declared

t_audit_enable
case "$CASE" in
watch)
	expect_both fresh no
	bench no-rules
	auditctl -a always,exit -F arch=b64 -S openat -F uid=4242 -k vmtest >/dev/null
	auditctl -d always,exit -F arch=b64 -S openat -F uid=4242 -k vmtest >/dev/null
	expect_both plain-rule-deleted no
	mkdir -p /tmp/sw && touch /tmp/sw/f
	auditctl -w /tmp/sw/f -p wa -k vmtest >/dev/null
	rm -rf /tmp/sw
	sleep 1 # fsnotify removes the watch rule asynchronously
	expect_both watch-removed yes
	bench stale-watch
	auditctl -D >/dev/null
	expect_both watch-removed-after-D yes
	;;
tree)
	mkdir -p /tmp/st/a/b
	auditctl -a always,exit -F dir=/tmp/st -F perm=wa -k vmtest >/dev/null
	rm -rf /tmp/st
	sleep 1
	expect_both tree-removed yes
	bench stale-tree
	auditctl -D >/dev/null
	expect_both tree-removed-after-D yes
	;;
*)
	fail stale "unknown case '$CASE'"
	;;
esac
summary_line
