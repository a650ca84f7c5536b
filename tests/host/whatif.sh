#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Profiles and what-ifs on the running kernel (tracepoint mode): a profile
# taken with no test rule loaded, then the rule set really loaded and the
# same workload counted; the prediction must equal the count per syscall
# (arch and number): walks, skippable walks under the patch's mask and the
# what-if masks, needless rule visits. Workloads that vary from run to run
# must agree within 1%.
#
#   tests/host/whatif.sh [-l] [-t NAME]...
#
# i386 tasks are left to the guests (tests/vm/guest-whatif.sh profiles
# int80 and fork32 and predicts them in every mode; the corpus counts
# getpid32 and xexec): a host may refuse them, as the project's machines
# do (their kernel gives ENOEXEC for any i386 program).
#
# Rules it adds carry the key auditskip-test (shipped rule sets are removed
# by reloading the saved list); the policy is restored on exit, also on
# failure. It never removes a watched file or a tree while its rule is
# loaded.
set -u
cd "$(dirname "$0")/../.."
. tests/host/lib.sh

CORPUS=$OUT/corpus
URING=$OUT/uring_openat
SHIPPED=/usr/share/doc/auditd/examples/rules
TESTS="profile-exact profile-pid profile-rules-free predict-loaded predict-file predict-shipped predict-whole-file predict-varying no-walks field-checks make-run bad-input"
select_tests "$TESTS" "$@"
host_begin

N=$((20000 + RANDOM % 20000))
PERMDIR=$TMP/permdir
mkdir -p "$PERMDIR" "$TMP/tree" "$TMP/watched" "$TMP/prof"
touch "$TMP/watched/file"
cp "$CORPUS" "$PERMDIR/x"

# name|command: deterministic workloads (tests/tools/corpus.c), every kind
# of native syscall path audit has: forks, threads, exec chains, signals,
# exit and exit_group, seccomp, deaths by SIGKILL and by seccomp, io_uring,
# every perm class.
workloads() {
	cat <<EOF
getpid|$GETPID_LOOP $N
fork|$CORPUS fork 10
threads|$CORPUS threads 4 25
exec|$CORPUS exec 5
execveat|$CORPUS execveat 5
signals|$CORPUS signals 50
vfork|$CORPUS vfork 10
clone3|$CORPUS clone3 10
exitgroup-live|$CORPUS exitgroup-live 4
seccomp|$CORPUS seccomp 50
seccomp-kill|$CORPUS seccomp-kill 4
sigkill|$CORPUS sigkill 5
perm|$CORPUS perm $PERMDIR $PERMDIR/x
uring|$URING 50
EOF
}

# The perm workload expects a fresh directory (x, the program it execs, stays).
prepare() {
	find "$PERMDIR" -mindepth 1 -maxdepth 1 ! -name x -exec rm -rf {} \;
}

# profile NAME COMMAND...: $TMP/prof/NAME.prof
profile() {
	local name=$1
	shift
	prepare
	"$AUDITSKIP" profile -o "$TMP/prof/$name.prof" -- "$@" >"$TMP/prof/$name.out" 2>&1
}

# measure NAME COMMAND...: $TMP/NAME.count.json, the count with the rules loaded now.
measure() {
	local name=$1
	shift
	prepare
	"$AUDITSKIP" --json -- "$@" >"$TMP/$name.count.json" 2>"$TMP/$name.count.err"
}

# Per syscall: "arch:nr walks skippable needless arch-masks perm-masks", measured
# (a summary) or predicted (whatif --json), one a line, sorted.
COUNTERS='[.walks, .skippable_walks, .needless_rule_visits, .skippable_arch_mask, .skippable_perm_mask]'
measured_rows() {
	jq -r "select(.type == \"summary\") | .syscalls[] | select(.walks > 0) |
		\"\(.arch):\(.nr) \($COUNTERS | map(tostring) | join(\" \"))\"" "$1" | sort
}
predicted_rows() {
	jq -r ".syscalls[] | select(.walks > 0) |
		\"\(.arch):\(.nr) \($COUNTERS | map(tostring) | join(\" \"))\"" "$1" | sort
}

