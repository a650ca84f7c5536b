#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The corpus suite, run by guest-init.sh after the main suite (or alone with
# vmsuite=corpus): real workloads (tests/tools/corpus.c, its i386 build,
# io_uring, busybox tar, gzip and sh) under several rule sets, each run under
# every attach mode this kernel loads. Per syscall, every mode must count the
# walks and skippable walks the reference mode counts (filter-op,
# else filter-syscall: they hook the walk itself), and the reference must
# count what the workload is known to do and what the audit records say.
#
# Result lines:
#   PASS corpus/<ruleset>/<workload>/<mode>
#   FAIL corpus/<ruleset>/<workload>/<mode>: <arch> <syscall>(<nr>) walks got X want Y
# one FAIL line per difference; <mode> "expect" is the workload's own count,
# "records" the audit records, "repeat" a second reference run, "rules"
# every mode's skippable walks against the rule text (rules_diff below).
#
# -t: a workload none of whose results is picked is not run (the records'
# nop run, which every records result needs, always is).

. "${VMTEST_DIR:-/vmtest}/guest-lib.sh"
guest_test_args "$@"
. "$VMTEST_DIR/corpus-workloads.sh"

REC_KEY=corpusrec

# The reference hooks the walk itself (filter-op, else filter-syscall).
# Kernels with neither (5.10) compare against syscall-exit, whose own counts
# are then held to the workloads' expectations and the audit records.
REF=${OUTCOME_MODES%% *}
case " $MODES " in *" syscall-exit "*) REF=${REF:-syscall-exit} ;; esac

# ---------------------------------------------------------------- tables ---
# (sctab and cmptab: tests/lib/common.sh)

# keyed TAB: does the table key entries by arch?
keyed() {
	grep -q '^[a-z0-9_]*:' "$1"
}

# ------------------------------------------------------------ rule text ---
# (rule_bits: corpus-workloads.sh)

# rules_mask RS [TOGGLING_RULES]: the bits of the rules loaded now, read
# from auditctl -l, in $C/RS.bits; the bits of rules that come and go while
# the workloads run (the churn's, given as their text, one a line) in
# $C/RS.toggling. A FAIL when the text names a syscall no table has.
rules_mask() {
	auditctl -l | rule_bits >"$C/$1.bits" &&
		printf '%s\n' "${2:-}" | rule_bits >"$C/$1.toggling" && return 0
	fail "corpus/$1/rules" "$(grep -h '^error' "$C/$1.bits" "$C/$1.toggling" 2>/dev/null | head -n 1)"
	return 1
}

# rules_diff RS TAB: the skippable walks of TAB against the rule text: 0
# for a syscall whose bit a loaded rule sets; all its walks for one no rule
# names (a number past the mask is never in it); anything from 0 to its
# walks for one only a toggling rule names. One difference a line.
rules_diff() {
	awk -v bits="$C/$1.bits" -v tog="$C/$1.toggling" '
	function load(f, a,   l) {
		while ((getline l < f) > 0) {
			if (l == "all") for (i = 0; i < 2032; i++) a[i] = 1
			else if (l != "") a[l + 0] = 1
		}
	}
	BEGIN { load(bits, set); load(tog, toggling) }
	{
		ar = "-"; nr = $1
		if (c = index($1, ":")) { ar = substr($1, 1, c - 1); nr = substr($1, c + 1) }
		if ((nr + 0) in set) { want = 0; why = "a loaded rule names it" }
		else if ((nr + 0) in toggling) next
		else { want = $3; why = "no rule names it: all its walks" }
		if ($4 != want)
			print ar, $2 "(" nr ")", "skippable got", $4, "want", want, "(" why ")"
	}' "$2"
}

# check_rules RS WL: every mode's skippable walks against the rule text.
check_rules() {
	: >"$T/rules.diff"
	for _m in $MODES; do
		[ -s "$T/c.$1.$2.$_m.flat" ] || continue
		rules_diff "$1" "$T/c.$1.$2.$_m.tab" | sed "s/^/$_m: /" >>"$T/rules.diff"
	done
	report_diffs "corpus/$1/$2/rules" "$T/rules.diff"
}

# wl_picked RS WL: does -t pick a result of workload WL under RS?
wl_picked() {
	for _r in $MODES expect repeat rules; do
		test_selected "corpus/$1/$2/$_r" && return 0
	done
	return 1
}

