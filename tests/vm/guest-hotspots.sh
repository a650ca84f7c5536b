#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The hotspots suite (vmsuite=hotspots, booted with -icount: the guest's
# nanoseconds count instructions, so a busy host moves nothing).
# `auditskip hotspots` times audit's parts with a hook on each, the hooks'
# cost taken off; the same command is also timed with only the exit path
# hooked. The parts must add up to that within 10%, for a getpid loop and
# a tar run that writes records; every exit that ran the filters must have
# had its walk timed (where the kernel has a walk to hook) and records must
# be counted where the kernel wrote some (its lost counter aside); and a
# watch-heavy and a rule-heavy set on the same tar run must rank as their
# parts say: the watches' set spends more in the names' checks, the rules'
# set more in the walk. A whole-machine run (-d) must hold every call of a
# loop run inside it.
#
# Result lines:
#   PASS hotspots/getpid/sum, hotspots/tar/sum, hotspots/tar/records,
#        hotspots/getpid/walks, hotspots/machine/calls,
#        hotspots/machine/walks, hotspots/rank/walk, hotspots/rank/inodes,
#        hotspots/cost (getpid plain, under empty programs on the same
#        hooks, under the breakdown: the numbers doc/hotspots.md gives)
#   FAIL ...: reason

# shellcheck source=guest-lib.sh
. "${VMTEST_DIR:-/vmtest}/guest-lib.sh"
guest_test_args "$@"

# suite_tests: the results below, in the order they come.
suite_tests() {
	for _r in getpid/sum getpid/walks machine/calls machine/walks cost tar/sum tar/records rank/walk rank/inodes; do
		echo "hotspots/$_r"
	done
}
declared

D=/tmp/hs
tar_tree $D/dir

# hot NAME ARGS...: auditskip hotspots --json ARGS, flattened into $T/NAME.flat.
hot() {
	_n=$1
	shift
	tool "$_n" hotspots --json "$@"
	jflat <"$T/$_n.out" >"$T/$_n.flat"
	log "$_n: $(grep -v '^$' "$T/$_n.err" | tail -n 1)"
	log "$_n: $(grep -E '^(exit_alone_ns|exit_parts_ns|hook_interval_ns|hook_nested_ns|all\.(calls|exits|filtered|walks|records|exit_ns|syscall_ns)|all\.parts\.[a-z_]+\.ns|not_timed\.[a-z ]+)=' "$T/$_n.flat" | tr '\n' ' ')"
}

# sum NAME: the parts against the exit path timed alone, within 10%.
sum_check() {
	_a=$(get "$T/$1.flat" exit_alone_ns)
	_p=$(get "$T/$1.flat" exit_parts_ns)
	if [ "$rc" != 0 ] || [ -z "$_a" ] || [ -z "$_p" ]; then
		fail "hotspots/$1/sum" "exit status $rc, exit path alone '$_a' ns, parts '$_p' ns"
		dump "$1"
		return
	fi
	if awk -v a="$_a" -v p="$_p" 'BEGIN { d = p - a; if (d < 0) d = -d; exit !(a > 0 && d <= a / 10) }'; then
		pass "hotspots/$1/sum" "parts $_p ns, the exit path alone $_a ns"
	else
		fail "hotspots/$1/sum" "parts add up to $_p ns, the exit path alone took $_a ns (over 10% apart)"
	fi
}

# The kernel's decisions: every exit that ran the filters walked the exit list.
walks_check() {
	if walks_timed "$T/$1.flat"; then
		pass "hotspots/$1/walks" "$WALKS_SEEN"
	else
		fail "hotspots/$1/walks" "$WALKS_SEEN"
	fi
}

# said SECONDS FILE PATTERN PID: wait, at most SECONDS, until the process
# PID wrote PATTERN to FILE or ended.
said() {
	_w=0
	while ! grep -q "$3" "$2" && [ $_w -lt $(($1 * 10)) ] && kill -0 "$4" 2>/dev/null; do
		sleep 0.1
		_w=$((_w + 1))
	done
}

part() { # part NAME PART: its ns per call
	get "$T/$1.flat" "all.parts.$2.ns"
}

auditctl -e 1 >/dev/null
# Room for every record: a full backlog would make audit_log_start() wait.
auditctl -b 8192 >/dev/null
rules_reset
load_openat_rules 20 || fail hotspots/load "20 openat rules did not load"

