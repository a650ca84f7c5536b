# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# Sourced (bash) by every runner of guests (tests/vm/run.sh,
# tests/vm/run-arm64.sh, tests/kernel-ab/run.sh): one reading of a guest's
# serial console, so that every lane fails a guest for the same reasons.
#
#   console_results CONSOLE             the guest's result lines
#                                        ("VMTEST PASS|FAIL ..."), one a line
#   console_kernel_problems CONSOLE     each kernel problem the console shows,
#                                        as "WHAT: first lines of its report"
#   console_account NAME CONSOLE [PLAN] the accounting below; each problem a
#                                        "FAIL harness/NAME: ..." line,
#                                        counted in CONSOLE_FAILS
#
# CONSOLE is the console log with carriage returns removed (LOG.txt of
# vm_boot). The guest's /init prints "VMTEST DONE rc=N" after its suite,
# whose last line is "VMTEST N passed, N failed" (summary_line). A guest
# passes the accounting only when: it reached DONE; the suite's rc is 0, or
# 1 with failed tests; its summary line is there and equals the result
# lines the console shows (a result line garbled on the console is lost,
# not passed); every test of PLAN (a file, one name a line; no PLAN: no
# such check) has a result and none ran that PLAN does not declare; and the
# kernel printed no problem while the guest ran. The kernel prints warnings
# to the console as they happen (lib-qemu.sh boots with loglevel=5,
# guest-init.sh keeps the console at that level), so a warning that scrolled
# out of the ring buffer before the end is still seen.

# What the kernel prints when something went wrong (printk levels 0-4, all
# of which reach the console at loglevel 5). Each a grep -E pattern.
CONSOLE_KERNEL_PROBLEMS=(
	'WARNING: CPU: [0-9]+ PID: '
	'WARNING: at '
	'BUG:'
	'kernel BUG at'
	'Oops'
	'Kernel panic'
	'general protection fault'
	'rcu: INFO: .*detected stalls?'
	'self-detected stall'
	'INFO: task .* blocked for more than'
	'Out of memory(: Kill| \(| and no killable)'
	'invoked oom-killer'
	'soft lockup'
	'hard LOCKUP'
	'UBSAN:'
	'KASAN:'
	'KFENCE:'
	'list_add corruption'
	'list_del corruption'
	'refcount_t:'
	'stack-protector:'
)

console_strip() { sed 's/\x1b\[[0-9;?]*[a-zA-Z]//g' | cut -c1-300; }

console_results() {
	# Kernel noise in front of a marker on the same line is tolerated.
	grep -o 'VMTEST \(PASS\|FAIL\) .*' "$1" || true
}

# console_kernel_problems CONSOLE: one line per report, "PATTERN: first
# lines" (the line that matched and the four after it, joined by " | "),
# at most 10 reports. A guest's own result lines never count: a test may
# name a pattern in its reason.
console_kernel_problems() {
	local console=$1 all line n=0
	all=$(printf '%s\n' "${CONSOLE_KERNEL_PROBLEMS[@]}" | paste -sd'|')
	while IFS=: read -r line _; do
		[ $n -lt 10 ] || break
		n=$((n + 1))
		sed -n "${line},$((line + 4))p" "$console" | console_strip | paste -sd'|' | sed 's/|/ | /g'
	done < <(grep -n -E "$all" "$console" | grep -v -E '^[0-9]+:.*VMTEST (PASS|FAIL|INFO|RESULT|REC|MODE|KLOG) ')
}

# console_account NAME CONSOLE [PLAN]: see the head of this file.
console_account() {
	local name=$1 console=$2 plan=${3:-} done_line rc summary gp gf npass nfail problem t
	local seen
	CONSOLE_FAILS=0
	seen=$(mktemp)
	console_results "$console" | sed -E 's/^VMTEST (PASS|FAIL) //; s/: .*//' | sort -u >"$seen"
	npass=$(console_results "$console" | grep -c '^VMTEST PASS ' || true)
	nfail=$(console_results "$console" | grep -c '^VMTEST FAIL ' || true)
	done_line=$(grep -o 'VMTEST DONE.*' "$console" | tail -n 1 || true)
	if [ -z "$done_line" ]; then
		console_fail "$name" "no VMTEST DONE: the guest did not run to its end"
		rc=
	else
		rc=${done_line#*rc=}
		if [ "$rc" != 0 ] && ! { [ "$rc" = 1 ] && [ "$nfail" -gt 0 ]; }; then
			console_fail "$name" "the suite's shell ended with rc=$rc after $nfail failed tests"
		fi
	fi
	summary=$(grep -o 'VMTEST [0-9]* passed, [0-9]* failed' "$console" | tail -n 1 || true)
	if [ -z "$summary" ]; then
		console_fail "$name" "the suite printed no summary line${rc:+ (rc=$rc)}: it did not run to its end"
	else
		gp=$(echo "$summary" | awk '{ print $2 }')
		gf=$(echo "$summary" | awk '{ print $4 }')
		if [ "$gp" != "$npass" ] || [ "$gf" != "$nfail" ]; then
			console_fail "$name" "the guest counted $gp passed, $gf failed; the console shows $npass and $nfail"
		fi
	fi
	if [ -n "$plan" ]; then
		for t in $(sort -u "$plan" | comm -23 - "$seen"); do
			console_fail "$name" "declared test $t has no result"
		done
		for t in $(sort -u "$plan" | comm -13 - "$seen"); do
			console_fail "$name" "test $t ran but is not declared in $plan"
		done
	fi
	while IFS= read -r problem; do
		console_fail "$name" "kernel: $problem"
	done < <(console_kernel_problems "$console")
	rm -f "$seen"
}

# CONSOLE_INDENT: what goes in front of each FAIL line (run.sh indents a
# guest's lines under its heading).
console_fail() {
	echo "${CONSOLE_INDENT:-}${RESULT_PREFIX:-}FAIL harness/$1: $2"
	CONSOLE_FAILS=$((CONSOLE_FAILS + 1))
}
