#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The offline commands need no kernel: .output/auditskip-offline, rules and
# whatif alone linked without libbpf (Makefile), must not even load it, and
# must say, byte for byte, what the full binary says for the same input:
# every rules file Debian's auditd ships, and whatif on the committed
# profile. Run as nobody: nothing here needs a privilege or changes audit.
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
select_tests "no-libbpf rules-same whatif-same" "$@"

for f in "$FULL" "$OFFLINE"; do
	[ -x "$f" ] || die "no $f: run make all $OFFLINE"
done
ls "$EXAMPLES"/*.rules >/dev/null 2>&1 || die "no rules files in $EXAMPLES (package auditd)"

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

for name in $SELECTED; do
	"test_${name//-/_}"
done
summary_line
