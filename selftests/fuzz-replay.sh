#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# make check's short fuzz run: every fuzz target over its committed corpus,
# selftests/fuzz/corpus/NAME/, and a fixed number of mutants of each input
# (selftests/fuzz/replay.c; Documentation/fuzzing.md). make fuzz runs the
# same targets under libFuzzer for as long as it is told.
#
# Usage: selftests/fuzz-replay.sh OBJTREE SRCTREE TARGET...
set -eu

objtree=$1
srctree=$2
shift 2

# Mutants per corpus input: a few seconds in all, under the sanitizers too.
mutants() {
	case $1 in
	scenario) echo 300 ;;
	manifest) echo 500 ;;
	*) echo 1000 ;;
	esac
}

artifacts=$(mktemp -d)
trap 'rm -rf "$artifacts"' EXIT
for t in "$@"; do
	# What the code under test logs (warnings of odd input) is shown on failure only.
	if ! "$objtree/selftests/fuzz/replay-$t" -n "$(mutants "$t")" -a "$artifacts" \
		"$srctree/selftests/fuzz/corpus/$t" >/dev/null 2>"$artifacts/log"; then
		tail -n 40 "$artifacts/log" >&2
		rm -f "$artifacts/log"
		echo "fuzz-replay: target $t failed; the input is kept in $objtree/fuzz-crash/" >&2
		mkdir -p "$objtree/fuzz-crash"
		cp "$artifacts"/* "$objtree/fuzz-crash/" 2>/dev/null || true
		exit 1
	fi
done
echo "fuzz-replay: $# targets over their corpus and its mutants, no crash"
