#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Kernel A/B tests, run inside a QEMU guest (busybox sh) on the unpatched and
# on the patched kernel alike, with the same rules and workloads. Started by
# the guest's /init (tests/vm/guest-init.sh) as its test script.
#
# The guest does not know what the other kernel measured, so it mostly
# reports: one "VMTEST RESULT name key=value ..." line per measurement, which
# tests/kernel-ab/run.sh compares across the two kernels. Checks that need
# only this kernel print "VMTEST PASS name" / "VMTEST FAIL name: reason".
#
# Which tests run comes from the kernel command line: abtest=main (default)
# or abtest=tree (only the tree-rule staleness test, on a fresh kernel).

# JSON flattening (jflat, jlast, get, scget), tool, dump, rules_reset,
# load_openat_rules and load_ruleset come from the tests/vm guest library,
# result lines (pass, fail, log, summary_line) from tests/lib/common.sh.
. /vmtest/guest-lib.sh

T=/tmp/ab
mkdir -p "$T"
N=20000          # getpid calls per prediction and staleness run
NRULES=64        # non-matching openat rules
TOOL_TIMEOUT=180 # seconds for one auditskip run under TCG

ABTEST=main
for w in $(cat /proc/cmdline); do
	case "$w" in abtest=*) ABTEST=${w#abtest=} ;; esac
done

# The patched kernel has the aggregate mask (patches/0002).
if grep -q ' audit_exit_syscalls$' /proc/kallsyms; then
	VARIANT=patched
else
	VARIANT=unpatched
fi

# ---------------------------------------------------------------- helpers ---

# per_syscall FLAT: "nr:scans:skippable" for every syscalls[] entry, sorted
# by nr, comma-separated.
per_syscall() {
	awk -F= '
		/^syscalls\.[0-9]+\.(nr|scans|skippable)=/ {
			split($1, p, "."); v[p[2], p[3]] = $2; if (p[2] + 1 > n) n = p[2] + 1
		}
		END { for (i = 0; i < n; i++) print v[i, "nr"] ":" v[i, "scans"] ":" v[i, "skippable"] }' "$1" |
		sort -n -t: -k1,1 | tr '\n' ',' | sed 's/,$//'
}

# measure NAME MODE WORKLOAD...: one auditskip run over WORKLOAD, reported
# as a RESULT line.
measure() {
	name=$1
	mode=$2
	shift 2
	tool $name --mode $mode --json -- "$@"
	f=$T/$name.sum
	jlast "$T/$name.out" summary >"$f"
	echo "VMTEST RESULT $name variant=$VARIANT rc=$rc mode=$(get $f mode)" \
		"scans=$(get $f scans) skippable=$(get $f skippable)" \
		"walked_skipped=$(get $f walked_skipped) exit_rules=$(get $f exit_rules)" \
		"mask_bits=$(get $f mask_bits)" \
		"getpid_scans=$(scget $f $NR_GETPID scans) getpid_skippable=$(scget $f $NR_GETPID skippable)" \
		"stale=$(get $f stale.state) n_rules=$(get $f stale.audit_n_rules)" \
		"counted_rules=$(get $f stale.counted_rules)" \
		"per=$(per_syscall $f)"
	if [ $rc -ne 0 ] || [ ! -s "$f" ]; then
		fail $name-run "auditskip exit status $rc, summary $(wc -c <"$f") bytes"
		dump $name
		return 1
	fi
	return 0
}

# ------------------------------------------------------- prediction tests ---
# Same rules, same workload on both kernels, filter-op mode: the unpatched
# kernel's skippable count S must equal the walks the patched kernel no
# longer performs (compared on the host).

t_predict() {
	set=$1
	shift
	rules_reset
	case "$set" in
	openat64)
		load_openat_rules $NRULES || { fail predict-$set "could not load $NRULES rules"; rules_reset; return; }
		;;
	getpid | getpid-mixed)
		auditctl -a always,exit -F arch=b64 -S getpid -F uid=4242 -k ab ||
			{ fail predict-$set "could not add the getpid rule"; return; }
		;;
	fullmask)
		auditctl -a always,exit -S all -F uid=4242 -k ab ||
			{ fail predict-$set "could not add the -S all rule"; return; }
		;;
	stig)
		load_ruleset $RULES_DIR/30-stig.rules
		;;
	churn)
		# Rules naming getpid come and go; what stays is 8 openat rules
		# and a file watch, whose (full) mask must not count: it lives on
		# the inode hash.
		mkdir -p /tmp/c/t
		: >/tmp/c/f
		_i=0
		while [ $_i -lt 8 ]; do
			auditctl -a always,exit -F arch=b64 -S getpid -S openat -F uid=$((4100000 + _i)) -k ab-churn &&
				auditctl -a always,exit -F arch=b64 -S openat -F uid=$((4200000 + _i)) -k ab-churn ||
				{ fail predict-$set "could not add rules"; rules_reset; return; }
			_i=$((_i + 1))
		done
		auditctl -w /tmp/c/f -p wa -k ab-churn &&
			auditctl -a always,exit -F arch=b64 -S getpid -S mkdir -F dir=/tmp/c/t -k ab-churn ||
			{ fail predict-$set "could not add the watch and tree rules"; rules_reset; return; }
		_i=0
		while [ $_i -lt 8 ]; do
			auditctl -d always,exit -F arch=b64 -S getpid -S openat -F uid=$((4100000 + _i)) -k ab-churn
			_i=$((_i + 1))
		done
		# (deleted, not removed with its tree: that would make the
		# unpatched kernel stale before the staleness tests)
		auditctl -d always,exit -F arch=b64 -S getpid -S mkdir -F dir=/tmp/c/t -k ab-churn
		;;
	esac
	log "predict-$set: $(auditctl -l | wc -l) rules listed"
	measure predict-$set filter-op "$@"
	rules_reset
}

