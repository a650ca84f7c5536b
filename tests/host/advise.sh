#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The rule advisor on the host: `auditskip advise -o` writes a file that
# auditctl -R loads without an error, and the kernel's aggregate mask after
# loading it (as `auditskip rules --json` reads it back) is the one advise
# predicted; advising the rewritten set again changes nothing. For a rule
# set of the suite's own and for Debian's shipped example sets. The same
# sets behind their never,exit prefix (advise --never-prefix) load, and the
# kernel lists the prefix first and then the set's rules as it lists the
# set alone; a counting run under one tells the walks it ends. That the
# rewrites keep every audit record is the guest's part (tests/vm,
# VMTEST_SUITES=advise); this kernel has no readable permission classes
# unless fexit programs load and /proc/kallsyms lists `classes`, and then
# perm= rules are narrowed to the classes of a kernel table, which the
# report names.
#
#   tests/host/advise.sh [-l] [-t NAME]...   (as tests/host/run.sh)
set -u
cd "$(dirname "$0")/../.."
. tests/host/lib.sh

EXAMPLES=/usr/share/doc/auditd/examples/rules
SHIPPED="30-stig 30-pci-dss-v31 30-ospp-v42 30-nispom 32-power-abuse 42-injection"
select_tests "mix file shipped bad-output prefix prefix-refused prefix-fitted" "$@"
host_begin

# load_lines FILE: each rule line of FILE on its own (lines this host
# refuses, such as a dir= rule on a directory it lacks, are left out and
# counted in $REFUSED); control lines (-D, -b, -f, -e) are not loaded.
load_lines() {
	local line
	REFUSED=0
	auditctl -D >/dev/null
	while IFS= read -r line; do
		case $line in
		-a* | -A* | -w*) ;;
		*) continue ;;
		esac
		# (the rule's words, split on purpose)
		# shellcheck disable=SC2086
		auditctl $line >/dev/null 2>&1 || REFUSED=$((REFUSED + 1))
	done <"$1"
}

# check_advice NAME: advise the loaded rules, load what it writes, and
# compare the kernel's mask and rule count with its prediction.
check_advice() {
	local name=$1 adv=$TMP/$1.advise.json out=$TMP/$1.advised.rules
	if ! "$AUDITSKIP" advise --json -o "$out" >"$adv" 2>"$TMP/$name.err"; then
		fail "$name" "advise failed: $(head -c 300 "$TMP/$name.err")"
		return 1
	fi
	auditctl -l >"$TMP/$name.before.list"
	check_eq "$name" "$(jq -r .before.mask_hex "$adv")" "$(expected_mask_hex <"$TMP/$name.before.list")" \
		"advise's mask before is the listed rules'"
	if ! auditctl -R "$out" >"$TMP/$name.load" 2>&1 || grep -qi 'error' "$TMP/$name.load"; then
		fail "$name" "auditctl -R $out: $(grep -i error "$TMP/$name.load" | head -n 3)"
		return 1
	fi
	pass "$name" "auditctl -R loads the rewritten file"
	auditctl -l >"$TMP/$name.after.list"
	# The listing in the kernel's order: each rule kept lists as it did,
	# a narrowed one as its rewrites, a dropped one not at all.
	jq -r '.rules[] | .advice + " " + (if .advice == "narrow" then (.rewrite | length) else 1 end | tostring)' \
		"$adv" >"$TMP/$name.plan"
	check_eq "$name" "$(awk '
		FILENAME == ARGV[1] { kind[NR] = $1; parts[NR] = $2; n = NR; next }
		FILENAME == ARGV[2] { before[FNR] = $0; next }
		{ after[FNR] = $0; m = FNR }
		END {
			j = 1
			for (i = 1; i <= n; i++) {
				if (kind[i] == "keep") {
					if (after[j] != before[i]) { print "rule " i " kept but listed as: " after[j]; exit }
					j++
				} else if (kind[i] == "narrow")
					j += parts[i]
			}
			if (j != m + 1) print "listed " m " rules, want " j - 1
		}' "$TMP/$name.plan" "$TMP/$name.before.list" "$TMP/$name.after.list")" "" \
		"kept rules list as before, in order"
	check_eq "$name" "$(expected_mask_hex <"$TMP/$name.after.list")" "$(jq -r .after.mask_hex "$adv")" \
		"the listed rules' mask after loading is the predicted one"
	check_eq "$name" "$(expected_exit_rules <"$TMP/$name.after.list")" "$(jq -r .after.exit_rules "$adv")" \
		"exit-list rules as predicted"
	check_eq "$name" "$(jq -r .after.mask_bits "$adv")" "$(expected_mask_bits <"$TMP/$name.after.list")" \
		"mask bits $(jq -r .before.mask_bits "$adv") -> $(jq -r .after.mask_bits "$adv")"
	"$AUDITSKIP" advise --json >"$TMP/$name.again.json"
	check_eq "$name" "$(jq '[.rules[] | select(.advice != "keep")] | length' "$TMP/$name.again.json")" 0 \
		"advising the rewritten set changes nothing"
	check_eq "$name" "$(jq -r 'if .perm_classes == "kernel" then "kernel"
		elif .perm_classes == "table" and (.kernel_table | type) == "string" then "table"
		else "\(.perm_classes) \(.kernel_table)" end' "$adv")" \
		"$(jq -r 'if .perm_classes == "kernel" then "kernel" else "table" end' "$adv")" \
		"perm= classes: the kernel's, else a kernel table that the report names"
	check_detached "$name"
}


