#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Host tests of whole-machine counting that detaches its counting programs
# (tracepoint mode): with --duty, a rule change made between two windows
# whose records audit never sends (an exclude rule drops them) is in the
# mirror when the next window opens; with no rule
# loaded, or audit off, no counting program is attached (the kernel's own
# list of the process's BPF links), and they are attached again when rules
# or audit come back; without a calibration of its mode a --duty run
# measures what counting adds to a syscall at its start and corrects its
# windows with it. Rules and the enabled flag are restored on exit.
#
#   tests/host/duty.sh [-l] [-t NAME]...   (as tests/host/run.sh)
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/host/lib.sh

AUDIT_KEYS="$AUDIT_KEYS $KEY-duty"
select_tests "window-change idle price-at-start" "$@"
host_begin

N=$((20000 + RANDOM % 20000))
# No periodic listing: only the window's own listing may catch an unheard change.
NO_PERIODIC=(--test-list-period-ms 86400000)
COUNTING=

# The newest interval line (grep first: the output grows while it is read), and a field of it.
last_interval_line() {
	grep '"type":"interval"' "$1" | tail -n 1
}
last_interval() {
	last_interval_line "$1" | jq -cr "$2"
}
state_is() { # state_is OUT STATE
	[ "$(last_interval "$1" .coverage.state)" = "$2" ]
}

# The names of the programs the process PID holds BPF links to, one a line,
# as the kernel lists them (/proc/PID/fdinfo, then bpftool by program id).
linked_programs() {
	local fd id
	for fd in /proc/"$1"/fd/*; do
		[ "$(readlink "$fd" 2>/dev/null)" = anon_inode:bpf_link ] || continue
		id=$(awk '$1 == "prog_id:" { print $2 }' "/proc/$1/fdinfo/${fd##*/}" 2>/dev/null)
		[ -n "$id" ] && bpftool prog show id "$id" -j 2>/dev/null | jq -r .name
	done
	return 0
}
# Links to counting programs (the mirror's, in trampoline modes, stay).
counting_links() {
	linked_programs "$1" | grep -cE '^(count_|start_filter_|end_filter_)' || true
}
links_are() { # links_are PID N
	[ "$(counting_links "$1")" = "$2" ]
}

# mirror_is OUT LIST: the newest interval's mask and rule count are those of auditctl -l now.
mirror_is() {
	auditctl -l >"$2"
	[ "$(last_interval "$1" .mask_hex)" = "$(expected_mask_hex <"$2")" ] &&
		[ "$(last_interval "$1" .exit_rules)" = "$(expected_exit_rules <"$2")" ]
}

# next_window OUT N: an interval line of the window the Nth attach opened.
next_window() {
	[ "$(last_interval "$1" .coverage.attaches)" -ge "$2" ]
}

stop_counting() {
	kill -INT "$COUNTING" 2>/dev/null
	wait "$COUNTING"
	check_eq "$1" "$?" 0 "auditskip exited cleanly"
	BACKGROUND=${BACKGROUND/ $COUNTING/}
	check_detached "$1"
}

# An exclude rule drops every CONFIG_CHANGE record and the periodic check is
# off: between two windows getpid's bit is set, and the first interval of
# the next window must show it (the window's own listing, or one after
# audit's lost-record counter moved: other activity on the host can make
# audit drop records, and the loader lists then too).
test_window_change() {
	local out=$TMP/window.json list=$TMP/window.list attaches line
	add_rules 16 openat
	auditctl -a never,exclude -F msgtype=CONFIG_CHANGE >/dev/null || {
		fail window-change "cannot add the exclude rule"
		return
	}
	"$AUDITSKIP" -m tracepoint --json -i 0.2 --duty 2s/5s "${NO_PERIODIC[@]}" >"$out" &
	COUNTING=$!
	BACKGROUND="$BACKGROUND $COUNTING"
	if ! wait_for 15 state_is "$out" between-windows; then
		fail window-change "no interval between windows: $(last_interval_line "$out" | head -c 300)"
	else
		add_rules 8 getpid "$KEY-duty" 4680000
		auditctl -l >"$list"
		# A window that opened while the rules were added may have listed
		# before them: the one after it is the next. Lines come every 0.2 s.
		sleep 0.5
		attaches=$(last_interval "$out" .coverage.attaches)
		if wait_for 20 next_window "$out" $((attaches + 1)); then
			line=$(grep '"type":"interval"' "$out" |
				jq -c --argjson a $((attaches + 1)) 'select(.coverage.attaches == $a)' | head -n 1)
			check_eq window-change "$(jq -r .mask_hex <<<"$line")" "$(expected_mask_hex <"$list")" \
				"the next window's first interval has the mask of auditctl -l"
			check_eq window-change "$(jq -r .exit_rules <<<"$line")" "$(expected_exit_rules <"$list")" \
				"and its exit rules"
			check_eq window-change "$(jq -r '.resync.notifications' <<<"$line")" 0 "no change record heard"
			log "window-change: listings by reason then: $(jq -c .resync.by_reason <<<"$line") (lost: audit's lost counter moved, which also lists)"
		else
			fail window-change "no next window: $(last_interval_line "$out" | jq -c .coverage)"
		fi
	fi
	stop_counting window-change
	check_eq window-change "$(jq -r 'select(.type == "summary") | .coverage.duty_cycled' "$out")" true \
		"the summary says the count was duty-cycled"
	auditctl -d never,exclude -F msgtype=CONFIG_CHANGE >/dev/null
	remove_rules "$KEY-duty"
	remove_rules
}

