#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
#
# A document's shell examples, run as a reader would: its ```sh blocks, in
# order, in one shell with "set -e", from a scratch directory that looks
# like the top of the source tree after "make" (the source tree's files
# linked in, the programs of OBJTREE beside them and on PATH). A document
# with a line "<!-- run -->" runs only the blocks right below such a line
# (getting-started.md runs all of them; vsctl.md marks the ones that run).
# Blocks of other kinds (```console, ```text) are not run. A block that
# fails is shown with what it printed; the document must also stop every
# process it started.
#
# Usage: selftests/doc-run.sh OBJTREE SRCTREE DOCUMENT
set -eu

[ $# -eq 3 ] || { echo "usage: $0 OBJTREE SRCTREE DOCUMENT" >&2; exit 2; }
objtree=$(cd "$1" && pwd)
srctree=$(cd "$2" && pwd)
guide=$srctree/$3
name=${3##*/}
progs="vschedd vsctl vskube vsbench"
fail() { echo "doc-run: $name: $*" >&2; exit 1; }

[ -f "$guide" ] || fail "$guide is missing"
for p in $progs; do
	[ -x "$objtree/$p" ] || fail "$objtree/$p is missing: build it first"
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The top of a built tree: the sources' entries, then the programs.
mkdir "$tmp/tree" "$tmp/tmp"
for f in "$srctree"/* "$srctree"/.[!.]*; do
	[ -e "$f" ] || continue
	case " $progs " in *" ${f##*/} "*) continue ;; esac
	ln -s "$f" "$tmp/tree/${f##*/}"
done
for p in $progs; do
	ln -s "$objtree/$p" "$tmp/tree/$p"
done

# The blocks, one file each: the lines between "```sh" and the next "```",
# where the line above is "<!-- run -->" if the document has such lines.
marked=0
! grep -qxF '<!-- run -->' "$guide" || marked=1
awk -v dir="$tmp" -v marked="$marked" '
	/^```sh$/ && (!marked || prev == "<!-- run -->") {
		n++; file = dir "/block." n; inblock = 1; next
	}
	/^```/ && inblock { inblock = 0; close(file); next }
	inblock { print > file }
	{ prev = $0 }
	END { print n + 0 > (dir "/count") }
' "$guide"
count=$(cat "$tmp/count")
[ "$count" -ge 1 ] || fail "no sh block to run"

# One shell runs them all, so that what a block sets (variables, background
# jobs) the next one has. Each block's output goes to a file of its own; the
# number of the block under way is kept for the report. At the end (or on a
# failure, or a signal) the shell lists the jobs still running and stops
# them, so that a broken document leaves no daemon behind.
# shellcheck disable=SC2016 # $T is the generated script's to expand
{
	cat <<'END'
set -e
cleanup() {
	jobs -p >"$T/jobs"
	: >"$T/left"
	for p in $(cat "$T/jobs"); do
		! kill "$p" 2>/dev/null || echo "$p" >>"$T/left"
	done
}
trap cleanup EXIT
trap 'exit 143' TERM INT
cd "$T/tree"
PATH=$T/tree:$PATH
END
	i=1
	while [ "$i" -le "$count" ]; do
		printf 'echo %d >"$T/current"\n' "$i"
		printf '{ . "$T/block.%d"; } >"$T/out.%d" 2>&1\n' "$i" "$i"
		i=$((i + 1))
	done
	echo 'echo finished >"$T/current"'
} >"$tmp/run.sh"

status=0
(
	unset VSCHED_SOCKET
	export T="$tmp" TMPDIR="$tmp/tmp"
	exec timeout 300 sh "$tmp/run.sh"
) </dev/null || status=$?

current=$(cat "$tmp/current" 2>/dev/null || echo 1)
if [ "$current" = finished ] && [ "$status" -ne 0 ]; then
	fail "every block ran, but the shell exited with status $status"
fi
if [ "$current" != finished ]; then
	echo "doc-run: $name: block $current of $count failed (exit status $status):" >&2
	sed 's/^/    | /' "$tmp/block.$current" >&2
	echo "  its output:" >&2
	sed 's/^/    > /' "$tmp/out.$current" >&2 2>/dev/null || :
	exit 1
fi
if [ -s "$tmp/left" ]; then
	fail "the document left processes running (stopped now): $(tr '\n' ' ' <"$tmp/left")"
fi
echo "doc-run: $count blocks of $3: ok"
