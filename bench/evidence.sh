#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make evidence`: what the aggregate-mask skip and the other designs would
# do for the rule sets Debian's auditd ships and three public ones, on real
# workloads, without loading them.
#
#   bench/evidence.sh [-o FILE]       markdown on stdout (and in FILE, with
#                                     the chart beside it as FILE's .png,
#                                     drawn by bench/evidence-chart.sh)
#
# Each workload is profiled once with no rule loaded (`auditskip profile`,
# tracepoint mode: every call audit would filter): a C build (auditskip's
# own), tar and gzip of a tree and back, git operations on a clone of this
# repository, a Python program hashing a tree, and nginx serving a file to
# wrk over loopback (the server alone, by pid). Then `auditskip whatif`
# predicts, for every example rules file with exit rules (and the public
# sets of tests/data/public), the share of walks the patch would skip, the
# share the per-arch masks and the archperm design (patches/7.2-archperm)
# would skip, the calls archperm's entry form would make dummy, the rule
# entries those walks visit and the ns saved per syscall.
# A subset is cross-checked: rule files this machine loads are loaded for
# real, the tar workload counted with `auditskip --json`, and the count held
# to the prediction (within 1%: the workload's own calls vary a little).
#
# The predictions are priced with a calibration of this machine
# (`auditskip calibrate`, visits and evaluations per field kind), made first
# unless EVIDENCE_CALIBRATION names one; per rule set the report lists the
# rules that cost the most over all workloads.
#
# The machine's rules and enabled flag are saved first and restored on exit
# (bench/lib-audit.sh). Environment: RULES_DIR (default Debian's examples),
# EVIDENCE_EXTRA (more rules files, default tests/data/public/*.rules),
# EVIDENCE_CROSS (rule files to load for the cross-check, default
# "21-no32bit 42-injection 43-module-load 71-networking"), EVIDENCE_CALIBRATION.
set -euo pipefail
cd "$(dirname "$0")/.."
COMMAND="$0${*:+ $*}"
. bench/lib-audit.sh

