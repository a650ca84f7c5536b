#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The chart of an evidence result, from its markdown alone (nothing rerun).
#
#   bench/evidence-chart.sh FILE.md [OUT.png]    default OUT: FILE's .png
#   make evidence-chart RESULT=FILE.md
#
# Reads the "Per rule set and workload" table of `bench/evidence.sh`'s
# output (columns found by their header: rule set, workload, PATCH, ARCH,
# ARCHPERM (PERM in results before it), ENTRY, 2023, PREFIX) and the
# header's kernel release and run date. Draws six panels side by side: the
# patch's aggregate mask, the per-arch masks, the archperm design's exit
# masks, the contexts its entry form makes dummy, the 2023 design (a dummy
# context for syscalls no rule names) and the never,exit prefix a stock
# kernel can load today, horizontal bars with the rule sets
# on the y axis in the table's order and one bar per workload. A value of 0
# is drawn as a "0" at the axis; a value the table lacks (empty, "-", or a
# column an older result has not got) is left blank, as the caption says.
set -euo pipefail

die() { echo "evidence-chart: $*" >&2; exit 1; }
if [ $# -lt 1 ] || [ $# -gt 2 ]; then die "usage: $0 FILE.md [OUT.png]"; fi
MD=$1
PNG=${2:-${MD%.md}.png}
[ -r "$MD" ] || die "cannot read $MD"
command -v gnuplot >/dev/null || die "gnuplot not found (apt-get install gnuplot-nox)"

W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT

# Data lines: set index, workload index, PATCH, ARCH, ARCHPERM, PREFIX, 2023, ENTRY ("?" where missing).
# Also sets.txt and workloads.txt, each in the table's order of first sight.
awk -F'|' -v dat="$W/chart.dat" -v sets="$W/sets.txt" -v wls="$W/workloads.txt" '
	function trim(s) { gsub(/^[ \t]+|[ \t]+$/, "", s); return s }
	function val(i,   v) {
		if (!i) return "?"
		v = trim($i); sub(/%$/, "", v)
		return v ~ /^[0-9]+(\.[0-9]*)?$/ ? v + 0 : "?"
	}
	/^## / { insec = ($0 ~ /^## Per rule set and workload/); inhead = 0; next }
	!insec || !/^\|/ { next }
	!cols {
		for (i = 2; i < NF; i++) col[trim($i)] = i
		cols = 1
		if (!col["rule set"] || !col["workload"]) { print "no rule set or workload column" > "/dev/stderr"; exit 1 }
		next
	}
	/^\|[-: |]+$/ { next }
	{
		s = trim($col["rule set"]); w = trim($col["workload"])
		if (!(s in si)) { si[s] = ns++; print s > sets }
		if (!(w in wi)) { wi[w] = nw++; print w > wls }
		printf "%d %d %s %s %s %s %s %s\n", si[s], wi[w], val(col["PATCH"]), val(col["ARCH"]),
			val(col["ARCHPERM"] ? col["ARCHPERM"] : col["PERM"]), val(col["PREFIX"]), val(col["2023"]),
			val(col["ENTRY"]) > dat
		rows++
	}
	END { if (!rows) { print "no \"Per rule set and workload\" table" > "/dev/stderr"; exit 1 } }
' "$MD" || die "$MD: not an evidence result"

# shellcheck disable=SC2016 # the backquotes are markdown's
KERNEL=$(sed -n 's/^- uname -r: `\([^`]*\)`.*/\1/p' "$MD" | head -n 1)
RUNDATE=$(sed -n 's/^Run \([0-9-]*\) .*/\1/p' "$MD" | head -n 1)
NSETS=$(wc -l <"$W/sets.txt")
NWL=$(wc -l <"$W/workloads.txt")
MISSING=$(awk '{ for (i = 3; i <= 8; i++) m += ($i == "?") } END { print m + 0 }' "$W/chart.dat")

# Okabe-Ito colours (told apart with colour-blindness too), cycled if needed.
COLOURS=(0072B2 E69F00 009E73 CC79A7 D55E00 56B4E9 000000)
slot=$(awk -v n="$NWL" 'BEGIN { printf "%.4f", 0.84 / n }')
half=$(awk -v s="$slot" 'BEGIN { printf "%.4f", s * 0.42 }')

# gnuplot quoting: single quotes doubled inside a single-quoted string.
q() { printf "'%s'" "${1//\'/\'\'}"; }
ytics="" blanks="" i=0
while IFS= read -r s; do
	ytics+="${ytics:+, }$(q "$s") $i"
	blanks+="${blanks:+, }'' $i"
	i=$((i + 1))
done <"$W/sets.txt"
# Alternate rows shaded, so a rule set can be followed across the panels.
bands=""
for ((i = 0; i < NSETS; i += 2)); do
	bands+="set object rect from graph 0, first $i - 0.5 to graph 1, first $i + 0.5 behind fc rgb '#f0f0f0' fs solid noborder
"
done

# One series per workload: the bar, then a "0" where the value is 0.
# $1: the data column (3 PATCH, 4 ARCH, 5 ARCHPERM, 6 PREFIX, 7 2023, 8 ENTRY).
series() {
	local plot="" j=0 w y c
	while IFS= read -r w; do
		c=${COLOURS[j % ${#COLOURS[@]}]}
		y="(\$1 + ($j - ($NWL - 1) / 2.0) * $slot)"
		plot+="${plot:+, }'$W/chart.dat' using (\$2 == $j && \$$1 > 0 ? 0 : NaN):$y:(0):(\$$1):($y - $half):($y + $half)"
		plot+=" with boxxyerror fc rgb '#$c' fs solid 0.9 noborder notitle"
		plot+=", '$W/chart.dat' using (\$2 == $j && \$$1 == 0 ? 0 : NaN):$y:('0')"
		plot+=" with labels left offset 0.25,0 font ',8' tc rgb '#$c' notitle"
		j=$((j + 1))
	done <"$W/workloads.txt"
	printf '%s' "$plot"
}
# The key, once for the six panels: the workloads' colours.
key() {
	local plot="" j=0 w
	while IFS= read -r w; do
		plot+="${plot:+, }NaN with boxes fc rgb '#${COLOURS[j % ${#COLOURS[@]}]}' fs solid 0.9 noborder title $(q "$w")"
		j=$((j + 1))
	done <"$W/workloads.txt"
	printf '%s' "$plot"
}

# The six panels, left to right, 0.205 to 0.957 of the width.
panels() {
	local i=0 col title left right
	while IFS='|' read -r col title; do
		left=$(awk -v i=$i 'BEGIN { printf "%.4f", 0.205 + i * 0.1277 }')
		right=$(awk -v l="$left" 'BEGIN { printf "%.4f", l + 0.1137 }')
		[ $i -eq 1 ] && echo "set ytics ($blanks)"
		echo "set lmargin at screen $left"
		echo "set rmargin at screen $right"
		echo "set title $(q "$title") font ',10'"
		echo "plot $(series "$col")"
		i=$((i + 1))
	done <<-PANELS
		3|the patch's aggregate mask (PATCH)
		4|per-arch masks (ARCH)
		5|archperm, exit masks (ARCHPERM)
		8|archperm, dummy at entry (ENTRY)
		7|2023 design, dummy context (2023)
		6|stock kernel, prefix (PREFIX)
	PANELS
}

HEIGHT=$((230 + 16 * NWL * NSETS / 2 + 14 * NSETS))
caption="Bars: share of the exit-filter walks each mask would skip, archperm's entry form or the 2023 design would spare with a dummy context, or a stock kernel ends at once behind the never,exit prefix (auditskip whatif and advise --never-prefix, offline; rule sets as auditctl reads them)."
caption2="A \"0\" at the axis: the design spares no walk. No bar and no \"0\": no value in the table"
if [ "$MISSING" -gt 0 ]; then caption2+=" ($MISSING here)."; else caption2+=" (none here)."; fi

gnuplot <<EOF
set terminal pngcairo size 2000,$HEIGHT font 'DejaVu Sans,10' noenhanced
set output $(q "$PNG")
set datafile missing '?'
set multiplot title $(q "Share of exit-filter walks skipped or ended at once, per rule set and workload: Linux ${KERNEL:-?}, run ${RUNDATE:-?}") font ',13'
set xrange [0:100]
set xtics 0,20,100 format '%g%%' nomirror out
set mxtics 2
set grid xtics mxtics lc rgb '#cccccc' lw 1
set yrange [$NSETS - 0.5:-0.5]
set ytics ($ytics) nomirror scale 0
set border 3
$bands
set tmargin at screen 0.93
set bmargin at screen $(awk -v h="$HEIGHT" 'BEGIN { printf "%.4f", 110 / h }')
set xlabel '% of walks skipped'
unset key

$(panels)

set label 1 $(q "$caption") at screen 0.01, screen $(awk -v h="$HEIGHT" 'BEGIN { printf "%.4f", 36 / h }') font ',9'
set label 2 $(q "$caption2") at screen 0.01, screen $(awk -v h="$HEIGHT" 'BEGIN { printf "%.4f", 18 / h }') font ',9'
unset title
unset xlabel
unset border
unset tics
unset grid
unset object
set xrange [0:1]
set yrange [0:1]
set lmargin at screen 0
set rmargin at screen 1
set key at screen 0.5, screen 0.965 center horizontal samplen 1.5 width 2 font ',11'
plot $(key)
unset multiplot
EOF
echo "evidence-chart: wrote $PNG" >&2
