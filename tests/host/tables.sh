#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The kernel tables (user/audit/kernel_tables_data.h), offline: current rule
# sets (tests/data/audit-4.2.1, audit-userspace 4.2.1) name syscalls
# libaudit 3.0.9 lacks and must be read as the kernel takes them, with a
# note; --kernel picks the table; `advise --file` takes its perm= classes
# from the table and makes no bpf() call. Nothing is loaded: the commands
# run as nobody, and only the strace check runs as root (advise --file
# changes no audit state).
#
#   tests/host/tables.sh [-l] [-t NAME]...
set -u
cd "$(dirname "$0")/../.."
. tests/lib/common.sh
select_tests "reads-upstream upstream-notes perm-mod-bits unknown-name gated-fields kernel-option advise-file no-bpf perm-classes" "$@"

AUDITSKIP=${AUDITSKIP:-.output/auditskip}
DATA=tests/data/audit-4.2.1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
[ -x "$AUDITSKIP" ] || die "$AUDITSKIP missing: run make all"
command -v jq >/dev/null || die "jq missing"

# nobody CMD...: CMD as nobody when we are root (the files are then read as nobody).
nobody() {
	if [ "$(id -u)" = 0 ]; then
		setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
	else
		"$@"
	fi
}
chmod -R a+rX "$TMP"

