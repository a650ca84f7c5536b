#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Rule reloads (vmsuite=reload). Every mode this kernel loads counts at once,
# one auditskip each, beside the outcome mode, the reference:
#
#   reload-<set>-<mode>   a workload's process (tests/tools/corpus.c
#                         filework: file create, write, chmod, chown,
#                         rename, stat, unlink, getpid) while <set> is
#                         reloaded as augenrules does it (auditctl -R of -D
#                         and then every rule, here with a rule added and
#                         deleted at the end): stig, Debian's 30-stig
#                         50 times; watches, its -w lines alone (no exit
#                         rule but the watches) 50 times; storm, an openat
#                         rule added and deleted 1,000 times in one
#                         auditctl -R beside a mknodat rule.
#                         The reference held to the workload's own tally
#                         (the rounds it made, each one call of each of
#                         its syscalls: filework_calls) and to the rule
#                         text (a syscall no loaded line names: all its
#                         walks skippable); see check_reference.
#                         Per syscall, the walks each mode counts must be
#                         the reference's, but for the BPF runs the kernel
#                         skipped; the skippable walks too, but for those
#                         and, where BPF keeps the mirror, one walk for each
#                         time a rule change flips that syscall's bit
#                         (rule_flips), and where the loader keeps it,
#                         the walks it counted as judged by a mirror behind
#                         the rules (blind_spots.mirror_lag_walks) and one
#                         a mirror write (t_reload says why). No match
#                         missed, no "stale: yes".
#   quick-<mode>          whole machine: 12 rules loaded, sleepers that
#                         entered while they were, auditctl -D, a rule added
#                         and deleted between two listings, a storm: then a
#                         getpid loop must walk 0 times and the verdict be
#                         "no", with no stale syscall. (guest-stale.sh
#                         holds the verdict to "yes" where a watch really
#                         was removed.)

# shellcheck source=guest-lib.sh
. "${VMTEST_DIR:-/vmtest}/guest-lib.sh"
guest_test_args "$@"
# rule_awk (the patch's mask from rule text) and filework_calls (the tally)
# shellcheck source=corpus-workloads.sh
. "$VMTEST_DIR/corpus-workloads.sh"

REF=${OUTCOME_MODES%% *}
RELOADS=50
NR_RT_SIGSUSPEND=130
PROBE="-F arch=b64 -S getpid -F uid=4242 -k vmreload"

# per_mode NAME: NAME-<mode> for each mode, the results a test gives.
per_mode() {
	for _m in $MODES; do printf '%s ' "$1-$_m"; done
}

# The rule sets t_reload reloads, then the quick reloads; each test gives
# one result per mode (per_mode).
RELOAD_SETS="stig watches storm"
suite_plan() {
	for S in $RELOAD_SETS; do run_test "$(per_mode reload-$S)" t_reload $S; done
	run_test "$(per_mode quick)" t_quick
}

# suite_tests: audit-enable and suite_plan's results, where there is a
# reference mode to hold the others to.
suite_tests() {
	echo audit-enable
	[ -n "$REF" ] || return 0
	run_test() { for _n in $1; do echo "$_n"; done; }
	suite_plan
}
declared

# wait_ready FILE: waits up to 60 s for the workload's pid in FILE.
wait_ready() {
	_t=0
	until [ -s "$1" ]; do
		[ $_t -gt 600 ] && return 1
		sleep 0.1
		_t=$((_t + 1))
	done
}

# reload_lines: -D, the rule lines on stdin this guest takes (a dir= rule on
# a directory it lacks would fail a whole auditctl -R), each tried on its
# own, and the probe rule added and deleted.
reload_lines() {
	echo -D
	while read -r _line; do
		auditctl $_line >/dev/null 2>&1 && echo "$_line"
	done
	echo "-a always,exit $PROBE"
	echo "-d always,exit $PROBE"
	rules_reset
}

