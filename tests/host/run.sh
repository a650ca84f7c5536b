#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Host tests: tracepoint mode on the running kernel, real rules, real syscalls.
#
#   tests/host/run.sh [-l] [-t NAME]...
#
# Each test adds the rules it needs and removes them, so any of them runs
# alone (-t, repeatable, a glob; -l lists them). Audit rules and the enabled
# flag are restored on exit, also on failure. Nothing here removes a watched
# directory or a tree while its rule is loaded: that would leave
# audit_n_rules stale until reboot.
set -u
cd "$(dirname "$0")/../.."
. tests/host/lib.sh

TESTS="exact live descendants per-comm per-rule pid full-mask shadowed mirror whatif signals bad-input"
select_tests "$TESTS" "$@"
host_begin

# A workload size the tests do not know in advance.
N=$((50000 + RANDOM % 50000))
M=$((20000 + RANDOM % 20000))

precondition() {
	"$AUDITSKIP" rules --json >"$TMP/pre.json" || {
		echo "FAIL host tests: 'auditskip rules' failed"
		exit 1
	}
	if jq -e '.skipped_syscalls | index("getpid") | not' "$TMP/pre.json" >/dev/null; then
		echo "FAIL host tests: this host's own audit rules name getpid (or every syscall);"
		echo "     the exactness tests need getpid to be skippable. Rules now loaded:"
		auditctl -l
		exit 1
	fi
}

test_exact() {
	local out=$TMP/exact.json
	add_rules 64 openat
	"$AUDITSKIP" --json -- "$GETPID_LOOP" "$N" >"$out"
	check_eq exact "$(summary_field "$out" mode)" tracepoint "mode"
	check_eq exact "$(syscall_field "$out" getpid skippable_walks)" "$N" "skippable getpid walks = N"
	check_eq exact "$(syscall_field "$out" getpid walks)" "$N" "getpid walks = N"
	check_eq exact "$(syscall_field "$out" openat skippable_walks)" 0 "no skippable openat walks"
	check_eq exact "$(syscall_field "$out" getpid needless_rule_visits)" \
		"$((64 * $(syscall_field "$out" getpid skippable_walks)))" "getpid needless visits = walks x 64"
	check_eq exact "$(summary_field "$out" needless_rule_visits)" \
		"$(($(summary_field "$out" skippable_walks) * 64))" "needless_rule_visits = skippable x rules"
	check_eq exact "$(summary_field "$out" exit_rules)" 64 "exit_rules"
	check_eq exact "$(summary_field "$out" command_status)" 0 "command status"
	check_detached exact
	remove_rules
}

test_live() {
	local out=$TMP/live.json
	add_rules 64 openat
	rm -f "$TMP/ready" "$TMP/go"
	"$AUDITSKIP" --json -- \
		"$GETPID_LOOP" "$N" --pause "$TMP/ready" "$TMP/go" "$M" >"$out" &
	local pid=$!
	while [ ! -e "$TMP/ready" ]; do sleep 0.05; done
	auditctl -a always,exit -F arch=b64 -S getpid -F uid=4242 -k "$KEY" >/dev/null
	# Well inside the 1 s periodic resync: only hearing of the change
	# (its AUDIT_CONFIG_CHANGE record) makes the mirror current this soon.
	sleep 0.2
	touch "$TMP/go"
	wait "$pid"
	check_eq live "$(syscall_field "$out" getpid skippable_walks)" "$N" "only walks before the change are skippable"
	check_eq live "$(syscall_field "$out" getpid walks)" "$((N + M))" "every getpid walk counted"
	check_eq live "$(summary_field "$out" exit_rules)" 65 "mirror has the new rule"
	remove_rules
}

test_per_comm() {
	local out=$TMP/comm.json
	add_rules 64 openat
	"$AUDITSKIP" --json --per-comm=2 -- "$GETPID_LOOP" "$N" >"$out"
	check_eq per-comm "$(jq -r 'select(.type == "summary") | .comms[0].comm' "$out")" getpid_loop "top name"
	check_eq per-comm "$(jq --argjson n "$N" 'select(.type == "summary") | .comms[0].skippable_walks >= $n' "$out")" true \
		"its skippable walks include the N getpid"
	check_eq per-comm "$(jq 'select(.type == "summary") | (.comms | length) <= 2' "$out")" true "bounded to --per-comm=2"
	remove_rules
}

