# shellcheck shell=sh
# SPDX-License-Identifier: GPL-2.0
# The workload corpus (tests/tools/corpus.c, its i386 build, io_uring,
# busybox tar, gzip and sh), sourced by tests/vm/guest-corpus.sh (every
# mode against the reference) and tests/kernel-ab/guest-ab.sh (the
# prediction against the patched kernel's walks): workloads_all,
# workloads_of, prepare and setup_busybox; rule_bits, the patch's mask read
# from rule text, and filework_calls, the calls of corpus filework (also
# for tests/vm/guest-reload.sh).

C=/tmp/corpus         # scratch files of the corpus runs
D=/tmp/d              # the tree the perm rule watches
BBDIR=/tmp/bbc        # a private busybox, so exe= rules match only the workloads
BB=$BBDIR/busybox
[ -n "${VMTEST_DECLARE:-}" ] || mkdir -p "$C"

# ------------------------------------------------------------- workloads ---
# One line each: NAME|COMMAND|EXPECT. EXPECT lists ARCH:NR=WALKS[/SKIPPABLE]
# for the reference mode: what the workload makes by construction. The first
# execve of each workload is the one `auditskip -- CMD` makes for it (native,
# from the loader's child).

workloads_all() {
	cat <<EOF
getpid|/bin/corpus getpid 200|x86_64:39=200
int80|/bin/corpus int80 50|i386:20=50
getpid32|/bin/corpus32 getpid 50|i386:20=50
signals|/bin/corpus signals 50|x86_64:15=50 x86_64:62=50
siginfo32|/bin/corpus32 siginfo 50|i386:173=50 i386:37=50
signals32|/bin/corpus32 signals 50|i386:119=50 i386:37=50
exec|/bin/corpus exec 5|x86_64:59=6
execveat|/bin/corpus execveat 5|x86_64:322=5 x86_64:59=1
exec32|/bin/corpus32 exec 5|i386:11=5 x86_64:59=1
execveat32|/bin/corpus32 execveat 5|i386:358=5 x86_64:59=1
xexec|/bin/corpus xexec /bin/corpus32 /bin/corpus|x86_64:59=2 i386:11=1
fork|/bin/corpus fork 10|x86_64:56=10 x86_64:57=10 x86_64:39=20 x86_64:231=21
fork32|/bin/corpus32 fork 10|i386:120=10 i386:2=10 i386:20=20 i386:252=21
rawclone32|/bin/corpus32 rawclone 10|i386:120=10 i386:20=10 i386:252=11
vfork|/bin/corpus vfork 10|x86_64:58=10 x86_64:231=11
vfork32|/bin/corpus32 vfork 10|i386:190=10 i386:252=11
clone3|/bin/corpus clone3 10|x86_64:435=10 x86_64:39=10 x86_64:231=11
threads|/bin/corpus threads 4 25|x86_64:39=100 x86_64:60=4 x86_64:231=1
threads32|/bin/corpus32 threads 4 25|i386:20=100 i386:1=4 i386:252=1
exitgroup-live|/bin/corpus exitgroup-live 4|x86_64:1=4 x86_64:231=1
seccomp|/bin/corpus seccomp 50|x86_64:110=0 x86_64:317=1
seccomp-kill|/bin/corpus seccomp-kill 4|x86_64:39=4 x86_64:317=4 x86_64:110=0
sigkill|/bin/corpus sigkill 5|x86_64:39=5 x86_64:1=5 x86_64:62=5
ptrace|/bin/corpus ptrace 20|x86_64:39=20
ptrace-skip|/bin/corpus ptrace-skip 20|x86_64:110=0
uring|/bin/uring_openat 50|
perm|/bin/corpus perm $D $D/x|x86_64:452=1 x86_64:437=1 x86_64:59=2
bb-tar|$BBDIR/tar -cf $D/t.tar -C /vmtest rules|
bb-gzip|$BBDIR/gzip -k -f $D/t.tar|
bb-sh|$BBDIR/sh $C/script.sh|
EOF
}

# The workloads a rule set runs: names, or "all".
workloads_of() {
	case $1 in
	full | records) workloads_all ;;
	*) workloads_all | grep -E "^($2)\|" ;;
	esac
}

# Files the workloads expect, made afresh before each run so every run
# starts from the same state. $D itself stays: removing it would kill the
# tree rule on it (kill_rules) and the exe= rule on $D/x (its mark is on
# the parent directory).
prepare() {
	mkdir -p "$D"
	find "$D" -mindepth 1 -maxdepth 1 ! -name x -exec rm -rf {} \;
	[ -x "$D/x" ] || cp /bin/corpus "$D/x"
	tar -cf "$D/t.tar" -C /vmtest rules
}

setup_busybox() {
	mkdir -p "$BBDIR"
	cp /bin/busybox "$BB"
	for a in sh tar gzip cat rm ls mkdir; do
		ln -sf busybox "$BBDIR/$a"
	done
	cat >"$C/script.sh" <<EOF
PATH=$BBDIR
i=0
while [ \$i -lt 20 ]; do
	i=\$((i + 1))
	echo \$i >$D/s.\$i
done
cat $D/s.* >$D/all
mkdir -p $D/sub
ls $D >$D/sub/list
rm -f $D/s.*
EOF
}

# ------------------------------------------------------------- rule text ---
# The patch's mask from rule text, read by rule-bits.awk (see there what
# counts) with libaudit's own tables and none of auditskip's code.
SYSCALL_TABLES=${VMTEST_DIR:-/vmtest}/syscalls.tab

# rule_awk PROGRAM [OPERAND...]: awk running PROGRAM with rule-bits.awk's
# load_tables() and line_bits(LINE, BITS), this machine's tables loaded;
# OPERANDs are files and var=value.
rule_awk() {
	_prog=$1
	shift
	case "$(uname -m)" in
	aarch64) _mc="-v machine=aarch64 -v compat=arm" ;;
	*) _mc="-v machine=x86_64 -v compat=i386" ;;
	esac
	# ($_mc split into words on purpose)
	awk -v tables="$SYSCALL_TABLES" $_mc "$(cat /vmtest/rule-bits.awk)
BEGIN { load_tables() }
$_prog" "$@"
}

# rule_bits: rule lines on stdin -> the mask's bits, one number a line, or
# "all"; "error ..." lines and status 1 for a name no table has.
rule_bits() {
	rule_awk '{ if (line_bits($0, b)) for (k in b) print k }
END { exit bad }'
}

# filework_calls ROUNDS: what `corpus filework` makes in ROUNDS rounds, the
# workload's own tally, as "NR CALLS" lines (this machine's numbers): one of
# each a round (the round's nanosleep is glibc's clock_nanosleep); write and
# newfstatat once more for the rounds printf(3) writes at the end, which
# lists them as "NR MAX" with "+1" after: at most one more.
filework_calls() {
	case "$(uname -m)" in
	x86_64)
		for _nr in 39 257 91 93 3 264 268 263 230; do echo "$_nr $1"; done
		echo "1 $1 +1"
		echo "262 $1 +1"
		;;
	*) return 1 ;;
	esac
}