# reload_file SET: $T/SET.load, one auditctl -R's worth, and how many
# times it is loaded.
reload_file() {
	case "$1" in
	stig)
		grep -E '^-(a|w) ' "$RULES_DIR/30-stig.rules" | reload_lines >"$T/stig.load"
		echo $RELOADS
		;;
	watches)
		grep -E '^-w ' "$RULES_DIR/30-stig.rules" | reload_lines >"$T/watches.load"
		echo $RELOADS
		;;
	storm)
		# The workload's openat is skippable only while the storm's rule
		# is out; the mknodat rule keeps contexts non-dummy meanwhile.
		_i=0
		while [ $_i -lt 1000 ]; do
			echo "-a always,exit -F arch=b64 -S openat -F uid=4242424 -k vmstorm"
			echo "-d always,exit -F arch=b64 -S openat -F uid=4242424 -k vmstorm"
			_i=$((_i + 1))
		done >"$T/pairs.rules"
		{
			echo "-a always,exit -F arch=b64 -S mknodat -F uid=4242425 -k vmstorm"
			cat "$T/pairs.rules"
		} >"$T/storm.load"
		echo 1
		;;
	esac
}

# compare_walks REF_TAB TAB: per syscall (rt_sigsuspend left out: the
# workload entered it before the counters attached, and tracepoint mode
# counts only syscalls that entered while counting), the sum of the walks'
# differences, then of the skippable walks', as "WALKS SKIPPABLE"; the
# differences themselves go to $T/c.diff.
compare_walks() {
	cmptab "$1" "$2" | grep -v "($NR_RT_SIGSUSPEND) " >"$T/c.diff"
	awk '{ d = $5 - $7; if (d < 0) d = -d }
		$3 == "walks" { w += d } $3 == "skippable" { s += d }
		END { print w + 0, s + 0 }' "$T/c.diff"
}

# show_diffs NAME: the first differences behind NAME's failure.
show_diffs() {
	head -n 20 "$T/c.diff" | while read -r _line; do log "$1: $_line"; done
}

# rule_flips SET LOADS TAB...: replays LOADS loads of $T/SET.load from no
# rules, as the kernel took them, and prints for each syscall number in the
# TABs (the counted syscalls of this machine's arch) "NR FLIPS EVER":
# how many times a line changed whether the patch's mask has its bit, and
# whether any ever set it; then "windows N": the stretches with no rule at
# all (the first, before the load's first rule, and one after each line
# that left none). While no rule is loaded audit_n_rules is 0, a syscall
# entering then gets a dummy context and no walk: the workload's calls then
# are not walked.
rule_flips() {
	_set=$1
	_loads=$2
	shift 2
	rule_awk '
	FILENAME != loadfile {
		k = $1
		if (c = index(k, ":")) { if (substr(k, 1, c - 1) != machine) next; k = substr(k, c + 1) }
		tracked[k + 0] = 1
		next
	}
	{ line[++nl] = $0 }
	function covers(r, x) { return (r, "all") in rb || (r, x) in rb }
	END {
		if (bad) exit 1
		for (i = 1; i <= nl; i++) {
			l = line[i]
			split(l, f, " ")
			key[i] = l
			sub(/^-[ad] /, "", key[i])
			isrule[i] = (f[1] == "-a" || f[1] == "-w")
			isdel[i] = f[1] == "-d"
			if (line_bits(l, b)) {
				exitrule[i] = 1
				for (x in b) rb[key[i], x] = 1
			}
		}
		if (bad) exit 1
		nrules = 0
		windows = 1
		for (L = 1; L <= loads; L++)
			for (i = 1; i <= nl; i++) {
				if (line[i] == "-D") {
					split("", active)
					split("", cnt)
					if (nrules) windows++
					nrules = 0
				} else if (isrule[i]) {
					active[key[i]]++
					nrules++
					if (exitrule[i])
						for (x in tracked) if (covers(key[i], x)) cnt[x]++
				} else if (isdel[i] && active[key[i]] > 0) {
					active[key[i]]--
					nrules--
					if (exitrule[i])
						for (x in tracked) if (covers(key[i], x)) cnt[x]--
					if (!nrules) windows++
				}
				for (x in tracked) {
					now = cnt[x] > 0
					if (now != was[x]) flips[x]++
					if (now) ever[x] = 1
					was[x] = now
				}
			}
		for (x in tracked) print x, flips[x] + 0, ever[x] + 0
		print "windows", windows
	}' loadfile="$T/$_set.load" loads="$_loads" "$@" "$T/$_set.load"
}