# --per-rule where the mode cannot see which rule matched: said to be
# bounds; with rules that cannot match (no such uid) the bounds are the
# truth: every walk visits every rule, and the openat walks evaluate the
# openat rules, the getpid walks the getpid rule.
test_per_rule() {
	local out=$TMP/rule.json page=$TMP/rule.prom
	add_rules 4 openat
	add_rules 1 getpid "$KEY" 4100000
	"$AUDITSKIP" --json --per-rule=3 --metrics-textfile "$page" -- "$GETPID_LOOP" "$N" >"$out"
	local walks openat getpid
	walks=$(summary_field "$out" walks)
	openat=$(syscall_field "$out" openat walks)
	getpid=$(syscall_field "$out" getpid walks)
	check_eq per-rule "$(jq 'select(.type == "summary") | .rule_costs.exact' "$out")" false "tracepoint mode: bounds"
	check_eq per-rule "$(jq -r 'select(.type == "summary") | .rule_costs.bound_because' "$out")" \
		"this mode does not see which rule a walk matched" "the reason"
	check_eq per-rule "$(jq -c --arg k "$KEY" 'select(.type == "summary") | [.rule_costs.rules[] | select(.key == $k) | [.visits, .evaluations, .matches]] | unique' "$out")" \
		"[[$walks,$openat,null],[$walks,$getpid,null]]" "visits = every walk, evaluations = the rule's syscall's walks, matches n/a"
	"$AUDITSKIP" --per-rule=3 -- "$GETPID_LOOP" 10 >"$TMP/rule.txt" 2>&1
	check_eq per-rule "$(awk '$NF ~ /key=/ && $5 == "n/a"' "$TMP/rule.txt" | wc -l)" 3 "text: MATCHES n/a on each rule shown"
	check_eq per-rule "$(grep -c '^auditskip_rule_visits_total{' "$page")" 3 "metrics: the dearest 3 only"
	check_eq per-rule "$(grep -c "^auditskip_rule_evaluations_total{rule=\"[0-9]*\",key=\"$KEY\"} $getpid\$" "$page")" 1 \
		"metrics: the getpid rule, the dearest, by line and key"
	check_eq per-rule "$(grep '^auditskip_rule_costs_exact ' "$page")" "auditskip_rule_costs_exact 0" "metrics: not exact"
	check_eq per-rule "$(grep -c '^auditskip_rule_matches_total' "$page")" 0 "metrics: no matches family where the mode cannot see them"
	# The designs on the same walks: the series spares the walks counted skippable.
	check_eq per-rule "$(jq -c 'select(.type == "summary") | [.designs[].design]' "$out")" \
		'["series","2023","archperm","archperm-entry","prefix"]' "designs compared"
	check_eq per-rule "$(jq 'select(.type == "summary") | .designs[0].walks' "$out")" \
		"$(summary_field "$out" skippable_walks)" "the series spares the skippable walks"
	check_eq per-rule "$(jq 'select(.type == "summary") | .designs[2].walks' "$out")" \
		"$(summary_field "$out" skippable_perm_mask)" "archperm spares the walks its masks skip"
	check_eq per-rule "$(sed -n 's/^auditskip_design_spared_walks{design="series"} //p' "$page")" \
		"$(summary_field "$out" skippable_walks)" "metrics: the same"
	remove_rules
}

test_descendants() {
	local out=$TMP/tree.json
	add_rules 64 openat
	"$AUDITSKIP" --json -- "$GETPID_LOOP" 1000 --descendants 3 >"$out"
	check_eq descendants "$(syscall_field "$out" getpid skippable_walks)" 4000 "children and grandchildren counted"
	remove_rules
}

