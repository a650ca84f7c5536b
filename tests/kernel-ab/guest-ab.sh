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
# Which tests run comes from the kernel command line: abtest=main (default),
# abtest=tree (only the tree-rule staleness test, on a fresh kernel) or
# abtest=time (getpid and a workload timed with exit rules loaded, and on the
# unpatched kernel auditskip's calibration and predicted saving, on a fresh
# kernel that nothing has made stale), abtest=timing (its light form:
# calibrate, and getpid at 0, 1, 32 and 256 rules) or abtest=corpus (the workload corpus
# of tests/vm/corpus-workloads.sh under rule sets that leave part of it
# skippable).

# JSON flattening (jflat, jlast, get, scget), tool, dump, rules_reset,
# load_openat_rules and load_ruleset come from the tests/vm guest library,
# result lines (pass, fail, log, summary_line) from tests/lib/common.sh.
. /vmtest/guest-lib.sh
guest_test_args "$@"
. /vmtest/corpus-workloads.sh

T=/tmp/ab
mkdir -p "$T"
N=20000          # getpid calls per prediction and staleness run
NRULES=64        # non-matching openat rules
TOOL_TIMEOUT=180 # seconds for one auditskip run under TCG
TM_COUNTS="0 1 32 128 256" # exit rules for the time model
TM_PASSES=5      # each point keeps its lowest median (as auditskip calibrate) and round
TM_ITERS=20000   # getpid calls per audit_bench round
TM_ROUNDS=15
TM_WL_RUNS=50    # timed runs of the workload per pass (a disturbance is spread over more)
NAMES_SHIFTS="0 1 2 3 5 8" # names: files made and removed before a gzip run

ABTEST=main
for w in $(cat /proc/cmdline); do
	case "$w" in abtest=*) ABTEST=${w#abtest=} ;; esac
done

# The patched kernel has the aggregate mask (patches/KVER/0002); the 2023
# design's port counts rules per syscall (patches/KVER-2023); the per-arch,
# permission-aware masks (patches/KVER-archperm) keep audit_exit_masks, and
# their entry form audit_entry_masks beside them. (The archperm kernels
# carry the series too: their symbols are looked for first.)
if grep -q ' audit_entry_masks$' /proc/kallsyms; then
	VARIANT=archperm-entry
elif grep -q ' audit_exit_masks$' /proc/kallsyms; then
	VARIANT=archperm
elif grep -q ' audit_exit_syscalls$' /proc/kallsyms; then
	VARIANT=patched
elif grep -q ' audit_count_syscall_rule$' /proc/kallsyms; then
	VARIANT=design2023
else
	VARIANT=unpatched
fi

# ---------------------------------------------------------------- helpers ---

# per_syscall FLAT: "arch/nr:walks:skippable_walks:skippable_perm_mask:
# skippable_entry_mask" for every syscalls[] entry (a syscall is its arch
# and number: i386's 20 is not x86_64's 20), sorted, comma-separated. The
# last two are what the archperm kernels' exit form and entry form would
# spare (0 where this auditskip does not report them).
per_syscall() {
	awk -F= '
		/^syscalls\.[0-9]+\.(nr|arch|walks|skippable_walks|skippable_perm_mask|skippable_entry_mask)=/ {
			split($1, p, "."); v[p[2], p[3]] = $2; if (p[2] + 1 > n) n = p[2] + 1
		}
		END {
			for (i = 0; i < n; i++)
				print v[i, "arch"] "/" v[i, "nr"] ":" v[i, "walks"] ":" v[i, "skippable_walks"] \
					":" v[i, "skippable_perm_mask"] + 0 ":" v[i, "skippable_entry_mask"] + 0
		}' "$1" |
		sort -t/ -k1,1 -k2,2n | tr '\n' ',' | sed 's/,$//'
}

# scget_arch FLAT ARCH NR FIELD: FIELD of the syscalls[] entry of ARCH's
# syscall NR; empty when it is not listed.
scget_arch() {
	awk -F= -v arch="$2" -v nr="$3" -v f="$4" '
		/^syscalls\.[0-9]+\./ { split($1, p, "."); v[p[2], p[3]] = $2; if (p[2] + 1 > n) n = p[2] + 1 }
		END {
			for (i = 0; i < n; i++)
				if (v[i, "arch"] == arch && v[i, "nr"] == nr) { print v[i, f]; exit }
		}' "$1"
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
		"walks=$(get $f walks) skippable_walks=$(get $f skippable_walks)" \
		"skippable_perm_mask=$(get $f skippable_perm_mask) skippable_entry_mask=$(get $f skippable_entry_mask)" \
		"needless_rule_visits=$(get $f needless_rule_visits) exit_rules=$(get $f exit_rules)" \
		"mask_bits=$(get $f mask_bits)" \
		"getpid_walks=$(scget_arch $f x86_64 $NR_GETPID walks)" \
		"getpid_skippable=$(scget_arch $f x86_64 $NR_GETPID skippable_walks)" \
		"stale=$(get $f stale.state) n_rules=$(get $f stale.audit_n_rules)" \
		"counted_rules=$(get $f stale.counted_rules)" \
		"uring_enter_walks=$(get $f blind_spots.uring_enter_walks)" \
		"per=$(per_syscall $f)"
	if [ $rc -ne 0 ] || [ ! -s "$f" ]; then
		fail $name-run "auditskip exit status $rc, summary $(wc -c <"$f") bytes"
		dump $name
		return 1
	fi
	return 0
}

# ------------------------------------------------------- prediction tests ---
# Same rules, same workload on both kernels: the unpatched kernel's
# skippable count S, in each mode, must equal the walks the patched kernel no
# longer performs (compared on the host).

# write_stig_file SET.advised|SET.prefixed: $T/FILE, the real set SET
# (stig, pci, ospp: set_file) as `auditskip advise` rewrites it or behind
# `advise --never-prefix`'s prefix (fitted to the tar workload where the
# time boot has profiled it), unless written already. Written once per boot, not at each load: advise loads BPF
# programs to read the kernel's permission classes, and the kernel's
# deferred teardown of them (on 7.2, some 80 us of each tar run that
# followed) would be timed with the rules loaded next.
write_stig_file() {
	[ -s $T/$1 ] && return 0
	case $1 in
	*.advised) _args= ;;
	*) _args=--never-prefix
	   [ -s $T/tar.prof ] && [ -s $T/calibration.json ] &&
		_args="$_args --profile $T/tar.prof --calibration $T/calibration.json" ;;
	esac
	rules_reset
	load_ruleset $(set_file ${1%%.*})
	auditskip advise $_args -o $T/$1.new >$T/$1.out 2>&1 ||
		{ fail predict-$set "auditskip advise $_args: $(tail -n 1 $T/$1.out)"; rm -f $T/$1.new; return 1; }
	mv $T/$1.new $T/$1
}

