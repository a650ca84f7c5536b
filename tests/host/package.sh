#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Host tests of the installed form: --metrics-textfile (exact totals against
# the JSON summary, promtool, atomic replacement, the static build), the man
# page made from --help, auditskip.service run as systemd would run it (its
# ExecStart with the defaults file's options, holding only the unit's
# capabilities) and scraped, and the Debian package's contents and lintian.
# Audit rules and the enabled flag are restored on exit.
#
#   tests/host/package.sh [-l] [-t NAME]...   (after make all static man)
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/host/lib.sh
select_tests "textfile-exact textfile-atomic textfile-static textfile-refusals man-page service deb" "$@"

UNIT=debian/auditskip.service
DEFAULTS=debian/auditskip.default
MANPAGE=$OUT/auditskip.8
STATIC_AUDITSKIP=$OUT/static/auditskip
VERSION=$(cat VERSION)
# Names of the quantities compared: the metric families and the JSON fields.
WALKS=auditskip_walks_total
SKIPPABLE=auditskip_skippable_walks_total
VISITS=auditskip_needless_rule_visits_total
J_WALKS=walks
J_SKIPPABLE=skippable_walks
J_VISITS=needless_rule_visits
# Its own key and uids, so the other host suites' rules are never touched.
RULE_KEY=$KEY-package
NRULES=16
N=$((20000 + RANDOM % 20000))
AUDIT_KEYS="$AUDIT_KEYS $RULE_KEY"
SERVICE_USER=nobody

host_begin
for tool in promtool curl setpriv capsh man systemd-analyze dpkg-buildpackage lintian; do
	if ! command -v "$tool" >/dev/null; then
		echo "FAIL package tests: $tool is missing (run .ci/install-deps)"
		exit 1
	fi
done
for f in "$AUDITSKIP" "$GETPID_LOOP" "$STATIC_AUDITSKIP" "$MANPAGE"; do
	if [ ! -x "$f" ] && [ ! -f "$f" ]; then
		echo "FAIL package tests: $f is missing (run make all static man)"
		exit 1
	fi
done

auditctl -e 1 >/dev/null
# Every test runs with the suite's NRULES rules.
before_test() {
	add_rules "$NRULES" openat "$RULE_KEY" 4200000 ||
		{ echo "FAIL package tests: cannot add audit rules"; exit 1; }
}
after_test() { remove_rules "$RULE_KEY"; }

# sample FILE FAMILY [SYSCALL]: one series' value, or the family's sum.
sample() {
	awk -v f="$2" -v sc="${3:-}" '
		$1 !~ /^#/ {
			name = $1; sub(/\{.*/, "", name)
			if (name != f) next
			if (sc != "" && index($1, f "{syscall=\"" sc "\"") != 1) next
			sum += $2; seen = 1
		}
		END { if (seen) printf "%.0f\n", sum; else print "none" }' "$1"
}

# ------------------------------------------------------- --metrics-textfile