test_pid() {
	local out=$TMP/pid.json
	add_rules 64 openat
	rm -f "$TMP/ready" "$TMP/go"
	"$GETPID_LOOP" 5000 --pause "$TMP/ready" "$TMP/go" "$M" &
	local workload=$!
	while [ ! -e "$TMP/ready" ]; do sleep 0.05; done
	"$AUDITSKIP" --json -p "$workload" >"$out" &
	local pid=$!
	while ! grep -q '"type":"start"' "$out" 2>/dev/null; do sleep 0.05; done
	touch "$TMP/go"
	wait "$workload"
	wait "$pid" # auditskip stops by itself once the process is gone
	check_eq pid "$(syscall_field "$out" getpid skippable_walks)" "$M" "only the process's walks after attach"
	remove_rules
}

test_full_mask() {
	local out=$TMP/full.json rules=$TMP/rules.json
	add_rules 64 openat
	auditctl -a always,exit -F arch=b64 -S all -F uid=4000999 -k "$KEY-full" >/dev/null
	"$AUDITSKIP" rules --json >"$rules"
	"$AUDITSKIP" --json -- "$GETPID_LOOP" 1000 >"$out"
	remove_rules "$KEY-full"
	check_eq full-mask "$(jq -r '.full_mask_rules[0].key' "$rules")" "$KEY-full" "rules names the full-mask rule"
	check_eq full-mask "$(jq -r '.full_mask_rules[0].mask_bits_without' "$rules")" 1 "aggregate without it is openat only"
	check_eq full-mask "$(syscall_field "$out" getpid skippable_walks)" 0 "nothing skippable"
	check_eq full-mask "$(jq -r 'select(.type=="summary") | .full_mask_rules[0].key' "$out")" "$KEY-full" "report names it"
	remove_rules
}

# A never rule on kill loaded before a rule on kill alone shadows it
# wholly: `rules` names it and the never rule, and a count's summary (text
# and JSON) and its metrics count it. The never rule comes after the host's
# own rules, so it silences only the test's.
test_shadowed() {
	local rules=$TMP/shadowed-rules.json out=$TMP/shadowed.json text=$TMP/shadowed.txt
	local prom=$TMP/shadowed.prom count
	auditctl -a never,exit -F arch=b64 -S kill -k "$KEY-full" >/dev/null
	auditctl -a always,exit -F arch=b64 -S kill -F uid=4000999 -k "$KEY" >/dev/null
	"$AUDITSKIP" rules --json >"$rules"
	"$AUDITSKIP" rules >"$text"
	check_eq shadowed "$(jq -c --arg k "$KEY" '[.shadowed_rules[] | select(.key == $k)
		| [.wholly, [.arches[] | select(.syscall_count > 0) | .syscalls, [.by[].text]]]]' "$rules")" \
		'[[true,[["kill"],["-a never,exit -F arch=b64 -S kill -F key='"$KEY"'-full"]]]]' \
		"rules names the rule, wholly, on kill, and the never rule"
	check_eq shadowed "$(sed -n '/^Shadowed rules: /,/^$/p' "$text" |
		grep -A3 -- "  -a always,exit -F arch=b64 -S kill -F uid=4000999 -F key=$KEY\$" |
		grep -c -- "^ *by rule [0-9]*  -a never,exit -F arch=b64 -S kill -F key=$KEY-full\$")" 1 \
		"the text names it and the never rule"
	"$AUDITSKIP" --json --metrics-textfile "$prom" -- "$GETPID_LOOP" 1000 >"$out"
	"$AUDITSKIP" -- "$GETPID_LOOP" 1000 >"$text"
	remove_rules "$KEY-full"
	remove_rules
	count=$(summary_field "$out" shadowed_rule_count)
	check_eq shadowed "$(jq -r --arg k "$KEY" 'select(.type == "summary")
		| [.shadowed_rules[] | select(.key == $k) | .wholly] | tostring' "$out")" "[true]" "the summary names it"
	check_eq shadowed "$(awk '$1 == "auditskip_shadowed_rules" { print $2 }' "$prom")" "$count" \
		"the gauge is the summary's count"
	check_eq shadowed "$(sed -n '/^Shadowed rules: /,/^$/p' "$text" | grep -c -- "wholly  rule [0-9]*  -a always,exit -F arch=b64 -S kill -F uid=4000999 -F key=$KEY\$")" 1 \
		"the text summary names it"
}

