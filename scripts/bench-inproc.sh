#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
#
# Volcano in process beside vsched, on the same clusters, in one run
# (Documentation/benchmarks.md, "Volcano in process"). For each preset:
#   1. vsbench run --preset P --compare --json --export-scenario: vsched's
#      fast path and exhaustive scan on the preset's cluster (vsbench's own
#      timings), the cluster written as a scenario file, the fast path's
#      binds listed (--binds-out);
#   2. vsctl scenario run -o json on that file: vsched on the file must bind
#      what vsbench bound (else the file is not the cluster: exit 1);
#   3. the oracle, Volcano v1.10.0's scheduler in process, -time-session on
#      the file: as vc-scheduler runs by default (a share of the nodes
#      searched, from where the last search stopped), and, for the presets in
#      ALL_NODES, again with -percentage-nodes-to-find 100 (every node
#      searched, as vsched does).
# Each process runs under /usr/bin/time -v, for its peak resident set.
# Prints, per preset and scheduler: the scheduling time summed over the
# cycles vsbench ran (vsbench stops after the first cycle that places
# nothing), Volcano's over as many of its cycles, the ratio to vsched's fast
# path and exhaustive scan, the binds, how many of them are the same task
# on the same node as vsched's, and the peak RSS.
#
# Usage: scripts/bench-inproc.sh [PRESET...]     (default: tiny; Volcano on 1k takes over 28 min)
#   VSBENCH, VSCTL, ORACLE   the programs (default: the in-tree build and
#                            go/bin/volcano-oracle)
#   ALL_NODES="tiny"         presets also run with every node searched
#   OUT=DIR                  keep the files there (default: a temporary
#                            directory, removed)
# Exit status 1 when a step fails or the file does not reproduce vsbench's
# binds, 2 on a usage error.
set -u
export LC_ALL=C

srctree=$(cd "$(dirname "$0")/.." && pwd)
VSBENCH=${VSBENCH:-$srctree/vsbench}
VSCTL=${VSCTL:-$srctree/vsctl}
ORACLE=${ORACLE:-$srctree/go/bin/volcano-oracle}
ALL_NODES=${ALL_NODES-tiny}

case "${1:-}" in
-h|--help)
	sed -n '/^# Usage/,/^set -u/p' "$0" | grep '^#' | sed 's/^# \{0,1\}//'
	exit 0
	;;
-*)
	echo "bench-inproc: unknown option \"$1\" (--help)" >&2
	exit 2
	;;
esac
for p in VSBENCH VSCTL ORACLE; do
	eval "prog=\$$p"
	[ -x "$prog" ] || { echo "bench-inproc: $p: $prog is not an executable" >&2; exit 2; }
done
for t in jq /usr/bin/time; do
	command -v "$t" >/dev/null || { echo "bench-inproc: $t is needed" >&2; exit 2; }
