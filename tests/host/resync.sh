#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Resync on the host (tracepoint mode, where the loader keeps the mirror):
# hundreds of rule changes from concurrent shell loops while auditskip
# counts, with its periodic listing switched off, so only what audit logs
# (and the lost-record checks) can keep the mirror right. Afterwards the
# tool's mirror must equal the kernel's list and a workload's counts must be
# exact. Then the same when the kernel's rate limit drops the change
# records, when an exclude rule hides them, and when audit is turned off and
# on around changes. Rules, the enabled flag and the rate limit are
# restored, also on failure.
#
#   tests/host/resync.sh [-l] [-t NAME]...   (as tests/host/run.sh)
set -u
cd "$(dirname "$0")/../.."
. tests/host/lib.sh

AUDIT_KEYS="$AUDIT_KEYS $KEY-flood-a $KEY-flood-b"
select_tests "flood lost rate-limited excluded audit-off" "$@"
host_begin

# The rate-limited test lowers audit's rate limit, which the saved policy
# does not cover: put back at exit too, after what lib.sh stops.
RATE_LIMIT_SAVED=
restore_rate_limit() {
	[ -n "$RATE_LIMIT_SAVED" ] && auditctl -r "$RATE_LIMIT_SAVED" >/dev/null
	RATE_LIMIT_SAVED=
}
eval "$(declare -f before_policy_restore | sed '1s/^before_policy_restore/stop_background/')"
before_policy_restore() {
	stop_background
	restore_rate_limit
}

M=$((20000 + RANDOM % 20000))
# No periodic listing during the test: a day.
NO_PERIODIC=(--test-list-period-ms 86400000)

# flood_loop KEY SYSCALL BASE COUNT: adds COUNT rules one auditctl at a time,
# deleting about a third of them again as it goes; at the end, on a coin
# flip, deletes every rule it left (so whether SYSCALL's bit ends up set is
# not known in advance).
flood_loop() {
	local key=$1 sc=$2 base=$3 n=$4 i rule
	for i in $(seq 1 "$n"); do
		rule="always,exit -F arch=b64 -S $sc -F uid=$((base + i)) -k $key"
		# shellcheck disable=SC2086
		auditctl -a $rule >/dev/null 2>&1
		if [ $((RANDOM % 3)) = 0 ]; then
			# shellcheck disable=SC2086
			auditctl -d $rule >/dev/null 2>&1
		fi
	done
	[ $((RANDOM % 2)) = 0 ] && auditctl -D -k "$key" >/dev/null 2>&1
	return 0
}

# flood_batch KEY SYSCALL BASE COUNT [maybe]: the same changes through one
# auditctl -R, as fast as the kernel takes them; the rules it leaves stay,
# or with "maybe" go on a coin flip.
flood_batch() {
	local key=$1 sc=$2 base=$3 n=$4 i batch=$TMP/flood-$1-$2.rules
	: >"$batch"
	for i in $(seq 1 "$n"); do
		echo "-a always,exit -F arch=b64 -S $sc -F uid=$((base + i)) -k $key" >>"$batch"
		[ $((i % 3)) = 0 ] && echo "-d always,exit -F arch=b64 -S $sc -F uid=$((base + i)) -k $key" >>"$batch"
	done
	auditctl -R "$batch" >/dev/null 2>&1
	[ "${5:-}" = maybe ] && [ $((RANDOM % 2)) = 0 ] && auditctl -D -k "$key" >/dev/null 2>&1
	return 0
}

# The newest interval line (grep first: the output grows by an interval
# line every 0.2 s), and its FIELD.
last_interval_line() {
	grep '"type":"interval"' "$1" | tail -n 1
}
last_interval() {
	last_interval_line "$1" | jq -cr --arg f "$2" '.[$f]'
}

# True once the newest interval line's mask and rule count are those of
# the rules auditctl -l lists now (LIST). The expected mask is worked out
# again only when the listing changed: for some 400 rules that takes
# seconds, and a bounded wait must poll more often than that.
mirror_caught_up() {
	auditctl -l >"$2.now"
	if ! cmp -s "$2.now" "$2"; then
		mv "$2.now" "$2"
		expected_mask_hex <"$2" >"$2.mask"
		expected_exit_rules <"$2" >"$2.rules"
	fi
	[ "$(last_interval "$1" mask_hex)" = "$(cat "$2.mask")" ] &&
		[ "$(last_interval "$1" exit_rules)" = "$(cat "$2.rules")" ]
}

