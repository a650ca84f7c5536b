#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Generates vmlinux/arm64/vmlinux_<series>.h and the vmlinux.h link to it
# from the BTF of Debian 12's newest 6.12 cloud arm64 kernel (the kernel
# tests/vm/run-arm64.sh boots), on any machine: the image is fetched from
# Debian's arm64 archive through tests/vm/lib-arm64.sh, its .BTF section
# copied out with btf-from-image.sh and dumped as C by bpftool.
#
#   vmlinux/gen-arm64.sh        (make vmlinux-arm64)
#
# The dumped file records the kernel and the BTF's sha256 in its first
# lines; the booted guest's /sys/kernel/btf/vmlinux has the same sha256.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
CACHE=$ROOT/tests/vm/cache
BPFTOOL=${BPFTOOL:-bpftool}
log() { echo "vmlinux-arm64: $*" >&2; }
die() { log "$*"; exit 1; }

# shellcheck source=../tests/vm/lib-arm64.sh
. "$ROOT/tests/vm/lib-arm64.sh"
mkdir -p "$CACHE/debs" "$CACHE/kernels"
arm64_apt_update
kernel=$(arm64_fetch_kernel) || die "no arm64 6.12 kernel package found or downloaded"
kver=${kernel##*/vmlinuz-}
series=$(echo "$kver" | cut -d. -f1-2)
out=$ROOT/vmlinux/arm64/vmlinux_$series.h
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$ROOT/vmlinux/btf-from-image.sh" "$kernel" "$tmp/btf"
sum=$(sha256sum "$tmp/btf" | cut -d' ' -f1)
mkdir -p "$ROOT/vmlinux/arm64"
{
	echo "/* BTF of Linux $kver (arm64), sha256 $sum, dumped by vmlinux/gen-arm64.sh */"
	"$BPFTOOL" btf dump file "$tmp/btf" format c
} >"$out.tmp"
mv "$out.tmp" "$out"
ln -sf "vmlinux_$series.h" "$ROOT/vmlinux/arm64/vmlinux.h"
log "wrote $out from $kver (BTF sha256 $sum)"
