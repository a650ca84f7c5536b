#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The metrics endpoint under hostile clients, on loopback, in one run:
# scrape latency quiet, while 1000 idle connections, a slow client (one
# header byte every 5 s), a 100 KB request line and a tight scrape loop are
# held against the port, and quiet again; then the same for the TLS and
# basic-auth endpoint (--web.config.file) with curl. The ratio under attack
# over quiet is the result; the process's fds and RSS before and after.
#
#   bench/endpoint.sh [-o FILE]      (make bench-endpoint)
#
# Bounded: PROBES scrapes per condition (default 300, one every 20 ms) and
# an attack of at most ATTACK_SECONDS (default 20) per endpoint; about a
# minute in all. Audit rules are not changed (the policy lock is taken all
# the same, and audit enabled for the run if it was off, then restored).
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib-audit.sh

COMMAND="$0${*:+ $*}"
bench_parse_args "$@"
PROBES=${PROBES:-300}
PROBE_MS=${PROBE_MS:-20}
ATTACK_SECONDS=${ATTACK_SECONDS:-20}
CURLS=${CURLS:-20}
HOSTILE=$OUT/hostile_clients
BCRYPT_HASH=$OUT/bcrypt_hash

bench_require "$AUDITSKIP" "$HOSTILE" "$BCRYPT_HASH"
command -v curl >/dev/null || die "curl is missing"
command -v openssl >/dev/null || die "openssl is missing"
bench_policy_save
STARTED=$(date -u '+%Y-%m-%d %H:%M:%S UTC')
auditctl -e 1 >/dev/null
# What this run started stops before the policy is put back, also on failure.
STARTED_PIDS=
bench_on_exit 'for p in $STARTED_PIDS; do kill -INT "$p" 2>/dev/null; done; wait 2>/dev/null || true'

# start_auditskip ARGS...: a whole-machine run; SKIP_PID.
start_auditskip() {
	"$AUDITSKIP" -d 300 "$@" >/dev/null 2>"$BENCH_TMP/auditskip.err" &
	SKIP_PID=$!
	STARTED_PIDS="$STARTED_PIDS $SKIP_PID"
}

wait_page() { # wait_page CURL_ARGS...
	local i
	for i in $(seq 1 100); do
		curl -sf -m 5 -o /dev/null "$@" && return 0
		kill -0 "$SKIP_PID" 2>/dev/null || die "auditskip stopped: $(cat "$BENCH_TMP/auditskip.err")"
		sleep 0.2
	done
	die "no page after 20 s: $(cat "$BENCH_TMP/auditskip.err")"
}

# attack_start PORT: the issue's clients, until they are all up.
attack_start() {
	rm -f "$BENCH_TMP/ready"
	"$HOSTILE" -p "$1" -s "$ATTACK_SECONDS" -i 1000 -w -b 100000 -l -r "$BENCH_TMP/ready" \
		>"$BENCH_TMP/attack-$1.out" 2>&1 &
	ATTACK_PID=$!
	STARTED_PIDS="$STARTED_PIDS $ATTACK_PID"
	local i
	for i in $(seq 1 100); do
		[ -e "$BENCH_TMP/ready" ] && return 0
		sleep 0.1
	done
	die "the attack's 1000 idle connections were not up after 10 s"
}

# probe NAME PORT: PROBES timed scrapes from a client of their own (row of the table).
probe() {
	local out=$BENCH_TMP/probe-$1.out
	"$HOSTILE" -p "$2" -n "$PROBES" -m "$PROBE_MS" -s 60 >"$out"
	echo "$1 $(kv "$out" probes) $(kv "$out" probes_ok) $(kv "$out" probe_min_ms) $(kv "$out" probe_median_ms) $(kv "$out" probe_p99_ms) $(kv "$out" probe_max_ms)"
}

# curls NAME CURL_ARGS...: CURLS scrapes with curl, each its own process (TLS handshake each).
curls() {
	local name=$1 i
	shift
	for i in $(seq 1 "$CURLS"); do
		curl -s -m 5 -o /dev/null -w '%{http_code} %{time_total}\n' "$@" || true
		sleep 0.05
	done >"$BENCH_TMP/curl-$name.out"
	# Answered scrapes' times in ms, sorted: min, median, p99, max (mawk has no asort).
	awk '$1 == 200 { printf "%.3f\n", $2 * 1000 }' "$BENCH_TMP/curl-$name.out" | sort -n |
		awk -v n="$name" -v total="$(wc -l <"$BENCH_TMP/curl-$name.out")" '
			{ t[++ok] = $1 }
			END {
				if (!ok) { print n, total, 0, "-", "-", "-", "-"; exit }
				p99 = int(ok * 0.99)
				if (p99 < 1) p99 = 1
				print n, total, ok, t[1], t[int((ok + 1) / 2)], t[p99], t[ok]
			}'
}

ROWS=$BENCH_TMP/rows