# Every shipped set reads, exit 0, as the kernel would take it.
test_reads_upstream() {
	local f
	for f in "$DATA"/*.rules; do
		if nobody "$AUDITSKIP" rules --file "$f" --json >"$TMP/r.json" 2>"$TMP/r.err"; then
			pass "reads $(basename "$f")"
		else
			fail "reads $(basename "$f")" "exit $?: $(head -c 300 "$TMP/r.err")"
		fi
	done
}

# rules_note FILE KERNEL PATTERN: the notes of `rules --file FILE --kernel KERNEL` matching PATTERN.
rules_note() {
	nobody "$AUDITSKIP" rules --file "$1" --kernel "$2" --json 2>/dev/null |
		jq -r --arg p "$3" '.notes[] | select(test($p))'
}

test_upstream_notes() {
	local n
	n=$(rules_note "$DATA/30-stig.rules" 7.2 \
		'30-stig.rules:114: auditctl here would refuse this line \(Syscall name unknown: fchmodat2\); an auditctl that knows fchmodat2 loads it as syscall 452 of x86_64 \(Linux 7\.2\.[0-9]+.s table\)' | wc -l)
	check_eq "stig fchmodat2 note" "$n" 1
	n=$(rules_note "$DATA/30-ospp-v42.rules" 7.2 'Syscall name unknown: lsm_set_self_attr.*syscall 460 of' | wc -l)
	check_eq "ospp lsm_set_self_attr notes (b32, b64)" "$n" 2
	n=$(rules_note "$DATA/30-stig.rules" 6.1 'fchmodat2 .*Linux 6\.1\.[0-9]+ has no such syscall' | wc -l)
	check_eq "stig on 6.1: fchmodat2 never runs" "$n" 2
}

# The perm_mod rule, kept as an auditctl that knows fchmodat2 loads it, has its bit
# (printed as 452, a number auditctl 3.0.9 reads): 5 syscalls.
test_perm_mod_bits() {
	local bits
	bits=$(nobody "$AUDITSKIP" rules --file "$DATA/30-stig.rules" --keep-refused --json |
		jq '[.rules[] | select(.key == "perm_mod" and (.text | test("fchmodat2|[ ,]452([ ,]|$)")))][0].mask_bits')
	check_eq "stig perm_mod rule bits" "$bits" 5
}

test_unknown_name() {
	printf '%s\n' '-a always,exit -F arch=b64 -S nosuchcall -k x' >"$TMP/bad.rules"
	chmod a+r "$TMP/bad.rules"
	if nobody "$AUDITSKIP" rules --file "$TMP/bad.rules" >/dev/null 2>"$TMP/bad.err"; then
		fail "unknown name refused" "exit 0"
	else
		check_eq "unknown name refused" "$(grep -c 'Syscall name unknown: nosuchcall' "$TMP/bad.err")" 1
	fi
}

# exe= and sessionid= as every kernel with a table takes them, whoever runs
# it: libaudit itself refuses them unless it can read the running kernel's
# features, which needs CAP_AUDIT_CONTROL.
test_gated_fields() {
	printf '%s\n' '-a always,exit -F arch=b64 -S connect -F exe=/bin/bash -k x' \
		'-a always,exit -F arch=b64 -S openat -F sessionid=5 -k y' >"$TMP/gated.rules"
	chmod a+r "$TMP/gated.rules"
	check_eq "exe= and sessionid= read as nobody" \
		"$(nobody "$AUDITSKIP" rules --file "$TMP/gated.rules" --json 2>"$TMP/gated.err" |
			jq -r '.rules[] | .text' | grep -oE '(exe|sessionid)=[^ ]*' | tr '\n' ' ')$(cat "$TMP/gated.err")" \
		"exe=/bin/bash sessionid=5 "
}

test_kernel_option() {
	local rc
	nobody "$AUDITSKIP" rules --file "$DATA/30-stig.rules" --kernel 4.19 >/dev/null 2>"$TMP/k.err"
	rc=$?
	check_eq "--kernel 4.19 refused" "$rc $(grep -c 'no syscall table for Linux .4.19. (there are: 5.10, 6.1, 6.12, 7.2)' "$TMP/k.err")" "2 1"
}

# advise --file: classes from the table, as nobody, and the report says which.
test_advise_file() {
	local after rc
	if nobody "$AUDITSKIP" advise --file "$DATA/30-stig.rules" --kernel 6.12 --json >"$TMP/a.json" 2>"$TMP/a.err"; then
		check_eq "advise --file classes" "$(jq -r 'select(.perm_classes) | .perm_classes + " " + .kernel_table' "$TMP/a.json")" \
			"table $(sed -n 's/^\t"\(6\.12\.[0-9]*\)",$/\1/p' user/audit/kernel_tables_data.h)"
		after=$(jq 'select(.after) | .after.mask_bits' "$TMP/a.json")
		[ "$after" -lt 2032 ] && pass "advise --file narrows perm= rules" "$after bits after" ||
			fail "advise --file narrows perm= rules" "$after bits after"
	else
		fail "advise --file as nobody" "exit $?: $(head -c 300 "$TMP/a.err")"
	fi
	check_eq "advise text names the table" \
		"$(nobody "$AUDITSKIP" advise --file "$DATA/30-stig.rules" --kernel 7.2 | grep -c "^perm= rewrites: syscalls of Linux 7\.2\.[0-9]*'s permission classes (auditskip's table)$")" 1

	nobody "$AUDITSKIP" advise --file "$DATA/30-stig.rules" --classes-from-kernel >/dev/null 2>"$TMP/c.err"
	rc=$?
	check_eq "--classes-from-kernel needs root" "$rc $(grep -c 'needs root' "$TMP/c.err")" "1 1"
}

test_no_bpf() {
	if [ "$(id -u)" != 0 ] || ! command -v strace >/dev/null; then
		fail "advise --file as root: no bpf() call" "needs root and strace (.ci/install-deps)"
	else
		strace -f -qq -e trace=bpf -o "$TMP/strace" "$AUDITSKIP" advise --file "$DATA/30-stig.rules" >/dev/null 2>&1
		check_eq "advise --file as root: no bpf() call" "$(grep -c 'bpf(' "$TMP/strace")" 0
	fi
}

# The perm= classes, held to the kernel's own lists (tests/data/linux-6.12.118:
# Linux 6.12.118's class headers, syscall tables and audit_classify_syscall()
# cases), not to the table scripts/gen-kernel-tables.sh wrote from them: for
# each arch and perm letter, advise --kernel 6.12 narrows a dir= rule to the
# syscalls audit_match_perm() can pass, which must be exactly the class's
# (r: read, w: write, a: change_attr; x: none) and the open, openat, openat2
# (r, w), execve, execveat (x) and socketcall (w) cases.
KSRC=tests/data/linux-6.12.118

# kernel_syscalls TBL ABI...: "NAME NUMBER" for the table's syscalls of those abis.
kernel_syscalls() {
	local tbl=$1
	shift
	awk -v abis=" $* " '/^[0-9]/ && index(abis, " " $2 " ") { print $3, $1 }' "$tbl"
}

# class_names HEADER: the __NR_ names in an audit class header, following its #includes.
class_names() {
	local inc
	for inc in $(sed -n 's|^#include <asm-generic/\(audit_[a-z_]*\.h\)>|\1|p' "$KSRC/include/asm-generic/$1"); do
		class_names "$inc"
	done
	sed -n 's/^__NR_\([a-z0-9_]*\),.*/\1/p' "$KSRC/include/asm-generic/$1"
}