# compare NAME COUNT_JSON WHATIF_JSON: equal per syscall, or the first differences.
compare() {
	local name=$1 diff
	if ! jq -e 'select(.type == "summary")' "$2" >/dev/null 2>&1; then
		fail "$name" "no summary from the counting run: $(head -c 300 "${2%.json}.err")"
		return
	fi
	if ! jq -e '.type == "whatif"' "$3" >/dev/null 2>&1; then
		fail "$name" "no prediction: $(head -c 300 "${3%.json}.err")"
		return
	fi
	diff=$(diff <(measured_rows "$2") <(predicted_rows "$3"))
	if [ -z "$diff" ]; then
		pass "$name" "$(measured_rows "$2" | wc -l) syscalls, $(summary_field "$2" walks) walks, $(summary_field "$2" skippable_walks) skippable: equal per syscall"
	else
		fail "$name" "measured (<) and predicted (>) differ (arch:nr walks skippable needless arch perm): $(echo "$diff" | grep '^[<>]' | head -n 6 | tr '\n' ';')"
	fi
}

# predict_all SET RULES: every workload's prediction for RULES ("-" or a
# file) against its count with the rules loaded now.
predict_all() {
	local set=$1 rules=$2 line name cmd
	while IFS='|' read -r name cmd; do
		# shellcheck disable=SC2086
		measure "$set-$name" $cmd
		"$AUDITSKIP" whatif --json --file "$rules" --profile "$TMP/prof/$name.prof" \
			>"$TMP/$set-$name.whatif.json" 2>"$TMP/$set-$name.whatif.err"
		compare "predict/$set/$name" "$TMP/$set-$name.count.json" "$TMP/$set-$name.whatif.json"
	done < <(workloads)
}

# Every workload's profile, with no test rule loaded (profiles need none).
PROFILED=0
take_profiles() {
	local name cmd
	[ "$PROFILED" = 1 ] && return
	while IFS='|' read -r name cmd; do
		# shellcheck disable=SC2086
		if ! profile "$name" $cmd; then
			fail "profile $name" "auditskip profile failed: $(head -c 300 "$TMP/prof/$name.out")"
		fi
	done < <(workloads)
	PROFILED=1
}

# Shipped rule sets carry their own keys: the saved list comes back instead.
reload_saved() {
	auditctl -D >/dev/null
	[ -s "$SAVED_RULES" ] && auditctl -R "$SAVED_RULES" >/dev/null
}

# A profile's calls of one syscall: calls PROFILE ARCH NR
calls() {
	jq -r --arg a "$2" --argjson n "$3" '[.syscalls[] | select(.arch == $a and .nr == $n) | .calls] | add // 0' "$1"
}

test_profile_exact() {
	local p=$TMP/prof/exact.prof
	"$AUDITSKIP" profile -o "$p" -- "$GETPID_LOOP" "$N" >"$TMP/exact.out" 2>&1
	check_eq profile-exact "$?" 0 "exit status"
	check_eq profile-exact "$(calls "$p" x86_64 39)" "$N" "getpid calls = N, with no test rule loaded"
	check_eq profile-exact "$(jq -r '.format, .version' "$p" | tr '\n' ' ')" "auditskip-profile 1 " "format and version"
	check_eq profile-exact "$(jq -r .kernel "$p")" "$(uname -r)" "kernel release"
	check_eq profile-exact "$(jq -r '.arches | join(",")' "$p")" "x86_64,i386" "arch names"
	check_eq profile-exact "$(jq -r .mode "$p")" tracepoint "mode"
	check_eq profile-exact "$(calls "$p" x86_64 231)" 1 "its exit_group (walked in __audit_free) is in"
	check_detached profile-exact
}

# -p: only the process's calls after the profile began; -d: a whole-machine profile ends.
test_profile_pid() {
	local p=$TMP/prof/pid.prof m=$((5000 + RANDOM % 5000)) pid workload
	rm -f "$TMP/ready" "$TMP/go"
	"$GETPID_LOOP" 1000 --pause "$TMP/ready" "$TMP/go" "$m" &
	workload=$!
	BACKGROUND="$BACKGROUND $workload"
	wait_for 10 test -e "$TMP/ready" || fail profile-pid "the workload never got ready"
	"$AUDITSKIP" profile -o "$p" -p "$workload" >"$TMP/pid.out" 2>&1 &
	pid=$!
	wait_for 10 grep -q '^auditskip: profiling' "$TMP/pid.out" || fail profile-pid "no start line"
	touch "$TMP/go"
	wait "$workload"
	wait "$pid"
	check_eq profile-pid "$?" 0 "ends by itself once the process is gone"
	check_eq profile-pid "$(calls "$p" x86_64 39)" "$m" "only the getpid calls after it began"
	"$AUDITSKIP" profile -o "$TMP/prof/machine.prof" -d 1 >/dev/null 2>&1
	check_eq profile-pid "$(jq -r .scope "$TMP/prof/machine.prof")" "whole machine" "-d 1 over the whole machine"
	check_detached profile-pid
}

