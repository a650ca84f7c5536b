#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The designs table of doc/upstream.md and of its draft cover letter, from a
# committed evidence result alone (nothing rerun).
#
#   bench/upstream-table.sh RESULT.md [SET...]
#
# Reads the "Per rule set and workload" table of `bench/evidence.sh`'s
# output (columns found by their header) and prints, for each SET (default:
# the compliance and public sets upstream asked about) and workload, the
# share of exit-filter walks each kernel design spares and the ns it saves
# per syscall at the price the result's header gives (that machine's
# calibration): the series (PATCH, NS), the 2023 design, archperm's exit
# form (ARCHPERM, AP NS) and its entry form (ENTRY: calls given a dummy
# context, ENTRY NS). Plain text, 72 columns, as a cover letter wants it.
set -euo pipefail

die() { echo "upstream-table: $*" >&2; exit 1; }
[ $# -ge 1 ] || die "usage: $0 RESULT.md [SET...]"
MD=$1
shift
[ -r "$MD" ] || die "cannot read $MD"
SETS=${*:-30-stig 30-pci-dss-v31 30-ospp-v42 30-nispom neo23x0-auditd bfuzzy-auditd-attack}

awk -F'|' -v sets="$SETS" '
	function trim(s) { gsub(/^[ \t]+|[ \t]+$/, "", s); return s }
	function get(name,   v) {
		if (!col[name]) { missing[name] = 1; return "-" }
		v = trim($col[name]); return v == "" ? "-" : v
	}
	BEGIN {
		n = split(sets, want, " ")
		for (i = 1; i <= n; i++) order[want[i]] = i
	}
	/^## / { insec = ($0 ~ /^## Per rule set and workload/); next }
	!insec || !/^\|/ { next }
	!cols { for (i = 2; i < NF; i++) col[trim($i)] = i; cols = 1; next }
	/^\|[-: |]+$/ { next }
	{
		s = trim($col["rule set"])
		if (!(s in order)) next
		rows[order[s], ++count[s]] = sprintf("%-14s %-7s %7s %6s %6s %8s %6s %7s %6s",
			substr(s, 1, 14), substr(trim($col["workload"]), 1, 7), get("PATCH"), get("NS"),
			get("2023 NS"), get("ARCHPERM"), get("AP NS"), get("ENTRY"), get("ENTRY NS"))
		found++
	}
	END {
		if (!found) { print "upstream-table: none of the sets in the table" > "/dev/stderr"; exit 1 }
		for (m in missing) { print "upstream-table: no column " m " (an older result?)" > "/dev/stderr"; exit 1 }
		printf "%-14s %-7s %7s %6s %6s %8s %6s %7s %6s\n", "", "", "series", "", "2023", "archperm", "", "entry", ""
		printf "%-14s %-7s %7s %6s %6s %8s %6s %7s %6s\n", "rule set", "load", "walks", "ns", "ns", "walks", "ns", "dummy", "ns"
		for (i = 1; i <= n; i++)
			for (j = 1; j <= count[want[i]]; j++) print rows[i, j]
	}
' "$MD" | sed 's/ *$//'