bench_parse_args "$@"
RULES_DIR=${RULES_DIR:-/usr/share/doc/auditd/examples/rules}
EVIDENCE_EXTRA=${EVIDENCE_EXTRA-$(echo tests/data/public/*.rules)}
EVIDENCE_CROSS=${EVIDENCE_CROSS:-"21-no32bit 42-injection 43-module-load 71-networking"}
W=$BENCH_TMP
PNG=${OUTFILE:+${OUTFILE%.md}.png}
PNG=${PNG:-$W/evidence.png}

bench_require "$AUDITSKIP"
need=()
for p in gnuplot-nox nginx-light wrk git; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
	log "installing ${need[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get install -y -q "${need[@]}" >/dev/null 2>&1 ||
		{ apt-get update -q >/dev/null 2>&1 && apt-get install -y -q "${need[@]}" >/dev/null 2>&1; } ||
		die "cannot install ${need[*]}"
	# Debian starts the packaged nginx on port 80: this run needs only the binary.
	case " ${need[*]} " in *" nginx-light "*) invoke-rc.d nginx stop >/dev/null 2>&1 || true ;; esac
fi
[ -d "$RULES_DIR" ] || die "no rules directory $RULES_DIR (apt-get install auditd)"

bench_policy_save
STARTED=$(date -u '+%Y-%m-%d %H:%M:%S UTC')
CAL=${EVIDENCE_CALIBRATION:-$W/calibration.json}
if [ -z "${EVIDENCE_CALIBRATION:-}" ]; then
	log "calibrating (auditskip calibrate: visits and evaluations)"
	# Exit 75 is calibrate's "too noisy, try again": done as it says, three times at most.
	for try in 1 2 3; do
		"$AUDITSKIP" calibrate --calibration "$CAL" >"$W/calibrate.out" 2>&1 && break
		status=$?
		[ $status -eq 75 ] && [ $try -lt 3 ] && { log "calibrate: too noisy, again"; continue; }
		die "auditskip calibrate: $(tail -n 1 "$W/calibrate.out")"
	done
fi
# Tasks forked after this have audit contexts; no rule is needed to profile.
auditctl -e 1 >/dev/null

# ------------------------------------------------------------ workloads ---
PY='import hashlib, json, os, sys
out = {}
for d, _, files in os.walk(sys.argv[1]):
    for f in files:
        p = os.path.join(d, f)
        try:
            with open(p, "rb") as h:
                out[p] = hashlib.sha256(h.read()).hexdigest()
        except OSError:
            pass
json.dump(out, open(sys.argv[2], "w"))'
WORKLOADS="build tar git python nginx"
declare -A WHAT=(
	[build]="make -B -j2 of auditskip"
	[tar]="tar | gzip of /usr/share/doc, and back"
	[git]="git clone, log --stat, gc, status"
	[python]="Python hashing /usr/lib/python3"
	[nginx]="nginx under wrk (5 s, loopback)"
)
run_workload() {
	case $1 in
	build) make -s -B -j2 OUTPUT="$W/build" "$W/build/auditskip" >/dev/null 2>&1 ;;
	tar)
		rm -rf "$W/x" && mkdir -p "$W/x" &&
			tar -cf - -C /usr/share doc 2>/dev/null | gzip -c >"$W/doc.tgz" &&
			tar -xzf "$W/doc.tgz" -C "$W/x"
		;;
	git)
		rm -rf "$W/repo" && git clone -q --no-local . "$W/repo" &&
			git -C "$W/repo" log --stat -50 >/dev/null && git -C "$W/repo" gc -q &&
			git -C "$W/repo" status -s >/dev/null
		;;
	python) python3 -c "$PY" /usr/lib/python3 "$W/hashes.json" ;;
	esac
}
export -f run_workload
export W PY

# nginx: one foreground process (no master), profiled by pid while wrk loads it.
NGINX_PORT=$(free_port)
mkdir -p "$W/www" "$W/nginx"
head -c 65536 /dev/urandom >"$W/www/file"
cat >"$W/nginx.conf" <<EOF
daemon off;
master_process off;
worker_processes 1;
error_log $W/nginx/error.log;
pid $W/nginx/nginx.pid;
events { worker_connections 256; }
http {
	access_log off;
	client_body_temp_path $W/nginx; proxy_temp_path $W/nginx; fastcgi_temp_path $W/nginx;
	uwsgi_temp_path $W/nginx; scgi_temp_path $W/nginx;
	server { listen 127.0.0.1:$NGINX_PORT; root $W/www; }
}
EOF

# profile NAME [FILE]: NAME's profile in FILE (default $W/NAME.prof)
profile() {
	if [ "$1" = nginx ]; then
		nginx -c "$W/nginx.conf" &
		local npid=$!
		BENCH_CHILD_PIDS=$npid
		wait_for 10 curl -sf -o /dev/null "http://127.0.0.1:$NGINX_PORT/file" ||
			die "nginx did not answer on 127.0.0.1:$NGINX_PORT"
		"$AUDITSKIP" profile -m tracepoint -o "$W/nginx.prof" -p "$npid" -d 7 2>"$W/nginx.prof.err" &
		local ppid=$!
		sleep 1
		wrk -t2 -c16 -d5s "http://127.0.0.1:$NGINX_PORT/file" >"$W/wrk.out"
		wait $ppid || die "auditskip profile of nginx: $(tail -n 1 "$W/nginx.prof.err")"
		kill "$npid" && wait "$npid" 2>/dev/null || true
		BENCH_CHILD_PIDS=
		return
	fi
	"$AUDITSKIP" profile -m tracepoint -o "${2:-$W/$1.prof}" -- bash -c "run_workload $1" \
		2>"$W/$1.prof.err" || die "auditskip profile of $1: $(tail -n 1 "$W/$1.prof.err")"
}

auditctl -D >/dev/null
for w in $WORKLOADS; do
	log "profiling $w: ${WHAT[$w]}"
	profile "$w"
done

# ------------------------------------------------------------- what-ifs ---
# One TSV line per rule set and workload:
# set workload exit_rules mask_bits calls walks skippable arch perm visits saved_ns
#     walks_2023 saved_2023 saved_archperm contexts_entry saved_entry
#     prefix_walks prefix_ns rewrite_ns
# (walks_2023, saved_2023: the walks the 2023 design gives a dummy context
# and what it saves; saved_archperm: what archperm's exit form saves on the
# `perm` walks; contexts_entry, saved_entry: the calls its entry form makes
# dummy and what that form saves, all from whatif's designs; the last three
# from `advise
# --never-prefix --profile`: the walks the never,exit prefix ends on a stock
# kernel, what it saves, and what the patch saves under advise's rewrite of
# the set)
: >"$W/table.tsv"
for f in "$RULES_DIR"/*.rules $EVIDENCE_EXTRA; do
	set_name=$(basename "$f" .rules)
	# Each set as written (--keep-refused: a rule on a directory this host
	# lacks stays in, as on the hosts the set is for).
	if ! "$AUDITSKIP" rules --file "$f" --keep-refused --json >"$W/$set_name.rules.json" 2>"$W/$set_name.err"; then
		echo "$set_name: not read: $(tail -n 1 "$W/$set_name.err")" >>"$W/refused.txt"
		continue
	fi
	[ "$(jq -r '.exit_rules' "$W/$set_name.rules.json")" -gt 0 ] || continue
	for w in $WORKLOADS; do
		"$AUDITSKIP" whatif --file "$f" --keep-refused --profile "$W/$w.prof" --calibration "$CAL" --json \
			>"$W/$set_name.$w.json" 2>"$W/err" ||
			die "whatif $set_name on $w failed: $(tail -n 2 "$W/err")"
		"$AUDITSKIP" advise --file "$f" --keep-refused --never-prefix --profile "$W/$w.prof" \
			--calibration "$CAL" --json \
			>"$W/$set_name.$w.prefix.json" 2>"$W/err" ||
			die "advise --never-prefix $set_name on $w failed: $(tail -n 2 "$W/err")"
		paste <(jq -r --arg s "$set_name" --arg w "$w" '[$s, $w, .exit_rules, .mask_bits,
			([.syscalls[].calls] | add), .walks, .skippable_walks, .skippable_arch_mask,
			.skippable_perm_mask, .needless_rule_visits, .saved_ns,
			(.designs[] | select(.design == "2023") | .walks, .saved_ns),
			(.designs[] | select(.design == "archperm") | .saved_ns),
			(.designs[] | select(.design == "archperm-entry") | .dummy_contexts, .saved_ns)] | @tsv' \
			"$W/$set_name.$w.json") \
			<(jq -r '[.prediction.walks_ended_by_prefix, .prediction.prefix_ns,
			.prediction.patch_rewrite_ns] | @tsv' "$W/$set_name.$w.prefix.json") >>"$W/table.tsv"
	done
done

# ------------------------------------------------------------ cross-check ---
# Loaded for real: the tar workload counted, against the prediction from a
# profile taken just before (same files, same tree).
: >"$W/cross.txt"
for set_name in $EVIDENCE_CROSS; do
	f=$RULES_DIR/$set_name.rules
	[ -f "$f" ] || continue
	auditctl -D >/dev/null
	profile tar "$W/tar-cross.prof"
	if ! auditctl -R "$f" >"$W/load.out" 2>&1 || grep -qi error "$W/load.out"; then
		echo "| $set_name | not loadable here: $(grep -i -m 1 error "$W/load.out" | cut -c1-80) | | | |" >>"$W/cross.txt"
		continue
	fi
	"$AUDITSKIP" whatif --profile "$W/tar-cross.prof" --json >"$W/cross-pred.json"
	"$AUDITSKIP" --json -m tracepoint -- bash -c "run_workload tar" >"$W/cross-count.json" 2>/dev/null
	pw=$(jq -r .walks "$W/cross-pred.json")
	ps=$(jq -r .skippable_walks "$W/cross-pred.json")
	mw=$(jq -r 'select(.type == "summary") | .walks' "$W/cross-count.json")
	ms=$(jq -r 'select(.type == "summary") | .skippable_walks' "$W/cross-count.json")
	ok=$(awk -v a="$pw" -v b="$mw" -v c="$ps" -v d="$ms" 'function off(x, y) { return (y ? (x > y ? x - y : y - x) / y : x != y) }
		BEGIN { print (off(a, b) <= 0.01 && off(c, d) <= 0.01) ? "yes" : "NO" }')
	echo "| $set_name | $pw / $ps | $mw / $ms | $ok |" >>"$W/cross.txt"
done
auditctl -D >/dev/null

# ---------------------------------------------------------------- report ---
pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b ? 100 * a / b : 0 }'; }
per() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b ? a / b : 0 }'; }
report() {
	echo "# What the aggregate-mask skip and the other designs would do for real rule sets"
	echo
	echo "Run $STARTED with \`$COMMAND\` (\`make evidence\`)."
	echo
	echo "- uname -r: \`$(uname -r)\`; $(nproc) CPUs; auditskip $(cat VERSION), commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
	echo "- rule sets: every file of \`$RULES_DIR\` with exit rules${EVIDENCE_EXTRA:+, and $EVIDENCE_EXTRA}, read with \`auditskip rules --file\` (nothing loaded)"
	echo "- workloads, each profiled once with no rule loaded (\`auditskip profile -m tracepoint\`):"
	for w in $WORKLOADS; do
		echo "  - $w: ${WHAT[$w]}, $(jq '[.syscalls[].calls] | add' "$W/$w.prof") calls"
	done
	echo "- perm-narrowed masks: $(jq -r .perm_classes "$W/30-stig.build.json")"
	echo "- predictions: \`auditskip whatif --file FILE --profile PROFILE --json\`, priced by this"
	echo "  machine's calibration (\`auditskip calibrate\`): $(jq -r '"\(.ns_per_entry * 100 | round / 100) ns per visited entry (fit), a full context \(.ns_context | round) ns, an evaluation " + ([.evaluation_ns | to_entries[] | "\(.key) \(.value * 10 | round / 10)"] | join(", ")) + " ns"' "$CAL")"
	echo
	echo "![share of walks skipped](${PNG##*/})"
	echo
	echo "## Per rule set and workload"
	echo
	echo "PATCH: walks the patch's aggregate mask would skip; ARCH: the same under one aggregate per"
	echo "arch; ARCHPERM: under the archperm design's exit masks (per arch, perm= rules that name every"
	echo "syscall narrowed to their classes: patches/7.2-archperm/0001, doc/upstream.md), AP NS the ns it"
	echo "saves per syscall; ENTRY: the calls its entry form (0002) gives a dummy context, ENTRY NS what"
	echo "that form saves per syscall; VISITS: rule entries the patch's skippable walks visit,"
	echo "per syscall; NS: ns saved per syscall. PREFIX: walks a stock kernel ends at once behind"
	echo "\`advise --never-prefix\`'s never,exit rules (doc/never-prefix.md); PREFIX NS: ns it saves per"
	echo "syscall today; BEST NS: ns the patch saves per syscall under advise's rewrite of the set."
	echo "2023, 2023 NS: the walks the 2023 design (a dummy context at entry, doc/profiles.md) spares"
	echo "and the ns it saves per syscall, the context's fixed cost included."
	echo
	echo "| rule set | exit rules | mask bits | workload | walks | PATCH | ARCH | ARCHPERM | AP NS | ENTRY | ENTRY NS | VISITS | NS | 2023 | 2023 NS | PREFIX | PREFIX NS | BEST NS |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
	while IFS=$'\t' read -r s w er mb calls walks sk ar pe vi ns w23 ns23 nsap ctxe nse pw pns bns; do
		printf '| %s | %s | %s | %s | %s | %s%% | %s%% | %s%% | %s | %s%% | %s | %s | %s | %s%% | %s | %s%% | %s | %s |\n' "$s" "$er" "$mb" "$w" "$walks" \
			"$(pct "$sk" "$walks")" "$(pct "$ar" "$walks")" "$(pct "$pe" "$walks")" \
			"$(per "${nsap:-0}" "$calls")" "$(pct "${ctxe:-0}" "$walks")" "$(per "${nse:-0}" "$calls")" \
			"$(per "$vi" "$calls")" "$(per "$ns" "$calls")" \
			"$(pct "${w23:-0}" "$walks")" "$(per "${ns23:-0}" "$calls")" \
			"$(pct "${pw:-0}" "$walks")" "$(per "${pns:-0}" "$calls")" "$(per "${bns:-0}" "$calls")"
	done <"$W/table.tsv"
	echo
	echo "## Where the patch does nothing"
	echo
	awk -F'\t' '$7 == 0 { z[$1]++ } END { for (s in z) print s }' "$W/table.tsv" | sort | while read -r s; do
		echo "- $s: $(jq -r '.skip_blockers.patch | "the fewest rules whose removal or narrowing lets the skip fire (\(.rule_count)): " + ([.rules[].text] | join("; ")) + "; without them the mask has \(.mask_bits_without) bits"' "$W/$s.rules.json")"
	done
	echo
	echo "## Where archperm does nothing"
	echo
	awk -F'\t' '$9 == 0 { z[$1]++ } END { for (s in z) print s }' "$W/table.tsv" | sort | while read -r s; do
		echo "- $s: $(jq -r '.skip_blockers.perm_narrowed | "the fewest rules whose removal or narrowing lets it fire (\(.rule_count)): " + ([.rules[].text] | join("; ")) + "; without them the mask has \(.mask_bits_without) bits"' "$W/$s.rules.json")"
	done
	echo
	echo "## Where the time goes"
	echo
	where_time_goes
	echo
	echo "## Cross-check: loaded for real"
	echo
	echo "The tar workload counted by \`auditskip --json -m tracepoint\` with the file loaded, against"
	echo "\`whatif\` on a profile of the same workload taken just before (within 1%: a real"
	echo "workload's calls vary a little from run to run)."
	echo
	echo "| rule set | predicted walks / skippable | counted walks / skippable | within 1% |"
	echo "|---|---|---|---|"
	cat "$W/cross.txt"
	if [ -s "$W/refused.txt" ]; then
		echo
		echo "Files the reader refused (as auditctl would): $(tr '\n' ';' <"$W/refused.txt")"
	fi
}