# set_file SET: Debian's example set the short name stands for.
set_file() {
	case $1 in
	stig) echo $RULES_DIR/30-stig.rules ;;
	pci) echo $RULES_DIR/30-pci-dss-v31.rules ;;
	ospp) echo $RULES_DIR/30-ospp-v42.rules ;;
	esac
}

# load_rules SET: one of the rule sets below; non-zero (after a FAIL line
# for predict-NAME) when it could not be loaded.
load_rules() {
	case "$1" in
	openat64)
		load_openat_rules $NRULES || { fail predict-$set "could not load $NRULES rules"; return 1; }
		;;
	getpid | getpid-mixed)
		auditctl -a always,exit -F arch=b64 -S getpid -F uid=4242 -k ab ||
			{ fail predict-$set "could not add the getpid rule"; return 1; }
		;;
	fullmask)
		auditctl -a always,exit -S all -F uid=4242 -k ab ||
			{ fail predict-$set "could not add the -S all rule"; return 1; }
		;;
	stig)
		load_ruleset $RULES_DIR/30-stig.rules
		[ "$(auditctl -l | grep -vc '^No rules')" -gt 0 ] ||
			{ fail predict-$set "no rule of 30-stig loaded"; return 1; }
		;;
	stig-advised)
		# 30-stig as `auditskip advise -o` rewrites it on this kernel,
		# written the first time only (see write_stig_file).
		write_stig_file stig.advised || return 1
		rules_reset
		auditctl -R $T/stig.advised >/dev/null 2>&1
		log "predict-$set: $(grep -c '^# narrowed' $T/stig.advised) rules narrowed, $(grep -c '^-a' $T/stig.advised) rules loaded"
		[ "$(auditctl -l | grep -vc '^No rules')" -gt 0 ] ||
			{ fail predict-$set "no rule of the rewrite loaded"; return 1; }
		;;
	stig-prefix)
		# 30-stig behind the never,exit prefix `auditskip advise
		# --never-prefix` writes for it on this kernel, written once.
		write_stig_file stig.prefixed || return 1
		rules_reset
		auditctl -R $T/stig.prefixed >/dev/null 2>&1
		[ "$(auditctl -l | grep -c '^-a never,exit')" -gt 0 ] ||
			{ fail predict-$set "no prefix rule loaded"; return 1; }
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
				{ fail predict-$set "could not add rules"; return 1; }
			_i=$((_i + 1))
		done
		auditctl -w /tmp/c/f -p wa -k ab-churn &&
			auditctl -a always,exit -F arch=b64 -S getpid -S mkdir -F dir=/tmp/c/t -k ab-churn ||
			{ fail predict-$set "could not add the watch and tree rules"; return 1; }
		_i=0
		while [ $_i -lt 8 ]; do
			auditctl -d always,exit -F arch=b64 -S getpid -S openat -F uid=$((4100000 + _i)) -k ab-churn
			_i=$((_i + 1))
		done
		# (deleted, not removed with its tree: that would make the
		# unpatched kernel stale before the staleness tests)
		auditctl -d always,exit -F arch=b64 -S getpid -S mkdir -F dir=/tmp/c/t -k ab-churn
		;;
	mixed)
		# Rules naming syscalls the workloads make (write, close, wait4,
		# rt_sigreturn) beside ones they do not: part of each workload's
		# walks is skippable, part is not.
		auditctl -a always,exit -F arch=b64 -S write -S close -F uid=4300001 -k ab-mixed &&
			auditctl -a always,exit -F arch=b64 -S wait4 -S rt_sigreturn -F uid=4300002 -k ab-mixed &&
			auditctl -a always,exit -F arch=b64 -S mount -S chroot -F uid=4300003 -k ab-mixed ||
			{ fail predict-$set "could not add the rules"; return 1; }
		;;
	perm)
		# One rule that names every syscall, narrowed by its permission
		# classes only: the series' mask is full, the archperm masks
		# count it per class (open-class syscalls kept: flags decide).
		auditctl -a always,exit -F dir=$WL -F perm=rwxa -k ab-perm ||
			{ fail predict-$set "could not add the perm rule"; return 1; }
		;;
	watch)
		# A watch the workloads never touch (no record), and one exit
		# rule that cannot match: the series skips all but openat, the
		# entry form also gives a dummy context to what the watch's
		# classes (write, attribute) leave out.
		: >$WL/watched
		auditctl -w $WL/watched -p wa -k ab-watch &&
			auditctl -a always,exit -F arch=b64 -S openat -F uid=4000000 -k ab-watch ||
			{ fail predict-$set "could not add the watch and its exit rule"; return 1; }
		;;
	extra)
		# The rule set KERNEL_AB_RULES named on the host, as far as this
		# kernel takes it.
		load_ruleset /vmtest/extra.rules
		[ "$(auditctl -l | grep -vc '^No rules')" -gt 0 ] ||
			{ fail predict-$set "no rule of KERNEL_AB_RULES loaded"; return 1; }
		;;
	arch32chmod)
		# i386's chmod is 15, as x86_64's rt_sigreturn: the series' one
		# mask sets the bit for both, the per-arch masks for i386 only.
		auditctl -a always,exit -F arch=b32 -S chmod -F uid=4242 -k ab-a32c ||
			{ fail predict-$set "could not add the b32 chmod rule"; return 1; }
		;;
	*)
		fail predict-$set "unknown rule set $1"
		return 1
		;;
	esac
	return 0
}

# The other modes this kernel loads (guest-lib's MODES). On the unpatched
# kernel each counts the same workload again (RESULT NAME@MODE), held on the
# host, like filter-op, to the walks the patched kernel no longer makes. On
# archperm-entry too: those modes count a walk per syscall whose context is
# not dummy at exit, so their drop from the unpatched kernel's is the
# contexts the entry form made dummy.
OTHER_MODES=$(echo $MODES | sed 's/filter-op *//')

# measure_all NAME WORKLOAD...: NAME in filter-op mode, and on the unpatched
# and the archperm-entry kernel NAME@MODE in each other mode; BEFORE_RUN (if
# set) runs before each.
measure_all() {
	_name=$1
	shift
	${BEFORE_RUN:-:}
	measure $_name filter-op "$@"
	case $VARIANT in unpatched | archperm-entry) ;; *) return 0 ;; esac
	for _m in $OTHER_MODES; do
		${BEFORE_RUN:-:}
		measure $_name@$_m $_m "$@"
	done
}

# t_predict NAME RULES WORKLOAD...: the rule set RULES loaded, WORKLOAD run
# under auditskip in each mode (RESULT predict-NAME[@MODE]).
t_predict() {
	set=$1
	rules=$2
	shift 2
	rules_reset
	load_rules $rules || { rules_reset; return; }
	log "predict-$set: rules $rules, $(auditctl -l | wc -l) listed"
	measure_all predict-$set "$@"
	rules_reset
}

