#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Host tests of the long-running process and its port: the capabilities a
# running auditskip holds once started (every thread's CapEff, CapPrm,
# CapBnd, CapInh, CapAmb against the set doc/privileges.md documents), as root and
# with --user, and that it still sees rule changes and counts right; the
# endpoint under hostile clients (1000 idle connections, a slow client, a
# 100 KB request line, a tight scrape loop: a scrape still answers, and
# afterwards the process's fds are back where they were and its RSS does
# not grow from round to round); TLS and basic authentication from
# --web.config.file, scraped by a real Prometheus; bad web configurations.
# Audit rules and the enabled flag are restored on exit.
#
#   tests/host/endpoint.sh [-l] [-t NAME]...   (as tests/host/run.sh)
set -u
cd "$(dirname "$0")/../.."
. tests/host/lib.sh

select_tests "privileges privileges-command privileges-user privileges-refusals hostile tls-auth web-config-errors" "$@"

BEGAN=$SECONDS
RULE_KEY=$KEY-endpoint
AUDIT_KEYS="$AUDIT_KEYS $RULE_KEY"
HOSTILE=$OUT/hostile_clients
BCRYPT_HASH=$OUT/bcrypt_hash
# What the counting loop keeps (doc/privileges.md): audit status and rules over netlink.
WANT_CAPS=cap_audit_control
RUN_AS=nobody

host_begin
for tool in capsh curl openssl prometheus jq; do
	if ! command -v "$tool" >/dev/null; then
		echo "FAIL endpoint tests: $tool is missing (run .ci/install-deps)"
		exit 1
	fi
done
for f in "$AUDITSKIP" "$GETPID_LOOP" "$HOSTILE" "$BCRYPT_HASH"; do
	if [ ! -x "$f" ]; then
		echo "FAIL endpoint tests: $f is missing (run make)"
		exit 1
	fi
done
if ! id "$RUN_AS" >/dev/null 2>&1; then
	echo "FAIL endpoint tests: no user $RUN_AS to run as"
	exit 1
fi

