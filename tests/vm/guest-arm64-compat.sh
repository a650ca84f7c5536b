#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The arm64 guest's compat suite (tests/vm/run-arm64.sh, vmsuite=compat):
# a 32-bit ARM getpid_loop (getpid_loop_arm32, AArch32 at EL0) runs on the
# arm64 kernel. Its syscalls enter with TIF_32BIT set (is_compat_task())
# and audit gives them AUDIT_ARCH_ARM (syscall_get_arch() in
# arch/arm64/include/asm/syscall.h) and the arm table's numbers: getpid is
# 20 there, 172 natively. Each mode must count them exactly, in the compat
# slots, and the per-arch what-if mask must be built for arm too.

. /vmtest/guest-lib.sh
guest_test_args "$@"

NR_GETPID_ARM=20

# compat_getpid FLATFILE FIELD: FIELD of the syscalls[] entry for arm's
# getpid (number 20, not in the native arch).
compat_getpid() {
	_i=$(awk -F= -v n=$NR_GETPID_ARM '
		$1 ~ /^syscalls\.[0-9]+\.nr$/ && $2 == n { split($1, p, "."); nr[p[2]] = 1 }
		$1 ~ /^syscalls\.[0-9]+\.arch$/ && $2 != "aarch64" { split($1, p, "."); c[p[2]] = 1 }
		END { for (i in nr) if (i in c) { print i; exit } }' "$1")
	[ -n "$_i" ] && sed -n "s/^syscalls\.$_i\.$2=//p" "$1" | head -n 1
}

# compat_run NAME MODE: the counted 32-bit workload under MODE, summary
# flattened into $T/NAME.sum.
compat_run() {
	tool $1 --mode $2 --json -- getpid_loop_arm32 $N
	jlast "$T/$1.out" summary >"$T/$1.sum"
}

# 64 native openat rules: arm's getpid bit (20) is clear, every walk skippable.
t_compat_exact() {
	M=$1
	name=compat-$M
	rules_reset
	load_openat_rules $NRULES || { fail $name "could not load $NRULES rules"; return; }
	compat_run $name $M
	rules_reset
	f=$T/$name.sum
	w=$(compat_getpid $f walks)
	sk=$(compat_getpid $f skippable_walks)
	nv=$(compat_getpid $f needless_rule_visits)
	nm=$(compat_getpid $f name)
	ar=$(compat_getpid $f arch)
	log "$name: arch $ar nr $NR_GETPID_ARM ($nm) walks=$w skippable_walks=$sk needless_rule_visits=$nv"
	if [ $rc -ne 0 ]; then
		fail $name "exit status $rc"
		dump $name
	elif [ -z "$w" ]; then
		fail $name "no compat entry for nr $NR_GETPID_ARM in syscalls[]"
		dump $name
	elif [ "$nm" != getpid ]; then
		fail $name "compat nr $NR_GETPID_ARM is named \"$nm\""
	elif [ "$w" != $N ] || [ "$sk" != $N ] || [ "$nv" != $((N * NRULES)) ]; then
		fail $name "walks=$w skippable_walks=$sk needless_rule_visits=$nv, expected $N, $N, $((N * NRULES))"
	else
		pass $name
	fi
}

# Plus a b32 getpid rule that cannot match: the patch's mask has bit 20, so
# nothing is skippable, and neither is it for arm's own what-if mask.
t_compat_whatif() {
	M=$1
	name=compat-whatif-$M
	rules_reset
	load_openat_rules $NRULES || { fail $name "could not load $NRULES rules"; return; }
	auditctl -a always,exit -F arch=b32 -S getpid -F uid=4243 -k vmtest >/dev/null
	compat_run $name $M
	rules_reset
	f=$T/$name.sum
	w=$(compat_getpid $f walks)
	sk=$(compat_getpid $f skippable_walks)
	sa=$(compat_getpid $f skippable_arch_mask)
	log "$name: walks=$w skippable_walks=$sk skippable_arch_mask=$sa"
	if [ $rc -ne 0 ] || [ -z "$w" ]; then
		fail $name "exit status $rc, walks=$w"
		dump $name
	elif [ "$w" != $N ] || [ "$sk" != 0 ] || [ "$sa" != 0 ]; then
		fail $name "walks=$w skippable_walks=$sk skippable_arch_mask=$sa, expected $N, 0, 0"
	else
		pass $name
	fi
}

# ------------------------------------------------------------------- main ---

t_audit_enable
if ! getpid_loop_arm32 1 >/dev/null 2>&1; then
	fail compat-run "getpid_loop_arm32 does not run here (no AArch32 at EL0?)"
	exit 1
fi
for M in $MODES; do t_compat_exact $M; done
t_compat_whatif filter-op
summary_line