hot getpid -- getpid_loop 20000
sum_check getpid
walks_check getpid

# The whole machine (-d): a loop of known length, run once the run says
# it is timing (every hook attached) and done before the interval ends, is
# there whole, and every exit that ran the filters was walked and timed
# (a syscall begun while the hooks were still being attached is left out).
MACHINE_CALLS=5000
auditskip hotspots --json -d 10 >"$T/machine.out" 2>"$T/machine.err" &
_hp=$!
said 60 "$T/machine.err" 'timing the whole machine' $_hp
getpid_loop $MACHINE_CALLS >/dev/null
kill -0 $_hp 2>/dev/null && _inside=yes || _inside=no
wait $_hp
rc=$?
jflat <"$T/machine.out" >"$T/machine.flat"
_i=$(sed -n 's/^syscalls\.\([0-9]*\)\.name="*getpid"*$/\1/p' "$T/machine.flat" | head -n 1)
_c=$(get "$T/machine.flat" "syscalls.$_i.calls")
if [ "$rc" = 0 ] && [ "$_inside" = yes ] && [ -n "$_i" ] && [ "$_c" -ge $MACHINE_CALLS ] &&
	[ "$_c" -le $((2 * MACHINE_CALLS)) ]; then
	pass hotspots/machine/calls "$_c getpid calls, the loop's $MACHINE_CALLS among them"
else
	fail hotspots/machine/calls "exit status $rc, the loop inside the interval: $_inside, getpid calls '$_c' (want $MACHINE_CALLS to $((2 * MACHINE_CALLS)))"
	dump machine
fi
walks_check machine

# Its own cost: getpid's least round (audit_bench; under -icount a round
# counts the instructions run) plain, under empty programs on the same
# hooks (empty_probes hotspots) and under the breakdown itself.
least_ns() {
	sed -n 's/.*"min_ns": *\([0-9.]*\).*/\1/p' "$1"
}
BENCH="audit_bench -n 20000 -r 5 -w 1 --json"
$BENCH >"$T/plain.bench"
: >"$T/empty.out"
empty_probes hotspots >"$T/empty.out" 2>"$T/empty.err" &
_ep=$!
said 120 "$T/empty.out" attached $_ep
$BENCH >"$T/empty.bench"
kill -INT $_ep
wait $_ep
hot cost --once -- sh -c "$BENCH >$T/hot.bench"
_p=$(least_ns "$T/plain.bench") _e=$(least_ns "$T/empty.bench") _h=$(least_ns "$T/hot.bench")
if [ -n "$_p" ] && [ -n "$_e" ] && [ -n "$_h" ] && awk -v p="$_p" -v e="$_e" -v h="$_h" 'BEGIN { exit !(p < e && e < h) }'; then
	pass hotspots/cost "getpid $_p ns plain, $_e ns under empty programs on the same hooks, $_h ns under the breakdown"
else
	fail hotspots/cost "getpid '$_p' ns plain, '$_e' under empty programs ($(tail -n 1 "$T/empty.err")), '$_h' under the breakdown"
fi

