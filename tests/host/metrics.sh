#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Host tests of --metrics and --json: the /metrics page passes promtool, a
# real Prometheus server scrapes exact counts of a workload auditskip runs,
# the dashboard's queries are valid PromQL on metrics auditskip serves, the
# listen address forms and their errors, and --json output against
# tests/host/json-schema.json. Audit rules and the enabled flag are restored
# on exit, and the Prometheus server this starts is stopped.
#
#   tests/host/metrics.sh [-l] [-t NAME]...   (as tests/host/run.sh)
set -u
cd "$(dirname "$0")/../.."
. tests/host/lib.sh

select_tests "scrape rules-json listen-forms" "$@"

DASHBOARD=dashboards/auditskip.json
DASHBOARD_CHECK=tests/host/dashboard-check.sh
SCHEMA=tests/host/json-schema.json
# Debian's interpreter, which python3-jsonschema installs into.
PYTHON=/usr/bin/python3
BEGAN=$SECONDS
# Its own key and uids, so its rules are told apart from tests/host/run.sh's.
RULE_KEY=$KEY-metrics

host_begin

# need PACKAGE TEST...: installs PACKAGE from Debian when TEST fails.
need() {
	local pkg=$1
	shift
	"$@" >/dev/null 2>&1 && return 0
	log "installing $pkg"
	export DEBIAN_FRONTEND=noninteractive
	apt-get install -y -q --no-install-recommends "$pkg" >/dev/null 2>&1 ||
		{ apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends "$pkg" >/dev/null; }
	"$@" >/dev/null 2>&1
}
for dep in "prometheus command -v promtool" "prometheus command -v prometheus" \
	"python3-jsonschema $PYTHON -c 'import jsonschema'"; do
	if ! eval need "$dep"; then
		echo "FAIL metrics tests: cannot install ${dep%% *}"
		exit 1
	fi
done

# http_code URL [curl options]: the status, 000 when nothing answers.
http_code() {
	local url=$1
	shift
	curl -s -o /dev/null -w '%{http_code}' "$@" "$url"
}

has_ipv6_loopback() {
	[ -r /proc/net/if_inet6 ] && awk '$1 == "00000000000000000000000000000001"' /proc/net/if_inet6 | grep -q .
}

