#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# `auditskip rules --file`: a rules file or rules.d directory read without
# loading it must give the rules the kernel lists once the same rules are
# loaded for real, rule by rule (list, action, mask, fields, key, inode
# hash). Each file is loaded with auditctl -R after auditctl -D; the saved
# policy is put back at the end (host_begin), also on failure.
#
#   tests/host/rulesfile.sh [-l] [-t NAME]...
#
# Lines that set audit status (-b, -f, -e, -r, --backlog_wait_time,
# --loginuid-immutable, ...) are left out of what is loaded (they would
# change the machine beyond its rules, --loginuid-immutable until reboot);
# the reader is given the files as they are and must leave them out itself.
# Rules the reader says this machine's kernel refuses (a tree or a watch's
# parent that does not exist here) are commented out of the loaded copy and
# left out of the comparison; the log says which. Nothing watched is ever
# removed: the files name system paths, and $TMP's files go after the
# policy is restored.
set -u
cd "$(dirname "$0")/../.."
. tests/host/lib.sh

EXAMPLES=${EXAMPLES:-/usr/share/doc/auditd/examples/rules}
TESTS="examples rulesd transforms errors blockers schema"
select_tests "$TESTS" "$@"
host_begin

# What is compared, one rule a line.
canon() {
	jq -c '.rules[] | [.list, .action, .mask_hex, .fields, .key, .inode_hash]' "$1"
}

# The lines of FILE (origins "FILE:LINE") the reader says the kernel here refuses.
refused_lines() {
	jq -r '.notes[] | select(test("the kernel here would refuse")) | sub(": the kernel here.*"; "")' "$1"
}

# strip_status IN OUT [REFUSED-ORIGINS-FILE]: IN without status lines and
# without the lines named in the refused list, as root's file for auditctl -R.
strip_status() {
	local in=$1 out=$2 refused=${3:-/dev/null}
	awk -v file="$in" -v refused="$refused" '
		BEGIN { while ((getline l < refused) > 0) skip[l] = 1 }
		skip[file ":" FNR] { print "# refused here: " $0; next }
		/^[ \t]*(-b|-f|-e|-r)([ \t]|$)/ { print "# status: " $0; next }
		/^[ \t]*--(backlog_wait_time|loginuid-immutable|reset-lost|reset_backlog_wait_time_actual|signal)/ { print "# status: " $0; next }
		{ print }
	' "$in" >"$out"
	chmod 0640 "$out"
}

# compare NAME KERNEL.json FILE.json [REFUSED]: the kernel's listing against
# the file's reading less the refused rules, rule by rule.
compare() {
	local name=$1 kernel=$2 file=$3 refused=${4:-/dev/null} k f i n bad=0
	k=$TMP/k.canon
	f=$TMP/f.canon
	canon "$kernel" >"$k"
	jq -c --rawfile refused "$refused" '
		($refused | split("\n")) as $r | .rules[] | select(.origin as $o | $r | index($o) | not)
		| [.list, .action, .mask_hex, .fields, .key, .inode_hash]' "$file" >"$f"
	n=$(wc -l <"$k")
	check_eq "$name" "$(wc -l <"$f")" "$n" "rules read = rules listed"
	for i in $(seq 1 "$n"); do
		if [ "$(sed -n "${i}p" "$k")" != "$(sed -n "${i}p" "$f")" ]; then
			fail "$name" "rule $i: kernel $(sed -n "${i}p" "$k" | head -c 400), file $(sed -n "${i}p" "$f" | head -c 400)"
			bad=1
		fi
	done
	[ "$bad" = 0 ] && pass "$name" "$n rules equal, mask included"
	# The fleet's ruleset label: the same id for the same rules, read or loaded.
	[ -s "$refused" ] || check_eq "$name" "$(jq -r .ruleset_id "$file")" "$(jq -r .ruleset_id "$kernel")" \
		"rule set id of the file = of the rules loaded"
}

# load NAME FILE: auditctl -D, then auditctl -R FILE; false (and a FAIL) when it fails.
load() {
	auditctl -D >/dev/null
	if ! auditctl -R "$2" >"$TMP/auditctl.out" 2>&1; then
		fail "$1" "auditctl -R $2 failed: $(head -c 300 "$TMP/auditctl.out")"
		return 1
	fi
}

