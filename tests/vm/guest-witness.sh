#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The witness suite (vmsuite=witness): every file `auditskip advise` writes
# for a rule set makes the same records as the set, rule by rule, under a
# workload that fires every rule it can (tests/tools/witness.c).
#
# For each set (Debian's examples with exit rules or watches, audit-
# userspace 4.2.1's, three public sets in tests/data/public, and one of the
# suite's own), every rule gets a key of its own (-k wN, N its line: a key
# changes no match), so records per key are records per rule. The lines
# this kernel refuses are dropped (counted); the rest is loaded with
# `auditctl -R`, and the witness made from the kernel's listing of it runs
# while audit_records (the audit daemon's place, so nothing is lost)
# prints every record (the plan is made and saved before, `witness
# --save`: planning reads the paths the rules name, which some rules
# record). Then `advise --file` writes the rewrite, the never,exit prefix
# and the prefix of the rewrite; each is loaded with `auditctl -R` and the
# same witness runs again. The records, reduced as guest-records.sh
# reduces them and grouped by the key of their event, must be the same per
# key; every rule must have fired, but for the rules the witness's plan
# names as ones it cannot fire (counted, and a set where most cannot fire
# fails). A file whose listing is one already run (a rewrite that changed
# nothing) is not run twice; a set advise writes no prefix for passes its
# prefix tests with advise's reason. A control shows the comparison can
# fail: the own set's prefix with openat and fchmodat added to its b64
# rule, as a prefix that overlooked the watches would name them, must lose
# watch records.
#
# witsets=NAME,... on the kernel command line (VMTEST_APPEND) runs only
# those sets, for work on the suite (the plan's other tests then have no
# result).
#
# Result lines:
#   PASS witness/<set>/load|fired, witness/<set>/<file>/load|records
#        (<file>: rewrite, prefix, prefix-rewrite), witness/control
#   FAIL ...: reason

. "${VMTEST_DIR:-/vmtest}/guest-lib.sh"
guest_test_args "$@"

W=/wit                # the suite's work, a tmpfs no rule set names (the
                      # witness's scratch tree is $W/s)
OWN=/witown           # what the own set names
SETDIR=${VMTEST_WITNESS_DIR:-/vmtest/witness} # (the host: tests/data)
FILES="rewrite prefix prefix-rewrite"
T0=$(cut -d' ' -f1 /proc/uptime)

own_rules() {
	cat <<EOF
-w $OWN/watched -p wa
-w $OWN/tool -p x
-a always,exit -F path=$OWN/tool2 -F perm=x
-a always,exit -S all -F dir=$OWN/tree -F perm=wa
-w $OWN/cfg/ -p wa
-a always,exit -F path=$OWN/watched -F perm=r -F auid>=1000
-a always,exit -F arch=b32 -S open,openat,unlink -F dir=$OWN/tree32
-a always,exit -F arch=b32 -S chmod,fchmodat,chown32 -F auid>=1000 -F auid!=unset
-a always,exit -F arch=b64 -S open,openat,creat -F exit=-EACCES -F auid>=1000 -F auid!=unset
-a always,exit -F arch=b64 -S openat,truncate -F exit=-EPERM
-a always,exit -F arch=b64 -S unlinkat -F exit=-ENOENT
-a always,exit -F arch=b64 -S rename,renameat -F success=1 -F auid=1000
-a always,exit -F arch=b64 -S setuid -F exit=-EPERM
-a always,exit -F arch=b64 -S execve -C uid!=euid -F euid=0
-a always,exit -F arch=b64 -S getpid -F auid=1000
EOF
}

