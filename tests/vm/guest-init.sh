#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# /init of the test guest's initramfs (busybox sh, PID 1).
# Everything the guest reports goes to the serial console (ttyS0) as lines
# starting with "VMTEST ", so the guest needs no disk and no network, and the
# cloud kernels need none of their modular virtio drivers.

export PATH=/bin:/sbin:/usr/bin:/usr/sbin

mount -t devtmpfs dev /dev 2>/dev/null
# devtmpfs has no /dev/fd or /dev/std* (udev makes those elsewhere).
ln -sf /proc/self/fd /dev/fd
ln -sf /proc/self/fd/0 /dev/stdin
ln -sf /proc/self/fd/1 /dev/stdout
ln -sf /proc/self/fd/2 /dev/stderr
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
mount -t bpf bpf /sys/fs/bpf
# /tmp on tmpfs, so the watch and tree rules of the tests sit on an ordinary
# mounted file system rather than on the initramfs root.
mount -t tmpfs tmpfs /tmp

# Console log level 5, as loglevel=5 on the command line (lib-qemu.sh):
# kernel warnings and worse reach the console as they happen, where the host
# reads them (tests/vm/lib-console.sh), even when they scroll out of the
# ring buffer later; the audit records (printed as KERN_NOTICE when no auditd
# runs) stay off the console, away from the result lines.
dmesg -n 5

# vmsuite=SUITE on the kernel command line runs /vmtest/guest-SUITE.sh
# (suites.sh: stale-watch is guest-stale.sh watch); without it, or for a
# name that is no suite of /vmtest, the main suite, /vmtest/guest-tests.sh
# (a caller may install another there: the kernel A/B and arm64's compat
# suite do).
suite=$(sed -n 's/.*vmsuite=\([^ ]*\).*/\1/p' /proc/cmdline)
echo "VMTEST BOOT $(uname -r) ${suite:-main}"
# vmtests=NAME,... (tests/vm/run.sh -t NAME): the suite's -t options.
set -f
set --
for t in $(sed -n 's/.*vmtests=\([^ ]*\).*/\1/p' /proc/cmdline | tr , ' '); do
	set -- "$@" -t "$t"
done
set +f
# The tests get their own process; a crash in them must still power off.
. /vmtest/suites.sh
script=$(suite_script "${suite:-main}")
is_suite /vmtest "${suite:-main}" || script=guest-tests.sh
# ($script is the file and its argument, split into words on purpose)
# shellcheck disable=SC2086
set -- /vmtest/$script "$@"
sh "$@" </dev/null 2>&1
rc=$?
# Anything the kernel complained about while the suite ran, for the host to
# tell a crashed guest from failed tests, and to fail the suite on a
# warning, an RCU stall, a hung task or an OOM kill (the console shows only
# what printk sends past "dmesg -n 1"; an oops raises the level itself).
dmesg | grep -E 'Oops|BUG:|Kernel panic|general protection|WARNING:|Call Trace|RIP:|rcu.*stall|hung_task|blocked for more than|Out of memory|oom-kill|Killed process' |
	head -n 40 | sed 's/^/VMTEST KLOG /'
echo "VMTEST DONE rc=$rc"
sync
poweroff -f