done
[ $# -gt 0 ] || set -- tiny

if [ -n "${OUT:-}" ]; then
	dir=$OUT
	mkdir -p "$dir" || exit 2
else
	dir=$(mktemp -d /tmp/bench-inproc-XXXXXX) || exit 2
	trap 'rm -rf "$dir"' EXIT INT TERM
fi
fail() { echo "bench-inproc: $*" >&2; exit 1; }

# The peak resident set /usr/bin/time -v wrote to $1, in MiB.
rss() { awk -F': ' '/Maximum resident set size/ { printf "%.0f", $2 / 1024 }' "$1"; }

# The oracle's -time-session JSON $1: the scheduling time of its first $2
# cycles (ms), its binds as "NS/NAME NODE" lines, sorted, into $3.
oracle_ms() { jq --argjson n "$2" '[.[0].session.cycles[:$n][].totalMs] | add * 10 | round / 10' "$1"; }
oracle_binds() { jq -r '.[0].binds | to_entries[] | "\(.key) \(.value)"' "$1" | sort >"$2"; }

# Lines of $1 that are in $2 too: the binds that are the same task on the same node.
same() { comm -12 "$1" "$2" | wc -l | tr -d ' '; }
# Tasks bound in both, on whichever node.
same_tasks() { join -o 1.1 "$1" "$2" | wc -l | tr -d ' '; }

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", a / b }'; }
row() { printf '%-6s %-28s %12s %9s %9s %8s %10s %8s\n' "$@"; }

echo "bench-inproc: $(uname -m), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg) at start;" \
	"Go GC on, GOGC=${GOGC:-default (100)}"
row PRESET SCHEDULER SCHED-MS "/FAST" "/EXHAUST" BINDS SAME-NODE RSS-MiB
for p in "$@"; do
	f=$dir/$p.yaml
	/usr/bin/time -v -o "$dir/$p.vsbench.time" "$VSBENCH" run --preset "$p" --compare --json \
		--export-scenario "$f" --binds-out "$dir/$p.binds" >"$dir/$p.vsbench.json" || {
		rc=$?
		# vsbench said what: an unknown preset is a usage error here too
		[ "$rc" = 2 ] && exit 2
		fail "$p: vsbench run exited $rc"
	}
	sort "$dir/$p.binds" >"$dir/$p.vsched"
	vs=$dir/$p.vsbench.json
	cycles=$(jq .cycles_run "$vs")
	fast=$(jq '.sched_ms * 10 | round / 10' "$vs")
	exh=$(jq '.exhaustive_sched_ms * 10 | round / 10' "$vs")
	binds=$(jq .binds "$vs")
	[ "$(jq .exact "$vs")" = true ] || fail "$p: the fast path is not exact"

	"$VSCTL" scenario run -o json "$f" >"$dir/$p.vsctl.json" || fail "$p: vsctl exited $?"
	oracle_binds "$dir/$p.vsctl.json" "$dir/$p.vsctl"
	cmp -s "$dir/$p.vsched" "$dir/$p.vsctl" ||
		fail "$p: vsctl scenario run of the exported file binds otherwise than vsbench"

	rss_vs=$(rss "$dir/$p.vsbench.time")
	row "$p" "vsched fast path" "$fast" 1.0 "$(ratio "$fast" "$exh")" "$binds" "$binds" \
		"$(jq '.peak_rss_bytes / 1048576 | round' "$vs")"
	row "$p" "vsched exhaustive" "$exh" "$(ratio "$exh" "$fast")" 1.0 "$binds" "$binds" \
		"$rss_vs"

	modes=default
	case " $ALL_NODES " in *" $p "*) modes="default all" ;; esac
	for m in $modes; do
		o=$dir/$p.oracle-$m
		if [ "$m" = all ]; then
			search=100
			name="Volcano, every node"
		else
			search=0
			name="Volcano, default search"
		fi
		(cd "$dir" && /usr/bin/time -v -o "$o.time" "$ORACLE" -time-session \
			-percentage-nodes-to-find "$search" "$f" \
			>"$o.json" 2>"$o.err") || fail "$p: the oracle exited $? (see $o.err)"
		[ "$(jq -r '.[0].result' "$o.json")" = ran ] || fail "$p: the oracle: $(jq -r '.[0].error' "$o.json")"
		ms=$(oracle_ms "$o.json" "$cycles")
		oracle_binds "$o.json" "$o.binds"
		row "$p" "$name" "$ms" "$(ratio "$ms" "$fast")" "$(ratio "$ms" "$exh")" \
			"$(wc -l <"$o.binds" | tr -d ' ')" "$(same "$o.binds" "$dir/$p.vsched")" \
			"$(rss "$o.time")"
		echo "       (tasks bound by both: $(same_tasks "$o.binds" "$dir/$p.vsched");" \
			"Volcano's cycles ms: $(jq -c '[.[0].session.cycles[].totalMs]' "$o.json");" \
			"GCs: $(jq -c '[.[0].session.cycles[].gcs]' "$o.json"))"
	done
done
echo "SCHED-MS: scheduling time, the sum over the cycles vsbench ran (the last placed nothing);"
echo "/FAST, /EXHAUST: over vsched's fast path, exhaustive scan; SAME-NODE: binds that are"
echo "vsched's (task and node); RSS: the process's peak (vsbench: the fast path's own figure;"
echo "its exhaustive row: the whole process, both clusters)."
echo "load $(cut -d' ' -f1-3 /proc/loadavg) at the end"