# run_witness NAME: the witness of the set under what is loaded; its
# records, reduced and grouped by the key of their event, counted, in
# $W/runs/NAME.recs ("COUNT key=... type=N field=value ...").
run_witness() {
	# Records logged while no daemon listened (loading, advise) wait in
	# the hold queue: a first listener takes them.
	listen "$W/held" "$W/ready"
	kill -TERM $LISTENER
	wait $LISTENER
	listen "$W/raw" "$W/ready"
	_rp=$LISTENER
	_t0=$(cut -d' ' -f1 /proc/uptime)
	witness --run "$W/set.plan" </dev/null >"$W/runs/$1.out" 2>&1
	_wrc=$?
	_t1=$(cut -d' ' -f1 /proc/uptime)
	kill -TERM $_rp
	wait $_rp
	_rrc=$?
	if [ $_wrc -ne 0 ]; then
		WHY="the witness ended with status $_wrc: $(tail -n 3 "$W/runs/$1.out" | tr '\n' ' ' | cut -c1-400)"
		return 1
	fi
	if [ $_rrc -ne 0 ]; then
		WHY="audit_records exit status $_rrc: $(head -n 3 "$W/raw.err")"
		return 1
	fi
	# reduced as guest-records.sh reduces records, each behind the key of
	# its event (witness --reduce: busybox awk took as long as the run)
	witness --reduce "$W/raw" >"$W/runs/$1.recs"
	log "witness/$1: $(awk '{ s += $1 } END { print s + 0 }' "$W/runs/$1.recs") records;" \
		"$(grep -a '^witness: ' "$W/runs/$1.out" | cut -c10-) in" \
		"$(awk -v a="$_t0" -v b="$_t1" 'BEGIN { printf "%.1f", b - a }') s, reduced in" \
		"$(awk -v a="$_t1" -v b="$(cut -d' ' -f1 /proc/uptime)" 'BEGIN { printf "%.1f", b - a }') s;" \
		"most: $(awk '{ n[$2 " " $3] += $1 } END { for (k in n) print n[k], k }' "$W/runs/$1.recs" |
			sort -rn | head -n 6 | tr '\n' ';')"
}

# minus A B: the lines of file A that file B does not hold; both A B:
# those it holds (busybox has no comm)
minus() {
	awk 'FILENAME == ARGV[1] { b[$0] = 1; next } !($0 in b)' "$2" "$1"
}

both() {
	awk 'FILENAME == ARGV[1] { b[$0] = 1; next } $0 in b' "$2" "$1"
}

# fired ID NAME: every rule of the set has a SYSCALL record with its key,
# but for those the plan names as cannot fire.
fired() {
	sed -n 's/^CANNOT \(w[0-9]*\) .*/\1/p' "$W/$1.plan" | sort -u >"$W/$1.cannot"
	sed -n 's/.*-k \(w[0-9]*\)$/\1/p' "$W/$1.rules" | sort -u >"$W/$1.keys"
	awk '$3 == "type=1300" { k = $2; sub(/^key=/, "", k); gsub(/"/, "", k); print k }' \
		"$W/runs/$1.orig.recs" | sort -u >"$W/$1.fired"
	_nk=$(wc -l <"$W/$1.keys")
	_c=$(both "$W/$1.keys" "$W/$1.cannot" | wc -l)
	minus "$W/$1.keys" "$W/$1.fired" >"$W/$1.silent"
	_missed=$(minus "$W/$1.silent" "$W/$1.cannot")
	# what cannot fire, as the plan says why
	grep '^CANNOT ' "$W/$1.plan" | sed "s|^CANNOT |VMTEST INFO witness/$2: cannot fire: |" |
		cut -c1-300
	_fk=$(both "$W/$1.keys" "$W/$1.fired" | wc -l)
	_odd=$(both "$W/$1.cannot" "$W/$1.fired" | tr '\n' ' ')
	[ -z "$_odd" ] || log "witness/$2: planned as rules it cannot fire, fired all the same: $_odd"
	if [ -n "$_missed" ]; then
		_why=
		for _k in $_missed; do
			_why="$_why; $_k: $(grep -- "-k $_k\$" "$W/$1.rules" | cut -c1-160)"
		done
		fail "witness/$2/fired" "rules the witness can fire made no record${_why}"
	elif [ $((_c * 2)) -gt "$_nk" ]; then
		fail "witness/$2/fired" "$_c of $_nk rules cannot fire: the witness proves little here"
	else
		pass "witness/$2/fired" "$_fk of $_nk rules fired; $_c the plan names as ones it cannot fire"
	fi
}