start_prometheus() { # start_prometheus TARGET_PORT
	if prometheus_start "  - job_name: auditskip
    static_configs:
      - targets: [\"127.0.0.1:$1\"]"; then
		pass "prometheus" "server up on 127.0.0.1:$PROM_PORT"
		return 0
	fi
	fail "prometheus" "server up: not ready after 30 s: $(tail -n 5 "$TMP/prometheus.log")"
	return 1
}

# One run of auditskip, with --json and --metrics, around a paused workload.
test_scrape() {
	local run=$TMP/run.json port pid status rules_now
	local n=$((50000 + RANDOM % 50000))

	rules_beside_getpid scrape 64 "$RULE_KEY" 4100000 || return
	port=$(free_port)
	start_prometheus "$port" || return
	rm -f "$TMP/ready" "$TMP/go"
	# The workload makes its n getpid calls, then waits for GO: auditskip
	# stays up, so Prometheus scrapes the final counts before it exits.
	"$AUDITSKIP" --json -i 1 --metrics "127.0.0.1:$port" -- \
		"$GETPID_LOOP" "$n" --pause "$TMP/ready" "$TMP/go" 0 >"$run" 2>"$TMP/run.err" &
	pid=$!
	BACKGROUND="$BACKGROUND $pid"
	if ! wait_for 20 test -e "$TMP/ready"; then
		fail "scrape" "the workload did not start: $(head -c 300 "$TMP/run.err")"
		return
	fi

	# The page itself.
	wait_for 5 served_page "http://127.0.0.1:$port/metrics"
	curl -s -D "$TMP/headers" -o "$TMP/scrape.txt" "http://127.0.0.1:$port/metrics"
	check_eq "page" "$(awk 'NR == 1 { print $2 }' "$TMP/headers")" 200 "GET /metrics"
	check_eq "page" \
		"$(awk -F': ' 'tolower($1) == "content-type" { sub(/\r$/, "", $2); print $2 }' "$TMP/headers")" \
		"text/plain; version=0.0.4; charset=utf-8" "content type"
	if promtool check metrics <"$TMP/scrape.txt" >"$TMP/promtool.out" 2>&1; then
		pass "page" "promtool check metrics"
	else
		fail "page" "promtool check metrics: $(head -c 500 "$TMP/promtool.out")"
	fi
	check_eq "page" "$(http_code "http://127.0.0.1:$port/nope")" 404 "unknown path"
	check_eq "page" "$(http_code "http://127.0.0.1:$port/")" 404 "root path"
	check_eq "page" "$(http_code "http://127.0.0.1:$port/metrics" -X POST)" 405 "POST"
	check_eq "page" "$(ss -Htlnp "sport = :$port" | grep -c getpid_loop)" 0 \
		"the command does not inherit the listening socket"

	# Exact counts through a real server.
	if ! wait_for 20 promval_is 'auditskip_skippable_walks_total{syscall="getpid"}' "$n"; then
		fail "prometheus" "skippable getpid walks after 20 s: got $(promval 'auditskip_skippable_walks_total{syscall="getpid"}'), want $n"
	else
		pass "prometheus" "skippable getpid walks = N ($n)"
	fi
	check_eq "prometheus" "$(promval 'auditskip_walks_total{syscall="getpid",arch="x86_64"}')" "$n" "getpid walks = N"
	# Other work on this host may change rules too: say so rather than
	# let the counts below fail without a reason.
	check_eq "prometheus" "$(auditctl -l | grep -c -- "key=$RULE_KEY\$")" 64 \
		"this test's 64 rules still loaded (if not, another process changed rules: rerun)"
	rules_now=$("$AUDITSKIP" rules --json)
	check_eq "prometheus" "$(promval 'auditskip_exit_rules')" "$(jq -r .exit_rules <<<"$rules_now")" \
		"exit rules = the kernel's listing"
	check_eq "prometheus" "$(promval 'auditskip_mask_syscalls')" "$(auditctl -l | expected_mask_bits)" \
		"mask syscalls = the bits of the listed exit rules' syscalls"
	check_eq "prometheus" "$(promval 'auditskip_needless_rule_visits_total{syscall="getpid"}')" \
		"$((n * $(promval 'auditskip_exit_rules')))" "needless getpid visits = N x rules"
	wait_for 5 grep -q '"type":"interval"' "$run"
	check_eq "prometheus" \
		"$(promql 'auditskip_info' | jq -r '.data.result[0].metric | "\(.mode) \(.mirror) \(.kernel) \(.version)"')" \
		"$(jq -r 'select(.type == "interval") | "\(.mode) \(.mirror_source) \(.kernel)"' "$run" | tail -n 1) $(cat VERSION)" \
		"info labels = the JSON's mode, mirror source, kernel; VERSION"
	check_eq "prometheus" "$(promval 'count(auditskip_info)')" 1 "one info series"
	check_eq "prometheus" \
		"$(promval 'sum(auditskip_skippable_walks_total) <= bool sum(auditskip_walks_total)')" 1 \
		"skippable walks never exceed walks"

	# The dashboard: every name served or planned, every query valid.
	# Rates need two scrapes in their window.
	sleep 2
	if "$DASHBOARD_CHECK" check "$DASHBOARD" "$TMP/scrape.txt" >"$TMP/dash.out"; then
		pass "dashboard" "import structure; every metric it uses is served or planned"
	else
		fail "dashboard" "metric names: $(grep FAIL "$TMP/dash.out" | tr '\n' ' ')"
	fi
	grep NOTICE "$TMP/dash.out"
	dashboard_queries
	check_eq "dashboard" \
		"$(curl -s --get --data-urlencode 'match[]=auditskip_info' \
			"http://127.0.0.1:$PROM_PORT/api/v1/label/instance/values" |
			jq --arg i "127.0.0.1:$port" '.data | index($i) != null')" true \
		"instance variable lists the target"

	touch "$TMP/go"
	wait "$pid"
	status=$?
	BACKGROUND=${BACKGROUND/ $pid/}
	check_eq "scrape" "$status" 0 "auditskip exit status"
	check_eq "scrape" "$(syscall_field "$run" getpid skippable_walks)" "$n" "JSON summary agrees: skippable getpid = N"
	check_detached "scrape"
	# A busy port: the server's own.
	expect_refusal "busy port" "cannot serve metrics on 127\\.0\\.0\\.1:$PROM_PORT: Address already in use" \
		--metrics "127.0.0.1:$PROM_PORT" -d 1
	prometheus_stop
	validate_json "$run" "--json -i 1 -- COMMAND"
	remove_rules "$RULE_KEY"
}

# Each dashboard query, Grafana's variables filled in, on the server that
# scraped auditskip: no error, and data for those on metrics served now.
dashboard_queries() {
	local expr answer planned name
	planned=$("$DASHBOARD_CHECK" planned)
	while IFS= read -r expr; do
		answer=$(promql "$expr")
		if [ "$(jq -r .status <<<"$answer")" != success ]; then
			fail "dashboard query" "$expr: $(jq -r '.error // .' <<<"$answer" | head -c 300)"
			continue
		fi
		for name in $planned; do
			if grep -qw "$name" <<<"$expr"; then
				pass "dashboard query" "accepted: $expr (planned metric, no data expected)"
				continue 2
			fi
		done
		if [ "$(jq '.data.result | length' <<<"$answer")" -gt 0 ]; then
			pass "dashboard query" "has data: $expr"
		else
			fail "dashboard query" "$expr: accepted but no data"
		fi
	done < <("$DASHBOARD_CHECK" exprs "$DASHBOARD")
}

