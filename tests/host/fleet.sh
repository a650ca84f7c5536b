#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# A fleet in one box: exporters on loopback ports, a real Prometheus
# scraping them every second with dashboards/auditskip.rules.yml, and the
# fleet-wide figures it records and the dashboard's panels checked against
# the hosts' own numbers. No root, no audit.
#
#   tests/host/fleet.sh [-l] [-t NAME]...    three made-up hosts with different rule
#                                            sets (tests/tools/metrics_fixture), each
#                                            page rendered when it is scraped: host 1
#                                            as auditskip before --duty served it (no
#                                            covered or elapsed seconds), host 2
#                                            counting in full, host 3 with --duty 1s/4s;
#                                            and host 3 counted in full (its twin)
#   tests/host/fleet.sh --live A:P B:P ...   live exporters (auditskip --metrics A:P);
#                                            their own numbers from two reads of
#                                            each page, WINDOW (default 60s) apart
#
# The rules' [5m] windows become [WINDOW] (fixtures: 10s) so that the test
# takes seconds; TOLERANCE is the relative error allowed (fixtures: 0.01;
# live: 0.1, the workload's rate moves between two reads).
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/common.sh

OUT=${OUT:-.output}
FIXTURE=$OUT/metrics_fixture
RULES=dashboards/auditskip.rules.yml
LIVE=()
if [ "${1:-}" = --live ]; then
	shift
	LIVE=("$@")
	[ ${#LIVE[@]} -ge 1 ] || die "usage: $0 [--live ADDR:PORT...]"
fi
# up: the exporters and Prometheus answer; the others read what it recorded
# (each needs the whole fleet up, so every run starts it).
[ ${#LIVE[@]} -gt 0 ] || select_tests "up recorded by-label dashboard" "$@"
if [ ${#LIVE[@]} -gt 0 ]; then
	WINDOW=${WINDOW:-60s}
	TOLERANCE=${TOLERANCE:-0.1}
else
	WINDOW=${WINDOW:-10s}
	TOLERANCE=${TOLERANCE:-0.01}
fi
TMP=$(mktemp -d)
PIDS=()
trap 'for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; rm -rf "$TMP"' EXIT

for cmd in prometheus curl jq python3; do
	command -v $cmd >/dev/null || { fail "fleet: $cmd" "not installed"; summary_line; exit 1; }
done

# serve_fixture HOST PORT T0 HOW: the host's page, rendered at each
# scrape with its counters at their rates times the seconds since T0 that it
# counted; HOW full: counted in full, legacy: without the families --duty
# brought, empty: as the fixture has the host count.
serve_fixture() {
	python3 - "$FIXTURE" "$1" "$2" "$3" "$4" >"$TMP/serve$1$4.log" 2>&1 <<-'PY' &
		import http.server, re, subprocess, sys, time
		fixture, host, port, t0, how = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
		duty = re.compile(rb"^(# (HELP|TYPE) )?auditskip_(covered_seconds_total|elapsed_seconds_total|duty_\w+"
		                  rb"|estimated_(skippable_)?walks(_stderr)?|counting_\w+|self_cpu_seconds_total)\b")
		class Page(http.server.BaseHTTPRequestHandler):
		    def do_GET(self):
		        if self.path != "/metrics":
		            self.send_error(404)
		            return
		        body = subprocess.run([fixture, host, "%.3f" % (time.time() - t0)] + (["full"] if how == "full" else []),
		                              check=True, capture_output=True).stdout
		        if how == "legacy":
		            body = b"".join(l for l in body.splitlines(True) if not duty.match(l))
		        self.send_response(200)
		        self.send_header("Content-Type", "text/plain; version=0.0.4")
		        self.send_header("Content-Length", str(len(body)))
		        self.end_headers()
		        self.wfile.write(body)
		    def log_message(self, *args):
		        pass
		http.server.HTTPServer(("127.0.0.1", port), Page).serve_forever()
	PY
	PIDS+=($!)
}

# The made-up hosts, as the header says: TARGETS[i] serves host FIXTURE_HOST[i].
FIXTURE_HOST=(1 2 3 3)
FIXTURE_HOW=(legacy "" "" full)
TARGETS=()
if [ ${#LIVE[@]} -gt 0 ]; then
	TARGETS=("${LIVE[@]}")
else
	[ -x "$FIXTURE" ] || { fail "fleet: fixture" "no $FIXTURE (make $FIXTURE)"; summary_line; exit 1; }
	# A start a little before the first scrape, as an exporter's start is.
	T0=$(date +%s.%N)
	for i in 0 1 2 3; do
		port=$(free_port)
		serve_fixture "${FIXTURE_HOST[i]}" "$port" "$T0" "${FIXTURE_HOW[i]}"
		TARGETS+=("127.0.0.1:$port")
	done
fi
for t in "${TARGETS[@]}"; do
	if wait_for 10 curl -sf -o /dev/null "http://$t/metrics"; then
		test_selected up && pass "fleet: exporter $t answers"
	else
		fail "fleet: exporter $t answers" "no /metrics"
	fi
done

PROM_PORT=$(free_port)
sed "s/\[5m\]/[$WINDOW]/g" "$RULES" >"$TMP/rules.yml"
{
	printf 'global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n  evaluation_interval: 1s\n'
	printf 'rule_files: ["%s"]\n' "$TMP/rules.yml"
	printf 'scrape_configs:\n  - job_name: auditskip\n    static_configs:\n      - targets: ['
	printf '"%s",' "${TARGETS[@]}" | sed 's/,$//'
	printf ']\n'
} >"$TMP/prometheus.yml"
prometheus --config.file="$TMP/prometheus.yml" --storage.tsdb.path="$TMP/data" \
	--web.listen-address="127.0.0.1:$PROM_PORT" --log.level=warn >"$TMP/prometheus.log" 2>&1 &
PIDS+=($!)
if wait_for 30 curl -sf -o /dev/null "http://127.0.0.1:$PROM_PORT/-/ready"; then
	test_selected up && pass "fleet: prometheus up" "127.0.0.1:$PROM_PORT, windows $WINDOW"
else
	fail "fleet: prometheus up" "$(tail -n 3 "$TMP/prometheus.log" | tr '\n' ' ')"
	summary_line
	exit 1
fi

# query EXPR: each sample as "LABELS VALUE", labels as k=v joined by commas.
query() {
	curl -s --data-urlencode "query=$1" "http://127.0.0.1:$PROM_PORT/api/v1/query" |
		jq -r 'if .status != "success" then "ERROR \(.error)" else .data.result[]
			| "\(.metric | to_entries | map("\(.key)=\(.value)") | join(",")) \(.value[1])" end'
}
scalar() { query "$1" | awk 'NR == 1 { print $NF }'; }

# page_sum URL FAMILY: the sum of a family's samples on a page.
page_sum() {
	awk -v f="$2" '$1 == f || index($1, f "{") == 1 { s += $NF } END { printf "%.9f\n", s }' "$1"
}

# The hosts' own rates: walks, skippable walks, CPU seconds saved per second.
own_rates() {
	local i t
	if [ ${#LIVE[@]} -eq 0 ]; then
		for i in "${!TARGETS[@]}"; do
			echo "${TARGETS[i]} $("$FIXTURE" "${FIXTURE_HOST[i]}" rates)"
		done
		return
	fi
	for i in "${!TARGETS[@]}"; do
		t=${TARGETS[i]}
		awk -v t="$t" -v dt="$LIVE_DT" '{ a[NR] = $0 } END {
			split(a[1], x, " "); split(a[2], y, " ")
			printf "%s %.6f %.6f %.9f\n", t, (y[1] - x[1]) / dt, (y[2] - x[2]) / dt, (y[3] - x[3]) / dt
		}' "$TMP/own$i.txt"
	done
}

# read_pages: the three families of every live page, appended to own$i.txt.
read_pages() {
	local i
	for i in "${!TARGETS[@]}"; do
		curl -sf "http://${TARGETS[i]}/metrics" >"$TMP/page.txt"
		echo "$(page_sum "$TMP/page.txt" auditskip_walks_total)" \
			"$(page_sum "$TMP/page.txt" auditskip_skippable_walks_total)" \
			"$(page_sum "$TMP/page.txt" auditskip_estimated_saved_seconds_total)" >>"$TMP/own$i.txt"
	done
}

# Full windows of samples (the first scrapes come a second or two after
# Prometheus is ready, and rate() extrapolates a series younger than its
# window only so far), and the rules evaluated on them.
secs=${WINDOW%s}
case "$WINDOW" in *m) secs=$((${WINDOW%m} * 60)) ;; esac
all_up() { [ "$(scalar 'count(up == 1)')" = "${#TARGETS[@]}" ]; }
wait_for 30 all_up
[ ${#LIVE[@]} -gt 0 ] && read_pages
start=$(date +%s.%N)
sleep $((secs * 2 + 3))
[ ${#LIVE[@]} -gt 0 ] && read_pages
LIVE_DT=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
recorded() { [ -n "$(scalar 'fleet:auditskip_skippable_walks:ratio_rate5m')" ]; }
wait_for 10 recorded

run_test up check_eq "fleet: every target up" "$(scalar 'count(up == 1)')" "${#TARGETS[@]}"
own_rates >"$TMP/own.txt"
log "own rates (target walks/s skippable/s saved-cores):"
sed 's/^/    /' "$TMP/own.txt" >&2

# close NAME GOT WANT: within TOLERANCE of WANT.
close() {
	if [ -n "$2" ] && awk -v g="$2" -v w="$3" -v t="$TOLERANCE" \
		'BEGIN { d = g - w; if (d < 0) d = -d; exit !(d <= t * (w < 0 ? -w : w) + 1e-12) }'; then
		pass "$1" "$2 (hosts' own: $3)"
	else
		fail "$1" "Prometheus ${2:-(nothing)}, the hosts' own $3 (tolerance $TOLERANCE)"
	fi
}

test_recorded() {
	local target cores
	close "fleet: skippable share of walks" "$(scalar 'fleet:auditskip_skippable_walks:ratio_rate5m')" \
		"$(awk '{ w += $2; s += $3 } END { printf "%.9f", s / w }' "$TMP/own.txt")"
	close "fleet: CPU saved, cores" "$(scalar 'fleet:auditskip_saved_cpu_cores:rate5m')" \
		"$(awk '{ c += $4 } END { printf "%.9f", c }' "$TMP/own.txt")"
	query 'instance:auditskip_saved_cpu_cores:rate5m' >"$TMP/per-instance.txt"
	while read -r target _ _ cores; do
		close "fleet: CPU saved on $target" \
			"$(awk -v t="instance=$target" 'index($1, t) { print $2 }' "$TMP/per-instance.txt")" "$cores"
	done <"$TMP/own.txt"
}
run_test recorded test_recorded

# by_label INFO LABEL WHAT: the recorded LABEL:auditskip_saved_cpu_cores:rate5m
# against the hosts' own saving summed by the LABEL of their INFO series;
# the instance and its label value in $TMP/LABEL.txt.
by_label() {
	query "$1" | sed -n "s/.*instance=\([^,]*\).*$2=\([^,]*\).*/\1 \2/p;
		s/.*$2=\([^,]*\).*instance=\([^,]*\).*/\2 \1/p" | sort -u >"$TMP/$2.txt"
	query "$2:auditskip_saved_cpu_cores:rate5m" >"$TMP/by-$2.txt"
	for k in $(awk '{ print $2 }' "$TMP/$2.txt" | sort -u); do
		want=$(awk -v k="$k" 'NR == FNR { if ($2 == k) in_k[$1] = 1; next } ($1 in in_k) { c += $4 }
			END { printf "%.9f", c }' "$TMP/$2.txt" "$TMP/own.txt")
		close "fleet: CPU saved on $3 $k" \
			"$(awk -v k="$2=$k" 'index($1 ",", k ",") { print $2 }' "$TMP/by-$2.txt")" "$want"
	done
}
test_by_label() {
	by_label auditskip_build_info kernel kernel
	[ ${#LIVE[@]} -gt 0 ] || check_eq "fleet: kernels of the made-up hosts" \
		"$(awk '{ print $2 }' "$TMP/kernel.txt" | sort -u | tr '\n' ' ')" "6.1.0-fixture 6.12.0-fixture "
	by_label auditskip_rules_info ruleset "rule set"
	[ ${#LIVE[@]} -gt 0 ] || check_eq "fleet: rule sets of the made-up hosts" \
		"$(awk '{ print $2 }' "$TMP/ruleset.txt" | sort -u | wc -l)" 2 "hosts 2 and 3 share one"
}
run_test by-label test_by_label
run_test recorded check_eq "fleet: no alert firing" "$(query 'ALERTS{alertstate="firing"}')" ""

# panel_exprs TITLE: the queries of the dashboard's panel TITLE, as exprs gives them.
panel_exprs() {
	jq --arg t "$1" '.panels |= map(select(.title == $t))' dashboards/auditskip.json >"$TMP/panel.json"
	tests/host/dashboard-check.sh exprs "$TMP/panel.json"
}

# The panels against the hosts (fixtures only), printed as "PASS|FAIL<TAB>NAME<TAB>DETAIL":
#   true rates   walks, skippable walks and CPU saved per second of each host
#                (legacy, full, duty-cycled) are its own rates over the whole time;
#                these and the twin over ranges of WINDOW;
#   twin         every query gives the same with host 3 (--duty) as with its twin
#                (host 3 counted in full) in its place, but the share counted,
#                which is each page's covered over elapsed seconds;
#   no window    at a time whose [2s] range holds no window of host 3, each query
#                of a counter that counts only in windows shows nothing of host 3
#                (and so the fleet as hosts 1 and 2 alone), the share counted 0.
# What counts only in windows: what the counting programs count and what is
# priced from it (not listings or mirror changes: heard between windows too).
COUNTED="auditskip_walks_total auditskip_skippable_walks_total auditskip_needless_rule_visits_total
	auditskip_estimated_saved_seconds_total auditskip_estimated_saved_sharper_seconds_total
	auditskip_rule_cost_seconds_total auditskip_design_saved_seconds"
check_panels() {
	{
		panel_exprs "Exit-filter walks per second"
		panel_exprs "Estimated CPU saved per host"
	} >"$TMP/rates.txt"
	python3 - "http://127.0.0.1:$PROM_PORT" "$TMP/exprs.txt" "$TMP/rates.txt" "$TMP/own.txt" \
		"$TOLERANCE" "$COUNTED" "$WINDOW" "${TARGETS[@]}" <<-'PY'
		import json, math, re, sys, time, urllib.parse, urllib.request
		prom, exprs_file, rates_file, own_file, tol, counted, window = sys.argv[1:8]
		legacy, full, duty, twin = sys.argv[8:12]
		tol, counted = float(tol), set(counted.split())
		exprs = [l.rstrip("\n") for l in open(exprs_file) if l.strip()]
		own = {l.split()[0]: [float(x) for x in l.split()[1:]] for l in open(own_file)}

		def say(ok, name, detail):
		    print("%s\tfleet: %s\t%s" % ("PASS" if ok else "FAIL", name, detail))

		def api(path, **args):
		    url = prom + "/api/v1/" + path + "?" + urllib.parse.urlencode(args)
		    r = json.load(urllib.request.urlopen(url))
		    if r["status"] != "success":
		        raise RuntimeError(r.get("error"))
		    return r["data"]["result"]

		# Ranges of WINDOW, which the samples fill (rate() over a longer one would
		# take the missing part as no growth), or RNG.
		def query(e, hosts, at, rng=window):
		    e = e.replace('instance=~".*"', 'instance=~"%s"' % "|".join(hosts))
		    e = e.replace("[1m]", "[%s]" % rng)
		    out = {}
		    for x in api("query", query=e, time=at):
		        m = x["metric"]
		        if m.get("instance") == twin:
		            m["instance"] = duty
		        out[tuple(sorted(m.items()))] = float(x["value"][1])
		    return out

		def close(got, want):
		    if math.isnan(got) or math.isnan(want):
		        return math.isnan(got) and math.isnan(want)
		    return abs(got - want) <= tol * abs(want) + 1e-12

		def same(a, b):
		    return a.keys() == b.keys() and all(close(a[k], b[k]) for k in a)

		def show(r):
		    return " ".join("%s=%g" % (",".join(v for k, v in k if k != "job"), r[k]) for k in sorted(r)) or "nothing"

		names = lambda e: set(re.findall(r"\bauditskip_[a-z_]+\b", e))
		share = lambda e: names(e) <= {"auditskip_covered_seconds_total", "auditskip_elapsed_seconds_total"}
		now = time.time()

		# True rates: walks, skippable walks (one panel), CPU saved (the next).
		col = 0
		for e in open(rates_file).read().splitlines():
		    got = query(e, [legacy, full, duty], now)
		    for h in (legacy, full, duty):
		        g = [v for k, v in got.items() if ("instance", h) in k]
		        w = own[h][col]
		        say(len(g) == 1 and close(g[0], w), "panel shows %s's own rate (%s)" % (h, sorted(names(e))[-1]),
		            "%s, own %g" % (g or "nothing", w))
		    col += 1

		# The twin: host 3 counted in full in its place.
		for n, e in enumerate(exprs, 1):
		    a, b = query(e, [legacy, full, duty], now), query(e, [legacy, full, twin], now)
		    if share(e):
		        raw = {}
		        for x in api("query", query='{__name__=~"auditskip_(covered|elapsed)_seconds_total",instance=~"%s|%s"}[%s]' % (full, duty, window), time=now):
		            v = x["values"]
		            raw[x["metric"]["__name__"], x["metric"]["instance"]] = float(v[-1][1]) - float(v[0][1])
		        want = {h: raw["auditskip_covered_seconds_total", h] / raw["auditskip_elapsed_seconds_total", h] for h in (full, duty)}
		        got = {dict(k)["instance"]: v for k, v in a.items()}
		        ok = got.keys() == want.keys() and all(close(got[h], want[h]) for h in want) and want[duty] < 0.5
		        say(ok, "query %d: share counted per host, covered over elapsed seconds" % n,
		            "got %s, pages' %s" % (show(a), want))
		        continue
		    say(same(a, b), "query %d: host 3 (--duty 1s/4s) as its full count" % n,
		        "%s" % show(a) if same(a, b) else "duty-cycled %s; counted in full %s" % (show(a), show(b)))

		# No window in the range.
		v = api("query", query='auditskip_covered_seconds_total{instance="%s"}[40s]' % duty, time=now)[0]["values"]
		at = None
		for t, c in reversed(v):
		    inside = [x for x in v if t - 2.5 <= x[0] <= t]
		    if len([x for x in inside if x[0] > t - 2]) >= 2 and all(x[1] == c for x in inside):
		        at = t
		        break
		if at is None:
		    say(False, "a range with no window of host 3", "none in %s" % v)
		    sys.exit(0)
		for n, e in enumerate(exprs, 1):
		    if share(e):
		        a = query(e, [legacy, full, duty], at, "2s")
		        got = {dict(k)["instance"]: v for k, v in a.items()}
		        say(got.get(duty) == 0 and close(got.get(full, 0), 1),
		            "query %d: share counted 0 in a range with no window" % n, show(a))
		    elif names(e) & counted:
		        a, b = query(e, [legacy, full, duty], at, "2s"), query(e, [legacy, full], at, "2s")
		        say(same(a, b), "query %d: nothing of host 3 in a range with no window" % n,
		            show(a) if same(a, b) else "%s; hosts 1 and 2 alone %s" % (show(a), show(b)))
	PY
}

# Every dashboard query is valid PromQL on this server, and most find data;
# with the made-up hosts, what the panels show is checked (check_panels).
test_dashboard() {
	local errors=0 empty=0 n=0 e r result name detail
	tests/host/dashboard-check.sh exprs dashboards/auditskip.json >"$TMP/exprs.txt"
	while IFS= read -r e; do
		n=$((n + 1))
		r=$(query "$e")
		case "$r" in ERROR*) errors=$((errors + 1)); log "$e: $r" ;; "") empty=$((empty + 1)) ;; esac
	done <"$TMP/exprs.txt"
	check_eq "fleet: dashboard queries run" "$errors" 0 "$n queries, $empty without data"
	[ ${#LIVE[@]} -eq 0 ] || return 0
	check_eq "fleet: dashboard queries find data" "$empty" 0
	check_panels >"$TMP/panels.txt" 2>"$TMP/panels.err"
	[ -s "$TMP/panels.err" ] && fail "fleet: dashboard panels checked" "$(tail -n 3 "$TMP/panels.err" | tr '\n' ' ')"
	while IFS=$'\t' read -r result name detail; do
		if [ "$result" = PASS ]; then pass "$name" "$detail"; else fail "$name" "$detail"; fi
	done <"$TMP/panels.txt"
}
run_test dashboard test_dashboard
summary_line