# compare ID FILE NAME: the records of FILE's run against the set's, per key.
compare() {
	if cmp -s "$W/runs/$1.orig.recs" "$W/runs/$1.$2.recs"; then
		pass "witness/$3/$2/records" "$(awk '{ s += $1 } END { print s + 0 }' "$W/runs/$1.orig.recs") records, the same per key${REUSED:+ ($REUSED)}"
		return
	fi
	# per key: the records as loaded (-) and under the file (+)
	diff "$W/runs/$1.orig.recs" "$W/runs/$1.$2.recs" | grep '^[-+][0-9]' >"$W/$1.$2.diff"
	_keys=$(awk '{ print $2 }' "$W/$1.$2.diff" | sort -u | sed 's/key=//; s/"//g' | tr '\n' ' ')
	_first=$(head -n 4 "$W/$1.$2.diff" | cut -c1-240 | tr '\n' ';')
	fail "witness/$3/$2/records" "records differ for the rules of keys $_keys(- as loaded, + $2: $_first)"
}

ONLY=$(echo "$KCMDLINE" | sed -n 's/.*witsets=\([^ ]*\).*/\1/p' | tr , ' ')

# set_picked NAME: is the set NAME run (witsets=, or every set)?
set_picked() {
	[ -z "$ONLY" ] && return 0
	case " $ONLY " in *" $1 "*) return 0 ;; esac
	return 1
}

