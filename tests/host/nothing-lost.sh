#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Nothing lost, on this kernel: every rules file `auditskip advise` writes
# keeps every audit record its input makes. A set of the suite's own, whose
# every rule a witness workload fires (exit rules; a watch -p wa, chmod and
# append; a watch -p x and a path= perm=x rule, executed; a dir= perm=wa
# tree, a file written, chmodded, renamed and removed in it), is loaded line
# by line; then each file advise writes for it (the rewrite, the never,exit
# prefix, the prefix of the rewrite) is loaded with `auditctl -R`, which
# must take it whole, and the witness run again: the SYSCALL records per
# rule (its key) and syscall must be the same, and the rule set id its
# second line gives must be the loaded set's. Each file keeps the input's
# settings (-b, -f, --backlog_wait_time before the rules, -e 2 last: the
# files are loaded here without their -e line, as -e 2 locks the host until
# reboot), and leaves out the rule this kernel refuses, named in a comment. advise
# never writes onto a file it read nor into a directory it read; a run that
# writes nothing exits 1 and removes an older file advise wrote there. And a
# rules file reads the same as root and as nobody (fstype=, exe=).
#
#   tests/host/nothing-lost.sh [-l] [-t NAME]...   (as tests/host/run.sh)
set -u
cd "$(dirname "$0")/../.."
. tests/host/lib.sh

WITNESS_KEYS="nl-kill nl-getpid nl-watch nl-wexec nl-path nl-tree"
AUDIT_KEYS="$AUDIT_KEYS $WITNESS_KEYS nl-refused"
EXAMPLES=/usr/share/doc/auditd/examples/rules
select_tests "written prefix-records rewrite-records both-records control onto-input into-dir stale-removed stale-foreign read-as-nobody" "$@"
host_begin

# The witnessed directory: files the watches and the path= rule name, and
# the tree. Removed with $TMP, once the rules are gone (lib.sh).
D=$TMP/w
mkdir -p "$D/tree"
: >"$D/watched"
cp /bin/true "$D/exe"
cp /bin/true "$D/chk"
SET=$TMP/own.rules
cat >"$SET" <<EOF
-b 4096
-f 1
--backlog_wait_time 60000
-a always,exit -F arch=b64 -S kill -F auid=1000 -k nl-kill
-a always,exit -F arch=b64 -S getpid -F auid=1000 -k nl-getpid
-a always,exit -F dir=$D/tree -F perm=wa -k nl-tree
-a always,exit -F dir=/nonexistent-auditskip-dir/ -F perm=wa -k nl-refused
-w $D/watched -p wa -k nl-watch
-w $D/exe -p x -k nl-wexec
-a always,exit -F path=$D/chk -F perm=x -k nl-path
-e 2
EOF
chmod 0640 "$SET"
# The witness: fires every rule of the set, with loginuid 1000.
cat >"$TMP/witness.sh" <<EOF
kill -0 \$\$
$GETPID_LOOP 5
chmod 600 $D/watched
echo x >>$D/watched
$D/exe
$D/chk
echo y >$D/tree/f
chmod 600 $D/tree/f
mv $D/tree/f $D/tree/g
rm $D/tree/g
EOF

# records NAME: the witness run under the rules loaded now; its SYSCALL
# records counted per key and syscall into $TMP/NAME.recs.
records() {
	local ready=$TMP/$1.ready pid
	rm -f "$ready"
	"$OUT/audit_records" "$ready" - >"$TMP/$1.raw" 2>"$TMP/$1.raw.err" &
	pid=$!
	BACKGROUND="$BACKGROUND $pid"
	while [ ! -e "$ready" ] && kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
	bash -c "echo 1000 >/proc/self/loginuid && exec sh $TMP/witness.sh" >/dev/null 2>&1
	kill -TERM "$pid"
	wait "$pid" || log "audit_records $1: exit status $?: $(head -c 300 "$TMP/$1.raw.err")"
	awk '$1 == "type=1300" {
		key = ""; sc = ""
		for (i = 2; i <= NF; i++) {
			if ($i ~ /^key=/) key = $i
			if ($i ~ /^syscall=/) sc = $i
		}
		if (key ~ /^key="nl-/) print key, sc
	}' "$TMP/$1.raw" | sort | uniq -c | sed 's/^ *//' >"$TMP/$1.recs"
}

# The set as auditctl loads it line by line (the refused rule left out).
original() {
	[ -s "$TMP/orig.recs" ] && return 0
	auditctl -D >/dev/null
	grep -E '^-(a|w)' "$SET" | while IFS= read -r line; do
		# shellcheck disable=SC2086
		auditctl $line >/dev/null 2>&1
	done
	records orig
	auditctl -D >/dev/null
}

