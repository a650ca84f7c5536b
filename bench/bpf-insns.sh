#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Instruction counts of the programs in a BPF object, as compiled (before
# libbpf's relocations and the verifier): one line per function, its name,
# its instructions (an ld_imm64 counts two, as in the kernel's count) and
# its ELF section. Subprograms (in .text) are listed on their own: a
# program that calls one runs both.
#
#   bench/bpf-insns.sh [-d] OBJECT
#
# -d adds a digest of each function's instructions and relocation targets
# (variables and maps by name, labels and addresses left out), so that two
# builds of the same code from differently laid out sources compare equal.
# A call into .text names its callee by offset: moving a subprogram
# changes its callers' digests, not their counts.
#
#   bench/bpf-insns.sh -d .output/auditskip.bpf.o > before.txt

set -euo pipefail

DIGEST=0
if [ "${1:-}" = -d ]; then
	DIGEST=1
	shift
fi
if [ $# -ne 1 ] || [ ! -f "$1" ]; then
	echo "usage: bench/bpf-insns.sh [-d] OBJECT (a BPF object file)" >&2
	exit 2
fi
OBJ=$1
OBJDUMP=${LLVM_OBJDUMP:-llvm-objdump}
READELF=${LLVM_READELF:-llvm-readelf}

# Section index -> name.
declare -A SECTION
while read -r idx name; do
	SECTION[$idx]=$name
done < <("$READELF" -SW "$OBJ" | sed -n 's/^ *\[ *\([0-9]*\)\] \([^ ]*\) .*/\1 \2/p')

# A function's instructions and the relocations that fall within it, cut
# by address from its section's disassembly (llvm-objdump's
# --disassemble-symbols stops at the function's first local label).
digest()
{
	"$OBJDUMP" -dr --no-show-raw-insn -j "$1" "$OBJ" |
		awk -v lo=$(($2)) -v hi=$(($2 + $3)) '
			function hex(s,  n, i) {
				for (i = 1; i <= length(s); i++)
					n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
				return n
			}
			/^ *[0-9]+:\t/ {
				off = (substr($1, 1, length($1) - 1) + 0) * 8
				if (off >= lo && off < hi) {
					sub(/^ *[0-9]+:\t/, ""); sub(/ <[^>]*>/, ""); print
				}
				next
			}
			/^\t\t[0-9a-f]+:  / {
				off = hex(substr($1, 1, length($1) - 1))
				if (off >= lo && off < hi) { sub(/^\t\t[0-9a-f]+:  /, "\t"); print }
			}' | sha256sum | cut -c1-16
}

printf '%-32s %6s  %s%s\n' program insns section "$([ $DIGEST = 1 ] && echo '  digest')"
"$READELF" -sW "$OBJ" | awk '$4 == "FUNC" { print $8, $3, $7, $2 }' | sort |
	while read -r name size ndx value; do
		printf '%-32s %6d  %s' "$name" $((size / 8)) "${SECTION[$ndx]}"
		if [ $DIGEST = 1 ]; then
			printf '  %s' "$(digest "${SECTION[$ndx]}" "0x$value" "$size")"
		fi
		printf '\n'
	done
