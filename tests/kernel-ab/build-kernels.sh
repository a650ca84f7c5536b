#!/bin/bash
# Builds the two kernels of the A/B test for one kernel version KVER (the
# first argument; 6.12 when none is given):
#
#   KERNELS/KVER/unpatched/bzImage   the source as Debian ships it
#   KERNELS/KVER/patched/bzImage     the same with patches/KVER/0*.patch
#
# and, where their patches exist, the designs the A/B holds beside the
# series: design2023 (patches/KVER-2023), archperm (the series and
# patches/KVER-archperm/0001, the exit form) and archperm-entry (the series
# and both patches of patches/KVER-archperm, the entry form).
#
# KERNELS is $KERNEL_AB_KERNELS, .output/kernels by default (make test keeps
# them in /var/cache/auditskip/kernels, so that a machine builds them once).
#
# KVER 6.12: Debian 12's linux-source-6.12, installed from the machine's own
# package lists. KVER 7.2: sid's linux-source-7.2, fetched with `apt-get
# download` through a private sources list (suite sid, the URIs of the
# machine's /etc/apt/sources.list.d/*.sources; the machine's own lists are
# left alone) and unpacked with dpkg-deb -x under .output/kernel-ab/pkg/.
#
# Both kernels use tinyconfig plus patches/kernel.config. Run by `make
# kernels` (`make kernels KVER=7.2`).
#
# The source is unpacked once per package version into .output/kernel-ab/KVER/.
# Each kernel is cached by a key made of the source version, the config
# fragment, the compiler and pahole versions and (patched kernel only) the
# patches: when the key has not changed the build is skipped. When it has,
# the kernel is rebuilt incrementally in its own build directory (O=); the
# patched kernel's build directory starts as a copy of the unpatched one, so
# a first patched build only compiles what the patches touch, and links.
#
# Prints the build times (also kept in KERNELS/KVER/*/build-seconds).
#
# Environment: KERNEL_AB_JOBS (default: nproc), KERNEL_AB_FORCE=1 throws
# the build directories away and builds both kernels again,
# KERNEL_AB_REFRESH=1 asks sid for a newer linux-source-7.2 even when one is
# unpacked already.

set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
KV=${1:-6.12}
FRAGMENT=$ROOT/patches/kernel.config
JOBS=${KERNEL_AB_JOBS:-$(nproc)}

LOG_PREFIX="kernels: "
# shellcheck source=../lib/common.sh
. "$ROOT/tests/lib/common.sh"
die() { log "ERROR: $*"; exit 1; }

case "$KV" in
6.12) SRC_PKG=linux-source-6.12 SUITE= ;;
7.2) SRC_PKG=linux-source-7.2 SUITE=sid ;;
*) die "unknown kernel version '$KV' (KVER=6.12 or KVER=7.2)" ;;
esac
WORK=$ROOT/.output/kernel-ab/$KV
KOUT=${KERNEL_AB_KERNELS:-$ROOT/.output/kernels}/$KV
PATCHES=$ROOT/patches/$KV
[ -f "$FRAGMENT" ] || die "no config fragment $FRAGMENT"
[ -d "$PATCHES" ] || die "no patch directory $PATCHES"

# ------------------------------------------------------------ packages ---
# Only what is missing is installed (as root), from Debian's registry.
need=()
if [ -z "$SUITE" ]; then need_src=$SRC_PKG; else need_src=; fi
for p in $need_src dwarves flex bison bc libssl-dev libelf-dev build-essential \
	xz-utils; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep 'ok installed' >/dev/null || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
	[ "$(id -u)" -eq 0 ] || die "missing packages: ${need[*]} (install them as root)"
	log "installing ${need[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get install -y -q "${need[@]}" >/dev/null ||
		{ apt-get update -q >/dev/null && apt-get install -y -q "${need[@]}" >/dev/null; } ||
		die "could not install ${need[*]}"
fi

