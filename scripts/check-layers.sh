#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The loader's layering, checked on its includes (make check-layers, run by
# make test): what each folder of user/ may include from the others and
# from libbpf. One result line per folder, then the summary.
#
#   audit/   Linux audit's interfaces and emulation: netlink, rule lists,
#            masks, syscall tables, rules files. Includes only audit/.
#   model/   pure computation over audit/: counts, masks, blockers,
#            predictions, calibration, the run's state. No live/, output/,
#            http/, cli/, no libbpf.
#   output/  renderers of the model: no live/, http/, cli/, no libbpf.
#   http/    the metrics endpoint: no live/, cli/, no libbpf.
#   live/    the BPF side and the kernel at run time: no cli/.
#   cli/     the command table and one file per command: anything.
cd "$(dirname "$0")/.." || exit 1
. tests/lib/common.sh

# forbidden FOLDER PATTERN: the include lines of FOLDER that match PATTERN.
forbidden() {
	grep -Hn -E "^#include [<\"]($2)" user/"$1"/*.[ch] 2>/dev/null
}

check() { # check FOLDER PATTERN
	bad=$(forbidden "$1" "$2")
	if [ -z "$bad" ]; then
		pass "layers: user/$1"
	else
		fail "layers: user/$1" "includes what it must not: $(echo "$bad" | tr '\n' ' ')"
	fi
}

check audit 'model/|live/|output/|http/|cli/|bpf/|.*skel\.h'
check model 'live/|output/|http/|cli/|bpf/|.*skel\.h'
check output 'live/|http/|cli/|bpf/|.*skel\.h'
check http 'live/|cli/|bpf/|.*skel\.h'
check live 'cli/'
summary_line