test_mirror() {
	local out=$TMP/mirror.json rules=$TMP/rules2.json
	add_rules 64 openat
	mkdir -p "$TMP/watched"
	touch "$TMP/watched/file"
	# A watch on a file is listed as an exit rule but lives on the inode
	# hash; -w on a directory would be a tree rule, which stays on the list.
	auditctl -w "$TMP/watched/file" -p wa -k "$KEY" >/dev/null
	auditctl -a always,exit -F arch=b64 -S getppid -F dir="$TMP/watched" -k "$KEY" >/dev/null
	"$AUDITSKIP" rules --json >"$rules"
	"$AUDITSKIP" --json -- true >"$out"
	check_eq mirror "$(summary_field "$out" mask_hex)" "$(auditctl -l | expected_mask_hex)" \
		"mask equals the OR of the listed exit rules' syscalls"
	check_eq mirror "$(summary_field "$out" exit_rules)" 65 "watch rule left out, tree rule kept"
	check_eq mirror "$(jq '[.rules[] | select(.inode_hash)] | length == 1' "$rules")" true "watch on the inode hash"
	auditctl -W "$TMP/watched/file" -p wa -k "$KEY" >/dev/null
	auditctl -d always,exit -F arch=b64 -S getppid -F dir="$TMP/watched" -k "$KEY" >/dev/null
	remove_rules
}

# Masks beyond the patch: one per arch, and perm= rules narrowed.
test_whatif() {
	local out=$TMP/whatif.json
	mkdir -p "$TMP/tree"
	# A tree rule with perm= gets every syscall bit; its perm can only be
	# met by the write and attr classes and opens.
	auditctl -a always,exit -F arch=b64 -F dir="$TMP/tree" -F perm=wa -k "$KEY" >/dev/null
	"$AUDITSKIP" --json -- "$GETPID_LOOP" "$N" >"$out"
	check_eq whatif "$(syscall_field "$out" getpid skippable_walks)" 0 "tree rule: patch's mask skips nothing"
	check_eq whatif "$(syscall_field "$out" getpid skippable_perm_mask)" "$N" "perm-narrowed: getpid skippable"
	check_eq whatif "$(syscall_field "$out" openat skippable_perm_mask)" 0 "perm-narrowed: openat still walks"
	check_eq whatif "$(syscall_field "$out" getpid skippable_entry_mask)" "$N" "entry masks: getpid's context dummy"
	# A watch -p wa counts at entry by its classes: getpid still spared;
	# a task rule needs every context.
	touch "$TMP/tree/f"
	auditctl -w "$TMP/tree/f" -p wa -k "$KEY" >/dev/null
	"$AUDITSKIP" --json -- "$GETPID_LOOP" "$N" >"$out"
	check_eq whatif "$(syscall_field "$out" getpid skippable_entry_mask)" "$N" "entry masks: a watch -p wa spares getpid"
	auditctl -a always,task -F uid=4242 >/dev/null
	"$AUDITSKIP" --json -- "$GETPID_LOOP" "$N" >"$out"
	auditctl -d always,task -F uid=4242 >/dev/null
	check_eq whatif "$(syscall_field "$out" getpid skippable_entry_mask)" 0 "entry masks: a task rule spares nothing"
	check_eq whatif "$(syscall_field "$out" getpid skippable_perm_mask)" "$N" "the exit form still skips getpid"
	remove_rules
	# i386's mkdir is 39, x86_64's getpid: the patch's arch-blind mask keeps
	# getpid walking, a native-arch mask would not.
	add_rules 8 openat
	auditctl -a always,exit -F arch=b32 -S mkdir -F uid=4242 -k "$KEY" >/dev/null
	"$AUDITSKIP" --json -- "$GETPID_LOOP" "$N" >"$out"
	check_eq whatif "$(syscall_field "$out" getpid skippable_walks)" 0 "b32 mkdir rule keeps getpid walking"
	check_eq whatif "$(syscall_field "$out" getpid skippable_arch_mask)" "$N" "arch masks: getpid skippable"
	check_eq whatif "$(syscall_field "$out" getpid skippable_perm_mask)" "$N" "archperm's masks are per arch too"
	remove_rules
}