# wait_state NAME OUT STATE LINKS: the reports say STATE and the process
# holds LINKS links to counting programs.
wait_state() {
	if wait_for 15 state_is "$2" "$3" && wait_for 5 links_are "$COUNTING" "$4"; then
		pass "$1" "state $3, $4 counting programs attached ($(linked_programs "$COUNTING" | sort | tr '\n' ' '))"
	else
		fail "$1" "want state $3 and $4 counting links: state $(last_interval "$2" .coverage.state), links: $(linked_programs "$COUNTING" | tr '\n' ' ')"
	fi
}

# No rule at all, then rules, then audit off and on: attached only while syscalls walk.
test_idle() {
	local out=$TMP/idle.json n_before
	auditctl -D >/dev/null
	"$AUDITSKIP" -m tracepoint --json -i 0.2 >"$out" &
	COUNTING=$!
	BACKGROUND="$BACKGROUND $COUNTING"
	wait_state idle "$out" no-rules 0
	add_rules 4 openat "$KEY-duty" 4690000
	wait_state idle "$out" counting 3
	n_before=$(last_interval "$out" .coverage.attaches)
	"$GETPID_LOOP" "$N" >/dev/null
	if wait_for 10 getpid_counted "$out"; then
		pass idle "$N getpid counted once rules came back"
	else
		fail idle "getpid not counted after rules came back: $(grep -c '"type":"interval"' "$out") intervals"
	fi
	auditctl -e 0 >/dev/null
	wait_state idle "$out" audit-off 0
	auditctl -e 1 >/dev/null
	wait_state idle "$out" counting 3
	check_eq idle "$(last_interval "$out" .coverage.attaches)" $((n_before + 1)) "attached again once"
	stop_counting idle
	remove_rules "$KEY-duty"
}

# Each of the programs auditskip loads is loaded once (not twice: a copy
# that measured counting's price is gone); the names loaded twice, if any.
programs_loaded_twice() {
	bpftool prog list 2>/dev/null |
		grep -oE 'name (start_filter_|end_filter_|count_|follow_fork|forget_exit|mirror_)[a-z_]*' |
		sort | uniq -d | tr '\n' ' '
}

# A calibration that prices no counting (tests/data/calibration-slope.json):
# the run measures the price at its start, under one exit rule, before its
# own programs count; with a getpid loop leaving a CPU no idle time, the
# windows' walks are corrected with that price, and the copy timed is gone.
test_price_at_start() {
	local out=$TMP/price.json prom=$TMP/price.prom loop status twice ns
	add_rules 1 openat "$KEY-duty" 4700000
	taskset -c "$(($(nproc) - 1))" "$GETPID_LOOP" 100000000000 >/dev/null &
	loop=$!
	BACKGROUND="$BACKGROUND $loop"
	"$AUDITSKIP" -m tracepoint --json -i 0.5 -d 8 --duty 1s/2s --metrics-textfile "$prom" \
		--calibration tests/data/calibration-slope.json >"$out" 2>"$TMP/price.err" &
	COUNTING=$!
	BACKGROUND="$BACKGROUND $COUNTING"
	wait_for 15 grep -q '"type":"interval"' "$out"
	twice=$(programs_loaded_twice)
	wait "$COUNTING"
	status=$?
	BACKGROUND=${BACKGROUND/ $COUNTING/}
	kill "$loop" 2>/dev/null
	wait "$loop" 2>/dev/null
	BACKGROUND=${BACKGROUND/ $loop/}
	check_eq price-at-start "$status" 0 "exit status ($(head -c 200 "$TMP/price.err"))"
	check_eq price-at-start "$twice" "" "once counting, no program loaded twice"
	check_eq price-at-start "$(jq -r 'select(.type == "summary") | .coverage.counting_price' "$out")" \
		"measured at start" "the price's source"
	check_eq price-at-start "$(jq -r 'select(.type == "summary") | .coverage |
		.counting_ns > 0 and .correction > 1 and .self_added_s > 0' "$out")" true \
		"a price, the windows corrected with it, the time it added: $(jq -c 'select(.type == "summary") |
		.coverage | {counting_ns, correction, self_added_s, windows}' "$out")"
	# The page's families with a price: promtool's lint (base units) and the same price.
	if promtool check metrics <"$prom" >"$TMP/promtool.out" 2>&1; then
		pass price-at-start "promtool check metrics on the page with a price"
	else
		fail price-at-start "promtool check metrics: $(head -c 400 "$TMP/promtool.out")"
	fi
	ns=$(jq -r 'select(.type == "summary") | .coverage.counting_ns' "$out")
	check_eq price-at-start "$(awk -v ns="$ns" '$1 == "auditskip_self_added_seconds_per_syscall{price=\"measured" {
		d = $NF * 1e9 - ns; print (d < 0 ? -d : d) < 0.001 * ns }' "$prom")" 1 \
		"the page's price in seconds, the summary's $ns ns: $(grep '^auditskip_self_added_seconds_per_syscall' "$prom")"
	check_detached price-at-start
	remove_rules "$KEY-duty"
}

# getpid's skippable walks over the interval lines so far reach N.
getpid_counted() {
	local got
	got=$(grep '"type":"interval"' "$1" |
		jq -s '[.[].syscalls[] | select(.name == "getpid") | .skippable_walks] | add // 0')
	[ "$got" -ge "$N" ]
}

run_tests
summary_line