# witness_set NAME FILE (its files are $W/ID.*, ID the name with _ for /)
witness_set() {
	set_picked "$1" || return
	ws_n=$1
	ws_id=$(echo "$1" | tr / _)
	witness_keyed "$2" "$W/$ws_id.keyed"
	witness --prepare "$W/$ws_id.keyed" >"$W/$ws_id.prepare" 2>&1
	grep -v '^witness: prepared ' "$W/$ws_id.prepare" | sed "s|^|VMTEST INFO witness/$ws_n: |"
	if ! witness_load "$W" "$ws_id"; then
		fail "witness/$ws_n/load" "$LOADED of $((LOADED + DROPPED)) lines left; auditctl -R: $(grep -i error "$W/$ws_id.load" 2>/dev/null | head -n 2)"
		return
	fi
	auditctl -l >"$W/$ws_id.list"
	ws_nl=$(grep -c '^ *-[apw] ' "$W/$ws_id.list")
	if [ "$ws_nl" -ne "$LOADED" ]; then
		fail "witness/$ws_n/load" "auditctl -l lists $ws_nl rules, $LOADED loaded: $(head -n 3 "$W/$ws_id.list" | tr '\n' ';'); auditctl -R said: $(head -n 3 "$W/$ws_id.load" | tr '\n' ';')"
		rules_reset
		return
	fi
	pass "witness/$ws_n/load" "$LOADED rules loaded with auditctl -R, $DROPPED lines this kernel refuses dropped"
	# The plan, made before the records are read: planning asks about the
	# paths the rules name, which some rules record.
	if ! witness --save "$W/$ws_id.batches" "$W/$ws_id.list" >"$W/$ws_id.plan" 2>&1; then
		fail "witness/$ws_n/fired" "witness --save: $(tail -n 2 "$W/$ws_id.plan")"
		rules_reset
		return
	fi
	cp "$W/$ws_id.batches" "$W/set.plan"
	if ! run_witness "$ws_id.orig"; then
		fail "witness/$ws_n/fired" "$WHY"
		rules_reset
		return
	fi
	fired "$ws_id" "$ws_n"
	cp "$W/$ws_id.list" "$W/lists.$ws_id.orig"

	rules_reset
	for ws_f in $FILES; do
		rm -f "$W/$ws_id.$ws_f"
		case $ws_f in
		rewrite) tool "$ws_id-$ws_f" advise --file "$W/$ws_id.rules" -o "$W/$ws_id.$ws_f" ;;
		prefix)
			tool "$ws_id-$ws_f" advise --file "$W/$ws_id.rules" --never-prefix \
				-o "$W/$ws_id.$ws_f"
			;;
		prefix-rewrite)
			tool "$ws_id-$ws_f" advise --file "$W/$ws_id.rewrite" --never-prefix \
				-o "$W/$ws_id.$ws_f"
			;;
		esac
		if [ ! -s "$W/$ws_id.$ws_f" ]; then
			if grep -q 'Nothing written' "$T/$ws_id-$ws_f.out" "$T/$ws_id-$ws_f.err" 2>/dev/null &&
				[ "$ws_f" != rewrite ]; then
				ws_r=$(grep -h 'No never,exit prefix\|no prefix' "$T/$ws_id-$ws_f.out" | head -n 1 | cut -c1-200)
				pass "witness/$ws_n/$ws_f/load" "no prefix written: $ws_r"
				pass "witness/$ws_n/$ws_f/records" "no prefix written"
			else
				fail "witness/$ws_n/$ws_f/load" "advise wrote no file (exit status $rc)"
				dump "$ws_id-$ws_f"
				fail "witness/$ws_n/$ws_f/records" "no file"
			fi
			continue
		fi
		rules_reset
		if ! auditctl -R "$W/$ws_id.$ws_f" >"$W/$ws_id.$ws_f.load" 2>&1 ||
			grep -qi error "$W/$ws_id.$ws_f.load"; then
			fail "witness/$ws_n/$ws_f/load" "auditctl -R: $(grep -i error "$W/$ws_id.$ws_f.load" | head -n 2)"
			fail "witness/$ws_n/$ws_f/records" "not loaded"
			continue
		fi
		auditctl -l >"$W/lists.$ws_id.$ws_f"
		pass "witness/$ws_n/$ws_f/load" "auditctl -R loads it: $(grep -c '^-a never,exit' "$W/lists.$ws_id.$ws_f") never,exit and $(grep -vc '^-a never,exit' "$W/lists.$ws_id.$ws_f") other rules"
		# a listing already run makes the same records
		REUSED=
		for ws_o in orig $FILES; do
			[ "$ws_o" != "$ws_f" ] || break
			if [ -e "$W/runs/$ws_id.$ws_o.recs" ] && cmp -s "$W/lists.$ws_id.$ws_o" "$W/lists.$ws_id.$ws_f"; then
				cp "$W/runs/$ws_id.$ws_o.recs" "$W/runs/$ws_id.$ws_f.recs"
				REUSED="the kernel lists it as the $ws_o: its run's records"
				break
			fi
		done
		if [ -z "$REUSED" ] && ! run_witness "$ws_id.$ws_f"; then
			fail "witness/$ws_n/$ws_f/records" "$WHY"
			continue
		fi
		compare "$ws_id" "$ws_f" "$ws_n"
	done
	rules_reset
}

# The control: the own set's prefix naming openat and fchmodat in its b64
# rule, as a prefix that overlooked watches and path= rules would, must
# lose records.
control() {
	if ! grep -q '^-a never,exit -F arch=b64 -S ' "$W/own.prefix" 2>/dev/null; then
		fail witness/control "no b64 prefix rule for the own set"
		return
	fi
	sed '/^-a never,exit -F arch=b64 -S /s/-S /-S openat,fchmodat,/' "$W/own.prefix" \
		>"$W/own.control"
	rules_reset
	cp "$W/own.batches" "$W/set.plan"
	if ! auditctl -R "$W/own.control" >"$W/own.control.load" 2>&1 ||
		! run_witness own.control; then
		fail witness/control "the control did not load or run: ${WHY:-$(head -n 2 "$W/own.control.load")}"
		rules_reset
		return
	fi
	rules_reset
	if cmp -s "$W/runs/own.orig.recs" "$W/runs/own.control.recs"; then
		fail witness/control "a prefix naming openat and fchmodat made the same records"
		return
	fi
	diff "$W/runs/own.orig.recs" "$W/runs/own.control.recs" | grep '^-[0-9]' >"$W/control.lost"
	_keys=$(awk '{ print $2 }' "$W/control.lost" | sort -u | sed 's/key=//; s/"//g' | tr '\n' ' ')
	pass witness/control "a prefix naming openat and fchmodat loses records of the rules of keys $_keys"
}

