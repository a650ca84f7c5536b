#!/bin/bash
# Kernel A/B test: boots the unpatched and the patched kernel built by
# tests/kernel-ab/build-kernels.sh (`make kernels`) under QEMU (TCG), runs
# tests/kernel-ab/guest-ab.sh in both with the same rules and workloads, and
# compares what they measured:
#
#   predict-*   auditskip's filter-op count of skippable walks S on the
#               unpatched kernel equals the walks the patched kernel no
#               longer performs (unpatched walks - patched walks), per
#               syscall, and the patched kernel performs no skippable walk.
#   stale-*     after watch and tree rules went away with their directories
#               and `auditctl -D`, the unpatched kernel still walks the
#               exit list for a new task's syscalls (audit_n_rules stale),
#               the patched kernel does not; auditskip's own stale report
#               (summary "stale" object), when it has one, must agree.
#   safety      the same matching rules and workload give the same audit
#               records on both kernels.
#
# Each kernel boots twice: abtest=main runs everything; abtest=tree runs
# only the tree-rule staleness test on a fresh kernel (on the main boot the
# watch test has made the unpatched kernel stale already).
#
# Output: "VMTEST PASS name" / "VMTEST FAIL name: reason" lines, details as
# "VMTEST INFO" lines, and last "N passed, N failed". Exit status non-zero
# on any failure. Run by `make kernel-ab` (after `make kernels static`).
#
# Environment: KERNEL_AB_TIMEOUT (seconds per guest, default 600),
# KERNEL_AB_SMP (vCPUs per guest, default 1), KERNEL_AB_SERIAL=1 (boot one
# guest at a time; by default the two kernels boot side by side),
# VMTEST_STATIC (another directory with the static tools, as for
# tests/vm/run.sh).

set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
AB=$ROOT/tests/kernel-ab
KOUT=$ROOT/.output/kernels
WORK=$ROOT/.output/kernel-ab/run
# (TIMEOUT, MEM and SMP are read by vm_boot.)
TIMEOUT=${KERNEL_AB_TIMEOUT:-600}
# shellcheck disable=SC2034
MEM=1G
# shellcheck disable=SC2034
SMP=${KERNEL_AB_SMP:-1}
VARIANTS="unpatched patched"

log() { echo "kernel-ab: $*" >&2; }
die() { log "$*"; echo "0 passed, 1 failed"; exit 1; }

# shellcheck source=../vm/lib-initramfs.sh
. "$ROOT/tests/vm/lib-initramfs.sh"
# shellcheck source=../vm/lib-qemu.sh
. "$ROOT/tests/vm/lib-qemu.sh"

T_START=$(date +%s)
vm_host_tools
for v in $VARIANTS; do
	[ -f "$KOUT/$v/bzImage" ] || die "no $KOUT/$v/bzImage: run 'make kernels' first"
done
mkdir -p "$WORK"
echo "VMTEST INFO tools: $STATIC/auditskip (sha256 $(sha256sum <"$STATIC/auditskip" | cut -c1-12)," \
	"repository at $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$ROOT" diff --quiet HEAD -- bpf user include 2>/dev/null ||
		echo ', with uncommitted changes in bpf/ user/ include/'))"
for v in $VARIANTS; do
	echo "VMTEST INFO $v kernel: $KOUT/$v/bzImage, $(grep -o '^# Linux/x86 [^ ]*' "$KOUT/$v/config" 2>/dev/null | cut -d' ' -f3)," \
		"built in $(cat "$KOUT/$v/build-seconds" 2>/dev/null || echo '?') s"
done
vm_build_initramfs "$WORK/initramfs-root" "$WORK/initramfs.cpio.gz" "$AB/guest-ab.sh"

# ------------------------------------------------------------------ boots ---

# boot VARIANT ABTEST: one guest; console in $WORK/console-VARIANT-ABTEST.log
boot() {
	local v=$1 t=$2
	vm_boot "$KOUT/$v/bzImage" "$WORK/initramfs.cpio.gz" "$WORK/console-$v-$t.log" "abtest=$t"
	echo "$VM_STATUS $VM_SECS" >"$WORK/status-$v-$t"
}

for t in main tree; do
	log "booting both kernels, abtest=$t (timeout ${TIMEOUT}s each)"
	rm -f "$WORK"/status-*-$t
	if [ -n "${KERNEL_AB_SERIAL:-}" ]; then
		for v in $VARIANTS; do boot $v $t; done
	else
		pids=()
		for v in $VARIANTS; do
			boot $v $t &
			pids+=($!)
		done
		wait "${pids[@]}"
	fi
done
T_BOOTS=$(($(date +%s) - T_START))

# ---------------------------------------------------------------- results ---