# Records: a read watch on the directory tar reads. An audit daemon
# (audit_records) takes them by netlink as in production, and is the
# ground truth of how many the kernel wrote.
auditctl -w $D/dir -p r -k hs >/dev/null
$TAR
listen "$T/held" "$T/ready" # records from before, held for the first listener
kill -TERM $LISTENER
wait $LISTENER
listen "$T/tar.raw" "$T/ready"
# Four runs a pass at nice -20: the records wake kauditd and the daemon,
# and each time they take the CPU from tar inside the exit path, the
# switches' own work counts as tar's; fewer of them, and averaged.
hot tar -- sh -c "renice -n -20 -p \$\$ >/dev/null && $TAR && $TAR && $TAR && $TAR"
kill -TERM $LISTENER
wait $LISTENER
sum_check tar
listen "$T/tarrec.raw" "$T/ready"
hot tarrec --once -- $TAR
kill -TERM $LISTENER
wait $LISTENER
_lrc=$?
# tar's events: from each SYSCALL record of comm "tar" to its EOE (the
# loader's own bpf() and close() calls log BPF events of their own).
_k=$(awk '/^type=1300 / && /comm="tar"/ { in_tar = 1 } in_tar { n++ }
	/^type=1320 / { in_tar = 0 } END { print n + 0 }' "$T/tarrec.raw")
_r=$(get "$T/tarrec.flat" all.records)
_l=$(get "$T/tarrec.flat" lost_records)
if [ $_lrc = 0 ] && [ -n "$_r" ] && [ "$_r" -ge 64 ] && [ "$_r" = "$_k" ] && [ "$_l" = 0 ]; then
	pass hotspots/tar/records "$_r records, as many read from the kernel, none lost"
else
	fail hotspots/tar/records "$_r records counted, $_k read from the kernel (audit_records exit status $_lrc; tar opened 64 watched files), $_l lost"
fi

# The same tar run under a rule-heavy and a watch-heavy set, no records.
rules_reset
load_openat_rules 200 || fail hotspots/load "200 openat rules did not load"
hot rules --once -- $TAR
rules_reset
_i=0
while [ $_i -lt 64 ]; do
	echo "-w $D/dir/f$_i -p wa -k hs"
	_i=$((_i + 1))
done >"$T/watches.rules"
auditctl -R "$T/watches.rules" >/dev/null || fail hotspots/load "64 watches did not load"
hot watches --once -- $TAR
rules_reset
_rw=$(part rules walk) _ww=$(part watches walk)
_ri=$(part rules inodes) _wi=$(part watches inodes)
if awk -v r="$_rw" -v w="$_ww" 'BEGIN { exit !(r > w) }'; then
	pass hotspots/rank/walk "walk: rule-heavy $_rw ns, watch-heavy $_ww ns"
else
	fail hotspots/rank/walk "walk: rule-heavy $_rw ns is not above watch-heavy $_ww ns"
fi
if awk -v r="$_ri" -v w="$_wi" 'BEGIN { exit !(w > r) }'; then
	pass hotspots/rank/inodes "names' checks: watch-heavy $_wi ns, rule-heavy $_ri ns"
else
	fail hotspots/rank/inodes "names' checks: watch-heavy $_wi ns is not above rule-heavy $_ri ns"
fi

# The questions doc/hotspots.md answers, on one workload (four tar runs
# of the 64 files, at nice -20), records counted: INFO lines only.
answer() { # answer NAME RULESFILE
	rules_reset
	auditctl -R "$2" >/dev/null 2>&1 || log "answer $1: auditctl -R refused a line"
	hot "ans-$1" --once -- sh -c "renice -n -20 -p \$\$ >/dev/null && $TAR && $TAR && $TAR && $TAR"
	_f="$T/ans-$1.flat"
	echo "VMTEST INFO answer $1: rules $(auditctl -l | grep -vc '^No rules') syscalls $(get "$_f" all.calls) records $(get "$_f" all.records) syscall_ns $(get "$_f" all.syscall_ns) exit_ns $(get "$_f" all.exit_ns) walk $(part "ans-$1" walk) inodes $(part "ans-$1" inodes) records_ns $(part "ans-$1" records) log_start $(part "ans-$1" log_start) rest $(part "ans-$1" rest)"
}
_i=0
while [ $_i -lt 64 ]; do
	echo "-w $D/dir/f$_i -p r -k hs" >>"$T/q-w.rules"
	echo "-w $D/dir/f$_i -p r" >>"$T/q-w-nokey.rules"
	echo "-a always,exit -F arch=b64 -F path=$D/dir/f$_i -F perm=r -k hs" >>"$T/q-path.rules"
	_i=$((_i + 1))
done
echo "-a always,exit -F arch=b64 -F dir=$D/dir -F perm=r -k hs" >"$T/q-dir.rules"
: >"$T/q-split.rules"
: >"$T/q-split-key.rules"
for _s in openat read close fstat newfstatat lseek getdents64 write mmap munmap; do
	echo "-a always,exit -F arch=b64 -S $_s -F auid=4000000" >>"$T/q-split.rules"
	echo "-a always,exit -F arch=b64 -S $_s -F auid=4000000 -k hs" >>"$T/q-split-key.rules"
done
echo "-a always,exit -F arch=b64 -S openat,read,close,fstat,newfstatat,lseek,getdents64,write,mmap,munmap -F auid=4000000" >"$T/q-merged.rules"
: >"$T/q-none.rules"
for _q in none w w-nokey path dir split split-key merged; do
	answer $_q "$T/q-$_q.rules"
done
rules_reset
summary_line