# The sets, in the order they run: Debian's examples that make records (an
# always rule on the exit list, or a watch), audit-userspace 4.2.1's and the
# public sets, then the own set, and the control. The twelve pieces of
# each OSPP set (30-ospp-v42-1-create-failed.rules and the rest, loaded
# beside 30-ospp-v42.rules) go in as one set, in name order, as augenrules
# would put them (witness_pieces).
suite_plan() {
	set +f # (guest-lib.sh turns globbing off)
	for _set in $RULES_DIR/*.rules; do
		grep -qE '^-a +(always,exit|exit,always)|^-w ' "$_set" || continue
		case $_set in *-ospp-v42-[0-9]-*) continue ;; esac
		witness_set "debian/$(basename "$_set" .rules)" "$_set"
	done
	witness_pieces debian/30-ospp-v42-pieces $RULES_DIR
	for _set in $SETDIR/audit-4.2.1/*.rules; do
		case $_set in *-ospp-v42-[0-9]-*) continue ;; esac
		witness_set "audit-4.2.1/$(basename "$_set" .rules)" "$_set"
	done
	witness_pieces audit-4.2.1/30-ospp-v42-pieces $SETDIR/audit-4.2.1
	for _set in $SETDIR/public/*.rules; do
		witness_set "public/$(basename "$_set" .rules)" "$_set"
	done
	set -f
	witness_set own $W/own.set
	control
}

# witness_pieces NAME DIR: DIR's OSPP pieces as the one set NAME. Globbing
# is left as it was found: suite_plan globs the next directory after it.
witness_pieces() {
	_wp_flags=$-
	set +f
	cat "$2"/30-ospp-v42-[0-9]-*.rules >"$W/$(echo "$1" | tr / _).set"
	case $_wp_flags in *f*) set -f ;; esac
	witness_set "$1" "$W/$(echo "$1" | tr / _).set"
}

# suite_tests: suite_plan's results: each set picked gives its load and
# fired, and a load and records for each of FILES; then the control.
suite_tests() {
	witness_set() {
		set_picked "$1" || return 0
		echo "witness/$1/load"
		echo "witness/$1/fired"
		for _f in $FILES; do
			echo "witness/$1/$_f/load"
			echo "witness/$1/$_f/records"
		done
	}
	witness_pieces() { witness_set "$1"; }
	control() { echo witness/control; }
	suite_plan
}
declared

# ------------------------------------------------------------------- main ---

mkdir -p $W
mount -t tmpfs tmpfs $W
mkdir -p $W/runs

for _b in auditskip witness witness32 audit_records auditctl; do
	if ! command -v $_b >/dev/null; then
		fail witness/tools "$_b missing from the initramfs (make static)"
		summary_line
		exit 1
	fi
done

auditctl -e 1 >/dev/null
auditctl -b 65536 >/dev/null
log "witness: kernel $KVER"
mkdir -p $OWN/tree $OWN/tree32 $OWN/cfg
: >$OWN/watched
: >$OWN/tool
: >$OWN/tool2
chmod 755 $OWN/tool $OWN/tool2
own_rules >$W/own.set

suite_plan
rules_reset
log "witness: $(awk -v a="$T0" -v b="$(cut -d' ' -f1 /proc/uptime)" 'BEGIN { printf "%.0f", b - a }') s"
summary_line
