# SPDX-License-Identifier: GPL-2.0
# The bits one rule line adds to the patch's aggregate exit mask, read with
# none of auditskip's code: libaudit's own syscall tables (ausyscall --dump,
# /vmtest/syscalls.tab, written by tests/vm/lib-initramfs.sh) and the rule
# text as `auditctl -l` prints it or as auditctl takes it. The guests'
# expected-mask.awk and corpus-workloads.sh's rule_awk both read rules with
# it, so the two cannot disagree on what a line means. busybox awk runs it:
#
#   awk -v tables=FILE -v machine=x86_64 -v compat=i386 -f rule-bits.awk -f MAIN.awk
#
# load_tables() first (from BEGIN); then line_bits(LINE, BITS) puts the
# bits of LINE in BITS and returns 1, or returns 0 for a line that is no
# exit-list rule. The bits are numbers, or "all" for every syscall: bits 0
# to 2031 (-S all less the top 16, which the kernel takes as class bits and
# clears: audit_to_entry_common(), AUDIT_SYSCALL_CLASSES). A name no table
# has prints "error=..." to stdout and sets bad.
#
# What counts: every exit rule's -S syscalls whatever its arch (the patch's
# mask ignores arch), numbered by the table of the rule's arch; a rule with
# no -S, -S all, and a -w of a directory (how auditctl -l prints a dir=
# rule with no arch and no -S) have every bit. A -w of a file and a path= or
# inode= rule live on the inode hash, not the exit list: no bit.

function load_tables(   l, f) {
	while ((getline l < tables) > 0) {
		split(l, f, " ")
		nr[f[1], f[3]] = f[2] + 0
		known[f[1]] = 1
	}
	if (!known[machine] || !known[compat]) {
		print "error=no syscall table for " machine " and " compat " in " tables
		bad = 1
	}
}

function line_bits(l, bits,   f, n, i, j, t, seen, names, m) {
	split("", bits)
	n = split(l, f, " ")
	if (f[1] == "-w") {
		# A directory now is what auditctl saw when it made the rule a dir= one.
		if (system("[ -d \"" f[2] "\" ]") != 0) return 0
		bits["all"] = 1
		return 1
	}
	if ((f[1] != "-a" && f[1] != "-d") || (f[2] !~ /,exit$/ && f[2] !~ /^exit,/)) return 0
	if (l ~ / -F (path|inode)=/) return 0
	t = machine
	for (i = 1; i <= n; i++)
		if (f[i] == "arch=b32" || f[i] == "arch=i386" || f[i] == "arch=arm") t = compat
	for (i = 1; i < n; i++) {
		if (f[i] != "-S") continue
		seen = 1
		m = split(f[i + 1], names, ",")
		for (j = 1; j <= m; j++) {
			if (names[j] == "all") bits["all"] = 1
			# auditctl -l prints a number where libaudit has no name (452: fchmodat2).
			else if (names[j] ~ /^[0-9]+$/) bits[names[j] + 0] = 1
			else if ((t, names[j]) in nr) bits[nr[t, names[j]]] = 1
			else { print "error=no syscall " names[j] " in the " t " table: " l; bad = 1 }
		}
	}
	if (!seen) bits["all"] = 1
	return 1
}