# thread_caps PID FIELD: FIELD's capabilities in every thread, each distinct set once (';' between).
thread_caps() {
	local t
	for t in /proc/"$1"/task/*; do
		capsh --decode="$(awk -v f="$2:" '$1 == f { print $2 }' "$t/status")" | sed 's/^[^=]*=//'
	done | sort -u | paste -sd';'
}

# check_caps NAME PID: every set of every thread is the documented one; no_new_privs.
check_caps() {
	local name=$1 pid=$2 f threads
	threads=$(find /proc/"$pid"/task -mindepth 1 -maxdepth 1 | wc -l)
	for f in CapEff CapPrm CapBnd; do
		check_eq "$name" "$(thread_caps "$pid" $f)" "$WANT_CAPS" "$f of all $threads threads"
	done
	for f in CapInh CapAmb; do
		check_eq "$name" "$(thread_caps "$pid" $f)" "" "$f of all $threads threads empty"
	done
	check_eq "$name" "$(awk '$1 == "NoNewPrivs:" { print $2 }' /proc/"$pid"/status)" 1 "no_new_privs"
	# The HTTP server's threads exist: they were started after the drop.
	check_eq "$name" "$([ "$threads" -ge 3 ] && echo yes)" yes "server threads present ($threads threads)"
}

# page_value_is URL SERIES VALUE: the scrape has SERIES at VALUE.
page_value_is() {
	scrape "$1" "$TMP/wait.prom" && [ "$(series "$TMP/wait.prom" "$2")" = "$3" ]
}

page_value_at_least() { # page_value_at_least URL SERIES MIN
	scrape "$1" "$TMP/wait.prom" && [ "$(series "$TMP/wait.prom" "$2")" != none ] &&
		[ "$(series "$TMP/wait.prom" "$2")" -ge "$3" ]
}

# start_counting NAME ARGS...: auditskip in the background with ARGS; PID set, its page up.
PID=
start_counting() {
	local name=$1 url
	shift
	"$AUDITSKIP" "$@" >"$TMP/run.out" 2>"$TMP/run.err" &
	PID=$!
	BACKGROUND="$BACKGROUND $PID"
	url=$(printf '%s\n' "$@" | awk '/^127\.0\.0\.1:/ { print "http://" $1 "/metrics" }')
	if [ -n "$url" ] && ! wait_for 20 served_page "$url"; then
		fail "$name" "no page at $url after 20 s: $(head -c 300 "$TMP/run.err")"
		return 1
	fi
	return 0
}

stop_counting() { # stop_counting NAME: SIGINT, exit 0, nothing left attached
	kill -INT "$PID" 2>/dev/null
	wait "$PID"
	check_eq "$1" "$?" 0 "exit status after SIGINT"
	BACKGROUND=${BACKGROUND/ $PID/}
	check_detached "$1"
}

# counts_after_drop NAME URL: with privileges dropped, a rule added and
# deleted while counting reaches the page, and getpid walks are counted as
# skippable exactly when no rule names getpid.
counts_after_drop() {
	local name=$1 url=$2 n=$((20000 + RANDOM % 20000)) rules0 mask0 walks0 skip0
	scrape "$url" "$TMP/p0.prom"
	rules0=$(series "$TMP/p0.prom" auditskip_exit_rules)
	mask0=$(series "$TMP/p0.prom" auditskip_mask_syscalls)
	auditctl -a always,exit -F arch=b64 -S getpid -F uid=4399999 -k "$RULE_KEY" >/dev/null
	if wait_for 5 page_value_is "$url" auditskip_exit_rules $((rules0 + 1)); then
		pass "$name" "a rule added after the drop reaches the page ($rules0 -> $((rules0 + 1)) exit rules)"
	else
		fail "$name" "rule added: exit rules $(series "$TMP/wait.prom" auditskip_exit_rules), want $((rules0 + 1))"
	fi
	scrape "$url" "$TMP/p1.prom"
	check_eq "$name" "$(series "$TMP/p1.prom" auditskip_mask_syscalls)" $((mask0 + 1)) "its getpid bit in the mask"
	walks0=$(series "$TMP/p1.prom" 'auditskip_walks_total{syscall="getpid",arch="x86_64"}')
	skip0=$(series "$TMP/p1.prom" 'auditskip_skippable_walks_total{syscall="getpid",arch="x86_64"}')
	[ "$walks0" = none ] && walks0=0
	"$GETPID_LOOP" "$n" >/dev/null
	if wait_for 5 page_value_at_least "$url" 'auditskip_walks_total{syscall="getpid",arch="x86_64"}' $((walks0 + n)); then
		pass "$name" "getpid walks counted after the drop (+ at least $n)"
	else
		fail "$name" "getpid walks: $(series "$TMP/wait.prom" 'auditskip_walks_total{syscall="getpid",arch="x86_64"}'), want at least $((walks0 + n))"
	fi
	check_eq "$name" "$(series "$TMP/wait.prom" 'auditskip_skippable_walks_total{syscall="getpid",arch="x86_64"}')" \
		"$skip0" "no getpid walk skippable while a rule names getpid"
	auditctl -d always,exit -F arch=b64 -S getpid -F uid=4399999 -k "$RULE_KEY" >/dev/null
	if wait_for 5 page_value_is "$url" auditskip_exit_rules "$rules0"; then
		pass "$name" "the rule's deletion reaches the page"
	else
		fail "$name" "rule deleted: exit rules $(series "$TMP/wait.prom" auditskip_exit_rules), want $rules0"
	fi
	scrape "$url" "$TMP/p2.prom"
	skip0=$(series "$TMP/p2.prom" 'auditskip_skippable_walks_total{syscall="getpid",arch="x86_64"}')
	[ "$skip0" = none ] && skip0=0
	"$GETPID_LOOP" "$n" >/dev/null
	if wait_for 5 page_value_at_least "$url" 'auditskip_skippable_walks_total{syscall="getpid",arch="x86_64"}' $((skip0 + n)); then
		pass "$name" "getpid walks skippable again once the rule is gone (+ at least $n)"
	else
		fail "$name" "skippable getpid: $(series "$TMP/wait.prom" 'auditskip_skippable_walks_total{syscall="getpid",arch="x86_64"}'), want at least $((skip0 + n))"
	fi
}

# The whole-machine run the service makes, as root: only the documented set left.
test_privileges() {
	local port url
	rules_beside_getpid privileges 16 "$RULE_KEY" 4300000 || return
	port=$(free_port)
	url=http://127.0.0.1:$port/metrics
	start_counting "privileges" --metrics "127.0.0.1:$port" -d 60 || return
	check_caps "privileges" "$PID"
	check_eq "privileges" "$(awk '$1 == "Uid:" { print $2, $3, $4, $5 }' /proc/"$PID"/status)" "0 0 0 0" "still root without --user"
	counts_after_drop "privileges" "$url"
	stop_counting "privileges"
	remove_rules "$RULE_KEY"
}

# A command's walks, exactly, with the loader's privileges dropped while it runs.
test_privileges_command() {
	local port n=$((30000 + RANDOM % 30000)) status
	add_rules 16 openat "$RULE_KEY" 4300000 || {
		fail "privileges command" "cannot add rules: $(head -c 300 "$TMP/auditctl.err")"
		return
	}
	port=$(free_port)
	rm -f "$TMP/ready" "$TMP/go"
	start_counting "privileges command" --json --metrics "127.0.0.1:$port" -- \
		"$GETPID_LOOP" "$n" --pause "$TMP/ready" "$TMP/go" 0 || return
	if ! wait_for 20 test -e "$TMP/ready"; then
		fail "privileges command" "the workload did not start: $(head -c 300 "$TMP/run.err")"
		return
	fi
	check_caps "privileges command" "$PID"
	# The command itself runs with what it was started with.
	check_eq "privileges command" "$(awk '$1 == "CapEff:" { print $2 }' /proc/"$(pgrep -P "$PID" -f getpid_loop | head -n 1)"/status)" \
		"$(awk '$1 == "CapEff:" { print $2 }' /proc/self/status)" "the command keeps the caller's capabilities"
	if wait_for 5 page_value_is "http://127.0.0.1:$port/metrics" 'auditskip_skippable_walks_total{syscall="getpid",arch="x86_64"}' "$n"; then
		pass "privileges command" "scrape: skippable getpid walks = N ($n)"
	else
		fail "privileges command" "scrape: skippable getpid $(series "$TMP/wait.prom" 'auditskip_skippable_walks_total{syscall="getpid",arch="x86_64"}'), want $n"
	fi
	touch "$TMP/go"
	wait "$PID"
	status=$?
	BACKGROUND=${BACKGROUND/ $PID/}
	check_eq "privileges command" "$status" 0 "exit status (the command's)"
	check_eq "privileges command" "$(syscall_field "$TMP/run.out" getpid skippable_walks)" "$n" "JSON summary: skippable getpid = N"
	check_detached "privileges command"
	remove_rules "$RULE_KEY"
}

# --user: the same set, as that user, and counting still works.
test_privileges_user() {
	local port url uid gid
	add_rules 16 openat "$RULE_KEY" 4300000 || {
		fail "privileges --user" "cannot add rules: $(head -c 300 "$TMP/auditctl.err")"
		return
	}
	uid=$(id -u "$RUN_AS")
	gid=$(id -g "$RUN_AS")
	port=$(free_port)
	url=http://127.0.0.1:$port/metrics
	start_counting "privileges --user" --user "$RUN_AS" --metrics "127.0.0.1:$port" -d 60 || return
	check_caps "privileges --user" "$PID"
	check_eq "privileges --user" "$(awk '$1 == "Uid:" { print $2, $3, $4, $5 }' /proc/"$PID"/status)" \
		"$uid $uid $uid $uid" "uids all $RUN_AS's ($uid)"
	check_eq "privileges --user" "$(awk '$1 == "Gid:" { print $2, $3, $4, $5 }' /proc/"$PID"/status)" \
		"$gid $gid $gid $gid" "gids all $RUN_AS's group ($gid)"
	check_eq "privileges --user" "$(awk '$1 == "Groups:" { $1 = ""; print }' /proc/"$PID"/status | xargs -n 1 | sort -n | xargs)" \
		"$(id -G "$RUN_AS" | xargs -n 1 | sort -n | xargs)" "supplementary groups: $RUN_AS's own"
	counts_after_drop "privileges --user" "$url"
	stop_counting "privileges --user"
	remove_rules "$RULE_KEY"
}

test_privileges_refusals() {
	expect_refusal "--user unknown" "--user: no user 'auditskip-no-such-user'" \
		--user auditskip-no-such-user -d 1
	expect_refusal "--user with a command" "--user and -- COMMAND cannot be combined" \
		--user "$RUN_AS" -- true
	# Written as root before the drop (a directory anyone may enter, only
	# root may write); the user cannot replace it.
	local dir
	dir=$(mktemp -d /tmp/auditskip-endpoint-textfile.XXXXXX)
	chmod 0755 "$dir"
	expect_refusal "--user and a textfile it cannot write" \
		"--metrics-textfile $dir/auditskip.prom: cannot write in $dir: Permission denied" \
		--user "$RUN_AS" --metrics-textfile "$dir/auditskip.prom" -d 5
	rm -rf "$dir"
}

fds_at_most() { # fds_at_most PID N
	[ "$(fds_of "$1")" -le "$2" ]
}

# One round of the clients the issue names, against PORT: scraped while they are held.
hostile_round() {
	local round=$1 port=$2 base_fds=$3 out=$TMP/hostile-$1.out held code took hp
	rm -f "$TMP/hostile.ready"
	"$HOSTILE" -p "$port" -s 8 -i 1000 -w -b 100000 -l -n 60 -m 100 -r "$TMP/hostile.ready" >"$out" 2>&1 &
	hp=$!
	BACKGROUND="$BACKGROUND $hp"
	if ! wait_for 10 test -e "$TMP/hostile.ready"; then
		fail "hostile round $round" "the 1000 idle connections were not up after 10 s"
	fi
	held=$(fds_of "$PID")
	check_eq "hostile round $round" "$([ "$held" -ge $((base_fds + 1000)) ] && echo yes)" yes \
		"the server holds the idle connections ($held fds, $base_fds before)"
	read -r code took < <(curl -s -m 5 -o "$TMP/hostile-scrape.prom" -w '%{http_code} %{time_total}\n' \
		"http://127.0.0.1:$port/metrics")
	check_eq "hostile round $round" "$code" 200 "a scrape answers while they are held (took ${took} s; curl -m 5)"
	check_eq "hostile round $round" "$(grep -c '^auditskip_info{' "$TMP/hostile-scrape.prom")" 1 "whole page"
	wait "$hp"
	BACKGROUND=${BACKGROUND/ $hp/}
	check_eq "hostile round $round" "$(kv "$out" idle_peak)" 1000 "1000 idle connections were up at once"
	check_eq "hostile round $round" "$([ "$(kv "$out" idle_closed_by_server)" -ge 1000 ] && echo yes)" yes \
		"idle connections timed out by the server ($(kv "$out" idle_closed_by_server) closed, reopened at once)"
	check_eq "hostile round $round" "$(kv "$out" slow_cut_after_s | awk '$1 >= 0 && $1 < 5 { print "cut" }')" cut \
		"the slow client is cut before its second byte ($(kv "$out" slow_cut_after_s) s)"
	check_eq "hostile round $round" "$(kv "$out" big_status | grep -xE '414|431')" "$(kv "$out" big_status)" \
		"the 100 KB request line gets $(kv "$out" big_status)"
	check_eq "hostile round $round" "$(kv "$out" big_answered)" 1 "and a status at all"
	check_eq "hostile round $round" "$(kv "$out" loop_ok)" "$(kv "$out" loop_scrapes)" \
		"every tight-loop scrape answered ($(kv "$out" loop_scrapes))"
	check_eq "hostile round $round" "$(kv "$out" probes_ok)" "$(kv "$out" probes)" \
		"every timed scrape answered (median $(kv "$out" probe_median_ms) ms, max $(kv "$out" probe_max_ms) ms)"
	# The server closes what the clients left within its idle timeout.
	if wait_for 10 fds_at_most "$PID" "$base_fds"; then
		pass "hostile round $round" "fds back to $base_fds after the clients went"
	else
		fail "hostile round $round" "fds $(fds_of "$PID") 10 s after the clients went, want $base_fds"
	fi
}

# The clients of the issue, three rounds: a scrape answers while they are
# held, fds come back, and RSS comes back too (the server hands the heap
# pages a burst took back at every resync). The bound, 4 MiB, is half of
# what leaking one 8 KiB connection pool per idle connection of one round
# would keep, and less than 100 bytes per tight-loop scrape would.
test_hostile() {
	local port base_fds base_rss round rss
	port=$(free_port)
	start_counting "hostile" --metrics "127.0.0.1:$port" -d 120 || return
	sleep 2
	base_fds=$(fds_of "$PID")
	base_rss=$(rss_of "$PID")
	log "hostile: $base_fds fds and $base_rss KiB RSS before"
	for round in 1 2 3; do
		hostile_round "$round" "$port" "$base_fds"
		sleep 2
		rss=$(rss_of "$PID")
		check_eq "hostile round $round" "$([ "$rss" -le $((base_rss + 4096)) ] && echo back)" back \
			"RSS back within 4 MiB: $rss KiB after, $base_rss KiB before"
	done
	check_eq "hostile" "$(kill -0 "$PID" && echo running)" running "auditskip still running"
	stop_counting "hostile"
}

# --------------------------------------------------------------- TLS, basic auth

PASSWORD=
make_tls_config() { # make_tls_config DIR: cert, key, a user's hash, web.yml there
	local d=$1
	mkdir -p "$d"
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 \
		-subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 \
		-keyout "$d/key.pem" -out "$d/cert.pem" >"$d/openssl.log" 2>&1 || return 1
	# Root's alone: read before the switch to --user.
	chmod 0600 "$d/key.pem"
	PASSWORD=pw-$RANDOM-$RANDOM
	cat >"$d/web.yml" <<-EOF
		# As the exporter toolkit documents it.
		tls_server_config:
		  cert_file: cert.pem
		  key_file: $d/key.pem
		basic_auth_users:
		  prometheus: $("$BCRYPT_HASH" "$PASSWORD")
		  htpasswd-user: $("$BCRYPT_HASH" "$PASSWORD-y" 5 | sed 's/^\$2b\$/$2y$/')
	EOF
}

test_tls_auth() {
	local d=$TMP/tls port url code job jobs=
	if ! make_tls_config "$d"; then
		fail "tls" "openssl: $(head -c 300 "$d/openssl.log")"
		return
	fi
	port=$(free_port)
	url=https://127.0.0.1:$port/metrics
	"$AUDITSKIP" --user "$RUN_AS" --metrics "127.0.0.1:$port" --web.config.file "$d/web.yml" -d 120 \
		>"$TMP/run.out" 2>"$TMP/run.err" &
	PID=$!
	BACKGROUND="$BACKGROUND $PID"
	if wait_for 20 scrape "$url" "$TMP/tls.prom" --cacert "$d/cert.pem" -u "prometheus:$PASSWORD"; then
		pass "tls" "the right password gets the page over TLS (certificate checked against its CA)"
	else
		fail "tls" "no page at $url: $(head -c 300 "$TMP/run.err")"
		return
	fi
	check_caps "tls" "$PID"
	code=$(curl -s -m 5 -o /dev/null -w '%{http_code}' --cacert "$d/cert.pem" -u "htpasswd-user:$PASSWORD-y" "$url")
	check_eq "tls" "$code" 200 "a \$2y\$ hash (htpasswd -B) works too"
	code=$(curl -s -m 5 -o /dev/null -w '%{http_code}' --cacert "$d/cert.pem" -u "prometheus:wrong-$PASSWORD" "$url")
	check_eq "tls" "$code" 401 "a wrong password gets 401"
	code=$(curl -s -m 5 -o /dev/null -w '%{http_code}' --cacert "$d/cert.pem" -u "nobody-here:$PASSWORD" "$url")
	check_eq "tls" "$code" 401 "an unknown user gets 401"
	code=$(curl -s -m 5 -D "$TMP/401.headers" -o /dev/null -w '%{http_code}' --cacert "$d/cert.pem" "$url")
	check_eq "tls" "$code" 401 "no password gets 401"
	check_eq "tls" "$(grep -ci '^www-authenticate: basic realm="auditskip"' "$TMP/401.headers")" 1 "with a Basic challenge"
	code=$(curl -s -m 5 -o /dev/null -w '%{http_code}' --cacert "$d/cert.pem" "https://127.0.0.1:$port/nope")
	check_eq "tls" "$code" 401 "no password gets 401 on other paths too"
	code=$(curl -s -m 5 -o /dev/null -w '%{http_code}' -u "prometheus:$PASSWORD" "http://127.0.0.1:$port/metrics")
	check_eq "tls" "$code" 000 "plain HTTP to the TLS port gets no HTTP answer"
	code=$(curl -s -m 5 -o /dev/null -w '%{http_code}' --tls-max 1.1 -k -u "prometheus:$PASSWORD" "$url")
	check_eq "tls" "$code" 000 "TLS 1.1 is refused"

	# A real Prometheus: the right password is up, the wrong one is not.
	for job in "auditskip-tls $PASSWORD" "auditskip-wrong-password wrong"; do
		jobs="$jobs  - job_name: ${job%% *}
    scheme: https
    tls_config:
      ca_file: $d/cert.pem
    basic_auth:
      username: prometheus
      password: ${job#* }
    static_configs:
      - targets: [\"127.0.0.1:$port\"]
"
	done
	if ! prometheus_start "$jobs"; then
		fail "tls prometheus" "server not ready after 30 s: $(tail -n 5 "$TMP/prometheus.log")"
	else
		if wait_for 20 promval_is 'up{job="auditskip-tls"}' 1; then
			pass "tls prometheus" "up = 1 with scheme https, tls_config ca_file and basic_auth"
		else
			fail "tls prometheus" "up{job=\"auditskip-tls\"} is $(promval 'up{job="auditskip-tls"}'), want 1"
		fi
		wait_for 10 promval_is 'count(auditskip_info{job="auditskip-tls"})' 1
		check_eq "tls prometheus" "$(promval 'count(auditskip_info{job="auditskip-tls"})')" 1 "auditskip_info scraped"
		check_eq "tls prometheus" "$(promval 'auditskip_exit_rules{job="auditskip-tls"}')" \
			"$("$AUDITSKIP" rules --json | jq -r .exit_rules)" "auditskip_exit_rules = the kernel's listing"
		wait_for 10 promval_is 'up{job="auditskip-wrong-password"}' 0
		check_eq "tls prometheus" "$(promval 'up{job="auditskip-wrong-password"}')" 0 "the wrong password: up = 0"
		check_eq "tls prometheus" "$(promval 'count(auditskip_info{job="auditskip-wrong-password"})')" none \
			"and no auditskip series"
	fi
	prometheus_stop
	stop_counting "tls"
}

# bad_config NAME PATTERN CONTENT [ARGS...]: a web.yml holding CONTENT is refused with PATTERN.
bad_config() {
	local name=$1 pattern=$2 f=$TMP/bad/$RANDOM.yml port
	shift 2
	mkdir -p "$TMP/bad"
	printf '%s' "$1" >"$f"
	shift
	port=$(free_port)
	expect_refusal "web config: $name" "--web\\.config\\.file $f: $pattern" \
		--metrics "127.0.0.1:$port" --web.config.file "$f" -d 5 "$@"
	check_eq "web config: $name" "$(ss -Htln "sport = :$port" | wc -l)" 0 "port not left listening"
}

test_web_config_errors() {
	local d=$TMP/tls hash port
	[ -f "$d/cert.pem" ] || make_tls_config "$d" || {
		fail "web config" "openssl: $(head -c 300 "$d/openssl.log")"
		return
	}
	hash=$("$BCRYPT_HASH" pw 4)
	bad_config "YAML syntax" "line 3: did not find expected ',' or ']' while parsing a flow sequence started on line 2" \
		$'tls_server_config:\n  cert_file: [a\n'
	bad_config "unknown key" "line 3: unknown key 'tls_config'" $'# web\nbasic_auth_users:\ntls_config:\n  cert_file: x\n'
	bad_config "unsupported TLS key" "line 4: tls_server_config: client_auth_type is not supported" \
		$'tls_server_config:\n  cert_file: '"$d/cert.pem"$'\n  key_file: '"$d/key.pem"$'\n  client_auth_type: RequireAndVerifyClientCert\n'
	bad_config "cert without key" "line 1: tls_server_config needs both cert_file and key_file" \
		$'tls_server_config:\n  cert_file: '"$d/cert.pem"$'\n'
	bad_config "not bcrypt" "line 3: basic_auth_users: alice: not a bcrypt hash" \
		$'basic_auth_users:\n  bob: '"$hash"$'\n  alice: $1$abcdefgh$0123456789012345678901\n'
	bad_config "plain-text password" "line 2: basic_auth_users: carol: not a bcrypt hash" \
		$'basic_auth_users:\n  carol: secret\n'
	bad_config "user twice" "line 3: basic_auth_users: 'bob' given twice" \
		$'basic_auth_users:\n  bob: '"$hash"$'\n  bob: '"$hash"$'\n'
	bad_config "not a mapping" "line 1: the file: expected a mapping" $'- a\n- b\n'
	bad_config "http_server_config" "line 1: http_server_config is not supported" $'http_server_config:\n  http2: false\n'
	bad_config "missing cert file" "cannot read $TMP/bad/missing.pem: No such file" \
		$'tls_server_config:\n  cert_file: missing.pem\n  key_file: '"$d/key.pem"$'\n'
	printf 'not a certificate\n' >"$TMP/bad/garbage.pem"
	bad_config "not a certificate" "cert_file $TMP/bad/garbage.pem and key_file $d/key.pem: Base64 decoding error" \
		$'tls_server_config:\n  cert_file: garbage.pem\n  key_file: '"$d/key.pem"$'\n'
	expect_refusal "web config: no such file" "--web\\.config\\.file $TMP/bad/none\\.yml: No such file" \
		--metrics "127.0.0.1:$(free_port)" --web.config.file "$TMP/bad/none.yml" -d 5
	expect_refusal "web config without --metrics" "--web\\.config\\.file configures --metrics" \
		--web.config.file "$d/web.yml" -d 5
	# An empty file is valid (the toolkit's too): plain HTTP, no authentication.
	: >"$TMP/bad/empty.yml"
	port=$(free_port)
	start_counting "web config: empty file" --metrics "127.0.0.1:$port" --web.config.file "$TMP/bad/empty.yml" -d 30 &&
		pass "web config: empty file" "serves plain HTTP without authentication"
	stop_counting "web config: empty file"
}

run_tests
echo "endpoint tests took $((SECONDS - BEGAN)) s"
summary_line