# Workloads beyond getpid, from what the guest has (busybox and the static
# tools): a shell script of builtins, redirections and small commands; tar
# and gzip over the guest's own files; a shell that signals itself (each
# signal ends in rt_sigreturn, which audit walks with major 15 while
# orig_ax says -1 at sys_exit, see restore_sigcontext()).
WL=/tmp/wl
WL_SH='i=0; while [ $i -lt 100 ]; do echo $i >/tmp/wl/f; read x </tmp/wl/f; ls /tmp/wl >/dev/null; i=$((i + 1)); done'
# (Files, never pipes: a read from a pipe returns what is there at the time,
# so the number of reads and writes would differ from run to run.)
WL_TAR='tar -cf /tmp/wl/a.tar -C / vmtest bin/busybox sbin/auditctl && gzip -f /tmp/wl/a.tar &&
	gunzip -f /tmp/wl/a.tar.gz && mkdir -p /tmp/wl/x && tar -xf /tmp/wl/a.tar -C /tmp/wl/x &&
	rm -rf /tmp/wl/x /tmp/wl/a.tar'
# The time model's tar: the same archive written and read back, without the
# compression. gzip's 650 ms of arithmetic a run made the 0.4 ms a prefix
# saves less than a thousandth of what was timed; a run of this takes some
# 15 ms. (t_names times the run with gzip too.)
WL_TAR_TIMED='tar -cf /tmp/wl/a.tar -C / vmtest bin/busybox sbin/auditctl && mkdir -p /tmp/wl/x &&
	tar -xf /tmp/wl/a.tar -C /tmp/wl/x && rm -rf /tmp/wl/x /tmp/wl/a.tar'
WL_SIG='n=0; trap "n=\$((n + 1))" USR1; i=0; while [ $i -lt 200 ]; do kill -USR1 $$; i=$((i + 1)); done; [ $n -eq 200 ]'
mkdir -p $WL

# ------------------------------------------------------------ the corpus ---
# Each workload of the corpus under each rule set, in each mode: RESULT
# corpus-SET-WORKLOAD[@MODE], compared per syscall on the host like predict-*.
# openat64 and mixed leave most of every workload skippable; arch32 names
# i386's getpid (20), whose bit the patch's mask also sets for x86_64's
# writev (20); perm's dir= rule has every bit (nothing is skippable).

# corpus_rules SET: non-zero (after a FAIL line) when SET could not be loaded.
corpus_rules() {
	rules_reset
	case $1 in
	openat64 | mixed) load_rules $1 ;;
	arch32) auditctl -a always,exit -F arch=b32 -S getpid -k ab-a32 >/dev/null ;;
	perm) auditctl -a always,exit -F dir=$D -F perm=rwxa -k ab-perm >/dev/null ;;
	esac || { fail corpus-$1 "could not load the rules"; return 1; }
}

# t_corpus SET SELECT: the workloads SELECT picks (a pattern of names, or
# all) under the rule set SET.
t_corpus() {
	corpus_rules $1 || return
	log "corpus-$1: $(auditctl -l | tr '\n' ';' | cut -c1-300)"
	workloads_all | if [ "$2" = all ]; then cat; else grep -E "^($2)\|"; fi >"$T/wl.list"
	BEFORE_RUN=prepare
	while IFS='|' read -r _wl _cmd _exp; do
		# (the command split into words on purpose)
		measure_all corpus-$1-$_wl $_cmd </dev/null
	done <"$T/wl.list"
	BEFORE_RUN=
	rules_reset
}

# ------------------------------------------------------------ time model ---
# getpid timed by audit_bench (the series' microbenchmark) with 0, 1, 32, 128
# and 256 exit rules that cannot match it, with 30-stig and with 30-stig as
# `auditskip advise` rewrites it (stig-advised); a workload timed under both
# real rule sets. On the unpatched kernel, auditskip calibrates first and then
# predicts the saving at each point from its count of the same getpid loop;
# the host sets that against the measured difference (unpatched minus
# patched). Each point keeps the lowest median of TM_PASSES passes, the
# points visited up, down, up..., as auditskip calibrate does: disturbances
# only ever add time. TCG nanoseconds: only comparable within one run.

# bench_ns: audit_bench's median and lowest round, ns per getpid, as its
# JSON says. The lowest round is kept too: on a loaded host the guest's
# vCPU loses its turn within more than half the rounds at times, and only
# ever gains time from it.
bench_ns() {
	audit_bench -n $TM_ITERS -r $TM_ROUNDS -c 0 --json |
		sed -n 's/.*"median_ns":\([0-9.]*\),"min_ns":\([0-9.]*\).*/\1 \2/p'
}

# wl_ns: nanoseconds for TM_WL_RUNS runs of the timed tar workload.
wl_ns() {
	time_runs $TM_WL_RUNS sh -c "$WL_TAR_TIMED"
}

# The server-like workload: the guest kernels have no INET, so busybox
# httpd serves in inetd mode (httpd -i), a request read from a file
# (never a pipe: see WL_SH), a process started per request as inetd
# starts one; a run is TM_HTTPD_REQS requests.
TM_HTTPD_REQS=20
TM_HTTPD_RUNS=10
WL_HTTPD="i=0; while [ \$i -lt $TM_HTTPD_REQS ]; do httpd -i -h /tmp/www </tmp/wl/req >/dev/null; i=\$((i + 1)); done"
httpd_setup() {
	mkdir -p /tmp/www
	head -c 4096 /bin/busybox | od -An -tx1 >/tmp/www/index.html
	printf 'GET /index.html HTTP/1.0\r\nHost: vmtest\r\n\r\n' >/tmp/wl/req
	sh -c "$WL_HTTPD" && httpd -i -h /tmp/www </tmp/wl/req | head -n 1 | grep -q ' 200 '
}

# httpd_ns: nanoseconds for TM_HTTPD_RUNS runs of the httpd workload.
httpd_ns() {
	time_runs $TM_HTTPD_RUNS sh -c "$WL_HTTPD"
}

# tm_load POINT: the rules of a time-model point (a rule count, stig,
# stig-advised or stig-prefix).
tm_load() {
	rules_reset
	set=time-$1
	case "$1" in
	0) ;;
	stig | stig-advised | stig-prefix) load_rules $1 >/dev/null ;;
	pci | ospp) load_ruleset $(set_file $1) >/dev/null ;;
	pci-prefix | ospp-prefix) auditctl -R $T/${1%-prefix}.prefixed >/dev/null 2>&1 ;;
	*) load_openat_rules $1 ;;
	esac
}

# The shell variable a point's results are kept in: stig-advised -> stig_advised.
tm_var() { echo "$1" | tr - _; }

