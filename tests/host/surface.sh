#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# What people see first: each command's --help and -h, the man page made
# from them, usage errors (exit 2, the --help to read), option spellings,
# the messages for bad or empty rules files, and the numbers whatif and the
# JSON give. Offline only: nothing is loaded or attached, audit's state is
# never read or changed; every command runs as nobody when run as root.
#
#   tests/host/surface.sh [-l] [-t NAME]...
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/host/lib.sh

TESTS="help man usage options privilege bad-input empty disabled numbers examples"
select_tests "$TESTS" "$@"
COMMANDS="count rules calibrate advise profile whatif hotspots"
EXAMPLES=${EXAMPLES:-/usr/share/doc/auditd/examples/rules}
PROFILE=fuzz/corpus/profile/seed.json
TMP=$(mktemp -d)
chmod 0755 "$TMP"
trap 'rm -rf "$TMP"' EXIT

# as_nobody CMD...: CMD without any privilege, whoever runs the suite.
as_nobody() {
	if [ "$(id -u)" = 0 ]; then
		setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
	else
		"$@"
	fi
}

# run NAME ARGS...: auditskip ARGS as nobody; $TMP/NAME.out, .err, .rc.
run() {
	local name=$1
	shift
	as_nobody "$AUDITSKIP" "$@" >"$TMP/$name.out" 2>"$TMP/$name.err"
	echo $? >"$TMP/$name.rc"
}

# expect_usage NAME CMD WANT ARGS...: exit 2, WANT in the message, and the
# pointer to CMD's own --help.
expect_usage() {
	local name=$1 help=$2 want=$3
	shift 3
	run "$name" "$@"
	if [ "$(cat "$TMP/$name.rc")" != 2 ]; then
		fail "$name" "exit $(cat "$TMP/$name.rc"), want 2"
	elif ! grep -qF -- "$want" "$TMP/$name.err"; then
		fail "$name" "no '$want' in: $(head -c 300 "$TMP/$name.err")"
	elif ! grep -qF "Try \`$help --help'" "$TMP/$name.err"; then
		fail "$name" "does not name $help --help: $(head -c 300 "$TMP/$name.err")"
	else
		pass "$name"
	fi
}

# expect_refusal NAME WANT ARGS...: exit 1, WANT on stderr, nothing on stdout.
expect_refusal() {
	local name=$1 want=$2
	shift 2
	run "$name" "$@"
	if [ "$(cat "$TMP/$name.rc")" != 1 ]; then
		fail "$name" "exit $(cat "$TMP/$name.rc"), want 1"
	elif ! grep -qF -- "$want" "$TMP/$name.err"; then
		fail "$name" "no '$want' in: $(head -c 300 "$TMP/$name.err" | cat -v)"
	elif [ -s "$TMP/$name.out" ]; then
		fail "$name" "printed a report: $(head -c 200 "$TMP/$name.out")"
	else
		pass "$name"
	fi
}

# The options argp lists for `auditskip CMD --help`, one long name a line.
long_options() {
	local cmd=$1
	if [ "$cmd" = count ]; then "$AUDITSKIP" --help; else "$AUDITSKIP" "$cmd" --help; fi |
		grep -oE '^ +(-[^ ,], )?--[a-z][a-z.-]*' | sed 's/.*--//' | sort
}

test_help() {
	local c h
	for c in $COMMANDS; do
		h=$("$AUDITSKIP" "$c" -h 2>&1)
		check_eq "help: $c -h is $c --help" "$h" "$("$AUDITSKIP" "$c" --help 2>&1)"
		case $h in
		"Usage: auditskip $c "*) pass "help: $c usage line" ;;
		*) fail "help: $c usage line" "$(echo "$h" | head -n 1)" ;;
		esac
		if echo "$h" | grep -q '^Examples:' && echo "$h" | grep -q "^    auditskip $c"; then
			pass "help: $c examples"
		elif [ "$c" = count ] && echo "$h" | grep -q '^    auditskip -i'; then
			pass "help: $c examples"
		else
			fail "help: $c examples" "no example of auditskip $c"
		fi
	done
	# Only its own options: calibrate has no --json, rules no --profile.
	check_eq "help: calibrate's own options" "$(long_options calibrate | tr '\n' ' ')" \
		"calibration cpu help max-rules usage verbose version "
	check_eq "help: rules' own options" "$(long_options rules | tr '\n' ' ')" \
		"file help json keep-refused kernel usage version "
	check_eq "help: whatif's own options" "$(long_options whatif | tr '\n' ' ')" \
		"calibration compare file help json keep-refused kernel profile top usage version "
}

