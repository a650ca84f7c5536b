# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Sourced (bash): the guest kernel matrix, and fetching a kernel from
# Debian's registry into the cache. Used by tests/vm/run.sh and
# bench/guest-boots.sh.
#
#   vm_kernel_names            the names run.sh accepts, one a line
#   vm_kernel_canon NAME       canonical name of NAME (aliases resolved), or
#                              nothing for an unknown name
#   vm_fetch_kernel NAME       path of NAME's kernel image, downloaded and
#                              unpacked into $CACHE/kernels/ only when that
#                              version is not there yet
#
# Each kernel comes from its own Debian suite. Debian 12's come from the
# machine's own package lists; the others through a private sources list per
# release under $CACHE/apt/ (same URIs as /etc/apt/sources.list.d/*.sources,
# passed with -o Dir::Etc::SourceList=...), so the machine's own lists and
# its apt state are never touched. The newest package of each series is
# picked at run time; if its download fails (the newest listed can answer
# 404) the next one is taken.
#
# Expects CACHE, log() and die() from the caller.

# name|release|package regex|aliases. Release "" means the machine's own
# lists (Debian 12 here); the others are private.
VM_KERNELS='
5.10|bullseye|^linux-image-5\.10\.0-[0-9]+-cloud-amd64-unsigned$|deb11-5.10
6.1||^linux-image-6\.1\.0-[0-9]+-cloud-amd64-unsigned$|deb12-6.1
6.12||^linux-image-6\.12\.[0-9]+\+deb12(\.[0-9]+)?-cloud-amd64-unsigned$|deb12-6.12
6.12-trixie|trixie|^linux-image-6\.12\.[0-9]+\+deb13(\.[0-9]+)?-cloud-amd64-unsigned$|deb13-6.12
7.2|sid|^linux-binary-7\.2\.[0-9]+\+deb[0-9.]+-cloud-amd64$|sid-7.2
'

# Suites of each private release, as the machine's own list names them.
vm_release_suites() {
	case "$1" in
	bullseye) echo "bullseye bullseye-security" ;;
	trixie) echo "trixie trixie-security" ;;
	sid) echo "sid" ;;
	esac
}

vm_kernel_names() {
	echo "$VM_KERNELS" | awk -F'|' 'NF >= 3 { print $1 }'
}

# vm_kernel_field NAME N: field N of NAME's line (1 name, 2 release,
# 3 regex).
vm_kernel_field() {
	echo "$VM_KERNELS" | awk -F'|' -v n="$1" -v f="$2" '$1 == n { print $f }'
}

vm_kernel_canon() {
	echo "$VM_KERNELS" | awk -F'|' -v n="$1" '
		NF >= 3 { split($4, a, " "); if ($1 == n) { print $1; exit }
			for (i in a) if (a[i] == n) { print $1; exit } }'
}

# vm_apt RELEASE apt-get|apt-cache ARGS...: apt with RELEASE's private
# sources list and state (or the machine's own for release "").
vm_apt() {
	local rel=$1 cmd=$2 d
	shift 2
	if [ -z "$rel" ]; then
		"$cmd" "$@"
		return
	fi
	d=$CACHE/apt/$rel
	"$cmd" -o Dir::Etc::SourceList="$d/sources.list" -o Dir::Etc::SourceParts=/dev/null \
		-o Dir::State::Lists="$d/lists" -o Dir::Cache="$d/cache" \
		-o Acquire::Languages=none "$@"
}

# vm_apt_setup RELEASE: writes the private sources list from the machine's
# deb822 sources (their URIs and Signed-By, Debian's archive and security
# archive), with RELEASE's suites.
vm_apt_setup() {
	local rel=$1 d=$CACHE/apt/$1 uris key main sec s
	mkdir -p "$d/lists/partial" "$d/cache/archives/partial"
	uris=$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/*.sources 2>/dev/null | tr ' ' '\n' | grep . | sort -u)
	key=$(sed -n 's/^Signed-By: *//p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n 1)
	main=$(echo "$uris" | grep -v -- '-security' | head -n 1)
	sec=$(echo "$uris" | grep -- '-security' | head -n 1)
	main=${main:-http://deb.debian.org/debian}
	sec=${sec:-http://deb.debian.org/debian-security}
	key=${key:-/usr/share/keyrings/debian-archive-keyring.gpg}
	: >"$d/sources.list.tmp"
	for s in $(vm_release_suites "$rel"); do
		case "$s" in
		*-security) echo "deb [signed-by=$key] $sec $s main" ;;
		*) echo "deb [signed-by=$key] $main $s main" ;;
		esac >>"$d/sources.list.tmp"
	done
	mv "$d/sources.list.tmp" "$d/sources.list"
}

# vm_apt_update RELEASE: refresh the package lists of RELEASE (private:
# when missing or older than a day; the machine's own: only when asked).
vm_apt_update() {
	local rel=$1
	if [ -z "$rel" ]; then
		log "running apt-get update"
		apt-get update -q >/dev/null 2>&1 || log "apt-get update failed"
		return
	fi
	vm_apt_setup "$rel"
	log "updating the private package lists of $rel ($(vm_release_suites "$rel"))"
	vm_apt "$rel" apt-get -q update >/dev/null 2>&1 || log "apt-get update for $rel failed"
}