# ------------------------------------------------------------------- runs ---

# run_mode RS WL MODE CMD: auditskip -m MODE -- CMD; the summary flattened
# in $T/c.RS.WL.MODE.flat and tabled in .tab. Returns non-zero (after a
# FAIL line) if the run itself failed.
run_mode() {
	_id=c.$1.$2.$3
	rm -f "$T/$_id.flat" "$T/$_id.tab"
	prepare
	# CMD is split into words on purpose (no globbing: guest-lib has set -f).
	tool "$_id" --json -m "$3" -- $4 </dev/null
	jlast "$T/$_id.out" summary >"$T/$_id.flat"
	sctab "$T/$_id.flat" >"$T/$_id.tab"
	_cs=$(get "$T/$_id.flat" command_status)
	if [ $rc -ne 0 ] || [ ! -s "$T/$_id.flat" ] || [ "$_cs" != 0 ]; then
		fail "corpus/$1/$2/$3" "auditskip exit status $rc, command status ${_cs:-none}"
		dump "$_id"
		return 1
	fi
	case " $OUTCOME_MODES " in
	*" $3 "*)
		# The patch's mask and the sharper what-if masks alike.
		_mm="$(get "$T/$_id.flat" missed_matches) $(get "$T/$_id.flat" missed_arch_mask) $(get "$T/$_id.flat" missed_perm_mask) $(get "$T/$_id.flat" missed_entry_mask)"
		if [ "$_mm" != "0 0 0 0" ]; then
			fail "corpus/$1/$2/$3" "missed matches (patch, arch, perm, entry masks): $_mm"
			return 1
		fi
		;;
	esac
	# No rule changes while the workload runs but the churn's: a mirror the
	# loader keeps is never behind (blind_spots.mirror_lag_walks).
	_lag=$(get "$T/$_id.flat" blind_spots.mirror_lag_walks)
	if [ "$1" != churn ] && [ "$_lag" != null ] && [ "$_lag" != 0 ]; then
		fail "corpus/$1/$2/$3" "$_lag walks judged by a mirror behind the rules, with no rule change"
		return 1
	fi
	return 0
}

