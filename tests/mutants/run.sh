#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Named mutants: deliberate bugs, each with the suite that must catch it.
#
#   tests/mutants/run.sh [--quick] [-o FILE] [-l] [-h] [NAME...]
#
#   NAME...   these mutants (default: every tests/mutants/*.patch)
#   --quick   only those marked Quick: yes
#   -l        list them with what each catches, and run nothing
#   -o FILE   keep the results in FILE (see below)
#
# Each tests/mutants/NAME.patch starts with a header, then the bug as a
# `git diff` against the tree:
#   Suite: COMMAND     run from the root of a built clone; must fail with the bug
#   Quick: yes|no      yes when COMMAND takes under two minutes (make test runs those)
#   Catches: ...       the bug, and the check that catches it
# For each mutant: a clone of HEAD, built, runs COMMAND once as it is (it
# must pass: a suite that fails anyway proves nothing) and once with the
# patch applied and rebuilt. Killed when the second run fails (a FAIL line
# or a non-zero exit); survived when it passes. A patch that no longer applies, a build
# that breaks, or a suite that fails unmutated is a failure of this run.
#
# Prints `PASS mutant-NAME: killed ...` or `FAIL mutant-NAME: ...` per
# mutant, then `N killed, N survived` and `N passed, N failed`. -o FILE
# keeps a line per mutant there, stamped with the commit it was judged at
# (`make mutants` keeps tests/mutants/results.txt): the mutants run replace
# their lines, the others stay. The clones are under
# $MUTANTS_WORK (default .output/mutants), one run at a time; the guests' kernel cache is shared
# with the tree's, the A/B's kernels are KERNEL_AB_KERNELS' (default
# /var/cache/auditskip/kernels, as in make test), except for a mutant of
# patches/: its kernels are built in a copy of that cache, which it leaves
# as it was.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DIR=$ROOT/tests/mutants
WORK=${MUTANTS_WORK:-$ROOT/.output/mutants}
export KERNEL_AB_KERNELS=${KERNEL_AB_KERNELS:-/var/cache/auditskip/kernels}
QUICK=
OUTFILE=
LIST=
NAMES=()
while [ $# -gt 0 ]; do
	case "$1" in
	--quick) QUICK=1 ;;
	-o) OUTFILE=$2 && shift ;;
	-l) LIST=1 ;;
	-h | --help)
		sed -n '3,/^set -u/{/^set -u/d;s/^# \{0,1\}//;p}' "$0"
		exit 0
		;;
	-*) echo "mutants: unknown option $1 (tests/mutants/run.sh --help)" >&2 && exit 2 ;;
	*) NAMES+=("$1") ;;
	esac
	shift
done

# header FILE KEY: the value of the header line "KEY: value".
header() {
	sed -n "/^diff --git /q; s/^$2: *//p" "$1" | head -n 1
}

