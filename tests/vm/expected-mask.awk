# SPDX-License-Identifier: GPL-2.0
# The patch's aggregate exit mask, read from `auditctl -l` without any of
# auditskip's code: what the guests hold the tool's masks to. The same
# reading as tests/lib/expected_mask.sh on the host (bash and ausyscall,
# neither of which the guests have), in awk that busybox runs.
#
#   auditctl -l | awk -v tables=FILE -v machine="$(uname -m)" -f expected-mask.awk
#
# prints "mask_hex=HEX" (64 words of 32 bits, "%08x" each, as auditskip's
# mask_hex prints them), "mask_bits=N" and "exit_rules=N"; on a syscall name
# the tables lack it prints "error=..." to stdout and exits 1.
#
# tables: lines "TABLE NR NAME", TABLE one of x86_64 i386 aarch64 arm, from
# libaudit's own ausyscall --dump (tests/vm/lib-initramfs.sh writes them when
# it builds the initramfs).
#
# Every exit rule's -S syscalls are ORed in whatever its arch (the patch's
# mask ignores arch), numbered by the table of the rule's arch. Watches of a
# file (-w FILE) and path= or inode= rules live on the inode hash, not the
# exit list, and are left out; a tree rule stays (dir=, and -w DIR, which is
# how auditctl -l prints a dir= rule with no arch and no -S: every syscall).
# -S all is every bit libaudit sets, less the top 16 the kernel takes as
# syscall class bits and clears (audit_to_entry_common(),
# AUDIT_SYSCALL_CLASSES): bits 0 to 2031.

function arch_table(a) {
	if (machine == "x86_64") return (a == "b32" || a == "i386") ? "i386" : "x86_64"
	if (machine == "aarch64") return (a == "b32" || a == "arm") ? "arm" : "aarch64"
	return ""
}

function set_all(   i) {
	for (i = 0; i < 2032; i++) bit[i] = 1
}

function set_name(table, name) {
	# auditctl -l prints a number where libaudit has no name (452: fchmodat2).
	if (name ~ /^[0-9]+$/) { bit[name + 0] = 1; return 1 }
	if (name == "all") { set_all(); return 1 }
	if (!((table, name) in nr)) return 0
	bit[nr[table, name]] = 1
	return 1
}

BEGIN {
	if (machine != "x86_64" && machine != "aarch64") {
		print "error=machine " machine " unknown"
		bad = 1
		exit 1
	}
	while ((getline line < tables) > 0) {
		split(line, f, " ")
		nr[f[1], f[3]] = f[2] + 0
		known[f[1]] = 1
	}
	if (!known[arch_table("b64")] || !known[arch_table("b32")]) {
		print "error=no syscall table for " machine " in " tables
		bad = 1
		exit 1
	}
}

/^-w / {
	# A directory now is what auditctl saw when it made the rule a dir= one.
	if (system("[ -d '" $2 "' ]") == 0) { rules++; set_all() }
	next
}

/^-a / && $2 ~ /,exit$|^exit,/ {
	if (/ -F (path|inode)=/) next
	rules++
	arch = "b64"
	for (i = 1; i <= NF; i++)
		if ($i ~ /^arch=/) arch = substr($i, 6)
	t = arch_table(arch)
	seen = 0
	for (i = 1; i < NF; i++) {
		if ($i != "-S") continue
		seen = 1
		n = split($(i + 1), names, ",")
		for (j = 1; j <= n; j++)
			if (!set_name(t, names[j])) {
				print "error=no syscall " names[j] " in the " t " table: " $0
				bad = 1
			}
	}
	if (!seen) {
		print "error=no -S in an exit rule: " $0
		bad = 1
	}
}

END {
	if (bad) exit 1
	hex = ""
	bits = 0
	for (w = 0; w < 64; w++)
		for (d = 7; d >= 0; d--) {
			v = 0
			for (k = 3; k >= 0; k--) {
				b = 32 * w + 4 * d + k
				v = v * 2 + (b in bit)
				bits += (b in bit)
			}
			hex = hex substr("0123456789abcdef", v + 1, 1)
		}
	print "mask_hex=" hex
	print "mask_bits=" bits
	print "exit_rules=" rules + 0
}
