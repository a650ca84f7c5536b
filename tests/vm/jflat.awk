# SPDX-License-Identifier: GPL-2.0
# Flattens one JSON value into "path=value" lines, e.g.
#   {"mode":"filter-op","syscalls":[{"nr":39,"walks":5}]}
# becomes
#   mode=filter-op
#   syscalls.0.nr=39
#   syscalls.0.walks=5
# The guest has no jq; busybox sed + awk are enough for the tool's output.
# Input must already be split into one token per line (see jflat() in
# guest-tests.sh): doing the split with one sed pass keeps this linear, where
# eating the line character by character in awk is quadratic and slow under
# TCG. String escapes are left as they are; no test needs them decoded.
{
	t = $0
	gsub(/^[ \t\r]+|[ \t\r]+$/, "", t)
	if (t == "")
		next
	if (t == "{") { d++; kind[d] = "o"; key[d] = ""; wantkey[d] = 1; next }
	if (t == "[") { d++; kind[d] = "a"; key[d] = 0; next }
	if (t == "}" || t == "]") { d--; next }
	if (t == ",") {
		if (kind[d] == "a")
			key[d]++
		else
			wantkey[d] = 1
		next
	}
	if (t == ":")
		next
	if (t ~ /^"/) {
		t = substr(t, 2, length(t) - 2)
		if (kind[d] == "o" && wantkey[d]) { key[d] = t; wantkey[d] = 0; next }
	}
	p = ""
	for (i = 1; i <= d; i++)
		p = p (i > 1 ? "." : "") key[i]
	print p "=" t
}