# The same workload profiled with no rules and under rules: the same calls.
test_profile_rules_free() {
	local a=$TMP/prof/free-none.prof b=$TMP/prof/free-rules.prof
	"$AUDITSKIP" profile -o "$a" -- "$CORPUS" fork 10 >/dev/null
	add_rules 64 openat
	auditctl -a always,exit -F arch=b64 -S all -F uid=4000999 -k "$KEY" >/dev/null
	"$AUDITSKIP" profile -o "$b" -- "$CORPUS" fork 10 >/dev/null
	remove_rules
	check_eq profile-rules-free "$(jq -c .syscalls "$b")" "$(jq -c .syscalls "$a")" \
		"the profile under 65 rules equals the one with none"
	check_eq profile-rules-free "$(calls "$a" x86_64 231)" 21 "exit_group of parent and children"
}

test_predict_loaded() {
	take_profiles
	add_rules 64 openat
	predict_all openat64 -
	remove_rules
	# i386's mkdir is x86_64's getpid (39): the arch masks differ from the patch's.
	add_rules 8 openat
	auditctl -a always,exit -F arch=b32 -S mkdir -F uid=4242 -k "$KEY" >/dev/null
	predict_all arch -
	remove_rules
	# A tree rule with perm= (every bit; perm-narrowed to its classes), and a
	# watch, which counts in audit_n_rules but lives on the inode hash.
	auditctl -a always,exit -F arch=b64 -F dir="$TMP/tree" -F perm=wa -k "$KEY" >/dev/null
	auditctl -w "$TMP/watched/file" -p wa -k "$KEY" >/dev/null
	predict_all perm-tree -
	auditctl -W "$TMP/watched/file" -p wa -k "$KEY" >/dev/null
	remove_rules
	# Rules naming syscalls the workloads make, on both arches.
	auditctl -a always,exit -F arch=b64 -S getpid,clone,wait4,exit_group,execve -F uid=4000001 -k "$KEY" >/dev/null
	auditctl -a always,exit -F arch=b32 -S getpid,fork,exit_group -F uid=4000002 -k "$KEY" >/dev/null
	predict_all named -
	remove_rules
	# Only a watch: contexts are not dummy, the exit list is empty.
	auditctl -w "$TMP/watched/file" -p wa -k "$KEY" >/dev/null
	predict_all watch-only -
	auditctl -W "$TMP/watched/file" -p wa -k "$KEY" >/dev/null
	remove_rules
}

# The same rule sets read from files, without loading them for the prediction.
test_predict_file() {
	local f=$TMP/set.rules name
	take_profiles
	{
		for i in $(seq 1 16); do echo "-a always,exit -F arch=b64 -S openat -F uid=$((4100000 + i)) -k $KEY"; done
		echo "-a always,exit -F arch=b32 -S mkdir -F uid=4242 -k $KEY"
		echo "-a always,exit -F arch=b64 -F dir=$TMP/tree -F perm=wa -k $KEY"
		echo "-a always,exit -F arch=b64 -S getpid,clone,exit_group -F uid=4000001 -k $KEY"
		echo "-w $TMP/watched/file -p wa -k $KEY"
	} >"$f"
	auditctl -R "$f" >/dev/null
	predict_all file "$f"
	for name in getpid fork perm; do
		"$AUDITSKIP" whatif --json --file - --profile "$TMP/prof/$name.prof" >"$TMP/file-$name.loaded.json"
		check_eq "predict-file/$name" "$(jq -c 'del(.rules_file, .rules)' "$TMP/file-$name.whatif.json")" \
			"$(jq -c 'del(.rules_file, .rules)' "$TMP/file-$name.loaded.json")" "the file's prediction equals the loaded list's"
	done
	auditctl -W "$TMP/watched/file" -p wa -k "$KEY" >/dev/null
	remove_rules
}