# ---- plain HTTP: the driver's own probes
PORT=$(free_port)
start_auditskip --metrics "127.0.0.1:$PORT"
wait_page "http://127.0.0.1:$PORT/metrics"
sleep 2
FDS0=$(fds_of "$SKIP_PID")
RSS0=$(rss_of "$SKIP_PID")
log "plain: quiet"
probe http-quiet "$PORT" >"$ROWS"
log "plain: under attack"
attack_start "$PORT"
FDS_HELD=$(fds_of "$SKIP_PID")
probe http-attack "$PORT" >>"$ROWS"
curls http-attack-curl "http://127.0.0.1:$PORT/metrics" >>"$ROWS"
wait "$ATTACK_PID" || true
PLAIN_ATTACK=$BENCH_TMP/attack-$PORT.out
sleep 5 # the idle timeout (3 s) closes what the clients left
log "plain: quiet again"
probe http-after "$PORT" >>"$ROWS"
curls http-quiet-curl "http://127.0.0.1:$PORT/metrics" >>"$ROWS"
FDS1=$(fds_of "$SKIP_PID")
RSS1=$(rss_of "$SKIP_PID")
kill -INT "$SKIP_PID"
wait "$SKIP_PID" || true

# ---- TLS and basic auth: curl, a handshake and a password check per scrape
TLS=$BENCH_TMP/tls
mkdir -p "$TLS"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 \
	-subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 \
	-keyout "$TLS/key.pem" -out "$TLS/cert.pem" >/dev/null 2>&1 || die "openssl failed"
PASSWORD=bench-$RANDOM
printf 'tls_server_config:\n  cert_file: cert.pem\n  key_file: key.pem\nbasic_auth_users:\n  prometheus: %s\n' \
	"$("$BCRYPT_HASH" "$PASSWORD")" >"$TLS/web.yml"
PORT=$(free_port)
start_auditskip --metrics "127.0.0.1:$PORT" --web.config.file "$TLS/web.yml"
TLS_CURL=(--cacert "$TLS/cert.pem" -u "prometheus:$PASSWORD" "https://127.0.0.1:$PORT/metrics")
wait_page "${TLS_CURL[@]}"
log "TLS: quiet"
curls https-quiet-curl "${TLS_CURL[@]}" >>"$ROWS"
log "TLS: under attack"
attack_start "$PORT"
curls https-attack-curl "${TLS_CURL[@]}" >>"$ROWS"
wait "$ATTACK_PID" || true
TLS_ATTACK=$BENCH_TMP/attack-$PORT.out
kill -INT "$SKIP_PID"
wait "$SKIP_PID" || true

median_of() { awk -v n="$1" '$1 == n { print $5 }' "$ROWS"; }
ratio() { awk -v a="$(median_of "$1")" -v b="$(median_of "$2")" 'BEGIN { if (a == "-" || b == "-" || b == 0) print "-"; else printf "%.2f", a / b }'; }

report() {
	echo "# auditskip metrics endpoint under hostile clients"
	echo
	echo "Run $STARTED with \`$COMMAND\`, loopback only. One whole-machine"
	echo "\`auditskip --metrics 127.0.0.1:PORT\` (then one with \`--web.config.file\`: TLS and"
	echo "basic auth). The attack (\`hostile_clients -i 1000 -w -b 100000 -l\`, up to ${ATTACK_SECONDS} s):"
	echo "1000 connections that send a request line and never end their headers (reopened at once"
	echo "when the server closes one), a client sending one header byte every 5 s, a 100 KB"
	echo "request line, and a client scraping in a tight loop. Timed scrapes come from a client of"
	echo "their own: \`hostile_clients -n $PROBES -m $PROBE_MS\` (connect to end of response, new"
	echo "connection each), or curl (its \`time_total\`: connect to end of response, with TLS a full"
	echo "handshake and the basic-auth check; one curl process per scrape, every 50 ms)."
	echo "Against the TLS port the idle clients' request line is no handshake: the server closes"
	echo "each at once and the driver reconnects at once, so there the attack is also a connect flood."
	echo
	machine_description
	echo
	echo "| condition | scrapes | answered | min ms | median ms | p99 ms | max ms |"
	echo "|---|---|---|---|---|---|---|"
	awk '{ printf "| %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6, $7 }' "$ROWS"
	echo
	echo "Median under attack / quiet, same run: plain HTTP $(ratio http-attack http-quiet) (driver),"
	echo "$(ratio http-attack-curl http-quiet-curl) (curl); TLS and basic auth $(ratio https-attack-curl https-quiet-curl) (curl)."
	echo
	echo "What the attack saw (plain HTTP / TLS port):"
	echo
	echo "- idle connections up at once: $(kv "$PLAIN_ATTACK" idle_peak) / $(kv "$TLS_ATTACK" idle_peak); closed by the server's 3 s idle timeout and reopened: $(kv "$PLAIN_ATTACK" idle_closed_by_server) / $(kv "$TLS_ATTACK" idle_closed_by_server)"
	echo "- the slow client cut after: $(kv "$PLAIN_ATTACK" slow_cut_after_s) s / $(kv "$TLS_ATTACK" slow_cut_after_s) s"
	echo "- the 100 KB request line's status: $(kv "$PLAIN_ATTACK" big_status) / $(kv "$TLS_ATTACK" big_status) (0: closed without an HTTP answer, as TLS does with bytes that are no handshake)"
	echo "- tight-loop scrapes answered: $(kv "$PLAIN_ATTACK" loop_ok) of $(kv "$PLAIN_ATTACK" loop_scrapes) / $(kv "$TLS_ATTACK" loop_ok) of $(kv "$TLS_ATTACK" loop_scrapes) (plain HTTP to the TLS port gets no page)"
	echo "- plain endpoint: fds $FDS0 before, $FDS_HELD with the idle connections held, $FDS1 after; RSS $RSS0 KiB before, $RSS1 KiB after"
}

if [ -n "$OUTFILE" ]; then
	report | tee "$OUTFILE"
else
	report
fi
