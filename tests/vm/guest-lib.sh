#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Shared by the guest suites (busybox sh): the kernel's expected modes, JSON
# flattening, running auditskip with a time limit, and loading rules. Result
# lines come from tests/lib/common.sh (in the guest /vmtest/common.sh), each
# behind "VMTEST ":
#   VMTEST PASS name[: detail]
#   VMTEST FAIL name: reason
#   VMTEST N passed, N failed         (last)
# with "VMTEST INFO ..." lines of detail (log); tests/vm/run.sh on the host
# collects them from the serial console.

export PATH=/bin:/sbin:/usr/bin:/usr/sbin
set -f # rule lines are expanded unquoted on purpose; never glob them

RESULT_PREFIX="VMTEST "
LOG_PREFIX="VMTEST INFO "
# VMTEST_DECLARE=RELEASE (tests/vm/run.sh, on the host): the suite prints
# the names of the tests it runs on that kernel release (suite_tests) and
# runs nothing; VMTEST_DIR is then tests/vm and VMTEST_COMMON
# tests/lib/common.sh.
VMTEST_DIR=${VMTEST_DIR:-/vmtest}
. "${VMTEST_COMMON:-$VMTEST_DIR/common.sh}"

T=/tmp/vmtest
[ -n "${VMTEST_DECLARE:-}" ] || mkdir -p "$T"
RULES_DIR=${VMTEST_RULES_DIR:-/vmtest/rules} # (the host: auditd's examples)
N=20000            # getpid calls per exactness run
NRULES=64          # non-matching exit rules loaded for exactness runs
TOOL_TIMEOUT=120   # seconds for one auditskip run; TCG is slow
# The native syscall numbers (arm64 has the generic table).
case "$(uname -m)" in
aarch64)
	NR_GETPID=172
	NR_OPENAT=56
	;;
*)
	NR_GETPID=39
	NR_OPENAT=257
	;;
esac

# Seconds since the last result line, from the guest's clock (for finding
# slow tests; TCG makes everything slow).
LAST_T=$(cut -d' ' -f1 /proc/uptime)
on_result() {
	_now=$(cut -d' ' -f1 /proc/uptime)
	log "took $(awk -v a="$LAST_T" -v b="$_now" 'BEGIN { printf "%.1f", b - a }')s: $1"
	LAST_T=$_now
}

# The kernel command line: the guest's own, or, when declaring, the one
# the host will boot it with (VMTEST_CMDLINE).
if [ -n "${VMTEST_DECLARE:-}" ]; then
	KCMDLINE=${VMTEST_CMDLINE:-}
else
	KCMDLINE=$(cat /proc/cmdline)
fi

# The kernel's modes (kernel-modes.sh): this guest's, or, when a suite
# declares its tests on the host, those of the release asked about.
KVER=${VMTEST_DECLARE:-$(uname -r)}
. "$VMTEST_DIR/kernel-modes.sh"
kernel_modes "$KVER"

# declared: when declaring (VMTEST_DECLARE), print the suite's suite_tests
# and exit; a suite calls it once suite_tests and the lists it reads are
# defined, before anything that changes the guest.
declared() {
	[ -n "${VMTEST_DECLARE:-}" ] || return 0
	suite_tests
	exit 0
}

# ---------------------------------------------------------------- helpers ---

# jflat: JSON on stdin -> "path=value" lines (see jflat.awk). The sed puts
# every string and every structural character on a line of its own; a string
# is matched as a whole first, so commas or braces inside it stay put.
jflat() {
	sed -E 's/("([^"\\]|\\.)*"|[][{}:,])/\n\1\n/g' | awk -f /vmtest/jflat.awk
}

# jlast FILE TYPE: the last line of FILE whose "type" is TYPE, flattened.
jlast() {
	grep -E "\"type\" *: *\"$2\"" "$1" | tail -n 1 | jflat
}

# get FLATFILE KEY: a top-level (or dotted) value from a flattened object.
get() {
	sed -n "s/^$2=//p" "$1" | head -n 1
}