# No rules needed: auditskip counts the whole machine until the signal.
test_signals() {
	local sig out status
	for sig in INT TERM HUP; do
		out=$TMP/sig-$sig.json
		"$AUDITSKIP" --json -i 1 >"$out" &
		local pid=$!
		while ! grep -q '"type":"start"' "$out" 2>/dev/null; do sleep 0.05; done
		kill -s "$sig" "$pid"
		wait "$pid"
		status=$?
		check_eq "signal $sig" "$status" 0 "exit status"
		check_eq "signal $sig" "$(jq -r 'select(.type=="summary") | .type' "$out")" summary "final report"
		check_detached "signal $sig"
	done
	out=$TMP/sig-cmd.json
	"$AUDITSKIP" --json -- sh -c 'kill -TERM $$' >"$out"
	check_eq "killed command" "$?" 143 "status passed on"
	check_eq "killed command" "$(summary_field "$out" command_status)" 143 "in the report"
	"$AUDITSKIP" --json -- sh -c 'exit 7' >"$out"
	check_eq "failing command" "$?" 7 "status passed on"
}

# expect_error WHAT PATTERN -- ARGS...: non-zero exit, one clear message, nothing attached.
expect_error() {
	local what=$1 pattern=$2 err=$TMP/err status
	shift 3
	"$@" >/dev/null 2>"$err"
	status=$?
	if [ "$status" = 0 ]; then
		fail "bad input" "$what: exit status 0"
	elif ! grep -qiE -- "$pattern" "$err"; then
		fail "bad input" "$what: message '$(head -c 300 "$err")' lacks /$pattern/"
	else
		pass "bad input" "$what (exit $status)"
	fi
	check_detached "bad input" "$what"
}

test_bad_input() {
	expect_error "unknown option" "unrecognized option|invalid option" -- "$AUDITSKIP" --bogus
	expect_error "-i 0" "invalid interval" -- "$AUDITSKIP" -i 0
	expect_error "-i -1" "invalid interval" -- "$AUDITSKIP" -i -1
	expect_error "-n abc" "invalid count" -- "$AUDITSKIP" -n abc
	expect_error "unknown mode" "unknown mode" -- "$AUDITSKIP" --mode fastest
	expect_error "--duty window not shorter" "invalid --duty" -- "$AUDITSKIP" --duty 30s/10s -d 1
	expect_error "--duty without a period" "invalid --duty" -- "$AUDITSKIP" --duty 10s -d 1
	expect_error "--duty unit" "invalid --duty" -- "$AUDITSKIP" --duty 1d/2d -d 1
	expect_error "forced mode that cannot load" "mode filter-op cannot run" -- "$AUDITSKIP" --mode filter-op -d 1
	expect_error "--timing without fentry" "--timing needs mode filter-op" -- "$AUDITSKIP" --timing -d 1
	expect_error "missing BTF" "no kernel BTF" -- "$AUDITSKIP" --btf "$TMP/missing-btf" -d 1
	expect_error "missing pid" "no process with pid" -- "$AUDITSKIP" -p 2147483646 -d 1
	expect_error "command cannot run" "cannot execute" -- "$AUDITSKIP" -- "$TMP/no-such-command"
	expect_error "missing calibration" "no calibration at" -- "$AUDITSKIP" --calibration "$TMP/none.json" -d 1
	echo '{"schema": 1, "ns_per_entry": "fast"}' >"$TMP/corrupt.json"
	expect_error "corrupt calibration" "not a valid calibration" -- "$AUDITSKIP" --calibration "$TMP/corrupt.json" -d 1
	expect_error "not root" "needs root" -- setpriv --reuid=65534 --regid=65534 --clear-groups \
		--inh-caps=-all --bounding-set=-all "$AUDITSKIP" -d 1
	auditctl -e 0 >/dev/null
	expect_error "audit disabled" "auditctl -e 1" -- "$AUDITSKIP" -d 1
	auditctl -e 1 >/dev/null
}

precondition
run_tests
summary_line