# check_flood NAME OUT: after the flood the mirror equals the list (within a
# bounded wait for the last change to be heard), then M getpid are counted
# exactly by that mirror.
check_flood() {
	local name=$1 out=$2 pid=$3 list=$TMP/$1.list want_skip t0=$SECONDS
	if ! wait_for 15 mirror_caught_up "$out" "$list"; then
		fail "$name" "mirror never equalled the list: mirror $(last_interval "$out" exit_rules) rules, mask $(last_interval "$out" mask_hex); list $(cat "$list.rules") rules, mask $(cat "$list.mask"); last interval $(last_interval_line "$out" | jq -c '{time, mirror_generation, exit_rules}' 2>/dev/null)"
	else
		pass "$name" "mirror equals the list after the flood ($(cat "$list.rules") exit rules, $(expected_mask_bits <"$list") mask bits; $((SECONDS - t0)) s after it)"
	fi
	if expected_mask_has "$(ausyscall x86_64 getpid --exact)" <"$list"; then
		want_skip=0
	else
		want_skip=$M
	fi
	touch "$TMP/go"
	wait "$pid"
	check_eq "$name" "$?" 0 "auditskip and the workload exited cleanly"
	check_eq "$name" "$(syscall_field "$out" getpid walks)" "$M" "getpid walks after the flood"
	check_eq "$name" "$(syscall_field "$out" getpid skippable_walks)" "$want_skip" \
		"skippable getpid walks (getpid's bit $([ "$want_skip" = 0 ] && echo set || echo clear) in the list)"
	check_eq "$name" "$(jq -r 'select(.type == "summary") | .resync.by_reason.periodic' "$out")" 0 \
		"no periodic listing ran"
	log "$name: $(jq -c 'select(.type == "summary") | .resync' "$out")"
}

# start_counting OUT ARGS...: auditskip on a workload paused before its getpid.
start_counting() {
	local out=$1
	shift
	rm -f "$TMP/ready" "$TMP/go"
	"$AUDITSKIP" --json -i 0.2 "${NO_PERIODIC[@]}" "$@" -- \
		"$GETPID_LOOP" 0 --pause "$TMP/ready" "$TMP/go" "$M" >"$out" &
	COUNTING=$!
	BACKGROUND="$BACKGROUND $COUNTING"
	wait_for 10 test -e "$TMP/ready" && wait_for 10 grep -q '"type":"interval"' "$out"
}

# Two shell loops adding and deleting rules one auditctl at a time, and one
# auditctl -R batch, all at once: about 700 changes. The batch's 200 rules
# stay, so the list never ends as it began.
test_flood() {
	local out=$TMP/flood.json a b c
	add_rules 16 openat
	start_counting "$out" || {
		fail flood "auditskip did not start"
		return
	}
	flood_loop "$KEY-flood-a" getpid 4610000 150 &
	a=$!
	flood_loop "$KEY-flood-b" getppid 4620000 150 &
	b=$!
	flood_batch "$KEY" read 4630000 300 &
	c=$!
	wait "$a" "$b" "$c"
	check_eq flood "$(jq -r 'select(.type == "interval") | .resync.notifications' "$out" |
		tail -n 1 | awk '{ print ($1 > 0) }')" 1 "rule changes heard"
	check_flood flood "$out" "$COUNTING"
	remove_rules "$KEY-flood-a"
	remove_rules "$KEY-flood-b"
	remove_rules
}

# A change socket too small for a burst (the kernel's smallest buffer holds
# a record or two): records are lost, the loader must notice (ENOBUFS) and
# list all the same.
test_lost() {
	local out=$TMP/lost.json
	add_rules 16 openat
	start_counting "$out" --test-notify-rcvbuf 1 || {
		fail lost "auditskip did not start"
		return
	}
	flood_batch "$KEY-flood-a" getpid 4640000 300 maybe
	flood_batch "$KEY-flood-b" getppid 4650000 300
	wait_for 10 sh -c "jq -r 'select(.type == \"interval\") | .resync.by_reason.lost' '$out' | tail -n 1 | grep -qv '^0$'"
	check_eq lost "$(last_interval "$out" resync | jq -r '.by_reason.lost > 0')" true \
		"lost records noticed and listed for"
	check_flood lost "$out" "$COUNTING"
	remove_rules "$KEY-flood-a"
	remove_rules "$KEY-flood-b"
	remove_rules
}

