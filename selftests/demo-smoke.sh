#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The whole system against the core alone: scripts/demo.sh (a standalone
# vschedd, a synthetic cluster loaded over the socket by vsbench load,
# three "vsctl cycle run") must bind exactly as many tasks as vsbench cycle
# binds in-process for the same cluster, with and without running load.
# Usage: selftests/demo-smoke.sh OBJTREE SRCTREE
set -eu
objtree=$1
srctree=$2
out=$(mktemp)
trap 'rm -f "$out"' EXIT
fail() { echo "demo-smoke: FAIL: $*" >&2; cat "$out" >&2; exit 1; }

for running in 0 30; do
	shape="-n 12 -q 3 -j 150 -t 4 -r $running -s 7"	# more work than room
	# shellcheck disable=SC2086
	"$srctree/scripts/demo.sh" "$objtree" $shape >"$out" 2>&1 || fail "demo.sh exited $?"
	daemon=$(sed -n 's/^binds  *\([0-9][0-9]*\)$/\1/p' "$out")
	# shellcheck disable=SC2086
	"$objtree/vsbench" cycle $shape -c 3 >"$out" 2>&1 || fail "vsbench cycle exited $?"
	inproc=$(sed -n 's/^  \([0-9][0-9]*\) tasks bound.*/\1/p' "$out")
	[ -n "$daemon" ] && [ -n "$inproc" ] || fail "no bind count (daemon '$daemon', in-process '$inproc')"
	[ "$daemon" -gt 0 ] || fail "the daemon bound nothing"
	[ "$daemon" = "$inproc" ] ||
		fail "running $running%: the daemon bound $daemon tasks, the core alone $inproc"
done
echo "demo-smoke: the daemon bound what the core alone binds, with and without running load"
