# SPDX-License-Identifier: GPL-2.0
# The patch's aggregate exit mask, read from `auditctl -l` without any of
# auditskip's code: what the guests hold the tool's masks to. The same
# reading as tests/lib/expected_mask.sh on the host (bash and ausyscall,
# neither of which the guests have), in awk that busybox runs; each line's
# bits come from rule-bits.awk (see there what counts).
#
#   auditctl -l | awk -v tables=FILE -v machine="$(uname -m)" \
#       -f rule-bits.awk -f expected-mask.awk
#
# prints "mask_hex=HEX" (64 words of 32 bits, "%08x" each, as auditskip's
# mask_hex prints them), "mask_bits=N" and "exit_rules=N"; on a syscall name
# the tables lack it prints "error=..." to stdout and exits 1.

BEGIN {
	if (machine == "x86_64") compat = "i386"
	else if (machine == "aarch64") compat = "arm"
	else {
		print "error=machine " machine " unknown"
		bad = 1
		exit 1
	}
	load_tables()
	if (bad) exit 1
}

{
	if (!line_bits($0, b)) next
	rules++
	for (k in b)
		if (k == "all") for (i = 0; i < 2032; i++) bit[i] = 1
		else bit[k] = 1
}

END {
	if (bad) exit 1
	hex = ""
	bits = 0
	for (w = 0; w < 64; w++)
		for (d = 7; d >= 0; d--) {
			v = 0
			for (k = 3; k >= 0; k--) {
				nb = 32 * w + 4 * d + k
				v = v * 2 + (nb in bit)
				bits += (nb in bit)
			}
			hex = hex substr("0123456789abcdef", v + 1, 1)
		}
	print "mask_hex=" hex
	print "mask_bits=" bits
	print "exit_rules=" rules + 0
}