# The arch audit calls this machine's own (syscalls[] entries are per arch).
case "$(uname -m)" in
aarch64) NATIVE_ARCH=aarch64 ;;
*) NATIVE_ARCH=x86_64 ;;
esac

# scidx FLATFILE NR [ARCH]: index of the syscalls[] entry of NR on ARCH
# (default the native one); empty when it is not listed.
scidx() {
	awk -F= -v nr="$2" -v arch="${3:-$NATIVE_ARCH}" '
		$1 ~ /^syscalls\.[0-9]+\.nr$/ && $2 == nr { split($1, p, "."); n[p[2]] = 1 }
		$1 ~ /^syscalls\.[0-9]+\.arch$/ && $2 == arch { split($1, p, "."); a[p[2]] = 1 }
		END { for (i in n) if (i in a) { print i; exit } }' "$1"
}

# scget FLATFILE NR FIELD [ARCH]: FIELD of the syscalls[] entry of NR on
# ARCH (default native); empty when the syscall is not listed.
scget() {
	_i=$(scidx "$1" "$2" "${4:-}")
	[ -n "$_i" ] && sed -n "s/^syscalls\.$_i\.$3=//p" "$1" | head -n 1
}

# scsum FLATFILE FIELD: sum of FIELD over all syscalls[] entries.
scsum() {
	awk -F= -v f="$2" '$1 ~ "^syscalls\\.[0-9]+\\." f "$" { s += $2 } END { print s + 0 }' "$1"
}

# histsum FLATFILE FIELD: sum of FIELD (walks or ns) over every bucket of
# every syscalls[] entry's walk-time histogram (--timing).
histsum() {
	awk -F= -v f="$2" '$1 ~ "^syscalls\\.[0-9]+\\.walk_ns_log2\\.[0-9]+\\." f "$" { s += $2 }
		END { printf "%d\n", s }' "$1"
}

# popcount of a hex string, to check mask_bits against mask_hex.
hexbits() {
	echo "$1" | awk '{
		s = tolower($0); n = 0
		for (i = 1; i <= length(s); i++) {
			c = index("0123456789abcdef", substr(s, i, 1)) - 1
			while (c > 0) { n += c % 2; c = int(c / 2) }
		}
		print n
	}'
}

# report_diffs NAME DIFFS [MAX]: one FAIL line per line of the file DIFFS
# (the first MAX of them when given), or one PASS when it is empty.
report_diffs() {
	if [ -s "$2" ]; then
		# Not a pipeline: its loop would run in a subshell, and the
		# failures would not reach summary_line's count.
		head -n "${3:-1000000}" "$2" >"$2.head"
		while read -r _line; do
			fail "$1" "$_line"
		done <"$2.head"
		return 1
	fi
	pass "$1"
}

# tool NAME ARGS...: run auditskip with a time limit; output in $T/NAME.out
# and $T/NAME.err, exit status in $rc.
tool() {
	_n=$1
	shift
	timeout $TOOL_TIMEOUT auditskip "$@" >"$T/$_n.out" 2>"$T/$_n.err"
	rc=$?
}

# dump NAME: show what a failed run printed (lines cut short: mask_hex alone
# is 512 characters).
dump() {
	log "--- $1: exit status $rc, stderr:"
	tail -n 15 "$T/$1.err" 2>/dev/null | cut -c1-300 | sed "s/^/$LOG_PREFIX  /" >&2
	log "--- $1: stdout:"
	tail -n 8 "$T/$1.out" 2>/dev/null | cut -c1-600 | sed "s/^/$LOG_PREFIX  /" >&2
}

# Numbers of the loaded BPF programs and links, sorted for comm. bpftool
# loads a helper iterator program named "iter" of its own while listing;
# it is not the tool's and is left out.
progs() {
	bpftool prog list 2>/dev/null | grep -v ' name iter ' |
		sed -n 's/^\([0-9][0-9]*\): .*/\1/p' | sort
}
links() {
	bpftool link list 2>/dev/null | sed -n 's/^\([0-9][0-9]*\): .*/\1/p' | sort
}

