#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Turns the "VMTEST MODE" lines of a guest run into the markdown table of
# doc/modes.md: which modes load on which kernel, what each
# cannot see there, and why the others were refused.
#
#   tests/vm/matrix-table.sh [LOGDIR [KERNEL...]]   (default .output/vmtest,
#                                                  every kernel found there)
#   make vmtest-table
#
# Reads LOGDIR/results-NAME.txt of the main suite (tests/vm/run.sh writes
# them; `make vmtest-all` runs every kernel) and LOGDIR/console-NAME.log.txt
# for the kernel's version. Kernels are listed in the matrix's order.

set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DIR=${1:-$ROOT/.output/vmtest}
[ $# -gt 0 ] && shift
CACHE=$ROOT/tests/vm/cache
LOG_PREFIX="matrix-table: "
# shellcheck source=../lib/common.sh
. "$ROOT/tests/lib/common.sh"
# shellcheck source=lib-kernels.sh
. "$ROOT/tests/vm/lib-kernels.sh"

MODES="filter-op filter-syscall syscall-exit tracepoint"
rows=0
out=$(mktemp)
blind=$(mktemp)
trap 'rm -f "$out" "$blind"' EXIT
{
	echo "| kernel | auto | $(echo $MODES | sed 's/ / | /g') |"
	echo "|---|---|---|---|---|---|"
} >"$out"

# shellcheck disable=SC2046
[ $# -gt 0 ] || set -- $(vm_kernel_names)
for k in "$@"; do
	res=$DIR/results-$k.txt
	[ -s "$res" ] || continue
	grep -q '^VMTEST MODE ' "$res" || continue
	kver=$(grep -o 'VMTEST BOOT [^ ]*' "$DIR/console-$k.log.txt" 2>/dev/null | head -n 1 | cut -d' ' -f3)
	auto=$(sed -n 's/^VMTEST MODE auto picked //p' "$res" | head -n 1)
	row="| $k (\`${kver:-?}\`) | ${auto:-?} |"
	for m in $MODES; do
		line=$(grep -m 1 "^VMTEST MODE $m " "$res" || true)
		case "$line" in
		*" loaded; blind_to: "*)
			row="$row loads |"
			echo "$m|${line#*; blind_to: }" >>"$blind"
			;;
		*" refused: "*)
			# Pipes would end the table's cell.
			row="$row refused: $(echo "${line#*refused: }" | sed 's/|/\\|/g; s/^auditskip: //; s/^mode [a-z-]* cannot run on this kernel: //') |"
			;;
		*) row="$row not tried |" ;;
		esac
	done
	echo "$row" >>"$out"
	rows=$((rows + 1))
done
[ "$rows" -gt 0 ] || { log "no VMTEST MODE lines under $DIR (run tests/vm/run.sh first)"; exit 1; }

cat "$out"
echo
# What each mode cannot see, as the tool reported it where the mode loaded
# (the same on every kernel it loads on; differing reports are all listed).
sort -u "$blind" | while IFS='|' read -r m b; do
	echo "- \`$m\` cannot see: $b"
done