# check_file NAME FILE: read FILE, load it, compare.
check_file() {
	local name=$1 file=$2 base copy
	base=$(basename "$file")
	copy=$TMP/load-$base
	if ! "$AUDITSKIP" rules --file "$file" --json >"$TMP/file.json" 2>"$TMP/read.err"; then
		# Then auditctl must refuse it too (its reason goes to syslog), or
		# load nothing from a file that holds no rule.
		strip_status "$file" "$copy"
		auditctl -D >/dev/null
		if grep -q 'no rule in' "$TMP/read.err"; then
			auditctl -R "$copy" >/dev/null 2>&1
			check_eq "$name" "$(auditctl -l)" "No rules" "holds no rule: auditctl loads none, auditskip says so"
		elif auditctl -R "$copy" >/dev/null 2>&1; then
			fail "$name" "auditctl loads it, auditskip refuses: $(cat "$TMP/read.err")"
		else
			pass "$name" "not loadable here, refused by auditctl -R and by auditskip: $(sed 's/^auditskip: //' "$TMP/read.err")"
		fi
		return
	fi
	refused_lines "$TMP/file.json" >"$TMP/refused"
	if [ -s "$TMP/refused" ]; then
		log "$base: not loadable here as it is; refused lines left out: $(jq -r '.notes[] | select(test("would refuse"))' "$TMP/file.json" | sed 's/.*: its /its /; s/ is missing.*/ missing/' | sort -u | tr '\n' ';')"
	fi
	strip_status "$file" "$copy" "$TMP/refused"
	load "$name" "$copy" || return
	"$AUDITSKIP" rules --json >"$TMP/kernel.json"
	compare "$name" "$TMP/kernel.json" "$TMP/file.json" "$TMP/refused"
	# The aggregate, from the reading of what was loaded (the same as the file's without refused lines).
	if "$AUDITSKIP" rules --file "$copy" --json >"$TMP/copy.json" 2>"$TMP/copy.err"; then
		check_eq "$name" "$(jq -r .mask_hex "$TMP/copy.json")" "$(jq -r .mask_hex "$TMP/kernel.json")" "aggregate mask"
	else
		check_eq "$name" "$(jq -r .exit_rules "$TMP/kernel.json"), $(grep -c 'no rule in' "$TMP/copy.err")" "0, 1" \
			"its status lines left out, no rule remains, and auditskip says so"
	fi
}