# classify_names FILE CASE...: the __NR_ names of audit_classify_syscall()'s
# case labels returning one of AUDITSC_CASE.
classify_names() {
	local f=$1
	shift
	awk -v want=" $* " '/case __NR_/ { gsub(/[:\t ]|case|__NR_/, ""); names = names " " $0; next }
		/return AUDITSC_/ { r = $2; sub(/^AUDITSC_/, "", r); sub(/;$/, "", r)
			if (index(want, " " r " ")) print names; names = "" }' "$f" | tr ' ' '\n' | grep .
}

# perm_expected ARCH PERM: the numbers audit_match_perm() can pass, sorted.
perm_expected() {
	local arch=$1 perm=$2 tbl classify names=
	case $arch in
	b64) tbl=$TMP/k64 classify=$KSRC/arch/x86/kernel/audit_64.c ;;
	b32) tbl=$TMP/k32 classify=$KSRC/arch/x86/ia32/audit.c ;;
	esac
	case $perm in
	r) names="$(class_names audit_read.h) $(classify_names "$classify" OPEN OPENAT OPENAT2)" ;;
	w) names="$(class_names audit_write.h) $(classify_names "$classify" OPEN OPENAT OPENAT2 SOCKETCALL)" ;;
	a) names=$(class_names audit_change_attr.h) ;;
	x) names=$(classify_names "$classify" EXECVE) ;;
	esac
	# A name the arch's table lacks is one its #ifdef leaves out.
	for n in $names; do awk -v n="$n" '$1 == n { print $2 }' "$tbl"; done | sort -nu
}

test_perm_classes() {
	local arch perm want got rc
	kernel_syscalls "$KSRC/arch/x86/entry/syscalls/syscall_64.tbl" common 64 >"$TMP/k64"
	kernel_syscalls "$KSRC/arch/x86/entry/syscalls/syscall_32.tbl" i386 >"$TMP/k32"
	: >"$TMP/perm.rules"
	for arch in b64 b32; do
		for perm in r w a x; do
			echo "-a always,exit -F arch=$arch -F dir=/etc -F perm=$perm -k perm-$arch-$perm" >>"$TMP/perm.rules"
		done
	done
	chmod a+r "$TMP/perm.rules"
	# advise -o writes as nobody: a directory nobody may write in.
	mkdir -m 0777 "$TMP/perm"
	nobody "$AUDITSKIP" advise --file "$TMP/perm.rules" --kernel 6.12 -o "$TMP/perm/advised" >/dev/null 2>"$TMP/perm.err"
	rc=$?
	if [ $rc -ne 0 ] || [ ! -s "$TMP/perm/advised" ]; then
		fail "perm= classes" "advise exit $rc: $(head -c 300 "$TMP/perm.err")"
		return
	fi
	cp "$TMP/perm/advised" "$TMP/perm.advised"
	for arch in b64 b32; do
		for perm in r w a x; do
			want=$(perm_expected $arch $perm | tr '\n' ' ')
			# auditctl's names (libaudit's, or a number where it has none), in the kernel's numbers.
			got=$(sed -n "s/^-a always,exit -F arch=$arch -S \([^ ]*\) .* -F key=perm-$arch-$perm\$/\1/p" "$TMP/perm.advised" |
				tr ',' '\n' | awk 'NR == FNR { nr[$1] = $2; next }
					/^[0-9]+$/ { print; next } $0 in nr { print nr[$0]; next } { print "unknown:" $0 }' \
					"$TMP/k${arch#b}" - | sort -nu | tr '\n' ' ')
			[ -n "$want" ] || fail "perm=$perm $arch classes" "nothing read from $KSRC"
			check_eq "perm=$perm $arch classes" "$got" "$want" "advise's -S for perm=$perm, in Linux 6.12.118's numbers"
		done
	done
}

run_test reads-upstream test_reads_upstream
run_test upstream-notes test_upstream_notes
run_test perm-mod-bits test_perm_mod_bits
run_test unknown-name test_unknown_name
run_test gated-fields test_gated_fields
run_test kernel-option test_kernel_option
run_test advise-file test_advise_file
run_test no-bpf test_no_bpf
run_test perm-classes test_perm_classes
summary_line
