#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Rule reloads (vmsuite=reload): Debian's 30-stig loaded as augenrules does
# (-D, then every rule) over and over, with a rule added and deleted between
# two loads, while a workload runs. Each mode counts the workload's process
# beside the outcome mode, the reference: the same getpid walks (but for
# program runs the kernel reports it skipped), no match
# missed, and no "stale: yes" on a kernel that is not stale. Where BPF keeps
# the mirror, the skippable walks too, but for the walk in flight when a
# rule changed: each instance rebuilds its own mirror, one after the other,
# and the workload is one thread, so the two may differ by at most one walk
# a change. Tracepoint mode's mirror follows the changes the loader hears,
# later (its blind spot): its skippable walks are not compared.

# shellcheck source=guest-lib.sh
. /vmtest/guest-lib.sh
guest_test_args "$@"

REF=${OUTCOME_MODES%% *}
CALLS=300000

# started FILE: waits up to 60 s for auditskip's start line in FILE.
started() {
	_t=0
	until grep -q '"type" *: *"start"' "$1" 2>/dev/null; do
		[ $_t -gt 300 ] && return 1
		sleep 0.2
		_t=$((_t + 1))
	done
}

# reload_while PID: reloads the set until PID is gone; prints how many times.
reload_while() {
	_n=0
	while kill -0 "$1" 2>/dev/null; do
		auditctl -i -R "$T/stig.load" >/dev/null 2>&1
		auditctl -a always,exit -F arch=b64 -S getpid -F uid=4242 -k vmreload >/dev/null 2>&1
		auditctl -d always,exit -F arch=b64 -S getpid -F uid=4242 -k vmreload >/dev/null 2>&1
		_n=$((_n + 1))
	done
	echo $_n >"$T/reloads"
}

t_reload() {
	_m=$1
	_name=reload-$_m
	rules_reset
	{
		echo -D
		grep -E '^-(a|w) ' "$RULES_DIR/30-stig.rules"
	} >"$T/stig.load"
	rm -f "$T/ready" "$T/go"
	getpid_loop 0 --pause "$T/ready" "$T/go" $CALLS &
	_w=$!
	until [ -e "$T/ready" ]; do sleep 0.1; done
	auditskip --mode "$REF" --json -p $_w >"$T/$_name-ref.out" 2>"$T/$_name-ref.err" &
	_ref=$!
	auditskip --mode "$_m" --json -p $_w >"$T/$_name.out" 2>"$T/$_name.err" &
	_pid=$!
	if ! started "$T/$_name-ref.out" || ! started "$T/$_name.out"; then
		kill $_w $_ref $_pid 2>/dev/null
		fail $_name "auditskip did not start"
		dump $_name
		return
	fi
	reload_while $_w &
	_reloading=$!
	touch "$T/go"
	wait $_w
	wait $_reloading
	wait $_ref
	_rrc=$?
	wait $_pid
	rc=$?
	rules_reset
	jlast "$T/$_name-ref.out" summary >"$T/$_name-ref.flat"
	jlast "$T/$_name.out" summary >"$T/$_name.flat"
	_rw=$(scget "$T/$_name-ref.flat" $NR_GETPID walks)
	_rs=$(scget "$T/$_name-ref.flat" $NR_GETPID skippable_walks)
	_tw=$(scget "$T/$_name.flat" $NR_GETPID walks)
	_ts=$(scget "$T/$_name.flat" $NR_GETPID skippable_walks)
	_missed="$(get "$T/$_name-ref.flat" missed_matches) $(get "$T/$_name.flat" missed_matches)"
	_stale=$(get "$T/$_name.flat" stale.state)
	# Program runs the kernel skipped (a program the kernel runs
	# preemptible, preempted while another task's syscall came):
	# each may be one walk either instance did not see, so the two counts may
	# differ by that many, and by no more.
	_skipped=$(($(get "$T/$_name-ref.flat" blind_spots.recursion_misses) + $(get "$T/$_name.flat" blind_spots.recursion_misses)))
	_apart=$((_tw - _rw))
	[ "$_apart" -lt 0 ] && _apart=$((-_apart))
	# -D, the set's rules, one added and deleted: each reload's changes.
	_changes=$(($(cat "$T/reloads") * ($(wc -l <"$T/stig.load") + 2)))
	log "$_name: $(cat "$T/reloads") reloads; getpid walks $_tw (reference $REF: $_rw), skippable $_ts ($_rs) over $_changes rule changes, missed $_missed, BPF runs skipped $_skipped, stale $_stale ($(get "$T/$_name.flat" stale.reason))"
	if [ $rc -ne 0 ] || [ $_rrc -ne 0 ] || [ -z "$_tw" ] || [ -z "$_rw" ]; then
		fail $_name "auditskip exit status $rc (reference $_rrc)"
		dump $_name
	elif [ "$(cat "$T/reloads")" -lt 2 ]; then
		fail $_name "only $(cat "$T/reloads") reloads while the workload ran"
	elif [ "$_apart" -gt "$_skipped" ] || [ "$_rw" -le 0 ]; then
		fail $_name "getpid walks $_tw, the reference counted $_rw: more apart than the $_skipped BPF runs the kernel skipped"
	elif [ "$_m" != tracepoint ] &&
		{ [ $((_ts - _rs)) -gt "$_changes" ] || [ $((_rs - _ts)) -gt "$_changes" ]; }; then
		fail $_name "skippable getpid walks $_ts, the reference counted $_rs: more apart than the $_changes rule changes"
	elif [ "$_missed" != "0 0" ] && [ "$_missed" != "0 null" ]; then
		fail $_name "missed matches (reference, this mode): $_missed"
	elif [ "$_stale" = yes ]; then
		fail $_name "stale: yes on a kernel that is not stale"
	else
		pass $_name "$_tw getpid walks, the reference $_rw ($_skipped BPF runs skipped), $(cat "$T/reloads") reloads"
	fi
}

t_audit_enable
if [ -z "$REF" ]; then
	fail reload "no outcome mode (filter-op, filter-syscall) on this kernel to hold the others to"
else
	for M in $MODES; do run_test reload-$M t_reload $M; done
fi
summary_line
