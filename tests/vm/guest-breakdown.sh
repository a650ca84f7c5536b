#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest suite "breakdown" (bench/breakdown-guest.sh, booted with -icount):
# audit's time per syscall split into its parts (`auditskip hotspots`) for
# each of Debian's larger rule sets and a few workloads, so that the
# evidence says what share of audit's cost the exit walk is under real
# rules, and so what any skip design can save at most.
#
# Sets: audit on with no rule, then 30-stig, 30-pci-dss-v31, the OSPP
# pieces as augenrules joins them, and 30-nispom, each loaded as far as the
# kernel takes it (the lines it refuses dropped and counted, as the witness
# suite loads them; no control line, so never -e 2). Workloads, each run
# with login uid 1000 (the sets record what a logged-in user does, `-F
# auid>=1000`) at nice -20:
#   getpid  getpid_loop 20000
#   tar     busybox tar of 64 small files, four times
#   files   20 files created, chmod-ed, chown-ed, renamed and removed
#   procs   20 forks and 10 execs (the corpus tool's)
# Each runs twice (hotspots without --once): the exit path timed alone,
# then its parts; the gap between them is reported, not held (the hotspots
# suite holds a getpid and a tar run to 10%; here, with no rule loaded, the
# file changes and the forks and execs came 18% and 22% apart: 11 and 15 ns
# a call of an exit path of 50 to 70). A result passes when the breakdown
# ran and, under rules, timed the walk of every exit that ran the filters
# (the kernel's own count of them).
#
# Result lines:
#   PASS breakdown/SET/WORKLOAD: walks timed, the parts against the exit
#        path alone
#   VMTEST BREAKDOWN set=SET workload=W rules=N refused=N calls=N
#       records=N lost=N syscall_ns=NS exit_ns=NS alone_ns=NS walk_ns=NS
#       inodes_ns=NS records_ns=NS log_start_ns=NS log_start_off_ns=NS
#       off_cpu_ns=NS rest_ns=NS entry_ns=NS
. "${VMTEST_DIR:-/vmtest}/guest-lib.sh"
guest_test_args "$@"

SETS="none debian/30-stig debian/30-pci-dss-v31 debian/30-ospp-v42-pieces debian/30-nispom"
WORKLOADS="getpid tar files procs"

suite_tests() {
	for _s in $SETS; do
		for _w in $WORKLOADS; do
			echo "breakdown/$_s/$_w"
		done
	done
}
declared

B=/tmp/bd
mkdir -p $B/files
tar_tree $B/dir

# workload NAME: the command line of workload NAME, run at nice -20: the
# records wake kauditd and the listener, and a switch's own work inside the
# exit path would count as the workload's (as in the hotspots suite).
workload() {
	printf 'renice -n -20 -p $$ >/dev/null && '
	case $1 in
	getpid) echo "getpid_loop 20000" ;;
	tar) echo "$TAR && $TAR && $TAR && $TAR" ;;
	files)
		echo "cd $B/files && for i in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19;" \
			"do echo x >f\$i && chmod 600 f\$i && chown 1:1 f\$i && mv f\$i g\$i && rm g\$i; done"
		;;
	procs) echo "/bin/corpus fork 20 && /bin/corpus exec 10" ;;
	esac
}

# set_rules NAME ID: the -a and -w lines of set NAME, in $B/ID.keyed.
set_rules() {
	case $1 in
	none) : ;;
	debian/30-ospp-v42-pieces)
		set +f
		cat "$RULES_DIR"/30-ospp-v42-[0-9]-*.rules
		set -f
		;;
	debian/*) cat "$RULES_DIR/${1#debian/}.rules" ;;
	esac | awk '{ sub(/^[ \t]+/, "") } /^-[aAw] /' >"$B/$2.keyed"
}

# run_set NAME: the set loaded, each workload broken down under it.
run_set() {
	_id=$(echo "$1" | tr / _)
	set_rules "$1" "$_id"
	LOADED=0 DROPPED=0
	if [ "$1" != none ] && ! witness_load "$B" "$_id"; then
		for _w in $WORKLOADS; do
			fail "breakdown/$1/$_w" "the set did not load: $(grep -i error "$B/$_id.load" 2>/dev/null | head -n 2)"
		done
		return
	fi
	[ "$1" = none ] && rules_reset
	for _w in $WORKLOADS; do
		_n="$_id-$_w"
		tool "$_n" hotspots --json -- sh -c "$(workload "$_w")"
		jflat <"$T/$_n.out" >"$T/$_n.flat"
		_a=$(get "$T/$_n.flat" exit_alone_ns)
		_p=$(get "$T/$_n.flat" exit_parts_ns)
		echo "VMTEST BREAKDOWN set=$1 workload=$_w rules=$LOADED refused=$DROPPED" \
			"calls=$(get "$T/$_n.flat" all.calls) records=$(get "$T/$_n.flat" all.records)" \
			"lost=$(get "$T/$_n.flat" lost_records) syscall_ns=$(get "$T/$_n.flat" all.syscall_ns)" \
			"exit_ns=$_p alone_ns=$_a$(for _part in walk inodes records log_start log_start_off off_cpu rest entry; do
				printf ' %s_ns=%s' $_part "$(get "$T/$_n.flat" "all.parts.$_part.ns")"
			done)"
		_gap=$(awk -v a="$_a" -v p="$_p" 'BEGIN { if (a > 0) printf "%+.1f%%", 100 * (p - a) / a }')
		walks_timed "$T/$_n.flat"
		_timed=$?
		if [ "$rc" != 0 ] || [ -z "$_a" ] || [ -z "$_p" ]; then
			fail "breakdown/$1/$_w" "exit status $rc, exit path alone '$_a' ns, parts '$_p' ns"
			dump "$_n"
		elif [ "$1" != none ] && [ $_timed != 0 ]; then
			fail "breakdown/$1/$_w" "$WALKS_SEEN"
		else
			pass "breakdown/$1/$_w" "$WALKS_SEEN; parts $_p ns, the exit path alone $_a ns ($_gap)"
		fi
	done
	rules_reset
}

# A logged-in user's: the sets record what one does (-F auid>=1000).
echo 1000 >/proc/self/loginuid
auditctl -e 1 >/dev/null
# Room for every record: a full backlog would make audit_log_start() wait.
auditctl -b 8192 >/dev/null
# An audit daemon's place: the records are read, not held for one.
listen "$T/records" "$T/ready"
for s in $SETS; do
	run_set "$s"
done
kill -TERM $LISTENER
wait $LISTENER
summary_line
