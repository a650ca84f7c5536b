#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Checks, with no root and no audit: the Prometheus rules
# (dashboards/auditskip.rules.yml) pass `promtool check rules` and their
# unit tests (`promtool test rules`), every metric they use is on a rendered
# /metrics page, and the Grafana dashboard matches both that page
# (tests/host/dashboard-check.sh) and a schema of the dashboard model's
# fields it uses (dashboards/grafana-dashboard.schema.json).
#
#   tests/host/prometheus-rules.sh [-l] [-t NAME]...   (make rules-test; OUT: the build directory)
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/common.sh
select_tests "rules page rules-served dashboard" "$@"

OUT=${OUT:-.output}
RULES=dashboards/auditskip.rules.yml
RULES_TEST=dashboards/auditskip.rules.test.yml
DASHBOARD=dashboards/auditskip.json
SCHEMA=dashboards/grafana-dashboard.schema.json
FIXTURE=$OUT/metrics_fixture
PYTHON=/usr/bin/python3
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

if ! command -v promtool >/dev/null; then
	fail "promtool" "not installed (apt-get install prometheus)"
	summary_line
	exit 1
fi
if [ ! -x "$FIXTURE" ]; then
	fail "fixture" "no $FIXTURE (make $FIXTURE)"
	summary_line
	exit 1
fi

# promtool's output on failure, indented, after the result line.
run_promtool() { # run_promtool NAME ARGS...
	local name=$1
	shift
	if promtool "$@" >"$TMP/promtool.out" 2>&1; then
		pass "$name"
	else
		fail "$name" "promtool $*"
		sed 's/^/    /' "$TMP/promtool.out"
	fi
}

test_rules() {
	local status a
	run_promtool "rules: promtool check rules" check rules "$RULES"
	(cd dashboards && promtool test rules "$(basename "$RULES_TEST")") >"$TMP/test.out" 2>&1
	status=$?
	alerts=$(sed -n 's/^ *- alert: //p' "$RULES")
	for a in $alerts; do
		if grep -q "alertname: $a\$" "$RULES_TEST"; then
			pass "rules: alert $a has a unit test"
		else
			fail "rules: alert $a has a unit test" "none in $RULES_TEST"
		fi
	done
	if [ "$status" = 0 ]; then
		pass "rules: promtool test rules" "$(grep -c '^  - name:' "$RULES_TEST") test groups"
	else
		fail "rules: promtool test rules" "$RULES_TEST"
		sed 's/^/    /' "$TMP/test.out"
	fi
}

# A page of each made-up host, as the exporter renders it.
for h in 1 2 3; do
	"$FIXTURE" "$h" 600 >"$TMP/page$h.txt"
done
cat "$TMP"/page*.txt >"$TMP/pages.txt"
served=$(awk '$1 == "#" && $2 == "TYPE" { print $3 }' "$TMP/pages.txt" | sort -u)

test_page() {
	local m
	run_promtool "page: promtool check metrics" check metrics <"$TMP/page2.txt"
	for m in auditskip_build_info auditskip_resyncs_total auditskip_last_resync_timestamp_seconds \
		auditskip_mirror_changes_total auditskip_skippable_arch_mask_total \
		auditskip_skippable_perm_mask_total auditskip_estimated_saved_sharper_seconds_total \
		auditskip_raced_matches_total auditskip_info; do
		if grep -qx "$m" <<<"$served"; then
			pass "page: serves $m"
		else
			fail "page: serves $m" "not on the page"
		fi
	done
	check_eq "page: resync reasons" \
		"$(sed -n 's/^auditskip_resyncs_total{reason="\([a-z]*\)"}.*/\1/p' "$TMP/page1.txt" | tr '\n' ' ')" \
		"start change lost periodic "
	check_eq "page: counter types end in _total" \
		"$(awk '$2 == "TYPE" && $4 == "counter" && $3 !~ /_total$/ { print $3 }' "$TMP/pages.txt")" ""
}

test_rules_served() {
	local m
	# Every auditskip metric a rule uses is served (up is Prometheus's own;
	# level:auditskip_...:op are the recorded series).
	for m in $(grep -oE '(^|[^:a-z_])auditskip_[a-z_]*' "$RULES" | sed 's/^[^a]//' | sort -u); do
		if grep -qx "$m" <<<"$served"; then
			pass "rules: uses served $m"
		else
			fail "rules: uses served $m" "$m is not on the page"
		fi
	done
}

test_dashboard() {
	local out
	if out=$(tests/host/dashboard-check.sh check "$DASHBOARD" "$TMP/page2.txt"); then
		pass "dashboard: every metric its queries use is served"
	else
		fail "dashboard: every metric its queries use is served" "$(grep FAIL <<<"$out" | tr '\n' ' ')"
	fi

	# The dashboard model: jsonschema when Debian's python3-jsonschema is there.
	if "$PYTHON" -c 'import jsonschema' 2>/dev/null; then
		if out=$("$PYTHON" - "$SCHEMA" "$DASHBOARD" 2>&1 <<-'PY'
			import json, sys, jsonschema
			schema = json.load(open(sys.argv[1]))
			jsonschema.Draft202012Validator.check_schema(schema)
			v = jsonschema.Draft202012Validator(schema)
			errors = list(v.iter_errors(json.load(open(sys.argv[2]))))
			for e in errors:
			    print("/".join(map(str, e.path)) + ": " + e.message)
			sys.exit(1 if errors else 0)
		PY
		); then
			pass "dashboard: Grafana model schema" "$SCHEMA"
		else
			fail "dashboard: Grafana model schema" "$(head -n 5 <<<"$out" | tr '\n' ' ')"
		fi
	else
		fail "dashboard: Grafana model schema" "no python3-jsonschema (apt-get install python3-jsonschema)"
	fi

	# Units and layout that the schema cannot say.
	check_eq "dashboard: CPU saved panels in cores" \
		"$(jq -r '.panels[] | select([.targets[]?.expr | test("saved")] | any)
			| select(.fieldConfig.defaults.unit != "suffix: cores") | .title' "$DASHBOARD")" ""
	check_eq "dashboard: rows" "$(jq -r '[.panels[] | select(.type == "row") | .title] | join(",")' "$DASHBOARD")" \
		"Fleet,Per host,Safety,Where the time goes (auditskip --per-rule)"
	check_eq "dashboard: needless visits per host" \
		"$(jq -r '.panels[] | .targets[]?.expr | select(test("needless_rule_visits")) | test("by \\(instance, syscall\\)")' "$DASHBOARD")" \
		"true"
	check_eq "dashboard: stale panel reads auditskip_stale_known" \
		"$(jq -r '[.panels[] | .targets[]?.expr | select(test("auditskip_stale\\b"))] | map(test("auditskip_stale_known")) | all' "$DASHBOARD")" \
		"true"
	check_eq "dashboard: panels do not overlap" "$(jq -r '
		[.panels[] | .gridPos] as $g
		| [range(0; $g | length) as $i | range($i + 1; $g | length) as $j | $g[$i] as $a | $g[$j] as $b
		   | select($a.x < $b.x + $b.w and $b.x < $a.x + $a.w and $a.y < $b.y + $b.h and $b.y < $a.y + $a.h)
		   | "\($i),\($j)"] | join(" ")' "$DASHBOARD")" ""
}

run_test rules test_rules
run_test page test_page
run_test rules-served test_rules_served
run_test dashboard test_dashboard
summary_line