# load_loadable SRC DST: SRC's rules loaded one line at a time, DST the lines
# this host took (a tree rule on a directory the host lacks is refused);
# control lines (-D, -b, -e, ...) are left out.
load_loadable() {
	local line one=$TMP/one.rules
	: >"$2"
	while IFS= read -r line; do
		case $line in
		'' | '#'* | -D* | -b* | -f* | -e* | -r* | --*) continue ;;
		esac
		printf '%s\n' "$line" >"$one"
		auditctl -R "$one" >/dev/null 2>&1 && printf '%s\n' "$line" >>"$2"
	done <"$1"
}

# Debian's shipped rule sets, as far as this host loads them: predicted from
# the file, counted with it loaded.
test_predict_shipped() {
	local set f name
	take_profiles
	for set in 30-stig 30-pci-dss-v31 30-ospp-v42 30-nispom; do
		if [ ! -r "$SHIPPED/$set.rules" ]; then
			fail "predict/$set" "$SHIPPED/$set.rules is missing (install auditd)"
			continue
		fi
		f=$TMP/$set.rules
		auditctl -D >/dev/null
		load_loadable "$SHIPPED/$set.rules" "$f"
		log "$set: $(wc -l <"$f") rules loaded, $(grep -cvE '^(#|$|-[Dbfer]|--)' "$SHIPPED/$set.rules") in the file"
		predict_all "$set" "$f"
		for name in getpid perm; do
			"$AUDITSKIP" whatif --json --file - --profile "$TMP/prof/$name.prof" >"$TMP/$set-$name.loaded.json"
			check_eq "predict-shipped/$set/$name" "$(jq -c 'del(.rules_file, .rules)' "$TMP/$set-$name.whatif.json")" \
				"$(jq -c 'del(.rules_file, .rules)' "$TMP/$set-$name.loaded.json")" "the file's prediction equals the loaded list's"
		done
		reload_saved
	done
}

# A whole set, with the rules this host refuses (a tree rule on a missing
# directory; a syscall name auditctl here does not know: 4.2.1's fchmodat2
# and file_setattr) left in the file: whatif --file prices it as auditctl
# -R -i would load it here, so its prediction is the loaded list's.
test_predict_whole_file() {
	local f name set
	take_profiles
	for f in "$SHIPPED/30-stig.rules" tests/data/audit-4.2.1/30-stig.rules; do
		[ -r "$f" ] || { fail "predict-whole-file" "$f is missing (install auditd)"; continue; }
		set=$(basename "$(dirname "$f")")-$(basename "$f" .rules)
		auditctl -D >/dev/null
		load_loadable "$f" "$TMP/$set.loadable"
		log "$set: $(wc -l <"$TMP/$set.loadable") rules loaded, $(grep -cvE '^(#|$|-[Dbfer]|--)' "$f") in the file"
		for name in getpid perm; do
			"$AUDITSKIP" whatif --json --profile "$TMP/prof/$name.prof" >"$TMP/$set-$name.list.json"
			"$AUDITSKIP" whatif --json --file "$f" --profile "$TMP/prof/$name.prof" \
				>"$TMP/$set-$name.whole.json" 2>"$TMP/$set-$name.whole.err"
			check_eq "predict-whole-file/$set/$name" "$(jq -c 'del(.rules_file, .rules, .notes)' "$TMP/$set-$name.whole.json")" \
				"$(jq -c 'del(.rules_file, .rules, .notes)' "$TMP/$set-$name.list.json")" \
				"the whole file's prediction equals the loaded list's ($(jq '[.notes[] | select(test("would refuse"))] | length' "$TMP/$set-$name.whole.json") refusals noted)"
		done
		reload_saved
	done
}