test_man() {
	local page=$TMP/auditskip.8 text c o missing=
	if ! command -v man >/dev/null; then
		fail man "man is missing"
		return
	fi
	scripts/gen-man.sh "$AUDITSKIP" test doc/auditskip.8.in >"$page" || {
		fail man "gen-man.sh failed"
		return
	}
	check_eq "man: renders without warnings" \
		"$(MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null | head -n 3)" ""
	text=$(MANWIDTH=80 man -l "$page" 2>/dev/null)
	for c in rules calibrate advise profile whatif hotspots; do
		echo "$text" | sed -n '/^SYNOPSIS/,/^DESCRIPTION/p' | grep -q "auditskip $c" ||
			missing="$missing synopsis:$c"
		echo "$text" | grep -q "^   auditskip $c\$" || missing="$missing section:$c"
		# Every option of the command, in its section.
		for o in $(long_options "$c" | grep -vxE 'help|usage|version'); do
			echo "$text" | sed -n "/^   auditskip $c\$/,/^   auditskip /p" |
				grep -q -- "--$o" || missing="$missing $c:--$o"
		done
	done
	check_eq "man: every command, its synopsis, section and options" "$missing" ""
	# The examples stay whole lines: the comment beside its command.
	check_eq "man: examples not broken" \
		"$(echo "$text" | grep -A1 'auditskip --user auditskip --metrics :9477 --web.config.file web.yml$' |
			grep -c '^ *# TLS and basic auth, then as user auditskip$')" 1
	check_eq "man: --web.config.file whole" \
		"$(echo "$text" | grep -cE '^ +--web\.config\.file=FILE$')" 1
}

test_usage() {
	expect_usage "usage: hotspots needs a command or a duration" "auditskip hotspots" \
		"needs either -d SECONDS or -- COMMAND" hotspots
	expect_usage "usage: hotspots takes a duration or a command, not both" \
		"auditskip hotspots" "needs either -d SECONDS or -- COMMAND" hotspots -d 1 -- true
	expect_usage "usage: unknown option of whatif" "auditskip whatif" \
		"unrecognized option '--bogus'" whatif --bogus
	expect_usage "usage: whatif needs --profile" "auditskip whatif" "needs --profile" whatif
	expect_usage "usage: calibrate --max-rules 0" "auditskip calibrate" \
		"invalid --max-rules '0'" calibrate --max-rules 0
	expect_usage "usage: rules takes no argument" "auditskip rules" \
		"unexpected argument 'x'" rules x
	expect_usage "usage: unknown command" "auditskip" "unknown command 'bogus'" bogus
	expect_usage "usage: bad --per-comm" "auditskip" "invalid --per-comm '0'" --per-comm 0
	expect_usage "usage: whatif --rules is gone" "auditskip whatif" \
		"unrecognized option '--rules'" whatif --rules x --profile "$PROFILE"
}

test_options() {
	# Each spelling of --per-comm gets past parsing (the privilege check
	# comes next, nobody has none): exit 1, no usage error.
	local spelling
	for spelling in "--per-comm 5" "--per-comm=5" "--per-comm"; do
		# shellcheck disable=SC2086
		run per-comm $spelling -d 1
		check_eq "options: $spelling parses" "$(cat "$TMP/per-comm.rc"):$(grep -c Usage "$TMP/per-comm.err")" \
			"1:0" "$(head -c 200 "$TMP/per-comm.err")"
	done
	run whatif-file whatif --file "$EXAMPLES/30-stig.rules" --profile "$PROFILE"
	check_eq "options: whatif --file" "$(cat "$TMP/whatif-file.rc")" 0 \
		"$(head -c 200 "$TMP/whatif-file.err")"
}

test_privilege() {
	expect_refusal "privilege: rules names CAP_AUDIT_CONTROL" \
		"lacks CAP_AUDIT_CONTROL to read audit's status and rules; without it, read a rules file: auditskip rules --file" \
		rules
	expect_refusal "privilege: whatif names CAP_AUDIT_CONTROL" \
		"lacks CAP_AUDIT_CONTROL" whatif --profile "$PROFILE"
	check_eq "privilege: listing asks for no BPF capability" \
		"$(grep -c CAP_BPF "$TMP/privilege: rules names CAP_AUDIT_CONTROL.err")" 0
}

