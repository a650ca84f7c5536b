#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# `make run`: what this machine's audit rules cost on the exit path, and
# what the aggregate-mask fast path would skip. Leaves audit as it was.
set -eu
cd "$(dirname "$0")/.."
AUDITSKIP=${OUT:-.output}/auditskip
DURATION=${DURATION:-15}

if [ "$(id -u)" != 0 ]; then
	echo "make run: run as root (auditskip loads BPF programs and reads audit rules)" >&2
	exit 1
fi
was=$(auditctl -s | awk '$1 == "enabled" { print $2 }')

"$AUDITSKIP" rules
echo
if [ "$was" = 0 ]; then
	# Tasks forked before audit is enabled are never audited, so a
	# whole-machine count would see almost nothing: measure a fresh build.
	echo "Audit is disabled here: enabling it for this run only, and counting a"
	echo "sample workload (a rebuild of auditskip) started after that."
	auditctl -e 1 >/dev/null
	trap 'auditctl -e 0 >/dev/null' EXIT
	sample=$(mktemp -d)
	"$AUDITSKIP" -i 5 -- sh -c "make -s -B -j2 OUTPUT=$sample all >/dev/null"
	rm -rf "$sample"
else
	echo "Counting the whole machine for $DURATION s (DURATION=... to change)."
	"$AUDITSKIP" -i 5 -d "$DURATION"
fi