# check_expect RS WL EXPECT: the reference's counts against the workload's
# own.
check_expect() {
	_tab=$T/c.$1.$2.$REF.tab
	: >"$T/expect.diff"
	for _e in $3; do
		_k=${_e%%=*}
		_v=${_e#*=}
		_w=${_v%%/*}
		_s=
		[ "$_v" != "$_w" ] && _s=${_v#*/}
		keyed "$_tab" || _k=${_k#*:}
		_ar=${_k%%:*}
		[ "$_ar" = "$_k" ] && _ar=-
		_line=$(awk -v k="$_k" '$1 == k' "$_tab")
		_gw=$(echo "$_line" | awk '{ print $3 + 0 }')
		_gs=$(echo "$_line" | awk '{ print $4 + 0 }')
		_nm=$(echo "$_line" | awk '{ print $2 }')
		if [ "$_gw" != "$_w" ]; then
			echo "$_ar ${_nm:-?}(${_k#*:}) walks got $_gw want $_w" >>"$T/expect.diff"
		fi
		if [ -n "$_s" ] && [ "$_gs" != "$_s" ]; then
			echo "$_ar ${_nm:-?}(${_k#*:}) skippable got $_gs want $_s" >>"$T/expect.diff"
		fi
	done
	[ -n "$3" ] && report_diffs "corpus/$1/$2/expect" "$T/expect.diff"
}

# compare_modes RS WL CMD [REPEAT]: every loadable mode against the reference.
compare_modes() {
	run_mode "$1" "$2" "$REF" "$3" || return
	if [ -n "$4" ]; then
		# Repeat the reference: a workload that is not deterministic cannot
		# be compared across runs, and must say so.
		cp "$T/c.$1.$2.$REF.tab" "$T/c.$1.$2.first.tab"
		if run_mode "$1" "$2" "$REF" "$3"; then
			cmptab "$T/c.$1.$2.first.tab" "$T/c.$1.$2.$REF.tab" >"$T/c.diff"
			report_diffs "corpus/$1/$2/repeat" "$T/c.diff"
		fi
	fi
	for _m in $MODES; do
		[ "$_m" = "$REF" ] && continue
		run_mode "$1" "$2" "$_m" "$3" || continue
		cmptab "$T/c.$1.$2.$REF.tab" "$T/c.$1.$2.$_m.tab" >"$T/c.diff"
		[ "$_m" = tracepoint ] && uring_blind_spot "$1" "$2"
		report_diffs "corpus/$1/$2/$_m" "$T/c.diff"
	done
	check_rules "$1" "$2"
}

# Tracepoint mode's named blind spot: each io_uring op run inline in
# io_uring_enter walks the exit list once more, unseen by that mode. Its
# differences on io_uring_enter are that blind spot only if the report
# counted it (blind_spots.uring_enter_walks must be the walks of
# io_uring_enter the mode saw) and if the walks it missed are the ops the
# workload submitted: uring_openat counts them ("N ops submitted" on its
# stderr), one op a submit, each filtered exactly once (its warm-up keeps
# ops off io-wq), so the reference's io_uring_enter walks less tracepoint's
# must be that count, no more and no fewer.
uring_ops() {
	sed -n 's/^uring_openat: \([0-9][0-9]*\) ops submitted$/\1/p' "$T/c.$1.$2.$3.err" | tail -n 1
}

uring_blind_spot() {
	_ops=$(uring_ops "$1" "$2" tracepoint)
	_refops=$(uring_ops "$1" "$2" "$REF")
	grep -q ' io_uring_enter(426) walks ' "$T/c.diff" || [ -n "$_ops$_refops" ] || return 0
	_gap=$(awk '$2 == "io_uring_enter(426)" && $3 == "walks" { print $7 - $5 }' "$T/c.diff")
	_gap=${_gap:-0}
	_seen=$(awk '$1 == "x86_64:426" || $1 == "426" { print $3 }' "$T/c.$1.$2.tracepoint.tab")
	_bs=$(get "$T/c.$1.$2.tracepoint.flat" blind_spots.uring_enter_walks)
	_bad=
	if [ "${_bs:-none}" != "${_seen:-0}" ]; then
		echo "- blind_spots.uring_enter_walks got ${_bs:-none} want ${_seen:-0} (io_uring_enter walks seen)" >>"$T/c.diff"
		_bad=1
	fi
	if [ -z "$_ops" ] || [ "$_ops" != "$_refops" ]; then
		echo "- io_uring_enter walks $_gap short of $REF's, but the workload reported ${_ops:-no} ops submitted here and ${_refops:-no} under $REF" >>"$T/c.diff"
		_bad=1
	elif [ "$_gap" != "$_ops" ]; then
		echo "- io_uring_enter walks $_gap short of $REF's, want the $_ops ops the workload submitted" >>"$T/c.diff"
		_bad=1
	fi
	[ -z "$_bad" ] || return 0
	log "corpus/$1/$2/tracepoint: blind spot counted, $_gap walks for the $_ops ops submitted: $(grep ' io_uring_enter(426) walks ' "$T/c.diff")"
	grep -v ' io_uring_enter(426) walks ' "$T/c.diff" >"$T/c.diff.rest"
	mv "$T/c.diff.rest" "$T/c.diff"
}

# ------------------------------------------------------------- rule sets ---

load() {
	rules_reset
	# The perm rule's directory, there even when -t left out every
	# workload before it (prepare makes it too).
	mkdir -p "$D"
	for _r in "$@"; do
		# (rule text split into words on purpose)
		auditctl $_r >/dev/null || { fail "corpus/rules" "auditctl $_r"; return 1; }
	done
}

ruleset() {
	_rs=$1
	_sel=$2
	_repeat=$3
	shift 3
	load "$@" || return
	log "corpus/$_rs: $(auditctl -l | tr '\n' ';')"
	rules_mask "$_rs" || return
	workloads_of "$_rs" "$_sel" >"$T/wl.list"
	while IFS='|' read -r _wl _cmd _exp; do
		wl_picked "$_rs" "$_wl" || continue
		_rep=
		case " $_repeat " in *" $_wl "*) _rep=1 ;; esac
		compare_modes "$_rs" "$_wl" "$_cmd" $_rep
		[ "$_rs" = full ] && check_expect "$_rs" "$_wl" "$_exp"
	done <"$T/wl.list"
	rules_reset
}

# Records: full-mask rules that match every syscall of the workloads (by
# their executables) and nothing else; audit_records counts the SYSCALL
# records per (arch, syscall). The loader's child makes a few syscalls of
# its own between fork and exec (walked, not recorded: its exe is
# auditskip); the nop workload measures them, and every other workload must
# show the same walks-minus-records.
# records_tab RECORDS KEYED -> KEY COUNT. A URINGOP record stands for the
# exit-list walk __audit_uring_exit() makes for an op run inline by
# io_uring_enter (the corpus' io_uring workload is native).
records_tab() {
	awk -v keyed="$2" '
	$1 == "uringop" { $1 = "x86_64"; $2 = 426 }
	{ n[keyed ? $1 ":" $2 : $2] += $3 }
	END { for (k in n) print k, n[k] }' "$1"
}

run_records() {
	_wl=$1
	_cmd=$2
	rm -f "$C/rec.ready"
	audit_records "$C/rec.ready" $REC_KEY >"$C/rec.$_wl" 2>"$C/rec.err" &
	_rp=$!
	_t=0
	while [ ! -e "$C/rec.ready" ] && [ $_t -lt 600 ]; do
		sleep 0.1
		_t=$((_t + 1))
	done
	run_mode records "$_wl" "$REF" "$_cmd"
	_ok=$?
	kill -TERM $_rp
	wait $_rp
	_rrc=$?
	if [ $_rrc -ne 0 ]; then
		fail "corpus/records/$_wl/records" "audit_records exit status $_rrc: $(head -n 3 "$C/rec.err")"
		return 1
	fi
	[ $_ok -eq 0 ]
}

# diff_walks_records WL: walks minus records, per key -> KEY DIFF NAME
diff_walks_records() {
	_tab=$T/c.records.$1.$REF.tab
	_k=0
	keyed "$_tab" && _k=1
	records_tab "$C/rec.$1" $_k >"$C/rec.$1.tab"
	awk '
	FILENAME == ARGV[1] { w[$1] = $3; name[$1] = $2; keys[$1] = 1; next }
	{ r[$1] = $2; keys[$1] = 1 }
	END { for (k in keys) print k, w[k] - r[k], (k in name ? name[k] : "?"), w[k] + 0, r[k] + 0 }
	' "$_tab" "$C/rec.$1.tab" | sort
}

# records_picked: does -t pick any records result?
records_picked() {
	workloads_all >"$T/wl.all"
	while IFS='|' read -r _wl _cmd _exp; do
		test_selected "corpus/records/$_wl/$REF" && return 0
	done <"$T/wl.all"
	return 1
}

t_records() {
	records_picked || return
	load "-a always,exit -S all -F exe=/bin/corpus -k $REC_KEY" \
		"-a always,exit -S all -F exe=/bin/corpus32 -k $REC_KEY" \
		"-a always,exit -S all -F exe=/bin/uring_openat -k $REC_KEY" \
		"-a always,exit -S all -F exe=$BB -k $REC_KEY" || return
	# perm's execve of a copy: created before the rule needs it.
	prepare
	auditctl -a always,exit -S all -F exe=$D/x -k $REC_KEY >/dev/null ||
		{ fail corpus/rules "exe=$D/x rule"; return; }
	# The backlog (64 by default) must not drop records while the reader
	# catches up; audit_records checks the lost counter all the same.
	auditctl -b 65536 >/dev/null
	log "corpus/records: $(auditctl -l | tr '\n' ';')"
	if ! run_records nop "/bin/corpus nop"; then
		rules_reset
		return
	fi
	diff_walks_records nop | awk '$2 != 0 { print $1, $2 }' >"$C/prelude"
	log "corpus/records: the loader's child before exec (walks minus records): $(tr '\n' ' ' <"$C/prelude")"
	workloads_all >"$T/wl.list"
	while IFS='|' read -r _wl _cmd _exp; do
		test_selected "corpus/records/$_wl/$REF" || continue
		run_records "$_wl" "$_cmd" || continue
		diff_walks_records "$_wl" | awk -v pre="$C/prelude" '
		BEGIN { while ((getline l < pre) > 0) { split(l, a, " "); p[a[1]] = a[2] } }
		# Numbers past the mask (a tracer skipping a syscall makes it -1)
		# are walked, but audit_in_mask() lets no rule match them.
		$1 ~ /(^|:)2048$/ { next }
		{
			k = $1; want = $5 + p[k]
			if ($4 != want) {
				ar = "-"; nr = k
				if (c = index(k, ":")) { ar = substr(k, 1, c - 1); nr = substr(k, c + 1) }
				print ar, $3 "(" nr ")", "walks got", $4, "want", want, "(records " $5 ")"
			}
		}' >"$T/c.diff"
		report_diffs "corpus/records/$_wl/$REF" "$T/c.diff"
	done <"$T/wl.list"
	rules_reset
}

# Rule churn: a background loop adds and deletes rules while the workload
# runs. The churned rules name a syscall the workloads never make (mknodat)
# or one a permanent rule names already (openat), so the bits of the
# workloads' syscalls never change and the counts stay deterministic while
# the list and the mirror change under the walks.
CHURN_RULES="-a always,exit -F arch=b64 -S mknodat -F uid=59998 -k churn
-a always,exit -F arch=b64 -S openat -F uid=59997 -k churn"

churn_start() {
	rm -f "$C/churn.stop"
	(
		while [ ! -e "$C/churn.stop" ]; do
			# (rule text split into words on purpose)
			echo "$CHURN_RULES" | while read -r _r; do auditctl $_r; done
			echo "$CHURN_RULES" | while read -r _r; do auditctl -d ${_r#-a }; done
		done
	) >/dev/null 2>&1 &
	CHURN_PID=$!
}

churn_stop() {
	: >"$C/churn.stop"
	wait $CHURN_PID
}

# The workloads run under the churn.
CHURN_WORKLOADS="getpid|signals|threads|fork|exec|fork32"

t_churn() {
	load "-a always,exit -F arch=b64 -S openat -F uid=59999 -k base" || return
	rules_mask churn "$CHURN_RULES" || return
	churn_start
	workloads_of churn "$CHURN_WORKLOADS" >"$T/wl.list"
	while IFS='|' read -r _wl _cmd _exp; do
		wl_picked churn "$_wl" || continue
		compare_modes churn "$_wl" "$_cmd"
	done <"$T/wl.list"
	churn_stop
	rules_reset
}

# Sleeping across rule changes: the workload waits in ppoll, then in
# rt_sigsuspend; while it sleeps the rules change, and a signal wakes it.
# The patched kernel tests the bit when the walk begins, at syscall exit:
# ppoll's rule, there at entry, is gone by then (skippable);
# rt_sigsuspend's, absent at entry, has come (not skippable).
wait_file() {
	_t=0
	while [ ! -s "$1" ] && [ $_t -lt 1200 ]; do
		sleep 0.1
		_t=$((_t + 1))
	done
	[ -s "$1" ]
}

sleep_run() {
	_m=$1
	_id=c.sleep.sleep.$_m
	load "-a always,exit -F arch=b64 -S openat -F uid=59999 -k base" \
		"-a always,exit -F arch=b64 -S ppoll -F uid=59999 -k sl" || return 1
	rm -f "$C/r1" "$C/r2"
	timeout $TOOL_TIMEOUT auditskip --json -m "$_m" -- /bin/corpus sleep "$C/r1" "$C/r2" \
		>"$T/$_id.out" 2>"$T/$_id.err" </dev/null &
	_ap=$!
	# Each sleeper wakes 2 s after its rule change: where the loader keeps
	# the mirror (tracepoint mode) it follows a change once it hears of it
	# (doc/limitations.md); this is about the walk at the sleeper's exit
	# being judged by the mask then in force, as the patched kernel does.
	if wait_file "$C/r1"; then
		auditctl -d always,exit -F arch=b64 -S ppoll -F uid=59999 -k sl
		sleep 2
		kill -USR1 "$(cat "$C/r1")"
	fi
	if wait_file "$C/r2"; then
		auditctl -a always,exit -F arch=b64 -S rt_sigsuspend -F uid=59999 -k sl
		sleep 2
		kill -USR1 "$(cat "$C/r2")"
	fi
	wait $_ap
	rc=$?
	rules_reset
	jlast "$T/$_id.out" summary >"$T/$_id.flat"
	sctab "$T/$_id.flat" >"$T/$_id.tab"
	_cs=$(get "$T/$_id.flat" command_status)
	if [ $rc -ne 0 ] || [ "$_cs" != 0 ]; then
		fail "corpus/sleep/sleep/$_m" "auditskip exit status $rc, command status ${_cs:-none}"
		dump "$_id"
		return 1
	fi
	case " $OUTCOME_MODES " in
	*" $_m "*)
		_mm=$(get "$T/$_id.flat" missed_matches)
		[ "$_mm" = 0 ] || { fail "corpus/sleep/sleep/$_m" "missed_matches $_mm"; return 1; }
		;;
	esac
	return 0
}

# The reference's walks/skippable of ppoll, rt_sigsuspend and rt_sigreturn.
SLEEP_EXPECT="x86_64:271=1/1 x86_64:130=1/0 x86_64:15=2/2"

t_sleep() {
	wl_picked sleep sleep || return
	sleep_run "$REF" || return
	check_expect sleep sleep "$SLEEP_EXPECT"
	for _m in $MODES; do
		[ "$_m" = "$REF" ] && continue
		sleep_run "$_m" || continue
		cmptab "$T/c.sleep.sleep.$REF.tab" "$T/c.sleep.sleep.$_m.tab" >"$T/c.diff"
		report_diffs "corpus/sleep/sleep/$_m" "$T/c.diff"
	done
}

# The rule sets and tests, in the order they run: RS SELECTION REPEATED
# RULES... for each ruleset (workloads_of, and the workloads whose reference
# run is repeated).
suite_plan() {
	ruleset full all "bb-tar bb-gzip bb-sh" "-a exit,always -S all -F uid=59999 -k full"
	t_records
	ruleset perm "perm|bb-tar|bb-gzip|bb-sh" "" "-a always,exit -F dir=$D -F perm=rwxa -k p"
	ruleset arch32 "getpid|int80|getpid32|fork32|rawclone32|threads32" "" \
		"-a always,exit -F arch=b32 -S getpid -k a32"
	ruleset arch64 "getpid|int80|getpid32|fork32|rawclone32|threads32" "" \
		"-a always,exit -F arch=b64 -S getpid -k a64"
	t_churn
	t_sleep
}

# compared_names RS WL [REPEAT]: compare_modes's results.
compared_names() {
	[ -z "${3:-}" ] || echo "corpus/$1/$2/repeat"
	for _m in $MODES; do
		[ "$_m" = "$REF" ] || echo "corpus/$1/$2/$_m"
	done
	echo "corpus/$1/$2/rules"
}

# suite_tests: suite_plan's results, each step of it declaring what it
# runs: ruleset and t_churn compare_modes for each workload (and, under
# full, check_expect where the workload has expectations), t_records the
# records of each workload, t_sleep check_expect and the other modes.
suite_tests() {
	[ -n "$REF" ] || return 0
	ruleset() {
		workloads_of "$1" "$2" | while IFS='|' read -r _wl _cmd _exp; do
			case " $3 " in
			*" $_wl "*) compared_names "$1" "$_wl" 1 ;;
			*) compared_names "$1" "$_wl" ;;
			esac
			[ "$1" != full ] || [ -z "$_exp" ] || echo "corpus/$1/$_wl/expect"
		done
	}
	t_records() { workloads_all | while IFS='|' read -r _wl _; do echo "corpus/records/$_wl/$REF"; done; }
	t_churn() {
		workloads_of churn "$CHURN_WORKLOADS" | while IFS='|' read -r _wl _; do compared_names churn "$_wl"; done
	}
	t_sleep() {
		[ -z "$SLEEP_EXPECT" ] || echo corpus/sleep/sleep/expect
		for _m in $MODES; do
			[ "$_m" = "$REF" ] || echo "corpus/sleep/sleep/$_m"
		done
	}
	suite_plan
}
declared

# ------------------------------------------------------------------- main ---

log "corpus: kernel $KVER, modes $MODES, reference ${REF:-none}"
if [ -z "$REF" ]; then
	fail corpus/reference "no mode to take as the reference is expected on $KVER"
	exit 1
fi
for _b in auditskip corpus corpus32 audit_records uring_openat; do
	if ! command -v $_b >/dev/null; then
		fail corpus/tools "$_b missing from the initramfs (make static)"
		exit 1
	fi
done
auditctl -e 1 >/dev/null
setup_busybox

suite_plan
rules_reset
summary_line
