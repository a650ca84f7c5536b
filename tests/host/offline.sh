#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The offline commands need no kernel: .output/auditskip-offline, rules and
# whatif alone linked without libbpf (Makefile), must not even load it, and
# must say, byte for byte, what the full binary says for the same input:
# every rules file Debian's auditd ships, and whatif on the committed
# profile; and `rules --file` names the rules a never rule before them
# shadows. Run as nobody: nothing here needs a privilege or changes audit.
#
#   tests/host/offline.sh [-l] [-t NAME]...
set -u
cd "$(dirname "$0")/../.."
. tests/lib/common.sh

OUT=${OUT:-.output}
FULL=$OUT/auditskip
OFFLINE=$OUT/auditskip-offline
EXAMPLES=${EXAMPLES:-/usr/share/doc/auditd/examples/rules}
PROFILE=fuzz/corpus/profile/seed.json
select_tests "no-libbpf rules-same whatif-same whatif-compare shadowed prefix-priced" "$@"

for f in "$FULL" "$OFFLINE"; do
	[ -x "$f" ] || die "no $f: run make all $OFFLINE"
done
ls "$EXAMPLES"/*.rules >/dev/null 2>&1 || die "no rules files in $EXAMPLES (package auditd)"

# Scratch files nobody can read.
TMP=$(mktemp -d)
chmod 755 "$TMP"
trap 'rm -rf "$TMP"' EXIT

as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"; }

# same NAME ARGS...: both binaries' stdout, stderr and exit status for ARGS;
# prints the first difference, false when there is one.
same() {
	local name=$1 a b
	shift
	a=$(as_nobody "$FULL" "$@" 2>&1; echo "exit $?")
	b=$(as_nobody "$OFFLINE" "$@" 2>&1; echo "exit $?")
	[ "$a" = "$b" ] && return 0
	log "$name: $* differs:"
	diff <(echo "$a") <(echo "$b") | head -5 >&2
	return 1
}

test_no_libbpf() {
	local libs
	libs=$(ldd "$OFFLINE" | awk '{ print $1 }' | tr '\n' ' ')
	if echo "$libs" | grep -q libbpf; then
		fail no-libbpf "$OFFLINE loads libbpf: $libs"
	elif nm "$OFFLINE" | grep -q ' [TtUu] bpf_\| [TtUu] libbpf_'; then
		fail no-libbpf "$OFFLINE has libbpf symbols: $(nm "$OFFLINE" | grep -m3 ' bpf_\| libbpf_' | tr '\n' ' ')"
	else
		pass no-libbpf "links $libs"
	fi
}

test_rules_same() {
	local f n=0 bad=0
	for f in "$EXAMPLES"/*.rules; do
		n=$((n + 1))
		same rules-same rules --file "$f" || bad=$((bad + 1))
		same rules-same rules --file "$f" --json || bad=$((bad + 1))
	done
	same rules-same rules --file "$EXAMPLES" || bad=$((bad + 1))
	if [ "$bad" = 0 ]; then
		pass rules-same "$n files and their directory, text and JSON"
	else
		fail rules-same "$bad of $((2 * n + 1)) runs differ"
	fi
}

# whatif --compare: `-w FILE -p wa` and `-F path=FILE -F perm=wa` are one
# rule (a watch, which the exit walk never visits), a dir= rule is on the
# exit list and costs what it costs alone, and the second set's total is
# what whatif gives for it alone.
test_whatif_compare() {
	local a=$TMP/a.rules b=$TMP/b.rules out=$TMP/compare.json
	printf -- '-w /etc/passwd -p wa -k identity\n-a always,exit -F dir=/etc -F perm=wa -k etc\n' >"$a"
	printf -- '-a always,exit -F path=/etc/passwd -F perm=wa -k identity\n' >"$b"
	chmod 644 "$a" "$b"
	as_nobody "$OFFLINE" whatif --file "$a" --compare "$b" --profile "$PROFILE" --json >"$out"
	check_eq whatif-compare "$(jq -c '[.compared.rules[] | select(.watch) | [.cost_ns, .compared_cost_ns]]' "$out")" \
		"[[0,0]]" "the -w rule and the path= rule are one watch, free on the exit walk"
	check_eq whatif-compare "$(jq -c '[.compared.rules[] | select(.watch | not) | [.cost_ns, .compared_cost_ns]]' "$out")" \
		"[[$(jq '.rules[] | select(.key == "etc") | .cost_ns' "$out"),null]]" "the dir= rule: A's alone, at its cost"
	check_eq whatif-compare "$(jq '.compared.walks_ns' "$out")" \
		"$(as_nobody "$OFFLINE" whatif --file "$b" --profile "$PROFILE" --json | jq .walks_ns)" "B's total as whatif gives it"
	same whatif-compare whatif --file "$a" --compare "$b" --profile "$PROFILE" || fail whatif-compare "the two binaries differ"
}

test_whatif_same() {
	local f n=0 bad=0
	for f in "$EXAMPLES"/*.rules; do
		n=$((n + 1))
		same whatif-same whatif --file "$f" --profile "$PROFILE" --json || bad=$((bad + 1))
	done
	same whatif-same whatif --file "$EXAMPLES/30-stig.rules" --profile "$PROFILE" || bad=$((bad + 1))
	if [ "$bad" = 0 ]; then
		pass whatif-same "$n rule sets on $PROFILE"
	else
		fail whatif-same "$bad of $((n + 1)) runs differ"
	fi
}

# shadowed: a never rule on kill before a rule on kill alone shadows it
# wholly; one on openat before a watch on writes, partly (the watch can
# match openat by its flags, and other syscalls besides); a never rule with
# a uid field only may. Text and JSON name each shadowed rule and the never
# rule before it by FILE:LINE, the JSON passes the schema, and the two
# binaries agree; the prefix `advise --never-prefix` writes shadows nothing.
test_shadowed() {
	local f=$TMP/shadowed.rules out=$TMP/shadowed.txt json=$TMP/shadowed.json
	printf -- '%s\n' '-a never,exit -F arch=b64 -S kill' '-a always,exit -F arch=b64 -S kill -k new' \
		'-a never,exit -F arch=b64 -S openat' '-w /etc/passwd -p wa -k identity' \
		'-a never,exit -F arch=b64 -S chmod -F uid=0' '-a always,exit -F arch=b64 -S chmod -k perm' >"$f"
	chmod 644 "$f"
	as_nobody "$OFFLINE" rules --file "$f" >"$out"
	as_nobody "$OFFLINE" rules --file "$f" --json >"$json"
	check_eq shadowed "$(sed -n '/^Shadowed rules/,/^$/p' "$out" | grep -c "^  $f:2  -a always,exit -F arch=b64 -S kill -F key=new\$")" 1 \
		"the text names the rule on kill"
	check_eq shadowed "$(sed -n "\|^  $f:2 |,+3p" "$out" | sed -n '2p;4p' | tr -s ' ' | tr '\n' '|')" \
		" wholly: x86_64 1 of 1 syscall it can match| by $f:1 -a never,exit -F arch=b64 -S kill|" \
		"wholly, by the never rule on kill"
	check_eq shadowed "$(sed -n "\|^  $f:4 |,+3p" "$out" | sed -n '2,4p' | sed 's/ [0-9]* syscalls it/ N syscalls it/; s/i386 0 of [0-9]*/i386 0 of N/' | tr -s ' ' | tr '\n' '|')" \
		" partly: x86_64 1 of N syscalls it can match, i386 0 of N| x86_64: openat| by $f:3 -a never,exit -F arch=b64 -S openat|" \
		"the watch partly, on openat, by the never rule on openat"
	check_eq shadowed "$(jq -c '[.shadowed_rules[] | [.origin, .wholly, [.arches[] | select(.syscall_count > 0) | .arch, .syscalls, [.by[].origin]]]]' "$json")" \
		"[[\"$f:2\",true,[\"x86_64\",[\"kill\"],[\"$f:1\"]]],[\"$f:4\",false,[\"x86_64\",[\"openat\"],[\"$f:3\"]]]]" \
		"the JSON names the same rules, syscalls and never rules"
	check_eq shadowed "$(jq -c '[.may_shadow_rules[] | [.origin, .arches[0].by[0].origin]]' "$json")" \
		"[[\"$f:6\",\"$f:5\"]]" "a never rule with a uid field only may shadow"
	if schema_errors "$json" >"$TMP/schema.out" 2>&1; then
		pass shadowed "the JSON passes tests/host/json-schema.json"
	else
		fail shadowed "schema: $(head -n 5 "$TMP/schema.out" | tr '\n' ' ')"
	fi
	same shadowed rules --file "$f" && same shadowed rules --file "$f" --json &&
		pass shadowed "the two binaries agree"
	# advise's never,exit prefix names only syscalls no rule after it can match
	# (the full binary writes it: the offline one has rules and whatif alone).
	"$FULL" advise --file "$EXAMPLES/30-stig.rules" --never-prefix --calibration "$SLOPE_CALIBRATION" -o "$TMP/prefixed.rules" >/dev/null 2>&1
	chmod 644 "$TMP/prefixed.rules"
	check_eq shadowed "$(as_nobody "$OFFLINE" rules --file "$TMP/prefixed.rules" --json |
		jq -c '[(.shadowed_rules | length), (.may_shadow_rules | length)]')" "[0,0]" \
		"30-stig behind advise's never,exit prefix: nothing shadowed"
}