# write_file NAME ARGS...: advise ARGS -o $TMP/NAME.rules, exit 0.
write_file() {
	local name=$1
	shift
	if ! "$AUDITSKIP" advise "$@" -o "$TMP/$name.rules" >"$TMP/$name.out" 2>"$TMP/$name.err"; then
		fail "$name-records" "advise $* failed: $(head -c 300 "$TMP/$name.err")"
		return 1
	fi
}

# load_and_record NAME TEST: $TMP/NAME.rules loaded whole (without its -e
# line) and the witness run under it; false after a FAIL of TEST.
load_and_record() {
	local name=$1 t=$2
	original
	for key in $WITNESS_KEYS; do
		grep -q "key=\"$key\"" "$TMP/orig.recs" ||
			{ fail "$t" "the witness fired no record of $key under the set: the proof proves nothing"; return 1; }
	done
	grep -v '^-e ' "$TMP/$name.rules" >"$TMP/$name.load"
	auditctl -D >/dev/null
	if ! auditctl -R "$TMP/$name.load" >"$TMP/$name.loadout" 2>&1 || grep -qi error "$TMP/$name.loadout"; then
		fail "$t" "auditctl -R: $(grep -i error "$TMP/$name.loadout" | head -n 2)"
		auditctl -D >/dev/null
		return 1
	fi
	LOADED_ID=$("$AUDITSKIP" rules --json | jq -r .ruleset_id)
	records "$name"
	auditctl -D >/dev/null
}

# check_records NAME: $TMP/NAME.rules loads whole and the witness makes
# under it the records it makes under the set.
check_records() {
	local name=$1 t=$1-records
	load_and_record "$name" "$t" || return
	check_eq "$t" "$LOADED_ID" "$(sed -n "2s/.* the id \([0-9a-f]*\)\.$/\1/p" "$TMP/$name.rules")" \
		"the id the file gives is the loaded set's (auditskip rules)"
	if diff "$TMP/orig.recs" "$TMP/$name.recs" >"$TMP/$name.diff"; then
		pass "$t" "loads whole; $(awk '{ s += $1 } END { print s }' "$TMP/orig.recs") records of $(wc -l <"$TMP/orig.recs") rule and syscall pairs, the same as under the set"
	else
		fail "$t" "records differ (- the set, + $name): $(grep '^[<>]' "$TMP/$name.diff" | head -n 6 | tr '\n' ';')"
	fi
}

# The three files advise writes for the set, once.
write_all() {
	[ -s "$TMP/both.rules" ] && return 0
	write_file rewrite --file "$SET" && write_file prefix --file "$SET" --never-prefix --calibration "$SLOPE_CALIBRATION" &&
		write_file both --file "$TMP/rewrite.rules" --never-prefix --calibration "$SLOPE_CALIBRATION"
}

# What the files keep of the input.
test_written() {
	write_all || return
	for f in rewrite prefix both; do
		grep -v '^#' "$TMP/$f.rules" | grep -v '^$' >"$TMP/$f.lines"
		check_eq written "$(head -n 4 "$TMP/$f.lines" | tr '\n' ' ')" \
			"-D -b 4096 -f 1 --backlog_wait_time 60000 " "$f: -D, then the input's settings"
		check_eq written "$(tail -n 1 "$TMP/$f.lines")" "-e 2" "$f: -e 2 last"
		check_eq written "$(grep -c 'nonexistent-auditskip-dir' "$TMP/$f.lines")" 0 \
			"$f: the rule this kernel refuses is not a line to load"
		# (both is written from the rewrite, which holds no such rule)
		[ "$f" = both ] || grep -q '^##.*nonexistent-auditskip-dir.* is missing on this machine' "$TMP/$f.rules" &&
			pass written "$f: the refused rule is named in a comment, with why" ||
			fail written "$f: the refused rule is not named"
		check_eq written "$(stat -c %a "$TMP/$f.rules")" 640 "$f: mode 0640"
	done
}

test_prefix_records() { write_all && check_records prefix; }
test_rewrite_records() { write_all && check_records rewrite; }
test_both_records() { write_all && check_records both; }

