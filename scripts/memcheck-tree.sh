#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
#
# A build tree whose programs run under valgrind, for `make memcheck` to
# hand to the smoke scripts of `make check` in place of the real one: DIR
# gets, for each PROG, an executable that runs OBJTREE/PROG under COMMAND
# (replacing itself, so the process a script starts and waits for or kills
# is the traced one), and a link to every other entry of OBJTREE (the test
# helpers under selftests/ run as they are). COMMAND's program is found
# now, as scripts run the programs with another PATH too.
#
# usage: memcheck-tree.sh OBJTREE DIR "PROG..." "COMMAND"
set -eu

if [ $# -ne 4 ] || [ ! -d "$1" ] || [ -z "$4" ]; then
	echo "usage: $0 OBJTREE DIR \"PROG...\" \"COMMAND\"" >&2
	exit 2
fi
objtree=$(cd "$1" && pwd)
dir=$2
progs=$3
prog=${4%% *}
run=$(command -v "$prog") || { echo "$0: $prog: not found" >&2; exit 1; }
run=$run${4#"$prog"}

rm -rf "$dir"
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
for f in "$objtree"/*; do
	case " $progs " in *" ${f##*/} "*) continue ;; esac
	[ "$f" = "${dir%/*}" ] || [ "$f" = "$dir" ] || ln -s "$f" "$dir/${f##*/}"
done
for p in $progs; do
	[ -x "$objtree/$p" ] || { echo "$0: $objtree/$p is missing: build it first" >&2; exit 1; }
	# The command's words are split but not globbed (valgrind's *jemalloc*).
	printf '#!/bin/sh\nset -f\nexec %s "%s" "$@"\n' "$run" "$objtree/$p" >"$dir/$p"
	chmod +x "$dir/$p"
done