# min A B: the smaller number, either may be empty.
min() {
	awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || (b != "" && b + 0 < a + 0)) print b; else print a }'
}

t_time() {
	cal=$T/calibration.json
	if [ $VARIANT = unpatched ]; then
		rules_reset
		tool time-calibrate calibrate --calibration $cal --max-rules 256 --cpu 0
		if [ $rc -ne 0 ] || [ ! -s $cal ]; then
			fail time-calibrate "auditskip calibrate: exit status $rc"
			dump time-calibrate
		else
			pass time-calibrate
			echo "VMTEST RESULT time-calibration variant=$VARIANT $(jflat <$cal | grep -E '^(ns_per_entry|ns_context|ns_empty_walk|ns_walk_call|points\.[0-9]+\.(rules|ns)|evaluation_ns\.[a-z_]+)=' | tr '\n' ' ')"
		fi
	fi
	points="$TM_COUNTS stig stig-advised stig-prefix pci ospp"
	workloads="stig stig-advised stig-prefix pci ospp"
	# The prefixes of the other real sets: the stock kernel's answer.
	if [ $VARIANT = unpatched ]; then
		points="$points pci-prefix ospp-prefix"
		workloads="$workloads pci-prefix ospp-prefix"
	fi
	# The 2023 design is held to the rule counts and advise's rewrite only.
	if [ $VARIANT = design2023 ]; then
		points="$TM_COUNTS stig-advised"
		workloads=stig-advised
	fi
	httpd_setup || fail time-httpd "busybox httpd -i did not serve the page"
	[ $VARIANT = unpatched ] && [ -s $cal ] && tm_profiles
	# Before anything is timed (write_stig_file says why).
	set=time-stig-advised
	write_stig_file stig.advised
	set=time-stig-prefix
	write_stig_file stig.prefixed
	if [ $VARIANT = unpatched ]; then
		for _s in pci ospp; do
			set=time-$_s-prefix
			write_stig_file $_s.prefixed
		done
	fi
	rev=$(echo $points | tr ' ' '\n' | sed -n '1!G;h;$p' | tr '\n' ' ')
	pass=0
	while [ $pass -lt $TM_PASSES ]; do
		if [ $((pass % 2)) -eq 0 ]; then order=$points; else order=$rev; fi
		for p in $order; do
			tm_load $p || { fail time-$p "could not load the rules"; continue; }
			set -- $(bench_ns)
			v=$(tm_var $p)
			eval "b_$v=\$(min \"\${b_$v:-}\" \"$1\")"
			eval "m_$v=\$(min \"\${m_$v:-}\" \"$2\")"
			log "time: pass $((pass + 1)), $p: getpid median $1 ns, lowest round $2 ns"
		done
		# The workload under each real rule set, once a pass: it is slow.
		for p in $workloads; do
			tm_load $p || continue
			v=$(tm_var $p)
			ns=$(wl_ns) || fail time-workload "the tar workload failed"
			eval "wl_$v=\$(min \"\${wl_$v:-}\" \"$ns\")"
			log "time: pass $((pass + 1)), $p: $TM_WL_RUNS tar runs $ns ns"
			ns=$(httpd_ns) || fail time-httpd-workload "the httpd workload failed"
			eval "hd_$v=\$(min \"\${hd_$v:-}\" \"$ns\")"
			log "time: pass $((pass + 1)), $p: $TM_HTTPD_RUNS httpd runs $ns ns"
		done
		pass=$((pass + 1))
	done
	for p in $points; do
		v=$(tm_var $p)
		eval "ns=\${b_$v:-}"
		eval "ns_min=\${m_$v:-}"
		pred=
		pred_walks=
		pred_2023=
		pred_ap=
		pred_ape=
		tm_load $p
		if [ $VARIANT = unpatched ] && [ -s $cal ]; then
			tool time-pred-$p --mode filter-op --json --calibration $cal -- getpid_loop $N
			jlast $T/time-pred-$p.out summary >$T/time-pred-$p.sum
			pred_walks=$(scget_arch $T/time-pred-$p.sum x86_64 $NR_GETPID walks)
			pred_saved=$(scget_arch $T/time-pred-$p.sum x86_64 $NR_GETPID saved_ns)
			pred=$(awk -v s="${pred_saved:-0}" -v n=$N 'BEGIN { printf "%.2f", s / n }')
			[ $rc -eq 0 ] || { fail time-pred-$p "auditskip exit status $rc"; dump time-pred-$p; }
			whatif_2023 $p getpid
		fi
		echo "VMTEST RESULT time-$p variant=$VARIANT getpid_ns=$ns getpid_min_ns=$ns_min calls=$N" \
			"pred_ns=$pred pred_walks=$pred_walks pred_2023_ns=$pred_2023" \
			"pred_archperm_ns=$pred_ap pred_archperm_entry_ns=$pred_ape" \
			"exit_rules=$(auditctl -l | grep -vc '^No rules')"
	done
	[ $VARIANT = unpatched ] && [ -s $cal ] && t_prefix_predict
	# Then, once per set, the time audit's own exit work took over the same
	# runs (audit_exit_ns, fentry and fexit): what the rules change, without
	# what the rest of the kernel's work moves by from one load of the rules
	# to the next (doc/never-prefix.md). After every timed run: its programs'
	# teardown must not fall into one.
	for p in $workloads; do
		pred=
		pred_2023=
		pred_ap=
		pred_ape=
		tm_load $p
		audit_work=$(audit_exit_ns $TM_WL_RUNS sh -c "$WL_TAR_TIMED") ||
			fail time-audit-work-$p "audit_exit_ns could not time audit's exit work: exit status $?"
		if [ $VARIANT = unpatched ] && [ -s $cal ]; then
			tool time-pred-wl-$p --mode filter-op --json --calibration $cal -- sh -c "$WL_TAR_TIMED"
			jlast $T/time-pred-wl-$p.out summary >$T/time-pred-wl-$p.sum
			pred=$(get $T/time-pred-wl-$p.sum saved_ns)
			[ $rc -eq 0 ] || { fail time-pred-wl-$p "auditskip exit status $rc"; dump time-pred-wl-$p; }
			log "time: $p, one tar run: $(get $T/time-pred-wl-$p.sum walks) walks," \
				"$(get $T/time-pred-wl-$p.sum skippable_walks) skippable, $(get $T/time-pred-wl-$p.sum prefix_walks) ended by a prefix," \
				"mask bits $(get $T/time-pred-wl-$p.sum mask_bits)"
		fi
		[ $VARIANT = unpatched ] && [ -s $cal ] && whatif_2023 $p tar
		eval "ns=\${wl_$(tm_var $p):-}"
		set -- $audit_work
		echo "VMTEST RESULT time-$p-tar variant=$VARIANT ns=$ns runs=$TM_WL_RUNS pred_ns_per_run=$pred" \
			"pred_2023_ns_per_run=$pred_2023 audit_calls=${2:-} audit_ns=${4:-}" \
			"pred_archperm_ns_per_run=$pred_ap pred_archperm_entry_ns_per_run=$pred_ape"
		eval "ns=\${hd_$(tm_var $p):-}"
		echo "VMTEST RESULT time-$p-httpd variant=$VARIANT ns=$ns runs=$TM_HTTPD_RUNS requests=$TM_HTTPD_REQS"
	done
	rules_reset
	t_kernel_log
}