# --------------------------------------------------------------- safety ---
# A few rules that do match, a scripted workload; the audit records (printed
# by the kernel, as no auditd runs) reduced to type, syscall, success, comm,
# key and name are compared on the host.

# mark TEXT: send a user message through audit and wait until the kernel has
# printed it: every record queued before it has been printed too.
mark() {
	auditctl -m "$1" >/dev/null 2>&1
	_t=0
	while [ $_t -lt 50 ]; do
		dmesg | grep -q "$1" && return 0
		sleep 0.2
		_t=$((_t + 1))
	done
	return 1
}

t_safety() {
	rules_reset
	# Printing records must not be rate limited or dropped.
	echo 0 >/proc/sys/kernel/printk_ratelimit
	auditctl -b 8192 >/dev/null
	mkdir -p /tmp/s /tmp/s2
	: >/tmp/s/f
	# No exit rule names chmod: on the patched kernel its exit walk is
	# skipped, and the watch (inode hash) must still produce its record.
	auditctl -a always,exit -F arch=b64 -S openat -F success=0 -k ab-fail &&
		auditctl -a always,exit -F arch=b64 -S getpid -k ab-getpid &&
		auditctl -w /tmp/s/f -p wa -k ab-watch &&
		auditctl -a always,exit -F arch=b64 -S mkdir -S rmdir -F dir=/tmp/s2 -k ab-tree ||
		{ fail safety-rules "could not add the rules"; rules_reset; return; }
	mark ab-mark-start-$VARIANT || { fail safety "no mark record seen in dmesg"; rules_reset; return; }
	dmesg -c >/dev/null
	# getpid (named), a failed openat, a successful one (no record), a
	# watched file's attributes (chmod: matched on the inode hash only), a
	# file written in the tree (no record) and a directory made and removed
	# there.
	sh -c 'getpid_loop 3; cat /nonexistent-ab 2>/dev/null; cat /etc/hostname >/dev/null;
		chmod 600 /tmp/s/f; echo x >/tmp/s2/g; mkdir /tmp/s2/h; rm -rf /tmp/s2/h; true'
	mark ab-mark-end-$VARIANT || { fail safety "no end mark record seen in dmesg"; rules_reset; return; }
	dmesg >"$T/safety.dmesg"
	rules_reset
	rm -rf /tmp/s /tmp/s2
	# One line per record, fields that do not depend on time, pids or
	# addresses; the mark records themselves are left out.
	sed -n 's/.*audit: type=\([0-9]*\) audit([^)]*): *\(.*\)/\1 \2/p' "$T/safety.dmesg" |
		grep -v 'ab-mark-' |
		awk '{
			out = "type=" $1
			for (i = 2; i <= NF; i++)
				if ($i ~ /^(syscall|success|comm|key|name|nametype)=/)
					out = out " " $i
			print out
		}' | sort | uniq -c | sed 's/^ *//' >"$T/safety.recs"
	n=$(awk '{ s += $1 } END { print s + 0 }' "$T/safety.recs")
	log "safety: $n records"
	sed 's/^/VMTEST REC /' "$T/safety.recs"
	# Each of the rules must have produced something on either kernel.
	why=
	for k in ab-fail ab-getpid ab-watch ab-tree; do
		grep -q "key=\"$k\"" "$T/safety.recs" || why="$why no record with key $k;"
	done
	if [ -n "$why" ]; then
		fail safety-records "$why"
	else
		pass safety-records
	fi
}

