#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Host tests: tracepoint mode on the running kernel, real rules, real syscalls.
# Audit rules and the enabled flag are restored on exit, also on failure.
# Nothing here removes a watched directory or a tree while its rule is
# loaded: that would leave audit_n_rules stale until reboot.
set -u
cd "$(dirname "$0")/../.."
. tests/host/lib.sh

require_root_and_audit
auditctl -e 1 >/dev/null

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

test_exact_counts() {
	local out=$TMP/exact.json
	add_rules 64 openat
	"$AUDITSKIP" --json -- "$GETPID_LOOP" "$N" >"$out"
	check exact "tracepoint" "$(summary_field "$out" mode)" "mode"
	check exact "$N" "$(syscall_field "$out" getpid skippable)" "skippable getpid walks = N"
	check exact "$N" "$(syscall_field "$out" getpid scans)" "getpid walks = N"
	check exact 0 "$(syscall_field "$out" openat skippable)" "no skippable openat walks"
	check exact "$((64 * $(syscall_field "$out" getpid skippable)))" \
		"$(syscall_field "$out" getpid walked_skipped)" "getpid needless visits = walks x 64"
	check exact "$(($(summary_field "$out" skippable) * 64))" \
		"$(summary_field "$out" walked_skipped)" "walked_skipped = skippable x rules"
	check exact 64 "$(summary_field "$out" exit_rules)" "exit_rules"
	check exact 0 "$(summary_field "$out" command_status)" "command status"
	check_detached exact
}

test_rule_added_while_running() {
	local out=$TMP/live.json
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
	check live "$N" "$(syscall_field "$out" getpid skippable)" "only walks before the change are skippable"
	check live "$((N + M))" "$(syscall_field "$out" getpid scans)" "every getpid walk counted"
	check live 65 "$(summary_field "$out" exit_rules)" "mirror has the new rule"
	auditctl -d always,exit -F arch=b64 -S getpid -F uid=4242 -k "$KEY" >/dev/null
}

# Uses the 64 openat rules test_exact_counts left loaded.
test_per_comm() {
	local out=$TMP/comm.json
	"$AUDITSKIP" --json --per-comm=2 -- "$GETPID_LOOP" "$N" >"$out"
	check per-comm getpid_loop "$(jq -r 'select(.type == "summary") | .comms[0].comm' "$out")" "top name"
	check per-comm true "$(jq --argjson n "$N" 'select(.type == "summary") | .comms[0].skippable >= $n' "$out")" \
		"its skippable walks include the N getpid"
	check per-comm true "$(jq 'select(.type == "summary") | (.comms | length) <= 2' "$out")" "bounded to --per-comm=2"
}

test_descendants() {
	local out=$TMP/tree.json
	"$AUDITSKIP" --json -- "$GETPID_LOOP" 1000 --descendants 3 >"$out"
	check descendants 4000 "$(syscall_field "$out" getpid skippable)" "children and grandchildren counted"
}

test_pid_filter() {
	local out=$TMP/pid.json
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
	check pid "$M" "$(syscall_field "$out" getpid skippable)" "only the process's walks after attach"
}

test_full_mask_rule() {
	local out=$TMP/full.json rules=$TMP/rules.json
	auditctl -a always,exit -F arch=b64 -S all -F uid=4000999 -k "$KEY-full" >/dev/null
	"$AUDITSKIP" rules --json >"$rules"
	"$AUDITSKIP" --json -- "$GETPID_LOOP" 1000 >"$out"
	auditctl -D -k "$KEY-full" >/dev/null
	check full-mask "$KEY-full" "$(jq -r '.full_mask_rules[0].key' "$rules")" "rules names the full-mask rule"
	check full-mask 1 "$(jq -r '.full_mask_rules[0].mask_bits_without' "$rules")" "aggregate without it is openat only"
	check full-mask 0 "$(syscall_field "$out" getpid skippable)" "nothing skippable"
	check full-mask "$KEY-full" "$(jq -r 'select(.type=="summary") | .full_mask_rules[0].key' "$out")" "report names it"
}

