# SPDX-License-Identifier: GPL-2.0
# Sourced (bash): builds the guests' initramfs. Used by tests/vm/run.sh and
# tests/kernel-ab/run.sh.
#
#   vm_host_tools              install what the host needs (root), or die
#   vm_build_initramfs DIR OUT [MAIN_SUITE]
#                              fill DIR and pack it into OUT (gzipped
#                              cpio): busybox-static, the static tools,
#                              auditctl and bpftool with their libraries,
#                              the example rule sets, libaudit's syscall
#                              tables (ausyscall --dump), guest-init.sh as
#                              /init and the guest scripts in /vmtest.
#                              MAIN_SUITE (default tests/vm/guest-tests.sh)
#                              is installed as /vmtest/guest-tests.sh, the
#                              suite /init runs unless vmsuite=stale-* is
#                              on the kernel command line.
#
# Expects ROOT (the repository), and die() and log() from the caller;
# VMDIR, STATIC (static auditskip, getpid_loop, uring_openat: `make static`,
# or VMTEST_STATIC) and RULES_SRC default as below when the caller has not
# set them.

VMDIR=${VMDIR:-$ROOT/tests/vm}
STATIC=${STATIC:-${VMTEST_STATIC:-$ROOT/.output/static}}
RULES_SRC=${RULES_SRC:-/usr/share/doc/auditd/examples/rules}
# Static tools copied from $STATIC into the guests' /bin.
VM_TOOLS=${VM_TOOLS:-auditskip getpid_loop uring_openat audit_bench time_runs empty_probes audit_exit_ns corpus corpus32 audit_records witness witness32}