# --------------------------------------------------- source package ---
# fetch_from_suite: the newest $SRC_PKG of $SUITE, unpacked (dpkg-deb -x)
# under .output/kernel-ab/pkg/; sets SRC_VER and TARBALL. Without
# KERNEL_AB_REFRESH, a package unpacked before is used without asking the
# registry again.
fetch_from_suite() {
	local apt=$ROOT/.output/kernel-ab/apt-$SUITE pkgs=$ROOT/.output/kernel-ab/pkg
	local last=$pkgs/$SRC_PKG.current dir uris deb
	local -a opts
	if [ -z "${KERNEL_AB_REFRESH:-}" ] && [ -s "$last" ] &&
		[ -f "$pkgs/$(cat "$last")/usr/src/$SRC_PKG.tar.xz" ]; then
		dir=$pkgs/$(cat "$last")
	else
		# The machine's Debian archive URIs (not its -security ones,
		# which have no sid), one-line format for a private list.
		uris=$(awk '/^URIs:/ { u = $2 } /^Suites:/ { s = $0 }
			/^Signed-By:/ { k = $2 } /^$/ { if (u != "" && s !~ /-security/) print u " " k; u = s = k = "" }
			END { if (u != "" && s !~ /-security/) print u " " k }' /etc/apt/sources.list.d/*.sources | sort -u)
		[ -n "$uris" ] || die "no Debian archive URI in /etc/apt/sources.list.d/*.sources"
		mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$pkgs"
		echo "$uris" | while read -r u k; do
			echo "deb ${k:+[signed-by=$k] }$u $SUITE main"
		done >"$apt/sources.list"
		opts=(-o Dir::Etc::SourceList="$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
			-o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache"
			-o APT::Sandbox::User=root)
		log "looking $SRC_PKG up in $SUITE ($(tr '\n' ' ' <"$apt/sources.list"))"
		apt-get "${opts[@]}" update -q >/dev/null || die "apt-get update of the private $SUITE list failed"
		rm -rf "$pkgs/dl"
		mkdir -p "$pkgs/dl"
		(cd "$pkgs/dl" && apt-get "${opts[@]}" download -q "$SRC_PKG" >/dev/null) ||
			die "apt-get download $SRC_PKG from $SUITE failed"
		deb=$(ls "$pkgs"/dl/"$SRC_PKG"_*.deb)
		dir=$pkgs/$(basename "$deb" .deb)
		if [ ! -f "$dir/usr/src/$SRC_PKG.tar.xz" ]; then
			log "unpacking $(basename "$deb")"
			rm -rf "$dir"
			dpkg-deb -x "$deb" "$dir"
			dpkg-deb -f "$deb" Version >"$dir/.version"
		fi
		rm -rf "$pkgs/dl"
		basename "$dir" >"$last"
	fi
	SRC_VER=$(cat "$dir/.version")
	TARBALL=$dir/usr/src/$SRC_PKG.tar.xz
}

if [ -n "$SUITE" ]; then
	fetch_from_suite
else
	SRC_VER=$(dpkg-query -W -f='${Version}' $SRC_PKG)
	TARBALL=/usr/src/$SRC_PKG.tar.xz
fi
[ -f "$TARBALL" ] || die "$TARBALL is missing (reinstall $SRC_PKG)"

# ------------------------------------------------------- source tree ---
# One tree, unpacked once per package version, serves both kernels, each
# built in its own directory (O=). The patches are applied for the patched
# build and reverted (patch -R, which gives the files new mtimes, so make
# sees the change) for the unpatched one; what is applied is kept in
# $APPLIED. Both builds see the same absolute source path, so the patched
# build directory, seeded from the unpatched one, rebuilds only what the
# patches touch.
SRCDIR=$WORK/src
TREE=$SRCDIR/$SRC_PKG
APPLIED=$SRCDIR/applied
mkdir -p "$WORK" "$KOUT"
unpack() {
	log "unpacking $SRC_PKG $SRC_VER"
	rm -rf "$SRCDIR" "$WORK/build"
	mkdir -p "$SRCDIR"
	tar -xf "$TARBALL" -C "$SRCDIR"
	[ -f "$TREE/Makefile" ] || die "unexpected layout of $TARBALL"
	echo "$SRC_VER" >"$SRCDIR/.version"
}
[ "$(cat "$SRCDIR/.version" 2>/dev/null)" = "$SRC_VER" ] || unpack
[ -z "${KERNEL_AB_FORCE:-}" ] || rm -rf "$WORK/build"
KIND=
KERNELVERSION=$(make -s -C "$TREE" kernelversion)

# revert_patches: back to the source as shipped, last applied first.
revert_patches() {
	local p
	[ -d "$APPLIED" ] || return 0
	for p in $(ls "$APPLIED" | sort -r); do
		log "reverting ${p#*-}"
		if ! patch -p1 -R -s -d "$TREE" <"$APPLIED/$p"; then
			log "cannot revert ${p#*-}: unpacking the source again"
			unpack
			return 0
		fi
		rm "$APPLIED/$p"
	done
	rmdir "$APPLIED"
}

# applied_names FILE...: what $APPLIED holds once FILE... are applied: each
# name behind its place in the order (a design's 0001 follows the series'
# 0002, and must be reverted before it).
applied_names() {
	local i=0 p
	for p in "$@"; do
		printf '%02d-%s\n' $i "$(basename "$p")"
		i=$((i + 1))
	done
}

# apply_patches FILE...: the tree with exactly these patches applied, in order.
apply_patches() {
	local p i=0
	if [ -d "$APPLIED" ] && [ "$(ls "$APPLIED")" = "$(applied_names "$@")" ] &&
		[ "$(cat "$APPLIED"/*)" = "$(cat "$@")" ]; then
		return 0
	fi
	revert_patches
	mkdir -p "$APPLIED"
	for p in "$@"; do
		log "applying $(basename "$p")"
		patch -p1 -s -N -d "$TREE" <"$p" || die "$(basename "$p") does not apply to $SRC_PKG $SRC_VER"
		cp "$p" "$APPLIED/$(applied_names "$@" | sed -n "$((i + 1))p")"
		i=$((i + 1))
	done
}

sha() { sha256sum | cut -c1-16; }
FRAG_HASH=$(sha <"$FRAGMENT")
shopt -s nullglob
PATCH_FILES=("$PATCHES"/0*.patch)
shopt -u nullglob
[ ${#PATCH_FILES[@]} -gt 0 ] || die "no patches in $PATCHES"
PATCH_HASH=$(cat "${PATCH_FILES[@]}" | sha)
TOOLS="$(gcc --version | head -n 1); $(pahole --version)"

# ---------------------------------------------------------------- build ---

# up_to_date NAME KEY
up_to_date() {
	[ -z "${KERNEL_AB_FORCE:-}" ] && [ -f "$KOUT/$1/bzImage" ] &&
		[ "$(cat "$KOUT/$1/key" 2>/dev/null)" = "$2" ]
}

# build_kernel NAME KEY: build the tree as it is now in $WORK/build/NAME.
build_kernel() {
	local name=$1 key=$2 src=$TREE
	local bdir=$WORK/build/$name dest=$KOUT/$name
	local t0 t1 missing opt warnings kind

	mkdir -p "$bdir" "$dest"
	log "$name: configuring in $bdir"
	make -s -C "$src" O="$bdir" tinyconfig >/dev/null
	"$src/scripts/kconfig/merge_config.sh" -m -O "$bdir" "$bdir/.config" "$FRAGMENT" >/dev/null
	make -s -C "$src" O="$bdir" olddefconfig >/dev/null
	missing=()
	while read -r opt; do
		grep -qx "$opt" "$bdir/.config" || missing+=("$opt")
	done < <(grep -E '^CONFIG_[A-Z0-9_]+=' "$FRAGMENT")
	[ ${#missing[@]} -eq 0 ] || die "$name: options of the fragment did not survive olddefconfig: ${missing[*]}"

	if [ -f "$bdir/vmlinux" ]; then kind=${KIND:-incremental}; else kind=full; fi
	log "$name: make -j$JOBS bzImage, $kind (log: $dest/build.log)"
	t0=$(date +%s)
	if ! make -C "$src" O="$bdir" -j"$JOBS" bzImage >"$dest/build.log" 2>&1; then
		tail -n 30 "$dest/build.log" >&2
		die "$name: build failed"
	fi
	t1=$(date +%s)

	# The trampoline modes need BTF and a __audit_filter_op to attach to.
	grep -q ' __audit_filter_op$' "$bdir/System.map" ||
		die "$name: __audit_filter_op is not a function in this build"
	# (grep without -q reads to the end: with pipefail, grep -q quitting
	# at the first match could kill readelf with SIGPIPE and fail the test.)
	[ -s "$bdir/vmlinux" ] && readelf -S "$bdir/vmlinux" | grep '\.BTF' >/dev/null ||
		die "$name: vmlinux has no .BTF section"
	warnings=$(grep -c 'warning:' "$dest/build.log" || true)

	cp "$bdir/arch/x86/boot/bzImage" "$dest/bzImage.tmp"
	cp "$bdir/.config" "$dest/config"
	cp "$bdir/System.map" "$dest/System.map"
	echo $((t1 - t0)) >"$dest/build-seconds"
	echo "$kind" >"$dest/build-kind"
	echo "$JOBS" >"$dest/build-jobs"
	echo "$warnings" >"$dest/warnings"
	mv "$dest/bzImage.tmp" "$dest/bzImage"
	echo "$key" >"$dest/key"
	log "$name: built in $((t1 - t0)) s ($kind) with $JOBS jobs, $warnings compiler warnings"
}

UKEY=$(printf '%s\n' "$SRC_VER" "$FRAG_HASH" "$TOOLS" | sha)
PKEY=$(printf '%s\n' "$SRC_VER" "$FRAG_HASH" "$TOOLS" "$PATCH_HASH" | sha)

if up_to_date unpatched "$UKEY"; then
	log "unpatched: up to date (built in $(cat "$KOUT/unpatched/build-seconds") s), skipping"
else
	revert_patches
	build_kernel unpatched "$UKEY"
fi

if up_to_date patched "$PKEY"; then
	log "patched: up to date (built in $(cat "$KOUT/patched/build-seconds") s), skipping"
else
	# Seeded from the unpatched build: same source path, same config, so
	# only the files the patches touch (and the link) are redone.
	if [ ! -f "$WORK/build/patched/.config" ] && [ -f "$WORK/build/unpatched/vmlinux" ]; then
		log "patched: seeding the build directory from the unpatched build"
		rm -rf "$WORK/build/patched"
		cp -a "$WORK/build/unpatched" "$WORK/build/patched"
		KIND="incremental, seeded from the unpatched build"
	fi
	apply_patches "${PATCH_FILES[@]}"
	build_kernel patched "$PKEY"
fi

# build_design NAME SYMBOL PATCH...: a design kernel (one the A/B times
# and checks beside the series), the unpatched source with PATCH...
# applied, built like the patched one; SYMBOL must be in its System.map.
D_FILES=()
build_design() {
	local name=$1 symbol=$2 key
	shift 2
	KERNELS="$KERNELS $name"
	D_FILES+=("$@")
	key=$(printf '%s\n' "$SRC_VER" "$FRAG_HASH" "$TOOLS" "$(cat "$@" | sha)" | sha)
	if up_to_date "$name" "$key"; then
		log "$name: up to date (built in $(cat "$KOUT/$name/build-seconds") s), skipping"
	else
		if [ ! -f "$WORK/build/$name/.config" ] && [ -f "$WORK/build/unpatched/vmlinux" ]; then
			log "$name: seeding the build directory from the unpatched build"
			rm -rf "$WORK/build/$name"
			cp -a "$WORK/build/unpatched" "$WORK/build/$name"
			KIND="incremental, seeded from the unpatched build"
		fi
		apply_patches "$@"
		build_kernel "$name" "$key"
	fi
	grep -q " $symbol\$" "$KOUT/$name/System.map" ||
		die "$name: no $symbol in System.map: are its patches applied?"
}

KERNELS="unpatched patched"
shopt -s nullglob
# The 2023 design's port (patches/KVER-2023): kernel-ab times it against
# its prediction.
D2023=("$ROOT/patches/$KV-2023"/0*.patch)
# The per-arch, permission-aware masks (patches/KVER-archperm), on top of
# the series: the exit form (its first patch) and the entry form (both).
DARCH=("$ROOT/patches/$KV-archperm"/0*.patch)
shopt -u nullglob
[ ${#D2023[@]} -eq 0 ] || build_design design2023 audit_count_syscall_rule "${D2023[@]}"
# (KERNEL_AB_DESIGNS=none: not built, as run.sh then boots none.)
if [ ${#DARCH[@]} -ge 2 ] && [ "${KERNEL_AB_DESIGNS:-all}" != none ]; then
	build_design archperm audit_exit_masks "${PATCH_FILES[@]}" "${DARCH[0]}"
	build_design archperm-entry audit_entry_masks "${PATCH_FILES[@]}" "${DARCH[@]:0:2}"
fi

# Warnings from the files the patches touch are errors here.
touched=$(cat "${PATCH_FILES[@]}" ${D_FILES[@]+"${D_FILES[@]}"} | sed -n 's|^+++ b/\(.*\.[ch]\)$|\1|p' | sort -u)
for f in $touched; do
	for n in $KERNELS; do
		[ $n = unpatched ] && continue
		if grep -F "$f:" "$KOUT/$n/build.log" | grep 'warning:' >/dev/null; then
			grep -F "$f:" "$KOUT/$n/build.log" >&2
			die "the $n kernel has compiler warnings in $f"
		fi
	done
done

grep -q ' audit_exit_syscalls$' "$KOUT/patched/System.map" ||
	die "patched: no audit_exit_syscalls in System.map: are the patches applied?"
if grep -q ' audit_exit_syscalls$' "$KOUT/unpatched/System.map"; then
	die "unpatched: has audit_exit_syscalls: the pristine tree is patched"
fi

echo "kernel $KERNELVERSION ($SRC_PKG $SRC_VER), fragment $FRAG_HASH, patches $PATCH_HASH"
for n in $KERNELS; do
	echo "  $n: $KOUT/$n/bzImage ($(du -k "$KOUT/$n/bzImage" | cut -f1) KiB)," \
		"last build $(cat "$KOUT/$n/build-seconds") s ($(cat "$KOUT/$n/build-kind" 2>/dev/null || echo '?'))" \
		"with $(cat "$KOUT/$n/build-jobs" 2>/dev/null || echo '?') jobs," \
		"$(cat "$KOUT/$n/warnings") warnings"
done