# abtest=timing, the light lane of `make test` (under -icount, one guest at
# a time): on the unpatched kernel auditskip calibrate runs once (no second
# attempt: under -icount the guest's clock counts instructions, a busy host
# cannot make it noisy, so a refusal is a fault) and its prices are
# reported; on both kernels getpid is timed by audit_bench (the series'
# microbenchmark, not auditskip) with TIMING_COUNTS exit rules that cannot
# match it, TIMING_PASSES times; on the unpatched kernel auditskip's
# predicted saving per getpid (filter-op, that calibration) at each count.
# tests/kernel-ab/run.sh holds calibrate's prices to audit_bench's times on
# the same kernel and the predicted saving to the patched kernel's.
TIMING_COUNTS="0 1 32 256"
TIMING_PASSES=2
# Fewer calls than the time boot's: under -icount a round's median is the
# same instruction count whatever the host does; a timer tick in a round
# moves it, not the median of five.
TIMING_ITERS=10000
TIMING_ROUNDS=5
# timing_bench: audit_bench's median and lowest round (ns per getpid) with
# the timing lane's rounds.
timing_bench() {
	audit_bench -n $TIMING_ITERS -r $TIMING_ROUNDS -c 0 --json |
		sed -n 's/.*"median_ns":\([0-9.]*\),"min_ns":\([0-9.]*\).*/\1 \2/p'
}

# t_counting_cost: what counting adds to a getpid as calibrate priced it
# (the file's counting), and as audit_bench sees it: getpid under one exit
# rule while a whole-machine count in that mode runs, less without one.
t_counting_cost() {
	_mode=$(jflat <$cal 2>/dev/null | sed -n 's/^counting\.mode=//p')
	_cal_ns=$(jflat <$cal 2>/dev/null | sed -n 's/^counting\.ns_added=//p')
	_alone=
	_counted=
	if [ -n "$_mode" ]; then
		tm_load 1
		set -- $(timing_bench)
		_alone=${1:-}
		auditskip --mode "$_mode" --json >$T/timing-counting.out 2>$T/timing-counting.err &
		_pid=$!
		if started $T/timing-counting.out 120; then
			set -- $(timing_bench)
			_counted=${1:-}
		else
			log "timing-counting: auditskip --mode $_mode did not start: $(tail -n 1 $T/timing-counting.err)"
		fi
		kill -INT $_pid 2>/dev/null
		wait $_pid
		rules_reset
	fi
	echo "VMTEST RESULT timing-counting variant=$VARIANT mode=$_mode cal_ns=$_cal_ns alone_ns=$_alone counted_ns=$_counted"
}

# t_duty_estimate: a whole-machine --duty run in that mode with no
# calibration (it prices counting at its start, so that the one vCPU a
# getpid loop keeps busy has its windows corrected), over DUTY_CALLS getpid
# calls made from its start line to its end: the estimate of the run's
# skippable walks against those calls (the guest makes few others). The
# time taken to see the start line is time without the loop, which a
# window may sample: the poll is 10 ms (started's 0.2 s, when the first
# window opened at the start, made one run read 4.9% low), and the run
# spans some 8 windows.
DUTY_CALLS=24000000
# started_soon FILE SECONDS: started, polled every 10 ms (read -t on a FIFO
# nobody writes: no process made).
started_soon() {
	[ -p /tmp/nap.fifo ] || mkfifo /tmp/nap.fifo
	exec 7<>/tmp/nap.fifo
	_t=0
	until grep -q '"type" *: *"start"' "$1" 2>/dev/null; do
		[ $_t -gt $(($2 * 100)) ] && return 1
		read -t 0.01 _nap <&7
		_t=$((_t + 1))
	done
}
t_duty_estimate() {
	_mode=$(jflat <$cal 2>/dev/null | sed -n 's/^counting\.mode=//p')
	_cal_ns=$(jflat <$cal 2>/dev/null | sed -n 's/^counting\.ns_added=//p')
	: >$T/timing-duty.sum
	if [ -n "$_mode" ]; then
		tm_load 1
		auditskip --mode "$_mode" --json --duty 1s/3s >$T/timing-duty.out 2>$T/timing-duty.err &
		_pid=$!
		if started_soon $T/timing-duty.out 120; then
			getpid_loop $DUTY_CALLS >/dev/null
		else
			log "timing-duty: auditskip --mode $_mode did not start: $(tail -n 1 $T/timing-duty.err)"
		fi
		kill -INT $_pid 2>/dev/null
		wait $_pid
		jlast $T/timing-duty.out summary >$T/timing-duty.sum
		rules_reset
	fi
	echo "VMTEST RESULT timing-duty variant=$VARIANT mode=$_mode calls=$DUTY_CALLS cal_ns=$_cal_ns" \
		"est=$(get $T/timing-duty.sum coverage.estimated_skippable_walks)" \
		"counted=$(get $T/timing-duty.sum skippable_walks)" \
		"windows=$(get $T/timing-duty.sum coverage.windows)" \
		"covered_s=$(get $T/timing-duty.sum coverage.covered_s)" \
		"elapsed_s=$(get $T/timing-duty.sum coverage.elapsed_s)" \
		"price_ns=$(get $T/timing-duty.sum coverage.counting_ns)" \
		"price_from=$(get $T/timing-duty.sum coverage.counting_price | tr ' ' _)" \
		"correction=$(get $T/timing-duty.sum coverage.correction)"
}

