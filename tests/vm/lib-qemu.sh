# SPDX-License-Identifier: GPL-2.0
# Sourced (bash): boots one QEMU guest. Used by tests/vm/run.sh and
# tests/kernel-ab/run.sh.
#
#   vm_boot KERNEL INITRD LOG [EXTRA_APPEND]
#
# Boots KERNEL with INITRD under TCG (no KVM: see the shared kernel notes)
# with the serial console (ttyS0; ttyAMA0 on arm64) and audit=1; the guest
# powers off when its /init is done. The console goes to LOG, and with carriage returns
# removed to LOG.txt. Sets VM_STATUS (exit status of QEMU; 124 or 137 when
# it was stopped after TIMEOUT seconds) and VM_SECS (wall time).
#
# Settings (from the caller or the environment): TIMEOUT (default 300),
# MEM (default 1G), SMP (default 2), TCG_THREAD (default single), VM_ARCH
# (x86, the default, or arm64: see vm_qemu_arch), ICOUNT (1: the guest's
# clock counts the instructions it executed, one per ns, instead of
# following the host's: timings a busy host cannot disturb; TCG emulates no
# caches, so they count instructions, not what a CPU would take).
#
# Why single-threaded TCG: with one host thread per vCPU (thread=multi),
# about one boot in twelve oopsed with "Oops: int3" in
# syscall_exit_to_user_mode_prepare while bpf() attached or detached the
# sys_exit tracepoint, whose static branch the kernel flips with int3 and
# text_poke_bp() (arch/x86/kernel/alternative.c). One host thread runs the
# vCPUs in turn: the guest still has SMP CPUs (per-CPU maps stay per-CPU),
# and no such oops was seen (bench/guest-boots.sh, bench/results/).

# vm_qemu_arch: VM_QEMU (QEMU and its machine) and VM_CONSOLE (the serial
# console's device in the guest) for VM_ARCH. arm64 guests run on QEMU's
# generic "virt" board, whose PL011 UART is ttyAMA0.
vm_qemu_arch() {
	case "${VM_ARCH:-x86}" in
	arm64)
		VM_QEMU=(qemu-system-aarch64 -M virt -cpu max)
		VM_CONSOLE=ttyAMA0
		;;
	*)
		VM_QEMU=(qemu-system-x86_64 -cpu max)
		VM_CONSOLE=ttyS0
		;;
	esac
}

vm_boot() {
	local kernel=$1 initrd=$2 logf=$3 extra=${4:-} t0 clock=()
	VM_STATUS=0
	[ "${ICOUNT:-}" != 1 ] || clock=(-icount shift=0,sleep=off)
	vm_qemu_arch
	t0=$(date +%s)
	# -no-reboot + panic=-1: a guest whose init dies ends QEMU at once.
	# loglevel=5 (not quiet): every kernel message from KERN_WARNING up (a
	# WARNING, BUG, RCU stall, hung task, OOM kill...) reaches the console
	# as it happens, from the first line of the boot, for lib-console.sh;
	# the audit records (KERN_NOTICE) stay off it.
	# stdin from /dev/null so QEMU never puts a developer's tty in raw mode.
	timeout -k 10 "${TIMEOUT:-300}" "${VM_QEMU[@]}" \
		-accel tcg,thread="${TCG_THREAD:-single}" "${clock[@]}" -m "${MEM:-1G}" -smp "${SMP:-2}" \
		-nographic -no-reboot \
		-kernel "$kernel" -initrd "$initrd" \
		-append "console=$VM_CONSOLE audit=1 panic=-1 loglevel=5${extra:+ $extra}" \
		</dev/null >"$logf" 2>&1 || VM_STATUS=$?
	VM_SECS=$(($(date +%s) - t0))
	tr -d '\r' <"$logf" >"$logf.txt"
}

# vm_crash_text LOG: the kernel's oops, panic or BUG report from LOG.txt
# (the console; the guest also copies such dmesg lines there as
# "VMTEST KLOG"), up to 40 lines from its first line; nothing for a guest
# that did not crash. Such a guest is a harness failure, not a test result.
vm_crash_text() {
	local first
	first=$(grep -n -E 'Oops|BUG:|kernel BUG at|Kernel panic|general protection fault' "$1.txt" |
		head -n 1 | cut -d: -f1)
	[ -n "$first" ] || return 0
	tail -n "+$first" "$1.txt" | head -n 40 | sed 's/\x1b\[[0-9;?]*[a-zA-Z]//g' | cut -c1-300
}