PASS=0
FAIL=0
pass() { echo "VMTEST PASS $1"; PASS=$((PASS + 1)); }
fail() { echo "VMTEST FAIL $1: $2"; FAIL=$((FAIL + 1)); }
info() { echo "VMTEST INFO $*"; }

declare -A R # R[variant|name|key] = value, from the guests' RESULT lines

for t in main tree; do
	for v in $VARIANTS; do
		logf=$WORK/console-$v-$t.log.txt
		read -r status secs <"$WORK/status-$v-$t"
		kver=$(grep -o 'VMTEST BOOT [^ ]*' "$logf" | head -n 1 | cut -d' ' -f3 || true)
		info "$v/$t: kernel ${kver:-?}, ${secs}s, qemu status $status"
		grep -o 'VMTEST [A-Z]* .*' "$logf" >"$WORK/results-$v-$t.txt" || true
		while read -r line; do
			case "$line" in
			"VMTEST PASS "*) pass "$v/$t/${line#VMTEST PASS }" ;;
			"VMTEST FAIL "*)
				echo "VMTEST FAIL $v/$t/${line#VMTEST FAIL }"
				FAIL=$((FAIL + 1))
				;;
			"VMTEST INFO "*) info "$v/$t: ${line#VMTEST INFO }" ;;
			"VMTEST RESULT "*)
				set -f
				set -- ${line#VMTEST RESULT }
				set +f
				name=$1
				shift
				R["$v|$name|present"]=1
				for kv in "$@"; do R["$v|$name|${kv%%=*}"]=${kv#*=}; done
				;;
			esac
		done <"$WORK/results-$v-$t.txt"
		grep '^VMTEST REC ' "$WORK/results-$v-$t.txt" | sed 's/^VMTEST REC //' >"$WORK/records-$v-$t.txt" || true
		if ! grep -q '^VMTEST DONE' "$WORK/results-$v-$t.txt"; then
			fail "$v/$t/guest" "did not finish (qemu status $status after ${secs}s), console: $logf"
			tail -n 20 "$logf" | sed 's/\x1b\[[0-9;?]*[a-zA-Z]//g' | cut -c1-200 | sed 's/^/VMTEST INFO   /'
		fi
	done
done

r() { echo "${R[$1|$2|$3]:-}"; }

# per_mismatch A_PER B_PER: syscalls where unpatched walks - unpatched
# skippable != patched walks ("nr:scans:skippable" lists, comma-separated).
per_mismatch() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		na = split(a, pa, ","); nb = split(b, pb, ",")
		for (i = 1; i <= na; i++) { split(pa[i], f, ":"); if (f[1] != "") { as[f[1]] = f[2]; ak[f[1]] = f[3]; seen[f[1]] = 1 } }
		for (i = 1; i <= nb; i++) { split(pb[i], f, ":"); if (f[1] != "") { bs[f[1]] = f[2]; seen[f[1]] = 1 } }
		for (nr in seen) {
			want = as[nr] - ak[nr]
			if (want != bs[nr] + 0)
				printf "nr %s: unpatched %d walks - %d skippable = %d, patched %d walks\n", nr, as[nr], ak[nr], want, bs[nr]
		}
	}' | sort -n -k2
}

# ---------------------------------------------------------- predictions ---
for set in openat64 getpid fullmask stig getpid-mixed churn; do
	name=predict-$set
	if [ -z "$(r unpatched $name present)" ] || [ -z "$(r patched $name present)" ]; then
		fail $name "no result from $([ -z "$(r unpatched $name present)" ] && echo unpatched) $([ -z "$(r patched $name present)" ] && echo patched)"
		continue
	fi
	a_sc=$(r unpatched $name scans)
	a_sk=$(r unpatched $name skippable)
	b_sc=$(r patched $name scans)
	b_sk=$(r patched $name skippable)
	saved=$((a_sc - b_sc))
	info "$name: unpatched walks=$a_sc skippable S=$a_sk (exit_rules=$(r unpatched $name exit_rules) mask_bits=$(r unpatched $name mask_bits));" \
		"patched walks=$b_sc skippable=$b_sk; walks saved=$saved"
	info "$name: getpid walks unpatched=$(r unpatched $name getpid_scans) (skippable $(r unpatched $name getpid_skippable)), patched=$(r patched $name getpid_scans)"
	mism=$(per_mismatch "$(r unpatched $name per)" "$(r patched $name per)")
	if [ "$(r unpatched $name rc)" != 0 ] || [ "$(r patched $name rc)" != 0 ]; then
		fail $name "auditskip exit status unpatched $(r unpatched $name rc), patched $(r patched $name rc)"
	elif [ "$(r unpatched $name mode)" != filter-op ] || [ "$(r patched $name mode)" != filter-op ]; then
		fail $name "mode unpatched $(r unpatched $name mode), patched $(r patched $name mode)"
	elif [ "$saved" != "$a_sk" ]; then
		fail $name "predicted S=$a_sk skipped walks, the patched kernel saved $saved"
		echo "$mism" | head -n 10 | sed 's/^/VMTEST INFO   /'
	elif [ "$b_sk" != 0 ]; then
		fail $name "the patched kernel still performed $b_sk walks auditskip calls skippable"
	elif [ -n "$mism" ]; then
		fail $name "totals agree but not per syscall: $(echo "$mism" | head -n 1)"
		echo "$mism" | head -n 10 | sed 's/^/VMTEST INFO   /'
	else
		pass $name
	fi