others() { # others DIR: the files in DIR, one line
	local f list=""
	for f in "$1"/* "$1"/.[!.]*; do
		[ -e "$f" ] && list="$list${list:+ }$f"
	done
	echo "$list"
}

test_textfile_exact() {
	local dir=$TMP/textfile prom out=$TMP/textfile.json
	mkdir -p "$dir"
	prom=$dir/auditskip.prom
	"$AUDITSKIP" --json --sync-ms 50 --metrics-textfile "$prom" -- "$GETPID_LOOP" "$N" >"$out"
	check_eq textfile "$?" 0 "exit status"
	if [ ! -s "$prom" ]; then
		fail textfile "no file written at $prom"
		return
	fi
	if promtool check metrics <"$prom" >"$TMP/promtool.out" 2>&1; then
		pass "textfile: promtool check metrics"
	else
		fail "textfile: promtool check metrics" "$(head -c 400 "$TMP/promtool.out")"
	fi
	check_eq textfile "$(sample "$prom" $SKIPPABLE getpid)" "$N" "getpid skippable walks = N"
	check_eq textfile "$(sample "$prom" $WALKS getpid)" "$(syscall_field "$out" getpid $J_WALKS)" "getpid walks = JSON"
	check_eq textfile "$(sample "$prom" $WALKS)" "$(summary_field "$out" $J_WALKS)" "all walks = JSON summary"
	check_eq textfile "$(sample "$prom" $SKIPPABLE)" "$(summary_field "$out" $J_SKIPPABLE)" "all skippable walks = JSON summary"
	check_eq textfile "$(sample "$prom" $VISITS)" "$(summary_field "$out" $J_VISITS)" "needless visits = JSON summary"
	check_eq textfile "$(sample "$prom" $VISITS getpid)" "$((N * NRULES))" "getpid needless visits = N x rules"
	check_eq textfile "$(others "$dir")" "$prom" "nothing else left in the directory"
	check_detached textfile
}

# A reader never sees a partial page: each copy taken while the file is
# rewritten every 10 ms has the first page's families and ends its last
# line. Whole machine, so the reader's own syscalls change every page.
test_textfile_atomic() {
	local dir=$TMP/atomic prom pid families copies=0 bad=0 versions
	mkdir -p "$dir"
	prom=$dir/auditskip.prom
	"$AUDITSKIP" --sync-ms 10 -d 6 --metrics-textfile "$prom" >/dev/null 2>"$TMP/atomic.err" &
	pid=$!
	BACKGROUND="$BACKGROUND $pid"
	if ! wait_for 30 test -s "$prom"; then
		fail "textfile atomic" "no file after 30 s: $(head -c 300 "$TMP/atomic.err")"
		return
	fi
	families=$(grep -c '^# TYPE ' "$prom")
	: >"$TMP/sums"
	while kill -0 "$pid" 2>/dev/null && [ "$copies" -lt 400 ]; do
		cat "$prom" >"$TMP/copy" 2>/dev/null || continue
		copies=$((copies + 1))
		if [ "$(grep -c '^# TYPE ' "$TMP/copy")" != "$families" ] ||
			[ "$(tail -c 1 "$TMP/copy" | od -An -c | tr -d ' ')" != '\n' ]; then
			bad=$((bad + 1))
			cp "$TMP/copy" "$TMP/bad-copy"
		fi
		md5sum <"$TMP/copy" >>"$TMP/sums"
	done
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	BACKGROUND=${BACKGROUND/ $pid/}
	versions=$(sort -u "$TMP/sums" | wc -l)
	check_eq "textfile atomic" "$bad" 0 "partial pages among $copies reads"
	if [ "$versions" -ge 2 ]; then
		pass "textfile atomic: the file was replaced while being read ($versions versions)"
	else
		fail "textfile atomic: the file was replaced while being read" "$versions version(s) seen"
	fi
	check_eq "textfile atomic" "$(others "$dir")" "$prom" "no temporary file left"
	check_detached "textfile atomic"
}

test_textfile_static() {
	local dir=$TMP/static prom out=$TMP/static.json
	mkdir -p "$dir"
	prom=$dir/auditskip.prom
	"$STATIC_AUDITSKIP" --json --metrics-textfile "$prom" -- "$GETPID_LOOP" "$N" >"$out"
	check_eq "textfile static" "$?" 0 "exit status (static build, no HTTP server)"
	check_eq "textfile static" "$(sample "$prom" $SKIPPABLE getpid)" "$N" "getpid skippable walks = N"
	check_eq "textfile static" "$(sample "$prom" $WALKS)" "$(summary_field "$out" $J_WALKS)" "all walks = JSON summary"
	check_detached "textfile static"
}

test_textfile_refusals() {
	local bad
	for bad in "$TMP/no-such-dir/auditskip.prom" "$TMP" "$TMP/"; do
		expect_refusal "textfile refusal '$bad'" "invalid --metrics-textfile" \
			--metrics-textfile "$bad" -d 1
	done
}

# --------------------------------------------------------------- man page

test_man_page() {
	local opt missing=""
	MANWIDTH=80 man --warnings -l "$MANPAGE" >"$TMP/man.txt" 2>"$TMP/man.err"
	check_eq man "$?" 0 "man -l exit status"
	check_eq man "$(head -c 300 "$TMP/man.err")" "" "no warnings at 80 columns"
	# Every long option --help lists is on the page (wide, so none is hyphenated).
	MANWIDTH=1000 man -l "$MANPAGE" >"$TMP/man-wide.txt" 2>/dev/null
	for opt in $("$AUDITSKIP" --help | grep -oE '^ +(-[^ ], )?--[a-z][a-z-]*' | grep -oE -- '--[a-z-]+'); do
		grep -qF -- "$opt" "$TMP/man-wide.txt" || missing="$missing $opt"
	done
	check_eq man "$missing" "" "every --help option on the page"
	check_eq man "$(grep -c "^auditskip $VERSION " "$TMP/man.txt")" 1 "footer names version $VERSION"
}

# ------------------------------------------------------------ the service

unit_value() { # unit_value KEY: the value of KEY= in the unit
	sed -n "s/^$1=//p" "$UNIT" | tail -n 1
}

# The unit's ExecStart with its defaults file, holding only the unit's
# bounding set, as systemd starts a root service: at exec a root process's
# permitted and effective sets become the bounding set.
test_service() {
	local caps setpriv_caps exec_line opts port pid status got_caps page f
	local saved_opts duty window period load before after
	caps=$(unit_value CapabilityBoundingSet)
	exec_line=$(unit_value ExecStart)
	check_eq service "$exec_line" "/usr/sbin/auditskip --user auditskip \$AUDITSKIP_OPTS" "ExecStart"
	check_eq service "$(unit_value EnvironmentFile)" "-/etc/default/auditskip" "EnvironmentFile"
	check_eq service "$(unit_value Restart)" on-failure "Restart"
	check_eq service "$(unit_value NoNewPrivileges)" yes "NoNewPrivileges"
	check_eq service "$(unit_value ProtectSystem)" strict "ProtectSystem"

	# The defaults file, read the way EnvironmentFile= reads it (no shell).
	saved_opts=$(sed -n 's/^AUDITSKIP_OPTS="\(.*\)"$/\1/p' "$DEFAULTS")
	check_eq service "$saved_opts" "--duty 1s/30s --metrics 127.0.0.1:9477" \
		"defaults: duty-cycled, metrics on loopback"
	duty=${saved_opts#*--duty }
	duty=${duty%% *}
	window=${duty%/*}
	period=${duty#*/}
	port=$(free_port)
	# The package makes user auditskip; this host has none, so nobody stands in.
	opts="--user $SERVICE_USER ${saved_opts/:9477/:$port}"

	# systemd-analyze verify, with ExecStart on this tree's binary and the
	# man page of Documentation= found in this build.
	mkdir -p "$TMP/unit" "$TMP/man/man8"
	sed "s|^ExecStart=/usr/sbin/auditskip|ExecStart=$(readlink -f "$AUDITSKIP")|" "$UNIT" \
		>"$TMP/unit/auditskip.service"
	cp "$MANPAGE" "$TMP/man/man8/"
	if MANPATH=$TMP/man systemd-analyze verify "$TMP/unit/auditskip.service" >"$TMP/verify" 2>&1; then
		pass "service: systemd-analyze verify"
	else
		fail "service: systemd-analyze verify" "$(head -c 400 "$TMP/verify")"
	fi

	setpriv_caps=-all
	for c in $caps; do
		c=${c#CAP_}
		setpriv_caps="$setpriv_caps,+${c,,}"
	done
	# shellcheck disable=SC2086 # $opts splits into words as systemd splits $AUDITSKIP_OPTS
	setpriv --bounding-set="$setpriv_caps" --inh-caps=-all --no-new-privs -- \
		"$AUDITSKIP" $opts >"$TMP/service.out" 2>"$TMP/service.err" &
	pid=$!
	BACKGROUND="$BACKGROUND $pid"
	if ! wait_for 30 curl -sf -o /dev/null "http://127.0.0.1:$port/metrics"; then
		fail "service: /metrics answers" "nothing on 127.0.0.1:$port: $(head -c 300 "$TMP/service.err")"
		kill "$pid" 2>/dev/null
		return
	fi
	pass "service: /metrics answers on 127.0.0.1:$port"
	# Once started, only what the loop needs (doc/privileges.md), in every set.
	for f in CapEff CapPrm CapBnd; do
		got_caps=$(capsh --decode="$(awk -v f="$f:" '$1 == f { print $2 }' "/proc/$pid/status")" |
			sed 's/.*=//')
		check_eq service "$got_caps" cap_audit_control "$f after start-up"
	done
	check_eq service "$(awk '$1 == "Uid:" { print $2 }' "/proc/$pid/status")" "$(id -u "$SERVICE_USER")" \
		"runs as --user $SERVICE_USER"

	# A workload started after counting began, running throughout: the
	# window that opens after the first one closed (the programs attached
	# again, as user nobody with CAP_AUDIT_CONTROL alone) counts it. Each
	# window is $window at a random place in its $period, the first too: the
	# first closes within a period, the second within two more.
	page=$TMP/service.prom
	(while :; do "$GETPID_LOOP" "$N" >/dev/null; sleep 0.1; done) &
	load=$!
	BACKGROUND="$BACKGROUND $load"
	between_windows() { # between_windows ATTACHES: that many windows opened, the last closed
		curl -sf "http://127.0.0.1:$port/metrics" >"$page" &&
			[ "$(sample "$page" auditskip_counting_attaches_total)" = "$1" ] &&
			[ "$(awk '$1 == "auditskip_counting_state{state=\"between-windows\"}" { print $2 }' "$page")" = 1 ]
	}
	after=none
	if wait_for $((${period%s} + 10)) between_windows 1; then
		before=$(sample "$page" $SKIPPABLE getpid)
		# none: the first window closed before the workload's first call
		[ "$before" = none ] && before=0
		wait_for $((2 * ${period%s} + 10)) between_windows 2 && after=$(sample "$page" $SKIPPABLE getpid)
	else
		fail "service: the first window closes" "the page after a period and 10 s: $(grep -E '^auditskip_(counting|covered)' "$page" | tr '\n' ' ')"
		before=0
	fi
	kill "$load"
	wait "$load" 2>/dev/null
	BACKGROUND=${BACKGROUND/ $load/}
	if [ "$after" != none ] && [ $((after - before)) -ge "$N" ]; then
		pass "service: the second window counts the workload (getpid skippable $before, then $after: >= $N more)"
	else
		fail "service: the second window counts the workload" \
			"getpid skippable $before after the first window, $after after the second (want >= $N more)"
	fi
	check_eq service "$(sample "$page" auditskip_duty_window_seconds)" "${window%s}" "the page gives the window"
	check_eq service "$(sample "$page" auditskip_duty_period_seconds)" "${period%s}" "the page gives the period"
	if awk -v c="$(sample "$page" auditskip_covered_seconds_total)" \
		-v e="$(sample "$page" auditskip_elapsed_seconds_total)" 'BEGIN { exit !(c > 0 && c < e) }'; then
		pass "service: the page counts part of the time ($(sample "$page" auditskip_covered_seconds_total) s of $(sample "$page" auditskip_elapsed_seconds_total))"
	else
		fail "service: the page counts part of the time" "covered $(sample "$page" auditskip_covered_seconds_total) s of $(sample "$page" auditskip_elapsed_seconds_total)"
	fi
	if promtool check metrics <"$page" >"$TMP/promtool.out" 2>&1; then
		pass "service: promtool check metrics on the scrape"
	else
		fail "service: promtool check metrics on the scrape" "$(head -c 400 "$TMP/promtool.out")"
	fi
	# systemctl stop sends SIGTERM; Restart=on-failure relies on a clean 0.
	kill -TERM "$pid"
	wait "$pid"
	status=$?
	BACKGROUND=${BACKGROUND/ $pid/}
	check_eq service "$status" 0 "exit status after SIGTERM"
	check_detached service

	# The emulation is in force: without CAP_BPF the same line is refused.
	# shellcheck disable=SC2086
	setpriv --bounding-set="${setpriv_caps/,+bpf/}" --inh-caps=-all --no-new-privs -- \
		"$AUDITSKIP" $opts >/dev/null 2>"$TMP/nobpf.err"
	status=$?
	if [ "$status" != 0 ] && grep -q "CAP_BPF" "$TMP/nobpf.err"; then
		pass "service: refused without CAP_BPF (exit $status)"
	else
		fail "service: refused without CAP_BPF" "exit $status: $(head -c 300 "$TMP/nobpf.err")"
	fi
	check_detached "service without CAP_BPF"
}

# ------------------------------------------------------------ the package

test_deb() {
	local deb=$OUT/deb/auditskip_${VERSION}_amd64.deb f
	if ! make -s deb OUTPUT="$OUT" >"$TMP/deb.log" 2>&1; then
		fail "deb: make deb" "$(tail -n 15 "$TMP/deb.log")"
		return
	fi
	pass "deb: make deb (dpkg-buildpackage, lintian --fail-on error)"
	if [ ! -f "$deb" ]; then
		fail "deb: package" "no $deb"
		return
	fi
	dpkg-deb -c "$deb" | awk '{ print $NF }' >"$TMP/deb.list"
	for f in ./usr/sbin/auditskip ./usr/share/man/man8/auditskip.8.gz \
		./lib/systemd/system/auditskip.service ./etc/default/auditskip \
		./usr/share/auditskip/auditskip.json ./usr/share/auditskip/auditskip.rules.yml \
		./usr/lib/sysusers.d/auditskip.conf; do
		check_eq deb "$(grep -cxF "$f" "$TMP/deb.list")" 1 "contains $f"
	done
	check_eq deb "$(dpkg-deb -f "$deb" Depends | grep -c 'libbpf1')" 1 "Depends from shlibs (libbpf1)"
	check_eq deb "$(dpkg-deb -f "$deb" Version)" "$VERSION" "version from VERSION"
	# The service's user is made when the package is configured.
	dpkg-deb -e "$deb" "$TMP/deb.control"
	check_eq deb "$(grep -c 'systemd-sysusers' "$TMP/deb.control/postinst" 2>/dev/null)" 1 \
		"postinst makes user auditskip (systemd-sysusers)"
	lintian --fail-on error "$deb" >"$TMP/lintian.out" 2>&1
	check_eq deb "$?" 0 "lintian: no errors"
	check_eq deb "$(grep -c '^E: ' "$TMP/lintian.out")" 0 "lintian E: lines"
}

run_tests
summary_line