# prefix-priced: without a profile, advise --never-prefix prices each walk
# with the calibration. Behind nine openat rules and a dir= rule, a 2 ns
# entry, a 5 ns dir check and a 30 ns match, a native walk it ends costs
# 7 ns more (2 + 30 against 20 + 5): its rule is left out, and with no rule
# left nothing is written (exit 1, an older file it wrote removed); with a
# 15 ns match it saves 8 ns, less than the 17 it still costs: written, and
# said to be unlikely to pay.
test_prefix_priced() {
	local f=$TMP/ten.rules out=$TMP/priced.rules m rc
	for m in 1 2 3 4 5 6 7 8 9; do
		echo "-a always,exit -F arch=b64 -S openat -F uid=400000$m -k o"
	done >"$f"
	echo '-a always,exit -S all -F dir=/etc -F perm=wa -k etc' >>"$f"
	for m in 15 30; do
		printf '{"schema":1,"ns_per_entry":2,"ns_context":200,"rules_used":64,"kernel":"k","when":1,"evaluation_ns":{"arch":10,"uid":5,"dir":5,"arch_pass":15,"match":%s}}\n' \
			$m >"$TMP/cal$m.json"
	done
	chmod 644 "$f" "$TMP"/cal*.json
	"$FULL" advise --file "$f" --never-prefix --calibration "$TMP/cal15.json" -o "$out" \
		>"$TMP/p15.txt" 2>&1
	rc=$?
	check_eq prefix-priced "$rc $(grep -c '^-a never,exit -F arch=b64' "$out" 2>/dev/null)" "0 1" \
		"a prefix that saves a walk it ends something is written"
	check_eq prefix-priced "$(grep -c '^Unlikely to pay: a walk it ends saves 8.0 ns, less than the 17.0 ns' "$TMP/p15.txt")" 1 \
		"and said to be unlikely to pay"
	"$FULL" advise --file "$f" --never-prefix --calibration "$TMP/cal30.json" -o "$out" \
		>"$TMP/p30.txt" 2>&1
	rc=$?
	check_eq prefix-priced "$rc $([ -e "$out" ] && echo kept || echo gone)" "1 gone" \
		"a prefix whose every line is a loss: exit 1, the older file removed"
	check_eq prefix-priced "$(grep -c '^  x86_64  no rule: a walk it would end costs 7.0 ns more on average' "$TMP/p30.txt")" 1 \
		"the native line is named a loss with its cost"
	check_eq prefix-priced "$("$FULL" advise --file "$f" --never-prefix --calibration "$TMP/cal30.json" --json |
		jq -c '[.prefix_rules, .written, .priced_without_profile.arches.x86_64.rule_left_out_costs_ns]')" \
		"[0,null,7]" "JSON: no rule, nothing written, the line's cost"
}

for name in $SELECTED; do
	"test_${name//-/_}"
done
summary_line