# check_reference SET FLAT TAB: the reference's counts against the
# workload's tally and the rule text; the problems, one a line, on stdout.
# The workload made ROUNDS rounds, one call of each of its syscalls a round
# (filework_calls). A call is walked unless audit_n_rules was 0 when it
# entered: so per syscall walks <= calls, and the calls not walked, u, come
# from the stretches with no rule, each a run of consecutive calls of the
# rounds, in which each syscall is made k or k + 1 times: u of two syscalls
# differ by at most the number of stretches, and by one more for each run
# of the reference's programs the kernel skipped (a walk it did not see:
# the kernel's own recursion_misses). A syscall whose bit no line of the
# load sets is skippable in every walk.
check_reference() {
	_rounds_made=$(cat "$T/rounds")
	case "$_rounds_made" in '' | *[!0-9]*)
		echo "the workload printed no rounds: '$_rounds_made'"
		return
		;;
	esac
	[ "$_rounds_made" -gt 0 ] || echo "the workload made no round"
	if ! filework_calls "$_rounds_made" >"$T/calls"; then
		echo "no tally of corpus filework's calls for $(uname -m)"
		return
	fi
	awk -v windows="$(sed -n 's/^windows //p' "$T/$1.flips")" -v machine="$NATIVE_ARCH" \
		-v skipped="$(get "$2" blind_spots.recursion_misses)" '
	FILENAME == ARGV[1] { calls[$1] = $2; extra[$1] = $3 != ""; next }
	FILENAME == ARGV[2] { if ($1 != "windows") ever[$1] = $3; next }
	{
		# (the workload is native: rule_flips replays its arch only)
		k = $1
		if (c = index(k, ":")) { if (substr(k, 1, c - 1) != machine) next; k = substr(k, c + 1) }
		walks[k] = $3; skip[k] = $4; name[k] = $2
		if (!ever[k] && $4 != $3)
			print name[k] "(" k ") skippable " $4 " of " $3 " walks, though no rule of the load names it"
	}
	END {
		for (k in calls) {
			w = walks[k] + 0
			max = calls[k] + extra[k]
			if (w > max)
				print ((k in name) ? name[k] : "?") "(" k ") walked " w " times, more than the " max " calls the workload made"
			if (extra[k]) continue
			u = calls[k] - w
			if (!n++ || u < umin) { umin = u; kmin = k }
			if (n == 1 || u > umax) { umax = u; kmax = k }
		}
		if (umax - umin > windows + skipped)
			print "calls not walked: " umax " of " name[kmax] "(" kmax ")" ", " umin " of " name[kmin] "(" kmin "); more apart than the " windows " stretches with no rule and the " skipped + 0 " BPF runs skipped"
	}' "$T/calls" "$T/$1.flips" "$3"
}

# compare_skippable FLIPS SLACK: per syscall of $T/c.diff, the skippable
# walks apart from the reference's by more than the flips of its bit and
# SLACK (the BPF runs the kernel skipped), one a line.
compare_skippable() {
	awk -v slack="$2" '
	FILENAME == ARGV[1] { if ($1 != "windows") flips[$1] = $2; next }
	$3 == "skippable" {
		nr = $2; sub(/^.*\(/, "", nr); sub(/\)$/, "", nr)
		d = $5 - $7; if (d < 0) d = -d
		if (d > flips[nr] + slack)
			print $2, "skippable", $5, "want", $7, "(" d " apart; its bit flipped " flips[nr] + 0 " times, BPF runs skipped " slack ")"
	}' "$1" "$T/c.diff"
}