# Per rule set, the rules whose visits and evaluations cost the most, summed
# over every workload (whatif's cost per exit rule), as ns per syscall.
where_time_goes() {
	echo "Per rule set, the ten exit rules that cost the most over all workloads: NS is ns per"
	echo "syscall of all workloads (visits shared among the rules a walk reaches, evaluations priced"
	echo "by the field kind that ends them), SHARE its part of the set's walk time, EVALS the share"
	echo "of walks its mask sends into its fields."
	echo
	echo "| rule set | rule | NS | SHARE | EVALS |"
	echo "|---|---|---|---|---|"
	for f in "$W"/*.rules.json; do
		local s=${f##*/}
		s=${s%.rules.json}
		ls "$W/$s".*.json 2>/dev/null | grep -qv 'prefix\|rules' || continue
		jq -s -r --arg s "$s" '
			map(select(.type == "whatif")) as $runs
			| ([$runs[] | [.syscalls[].calls] | add] | add) as $calls
			| ([$runs[].walks_ns] | add) as $total
			| ([$runs[].walks] | add) as $walks
			| [range(0; $runs[0].rules | length) as $i
			   | select($runs[0].rules[$i].exit_list)
			   | { text: $runs[0].rules[$i].text,
			       ns: ([$runs[].rules[$i].cost_ns] | add),
			       evals: ([$runs[].rules[$i].field_checks] | add) }]
			| sort_by(-.ns) | .[:10][]
			| "| \($s) | `\(.text)` | \(if $calls > 0 then (.ns / $calls * 100 | round / 100) else 0 end) | \(if $total > 0 then (.ns / $total * 1000 | round / 10) else 0 end)% | \(if $walks > 0 then (.evals / $walks * 1000 | round / 10) else 0 end)% |"
		' $(ls "$W/$s".*.json | grep -v 'prefix\|rules')
	done
}

# The chart, from the report itself (bench/evidence-chart.sh; `make
# evidence-chart RESULT=FILE.md` draws it again from a committed result).
report >"$W/report.md"
bench/evidence-chart.sh "$W/report.md" "$PNG"
if [ -n "$OUTFILE" ]; then
	tee "$OUTFILE" <"$W/report.md"
	log "wrote $OUTFILE and $PNG"
else
	cat "$W/report.md"
fi