# validate_json FILE WHAT: every line against the schema; keys the schema
# does not list yet are a notice (new keys keep schema 1).
validate_json() {
	if "$PYTHON" - "$SCHEMA" "$1" >"$TMP/schema.out" 2>&1 <<-'EOF'; then
		import json, sys
		import jsonschema

		schema = json.load(open(sys.argv[1]))
		jsonschema.Draft202012Validator.check_schema(schema)
		validator = jsonschema.Draft202012Validator(schema)
		defs = schema["$defs"]

		def documented(d):
		    keys = set(d.get("properties", {}))
		    for sub in d.get("allOf", []) + [d]:
		        if "$ref" in sub:
		            keys |= documented(defs[sub["$ref"].rsplit("/", 1)[1]])
		    return keys

		bad = 0
		undocumented = {}
		for n, line in enumerate(open(sys.argv[2]), 1):
		    obj = json.loads(line)
		    kind = obj.get("type", "rules")
		    for e in validator.iter_errors(obj):
		        print(f"line {n} ({kind}) {e.json_path}: {e.message[:200]}")
		        bad = 1
		    extra = set(obj) - set(schema["properties"]) - documented(defs.get(kind, {}))
		    undocumented.setdefault(kind, set()).update(extra)
		for kind, keys in sorted(undocumented.items()):
		    if keys:
		        print(f"NOTICE {kind}: keys {sys.argv[1]} does not list yet: {' '.join(sorted(keys))}")
		sys.exit(bad)
	EOF
		pass "json schema" "$2 ($(wc -l <"$1") lines: $(jq -r '.type // "rules"' "$1" | sort | uniq -c | xargs))"
	else
		fail "json schema" "$2: $(grep -v NOTICE "$TMP/schema.out" | head -n 5 | tr '\n' ' ')"
	fi
	grep NOTICE "$TMP/schema.out"
}

test_rules_json() {
	"$AUDITSKIP" rules --json >"$TMP/rules.json"
	validate_json "$TMP/rules.json" "rules --json"
}

# serves_at NAME LISTEN URL...: a whole-machine run on LISTEN answers at each URL.
serves_at() {
	local name=$1 listen=$2 pid url
	shift 2
	"$AUDITSKIP" -d 10 --metrics "$listen" >/dev/null 2>"$TMP/listen.err" &
	pid=$!
	BACKGROUND="$BACKGROUND $pid"
	for url in "$@"; do
		if wait_for 5 served_page "$url"; then
			pass "listen $name" "$url"
		else
			fail "listen $name" "$url: no page after 5 s: $(head -c 300 "$TMP/listen.err")"
		fi
	done
	kill -INT "$pid"
	wait "$pid"
	check_eq "listen $name" "$?" 0 "exit status after SIGINT"
	BACKGROUND=${BACKGROUND/ $pid/}
	check_detached "listen $name"
}

test_listen_forms() {
	local port
	port=$(free_port)
	serves_at "127.0.0.1:PORT" "127.0.0.1:$port" "http://127.0.0.1:$port/metrics"
	port=$(free_port)
	if has_ipv6_loopback; then
		serves_at ":PORT (IPv4 and IPv6)" ":$port" "http://127.0.0.1:$port/metrics" "http://[::1]:$port/metrics"
		port=$(free_port)
		serves_at "[::1]:PORT" "[::1]:$port" "http://[::1]:$port/metrics"
	else
		echo "NOTICE no IPv6 loopback here: [::1]:PORT not tested"
		serves_at ":PORT" ":$port" "http://127.0.0.1:$port/metrics"
	fi
	expect_refusal "no port" "cannot serve metrics on 127\\.0\\.0\\.1: expected ADDR:PORT" \
		--metrics 127.0.0.1 -d 1
	expect_refusal "port out of range" "invalid port '70000'" --metrics 127.0.0.1:70000 -d 1
	expect_refusal "IPv6 without brackets" "brackets" --metrics ::1:9477 -d 1
	expect_refusal "not an address" "cannot serve metrics on 300\\.1\\.1\\.1:9477: '300\\.1\\.1\\.1'" \
		--metrics 300.1.1.1:9477 -d 1
}

run_tests
echo "metrics tests took $((SECONDS - BEGAN)) s"
summary_line
