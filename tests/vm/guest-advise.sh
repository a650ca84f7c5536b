#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The advise suite (vmsuite=advise): the rule advisor's rewrites keep every
# audit record. For each rule set (Debian's shipped examples and one of the
# suite's own), loaded line by line as the main suite loads them, the same
# workload runs twice: under the set as loaded, then under what `auditskip
# advise -o` wrote for it, loaded with `auditctl -R`. audit_records (the
# audit daemon's place on the netlink socket, so no record is rate limited
# or lost) prints every record of each run; reduced to the fields that do
# not depend on time, pids, inodes or addresses (type, arch, syscall,
# success, key, comm, exe, name, nametype, cwd, proctitle), the two runs'
# records must be the same, record for record (as multisets: the order of
# records across processes is the scheduler's). The kernel's aggregate mask
# after loading the rewrite, read from `auditctl -l` by expected-mask.awk
# and by `auditskip rules`, must also be the one advise predicted.
#
# The sets, the workload and the records: guest-records.sh.
#
# Result lines:
#   PASS advise/<set>/classes|load|mask|records, advise/control
#   FAIL advise/<set>/...: reason

. "${VMTEST_DIR:-/vmtest}/guest-lib.sh"
guest_test_args "$@"
RECORDS_SUITE=advise
# The set whose rewrite advise --profile predicts, and the one whose
# rewrite of the file on disk is loaded and its records compared.
PROFILE_SET=30-stig
FILE_LOAD_SET=own

# suite_tests: each set's results (advise_set), then the control.
suite_tests() {
	for _s in $SETS; do
		for _r in classes load mask records file; do echo "advise/$_s/$_r"; done
		[ "$_s" != "$PROFILE_SET" ] || echo "advise/$_s/profile"
		[ "$_s" != "$FILE_LOAD_SET" ] || echo "advise/$_s/file-records"
	done
	echo advise/control
}

. "$VMTEST_DIR/guest-records.sh"

# The keys of the rules advise narrowed, from the comments above each rewrite.
narrowed_keys() {
	awk '/^# narrowed:/ { getline; while (match($0, / -k [^ ]+/)) {
		print substr($0, RSTART + 4, RLENGTH - 4); $0 = substr($0, RSTART + RLENGTH) } }' "$1" | sort -u
}

