# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# The patch's aggregate exit mask, read from `auditctl -l` without any of
# auditskip's code: the ground truth the host tests hold its masks to.
#
#   auditctl -l | expected_mask_hex    64 words of 32 bits, "%08x" each, as
#                                      auditskip's mask_hex prints them
#   auditctl -l | expected_mask_bits   how many bits are set
#   auditctl -l | expected_exit_rules  how many rules the exit list holds
#   auditctl -l | expected_mask_has NR true when bit NR is set
#
# Every exit rule's -S syscalls are ORed in whatever its arch (the patch's
# mask ignores arch), numbered by audit's own ausyscall for the rule's
# arch. Watches of a file (-w FILE) and path= or inode= rules live on the
# inode hash, not the exit list, and are left out; a tree rule stays (dir=,
# and -w DIR, which is how auditctl -l prints a dir= rule with no arch and
# no -S: every syscall). -S all is
# every bit libaudit sets, less the top 16 the kernel takes as syscall class
# bits and clears (audit_to_entry_common(), AUDIT_SYSCALL_CLASSES).

# The ausyscall table of a rule's arch= (b64: this machine's own).
_arch_table() {
	case "$1:$(uname -m)" in
	b32:x86_64 | i386:*) echo i386 ;;
	b32:aarch64 | arm:*) echo arm ;;
	*:x86_64) echo x86_64 ;;
	*:aarch64) echo aarch64 ;;
	*) echo "expected_mask: arch $1 on $(uname -m) unknown" >&2 && return 1 ;;
	esac
}

# Prints "TABLE NAME" for each syscall of each exit rule on stdin's listing.
_exit_syscalls() {
	local line arch tok prev
	while IFS= read -r line; do
		case "$line" in
		"-a "*exit*) ;;
		"-w "*)
			tok=${line#-w }
			[ -d "${tok%% -*}" ] && echo "$(_arch_table b64) all"
			continue
			;;
		*) continue ;;
		esac
		case " $line " in
		*" -F path="* | *" -F inode="*) continue ;;
		*" -S "*) ;;
		*)
			echo "expected_mask: no -S in an exit rule: $line" >&2
			return 1
			;;
		esac
		arch=$(sed -n 's/.* -F arch=\([^ ]*\).*/\1/p' <<<"$line")
		prev=
		for tok in $line; do
			if [ "$prev" = -S ]; then
				tr ',' '\n' <<<"$tok" | sed "s/^/$(_arch_table "${arch:-b64}") /"
			fi
			prev=$tok
		done
	done
}

expected_mask_hex() {
	local words=() i table name nr pairs
	for i in $(seq 0 63); do words[i]=0; done
	pairs=$(_exit_syscalls) || return 1
	while read -r table name; do
		[ -n "$name" ] || continue
		if [ "$name" = all ]; then
			for i in $(seq 0 62); do words[i]=0xffffffff; done
			words[63]=$((words[63] | 0xffff))
			continue
		fi
		# auditctl -l prints a number where libaudit has no name (452: fchmodat2).
		case $name in
		*[!0-9]*) ;;
		*)
			words[name / 32]=$((words[name / 32] | (1 << (name % 32))))
			continue
			;;
		esac
		nr=$(ausyscall "$table" "$name" --exact) || {
			echo "expected_mask: ausyscall knows no $name in $table" >&2
			return 1
		}
		words[nr / 32]=$((words[nr / 32] | (1 << (nr % 32))))
	done <<<"$pairs"
	printf '%08x' "${words[@]}"
	echo
}

expected_mask_bits() {
	local hex
	hex=$(expected_mask_hex) || return 1
	# One binary digit a bit: bc is not everywhere; count nibble by nibble.
	awk -v h="$hex" 'BEGIN {
		split("0 1 1 2 1 2 2 3 1 2 2 3 2 3 3 4", pc, " ")
		for (i = 1; i <= length(h); i++) n += pc[index("0123456789abcdef", substr(h, i, 1))]
		print n
	}'
}

expected_exit_rules() {
	local line n=0 dir
	while IFS= read -r line; do
		case " $line " in
		" -w "*)
			dir=${line#-w }
			[ -d "${dir%% -*}" ] && n=$((n + 1))
			;;
		*" -F path="* | *" -F inode="*) ;;
		" -a "*exit*) n=$((n + 1)) ;;
		esac
	done
	echo "$n"
}

expected_mask_has() {
	local hex
	hex=$(expected_mask_hex) || return 2
	[ $(((0x${hex:$(($1 / 32 * 8)):8} >> ($1 % 32)) & 1)) = 1 ]
}