t_timing() {
	cal=$T/calibration.json
	if [ $VARIANT = unpatched ]; then
		rules_reset
		# The curve's points up to 256 rules and the evaluations: some
		# minutes of emulated instructions.
		_t=$TOOL_TIMEOUT
		TOOL_TIMEOUT=900
		tool timing-calibrate calibrate -v --calibration $cal --max-rules 256 --cpu 0
		TOOL_TIMEOUT=$_t
		if [ $rc -ne 0 ] || [ ! -s $cal ]; then
			fail timing-calibrate "auditskip calibrate: exit status $rc, in its only attempt (under -icount a busy host adds no noise)"
			dump timing-calibrate
		else
			pass timing-calibrate
			while IFS= read -r _l; do log "calibrate: $_l"; done <$T/timing-calibrate.out
			echo "VMTEST RESULT timing-calibration variant=$VARIANT $(jflat <$cal | grep -E '^(ns_per_entry|ns_context|ns_empty_walk|ns_walk_call|points\.[0-9]+\.(rules|ns)|evaluation_ns\.[a-z_]+)=' | tr '\n' ' ')"
		fi
		# The call the patch skips (an empty exit list), timed with fentry
		# and fexit: part of a non-dummy context's cost, so below it.
		_call=$(jflat <$cal 2>/dev/null | sed -n 's/^ns_walk_call=//p')
		_ctx=$(jflat <$cal 2>/dev/null | sed -n 's/^ns_context=//p')
		if ! grep -q 'the call that walks an empty exit list: [0-9]' $T/timing-calibrate.out; then
			fail timing-calibrate-walk-call "not timed: $(grep "walk's call" $T/timing-calibrate.err | tail -n 1)"
		elif awk -v c="${_call:-}" -v x="${_ctx:-}" 'BEGIN { exit !(c != "" && x != "" && c > 0 && c < x) }'; then
			pass timing-calibrate-walk-call "ns_walk_call $_call, ns_context $_ctx"
		else
			fail timing-calibrate-walk-call "ns_walk_call ${_call:-none} not within (0, ns_context ${_ctx:-none})"
		fi
		check_eq timing-calibrate-rules-restored "$(auditctl -l)" "No rules" "rules after calibrate"
		t_counting_cost
		t_duty_estimate
		_left=$(ls -d ${TMPDIR:-/tmp}/auditskip-calibrate.* 2>/dev/null)
		check_eq timing-calibrate-cleaned "$_left" "" "calibrate's scratch directories left behind"
	fi
	pass=1
	while [ $pass -le $TIMING_PASSES ]; do
		for p in $TIMING_COUNTS; do
			tm_load $p || { fail timing-$p "could not load $p rules"; continue; }
			set -- $(timing_bench)
			eval "tb_${p}_$pass=\${1:-}"
			log "timing: pass $pass, $p rules: getpid median ${1:-?} ns, lowest round ${2:-?} ns"
		done
		pass=$((pass + 1))
	done
	for p in $TIMING_COUNTS; do
		pred=
		pred_walks=
		tm_load $p
		if [ $VARIANT = unpatched ] && [ -s $cal ]; then
			tool timing-pred-$p --mode filter-op --json --calibration $cal -- getpid_loop $N
			[ $rc -eq 0 ] || { fail timing-pred-$p "auditskip exit status $rc"; dump timing-pred-$p; }
			jlast $T/timing-pred-$p.out summary >$T/timing-pred-$p.sum
			pred_walks=$(scget_arch $T/timing-pred-$p.sum x86_64 $NR_GETPID walks)
			pred_saved=$(scget_arch $T/timing-pred-$p.sum x86_64 $NR_GETPID saved_ns)
			[ -n "$pred_saved" ] && pred=$(awk -v s="$pred_saved" -v n=$N 'BEGIN { printf "%.2f", s / n }')
		fi
		eval "_p1=\${tb_${p}_1:-}; _p2=\${tb_${p}_2:-}"
		echo "VMTEST RESULT timing-$p variant=$VARIANT getpid_ns=$(min "$_p1" "$_p2") pass1_ns=$_p1 pass2_ns=$_p2" \
			"calls=$N pred_ns=$pred pred_walks=$pred_walks exit_rules=$(auditctl -l | grep -vc '^No rules')"
	done
	rules_reset
	t_kernel_log
}

# tm_profiles: the getpid loop and one tar run, profiled with no rule
# loaded, for what auditskip predicts offline (the prefix, the 2023 design).
tm_profiles() {
	rules_reset
	tool time-prof-getpid profile -o $T/getpid.prof -- getpid_loop $N
	tool time-prof-tar profile -o $T/tar.prof -- sh -c "$WL_TAR_TIMED"
}

