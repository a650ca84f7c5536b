#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# A fleet in one box: three exporters on loopback ports, a real Prometheus
# scraping them every second with dashboards/auditskip.rules.yml, and the
# fleet-wide figures it records checked against the sum of the hosts' own
# numbers. No root, no audit.
#
#   tests/host/fleet.sh [-l] [-t NAME]...    three made-up hosts with different rule
#                                            sets (tests/tools/metrics_fixture), each
#                                            page rendered when it is scraped
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

# serve_fixture HOST PORT T0: the host's page, rendered at each scrape with
# its counters at their rates times the seconds since T0.
serve_fixture() {
	python3 - "$FIXTURE" "$1" "$2" "$3" >"$TMP/serve$1.log" 2>&1 <<-'PY' &
		import http.server, subprocess, sys, time
		fixture, host, port, t0 = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
		class Page(http.server.BaseHTTPRequestHandler):
		    def do_GET(self):
		        if self.path != "/metrics":
		            self.send_error(404)
		            return
		        body = subprocess.run([fixture, host, "%.3f" % (time.time() - t0)],
		                              check=True, capture_output=True).stdout
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

TARGETS=()
if [ ${#LIVE[@]} -gt 0 ]; then
	TARGETS=("${LIVE[@]}")
else
	[ -x "$FIXTURE" ] || { fail "fleet: fixture" "no $FIXTURE (make $FIXTURE)"; summary_line; exit 1; }
	# A start a little before the first scrape, as an exporter's start is.
	T0=$(date +%s.%N)
	for h in 1 2 3; do
		port=$(free_port)
		serve_fixture "$h" "$port" "$T0"
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
		for h in 1 2 3; do
			echo "127.0.0.1:${TARGETS[h - 1]#*:} $("$FIXTURE" "$h" rates)"
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

# Every dashboard query is valid PromQL on this server, and most find data.
test_dashboard() {
	local errors=0 empty=0 n=0 e r
	while IFS= read -r e; do
		n=$((n + 1))
		r=$(query "$e")
		case "$r" in ERROR*) errors=$((errors + 1)); log "$e: $r" ;; "") empty=$((empty + 1)) ;; esac
	done < <(tests/host/dashboard-check.sh exprs dashboards/auditskip.json)
	check_eq "fleet: dashboard queries run" "$errors" 0 "$n queries, $empty without data"
	[ ${#LIVE[@]} -gt 0 ] || check_eq "fleet: dashboard queries find data" "$empty" 0
}
run_test dashboard test_dashboard
summary_line