# mode_line MODE NAME: for tests/vm/matrix-table.sh, whether run NAME (tool
# NAME --mode MODE) loaded MODE and what it cannot see, or why it did not.
mode_line() {
	if [ $rc -eq 0 ] && [ "$(jlast "$T/$2.out" start | sed -n 's/^mode=//p')" = "$1" ]; then
		echo "VMTEST MODE $1 loaded; blind_to: $(jlast "$T/$2.out" start | sed -n 's/^blind_to=//p')"
	else
		echo "VMTEST MODE $1 refused: $(grep -v '^$' "$T/$2.err" | tail -n 1 | cut -c1-240)"
	fi
}

# started FILE [SECONDS]: waits up to SECONDS (default 60) for auditskip's
# start line in FILE (its counting programs are attached by then).
started() {
	_t=0
	until grep -q '"type" *: *"start"' "$1" 2>/dev/null; do
		[ $_t -gt $((${2:-60} * 5)) ] && return 1
		sleep 0.2
		_t=$((_t + 1))
	done
}

# wait_programs_gone BEFORE WHILE: the kernel frees a closed program after
# an RCU grace period (7.2 takes longer than 6.x): wait up to 5 s for the
# programs listed in WHILE but not BEFORE to go, so a check after it is fair.
# (busybox has no comm: awk.)
wait_programs_gone() {
	_n=0
	while [ $_n -lt 50 ]; do
		progs >"$T/progs.now"
		awk -v b="$1" -v w="$2" 'FILENAME == b { old[$0] = 1; next }
			FILENAME == w { if (!($0 in old)) new[$0] = 1; next }
			($0 in new) { left = 1 } END { exit !left }' "$1" "$2" "$T/progs.now" || return 0
		sleep 0.1
		_n=$((_n + 1))
	done
}

rules_reset() {
	auditctl -D >/dev/null 2>&1
}

# openat rules that can never match (no such uid), as in the exactness runs.
# Loaded with one auditctl -R: an auditctl per rule costs ~0.1 s under TCG.
load_openat_rules() {
	_i=0
	: >"$T/openat.rules"
	while [ $_i -lt "$1" ]; do
		echo "-a always,exit -F arch=b64 -S openat -F uid=$((4000000 + _i)) -k vmtest" >>"$T/openat.rules"
		_i=$((_i + 1))
	done
	auditctl -R "$T/openat.rules" >/dev/null || return 1
	[ "$(auditctl -l | grep -c vmtest)" -eq "$1" ]
}

# load_ruleset FILE: a real rule set, line by line: only -a and -w lines (no
# -D, -b, -f, and above all no -e 2, which would lock the rules); lines the
# guest cannot take (missing paths, ...) are refused by auditctl and counted.
load_ruleset() {
	ok=0
	bad=0
	while read -r line; do
		case "$line" in
		-a* | -w*) ;;
		*) continue ;;
		esac
		if auditctl $line >/dev/null 2>&1; then ok=$((ok + 1)); else bad=$((bad + 1)); fi
	done <"$1"
	log "loaded $(basename "$1"): $ok lines, $bad refused"
}

# walks_timed FLAT: true when an `auditskip hotspots` run (its JSON,
# flattened) timed the walk of every exit that ran the filters, and some
# did; WALKS_SEEN says what it saw either way.
walks_timed() {
	_wt_f=$(get "$1" all.filtered)
	_wt_w=$(get "$1" all.walks)
	_wt_not=$(get "$1" not_timed.walk)
	if [ -n "$_wt_not" ]; then
		WALKS_SEEN="the walk is not timed on $KVER: $_wt_not"
		return 1
	fi
	WALKS_SEEN="$_wt_w walks timed, $_wt_f exits ran the filters"
	[ -n "$_wt_f" ] && [ "$_wt_f" -gt 0 ] && [ "$_wt_f" = "$_wt_w" ]
}

# tar_tree DIR: 64 small files in DIR, and TAR, a tar run that reads them
# (the hotspots and breakdown suites' workload).
tar_tree() {
	mkdir -p "$1"
	_i=0
	while [ $_i -lt 64 ]; do
		echo "file $_i" >"$1/f$_i"
		_i=$((_i + 1))
	done
	TAR="tar cf /dev/null $1"
}