t_reload() {
	_set=$1
	_rounds=$(reload_file "$_set")
	rules_reset
	mkdir -p "$T/work"
	rm -f "$T/ready"
	corpus filework "$T/work" "$T/ready" >"$T/rounds" &
	_w=$!
	if ! wait_ready "$T/ready"; then
		kill $_w 2>/dev/null
		for _m in $MODES; do fail reload-$_set-$_m "the workload never got ready"; done
		return
	fi
	_pids=
	for _m in $MODES; do
		auditskip --mode "$_m" --json -p $_w >"$T/reload-$_set-$_m.out" 2>"$T/reload-$_set-$_m.err" &
		_pids="$_pids $!"
	done
	for _m in $MODES; do
		if ! started "$T/reload-$_set-$_m.out"; then
			kill $_w $_pids 2>/dev/null
			fail reload-$_set-$_m "auditskip did not start"
			dump reload-$_set-$_m
			return
		fi
	done
	kill -USR1 $_w
	_i=0
	_failed=0
	while [ $_i -lt "$_rounds" ]; do
		auditctl -R "$T/$_set.load" >/dev/null 2>&1 || _failed=$((_failed + 1))
		_i=$((_i + 1))
	done
	kill -USR1 $_w
	wait $_w
	_wrc=$?
	set -- $_pids
	for _m in $MODES; do
		wait $1
		echo $? >"$T/reload-$_set-$_m.rc"
		shift
		jlast "$T/reload-$_set-$_m.out" summary >"$T/reload-$_set-$_m.flat"
		sctab "$T/reload-$_set-$_m.flat" >"$T/reload-$_set-$_m.tab"
	done
	rules_reset
	# Each load's lines, -D included.
	_changes=$((_rounds * $(wc -l <"$T/$_set.load")))
	_flips_ok=1
	_tabs=
	for _m in $MODES; do _tabs="$_tabs $T/reload-$_set-$_m.tab"; done
	# ($_tabs split into words on purpose)
	if ! rule_flips "$_set" "$_rounds" $_tabs >"$T/$_set.flips"; then
		_flips_ok=0
		log "reload-$_set: $(grep -m 1 '^error' "$T/$_set.flips")"
	fi
	log "reload-$_set: $(cat "$T/rounds") rounds of work; per syscall: number, bit flips, ever set; $(tr '\n' ' ' <"$T/$_set.flips")"
	for _m in $MODES; do
		_name=reload-$_set-$_m
		_f=$T/$_name.flat
		_rc=$(cat "$T/$_name.rc")
		_missed=$(get "$_f" missed_matches)
		_lag=$(get "$_f" blind_spots.mirror_lag_walks)
		_skipped=$(($(get "$T/reload-$_set-$REF.flat" blind_spots.recursion_misses) + $(get "$_f" blind_spots.recursion_misses)))
		_walks=$(scsum "$_f" walks)
		: >"$T/problems"
		if [ "$_m" = "$REF" ]; then
			set -- 0 0
			[ $_flips_ok = 1 ] && check_reference "$_set" "$_f" "$T/$_name.tab" >"$T/problems"
		else
			set -- $(compare_walks "$T/reload-$_set-$REF.tab" "$T/$_name.tab")
		fi
		# How far the skippable walks may be from the reference's. Where
		# BPF keeps the mirror, per syscall: the BPF runs skipped, and
		# one walk each time a rule change flips the syscall's bit. Both
		# modes see the same mirror change, one walk at a time (the
		# workload has one thread): the walk that began before it and
		# was classified after it, by one of them, is the only one they
		# can judge apart; a change that leaves the bit alone changes no
		# verdict of that syscall. Where the loader keeps it and counts
		# its lag: the walks counted as judged by a mirror behind, and
		# one a mirror write (BPF may read one half written); the
		# storm's counts come back to the same value with another list
		# (ABA), which the count cannot see, so there the rule changes
		# too.
		_why=
		if [ "$_m" = "$REF" ]; then
			_slack=0
		elif [ "$_lag" = null ]; then
			_slack=0
			[ $_flips_ok = 1 ] && compare_skippable "$T/$_set.flips" "$_skipped" >"$T/problems"
			_why="per syscall, its bit's flips and the $_skipped BPF runs skipped"
		elif [ "$_set" = storm ]; then
			_slack=$((_lag + _changes))
			_why="the $_lag walks judged by a mirror behind and the $_changes rule changes"
		else
			_slack=$((_lag + $(get "$_f" mirror_generation)))
			_why="the $_lag walks judged by a mirror behind and the $(get "$_f" mirror_generation) mirror writes"
		fi
		log "$_name: $(cat "$T/rounds") rounds of work, $_rounds loads, $_changes rule changes; $_walks walks, $(scsum "$_f" skippable_walks) skippable; against $REF: walks $1 apart (BPF runs skipped $_skipped), skippable $2 apart (allowed: ${_why:-none, the reference}); missed $_missed, stale $(get "$_f" stale.state) ($(get "$_f" stale.reason))"
		if [ "$_rc" != 0 ] || [ "$_wrc" != 0 ] || [ ! -s "$_f" ]; then
			fail $_name "auditskip exit status $_rc, workload $_wrc"
			dump $_name
		elif [ "$_failed" != 0 ]; then
			fail $_name "$_failed of $_rounds loads of $_set failed (auditctl -R)"
		elif [ $_flips_ok != 1 ]; then
			fail $_name "the load's rule text could not be read: $(grep -m 1 '^error' "$T/$_set.flips")"
		elif [ "${_walks:-0}" -le 0 ]; then
			fail $_name "no walk counted"
		elif [ -s "$T/problems" ]; then
			fail $_name "$(head -n 1 "$T/problems")"
			head -n 20 "$T/problems" | while read -r _line; do log "$_name: $_line"; done
		elif [ "$1" -gt "$_skipped" ]; then
			fail $_name "walks $1 apart from $REF's, more than the $_skipped BPF runs the kernel skipped"
			show_diffs $_name
		elif [ "$_lag" != null ] && [ "$2" -gt "$_slack" ]; then
			fail $_name "skippable walks $2 apart from $REF's, more than $_why"
			show_diffs $_name
		elif [ "$_missed" != 0 ] && [ "$_missed" != null ]; then
			fail $_name "missed matches $_missed"
		elif [ "$(get "$_f" stale.state)" = yes ]; then
			fail $_name "stale: yes on a kernel that is not stale"
		else
			pass $_name "$_walks walks; walks $1, skippable $2 apart from $REF's"
		fi
	done
}