# ------------------------------------------------------------ staleness ---
# With no rules loaded, a task started now has dummy contexts unless
# audit_n_rules is stale; auditskip's syscall-exit mode counts the walks of
# non-dummy contexts. Measured with filter-op mode too (calls of
# __audit_filter_op on the then empty exit list). auditskip's own report
# (the summary's "stale" object: state, audit_n_rules, counted_rules) goes
# on the RESULT line as well.

t_stale() {
	name=$1
	n=$(auditctl -l | grep -vc '^No rules')
	log "$name: $n rules listed before measuring"
	measure $name syscall-exit getpid_loop $N
	measure $name-fop filter-op getpid_loop $N
}

stale_watch() {
	mkdir -p /tmp/d
	: >/tmp/d/f
	auditctl -w /tmp/d/f -p wa -k ab-stale || { fail stale-watch-add "auditctl -w failed"; return 1; }
	rm -rf /tmp/d
	log "watch rule listed after rm: $(auditctl -l | grep -c '/tmp/d/f')"
}

# An exe rule goes through audit_del_rule() when its file goes away
# (audit_autoremove_mark_rule()): balanced on both kernels.
stale_exe() {
	mkdir -p /tmp/e
	cp /bin/busybox /tmp/e/x
	auditctl -a always,exit -F arch=b64 -S openat -F exe=/tmp/e/x -k ab-stale ||
		{ fail stale-exe-add "auditctl -a exe= failed"; return 1; }
	rm -rf /tmp/e
	log "exe rule listed after rm: $(auditctl -l | grep -c 'exe=/tmp/e/x')"
}

stale_tree() {
	mkdir -p /tmp/t/sub
	auditctl -a always,exit -F dir=/tmp/t -F perm=wa -k ab-stale ||
		{ fail stale-tree-add "auditctl -a dir= failed"; return 1; }
	rm -rf /tmp/t
	# The rule goes when the tree's root inode is evicted; the prune
	# thread may still be at it.
	_t=0
	while [ $_t -lt 25 ] && auditctl -l | grep -q 'dir=/tmp/t'; do
		sleep 0.2
		_t=$((_t + 1))
	done
	log "tree rule listed after rm: $(auditctl -l | grep -c 'dir=/tmp/t')"
}

# No warning, BUG or oops from the kernel during all of the above (the
# patched kernel warns if a syscall's rule count would go below zero).
t_kernel_log() {
	dmesg >"$T/dmesg.txt"
	if grep -qE 'WARNING:|BUG:|Oops|general protection' "$T/dmesg.txt"; then
		fail kernel-log "$(grep -m 1 -E 'WARNING:|BUG:|Oops|general protection' "$T/dmesg.txt" | cut -c1-200)"
	else
		pass kernel-log
	fi
}

# ------------------------------------------------------------------- main ---

log "kernel $(uname -r), variant $VARIANT, abtest=$ABTEST"
log "config N=$N NRULES=$NRULES"
t_audit_enable
if ! command -v auditskip >/dev/null || ! command -v getpid_loop >/dev/null; then
	fail tools "auditskip or getpid_loop missing from the initramfs (make static)"
	summary_line
	exit 1
fi

case "$ABTEST" in
main)
	# No rule has ever been removed behind the accounting's back yet.
	t_stale stale-baseline
	t_predict openat64 getpid_loop $N
	t_predict getpid getpid_loop $N
	t_predict fullmask getpid_loop $N
	t_predict stig getpid_loop $N
	t_predict getpid-mixed sh -c "ls /vmtest >/dev/null; cat /etc/hostname >/dev/null; getpid_loop 1000"
	t_predict churn getpid_loop $N
	t_safety
	# Netlink deletes (auditctl -D) of watch and tree rules are balanced.
	t_stale stale-after-deletes
	stale_exe
	rules_reset
	t_stale stale-exe
	# Last: on the unpatched kernel these leave audit_n_rules stale.
	stale_watch
	rules_reset
	t_stale stale-watch
	stale_tree
	rules_reset
	t_stale stale-watch-tree
	t_kernel_log
	;;
tree)
	t_stale stale-baseline-tree
	stale_tree
	rules_reset
	t_stale stale-tree
	t_kernel_log
	;;
*)
	fail abtest "unknown abtest=$ABTEST"
	;;
esac
summary_line
