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
# A header re-exports no other layer: those of audit/, model/, output/,
# http/ and live/ include only their own folder's, audit/'s and model/'s
# (what they show of themselves), whatever their .c files include.
#   include/ what BPF and user space share: no user/ folder, no bpf/.
#   bpf/     the BPF programs: include/, their own bpf/*.h, vmlinux.h and
#            libbpf's BPF headers; no user/ folder, no skeleton.
cd "$(dirname "$0")/.." || exit 1
. tests/lib/common.sh

USER_LAYERS='audit/|model/|output/|http/|live/|cli/'

# forbidden NAME FILES PATTERN: the include lines of FILES that match PATTERN.
forbidden() {
	grep -Hn -E "^#include [<\"]($3)" $2 2>/dev/null
}

check_files() { # check_files NAME FILES PATTERN
	bad=$(forbidden "$1" "$2" "$3")
	if [ -z "$bad" ]; then
		pass "layers: $1"
	else
		fail "layers: $1" "includes what it must not: $(echo "$bad" | tr '\n' ' ')"
	fi
}

check() { # check FOLDER PATTERN
	check_files "user/$1" "user/$1/*.[ch]" "$2"
}

# check_header FOLDER: its headers include only FOLDER/, audit/ and model/ of user/.
check_header() {
	check_files "user/$1 headers" "user/$1/*.h" \
		"$(echo "$USER_LAYERS" | tr '|' '\n' | grep -v -x -e "$1/" -e audit/ -e model/ | paste -sd'|')"
}

check audit 'model/|live/|output/|http/|cli/|bpf/|.*skel\.h'
check model 'live/|output/|http/|cli/|bpf/|.*skel\.h'
check output 'live/|http/|cli/|bpf/|.*skel\.h'
check http 'live/|cli/|bpf/|.*skel\.h'
check live 'cli/'
for folder in audit model output http live; do check_header $folder; done
check_files include "include/*.h" "$USER_LAYERS|bpf/|.*skel\.h"
check_files bpf "bpf/*.c bpf/*.h" "$USER_LAYERS|.*skel\.h"
summary_line