advise_set() {
	_s=$1
	_f=$2
	rules_reset
	load_ruleset "$_f"
	records "$_s.orig" || { rules_reset; return; }

	tool "advise-$_s" advise --json -o "$W/$_s.advised"
	if [ $rc -ne 0 ]; then
		fail "advise/$_s/advise" "auditskip advise exit status $rc"
		dump "advise-$_s"
		rules_reset
		return
	fi
	jflat <"$T/advise-$_s.out" >"$T/advise-$_s.flat"
	_pc=$(get "$T/advise-$_s.flat" perm_classes)
	check_eq "advise/$_s/classes" "$_pc" kernel "perm= rewrites from the running kernel's classes"
	log "advise/$_s: mask bits $(get "$T/advise-$_s.flat" before.mask_bits) -> $(get "$T/advise-$_s.flat" after.mask_bits)," \
		"skip can fire: $(get "$T/advise-$_s.flat" before.skip_can_fire) -> $(get "$T/advise-$_s.flat" after.skip_can_fire);" \
		"$(grep -c '^# narrowed' "$W/$_s.advised") narrowed, $(grep -c '^# dropped' "$W/$_s.advised") dropped"

	if [ "$_s" = 30-stig ]; then
		# What a reader of doc/advise.md sees, from this run.
		auditskip advise 2>&1 | sed 's/^/VMTEST INFO stig-advise: /'
		grep -v '^$' "$W/$_s.advised" | sed 's/^/VMTEST INFO stig-rules: /'
	fi
	rules_reset
	if ! auditctl -R "$W/$_s.advised" >"$W/$_s.load" 2>&1 || grep -qi error "$W/$_s.load"; then
		fail "advise/$_s/load" "auditctl -R: $(grep -i error "$W/$_s.load" | head -n 2)"
		rules_reset
		return
	fi
	pass "advise/$_s/load" "auditctl -R loads the rewrite"
	tool "rules-$_s" rules --json
	jflat <"$T/rules-$_s.out" >"$T/rules-$_s.flat"
	# The kernel's mask as `auditctl -l` lists the rewrite, read with none of
	# the tool's code: the tool's own listing and advise could share a bug.
	auditctl -l >"$W/$_s.listed"
	awk -v tables=/vmtest/syscalls.tab -v machine="$(uname -m)" \
		-f /vmtest/rule-bits.awk -f /vmtest/expected-mask.awk "$W/$_s.listed" >"$T/listed-$_s.flat"
	_xrc=$?
	_lh=$(get "$T/listed-$_s.flat" mask_hex)
	_rh=$(get "$T/rules-$_s.flat" mask_hex | tr A-F a-f)
	_ph=$(get "$T/advise-$_s.flat" after.mask_hex | tr A-F a-f)
	if [ $_xrc -ne 0 ] || [ ${#_lh} -ne 512 ]; then
		fail "advise/$_s/mask" "no mask read from auditctl -l: $(sed -n 's/^error=//p' "$T/listed-$_s.flat" | head -n 3)"
	elif [ "$_ph" != "$_lh" ]; then
		fail "advise/$_s/mask" "advise predicted $(get "$T/advise-$_s.flat" after.mask_bits) bits, auditctl -l lists the rewrite with $(get "$T/listed-$_s.flat" mask_bits); the masks differ"
	elif [ "$_rh" != "$_lh" ]; then
		fail "advise/$_s/mask" "auditskip rules reads $(get "$T/rules-$_s.flat" mask_bits) bits, auditctl -l lists the rewrite with $(get "$T/listed-$_s.flat" mask_bits); the masks differ"
	else
		pass "advise/$_s/mask" "the kernel's mask, as auditctl -l lists it and as the tool reads it, is the predicted one ($(get "$T/listed-$_s.flat" mask_bits) bits)"
	fi

	records "$_s.advised" || { rules_reset; return; }
	[ "$_s" = "$PROFILE_SET" ] && profile_check "$_s"
	rules_reset
	advise_file "$_s" "$_f"
	_n=$(records_total "$_s.orig")
	_keys=$(narrowed_keys "$W/$_s.advised")
	_seen=
	for _k in $_keys; do
		grep -q "key=\"$_k\"" "$W/$_s.orig.recs" && _seen="$_seen $_k"
	done
	if [ "$_n" -eq 0 ]; then
		fail "advise/$_s/records" "the workload made no record under the set as loaded"
	elif [ -n "$_keys" ] && [ -z "$_seen" ]; then
		fail "advise/$_s/records" "no record from any narrowed rule (keys: $(echo $_keys))"
	elif ! records_same "$_s.orig" "$_s.advised"; then
		fail "advise/$_s/records" "records differ (- as loaded, + rewritten): $RECORDS_DIFF"
	else
		pass "advise/$_s/records" "$_n records, the same under both (from narrowed rules:${_seen:- none})"
	fi
}

# profile_check SET (the rewrite loaded): what `advise --profile` predicts
# for the rewrite on the workload's profile (taken with no rule loaded)
# must be what filter-op counts with the rewrite loaded: walks and
# skippable walks, in total and per syscall.
profile_check() {
	tool "advise-prof-$1" advise --file "$W/$1.advised" --profile "$W/workload.prof" --json
	grep '"type":"advise-profile"' "$T/advise-prof-$1.out" | jflat >"$T/advise-prof-$1.flat"
	prepare
	tool "count-$1" --json -m filter-op -- sh -c "exec sh $W/workload.sh" </dev/null
	jlast "$T/count-$1.out" summary >"$T/count-$1.flat"
	_pw=$(get "$T/advise-prof-$1.flat" as_loaded.walks)
	_ps=$(get "$T/advise-prof-$1.flat" as_loaded.skippable_walks)
	_mw=$(get "$T/count-$1.flat" walks)
	_ms=$(get "$T/count-$1.flat" skippable_walks)
	log "advise/$1/profile: predicted for the rewrite walks=$_pw skippable=$_ps; counted walks=$_mw skippable=$_ms;" \
		"rule field checks $(get "$T/advise-prof-$1.flat" as_loaded.field_checks) (the rewrite of the rewrite: $(get "$T/advise-prof-$1.flat" rewritten.field_checks))"
	if [ -z "$_pw" ] || [ -z "$_mw" ]; then
		fail "advise/$1/profile" "no prediction or no count"
		dump "advise-prof-$1"
		dump "count-$1"
	elif [ "$_pw $_ps" != "$_mw $_ms" ]; then
		fail "advise/$1/profile" "predicted walks/skippable $_pw/$_ps, counted $_mw/$_ms"
	else
		pass "advise/$1/profile" "advise --profile predicts what filter-op counts: $_mw walks, $_ms skippable"
	fi
}

# advise_file SET FILE: `advise --file` reads the set as the kernel would
# list it; where that reading's mask is the loaded set's (every line
# loaded), its rewrite's mask must be the loaded set's rewrite's too, and
# for the own set its rewrite loaded must make the same records again.
advise_file() {
	tool "file-$1" advise --file "$2" --json -o "$W/$1.file.advised"
	if [ $rc -ne 0 ]; then
		fail "advise/$1/file" "advise --file exit status $rc"
		dump "file-$1"
		return
	fi
	jflat <"$T/file-$1.out" >"$T/file-$1.flat"
	if [ "$(get "$T/file-$1.flat" before.mask_hex)" = "$(get "$T/advise-$1.flat" before.mask_hex)" ]; then
		check_eq "advise/$1/file" "$(get "$T/file-$1.flat" after.mask_hex)" \
			"$(get "$T/advise-$1.flat" after.mask_hex)" "advise --file predicts the loaded set's mask after"
	else
		log "advise/$1/file: the file's reading and the loaded set differ (lines this guest refused): masks not compared"
	fi
	[ "$1" = "$FILE_LOAD_SET" ] || return 0
	if ! auditctl -R "$W/$1.file.advised" >"$W/$1.file.load" 2>&1 || grep -qi error "$W/$1.file.load"; then
		fail "advise/$1/file-load" "auditctl -R: $(grep -i error "$W/$1.file.load" | head -n 2)"
		rules_reset
		return
	fi
	records "$1.file" || { rules_reset; return; }
	rules_reset
	if records_same "$1.orig" "$1.file"; then
		pass "advise/$1/file-records" "the rewrite of the file makes the same records"
	else
		fail "advise/$1/file-records" "records differ: $RECORDS_DIFF"
	fi
}

# The comparison can fail: the own set's rewrite with unlinkat taken out of
# its native perm=wa rule (a syscall of the write class that the workload
# makes in that directory) must lose records.
control() {
	[ -s "$W/own.advised" ] || { fail advise/control "no rewrite of the own set"; return; }
	sed '/^-a always,exit -F arch=b64 .* -F key=own-wa$/s/\(-S [^ ]*\)unlinkat,/\1/' \
		"$W/own.advised" >"$W/broken.rules"
	if cmp -s "$W/own.advised" "$W/broken.rules"; then
		fail advise/control "no native own-wa rule naming unlinkat in the rewrite"
		return
	fi
	records_control "$W/broken.rules" "the rewrite without unlinkat"
}

records_begin
# The workload's profile, with no rule loaded (profile_check).
rules_reset
prepare
tool workload-profile profile -m tracepoint -o "$W/workload.prof" -- sh -c "exec sh $W/workload.sh" </dev/null
[ $rc -eq 0 ] || { fail advise/profile "auditskip profile exit status $rc"; dump workload-profile; }
for _s in $SETS; do
	if [ "$_s" = own ]; then
		advise_set own "$W/own.rules"
	else
		advise_set "$_s" "$RULES_DIR/$_s.rules"
	fi
done
control
rules_reset
summary_line