test_mix() {
	write_mix_rules "$TMP/mix.rules"
	load_lines "$TMP/mix.rules"
	check_eq mix "$REFUSED" 0 "every rule of the set loads"
	check_advice mix
	remove_rules
	check_eq mix "$(jq -r '.rules[] | select(.text | test("arch=aarch64")) | .advice' "$TMP/mix.advise.json")" \
		drop "the aarch64 rule (never matches here) is dropped"
	check_eq mix "$(grep -c '^# -a always,exit -F arch=aarch64' "$TMP/mix.advised.rules")" \
		1 "the dropped rule's original line is a comment in the file"
}

# advise --file: the same advice for the rules file as for those rules
# loaded, and what it writes loads and gives the kernel the predicted mask.
test_file() {
	write_mix_rules "$TMP/mix.rules"
	if ! "$AUDITSKIP" advise --file "$TMP/mix.rules" --json -o "$TMP/file.advised.rules" \
		>"$TMP/file.advise.json" 2>"$TMP/file.err"; then
		fail file "advise --file failed: $(head -c 300 "$TMP/file.err")"
		return
	fi
	load_lines "$TMP/mix.rules"
	"$AUDITSKIP" advise --json >"$TMP/file.loaded.json"
	check_eq file "$(jq -c '[.before.mask_hex, .after.mask_hex, [.rules[].advice]]' "$TMP/file.advise.json")" \
		"$(jq -c '[.before.mask_hex, .after.mask_hex, [.rules[].advice]]' "$TMP/file.loaded.json")" \
		"the file's advice is the loaded rules' advice"
	auditctl -D >/dev/null
	if ! auditctl -R "$TMP/file.advised.rules" >"$TMP/file.load" 2>&1 || grep -qi error "$TMP/file.load"; then
		fail file "auditctl -R: $(grep -i error "$TMP/file.load" | head -n 3)"
	else
		check_eq file "$(auditctl -l | expected_mask_hex)" "$(jq -r .after.mask_hex "$TMP/file.advise.json")" \
			"its rewrite loads and the listed rules' mask is the predicted one"
	fi
	check_eq file "$(grep -c "^# $TMP/mix.rules:4: -a always,exit -F arch=aarch64" "$TMP/file.advised.rules")" 1 \
		"the dropped rule's line, with its file and line number, is a comment"
	remove_rules
	check_detached file
}

test_shipped() {
	local f
	for f in $SHIPPED; do
		if [ ! -f "$EXAMPLES/$f.rules" ]; then
			fail "shipped/$f" "$EXAMPLES/$f.rules missing (install auditd)"
			continue
		fi
		load_lines "$EXAMPLES/$f.rules"
		log "shipped/$f: $(auditctl -l | wc -l) rules loaded, $REFUSED refused by this host"
		check_advice "shipped-$f"
	done
}

# prefixed_walks COUNT_JSON LISTING N: the summary's walks of the syscalls
# named by the first N rules of LISTING (auditctl -l), each on its rule's
# arch (b64: x86_64, b32: i386).
prefixed_walks() {
	head -n "$3" "$2" | awk '{ arch = $4 == "arch=b64" ? "x86_64" : "i386"; n = split($6, s, ",")
		for (i = 1; i <= n; i++) print arch, s[i] }' >"$TMP/prefixed.names"
	jq -r 'select(.type == "summary") | .syscalls[] | "\(.arch) \(.name) \(.walks)"' "$1" |
		awk 'FILENAME == ARGV[1] { named[$1 " " $2] = 1; next } ($1 " " $2) in named { t += $3 } END { print t + 0 }' \
			"$TMP/prefixed.names" -
}