vm_host_tools() {
	local need_pkgs=()
	case "${VM_ARCH:-x86}" in
	arm64) command -v qemu-system-aarch64 >/dev/null || need_pkgs+=(qemu-system-arm) ;;
	*) command -v qemu-system-x86_64 >/dev/null || need_pkgs+=(qemu-system-x86) ;;
	esac
	# busybox (the dynamic package) would need its libraries in the guest.
	case "$(ldd /bin/busybox 2>&1 || true)" in
	*"not a dynamic executable"*) ;;
	*) need_pkgs+=(busybox-static) ;;
	esac
	command -v cpio >/dev/null || need_pkgs+=(cpio)
	command -v auditctl >/dev/null || need_pkgs+=(auditd)
	[ -d $RULES_SRC ] || need_pkgs+=(auditd)
	[ -x /usr/sbin/bpftool ] || need_pkgs+=(bpftool)
	[ "${BPFTRACE:-}" != 1 ] || command -v bpftrace >/dev/null || need_pkgs+=(bpftrace)
	if [ ${#need_pkgs[@]} -gt 0 ]; then
		[ "$(id -u)" -eq 0 ] || die "missing packages: ${need_pkgs[*]} (install them as root)"
		log "installing ${need_pkgs[*]}"
		export DEBIAN_FRONTEND=noninteractive
		apt-get install -y -q "${need_pkgs[@]}" >/dev/null ||
			{ apt-get update -q >/dev/null && apt-get install -y -q "${need_pkgs[@]}" >/dev/null; } ||
			die "could not install ${need_pkgs[*]}"
	fi

	# Without them the guest still boots and reports a failed "tools" test,
	# which keeps the boot plumbing testable on its own.
	local f
	for f in $VM_TOOLS; do
		[ -x "$STATIC/$f" ] || log "WARNING: $STATIC/$f is missing: run 'make static' (or 'make vmtest')"
	done
}

# vm_copy_bin SRC DEST: copy a dynamically linked binary with every library
# ldd names (including the loader) to the same paths inside $IROOT.
vm_copy_bin() {
	local src=$1 dest=$2 lib
	install -D -m 0755 "$src" "$IROOT$dest"
	for lib in $(ldd "$src" | grep -o '/[^ ]*'); do
		[ -e "$IROOT$lib" ] || install -D -m 0755 "$(readlink -f "$lib")" "$IROOT$lib"
	done
}

# vm_install_host_bins: busybox-static, with a link for each applet where
# busybox puts it, and the host's auditctl and bpftool with their libraries.
vm_install_host_bins() {
	local a
	install -m 0755 /bin/busybox "$IROOT/bin/busybox"
	for a in $(/bin/busybox --list-full); do
		[ -e "$IROOT/$a" ] || ln -s /bin/busybox "$IROOT/$a"
	done
	vm_copy_bin "$(command -v auditctl)" /sbin/auditctl
	vm_copy_bin /usr/sbin/bpftool /sbin/bpftool
	# bpftrace and its LLVM (some 200 MB): only for the overhead suite's comparison.
	[ "${BPFTRACE:-}" != 1 ] || vm_copy_bin "$(command -v bpftrace)" /usr/bin/bpftrace
}

vm_build_initramfs() {
	local out=$2 tests=${3:-$VMDIR/guest-tests.sh} s
	IROOT=$1
	rm -rf "$IROOT"
	mkdir -p "$IROOT"/{bin,sbin,usr/bin,usr/sbin,dev,proc,sys,tmp,etc,root,vmtest/rules}

	# busybox, auditctl and bpftool: the host's, or another arch's
	# (VM_INSTALL_BINS names the function; tests/vm/lib-arm64.sh has one).
	"${VM_INSTALL_BINS:-vm_install_host_bins}"

	local f
	for f in $VM_TOOLS; do
		[ -x "$STATIC/$f" ] && install -m 0755 "$STATIC/$f" "$IROOT/bin/"
	done

	install -m 0755 "$VMDIR/guest-init.sh" "$IROOT/init"
	# Every guest-*.sh (a suite is its file: suites.sh), and what they source.
	for s in "$VMDIR"/guest-*.sh "$VMDIR"/corpus-workloads.sh "$VMDIR"/kernel-modes.sh "$VMDIR"/suites.sh; do
		[ "$s" = "$VMDIR/guest-init.sh" ] || install -m 0755 "$s" "$IROOT/vmtest/"
	done
	[ "$tests" = "$VMDIR/guest-tests.sh" ] || install -m 0755 "$tests" "$IROOT/vmtest/guest-tests.sh"
	install -m 0644 "$VMDIR/jflat.awk" "$IROOT/vmtest/jflat.awk"
	# The guests' independent reading of `auditctl -l` (rule-bits.awk, and
	# expected-mask.awk over it), with libaudit's own syscall tables: the
	# guests have no ausyscall.
	for s in rule-bits.awk expected-mask.awk; do
		install -m 0644 "$VMDIR/$s" "$IROOT/vmtest/$s"
	done
	for s in x86_64 i386 aarch64 arm; do
		ausyscall $s --dump | awk -v t=$s 'NR > 1 && NF == 2 { print t, $1, $2 }'
	done >"$IROOT/vmtest/syscalls.tab"
	[ "$(wc -l <"$IROOT/vmtest/syscalls.tab")" -gt 1000 ] || die "ausyscall --dump gave no syscall tables"
	install -m 0644 "$ROOT/tests/lib/common.sh" "$IROOT/vmtest/common.sh"
	cp "$RULES_SRC"/*.rules "$IROOT/vmtest/rules/"
	# the witness suite's other sets: audit-userspace 4.2.1's, public ones
	mkdir -p "$IROOT/vmtest/witness/audit-4.2.1" "$IROOT/vmtest/witness/public"
	cp "$ROOT"/tests/data/audit-4.2.1/*.rules "$IROOT/vmtest/witness/audit-4.2.1/"
	cp "$ROOT"/tests/data/public/*.rules "$IROOT/vmtest/witness/public/"
	# a caller's own set (the kernel A/B's KERNEL_AB_RULES)
	[ -z "${VM_EXTRA_RULES:-}" ] || install -m 0644 "$VM_EXTRA_RULES" "$IROOT/vmtest/extra.rules"

	# The files the example rule sets watch that a Debian host has, so that
	# their watches sit on inodes as there: a watch on a missing file waits
	# in one inode hash bucket with every other such watch, and every name
	# of a missing file is checked against all of them.
	printf 'root:x:0:0:root:/root:/bin/sh\n' >"$IROOT/etc/passwd"
	printf 'root:x:0:\n' >"$IROOT/etc/group"
	printf 'root:*::::::\n' >"$IROOT/etc/shadow"
	printf 'root:*::\n' >"$IROOT/etc/gshadow"
	printf 'vmtest\n' >"$IROOT/etc/hostname"
	printf '127.0.0.1 localhost\n' >"$IROOT/etc/hosts"
	printf 'vmtest\n' >"$IROOT/etc/issue"
	printf 'vmtest\n' >"$IROOT/etc/issue.net"
	printf 'root ALL=(ALL:ALL) ALL\n' >"$IROOT/etc/sudoers"
	mkdir -p "$IROOT/etc/security"
	: >"$IROOT/etc/security/opasswd"
	[ -f /usr/share/zoneinfo/UTC ] && cp /usr/share/zoneinfo/UTC "$IROOT/etc/localtime"
	# 30-stig's dir= rules need their directories; one of them (no arch, so
	# every syscall bit) makes the aggregate mask all ones, as on real hosts.
	mkdir -p "$IROOT/etc/NetworkManager" "$IROOT/etc/selinux" "$IROOT/etc/sudoers.d"

	(cd "$IROOT" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) |
		gzip -1 >"$out"
}