# whatif_2023 POINT WORKLOAD: pred_2023 (pred_ap, pred_ape: archperm's exit
# and entry form), what `auditskip whatif` predicts
# the 2023 design saves under the rules loaded now: per getpid (the getpid
# loop's getpid entry over its calls) or per tar run (the whole profile).
whatif_2023() {
	pred_2023=
	pred_ap=
	pred_ape=
	tool time-2023-$1-$2 whatif --profile $T/$2.prof --calibration $cal --json
	[ $rc -eq 0 ] || { fail time-2023-$1-$2 "auditskip whatif exit status $rc"; dump time-2023-$1-$2; return; }
	jflat <$T/time-2023-$1-$2.out >$T/time-2023-$1-$2.flat
	if [ $2 = getpid ]; then
		pred_2023=$(awk -F= -v n=$N '/^syscalls\.[0-9]+\.name=getpid$/ { split($1, k, "."); i = k[2] }
			{ v[$1] = $2 } END { printf "%.2f", v["syscalls." i ".saved_ns_2023"] / n }' $T/time-2023-$1-$2.flat)
		# (the archperm designs' too, where this auditskip has them)
		set -- $(awk -F= -v n=$N '/^syscalls\.[0-9]+\.name=getpid$/ { split($1, k, "."); i = k[2] }
			{ v[$1] = $2 } END {
				for (j = 0; j < 2; j++) {
					f = "syscalls." i (j ? ".saved_ns_archperm_entry" : ".saved_ns_archperm")
					if (f in v) printf "%.2f ", v[f] / n; else printf "- "
				}
			}' $T/time-2023-$1-$2.flat)
	else
		pred_2023=$(awk -F= '/^designs\.[0-9]+\.design=2023$/ { split($1, k, "."); i = k[2] }
			{ v[$1] = $2 } END { printf "%.0f", v["designs." i ".saved_ns"] }' $T/time-2023-$1-$2.flat)
		set -- $(awk -F= '/^designs\.[0-9]+\.design=/ { split($1, k, "."); d[$2] = k[2] }
			{ v[$1] = $2 } END {
				for (j = 0; j < 2; j++) {
					n = j ? "archperm-entry" : "archperm"
					if (n in d) printf "%.0f ", v["designs." d[n] ".saved_ns"]; else printf "- "
				}
			}' $T/time-2023-$1-$2.flat)
	fi
	[ "${1:--}" = - ] || pred_ap=$1
	[ "${2:--}" = - ] || pred_ape=$2
}

# What `advise --never-prefix --profile` predicts the prefix saves on 30-stig
# (loaded as it is), for the getpid loop and one tar run, each profiled
# with no rule loaded and priced with this guest's calibration. Both fit
# the prefix the timed file has (write_stig_file): neither workload runs an
# i386 task, so each leaves the b32 rule out.
t_prefix_predict() {
	tm_load stig
	for w in getpid tar; do
		tool time-prefix-$w advise --never-prefix --profile $T/$w.prof --calibration $cal --json
		jflat <$T/time-prefix-$w.out >$T/time-prefix-$w.flat
		[ $rc -eq 0 ] || { fail time-prefix-$w "auditskip advise exit status $rc"; dump time-prefix-$w; }
	done
	echo "VMTEST RESULT time-stig-prefix-pred variant=$VARIANT" \
		"getpid_pred_ns=$(awk -v s="$(get $T/time-prefix-getpid.flat prediction.prefix_ns)" -v n=$N 'BEGIN { printf "%.2f", s / n }')" \
		"tar_pred_ns_per_run=$(get $T/time-prefix-tar.flat prediction.prefix_ns)" \
		"tar_walks=$(get $T/time-prefix-tar.flat prediction.walks)" \
		"tar_ended=$(get $T/time-prefix-tar.flat prediction.walks_ended_by_prefix)"
	rules_reset
}

# ------------------------------------------------------------- names ---
# What the prefix's prediction leaves out: behind the prefix each name a
# call it ends looks up is no longer checked against the watch rules in its
# inode's hash bucket (doc/never-prefix.md). 30-stig with and without its
# watch lines, each behind its own prefix (fitted to the workload and
# priced with this guest's calibration), under the timed tar and under tar
# with gzip; then gzip's runs with the inode numbers they allocate shifted
# by K files made and removed first, which moves their names among the
# buckets. Unpatched kernel, -icount; a table, held to nothing.
t_names() {
	cal=$T/calibration.json
	rules_reset
	tool names-calibrate calibrate --calibration $cal --max-rules 256 --cpu 0
	[ $rc -eq 0 ] && [ -s $cal ] ||
		{ fail names-calibrate "auditskip calibrate: exit status $rc"; dump names-calibrate; return; }
	cp $RULES_DIR/30-stig.rules $T/watch.rules
	grep -v '^-w' $RULES_DIR/30-stig.rules >$T/nowatch.rules
	tool names-prof-tar profile -o $T/tar.prof -- sh -c "$WL_TAR_TIMED"
	tool names-prof-gzip profile -o $T/gzip.prof -- sh -c "$WL_TAR"
	# Every prefix written before anything is timed (write_stig_file says why).
	for s in watch nowatch; do
		for w in tar gzip; do
			rules_reset
			load_ruleset $T/$s.rules >/dev/null
			tool names-pred-$s-$w advise --never-prefix --profile $T/$w.prof --calibration $cal \
				--json -o $T/$s-$w.prefixed
			[ $rc -eq 0 ] || { fail names-pred-$s-$w "auditskip advise exit status $rc"; dump names-pred-$s-$w; return; }
			eval "pred_${s}_$w=\$(jflat <\$T/names-pred-\$s-\$w.out | sed -n 's/^prediction\.prefix_ns=//p')"
		done
	done
	rules_reset
	sleep 5
	for s in watch nowatch; do
		names_point $s tar 0 $TM_WL_RUNS $TM_PASSES "$WL_TAR_TIMED"
		names_point $s gzip 0 5 3 "$WL_TAR"
	done
	for k in $NAMES_SHIFTS; do
		names_point watch gzip-shift $k 5 3 "$(shifted_gzip $k)"
	done
	# After everything timed (t_time says why).
	for s in watch nowatch; do
		names_audit $s-tar $s tar $TM_WL_RUNS "$WL_TAR_TIMED"
		names_audit $s-gzip $s gzip 5 "$WL_TAR"
	done
	for k in $NAMES_SHIFTS; do
		names_audit watch-gzip-shift-$k watch gzip 5 "$(shifted_gzip $k)"
	done
	rules_reset
}

# shifted_gzip K: the gzip workload after K files made and removed.
shifted_gzip() {
	echo "i=0; while [ \$i -lt $1 ]; do : >/tmp/wl/p\$i; i=\$((i + 1)); done; rm -f /tmp/wl/p*; $WL_TAR"
}

# names_audit POINT SET WORKLOAD RUNS COMMAND: audit's own exit work
# (audit_exit_ns) over RUNS runs of COMMAND under SET and behind its prefix
# for WORKLOAD.
names_audit() {
	_point=$1 _runs=$4
	rules_reset
	load_ruleset $T/$2.rules >/dev/null
	_base=$(audit_exit_ns $4 sh -c "$5") ||
		{ fail names-audit-$1 "audit_exit_ns exit status $?"; return; }
	rules_reset
	auditctl -R $T/$2-$3.prefixed >/dev/null 2>&1
	_pre=$(audit_exit_ns $4 sh -c "$5") ||
		{ fail names-audit-$1 "audit_exit_ns exit status $?"; return; }
	set -- $_base
	_calls=$2 _base=$4
	set -- $_pre
	echo "VMTEST RESULT names-audit-$_point set_ns=$_base prefix_ns=$4 runs=$_runs calls=$_calls prefix_calls=$2"
}

# names_point SET WORKLOAD K RUNS PASSES COMMAND: RUNS runs of COMMAND
# timed under SET and under SET behind its prefix for WORKLOAD (gzip's for
# gzip-shift), in turn, PASSES times; the lowest of each kept.
names_point() {
	_base=
	_pre=
	_pass=0
	while [ $_pass -lt $5 ]; do
		rules_reset
		load_ruleset $T/$1.rules >/dev/null
		_base=$(min "$_base" "$(time_runs $4 sh -c "$6")")
		rules_reset
		auditctl -R $T/$1-${2%-shift}.prefixed >/dev/null 2>&1
		_pre=$(min "$_pre" "$(time_runs $4 sh -c "$6")")
		_pass=$((_pass + 1))
	done
	eval "_pred=\${pred_${1}_${2%-shift}}"
	echo "VMTEST RESULT names-$1-$2-$3 set_ns=$_base prefix_ns=$_pre runs=$4 passes=$5 pred_ns_per_run=$_pred"
}

# ---------------------------------------------------------- design records ---
# abtest=records, on the unpatched kernel and on the archperm kernels: real
# rule sets, each rule keyed on its own (-k wN, N its line: a key changes no
# match, so records per key are records per rule), loaded as far as the
# kernel takes them, and the witness workload (tests/tools/witness.c) that
# fires every rule it can, as the witness suite runs it
# (tests/vm/guest-witness.sh); the records, reduced as guest-records.sh
# reduces them and counted per key of their event (witness --reduce), are
# printed as "VMTEST WREC SET COUNT key=... type=N ..." lines, compared
# across the kernels on the host.

RW=/wit     # a tmpfs no rule set names; the witness's scratch tree is $RW/s
ROWN=/witown

# rec_own_rules: watches, path= perm=x, dir= perm=wa, and -S rules of both
# arches, among them a b32 chmod (i386's 15, x86_64's rt_sigreturn).
rec_own_rules() {
	cat <<EOF
-w $ROWN/watched -p wa
-w $ROWN/tool -p x
-a always,exit -F path=$ROWN/tool2 -F perm=x
-a always,exit -F dir=$ROWN/tree -F perm=wa
-w $ROWN/cfg/ -p wa
-a always,exit -F arch=b32 -S chmod,fchmodat -F auid>=1000 -F auid!=unset
-a always,exit -F arch=b32 -S open,openat,unlink -F dir=$ROWN/tree32
-a always,exit -F arch=b64 -S openat,truncate -F exit=-EPERM
-a always,exit -F arch=b64 -S rename,renameat -F success=1 -F auid=1000
-a always,exit -F arch=b64 -S getpid -F auid=1000
-a always,exit -F arch=b64 -S setuid -F exit=-EPERM
EOF
}

# rec_set NAME FILE: one set's witness run, its records on WREC lines and a
# RESULT records-NAME line (rules loaded and dropped, records, keys fired).
rec_set() {
	witness_keyed "$2" "$RW/$1.keyed"
	witness --prepare "$RW/$1.keyed" >"$RW/$1.prepare" 2>&1
	if ! witness_load "$RW" "$1"; then
		fail records-$1-load "$LOADED lines left of $((LOADED + DROPPED)); auditctl -R: $(grep -i error "$RW/$1.load" 2>/dev/null | head -n 2 | tr '\n' ' ')"
		rules_reset
		return
	fi
	auditctl -l >"$RW/$1.list"
	# The plan before the records are read: planning looks at the paths
	# the rules name, which some rules record.
	if ! witness --save "$RW/$1.batches" "$RW/$1.list" >"$RW/$1.plan" 2>&1; then
		fail records-$1-run "witness --save: $(tail -n 2 "$RW/$1.plan" | tr '\n' ' ')"
		rules_reset
		return
	fi
	# What loading logged while no daemon listened waits in the hold
	# queue: a first listener takes it, the second hears the run only.
	listen "$RW/held" "$RW/ready"
	kill -TERM $LISTENER
	wait $LISTENER
	listen "$RW/raw" "$RW/ready"
	_rp=$LISTENER
	_t0=$(cut -d' ' -f1 /proc/uptime)
	witness --run "$RW/$1.batches" </dev/null >"$RW/$1.out" 2>&1
	_wrc=$?
	kill -TERM $_rp
	wait $_rp
	_rrc=$?
	_t1=$(cut -d' ' -f1 /proc/uptime)
	rules_reset
	if [ $_wrc -ne 0 ] || [ $_rrc -ne 0 ]; then
		fail records-$1-run "witness exit status $_wrc ($(tail -n 2 "$RW/$1.out" | tr '\n' ' ' | cut -c1-300)), audit_records exit status $_rrc ($(head -n 2 "$RW/raw.err" | tr '\n' ' '))"
		return
	fi
	witness --reduce "$RW/raw" >"$RW/$1.recs"
	echo "VMTEST RESULT records-$1 variant=$VARIANT loaded=$LOADED dropped=$DROPPED" \
		"records=$(awk '{ s += $1 } END { print s + 0 }' "$RW/$1.recs") lines=$(wc -l <"$RW/$1.recs")" \
		"keys_fired=$(awk '$3 == "type=1300" && $2 ~ /^key="w/ { print $2 }' "$RW/$1.recs" | sort -u | wc -l)" \
		"cannot=$(grep -c '^CANNOT ' "$RW/$1.plan")" \
		"seconds=$(awk -v a="$_t0" -v b="$_t1" 'BEGIN { printf "%.1f", b - a }')"
	sed "s/^/VMTEST WREC $1 /" "$RW/$1.recs"
	pass records-$1-run
}

t_design_records() {
	for _b in witness witness32 audit_records; do
		command -v $_b >/dev/null || { fail records-tools "$_b missing from the initramfs (make static)"; return; }
	done
	mkdir -p $RW
	mount -t tmpfs tmpfs $RW
	mkdir -p $ROWN/tree $ROWN/tree32 $ROWN/cfg
	: >$ROWN/watched
	: >$ROWN/tool
	: >$ROWN/tool2
	chmod 755 $ROWN/tool $ROWN/tool2
	rec_own_rules >$RW/own.set
	auditctl -b 65536 >/dev/null
	rec_set stig $RULES_DIR/30-stig.rules
	rec_set pci $RULES_DIR/30-pci-dss-v31.rules
	rec_set ospp $RULES_DIR/30-ospp-v42.rules
	rec_set neo23x0 /vmtest/witness/public/neo23x0-auditd.rules
	rec_set own $RW/own.set
	[ -f /vmtest/extra.rules ] && rec_set extra /vmtest/extra.rules
	rules_reset
	t_kernel_log
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

t_safety_records() {
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
	t_predict openat64 openat64 getpid_loop $N
	t_predict getpid getpid getpid_loop $N
	t_predict fullmask fullmask getpid_loop $N
	t_predict stig stig getpid_loop $N
	t_predict getpid-mixed getpid sh -c "ls /vmtest >/dev/null; cat /etc/hostname >/dev/null; getpid_loop 1000"
	t_predict churn churn getpid_loop $N
	t_predict openat64-sh openat64 sh -c "$WL_SH"
	t_predict openat64-tar openat64 sh -c "$WL_TAR"
	t_predict openat64-signal openat64 sh -c "$WL_SIG"
	t_predict mixed-sh mixed sh -c "$WL_SH"
	t_predict mixed-tar mixed sh -c "$WL_TAR"
	t_predict mixed-signal mixed sh -c "$WL_SIG"
	t_predict stig-tar stig sh -c "$WL_TAR"
	t_predict stig-advised stig-advised getpid_loop $N
	t_predict stig-advised-tar stig-advised sh -c "$WL_TAR"
	# Where the archperm designs differ from the series.
	t_predict perm-tar perm sh -c "$WL_TAR"
	t_predict watch-getpid watch getpid_loop $N
	t_predict watch-sh watch sh -c "$WL_SH"
	t_predict arch32-signal arch32chmod sh -c "$WL_SIG"
	if [ -f /vmtest/extra.rules ]; then
		t_predict extra extra getpid_loop $N
		t_predict extra-sh extra sh -c "$WL_SH"
		t_predict extra-tar extra sh -c "$WL_TAR"
		t_predict extra-signal extra sh -c "$WL_SIG"
	fi
	t_safety_records
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
time)
	t_time
	;;
timing)
	t_timing
	;;
names)
	t_names
	;;
corpus)
	setup_busybox
	t_corpus openat64 all
	t_corpus mixed all
	t_corpus arch32 "getpid|int80|getpid32|fork32|rawclone32|threads32|signals32|exec32"
	t_corpus perm "perm|bb-tar|bb-gzip|bb-sh"
	t_kernel_log
	;;
records)
	t_design_records
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
