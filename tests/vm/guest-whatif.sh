#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The what-if suite (vmsuite=whatif): profiles taken with no rule loaded in
# each mode that can profile (syscall-exit, tracepoint), then a rule set
# loaded and the same workloads counted in every mode this kernel loads;
# `auditskip whatif --file -` on each profile must equal, per syscall,
# what the mode that took it counts, and what the reference (filter-op,
# else filter-syscall: they hook the walk itself) counts.
#
# Result lines:
#   PASS whatif/<ruleset>/<workload>/<profile mode>/<counting mode>
#   FAIL ...: <arch> <syscall>(<nr>) walks got X want Y   (X predicted)

# shellcheck source=guest-lib.sh
. /vmtest/guest-lib.sh

# sctab FLAT: KEY NAME WALKS SKIPPABLE SKIPPABLE_ARCH_MASK SKIPPABLE_PERM_MASK
# per syscalls[] entry with walks (a summary, or a whatif object).
sctab() {
	awk -F= '
	$1 ~ /^syscalls\.[0-9]+\.[a-z_]+$/ {
		split($1, p, ".")
		v[p[2], p[3]] = substr($0, length($1) + 2)
		seen[p[2]] = 1
	}
	END {
		for (i in seen)
			if (v[i, "walks"] + 0 > 0)
				print v[i, "arch"] ":" v[i, "nr"], v[i, "name"], v[i, "walks"] + 0,
					v[i, "skippable_walks"] + 0, v[i, "skippable_arch_mask"] + 0,
					v[i, "skippable_perm_mask"] + 0
	}' "$1" | sort
}

# cmptab WANT GOT: one line per difference (a missing entry counts as zero).
cmptab() {
	awk '
	FILENAME == ARGV[1] { want[$1] = $0; keys[$1] = 1; next }
	{ got[$1] = $0; keys[$1] = 1 }
	END {
		split("walks skippable skippable_arch_mask skippable_perm_mask", f, " ")
		for (k in keys) {
			nw = split(want[k], w, " ")
			ng = split(got[k], g, " ")
			for (j = 1; j <= 4; j++)
				if ((nw ? w[j + 2] : 0) != (ng ? g[j + 2] : 0))
					print k, (nw ? w[2] : g[2]), f[j], "got", (ng ? g[j + 2] : 0), "want", (nw ? w[j + 2] : 0)
		}
	}' "$1" "$2"
}

report() {
	if [ -s "$2" ]; then
		# Not a pipeline: its loop would run in a subshell, and the
		# failures would not reach summary_line's count.
		head -n 8 "$2" >"$2.head"
		while read -r _line; do
			fail "$1" "$_line"
		done <"$2.head"
		return 1
	fi
	pass "$1"
}

REF=
for _m in $MODES; do
	case $_m in
	filter-op | filter-syscall) REF=${REF:-$_m} ;;
	esac
done
PROFILE_MODES=
for _m in $MODES; do
	case $_m in
	syscall-exit | tracepoint) PROFILE_MODES="$PROFILE_MODES $_m" ;;
	esac
done

# name|command: deterministic corpus workloads.
workloads() {
	cat <<EOF
getpid|/bin/corpus getpid 200
fork|/bin/corpus fork 10
threads|/bin/corpus threads 4 25
exec|/bin/corpus exec 5
int80|/bin/corpus int80 50
fork32|/bin/corpus32 fork 10
exitgroup-live|/bin/corpus exitgroup-live 4
EOF
}

# The workloads on fd 3: a loop fed by a pipe runs in a subshell, whose
# results would not reach summary_line's count.
profile_all() {
	workloads >"$T/workloads"
	while IFS='|' read -r _wl _cmd <&3; do
		for _pm in $PROFILE_MODES; do
			# shellcheck disable=SC2086 # the command is split into words on purpose
			tool "p.$_wl.$_pm" profile -m "$_pm" -o "$T/$_wl.$_pm.prof" -- $_cmd
			[ "$rc" = 0 ] || { fail "whatif/profile/$_wl/$_pm" "exit status $rc"; dump "p.$_wl.$_pm"; }
		done
	done 3<"$T/workloads"
}

# check_set NAME: every workload counted in every mode, against each profile's prediction.
check_set() {
	workloads >"$T/workloads"
	while IFS='|' read -r _wl _cmd <&3; do
		for _cm in $MODES; do
			# shellcheck disable=SC2086
			tool "c.$1.$_wl.$_cm" --json -m "$_cm" -- $_cmd </dev/null
			jlast "$T/c.$1.$_wl.$_cm.out" summary >"$T/c.flat"
			sctab "$T/c.flat" >"$T/c.$_cm.tab"
			[ -s "$T/c.$_cm.tab" ] || { fail "whatif/$1/$_wl/count/$_cm" "no walk counted (exit status $rc)"; dump "c.$1.$_wl.$_cm"; }
		done
		for _pm in $PROFILE_MODES; do
			tool "w.$1.$_wl.$_pm" whatif --json --file - --profile "$T/$_wl.$_pm.prof"
			jflat <"$T/w.$1.$_wl.$_pm.out" >"$T/w.flat"
			sctab "$T/w.flat" >"$T/w.tab"
			for _cm in $_pm $REF; do
				cmptab "$T/c.$_cm.tab" "$T/w.tab" >"$T/d"
				report "whatif/$1/$_wl/$_pm/$_cm" "$T/d"
			done
		done
	done 3<"$T/workloads"
}

if [ -z "$PROFILE_MODES" ]; then
	fail whatif/modes "no mode that can profile loads on $KVER (modes: $MODES)"
	exit 1
fi
auditctl -e 1 >/dev/null
rules_reset
profile_all
rules_reset
for _i in 1 2 3 4 5 6 7 8; do
	auditctl -a always,exit -F arch=b64 -S openat -F uid=$((4100000 + _i)) -k w >/dev/null
done
auditctl -a always,exit -F arch=b32 -S mkdir -F uid=4242 -k w >/dev/null
auditctl -a always,exit -F arch=b64 -S clone,wait4,exit_group -F uid=4243 -k w >/dev/null
check_set mixed
rules_reset
summary_line
