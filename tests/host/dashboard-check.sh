#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Checks a Grafana dashboard against the metrics auditskip serves.
#
#   dashboard-check.sh names DASHBOARD           metric names its queries use
#   dashboard-check.sh exprs DASHBOARD           its PromQL, Grafana variables filled in
#   dashboard-check.sh check DASHBOARD SCRAPE    fails on a name that SCRAPE (a /metrics
#                                                page) does not serve and PLANNED does not list
#   dashboard-check.sh planned                   the PLANNED and OPTIONAL names: a page
#                                                may lack them
#
# No root and no server needed: `curl -s http://ADDR:PORT/metrics > scrape.txt`.
set -u

# Metrics whose data other work adds to auditskip. The dashboard may show them
# ahead of time; each is printed as a notice until auditskip serves it.
PLANNED=""
# Metrics served only in the modes that can know them (doc/metrics.md): the
# outcome counters; and only when asked for: --per-rule's. A page without
# them is no failure.
OPTIONAL="auditskip_missed_matches_total auditskip_missed_arch_mask_total auditskip_missed_perm_mask_total auditskip_raced_matches_total auditskip_design_saved_seconds auditskip_rule_cost_seconds_total"

usage() {
	echo "usage: $0 names|exprs DASHBOARD | check DASHBOARD SCRAPE | planned" >&2
	exit 2
}

# Every query text: panel targets, and query variables (label_values(METRIC, LABEL)).
queries() {
	jq -r '[.panels[]?, (.panels[]?.panels[]?) | .targets[]? | .expr | strings] +
	       [.templating.list[]? | select(.type == "query") | (.query.query? // .query) | strings]
	       | .[]' "$1"
}

# Metric names: what is left once strings, label matchers, ranges, grouping
# clauses, variables, numbers and function calls are taken out.
names() {
	queries "$1" | jq -Rr '
		sub("^label_values\\((?<m>[a-zA-Z_:][a-zA-Z0-9_:]*),.*\\)$"; "\(.m)")
		| gsub("\"(\\\\.|[^\"\\\\])*\""; "")
		| gsub("\\{[^}]*\\}"; "") | gsub("\\[[^\\]]*\\]"; "")
		| gsub("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)"; "")
		| gsub("\\$\\{[^}]*\\}|\\$[a-zA-Z_][a-zA-Z0-9_]*"; "")
		| [scan("\\b(?>[a-zA-Z_:][a-zA-Z0-9_:]*)(?!\\s*\\()")]
		| .[] | select(IN("and", "or", "unless", "bool", "offset", "group_left",
				  "group_right", "atan2", "inf", "nan") | not)' | sort -u
}

# Values that make each query valid PromQL for an instant query.
exprs() {
	jq -r '[.panels[]?, (.panels[]?.panels[]?) | .targets[]? | .expr | strings] | .[]' "$1" |
		sed -e 's/\$__rate_interval/1m/g; s/\$__interval/15s/g; s/\$__range/1h/g' \
			-e 's/\$instance/.*/g; s/\${instance[^}]*}/.*/g'
}

# What an import needs: a Prometheus data source variable that every panel
# and query uses, unique panel ids, and a query in every target (row
# panels, which hold no query, aside).
structure() {
	jq -r '
		.panels |= map(select(.type != "row")) |
		(if [.templating.list[]? | select(.type == "datasource" and .query == "prometheus"
			and .name == "datasource")] | length == 1 then empty
		 else "no Prometheus data source variable named datasource" end),
		(.panels[] | select(.datasource.uid != "${datasource}") | "panel \(.id) \(.title): data source is not ${datasource}"),
		(.panels[] | .targets[] | select(.datasource.uid != "${datasource}" or (.expr | type) != "string" or (.refId | type) != "string")
			| "a target of a panel lacks the ${datasource} data source, expr or refId"),
		(if ([.panels[].id] | length) == ([.panels[].id] | unique | length) then empty
		 else "panel ids are not unique" end),
		(.panels[] | select((.description // "") | test("[a-z]") | not) | "panel \(.id) \(.title) has no description"),
		(.panels[] | select($planned != "")
			| select([.targets[].expr | test("\\b(\($planned | split(" ") | join("|")))\\b")] | any)
			| select(.description | test("shown once auditskip exports it"; "i") | not)
			| "panel \(.id) \(.title) shows a planned metric; its description must say \"Shown once auditskip exports it\"")
	' --arg planned "$PLANNED" "$1"
}

check() {
	local dashboard=$1 scrape=$2 name bad=0
	local served problems
	problems=$(structure "$dashboard") || return 1
	if [ -n "$problems" ]; then
		sed 's/^/FAIL /' <<<"$problems"
		bad=1
	fi
	served=$(awk '$1 == "#" && $2 == "TYPE" { print $3 }' "$scrape" | sort -u)
	if [ -z "$served" ]; then
		echo "FAIL $scrape has no '# TYPE' line: not a /metrics page"
		return 1
	fi
	if [ -z "$(names "$dashboard")" ]; then
		echo "FAIL $dashboard uses no metric"
		return 1
	fi
	for name in $(names "$dashboard"); do
		if grep -qx "$name" <<<"$served"; then
			case " $PLANNED " in *" $name "*)
				echo "NOTICE $name is served now: take it off PLANNED in $0" ;;
			esac
		elif case " $PLANNED " in *" $name "*) true ;; *) false ;; esac then
			echo "NOTICE $name: planned, not served yet (the dashboard shows it once auditskip exports it)"
		elif case " $OPTIONAL " in *" $name "*) true ;; *) false ;; esac then
			echo "NOTICE $name: not served in this page's mode (outcome modes only)"
		else
			echo "FAIL $name: used by $dashboard, neither served nor planned"
			bad=1
		fi
	done
	return $bad
}

case "${1:-}" in
names) [ $# = 2 ] || usage; names "$2" ;;
exprs) [ $# = 2 ] || usage; exprs "$2" ;;
check) [ $# = 3 ] || usage; check "$2" "$3" ;;
planned) printf '%s\n' $PLANNED $OPTIONAL ;;
*) usage ;;
esac