if [ ${#NAMES[@]} = 0 ]; then
	for f in "$DIR"/*.patch; do
		[ -e "$f" ] || continue
		n=$(basename "$f" .patch)
		[ -z "$QUICK" ] || [ "$(header "$f" Quick)" = yes ] || continue
		NAMES+=("$n")
	done
fi
if [ ${#NAMES[@]} = 0 ]; then
	echo "FAIL mutants: no mutant in $DIR${QUICK:+ marked Quick: yes}"
	echo "0 killed, 0 survived"
	echo "0 passed, 1 failed"
	exit 1
fi
for n in "${NAMES[@]}"; do
	f=$DIR/$n.patch
	[ -f "$f" ] || { echo "mutants: no $f" >&2 && exit 2; }
	for k in Suite Quick Catches; do
		[ -n "$(header "$f" $k)" ] || { echo "mutants: $f has no '$k:' header line" >&2 && exit 2; }
	done
	[ -z "$LIST" ] || echo "$n ($(header "$f" Quick)): $(header "$f" Catches)"
done
[ -z "$LIST" ] || exit 0

[ -z "$(git -C "$ROOT" status --porcelain --untracked-files=no)" ] ||
	echo "mutants: the tree has uncommitted changes; the clones are of HEAD ($(git -C "$ROOT" rev-parse --short HEAD)) without them" >&2

mkdir -p "$WORK"
# One run at a time per work directory: another would clone over the base
# clone this one's suites are running in.
exec 8>"$WORK/.lock"
flock -n 8 || {
	echo "mutants: waiting for another run in $WORK" >&2
	flock 8
}
REPORT=$WORK/report.txt
: >"$REPORT"
killed=0
survived=0
broken=0
declare -A BASELINE # suite command -> "pass SECONDS" or "fail"

# clone DEST: a fresh clone of HEAD, built; the guests' kernel cache shared.
clone() {
	rm -rf "$1"
	git clone -q "$ROOT" "$1" || return 1
	mkdir -p "$ROOT/tests/vm/cache" && ln -s "$ROOT/tests/vm/cache" "$1/tests/vm/cache"
	make -C "$1" -j"$(nproc)" all static >"$1.build.log" 2>&1
}

# suite CLONE COMMAND LOG: runs COMMAND in CLONE; true when it passed.
# Passing needs exit status 0 and no FAIL line.
suite() {
	(cd "$1" && bash -c "$2") >"$3" 2>&1
	local status=$?
	[ $status = 0 ] && ! grep -qE '(^[[:space:]]*|VMTEST )FAIL ' "$3"
}

say() { echo "$*" | tee -a "$REPORT"; }

for n in "${NAMES[@]}"; do
	f=$DIR/$n.patch
	cmd=$(header "$f" Suite)
	echo "mutants: $n: $cmd" >&2
	base=$WORK/base
	if [ -z "${BASELINE[$cmd]:-}" ]; then
		if { [ ! -x "$base/.output/auditskip" ] ||
			[ "$(git -C "$base" rev-parse HEAD)" != "$(git -C "$ROOT" rev-parse HEAD)" ]; } &&
			! clone "$base"; then
			say "FAIL mutant-$n: the unmutated clone does not build (see $base.build.log)"
			broken=$((broken + 1))
			continue
		fi
		t0=$(date +%s)
		if suite "$base" "$cmd" "$WORK/$n.base.log"; then
			BASELINE[$cmd]="pass $(($(date +%s) - t0))"
		else
			BASELINE[$cmd]=fail
		fi
	fi
	if [ "${BASELINE[$cmd]}" = fail ]; then
		say "FAIL mutant-$n: \`$cmd\` fails without the mutant, so it proves nothing (see $WORK/$n.base.log or the first run of that suite)"
		broken=$((broken + 1))
		continue
	fi
	m=$WORK/$n
	if ! clone "$m"; then
		say "FAIL mutant-$n: the clone does not build (see $m.build.log)"
		broken=$((broken + 1))
		continue
	fi
	if ! git -C "$m" apply "$f" 2>"$m.apply.log"; then
		say "FAIL mutant-$n: the patch no longer applies: $(head -n 1 "$m.apply.log")"
		broken=$((broken + 1))
		continue
	fi
	if ! make -C "$m" -j"$(nproc)" all static >"$m.build.log" 2>&1; then
		say "FAIL mutant-$n: the mutant does not build, so no suite ever meets it (see $m.build.log)"
		broken=$((broken + 1))
		continue
	fi
	kernels=$KERNEL_AB_KERNELS
	if grep -q '^diff --git a/patches/' "$f"; then
		kernels=$m.kernels
		rm -rf "$kernels" && mkdir -p "$kernels"
		[ ! -d "$KERNEL_AB_KERNELS" ] || cp -a "$KERNEL_AB_KERNELS/." "$kernels/"
	fi
	t0=$(date +%s)
	if KERNEL_AB_KERNELS=$kernels suite "$m" "$cmd" "$m.log"; then
		say "FAIL mutant-$n: survived \`$cmd\` ($(($(date +%s) - t0)) s): $(header "$f" Catches)"
		survived=$((survived + 1))
	else
		why=$(grep -m1 -oE '(^[[:space:]]*|VMTEST )FAIL .*' "$m.log" | sed 's/^[[:space:]]*//' | cut -c1-200)
		say "PASS mutant-$n: killed by \`$cmd\` ($(($(date +%s) - t0)) s, unmutated ${BASELINE[$cmd]#pass } s): ${why:-exit status non-zero, no FAIL line (see $m.log)}"
		killed=$((killed + 1))
	fi
	rm -rf "$m" "$m.kernels"
done

say "$killed killed, $survived survived"
[ $broken = 0 ] || say "$broken could not be judged"
say "$killed passed, $((survived + broken)) failed"
if [ -n "$OUTFILE" ]; then
	# The file keeps one line per mutant: those run now replace their old
	# lines, the others keep theirs (with the commit they were judged at),
	# and mutants whose patch is gone are dropped; the totals are counted
	# again over all the lines.
	stamp="($(git -C "$ROOT" rev-parse --short HEAD), $(date -u +%Y-%m-%d), kernel $(uname -r))"
	lines=$(
		{
			grep -E '^(PASS|FAIL) mutant-' "$REPORT" | sed "s/\$/ $stamp/"
			[ ! -f "$OUTFILE" ] || grep -E '^(PASS|FAIL) mutant-' "$OUTFILE"
		} | awk -v dir="$DIR" '{
			n = $2; sub(/^mutant-/, "", n); sub(/:$/, "", n)
			if (seen[n]++ || system("test -f " dir "/" n ".patch") != 0) next
			print
		}' | sort -k2,2
	)
	{
		echo "# tests/mutants/run.sh: each named mutant, killed (PASS) or not (FAIL), with the commit it was judged at"
		echo "$lines"
		echo "$(echo "$lines" | grep -c '^PASS') killed, $(echo "$lines" | grep -c ' survived ') survived"
		echo "$(echo "$lines" | grep -c '^PASS') passed, $(echo "$lines" | grep -c '^FAIL') failed"
	} >"$OUTFILE.new" && mv "$OUTFILE.new" "$OUTFILE"
fi
[ $((survived + broken)) = 0 ]