# The comparison can fail: the prefix naming what the watches and the path=
# rule need (execve, openat, fchmodat), as it did before it knew that a
# never match silences them, loses their records.
test_control() {
	write_all || return
	sed '/^-a never,exit -F arch=b64 -S /s/-S /-S execve,openat,fchmodat,/' "$TMP/prefix.rules" >"$TMP/broken.rules"
	load_and_record broken control || return
	if diff "$TMP/orig.recs" "$TMP/broken.recs" >"$TMP/broken.diff"; then
		fail control "the broken prefix made the same records"
	else
		pass control "the broken prefix lost records: $(grep -c '^<' "$TMP/broken.diff") rule and syscall pairs ($(grep '^<' "$TMP/broken.diff" | grep -o 'key="[^"]*"' | sort -u | tr '\n' ' '))"
	fi
}

test_onto_input() {
	cp "$SET" "$TMP/input.rules"
	expect_refusal onto-input "is a file the rules were read from" \
		advise --file "$TMP/input.rules" -o "$TMP/input.rules"
	expect_refusal onto-input "is a file the rules were read from" \
		advise --file "$TMP/input.rules" --never-prefix --calibration "$SLOPE_CALIBRATION" -o "$TMP/input.rules"
	cmp -s "$SET" "$TMP/input.rules" && pass onto-input "the input is unchanged" ||
		fail onto-input "the input was changed"
}

test_into_dir() {
	mkdir -p "$TMP/rules.d"
	cp "$SET" "$TMP/rules.d/10-own.rules"
	expect_refusal into-dir "the directory read" \
		advise --file "$TMP/rules.d" --never-prefix --calibration "$SLOPE_CALIBRATION" -o "$TMP/rules.d/99-prefix.rules"
	[ ! -e "$TMP/rules.d/99-prefix.rules" ] && pass into-dir "nothing written there" ||
		fail into-dir "$TMP/rules.d/99-prefix.rules written"
}

# One exit rule: no prefix can pay, nothing is written.
one_rule_set() {
	printf '%s\n' "-a always,exit -F arch=b64 -S kill -F auid=1000 -k nl-kill" >"$TMP/one.rules"
}

test_stale_removed() {
	one_rule_set
	"$AUDITSKIP" advise --file "$SET" --never-prefix --calibration "$SLOPE_CALIBRATION" -o "$TMP/stale.rules" >/dev/null 2>&1
	[ -s "$TMP/stale.rules" ] || { fail stale-removed "no first file to go stale"; return; }
	expect_refusal stale-removed "nothing written to .*removed" \
		advise --file "$TMP/one.rules" --never-prefix --calibration "$SLOPE_CALIBRATION" -o "$TMP/stale.rules"
	[ ! -e "$TMP/stale.rules" ] && pass stale-removed "the older file advise wrote is gone" ||
		fail stale-removed "the older file is still there to be loaded"
}

test_stale_foreign() {
	one_rule_set
	printf '%s\n' "-a always,exit -F arch=b64 -S openat -k mine" >"$TMP/mine.rules"
	cp "$TMP/mine.rules" "$TMP/mine.copy"
	expect_refusal stale-foreign "nothing written to .*left as it was" \
		advise --file "$TMP/one.rules" --never-prefix --calibration "$SLOPE_CALIBRATION" -o "$TMP/mine.rules"
	cmp -s "$TMP/mine.rules" "$TMP/mine.copy" && pass stale-foreign "a file advise did not write is kept" ||
		fail stale-foreign "a file advise did not write was changed"
}

# Every example set and upstream set reads the same, in JSON, as root and as
# nobody (libaudit checks fstype=, exe= and sessionid= against a kernel
# feature bitmap only root can read).
test_read_as_nobody() {
	local pub n=0 f b
	pub=$(mktemp -d /tmp/auditskip-nobody.XXXXXX)
	chmod 755 "$pub"
	for f in "$EXAMPLES"/*.rules tests/data/audit-4.2.1/*.rules; do
		b=$(basename "$f")
		[ -e "$pub/$b" ] && b=upstream-$b
		cp "$f" "$pub/$b"
		chmod 644 "$pub/$b"
		"$AUDITSKIP" rules --file "$pub/$b" --json >"$pub/$b.root" 2>&1
		runuser -u nobody -- "$AUDITSKIP" rules --file "$pub/$b" --json >"$pub/$b.nobody" 2>&1
		if ! cmp -s "$pub/$b.root" "$pub/$b.nobody"; then
			fail read-as-nobody "$b: root and nobody read it differently: $(diff "$pub/$b.root" "$pub/$b.nobody" | head -c 300)"
			rm -rf "$pub"
			return
		fi
		n=$((n + 1))
	done
	grep -q '"fstype"\|fstype' "$pub/23-ignore-filesystems.rules.nobody" 2>/dev/null &&
		pass read-as-nobody "23-ignore-filesystems' fstype rules read by nobody" ||
		fail read-as-nobody "23-ignore-filesystems' fstype rules not in nobody's reading: $(head -c 200 "$pub/23-ignore-filesystems.rules.nobody")"
	pass read-as-nobody "$n rules files read the same by root and by nobody"
	rm -rf "$pub"
}

run_tests
summary_line
