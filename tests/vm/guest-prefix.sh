#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The prefix suite (vmsuite=prefix): `auditskip advise --never-prefix`
# keeps every audit record on a stock kernel. For each rule set (Debian's
# shipped examples and the suite's own), loaded line by line, the workload
# runs under the set, then under the set behind the never,exit prefix
# written for it (from the running kernel's classes), loaded with
# `auditctl -R`; the two runs' records, reduced as guest-records.sh
# reduces them, must be the same. The kernel's list must begin with the
# prefix rules, and a counting run under it must see the walks they end.
# A control shows the comparison can fail: a prefix that also names a
# syscall one of the own set's rules matches loses records.
#
# Result lines:
#   PASS prefix/<set>/classes|load|records|counted, prefix/control
#   FAIL prefix/<set>/...: reason

. "${VMTEST_DIR:-/vmtest}/guest-lib.sh"
guest_test_args "$@"
RECORDS_SUITE=prefix

# suite_tests: each set's results (prefix_set), then the control.
suite_tests() {
	for _s in $SETS; do
		for _r in classes load records counted; do echo "prefix/$_s/$_r"; done
	done
	echo prefix/control
}

. "$VMTEST_DIR/guest-records.sh"

# Besides the shared workload: a socket bound and listened on for a second
# (timeout ends it with SIGTERM, which is no failure of the workload).
echo 'timeout 1 nc -l -p 5555 </dev/null >/dev/null 2>&1 || true' >>"$W/workload.sh"

prefix_set() {
	_s=$1
	rules_reset
	load_ruleset "$2"
	records "$_s.orig" || { rules_reset; return; }

	tool "prefix-$_s" advise --never-prefix --json -o "$W/$_s.prefixed"
	if [ $rc -ne 0 ] || [ ! -s "$W/$_s.prefixed" ]; then
		fail "prefix/$_s/advise" "auditskip advise --never-prefix exit status $rc, no file"
		dump "prefix-$_s"
		rules_reset
		return
	fi
	jflat <"$T/prefix-$_s.out" >"$T/prefix-$_s.flat"
	# The running kernel's classes where BPF can read them (not on 5.10),
	# else the table of this kernel's series.
	_pc=$(get "$T/prefix-$_s.flat" perm_classes)
	_from=$(get "$T/prefix-$_s.flat" perm_classes_from)
	case "$_pc:$_from" in
	kernel:*) pass "prefix/$_s/classes" "perm= rules narrowed with the running kernel's classes" ;;
	"table:"*"Linux $(echo "$KVER" | cut -d. -f1,2)."*) pass "prefix/$_s/classes" "$_from" ;;
	*) fail "prefix/$_s/classes" "perm= classes from $_pc ($_from), not this kernel's" ;;
	esac
	_np=$(get "$T/prefix-$_s.flat" prefix_rules)
	log "prefix/$_s: $_np prefix rules;" \
		"$(grep -o '"arch":"[^"]*","syscalls":[0-9]*' "$T/prefix-$_s.out" | tr '\n' ' ')"
	[ "$_s" = 30-stig ] && grep -v '^$' "$W/$_s.prefixed" | cut -c1-200 | sed 's/^/VMTEST INFO stig-prefix: /'

	rules_reset
	if ! auditctl -R "$W/$_s.prefixed" >"$W/$_s.load" 2>&1 || grep -qi error "$W/$_s.load"; then
		fail "prefix/$_s/load" "auditctl -R: $(grep -i error "$W/$_s.load" | head -n 2)"
		rules_reset
		return
	fi
	_lead=$(auditctl -l | head -n "$_np" | grep -c '^-a never,exit -F arch=b[36][24] -S ')
	check_eq "prefix/$_s/load" "$_lead" "$_np" "auditctl -R loads it; the list begins with the $_np prefix rules"

	records "$_s.prefixed" || { rules_reset; return; }
	counted "$_s"
	rules_reset
	_n=$(records_total "$_s.orig")
	if [ "$_n" -eq 0 ]; then
		fail "prefix/$_s/records" "the workload made no record under the set as loaded"
	elif ! records_same "$_s.orig" "$_s.prefixed"; then
		fail "prefix/$_s/records" "records differ (- as loaded, + prefixed): $RECORDS_DIFF"
	else
		pass "prefix/$_s/records" "$_n records, the same with the prefix"
	fi
}

# counted SET (the prefixed set loaded): a counting run in the kernel's
# best mode must count walks the prefix ended, and not all of them.
counted() {
	prepare
	tool "count-$1" --json -- sh -c "exec sh $W/workload.sh" </dev/null
	jlast "$T/count-$1.out" summary >"$T/count-$1.flat"
	_pw=$(get "$T/count-$1.flat" prefix_walks)
	_w=$(get "$T/count-$1.flat" walks)
	log "prefix/$1/counted: walks=$_w prefix_walks=$_pw prefix_visits=$(get "$T/count-$1.flat" prefix_visits)"
	if [ $rc -ne 0 ] || [ -z "$_pw" ]; then
		fail "prefix/$1/counted" "no count (exit status $rc)"
		dump "count-$1"
	elif [ "$_pw" -eq 0 ] || [ "$_pw" -ge "$_w" ]; then
		fail "prefix/$1/counted" "prefix walks $_pw of $_w walks"
	else
		pass "prefix/$1/counted" "$_pw of $_w walks ended by the prefix"
	fi
}

# The own set's native prefix with unlinkat added (its perm=wa rule
# matches unlinkat in its directory): records must be lost.
control() {
	[ -s "$W/own.prefixed" ] || { fail prefix/control "no prefix for the own set"; return; }
	sed '/^-a never,exit -F arch=b64 -S /s/-S /-S unlinkat,/' "$W/own.prefixed" >"$W/broken.rules"
	if cmp -s "$W/own.prefixed" "$W/broken.rules"; then
		fail prefix/control "no native prefix rule in the own set's file"
		return
	fi
	records_control "$W/broken.rules" "the prefix naming unlinkat"
}

records_begin
for _s in $SETS; do
	if [ "$_s" = own ]; then
		prefix_set own "$W/own.rules"
	else
		prefix_set "$_s" "$RULES_DIR/$_s.rules"
	fi
done
control
rules_reset
summary_line
