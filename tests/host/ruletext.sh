#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# A rule's text, as every report prints it (the rules report's JSON "text"
# here), must read back into the same rule: for each rule set, the rules
# `auditskip rules --file` prints are fed back into `rules --file`, and
# each rule's list, action, mask (mask_hex), fields and key must come back
# the same, in the same order. Offline only: nothing is loaded and audit's
# state is not touched, so it runs as any user.
#
#   tests/host/ruletext.sh [-l] [-t NAME]...
#
# The rule sets: Debian's shipped examples, the fuzzers' rules-file
# corpus, and the rule sets tests/host/rulesfile.sh (transforms) and
# tests/host/advise.sh (mix) write, copied below.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/host/lib.sh

EXAMPLES=${EXAMPLES:-/usr/share/doc/auditd/examples/rules}
select_tests "examples corpus suites advise text" "$@"
TMP=$(mktemp -d /tmp/auditskip-ruletext.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

# What is compared, one rule a line.
canon() {
	jq -c '.rules[] | [.list, .action, .mask_hex, .fields, .key, .inode_hash]' "$1"
}

# roundtrip NAME FILE: FILE's rules, printed and read back, are the same
# rules. Lines this machine refuses (a user it lacks, a field its kernel
# does not take) are passed over (-i), as auditctl -i -R would.
roundtrip() {
	local name=$1 file=$2 n line
	{
		echo -i
		cat "$file"
	} >"$TMP/in.rules"
	chmod 0640 "$TMP/in.rules"
	if ! "$AUDITSKIP" rules --file "$TMP/in.rules" --json >"$TMP/a.json" 2>"$TMP/err"; then
		fail "$name" "cannot read $file: $(head -n 1 "$TMP/err")"
		return
	fi
	jq -r '.rules[].text' "$TMP/a.json" >"$TMP/back.rules"
	chmod 0640 "$TMP/back.rules"
	n=$(wc -l <"$TMP/back.rules")
	if [ "$n" = 0 ]; then
		pass "$name" "no rules"
		return
	fi
	if ! "$AUDITSKIP" rules --file "$TMP/back.rules" --json >"$TMP/b.json" 2>"$TMP/err"; then
		fail "$name" "its printed rules do not read back: $(head -n 1 "$TMP/err")"
		return
	fi
	canon "$TMP/a.json" >"$TMP/a.canon"
	canon "$TMP/b.json" >"$TMP/b.canon"
	if cmp -s "$TMP/a.canon" "$TMP/b.canon"; then
		pass "$name" "$n rules read back the same"
		return
	fi
	line=$(cmp "$TMP/a.canon" "$TMP/b.canon" 2>&1 | sed -n 's/.* line \([0-9]*\).*/\1/p')
	fail "$name" "rule ${line:-?} of $n differs: $(sed -n "${line:-1}p" "$TMP/back.rules")"
	log "read:      $(sed -n "${line:-1}p" "$TMP/a.canon")"
	log "read back: $(sed -n "${line:-1}p" "$TMP/b.canon")"
}

test_examples() {
	local f
	for f in "$EXAMPLES"/*.rules; do
		[ -e "$f" ] || {
			fail examples "no rules under $EXAMPLES"
			return
		}
		roundtrip "examples: $(basename "$f")" "$f"
	done
}

test_corpus() {
	local f
	for f in fuzz/corpus/rulesfile/*.rules; do
		roundtrip "corpus: $(basename "$f")" "$f"
	done
}

# tests/host/rulesfile.sh's transforms and tests/host/advise.sh's mix.
test_suites() {
	write_transforms_rules "$TMP/transforms.rules"
	write_mix_rules "$TMP/mix.rules"
	roundtrip "suites: rulesfile.sh transforms" "$TMP/transforms.rules"
	roundtrip "suites: advise.sh mix" "$TMP/mix.rules"
}

# advise -o's file: its rules read back, and a rule it keeps is written as
# the reports print it.
test_advise() {
	local f=$EXAMPLES/30-stig.rules name=advise kept
	if ! "$AUDITSKIP" advise --file "$f" -o "$TMP/advised.rules" >/dev/null 2>"$TMP/err"; then
		fail "$name" "advise cannot write: $(head -n 1 "$TMP/err")"
		return
	fi
	roundtrip "$name: -o file" "$TMP/advised.rules"
	"$AUDITSKIP" rules --file "$f" --json | jq -r '.rules[].text' >"$TMP/texts"
	kept=$(grep -c -F -x -f "$TMP/texts" "$TMP/advised.rules")
	if [ "$kept" -gt 0 ]; then
		pass "$name: kept rules" "$kept lines of the -o file are the reports' texts"
	else
		fail "$name: kept rules" "no line of the -o file is a text the reports print"
	fi
}

# check_text NAME RULE WANT: RULE as the rules report prints it.
check_text() {
	printf '%s\n' "$2" >"$TMP/one.rules"
	chmod 0640 "$TMP/one.rules"
	check_eq "text: $1" "$("$AUDITSKIP" rules --file "$TMP/one.rules" --json | jq -r '.rules[0].text')" "$3"
}

# check_report NAME REGEX RULE...: the rules report on the RULEs has a line REGEX matches.
check_report() {
	local name=$1 regex=$2
	shift 2
	printf '%s\n' "$@" >"$TMP/one.rules"
	chmod 0640 "$TMP/one.rules"
	if "$AUDITSKIP" rules --file "$TMP/one.rules" | grep -q -- "$regex"; then
		pass "text: $name"
	else
		fail "text: $name" "no line matches '$regex'"
	fi
}

# The form auditctl -l lists, on an x86_64 machine (names differ elsewhere).
test_text() {
	if [ "$(uname -m)" != x86_64 ]; then
		fail text "the expected forms below are x86_64's: run this on an x86_64 machine"
		return
	fi
	check_text "arch before -S" '-a always,exit -F arch=x86_64 -S openat -k k' \
		'-a always,exit -F arch=b64 -S openat -F key=k'
	check_text "b32 names from i386's table" '-a always,exit -F arch=b32 -S open,fstat' \
		'-a always,exit -F arch=b32 -S open,fstat'
	check_text "a number libaudit cannot name" '-a always,exit -F arch=b64 -S 452,openat' \
		'-a always,exit -F arch=b64 -S openat,452'
	check_text "-C" '-a always,exit -F arch=b64 -S setuid -C uid!=euid' \
		'-a always,exit -F arch=b64 -S setuid -C uid!=euid'
	check_text "every syscall" '-a always,exit -F arch=b64 -S read,write,open,close,stat,fstat,lstat,poll' \
		'-a always,exit -F arch=b64 -S read,write,open,close,stat,fstat,lstat,poll'
	check_text "-S all, two keys" '-a always,exit -S all -F auid=1 -k a -k b' \
		'-a always,exit -S all -F auid=1 -F key=a -F key=b'
	check_report "a bit of the arch-blind mask, named from both tables" \
		'^  nr 5 (x86_64 fstat, i386 open)$' '-a always,exit -F arch=b32 -S open'
	check_report "1 bit" '^     1 bit   -a always,exit' '-a always,exit -F arch=b32 -S open'
	check_report "1 exit rule" '^Aggregate mask of 1 exit rule: 1 of' \
		'-a always,exit -F arch=b32 -S open'
	check_report "1 bit, blockers" 'lets 464 of 465 syscalls skip (aggregate mask then 1 bit)$' \
		'-a always,exit -S all -F auid=1' '-a always,exit -F arch=b64 -S getpid'
	check_report "what a count of syscalls counts" "^when x86_64's or i386's table names it" \
		'-a always,exit -S all -F auid=1'
}

# Not lib.sh's run_tests: that one asks the kernel for rules left loaded.
for name in $SELECTED; do
	"test_$name"
done
summary_line