# The reload that once gave a false "yes" (tests/host/exactness.sh
# stale-reload), in every mode at once.
t_quick() {
	rules_reset
	reload_file storm >/dev/null
	_pids=
	for _m in $MODES; do
		auditskip --mode "$_m" --json >"$T/quick-$_m.out" 2>"$T/quick-$_m.err" &
		_pids="$_pids $!"
	done
	for _m in $MODES; do
		if ! started "$T/quick-$_m.out"; then
			kill $_pids 2>/dev/null
			fail quick-$_m "auditskip did not start"
			dump quick-$_m
			return
		fi
	done
	_setup=ok
	load_openat_rules 12 || _setup="the 12 rules did not all load"
	sleep 2 &
	_s1=$!
	sleep 2 &
	_s2=$!
	sleep 0.3
	rules_reset
	auditctl -a always,exit $PROBE >/dev/null && auditctl -d always,exit $PROBE >/dev/null
	auditctl -R "$T/pairs.rules" >/dev/null || _setup="the storm did not load"
	wait $_s1 $_s2
	# Quiet for three listings (one a second): the last intervals end undisturbed.
	sleep 3
	getpid_loop 20000
	sleep 1.5
	kill -INT $_pids
	set -- $_pids
	for _m in $MODES; do
		wait $1
		_rc=$?
		shift
		_name=quick-$_m
		_f=$T/$_name.flat
		jlast "$T/$_name.out" summary >"$_f"
		_gw=$(scget "$_f" $NR_GETPID walks)
		log "$_name: stale $(get "$_f" stale.state) ($(get "$_f" stale.reason)), stale syscalls $(get "$_f" stale.syscalls), getpid walks ${_gw:-0}, exit rules $(get "$_f" exit_rules)"
		if [ $_rc -ne 0 ] || [ ! -s "$_f" ]; then
			fail $_name "auditskip exit status $_rc"
			dump $_name
		elif [ "$_setup" != ok ]; then
			fail $_name "$_setup"
		elif [ "$(get "$_f" stale.state)" != no ]; then
			fail $_name "stale: $(get "$_f" stale.state) ($(get "$_f" stale.reason)) after rules came and went; want no"
		elif [ "$(get "$_f" stale.syscalls)" != 0 ]; then
			fail $_name "stale syscalls $(get "$_f" stale.syscalls), want 0"
		elif [ "${_gw:-0}" != 0 ]; then
			fail $_name "getpid walked $_gw times with no rule loaded: contexts not dummy"
		elif [ "$(get "$_f" exit_rules)" != 0 ]; then
			fail $_name "the mirror holds $(get "$_f" exit_rules) exit rules after the storm, want 0"
		else
			pass $_name "no stale syscall, getpid walked 0 times"
		fi
	done
}

t_audit_enable
if [ -z "$REF" ]; then
	fail reload "no outcome mode (filter-op, filter-syscall) on this kernel to hold the others to"
else
	suite_plan
fi
summary_line
