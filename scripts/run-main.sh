#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# `make run`: what this machine's audit rules cost on the exit path, and
# what the aggregate-mask fast path would skip. Without exit rules there is
# nothing to count, so it predicts instead, offline, for the rule sets
# Debian's auditd ships, on a profile of a sample workload. Leaves audit as
# it was: it loads no rule, and enables audit only for the run if it was off.
set -eu
cd "$(dirname "$0")/.."
OUT=${OUT:-.output}
AUDITSKIP=$OUT/auditskip
DURATION=${DURATION:-15}
SHIPPED=${SHIPPED:-/usr/share/doc/auditd/examples/rules}

if [ "$(id -u)" != 0 ]; then
	echo "make run: run as root (auditskip loads BPF programs and reads audit rules)" >&2
	exit 1
fi
was=$(auditctl -s | awk '$1 == "enabled" { print $2 }')
sample=$(mktemp -d)
cleanup() {
	[ "$was" = 0 ] && auditctl -e 0 >/dev/null
	rm -rf "$sample"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

# Tasks forked before audit is enabled are never audited: the sample
# workload (a rebuild of auditskip) is started after that.
enable_for_run() {
	[ "$was" = 0 ] || return 0
	echo "Audit is disabled here: enabling it for this run only."
	auditctl -e 1 >/dev/null
}
rebuild="make -s -B -j2 OUTPUT=$sample/build all >/dev/null"

"$AUDITSKIP" rules
echo
exit_rules=$("$AUDITSKIP" rules --json | jq .exit_rules)

if [ "$exit_rules" != 0 ]; then
	if [ "$was" = 0 ]; then
		enable_for_run
		echo "Counting a sample workload (a rebuild of auditskip) started after that."
		"$AUDITSKIP" -i 5 -- sh -c "$rebuild"
	else
		echo "Counting the whole machine for $DURATION s (DURATION=... to change)."
		"$AUDITSKIP" -i 5 -d "$DURATION"
	fi
	exit 0
fi

# --------------------------------------------- no exit rules: offline ---
profile=$OUT/sample.prof
echo "No exit rule is loaded here, so no walk would run to count. OFFLINE instead:"
echo "what the rule sets Debian's auditd ships would cost on a sample workload,"
echo "predicted by 'auditskip whatif' without loading any of them."
echo
enable_for_run
echo "Profiling the sample workload (a rebuild of auditskip; no rule needed):"
"$AUDITSKIP" profile -o "$profile" -- sh -c "$rebuild"
echo

set -- "$SHIPPED"/*.rules
if [ ! -e "$1" ]; then
	echo "No rule sets in $SHIPPED (install auditd): nothing to predict for."
	exit 0
fi
refused=""
for f in "$@"; do
	name=$(basename "$f")
	if ! "$AUDITSKIP" whatif --json --file "$f" --profile "$profile" >"$sample/$name.json" 2>"$sample/w.err"; then
		refused="$refused
  $name: $(head -n 1 "$sample/w.err")"
		rm -f "$sample/$name.json"
	fi
done
set -- "$sample"/*.rules.json
if [ ! -e "$1" ]; then
	echo "No rule set in $SHIPPED could be read:$refused"
	exit 1
fi
calib=$(jq -r 'if .calibration.calibrated then "calibrated (\(.calibration.file))" else "UNCALIBRATED: 2.8 ns per visited entry, the series'"'"' slope; run auditskip calibrate" end' "$1")
echo "OFFLINE what-if, predicted per rule set on $profile"
echo "(time saved $calib):"
printf '  %-40s %4s %4s %8s %6s %6s %6s %8s %7s  %s\n' "RULE SET" "EXIT" "BITS" "WALKS" \
	"PATCH" "ARCH" "PERM" "SAVED ms" "NS/CALL" "WHAT KEEPS THE PATCH FROM SKIPPING"
idle=""
for f in "$@"; do
	name=$(basename "$f" .json)
	if [ "$(jq .walks_at_all "$f")" != true ]; then
		idle="$idle $name"
		continue
	fi
	jq -r --arg name "$name" '
		def pad(n): tostring | (" " * (n - length)) + .;
		def pct(n): if .walks > 0 then "\((1000 * n / .walks | floor) / 10)%" else "-" end;
		[.rules[] | select(.full_mask)] as $full |
		(if .skippable_walks == .walks then "nothing: every walk skippable"
		 elif ($full | length) > 0 then "\($full | length) full-mask rules, e.g. \($full[0].text)"
		 else "rules naming the syscalls called" end) as $why |
		"  \($name | .[0:40] | . + " " * (40 - length)) \(.exit_rules | pad(4)) \(.mask_bits | pad(4)) \(.walks | pad(8)) \(pct(.skippable_walks) | pad(6)) \(pct(.skippable_arch_mask) | pad(6)) \(pct(.skippable_perm_mask) | pad(6)) \(.saved_ns / 1e3 | floor / 1e3 | pad(8)) \(if .walks > 0 then .saved_ns / .walks * 10 | floor / 10 else 0 end | pad(7))  \($why | .[0:90])"
	' "$f"
done
echo "  (EXIT: rules on the exit list; BITS: set in their aggregate mask; PATCH, ARCH, PERM:"
echo "  share of walks the patch's mask, one mask per arch, perm-narrowed masks would skip;"
echo "  NS/CALL: time the patch would save per profiled call)"
if [ -n "$idle" ]; then
	echo "No walk at all under (no rule counts in audit_n_rules, or never,task):$idle"
fi
if [ -n "$refused" ]; then
	echo "Refused by the rules-file reader (the message auditctl would give):$refused"
fi
echo
echo "Details for one set: $AUDITSKIP whatif --file $SHIPPED/NAME.rules --profile $profile"
echo "Nothing was loaded: audit's rules are as they were."
