#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# btf-from-image.sh IMAGE OUT: copies the kernel's own BTF out of a boot
# image that is not an ELF file (arm64's Image, as Debian ships it in
# vmlinuz-*, raw or gzipped), byte for byte what the booted kernel shows at
# /sys/kernel/btf/vmlinux (btf_vmlinux_read() in kernel/bpf/sysfs_btf.c
# serves the .BTF section as it is linked in).
#
# The section starts with struct btf_header (include/uapi/linux/btf.h):
# magic 0xeb9f, version 1, flags 0, hdr_len 24, then type_off, type_len,
# str_off, str_len; little-endian here. The blob is the header plus
# str_off + str_len bytes. A candidate is accepted only when its types
# come first and its strings right after them, and its string section
# starts and ends with a NUL; exactly one candidate must pass.
set -euo pipefail

[ $# -eq 2 ] || { echo "usage: $0 IMAGE OUT" >&2; exit 2; }
img=$1 out=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if gzip -t "$img" 2>/dev/null; then
	gzip -dc "$img" >"$tmp/image"
else
	cp "$img" "$tmp/image"
fi

u32() { od -An -t u4 -j "$1" -N 4 "$tmp/image" | tr -d ' '; }
byte() { od -An -t x1 -j "$1" -N 1 "$tmp/image" | tr -d ' '; }

size=$(stat -c %s "$tmp/image")
found=()
# magic 9f eb, version 1, flags 0, hdr_len 24 (LC_ALL=C: a byte search).
for off in $(LC_ALL=C grep -obUaP '\x9f\xeb\x01\x00\x18\x00\x00\x00' "$tmp/image" | cut -d: -f1); do
	type_off=$(u32 $((off + 8)))
	type_len=$(u32 $((off + 12)))
	str_off=$(u32 $((off + 16)))
	str_len=$(u32 $((off + 20)))
	[ "$type_off" -eq 0 ] && [ "$str_off" -eq "$type_len" ] && [ "$str_len" -gt 0 ] || continue
	len=$((24 + str_off + str_len))
	[ $((off + len)) -le "$size" ] || continue
	[ "$(byte $((off + 24 + str_off)))" = 00 ] && [ "$(byte $((off + len - 1)))" = 00 ] || continue
	found+=("$off:$len")
done
if [ ${#found[@]} -ne 1 ]; then
	echo "$0: ${#found[@]} BTF blobs in $img (want exactly one): ${found[*]:-none}" >&2
	exit 1
fi
off=${found[0]%:*} len=${found[0]#*:}
dd if="$tmp/image" of="$out" iflag=skip_bytes,count_bytes skip="$off" count="$len" status=none
echo "$0: $len bytes of BTF at offset $off of $img" >&2