# A small build, whose calls vary a little from run to run (make's polls,
# gcc's brk): totals within 1%, and the per-syscall differences adding up
# to under 1% of the walks.
test_predict_varying() {
	local p=$TMP/prof/build.prof c w m build="make -s -B -j2 OUTPUT=$TMP/build" f
	for f in audit/mask audit/ruleset audit/syscalls model/prediction model/counts model/profile_parse; do
		build="$build $TMP/build/obj/$f.o"
	done
	# The workload must be the build itself, not make's complaint about it.
	if ! $build >/dev/null 2>"$TMP/build.err"; then
		fail predict-varying "the build workload fails: $(head -n 3 "$TMP/build.err")"
		return
	fi
	"$AUDITSKIP" profile -o "$p" -- sh -c "$build >/dev/null" >/dev/null
	add_rules 64 openat
	auditctl -a always,exit -F arch=b64 -S write,close,brk -F uid=4000001 -k "$KEY" >/dev/null
	auditctl -a always,exit -F arch=b32 -S getpid -F uid=4000002 -k "$KEY" >/dev/null
	"$AUDITSKIP" --json -- sh -c "$build >/dev/null" >"$TMP/varying.count.json"
	"$AUDITSKIP" whatif --json --profile "$p" >"$TMP/varying.whatif.json"
	remove_rules
	for c in walks skippable_walks needless_rule_visits skippable_arch_mask skippable_perm_mask; do
		w=$(jq -r ".$c" "$TMP/varying.whatif.json")
		m=$(summary_field "$TMP/varying.count.json" "$c")
		check_eq "predict-varying/$c" "$(awk -v m="$m" -v w="$w" 'BEGIN { d = m - w; if (d < 0) d = -d; print (m > 0 && d <= 0.01 * m) ? "within 1%" : "off" }')" \
			"within 1%" "measured $m, predicted $w"
	done
	m=$(summary_field "$TMP/varying.count.json" walks)
	w=$(diff <(measured_rows "$TMP/varying.count.json") <(predicted_rows "$TMP/varying.whatif.json") |
		awk '/^[<>]/ { v[$2] += ($1 == "<" ? -1 : 1) * $3 } END { for (s in v) t += v[s] < 0 ? -v[s] : v[s]; print t + 0 }')
	check_eq "predict-varying/per-syscall" "$(awk -v m="$m" -v d="$w" 'BEGIN { print (m > 0 && d <= 0.01 * m) ? "within 1%" : "off" }')" \
		"within 1%" "per-syscall walk differences add up to $w of $m walks"
}

# Rule sets under which nothing walks: no rule at all, or never,task.
test_no_walks() {
	local p=$TMP/prof/getpid.prof
	take_profiles
	if [ -n "$(audit_rules_now)" ]; then
		fail no-walks "the host has rules loaded of its own: $(audit_rules_now | head -n 1)"
		return
	fi
	"$AUDITSKIP" whatif --json --profile "$p" >"$TMP/none.whatif.json"
	measure none "$GETPID_LOOP" "$N"
	check_eq no-walks "$(jq -r '.walks, .walks_at_all' "$TMP/none.whatif.json" | tr '\n' ' ')" "0 false " "no rule: predicted"
	check_eq no-walks "$(summary_field "$TMP/none.count.json" walks)" 0 "no rule: measured"
	# New tasks get no audit context at all.
	# (auditctl takes no key without a field: this one is deleted by its text.)
	auditctl -a never,task >/dev/null
	auditctl -a always,exit -F arch=b64 -S openat -F uid=4000001 -k "$KEY" >/dev/null
	"$AUDITSKIP" whatif --json --profile "$p" >"$TMP/never.whatif.json"
	measure never "$GETPID_LOOP" "$N"
	auditctl -d never,task >/dev/null
	remove_rules
	check_eq no-walks "$(jq -r '.walks' "$TMP/never.whatif.json")" 0 "never,task: predicted"
	check_eq no-walks "$(summary_field "$TMP/never.count.json" walks)" 0 "never,task: measured"
}

# Each exit rule's field checks: the profiled calls whose bit its mask sets.
test_field_checks() {
	local p=$TMP/prof/getpid.prof f=$TMP/checks.rules out=$TMP/checks.json
	take_profiles
	printf '%s\n' "-a always,exit -F arch=b64 -S getpid -F uid=4000001 -k $KEY" \
		"-a always,exit -F arch=b32 -S getpid -F uid=4000002 -k $KEY" \
		"-a always,exit -S all -F uid=4000003 -k $KEY" >"$f"
	auditctl -R "$f" >/dev/null
	"$AUDITSKIP" whatif --json --profile "$p" >"$out"
	remove_rules
	# x86_64 getpid is 39, i386 getpid is 20 (x86_64's writev).
	check_eq field-checks "$(jq -r '[.rules[] | .field_checks] | join(" ")' "$out")" \
		"$(($(calls "$p" x86_64 39) + $(calls "$p" i386 39))) $(($(calls "$p" x86_64 20) + $(calls "$p" i386 20))) $(jq '[.syscalls[] | select(.nr < 2032) | .calls] | add' "$p")" \
		"b64 getpid, b32 getpid, -S all: calls with the bit set, any arch"
	check_eq field-checks "$(jq -r '.rules[1].field_checks_own_arch' "$out")" "$(calls "$p" i386 20)" \
		"b32 getpid on its own arch: the i386 getpid calls"
}