test_bad_input() {
	printf -- '-a always,exit -F arch=b64 -S openat -k k\r\n' >"$TMP/crlf.rules"
	printf '\357\273\277-a always,exit -F arch=b64 -S openat\n' >"$TMP/bom.rules"
	printf -- '-a always,exit -F arch=b64 -S openat\n\001\002\r\n' >"$TMP/bin.rules"
	head -c 7000 /dev/zero | tr '\0' ' ' | sed 's/^/-a always,exit -S openat -k /' >"$TMP/long.rules"
	run crlf rules --file "$TMP/crlf.rules"
	check_eq "bad input: CRLF noted, escaped" \
		"$(cat "$TMP/crlf.rc"):$(grep -c 'ends in \\r (CRLF line endings?)' "$TMP/crlf.out"):$(grep -c $'\r' "$TMP/crlf.out")" \
		"0:1:0"
	expect_refusal "bad input: BOM named" "UTF-8 byte order mark" rules --file "$TMP/bom.rules"
	expect_refusal "bad input: binary, escaped" "'\\x01\\x02\\r' is not an option (binary file?" \
		rules --file "$TMP/bin.rules"
	check_eq "bad input: no raw control byte" "$(tr -d '\n' <"$TMP/bad input: binary, escaped.err" | tr -d '[:print:]' | wc -c)" 0
	expect_refusal "bad input: long line" "longer than auditctl's limit of 6143 bytes" \
		rules --file "$TMP/long.rules"
}

test_empty() {
	: >"$TMP/empty.rules"
	printf '# only\n\n   # comments\n' >"$TMP/comments.rules"
	mkdir -p "$TMP/empty.d"
	expect_refusal "empty: file" "no rule in $TMP/empty.rules" rules --file "$TMP/empty.rules"
	expect_refusal "empty: comments" "no rule in $TMP/comments.rules" \
		advise --file "$TMP/comments.rules"
	expect_refusal "empty: directory" "no rule in $TMP/empty.d" \
		whatif --file "$TMP/empty.d" --profile "$PROFILE"
}

test_disabled() {
	printf -- '-a always,exit -F arch=b64 -S openat\n' >"$TMP/on.rules"
	printf -- '-e 0\n-a always,exit -F arch=b64 -S openat\n' >"$TMP/off.rules"
	run on whatif --json --file "$TMP/on.rules" --profile "$PROFILE"
	run off whatif --json --file "$TMP/off.rules" --profile "$PROFILE"
	check_eq "disabled: on walks" "$(jq -r '.walks > 0' "$TMP/on.out")" true
	check_eq "disabled: -e 0 walks nothing" "$(jq -r '[.walks_at_all, .walks] | @csv' "$TMP/off.out")" "false,0"
}

test_numbers() {
	local f
	run w-json whatif --json --file "$EXAMPLES/30-stig.rules" --profile "$PROFILE"
	run w-text whatif --file "$EXAMPLES/30-stig.rules" --profile "$PROFILE"
	check_eq "numbers: whatif JSON has saved_ns_per_s" "$(jq -r 'has("saved_ns_per_s")' "$TMP/w-json.out")" true
	check_eq "numbers: whatif text has ns per second" \
		"$(grep -c 'ns per second of the profile' "$TMP/w-text.out")" 1
	# No float with more digits than anything was measured to.
	check_eq "numbers: floats rounded" "$(grep -cE '[0-9]\.[0-9]{10,}' "$TMP/w-json.out")" 0
	for f in rules advise; do
		run "t-$f" "$f" --json --file "$EXAMPLES/30-stig.rules"
		check_eq "numbers: $f JSON has type" "$(head -n 1 "$TMP/t-$f.out" | jq -r .type)" "$f"
	done
	run r-text rules --file "$EXAMPLES/30-stig.rules"
	check_eq "numbers: no audit_filter_syscall in the rules report" \
		"$(grep -c audit_filter_syscall "$TMP/r-text.out")" 0
}

# doc/extending.md's examples: each whole change still applies to the tree,
# touching as many files as its Touches: line (what the page counts).
test_examples() {
	local p want got
	for p in doc/examples/*.patch; do
		want=$(sed -n 's/^Touches: *//p' "$p" | head -n 1)
		if ! git apply --check "$p" 2>"$TMP/apply.err"; then
			fail "examples: $p" "no longer applies: $(head -n 2 "$TMP/apply.err" | tr '\n' ' ')"
			continue
		fi
		got=$(git apply --numstat "$p" | wc -l)
		check_eq "examples: $p" "$got" "${want:-?}" "files it touches"
	done
}

for t in $SELECTED; do
	"test_${t//-/_}"
done
summary_line