done

# filter-op on the patched kernel still sees the walks it does perform.
gs=$(r patched predict-getpid getpid_scans)
if [ -n "$gs" ] && [ "$gs" = "$(r unpatched predict-getpid getpid_scans)" ] && [ "$gs" -gt 0 ]; then
	pass predict-getpid-walks-seen
else
	fail predict-getpid-walks-seen "getpid walks with a getpid rule: unpatched $(r unpatched predict-getpid getpid_scans), patched ${gs:-none}"
fi

# -------------------------------------------------------------- staleness ---
# stale_check NAME EXPECT: EXPECT is "none" (no walks on either kernel) or
# "unpatched" (the unpatched kernel walks every getpid, the patched none).
STALE_N=$(grep -ho 'VMTEST INFO config N=[0-9]*' "$WORK"/results-*-main.txt | head -n 1 | sed 's/.*N=//')
stale_check() {
	local name=$1 expect=$2 m a b ag bg as bs want_a
	for m in "" -fop; do
		a=$(r unpatched $name$m scans)
		b=$(r patched $name$m scans)
		ag=$(r unpatched $name$m getpid_scans)
		bg=$(r patched $name$m getpid_scans)
		as=$(r unpatched $name$m stale)
		bs=$(r patched $name$m stale)
		info "$name$m ($(r unpatched $name$m mode)): walks with no rules loaded: unpatched ${a:-?} (getpid ${ag:-0}), patched ${b:-?} (getpid ${bg:-0});" \
			"stale by walks: unpatched $([ "${a:-0}" -gt 0 ] && echo yes || echo no), patched $([ "${b:-0}" -gt 0 ] && echo yes || echo no);" \
			"auditskip's stale report: unpatched ${as:-none} (audit_n_rules=$(r unpatched $name$m n_rules), counted $(r unpatched $name$m counted_rules))," \
			"patched ${bs:-none} (audit_n_rules=$(r patched $name$m n_rules), counted $(r patched $name$m counted_rules))"
		if [ "$expect" = none ]; then want_a=no; else want_a=yes; fi
		if [ -z "$a" ] || [ -z "$b" ]; then
			fail $name$m "no result from $([ -z "$a" ] && echo unpatched) $([ -z "$b" ] && echo patched)"
		elif [ "$b" != 0 ]; then
			fail $name$m "the patched kernel walked $b times with no rules loaded"
		elif [ "$expect" = none ] && [ "$a" != 0 ]; then
			fail $name$m "the unpatched kernel walked $a times with no rules loaded"
		elif [ "$expect" = unpatched ] && [ "${ag:-0}" != "$STALE_N" ]; then
			fail $name$m "expected the stale unpatched kernel to walk all $STALE_N getpid, it walked ${ag:-0}"
		elif [ -n "$as$bs" ] && { [ "$as" != "$want_a" ] || [ "$bs" != no ]; }; then
			# (only when this auditskip has the report at all)
			fail $name$m "auditskip's stale report: unpatched \"$as\" (expected $want_a), patched \"$bs\" (expected no)"
		else
			pass $name$m
		fi
	done
}
stale_check stale-baseline none
stale_check stale-after-deletes none
stale_check stale-exe none
stale_check stale-watch unpatched
stale_check stale-watch-tree unpatched
stale_check stale-baseline-tree none
stale_check stale-tree unpatched

# ----------------------------------------------------------------- safety ---
a=$WORK/records-unpatched-main.txt
b=$WORK/records-patched-main.txt
if [ ! -s "$a" ] || [ ! -s "$b" ]; then
	fail safety-same-records "no records from $([ -s "$a" ] || echo unpatched) $([ -s "$b" ] || echo patched)"
elif ! cmp -s "$a" "$b"; then
	fail safety-same-records "the kernels' audit records differ (count type fields; < unpatched, > patched)"
	diff "$a" "$b" | grep '^[<>]' | head -n 20 | sed 's/^/VMTEST INFO   /'
else
	pass safety-same-records
	info "safety: $(awk '{ s += $1 } END { print s + 0 }' "$a") records, the same on both kernels:"
	sed 's/^/VMTEST INFO   /' "$a"
fi

T_END=$(date +%s)
info "guests $T_BOOTS s, whole run $((T_END - T_START)) s"
echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