# With a rate limit of one record a second the kernel drops the change
# records of a burst itself (audit_log_end(): "rate limit exceeded"): the
# socket never sees them and only audit's lost counter moves. The first
# record of the burst gets through and its listing runs while the burst goes
# on; the rest of the burst reaches the mirror only if the moved counter
# makes the loader list again.
test_rate_limited() {
	local out=$TMP/rate.json
	add_rules 16 openat
	RATE_LIMIT_SAVED=$(auditctl -s | awk '$1 == "rate_limit" { print $2 }')
	start_counting "$out" || {
		fail rate-limited "auditskip did not start"
		restore_rate_limit
		return
	}
	auditctl -r 1 >/dev/null
	# A second after the rate-limit change's own record: the next one passes.
	sleep 1.1
	flood_batch "$KEY-flood-a" getpid 4680000 300 maybe
	flood_batch "$KEY-flood-b" getppid 4690000 300
	# Records logged from here on must all get through: the loader's own
	# listings do not log, but the rules' removal at the end does.
	restore_rate_limit
	wait_for 10 sh -c "jq -r 'select(.type == \"interval\") | .resync.by_reason.lost' '$out' | tail -n 1 | grep -qv '^0$'"
	check_eq rate-limited "$(last_interval "$out" resync | jq -r '.by_reason.lost > 0')" true \
		"records the kernel dropped noticed (audit's lost counter) and listed for"
	check_flood rate-limited "$out" "$COUNTING"
	remove_rules "$KEY-flood-a"
	remove_rules "$KEY-flood-b"
	remove_rules
}

# An exclude rule that drops AUDIT_CONFIG_CHANGE (audit_filter() drops what
# it matches, lost to no counter) hides every rule change: the loader must
# see that rule and check the list every tick instead, whatever the test
# option says.
test_excluded() {
	local out=$TMP/excluded.json list=$TMP/excluded.list
	add_rules 16 openat
	auditctl -a never,exclude -F msgtype=CONFIG_CHANGE >/dev/null || {
		fail excluded "cannot add the exclude rule"
		return
	}
	if start_counting "$out"; then
		add_rules 8 getpid "$KEY-flood-a" 4660000
		if wait_for 15 mirror_caught_up "$out" "$list"; then
			pass excluded "mirror caught up with unlogged changes ($(expected_exit_rules <"$list") exit rules)"
		else
			fail excluded "mirror never equalled the list: mirror $(last_interval "$out" exit_rules) rules, list $(expected_exit_rules <"$list")"
		fi
		check_eq excluded "$(last_interval "$out" resync | jq -r .notifications)" 0 "no change record heard"
		touch "$TMP/go"
		wait "$COUNTING"
		check_eq excluded "$(syscall_field "$out" getpid walks)" "$M" "getpid walks"
		check_eq excluded "$(syscall_field "$out" getpid skippable_walks)" 0 "no skippable getpid walk"
		check_eq excluded "$(jq -r 'select(.type == "summary") | .resync.by_reason.periodic > 0' "$out")" true \
			"periodic checks ran"
	else
		fail excluded "auditskip did not start"
	fi
	auditctl -d never,exclude -F msgtype=CONFIG_CHANGE >/dev/null
	remove_rules "$KEY-flood-a"
	remove_rules
}

# While audit is off nothing is logged, rule changes included; turning it
# on again is not logged either. The loader lists once audit is back on,
# whether a status read saw it off or only its last record said so.
test_audit_off() {
	local out=$TMP/off.json list=$TMP/off.list
	add_rules 16 openat
	if start_counting "$out"; then
		auditctl -e 0 >/dev/null
		add_rules 8 getpid "$KEY-flood-a" 4670000
		auditctl -e 1 >/dev/null
		if wait_for 15 mirror_caught_up "$out" "$list"; then
			pass audit-off "mirror caught up with changes made while audit was off ($(expected_exit_rules <"$list") exit rules)"
		else
			fail audit-off "mirror never equalled the list: mirror $(last_interval "$out" exit_rules) rules, list $(expected_exit_rules <"$list")"
		fi
		touch "$TMP/go"
		wait "$COUNTING"
		check_eq audit-off "$(syscall_field "$out" getpid skippable_walks)" 0 "no skippable getpid walk"
		check_eq audit-off "$(jq -r 'select(.type == "summary") | .resync.by_reason.periodic' "$out")" 0 \
			"no periodic listing ran"
	else
		fail audit-off "auditskip did not start"
	fi
	auditctl -e 1 >/dev/null
	remove_rules "$KEY-flood-a"
	remove_rules
}

run_tests
summary_line
