#!/bin/sh
# Write compile_commands.json (the clang compilation database) to stdout from
# the command lines the build saved beside each object (.foo.o.cmd).
#
# Usage: scripts/gen-compile-commands.sh SRCTREE OBJTREE OBJ...
#   OBJ are object paths relative to the tree, as the Kbuild files list them.
set -eu

srctree=$1
objtree=$2
shift 2

json_escape() {
	printf '%s' "$1" | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g'
}

printf '[\n'
sep=''
for obj in "$@"; do
	cmdfile="$objtree/$(dirname "$obj")/.$(basename "$obj").cmd"
	[ -f "$cmdfile" ] || continue
	# First line: savedcmd_TARGET := COMMAND, with make's $$ and $(pound) escapes.
	cmd=$(sed -n '1s/^savedcmd_[^ ]* := //p' "$cmdfile" |
		sed -e 's/\$(pound)/#/g' -e 's/\$\$/$/g')
	[ -n "$cmd" ] || continue
	src="$srctree/${obj%.o}.c"
	printf '%s  {\n    "directory": "%s",\n    "file": "%s",\n    "command": "%s"\n  }' \
		"$sep" "$(json_escape "$srctree")" "$(json_escape "$src")" "$(json_escape "$cmd")"
	sep=',
'
done
printf '\n]\n'