test_mirror_matches_rule_list() {
	local out=$TMP/mirror.json rules=$TMP/rules2.json
	mkdir -p "$TMP/watched"
	touch "$TMP/watched/file"
	# A watch on a file is listed as an exit rule but lives on the inode
	# hash; -w on a directory would be a tree rule, which stays on the list.
	auditctl -w "$TMP/watched/file" -p wa -k "$KEY" >/dev/null
	auditctl -a always,exit -F arch=b64 -S getppid -F dir="$TMP/watched" -k "$KEY" >/dev/null
	"$AUDITSKIP" rules --json >"$rules"
	"$AUDITSKIP" --json -- true >"$out"
	check mirror "$(jq -r .mask_hex "$rules")" "$(summary_field "$out" mask_hex)" "mask equals the rule list's"
	check mirror 65 "$(summary_field "$out" exit_rules)" "watch rule left out, tree rule kept"
	check mirror true "$(jq '[.rules[] | select(.inode_hash)] | length == 1' "$rules")" "watch on the inode hash"
	auditctl -W "$TMP/watched/file" -p wa -k "$KEY" >/dev/null
	auditctl -d always,exit -F arch=b64 -S getppid -F dir="$TMP/watched" -k "$KEY" >/dev/null
}

# Masks beyond the patch: one per arch, and perm= rules narrowed.
test_whatif_masks() {
	local out=$TMP/whatif.json
	mkdir -p "$TMP/tree"
	# A tree rule with perm= gets every syscall bit; its perm can only be
	# met by the write and attr classes and opens.
	auditctl -a always,exit -F arch=b64 -F dir="$TMP/tree" -F perm=wa -k "$KEY" >/dev/null
	"$AUDITSKIP" --json -- "$GETPID_LOOP" "$N" >"$out"
	check whatif 0 "$(syscall_field "$out" getpid skippable)" "tree rule: patch's mask skips nothing"
	check whatif "$N" "$(syscall_field "$out" getpid skippable_perm_mask)" "perm-narrowed: getpid skippable"
	check whatif 0 "$(syscall_field "$out" openat skippable_perm_mask)" "perm-narrowed: openat still walks"
	auditctl -D -k "$KEY" >/dev/null
	# i386's mkdir is 39, x86_64's getpid: the patch's arch-blind mask keeps
	# getpid walking, a native-arch mask would not.
	add_rules 8 openat
	auditctl -a always,exit -F arch=b32 -S mkdir -F uid=4242 -k "$KEY" >/dev/null
	"$AUDITSKIP" --json -- "$GETPID_LOOP" "$N" >"$out"
	check whatif 0 "$(syscall_field "$out" getpid skippable)" "b32 mkdir rule keeps getpid walking"
	check whatif "$N" "$(syscall_field "$out" getpid skippable_arch_mask)" "arch masks: getpid skippable"
	check whatif 0 "$(syscall_field "$out" getpid skippable_perm_mask)" "perm masks leave it alone"
	auditctl -D -k "$KEY" >/dev/null
}

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
		check "signal $sig" 0 "$status" "exit status"
		check "signal $sig" summary "$(jq -r 'select(.type=="summary") | .type' "$out")" "final report"
		check_detached "signal $sig"
	done
	out=$TMP/sig-cmd.json
	"$AUDITSKIP" --json -- sh -c 'kill -TERM $$' >"$out"
	check "killed command" 143 "$?" "status passed on"
	check "killed command" 143 "$(summary_field "$out" command_status)" "in the report"
	"$AUDITSKIP" --json -- sh -c 'exit 7' >"$out"
	check "failing command" 7 "$?" "status passed on"
}

# expect_error NAME PATTERN -- ARGS...: non-zero exit, one clear message, nothing attached.
expect_error() {
	local name=$1 pattern=$2 err=$TMP/err status
	shift 3
	"$@" >/dev/null 2>"$err"
	status=$?
	if [ "$status" = 0 ]; then
		fail "bad input: $name" "exit status 0"
	elif ! grep -qiE -- "$pattern" "$err"; then
		fail "bad input: $name" "message '$(head -c 300 "$err")' lacks /$pattern/"
	else
		pass "bad input: $name (exit $status)"
	fi
	check_detached "bad input: $name"
}

test_bad_input() {
	expect_error "unknown option" "unrecognized option|invalid option" -- "$AUDITSKIP" --bogus
	expect_error "-i 0" "invalid interval" -- "$AUDITSKIP" -i 0
	expect_error "-i -1" "invalid interval" -- "$AUDITSKIP" -i -1
	expect_error "-n abc" "invalid count" -- "$AUDITSKIP" -n abc
	expect_error "unknown mode" "unknown mode" -- "$AUDITSKIP" --mode fastest
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
test_exact_counts
test_rule_added_while_running
test_descendants
test_per_comm
test_pid_filter
test_full_mask_rule
test_mirror_matches_rule_list
test_whatif_masks
test_signals
test_bad_input
summary_line
