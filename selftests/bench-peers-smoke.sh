#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# make bench-peers at a tiny size (scripts/bench-peers.sh; Documentation/
# benchmarks.md, "The peers side by side"), run by hand, not by make check:
# each of kube-scheduler, Volcano's scheduler and vsched, on its own fresh
# real API server, binds every pod of 20 nodes and 100 pods in PodGroups of
# 10; every row of the table and of peers.dat has its numbers (throughput,
# p50 no more than p99, CPU and peak RSS of the scheduler and of
# kube-apiserver), the plots are drawn when gnuplot is there, no process
# is left running, and bad sizes and names are refused before anything
# starts.
#
# Usage: selftests/bench-peers-smoke.sh OBJTREE PEERS
#   OBJTREE: where vschedd and vskube are; PEERS: make bench-peers-progs'
#   output (GO_DIR/peers). Files kept on failure.
set -eu
me=bench-peers-smoke
objtree=$(cd "$1" && pwd)
peers=$(cd "$2" && pwd)
srctree=$(cd "$(dirname "$0")/.." && pwd)
bench=$srctree/scripts/bench-peers.sh
tmp=$(mktemp -d /tmp/bench-peers-smoke-XXXXXX)
keep=

trap '[ -n "$keep" ] && echo "$me: files kept in $tmp" >&2 || rm -rf "$tmp"' EXIT
fail() { echo "$me: FAIL: $*" >&2; keep=1; exit 1; }

# Refusals: exit 2, the reason named, nothing started.
refused() { # WHAT ENV... -- ARGS...
	what=$1
	shift
	if env "$@" >"$tmp/refused.out" 2>&1; then
		fail "$what: accepted"
	else
		rc=$?
	fi
	[ "$rc" -eq 2 ] || fail "$what: exit $rc, not 2: $(cat "$tmp/refused.out")"
	grep -q "bench-peers: " "$tmp/refused.out" || fail "$what: no message"
	[ ! -e "$tmp/none" ] || fail "$what: made its output directory"
}
base="PEERS=$peers OBJTREE=$objtree OUT=$tmp/none"
# shellcheck disable=SC2086 # base is a list of assignments
{
	refused "SIZES without a colon" $base SIZES=100 "$bench"
	refused "SIZES of letters" $base SIZES=a:b "$bench"
	refused "pods not whole groups" $base SIZES=10:15 "$bench"
	refused "GROUP 0" $base GROUP=0 "$bench"
	refused "an unknown scheduler" $base "$bench" kube-scheduler yunikorn
	grep -q '"yunikorn"' "$tmp/refused.out" || fail "the unknown scheduler is not named"
	refused "PEERS without the programs" PEERS="$tmp" OBJTREE="$objtree" OUT="$tmp/none" "$bench"
}

out=$tmp/out
PEERS=$peers OBJTREE=$objtree OUT=$out SIZES=20:100 GROUP=10 QUEUES=2 TIMEOUT=60 \
	"$bench" >"$tmp/table" 2>"$tmp/log" || { cat "$tmp/log" >&2; fail "bench-peers failed"; }

for s in kube-scheduler volcano vsched; do
	row=$(awk -v s="$s" '$1 == s' "$out/peers.dat")
	[ -n "$row" ] || fail "no row for $s in peers.dat"
	# shellcheck disable=SC2086 # the row's fields
	set -- $row
	[ "$2 $3 $4" = "20 100 100" ] || fail "$s: nodes, pods, bound are $2 $3 $4, not 20 100 100"
	awk -v s="$s" -v r="$row" 'BEGIN {
		split(r, f, " ")
		if (!(f[5] > 0)) { print s ": no throughput: " r; exit 1 }
		if (!(f[6] >= 0 && f[6] <= f[7])) { print s ": p50 " f[6] " > p99 " f[7]; exit 1 }
		if (!(f[8] > 0 && f[9] > 0)) { print s ": no CPU or RSS for the scheduler: " r; exit 1 }
		if (!(f[10] > 0 && f[11] > 0)) { print s ": no CPU or RSS for kube-apiserver: " r; exit 1 }
		if (!(f[12] > 0 && f[13] > 0)) { print s ": no CPU or RSS for etcd: " r; exit 1 }
		if (!(f[14] > 0)) { print s ": no creation rate: " r; exit 1 }
	}' >&2 || fail "$s: bad figures"
	grep -q "^$s  *20  *100  *100 " "$tmp/table" || fail "no line for $s in the table"
	jq -e '.complete and .bound == 100 and .nodesUsed > 0' \
		"$out/$s-20-100/load.json" >/dev/null || fail "$s: load.json incomplete"
done
if command -v gnuplot >/dev/null; then
	for f in throughput.svg latency.svg cpu.svg; do
		grep -q '<svg' "$out/$f" || fail "no plot $f"
	done
fi
for f in "$out"/*/api/*.pid; do
	[ ! -e "$f" ] || fail "$f left: a server still running"
done
for p in kube-scheduler vc-scheduler vschedd vskube peers-load; do
	! pgrep -f "$out/" -a 2>/dev/null | grep -q "$p" || fail "$p still running"
done
echo "$me: ok ($(grep -c '^[kv]' "$tmp/table") schedulers)"