# make run: offline what-ifs without exit rules, today's count with one; no policy change.
test_make_run() {
	local before stig_exit
	if [ -n "$(audit_rules_now)" ]; then
		fail make-run "the host has rules loaded of its own: $(audit_rules_now | head -n 1)"
		return
	fi
	before=$(audit_rules_now; audit_enabled_flag)
	OUT=$OUT DURATION=1 scripts/run-main.sh >"$TMP/run.out" 2>&1
	check_eq make-run "$?" 0 "exit status without exit rules"
	check_eq make-run "$(grep -c 'OFFLINE' "$TMP/run.out")" 2 "labelled offline"
	# As this host would load it (22 exit rules, less those on directories it lacks).
	stig_exit=$("$AUDITSKIP" rules --file /usr/share/doc/auditd/examples/rules/30-stig.rules --json | jq .exit_rules)
	check_eq make-run "$(grep -cE "^  30-stig\.rules +$stig_exit +2032 +[1-9][0-9]* +0% .*full-mask rules" "$TMP/run.out")" 1 \
		"30-stig: $stig_exit exit rules as loaded here, every bit set, walks, none skippable, its full-mask rules named"
	check_eq make-run "$(grep -c 'No exit-filter walk ran' "$TMP/run.out")" 0 "no empty count"
	check_eq make-run "$(audit_rules_now; audit_enabled_flag)" "$before" "policy as it was"
	add_rules 1 openat
	OUT=$OUT DURATION=1 scripts/run-main.sh >"$TMP/run2.out" 2>&1
	check_eq make-run "$?" 0 "exit status with an exit rule"
	check_eq make-run "$(grep -c 'OFFLINE' "$TMP/run2.out")" 0 "with a rule loaded: no offline what-if"
	check_eq make-run "$(grep -c 'Counting the whole machine for 1 s' "$TMP/run2.out")" 1 "with a rule loaded: today's count"
	remove_rules
}

test_bad_input() {
	local p=$TMP/prof/getpid.prof
	take_profiles
	expect_refusal "bad input: profile without -o" "needs -o FILE" profile -- true
	expect_refusal "bad input: whatif without --profile" "needs --profile" whatif
	expect_refusal "bad input: profile in filter-op" "mode filter-op cannot run.*dummy" profile -m filter-op -o "$TMP/x.prof" -- true
	expect_refusal "bad input: -o for counting" "invalid option -- 'o'" -o "$TMP/x.prof" -- true
	expect_refusal "bad input: missing profile" "not a usable profile: No such file" whatif --profile "$TMP/none.prof"
	echo '{"format": "auditskip-profile", "version": 2}' >"$TMP/v2.prof"
	expect_refusal "bad input: newer version" "format version 2, this auditskip reads version 1" whatif --profile "$TMP/v2.prof"
	head -c 100 "$p" >"$TMP/cut.prof"
	expect_refusal "bad input: truncated profile" "not valid JSON" whatif --profile "$TMP/cut.prof"
	jq '.syscalls[0].calls = -1' "$p" >"$TMP/neg.prof"
	expect_refusal "bad input: negative calls" "\"calls\" is not a positive integer" whatif --profile "$TMP/neg.prof"
	jq '.arches = ["aarch64", "arm"] | .syscalls = []' "$p" >"$TMP/arm.prof"
	expect_refusal "bad input: other machine" "recorded on aarch64" whatif --profile "$TMP/arm.prof"
	expect_refusal "bad input: missing rules file" "$TMP/none.rules" whatif --file "$TMP/none.rules" --profile "$p"
	expect_refusal "bad input: missing calibration" "no calibration at" whatif --calibration "$TMP/none.json" --profile "$p"
	expect_refusal "bad input: --rules for counting" "unrecognized option '--rules'" --rules 4 -d 1
}

run_tests
summary_line
