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
# MEM (default 1G), SMP (default 2), VM_ARCH (x86, the default, or arm64:
# see vm_qemu_arch).

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
	local kernel=$1 initrd=$2 logf=$3 extra=${4:-} t0
	VM_STATUS=0
	vm_qemu_arch
	t0=$(date +%s)
	# -no-reboot + panic=-1: a guest whose init dies ends QEMU at once.
	# stdin from /dev/null so QEMU never puts a developer's tty in raw mode.
	timeout -k 10 "${TIMEOUT:-300}" "${VM_QEMU[@]}" \
		-accel tcg -m "${MEM:-1G}" -smp "${SMP:-2}" \
		-nographic -no-reboot \
		-kernel "$kernel" -initrd "$initrd" \
		-append "console=$VM_CONSOLE audit=1 panic=-1 quiet${extra:+ $extra}" \
		</dev/null >"$logf" 2>&1 || VM_STATUS=$?
	VM_SECS=$(($(date +%s) - t0))
	tr -d '\r' <"$logf" >"$logf.txt"
}