# vm_candidates RELEASE REGEX: packages matching REGEX with an installable
# candidate, newest first.
vm_candidates() {
	local rel=$1 re=$2 p
	for p in $(vm_apt "$rel" apt-cache pkgnames "$(echo "$re" | sed 's/^\^\([a-z-]*\).*/\1/')" 2>/dev/null |
		grep -E "$re" | sort -rV); do
		# (no `| grep -q` here: with pipefail its early exit fails the test)
		if [[ "$(vm_apt "$rel" apt-cache policy "$p" 2>/dev/null)" == *"Candidate: "[0-9]* ]]; then
			echo "$p"
		fi
	done
}

# vm_unpack_kernel DEB DIR: the kernel image only (the guest loads no
# modules, which are ~250 MB), as DIR/boot/vmlinuz-VERSION. Debian 11-13
# ship it in boot/; sid's linux-binary-* in usr/lib/modules/VERSION/vmlinuz.
vm_unpack_kernel() {
	local deb=$1 dir=$2 img ver
	mkdir -p "$dir/boot"
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$dir" --wildcards \
		'./boot/vmlinuz-*' './usr/lib/modules/*/vmlinuz' 2>/dev/null || true
	for img in "$dir"/usr/lib/modules/*/vmlinuz; do
		[ -f "$img" ] || continue
		ver=$(basename "$(dirname "$img")")
		mv "$img" "$dir/boot/vmlinuz-$ver"
	done
	rm -rf "${dir:?}/usr"
	ls "$dir"/boot/vmlinuz-* >/dev/null 2>&1
}

# vm_fetch_one RELEASE PKG: download and unpack PKG unless its candidate
# version is cached; prints the kernel image's path.
vm_fetch_one() {
	local rel=$1 pkg=$2 ver dir deb tmp
	ver=$(vm_apt "$rel" apt-cache policy "$pkg" | sed -n 's/^ *Candidate: //p')
	dir=$CACHE/kernels/$pkg
	if [ "$(cat "$dir/.version" 2>/dev/null)" != "$ver" ]; then
		log "downloading $pkg $ver${rel:+ ($rel)}"
		tmp=$CACHE/debs/tmp.$$
		rm -rf "$tmp" && mkdir -p "$tmp"
		# apt-get download warns when it cannot drop to the _apt user for a
		# root-owned directory; the download itself is fine.
		(cd "$tmp" && vm_apt "$rel" apt-get download -q "$pkg" 2>&1 | grep -v 'unsandboxed' >&2) || true
		deb=$(ls "$tmp/${pkg}"_*.deb 2>/dev/null | head -n 1)
		if [ -z "$deb" ]; then
			rm -rf "$tmp"
			# Remembered for a day, so later runs go straight to the next.
			echo "$ver" >"$dir.unavailable"
			return 1
		fi
		rm -rf "$dir.tmp.$$"
		if ! vm_unpack_kernel "$deb" "$dir.tmp.$$"; then
			log "no kernel image in $(basename "$deb")"
			rm -rf "$tmp" "$dir.tmp.$$"
			return 1
		fi
		echo "$ver" >"$dir.tmp.$$/.version"
		rm -rf "$dir" && mv "$dir.tmp.$$" "$dir"
		rm -rf "$tmp"
	fi
	ls "$dir"/boot/vmlinuz-* | head -n 1
}

# vm_fetch_kernel NAME: see the top. Offline, the newest cached kernel of
# the series is used.
vm_fetch_kernel() {
	local name rel re pkgs p dir
	name=$(vm_kernel_canon "$1")
	[ -n "$name" ] || return 1
	rel=$(vm_kernel_field "$name" 2)
	re=$(vm_kernel_field "$name" 3)
	mkdir -p "$CACHE/debs" "$CACHE/kernels" "$CACHE/apt"
	(
		# The cache is shared: one fetch at a time.
		flock 9
		if [ -n "$rel" ]; then
			vm_apt_setup "$rel"
			if [ -z "$(find "$CACHE/apt/$rel/lists" -maxdepth 1 -name '*Packages*' -mmin -1440 2>/dev/null)" ]; then
				vm_apt_update "$rel"
			fi
		fi
		pkgs=$(vm_candidates "$rel" "$re")
		if [ -z "$pkgs" ]; then
			# Package lists may be missing or stale on a fresh machine.
			log "apt knows no $name cloud kernel${rel:+ in $rel}"
			vm_apt_update "$rel"
			pkgs=$(vm_candidates "$rel" "$re")
		fi
		for p in $pkgs; do
			if [ -n "$(find "$CACHE/kernels/$p.unavailable" -mmin -1440 2>/dev/null)" ] &&
				[ "$(cat "$CACHE/kernels/$p.unavailable")" = \
					"$(vm_apt "$rel" apt-cache policy "$p" | sed -n 's/^ *Candidate: //p')" ]; then
				log "skipping $p: its download failed within the last day"
				continue
			fi
			vm_fetch_one "$rel" "$p" && exit 0
			log "could not download $p; trying the next one"
		done
		# Offline: the newest kernel of the series already in the cache.
		for dir in $(ls -d "$CACHE"/kernels/* 2>/dev/null | sort -rV); do
			if basename "$dir" | grep -qE "$re" && ls "$dir"/boot/vmlinuz-* >/dev/null 2>&1; then
				log "using cached $(basename "$dir")"
				ls "$dir"/boot/vmlinuz-* | head -n 1
				exit 0
			fi
		done
		exit 1
	) 9>"$CACHE/.fetch.lock"
}