test_examples() {
	local f n=0
	[ -d "$EXAMPLES" ] || {
		fail examples "$EXAMPLES is missing (install auditd, whose examples these are)"
		return
	}
	for f in "$EXAMPLES"/*.rules; do
		check_file "example $(basename "$f")" "$f"
		n=$((n + 1))
	done
	[ "$n" -ge 30 ] || fail examples "only $n example files in $EXAMPLES"
	auditctl -D >/dev/null
}

# A rules.d of several examples, concatenated by the real augenrules (in a
# mount namespace of its own, so /etc/audit is untouched), then loaded.
test_rulesd() {
	local d=$TMP/etc-audit f
	mkdir -p "$d/rules.d"
	for f in 10-base-config 30-stig 31-privileged 41-containers 42-injection 43-module-load 99-finalize; do
		cp "$EXAMPLES/$f.rules" "$d/rules.d/"
	done
	# ls -v order, not the C locale's: 9 before 10, and a later -D that augenrules moves first.
	printf '%s\n' '-a always,exit -F arch=b64 -S getppid -F uid=4000001 -k auditskip-test' >"$d/rules.d/9-early.rules"
	printf '%s\n' '-D' '-a always,exit -F arch=b64 -S getpid -F uid=4000002 -k auditskip-test' >"$d/rules.d/100-late.rules"
	printf '%s\n' '-a always,exit -F arch=b64 -S getpid -F uid=4000003 -k auditskip-test' >"$d/rules.d/.hidden.rules"
	printf '%s\n' '-a always,exit -F arch=b64 -S getpid -F uid=4000004 -k auditskip-test' >"$d/rules.d/not-rules.txt"
	"$AUDITSKIP" rules --file "$d/rules.d" --json >"$TMP/dir.json" || {
		fail rulesd "auditskip cannot read $d/rules.d"
		return
	}
	check_eq rulesd "$(jq -r '.sources | map(sub(".*/"; "")) | join(" ")' "$TMP/dir.json")" \
		"$(cd "$d/rules.d" && ls -1v | grep '\.rules$' | tr '\n' ' ' | sed 's/ $//')" "files in ls -1v order"
	refused_lines "$TMP/dir.json" >"$TMP/refused"
	# The copy augenrules reads has the refused lines commented out, file by file.
	mkdir -p "$d/load/rules.d"
	for f in "$d"/rules.d/*.rules "$d"/rules.d/.hidden.rules; do
		awk -v file="$f" -v refused="$TMP/refused" '
			BEGIN { while ((getline l < refused) > 0) skip[l] = 1 }
			skip[file ":" FNR] { print "# refused here: " $0; next } { print }' "$f" >"$d/load/rules.d/$(basename "$f")"
	done
	if ! unshare -m --propagation private sh -c "mount --bind '$d/load' /etc/audit && augenrules" >"$TMP/augenrules.out" 2>&1; then
		fail rulesd "augenrules in a private mount namespace failed: $(head -c 300 "$TMP/augenrules.out")"
		return
	fi
	strip_status "$d/load/audit.rules" "$TMP/augen.rules"
	load rulesd "$TMP/augen.rules" || return
	"$AUDITSKIP" rules --json >"$TMP/kernel.json"
	compare rulesd "$TMP/kernel.json" "$TMP/dir.json" "$TMP/refused"
	check_eq rulesd "$(jq -c '[.rules[] | select(.key == "auditskip-test") | .fields[] | select(.field == "uid") | .value]' "$TMP/dir.json")" \
		"[4000001,4000002]" "100-late's -D moved first, as augenrules moves it: 9-early's rule kept; .hidden and .txt left out"
	auditctl -D >/dev/null
}

# The kernel's own transforms: class bits at the top of the mask (2047 is
# the directory-write class, 2045 change-attribute, 2043 read, 2041 write,
# 2039 signal, 2046 and the others their 32-bit ones), -A before -a, -D -k
# and -d within a file, a watch on a file and on a directory, exe=, -C.
test_transforms() {
	local f=$TMP/transforms.rules
	write_transforms_rules "$f"
	"$AUDITSKIP" rules --file "$f" --json >"$TMP/file.json" || {
		fail transforms "auditskip cannot read $f"
		return
	}
	load transforms "$f" || return
	"$AUDITSKIP" rules --json >"$TMP/kernel.json"
	compare transforms "$TMP/kernel.json" "$TMP/file.json"
	check_eq transforms "$(jq -r .mask_hex "$TMP/file.json")" "$(jq -r .mask_hex "$TMP/kernel.json")" "aggregate mask"
	check_eq transforms "$(jq '.rules[0].fields[] | select(.field == "uid") | .value' "$TMP/file.json")" 4000007 "-A rule listed first"
	auditctl -D >/dev/null
}

# Lines auditctl refuses: the same kind of message, with FILE:LINE, exit 1.
# Each bad line is the first of its file, after a good one whose rule must
# not be kept: reading stops there, as auditctl -R does.
expect_file_error() {
	local name=$1 line=$2 f=$TMP/bad.rules good got want
	good='-a always,exit -F arch=b64 -S getppid -F uid=4000001 -k auditskip-test'
	printf '%s\n' "$good" "$line" >"$f"
	chmod 0640 "$f"
	"$AUDITSKIP" rules --file "$f" >/dev/null 2>"$TMP/err"
	check_eq "error: $name" "$?" 1 "exit status"
	# In a file auditctl says on which line; given as arguments, it does not.
	got=$(sed "s|^auditskip: $f:2: ||; s/ on line 2//" "$TMP/err")
	# auditctl -R sends its reasons to syslog: give it the same lines as
	# arguments, the first loaded, and read its stderr for the second.
	# shellcheck disable=SC2086
	auditctl $good >/dev/null 2>&1
	# shellcheck disable=SC2086
	auditctl $line >/dev/null 2>"$TMP/auditctl.err"
	want=$(grep -v -e '^There was an error' -e '^WARNING' "$TMP/auditctl.err" | head -n 1)
	check_eq "error: $name" "$got" "$want" "message as auditctl's"
	if grep -q "^auditskip: $f:2: " "$TMP/err"; then
		pass "error: $name" "names $f:2"
	else
		fail "error: $name" "no FILE:LINE in '$(cat "$TMP/err")'"
	fi
	remove_rules
}

test_errors() {
	expect_file_error "unknown syscall" "-a always,exit -F arch=b64 -S no_such_call -k auditskip-test"
	expect_file_error "unknown field" "-a always,exit -F arch=b64 -S getpid -F bogus=1 -k auditskip-test"
	expect_file_error "bad field value" "-a always,exit -F arch=b64 -S getpid -F uid=nobody_here_at_all -k auditskip-test"
	expect_file_error "arch after -S" "-a always,exit -S getpid -F arch=b64 -k auditskip-test"
	expect_file_error "missing -k value" "-a always,exit -F arch=b64 -S getpid -k"
	expect_file_error "bad list" "-a always,exitt -S getpid -k auditskip-test"
	expect_file_error "perm without rwxa" "-w /etc/passwd -p z -k auditskip-test"
	expect_file_error "duplicate rule" "-a always,exit -F arch=b64 -S getppid -F uid=4000001 -k auditskip-test"
	expect_file_error "bit op on uid" "-a always,exit -F arch=b64 -S getpid -F uid&1 -k auditskip-test"
	"$AUDITSKIP" rules --file "$TMP/none.rules" >/dev/null 2>"$TMP/err"
	check_eq "error: missing file" "$?" 1 "exit status"
	grep -q "doesn't exist" "$TMP/err" && pass "error: missing file" "$(cat "$TMP/err")" ||
		fail "error: missing file" "message '$(cat "$TMP/err")'"
	# -c goes on past an error and fails at the end, every other rule loaded,
	# as the reading says; -i ignores errors.
	printf '%s\n' '-c' '-a always,exit -S no_such_call' '-a always,exit -F arch=b64 -S getpid -F uid=4000001' >"$TMP/c.rules"
	"$AUDITSKIP" rules --file "$TMP/c.rules" --json >"$TMP/c.json"
	check_eq "error: -c" "$(jq .exit_rules "$TMP/c.json"), $(jq '[.notes[] | select(test("exits 1"))] | length' "$TMP/c.json")" \
		"1, 1" "-c: the good rule after the bad one is read, and auditctl's exit 1 noted"
	sed -i 's/^-c$/-i/' "$TMP/c.rules"
	"$AUDITSKIP" rules --file "$TMP/c.rules" --json >"$TMP/c.json"
	check_eq "error: -i" "$(jq .exit_rules "$TMP/c.json")" 1 "-i: the good rule after the bad one is read"
}

# The fewest rules that keep the skip from firing, on the STIG file and on
# rule sets built for it, from the file and from the kernel's listing alike.
test_blockers() {
	local f=$TMP/group.rules
	# The set as written, the rule on the directory this host lacks kept.
	"$AUDITSKIP" rules --file "$EXAMPLES/30-stig.rules" --keep-refused --json >"$TMP/stig.json"
	check_eq "blockers: stig" "$(jq '.skip_blockers.patch.rule_count' "$TMP/stig.json")" \
		"$(jq '.full_mask_rules | length' "$TMP/stig.json")" "its full-mask rules, all of them"
	# Without those lines, read and loaded, the mask has the bits it says.
	jq -r '.skip_blockers.patch.rules[].origin | sub(".*:"; "")' "$TMP/stig.json" >"$TMP/stig.lines"
	awk 'NR == FNR { drop[$1] = 1; next } !drop[FNR]' "$TMP/stig.lines" "$EXAMPLES/30-stig.rules" >"$TMP/stig-less.rules"
	chmod 0640 "$TMP/stig-less.rules"
	"$AUDITSKIP" rules --file "$TMP/stig-less.rules" --json >"$TMP/stig-less.json"
	check_eq "blockers: stig" "$(jq .mask_bits "$TMP/stig-less.json")" \
		"$(jq .skip_blockers.patch.mask_bits_without "$TMP/stig.json")" "mask without them, read"
	if load "blockers: stig" "$TMP/stig-less.rules"; then
		"$AUDITSKIP" rules --json >"$TMP/stig-less-kernel.json"
		check_eq "blockers: stig" "$(jq .mask_bits "$TMP/stig-less-kernel.json")" \
			"$(jq .skip_blockers.patch.mask_bits_without "$TMP/stig.json")" "mask without them, loaded"
		auditctl -D >/dev/null
	fi
	"$AUDITSKIP" rules --file "$EXAMPLES/30-stig.rules" --keep-refused | grep -A3 '^Fewest' >"$TMP/stig.txt"
	grep -q "patch's mask: 2 rules" "$TMP/stig.txt" && pass "blockers: stig" "text: $(sed -n 2p "$TMP/stig.txt")" ||
		fail "blockers: stig" "text: $(cat "$TMP/stig.txt")"

	# The group of the issue: one tree rule per arch. The patch's mask needs
	# both gone; each arch's mask only its own.
	mkdir -p "$TMP/selinux"
	cat >"$f" <<-EOF
		-a always,exit -F arch=b32 -F dir=$TMP/selinux/ -F perm=wa -k auditskip-test
		-a always,exit -F arch=b64 -F dir=$TMP/selinux/ -F perm=wa -k auditskip-test
		-a always,exit -F arch=b64 -S openat -F uid=4000001 -k auditskip-test
	EOF
	chmod 0640 "$f"
	check_blockers group "$f" 2 1 1 none
	# No full-mask rule, yet a full mask: one rule names every number below
	# 1016, another every number from 1016 (-S takes numbers); the third
	# names only read. Removing the first frees everything but read.
	{
		printf -- '-a always,exit -F arch=b64 -S %s -F uid=4000001 -k auditskip-test\n' "$(seq -s, 0 1015)"
		printf -- '-a always,exit -F arch=b64 -S %s -F uid=4000002 -k auditskip-test\n' "$(seq -s, 1016 2031)"
		printf -- '-a always,exit -F arch=b64 -S read -F uid=4000003 -k auditskip-test\n'
	} >"$f"
	check_blockers union "$f" 1 1 none 1
	check_eq "blockers: union" "$(jq '.full_mask_rules | length' "$TMP/bf.json")" 0 "no rule has every bit"
	check_eq "blockers: union" "$(jq -r '.skip_blockers.patch.rules[0].index' "$TMP/bf.json")" 0 "the rule naming 0-1015"
	check_eq "blockers: union" "$(jq -r '.skip_blockers.patch.example_syscall' "$TMP/bf.json")" write "frees write (read stays named)"
}

# check_blockers NAME FILE PATCH NATIVE COMPAT PERM: rule counts of the
# smallest sets ("none": the skip fires already), from the file and from the
# kernel's listing after loading it.
check_blockers() {
	local name=$1 f=$2 want src
	chmod 0640 "$f"
	"$AUDITSKIP" rules --file "$f" --json >"$TMP/bf.json" || {
		fail "blockers: $name" "cannot read $f"
		return
	}
	load "blockers: $name" "$f" || return
	"$AUDITSKIP" rules --json >"$TMP/bk.json"
	auditctl -D >/dev/null
	for src in bf bk; do
		want="$3 $4 $5 $6"
		check_eq "blockers: $name" "$(jq -r '.skip_blockers | [.patch, .arch[0], .arch[1], .perm_narrowed] |
			map(if .rule_count == 0 then "none" else (.rule_count | tostring) end) | join(" ")' "$TMP/$src.json")" \
			"$want" "$([ $src = bf ] && echo file || echo kernel): patch, native, compat, perm-narrowed"
	done
	check_eq "blockers: $name" "$(jq -c .skip_blockers "$TMP/bf.json" | jq -c 'del(.. | .origin?)')" \
		"$(jq -c .skip_blockers "$TMP/bk.json" | jq -c 'del(.. | .origin?)')" "file and kernel agree"
}

# The reading's JSON, against tests/host/json-schema.json (the kernel's is checked in metrics.sh).
test_schema() {
	"$AUDITSKIP" rules --file "$EXAMPLES/30-stig.rules" --json >"$TMP/schema.json"
	if schema_errors "$TMP/schema.json" >"$TMP/schema.out" 2>&1; then
		pass schema "rules --file --json"
	else
		fail schema "rules --file --json: $(head -n 5 "$TMP/schema.out" | tr '\n' ' ')"
	fi
}

run_tests
summary_line
