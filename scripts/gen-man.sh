#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# auditskip(8) from the program's own help: gen-man.sh AUDITSKIP VERSION
# TEMPLATE > auditskip.8. TEMPLATE is roff; its line `.\" @SYNOPSIS@`
# becomes every command's usage line and `.\" @COMMANDS@` a subsection per
# command with its description, options and examples, each taken from
# `auditskip COMMAND --help`, so the page cannot drift from the program.
set -eu

AUDITSKIP=$1
VERSION=$2
TEMPLATE=$3
# The commands, in the order of the program's own list.
COMMANDS=$("$AUDITSKIP" --help | awk '/^Commands:/ { on = 1; next } on && !NF { exit } on { print $1 }')
# No wrapping: one line per option description and per paragraph line.
export ARGP_HELP_FMT=rmargin=100000

# The help of `auditskip CMD` (counting: plain `auditskip`), unwrapped.
help_of() {
	if [ "$1" = count ]; then "$AUDITSKIP" --help; else "$AUDITSKIP" "$1" --help; fi
}

# roff escapes for a line of plain text: backslashes, hyphens, leading dots.
ESCAPE='function esc(s) { gsub(/\\/, "\\e", s); gsub(/-/, "\\-", s); sub(/^[.'"'"']/, "\\\\\\&&", s); return s }'

synopsis() {
	for c in $COMMANDS; do
		help_of "$c" | awk "$ESCAPE"'
			NR == 1 { sub(/^Usage: /, ""); n = split($0, w, " ")
				  printf ".B %s", esc(w[1]); if (w[2] !~ /^[[-]/) printf " %s", esc(w[2])
				  printf "\n"; rest = ""
				  for (i = (w[2] !~ /^[[-]/) ? 3 : 2; i <= n; i++) rest = rest " " w[i]
				  if (rest != "") print esc(substr(rest, 2)); print ".br"; exit }'
	done
	printf '.B auditskip\n.I COMMAND\n.B \\-\\-help\n'
}

# One command's help as a subsection: the description, .TP per option
# (argp's own three left out), and what follows as paragraphs, with the
# indented blocks (examples, commands, modes) kept as they are.
command_section() {
	help_of "$1" | awk -v cmd="$1" "$ESCAPE"'
		NR == 1 { printf ".SS \"auditskip %s\"\n", cmd == "count" ? "[count]" : cmd; part = "doc"; next }
		part == "doc" && !NF { part = "opts"; next }
		part == "doc" { print esc($0); next }
		part == "opts" && /^ +-/ {
			line = $0; sub(/^ +/, "", line)
			if (match(line, /^(-[^ ,], )?(--[^ =[]+(\[?=[^ \]]+\]?)?)?/)) {
				spec = substr(line, 1, RLENGTH); text = substr(line, RLENGTH + 1)
				sub(/^ +/, "", text)
			}
			if (spec ~ /^(-\?, --help|--usage|-V, --version)$/) next
			printf ".TP\n.B %s\n%s\n", esc(spec), esc(text); next
		}
		/^Mandatory or optional/ { next }
		part == "opts" && !NF { part = "post"; para = 1; next }
		part == "opts" { print esc($0); next }
		/^    / {
			if (!pre) { if (para) print ".PP"; print ".nf"; pre = 1; para = 0 }
			sub(/^    /, ""); print esc($0); next
		}
		pre { print ".fi"; pre = 0; para = 1 }
		!NF { para = 1; next }
		para { print ".PP"; para = 0 }
		{ print esc($0) }
		END { if (pre) print ".fi" }'
}

commands() {
	for c in $COMMANDS; do command_section "$c"; done
}

printf '.TH AUDITSKIP 8 "%s" "auditskip %s" "System Administration Utilities"\n' \
	"$(date -u -d "@${SOURCE_DATE_EPOCH:-$(date +%s)}" '+%B %Y')" "$VERSION"
while IFS= read -r line; do
	case $line in
	'.\" @SYNOPSIS@') synopsis ;;
	'.\" @COMMANDS@') commands ;;
	*) printf '%s\n' "$line" ;;
	esac
done <"$TEMPLATE"