# listen FILE READY: audit_records in the background, printing every
# record to FILE once READY exists; its pid in $LISTENER. The wait for READY
# makes no process: busybox runs sleep as an execve of /proc/self/exe, and
# one made after the listener connected but before READY was seen was a
# record of its own under a rule on execve, there in one run and not in
# the next. read -t on a FIFO nobody writes (fd 7, opened read-write so
# the open does not block) waits in the shell itself.
listen() {
	rm -f "$2"
	[ -p /tmp/nap.fifo ] || mkfifo /tmp/nap.fifo
	exec 7<>/tmp/nap.fifo
	audit_records "$2" - >"$1" 2>"$1.err" &
	LISTENER=$!
	_t=0
	while [ ! -e "$2" ] && [ $_t -lt 600 ]; do
		read -t 0.1 _nap <&7
		_t=$((_t + 1))
	done
}

# ------------------------------------------------------------------ tests ---

t_audit_enable() {
	rules_reset
	auditctl -e 1 >/dev/null
	if auditctl -s | grep -q '^enabled 1'; then
		pass audit-enable
	else
		fail audit-enable "auditctl -s: $(auditctl -s 2>&1 | head -n 1)"
	fi
}

# ------------------------------------------------- the witness's rule sets ---
# (tests/vm/guest-witness.sh and the kernel A/B's records boot)

# witness_keyed SET OUT: the set's -a and -w lines, each with the key wN
# (N its line in SET) in place of its own; the exclude, user and filesystem
# lists take no key (auditctl refuses one there) and make no record a key
# names.
witness_keyed() {
	awk '{
		l = $0
		sub(/^[ \t]+/, "", l)
		if (l !~ /^-[aAw] /)
			next
		gsub(/ +-k +[^ ]+/, " ", l)
		gsub(/ +-F +key=[^ ]+/, " ", l)
		sub(/[ \t\r]+$/, "", l)
		if (l ~ /^-[aA] +([a-z]+,)?(exclude|user|filesystem)(,[a-z]+)? /)
			print l
		else
			print l " -k w" NR
	}' "$1" >"$2"
}

# witness_load DIR NAME: loads DIR/NAME.keyed as far as this kernel takes
# it: the lines auditctl refuses are dropped, the rest (DIR/NAME.rules)
# loaded with one auditctl -R. Sets LOADED and DROPPED; returns non-zero
# when nothing loads or the loadable lines do not load.
witness_load() {
	_wd=$1
	shift
	rules_reset
	{
		echo -i
		cat "$_wd/$1.keyed"
	} >"$_wd/$1.try"
	auditctl -R "$_wd/$1.try" >"$_wd/$1.try.out" 2>&1
	sed -n 's/^There was an error in line \([0-9]*\) of .*/\1/p' "$_wd/$1.try.out" |
		awk '{ print $1 - 1 }' >"$_wd/$1.refused"
	awk 'FILENAME == ARGV[1] { bad[$1] = 1; next } !(FNR in bad)' "$_wd/$1.refused" \
		"$_wd/$1.keyed" >"$_wd/$1.rules"
	DROPPED=$(wc -l <"$_wd/$1.refused")
	LOADED=$(wc -l <"$_wd/$1.rules")
	# nothing refused: that was the load
	if [ "$DROPPED" -eq 0 ] && [ "$LOADED" -gt 0 ] &&
		! grep -qi error "$_wd/$1.try.out"; then
		cp "$_wd/$1.try.out" "$_wd/$1.load"
		return 0
	fi
	[ "$DROPPED" -eq 0 ] || log "witness/$1: refused here: $(awk 'FILENAME == ARGV[1] { bad[$1] = 1; next }
		FNR in bad { printf "%s; ", $0 }' "$_wd/$1.refused" "$_wd/$1.keyed" | cut -c1-900)"
	rules_reset
	[ "$LOADED" -gt 0 ] || return 1
	auditctl -R "$_wd/$1.rules" >"$_wd/$1.load" 2>&1 && ! grep -qi error "$_wd/$1.load"
}
