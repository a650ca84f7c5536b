# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Sourced (bash): what an arm64 guest needs from Debian 12's arm64 archive,
# fetched with apt through a private sources list and state under
# $CACHE/apt/bookworm-arm64 (the same URIs and key as the machine's
# /etc/apt/sources.list.d/*.sources), so the machine's own lists, its
# architectures and its apt state are never touched.
#
#   arm64_apt apt-get|apt-cache ARGS...   apt on the private arm64 lists
#   arm64_apt_update                      write the list, refresh the lists
#                                         when older than a day
#   arm64_fetch_kernel                    path of the newest Debian 12 6.12
#                                         cloud arm64 kernel image, unpacked
#                                         into $CACHE/kernels/ once
#   arm64_fetch_userland DIR              unpack busybox-static, auditctl and
#                                         bpftool with their libraries into
#                                         DIR (a root of arm64 files)
#   arm64_install_bins                    the arm64 counterpart of
#                                         vm_install_host_bins, for
#                                         vm_build_initramfs
#
# Expects CACHE, log() and die() from the caller.

ARM64_APT=$CACHE/apt/bookworm-arm64
ARM64_KERNEL_RE='^linux-image-6\.12\.[0-9]+\+deb12(\.[0-9]+)?-cloud-arm64-unsigned$'
# What the guest runs, and every library they load (their Depends, checked
# against `apt-cache depends` of Debian 12's arm64 packages): auditctl needs
# libaudit1, libauparse0, libcap-ng0 and libc6; bpftool (libbpf linked in)
# needs libelf1, zlib1g and libcap2.
ARM64_USERLAND='busybox-static auditd libaudit1 libauparse0 libcap-ng0 libc6 bpftool
	libelf1 zlib1g libcap2'

arm64_apt() {
	local cmd=$1
	shift
	"$cmd" -o APT::Architecture=arm64 -o APT::Architectures=arm64 \
		-o Dir::Etc::SourceList="$ARM64_APT/sources.list" -o Dir::Etc::SourceParts=/dev/null \
		-o Dir::State::Lists="$ARM64_APT/lists" -o Dir::Cache="$ARM64_APT/cache" \
		-o Dir::State::status=/dev/null -o Acquire::Languages=none "$@"
}

arm64_apt_update() {
	local uris key u s
	mkdir -p "$ARM64_APT/lists/partial" "$ARM64_APT/cache/archives/partial"
	uris=$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/*.sources 2>/dev/null | tr ' ' '\n' |
		grep . | sort -u)
	key=$(sed -n 's/^Signed-By: *//p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n 1)
	[ -n "$uris" ] || die "no URIs in /etc/apt/sources.list.d/*.sources"
	: >"$ARM64_APT/sources.list.tmp"
	for u in $uris; do
		# The security archive has its own suite name.
		case "$u" in
		*security*) s=bookworm-security ;;
		*) s="bookworm bookworm-updates" ;;
		esac
		for s in $s; do
			echo "deb [arch=arm64${key:+ signed-by=$key}] $u $s main" >>"$ARM64_APT/sources.list.tmp"
		done
	done
	mv "$ARM64_APT/sources.list.tmp" "$ARM64_APT/sources.list"
	if [ -z "$(find "$ARM64_APT/lists" -maxdepth 1 -name '*arm64_Packages*' -mmin -1440 2>/dev/null)" ]; then
		log "refreshing the private arm64 package lists in $ARM64_APT"
		arm64_apt apt-get update -q >/dev/null 2>&1 || log "apt-get update (arm64) failed"
	fi
}

# arm64_download DIR PKG...: the .debs of PKG... into DIR.
arm64_download() {
	local dir=$1
	shift
	mkdir -p "$dir"
	# apt-get download warns when it cannot drop to the _apt user for a
	# root-owned directory; the download itself is fine.
	(cd "$dir" && arm64_apt apt-get download -q "$@" 2>&1 | grep -v 'unsandboxed' >&2 || true)
}

arm64_fetch_kernel() {
	local pkg ver dir deb
	pkg=$(arm64_apt apt-cache pkgnames linux-image- 2>/dev/null | grep -E "$ARM64_KERNEL_RE" |
		sort -rV | head -n 1)
	if [ -z "$pkg" ]; then
		dir=$(ls -d "$CACHE"/kernels/linux-image-6.12.*-cloud-arm64-unsigned 2>/dev/null |
			sort -V | tail -n 1 || true)
		[ -n "$dir" ] || return 1
		log "no arm64 kernel in the lists; using cached $(basename "$dir")"
	else
		ver=$(arm64_apt apt-cache show "$pkg" | sed -n 's/^Version: //p' | sort -rV | head -n 1)
		dir=$CACHE/kernels/$pkg
		if [ "$(cat "$dir/.version" 2>/dev/null)" != "$ver" ]; then
			log "downloading $pkg $ver (arm64)"
			rm -rf "$dir" "$CACHE/debs/${pkg}"_*.deb
			arm64_download "$CACHE/debs" "$pkg"
			deb=$(ls "$CACHE/debs/${pkg}"_*.deb 2>/dev/null | head -n 1)
			[ -n "$deb" ] || return 1
			mkdir -p "$dir.tmp"
			# boot/ only: the guest loads no modules (PL011 serial, the
			# console, is built in; the initramfs needs no disk).
			dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$dir.tmp" ./boot
			echo "$ver" >"$dir.tmp/.version"
			rm -rf "$dir" && mv "$dir.tmp" "$dir"
			rm -f "$deb"
		fi
	fi
	ls "$dir"/boot/vmlinuz-* | head -n 1
}

arm64_fetch_userland() {
	local root=$1 debs=$CACHE/debs/arm64 p deb
	mkdir -p "$debs"
	for p in $ARM64_USERLAND; do
		ls "$debs/${p}"_*_arm64.deb >/dev/null 2>&1 || arm64_download "$debs" "$p"
		deb=$(ls "$debs/${p}"_*_arm64.deb 2>/dev/null | sort -V | tail -n 1)
		[ -n "$deb" ] || die "could not download the arm64 package $p"
		dpkg-deb -x "$deb" "$root"
	done
}

# The arm64 binaries and their libraries at their Debian paths; busybox's
# applet links come from the host's busybox-static of the same release
# (the arm64 busybox cannot run here), which has the same applets.
arm64_install_bins() {
	local src=$CACHE/arm64-userland a d
	rm -rf "$src"
	arm64_fetch_userland "$src"
	install -m 0755 "$src/bin/busybox" "$IROOT/bin/busybox"
	for a in $(/bin/busybox --list-full); do
		[ -e "$IROOT/$a" ] || ln -s /bin/busybox "$IROOT/$a"
	done
	install -D -m 0755 "$src/sbin/auditctl" "$IROOT/sbin/auditctl"
	install -D -m 0755 "$src/usr/sbin/bpftool" "$IROOT/sbin/bpftool"
	# The loader and every shared library of the packages above.
	for d in lib usr/lib; do
		[ -d "$src/$d/aarch64-linux-gnu" ] || continue
		mkdir -p "$IROOT/$d"
		cp -a "$src/$d/aarch64-linux-gnu" "$IROOT/$d/"
	done
	[ -e "$src/lib/ld-linux-aarch64.so.1" ] && cp -a "$src/lib/ld-linux-aarch64.so.1" "$IROOT/lib/"
	[ -e "$IROOT/lib/ld-linux-aarch64.so.1" ] || die "no arm64 loader in libc6:arm64"
}