# prefix: for each shipped set loaded (the lines this host takes), the file
# --never-prefix writes loads; the
# kernel lists its prefix rules first, then exactly what it lists for the
# set loaded alone; counting getpid under it, the walks it ends are those
# of the syscalls the kernel lists in its prefix rules.
test_prefix() {
	local f n
	for f in 30-stig 30-pci-dss-v31 30-ospp-v42 30-nispom; do
		load_lines "$EXAMPLES/$f.rules"
		auditctl -l >"$TMP/$f.alone"
		if ! "$AUDITSKIP" advise --never-prefix --calibration "$SLOPE_CALIBRATION" --json -o "$TMP/$f.prefixed" \
			>"$TMP/$f.prefix.json" 2>"$TMP/$f.prefix.err"; then
			fail "prefix/$f" "advise --never-prefix failed: $(head -c 300 "$TMP/$f.prefix.err")"
			continue
		fi
		n=$(jq -r .prefix_rules "$TMP/$f.prefix.json")
		auditctl -D >/dev/null
		if ! auditctl -R "$TMP/$f.prefixed" >"$TMP/$f.load" 2>&1 || grep -qi error "$TMP/$f.load"; then
			fail "prefix/$f" "auditctl -R: $(grep -i error "$TMP/$f.load" | head -n 3)"
			continue
		fi
		auditctl -l >"$TMP/$f.listed"
		check_eq "prefix/$f" "$(head -n "$n" "$TMP/$f.listed" | grep -c '^-a never,exit -F arch=b[36][24] -S ')" "$n" \
			"the kernel lists the $n prefix rules first"
		check_eq "prefix/$f" "$(tail -n +"$((n + 1))" "$TMP/$f.listed" | md5sum)" "$(md5sum <"$TMP/$f.alone")" \
			"then the set's rules, as it lists the set loaded alone ($(wc -l <"$TMP/$f.alone") lines)"
		"$AUDITSKIP" --json -- "$GETPID_LOOP" 2000 >"$TMP/$f.count.json" 2>"$TMP/$f.count.err"
		check_eq "prefix/$f" "$(summary_field "$TMP/$f.count.json" prefix_walks)" \
			"$(prefixed_walks "$TMP/$f.count.json" "$TMP/$f.listed" "$n")" \
			"counting getpid under it, the walks it ends are those of the syscalls the kernel lists in it"
		auditctl -D >/dev/null
	done
	check_detached prefix
}

# prefix-refused: where a prefix would change records or only cost, none
# is written; -o asked for one, so the exit status is 1, and the report
# and the message say why.
test_prefix_refused() {
	printf '%s\n' '-a always,task -F uid=0' '-a always,exit -F arch=b64 -S openat -F uid=4000001 -k t' >"$TMP/task.rules"
	printf '%s\n' '-w /etc/passwd -p wa -k pw' >"$TMP/watch.rules"
	for f in task watch; do
		rm -f "$TMP/$f.prefixed"
		"$AUDITSKIP" advise --file "$TMP/$f.rules" --never-prefix --calibration "$SLOPE_CALIBRATION" -o "$TMP/$f.prefixed" >"$TMP/$f.out" 2>"$TMP/$f.err"
		check_eq "prefix-refused/$f" "$?:$([ -e "$TMP/$f.prefixed" ] && echo written)" "1:" \
			"exit 1 (-o asked for a file), no file: $(head -n 1 "$TMP/$f.err")"
	done
	check_eq prefix-refused "$(grep -c 'always,task' "$TMP/task.out" "$TMP/task.err" | tr '\n' ' ')" \
		"$TMP/task.out:1 $TMP/task.err:1 " "the task rule is named as the reason, in the report and the message"
}

# prefix-fitted: fitted to a profiled workload with no i386 task (dd's
# reads and writes; write is left out of the b64 rule, so each write walk
# would test the b32 rule too), the prefix of 30-stig is the b64 rule
# alone, and the report says what the b32 rule would have cost; without a
# profile both rules are written. Offline: nothing is loaded for advise.
test_prefix_fitted() {
	local set=$EXAMPLES/30-stig.rules prof=$TMP/dd.prof
	if ! "$AUDITSKIP" profile -o "$prof" -- dd if=/dev/zero of=/dev/null bs=1 count=2000 \
		>"$TMP/dd.prof.out" 2>&1; then
		fail prefix-fitted "auditskip profile failed: $(tail -n 2 "$TMP/dd.prof.out")"
		return
	fi
	"$AUDITSKIP" advise --file "$set" --never-prefix --calibration "$SLOPE_CALIBRATION" -o "$TMP/whole.prefixed" >/dev/null 2>&1
	check_eq prefix-fitted "$(grep -c '^-a never,exit -F arch=b' "$TMP/whole.prefixed")" 2 \
		"without a profile: a b64 and a b32 rule"
	if ! "$AUDITSKIP" advise --file "$set" --never-prefix --calibration "$SLOPE_CALIBRATION" --profile "$prof" --json \
		-o "$TMP/fitted.prefixed" >"$TMP/fitted.json" 2>"$TMP/fitted.err"; then
		fail prefix-fitted "advise --never-prefix --profile failed: $(head -c 300 "$TMP/fitted.err")"
		return
	fi
	check_eq prefix-fitted "$(grep '^-a never,exit' "$TMP/fitted.prefixed" | cut -d' ' -f1-4)" \
		"-a never,exit -F arch=b64" "fitted to dd: the b64 rule alone"
	check_eq prefix-fitted "$(jq -r '.arches[] | select(.arch == "i386") | .rule_costs_more_ns > 0' "$TMP/fitted.json")" \
		true "the report prices the b32 rule left out"
	check_eq prefix-fitted "$(jq -r '.prefix_rules' "$TMP/fitted.json")" 1 "one prefix rule"
}

test_bad_output() {
	expect_refusal bad-output "cannot write $TMP/no/such/dir" advise -o "$TMP/no/such/dir/x.rules"
	expect_refusal bad-output "auditskip rules: invalid option -- 'o'" rules -o "$TMP/x.rules"
	expect_refusal bad-output "$TMP/no-such.rules" advise --file "$TMP/no-such.rules"
}

run_tests
summary_line
