#!/bin/sh
# Smoke test of the vsbench commands: small runs that must succeed, report
# that every invariant holds, and schedule something; "vsbench load" into
# real daemons (vschedd and vsctl from the same directory), in batches and
# one request at a time, which must leave every object in the daemon, and
# a load into a daemon that has the objects already, which must exit 1 with
# the daemon's message naming the object and change nothing; and bad
# options that must be refused with exit status 2 and a message.
# Usage: selftests/vsbench-smoke.sh path/to/vsbench
set -eu
vsbench=$1
objtree=$(dirname "$vsbench")
dir=$(mktemp -d /tmp/vsbench-smoke-XXXXXX)
out=$dir/out
pids=
cleanup() {
	for p in $pids; do
		kill -TERM "$p" 2>/dev/null || true
		wait "$p" 2>/dev/null || true
	done
	rm -rf "$dir"
}
trap cleanup EXIT INT TERM
fail() { echo "vsbench-smoke: FAIL: $*" >&2; cat "$out" >&2; exit 1; }

# start_daemon SOCKET: a vschedd of its own on SOCKET, checking its invariants.
start_daemon() {
	"$objtree/vschedd" --socket "$1" --period 0 --binder=auto --self-check \
		>"$1.log" 2>&1 &
	pids="$pids $!"
	i=0
	while [ ! -S "$1" ]; do
		i=$((i + 1))
		if [ "$i" -gt 200 ] || ! kill -0 "$!" 2>/dev/null; then
			cp "$1.log" "$out"
			fail "vschedd did not start"
		fi
		sleep 0.05
	done
}

# counts SOCKET: the daemon's nodes, queues, PodGroups and tasks, as "N Q P T".
counts() {
	VSCHED_SOCKET=$1 "$objtree/vsctl" stats show >"$dir/stats" 2>&1 ||
		{ cp "$dir/stats" "$out"; fail "vsctl stats show exited $?"; }
	awk '$1 == "nrNodes" { n = $2 } $1 == "nrQueues" { q = $2 }
	     $1 == "nrPodGroups" { p = $2 } $1 == "nrTasks" { t = $2 }
	     END { print n, q, p, t }' "$dir/stats"
}

"$vsbench" cluster -n 100 -j 100 -t 4 --show 2 >"$out" 2>&1 || fail "cluster exited $?"
grep -q 'every node, job and queue consistent' "$out" || fail "cluster did not check invariants"
grep -q '^vs_task  *400 ' "$out" || fail "cluster did not list 400 tasks in the pool"

"$vsbench" cycle -n 20 -j 60 -t 4 -c 2 >"$out" 2>&1 || fail "cycle exited $?"
grep -q 'invariants hold' "$out" || fail "cycle did not check invariants"
binds=$(sed -n 's/^  \([0-9][0-9]*\) tasks bound.*/\1/p' "$out")
[ -n "$binds" ] && [ "$binds" -gt 0 ] || fail "cycle bound nothing"

# Node classes: 4 zones x (tainted or not) x 2 instance types = 16 classes;
# the tainted nodes and the zones a selector excludes stay out of indexes.
"$vsbench" cycle -n 100 -j 200 -t 4 -c 1 --selectors 50 --tainted 20 >"$out" 2>&1 ||
	fail "cycle with classes exited $?"
grep -q 'invariants hold' "$out" || fail "cycle with classes did not check invariants"
line=$(grep 'kept out of indexes by their class' "$out") || fail "no node class line"
out_nodes=$(echo "$line" | sed -n 's/.*; \([0-9][0-9]*\) nodes kept out.*/\1/p')
classes=$(echo "$line" | sed -n 's/.*; \([0-9][0-9]*\) node classes$/\1/p')
[ -n "$out_nodes" ] && [ "$out_nodes" -gt 0 ] || fail "classes kept no node out"
[ "$classes" = 16 ] || fail "$classes node classes, not 16"
"$vsbench" cycle -n 100 -j 200 -t 4 -c 1 >"$out" 2>&1 || fail "cycle exited $?"
grep -q '; 0 nodes kept out of indexes by their class; 8 node classes$' "$out" ||
	fail "without selectors or taints classes kept nodes out"
# A topology: 10 leaves of 10 nodes, 3 spines, a root; the cycle's binds are the same.
"$vsbench" cycle -n 100 -j 200 -t 4 -c 1 --topology spine=3,leaf=10 >"$out.topo" 2>&1 ||
	{ cat "$out.topo" >"$out"; fail "cycle with a topology exited $?"; }
grep -q ', with 14 HyperNodes (10 leaves, 3 spines, a root; tree ready)$' "$out.topo" ||
	{ cat "$out.topo" >"$out"; fail "no HyperNode line"; }
grep -q 'invariants hold' "$out.topo" || { cat "$out.topo" >"$out"; fail "topology: invariants"; }
grep 'cycle   1:' "$out" | sed 's/ in .* ms,/,/' >"$out.a"
grep 'cycle   1:' "$out.topo" | sed 's/ in .* ms,/,/' >"$out.b"
[ -s "$out.a" ] && cmp -s "$out.a" "$out.b" || { cat "$out.a" "$out.b" >"$out"; fail "the topology changed the binds"; }
rm -f "$out.topo" "$out.a" "$out.b"
for bad in "spine=0,leaf=10:needs 1 <= spines <= leaves" "spine=4,leaf=3:needs 1 <= spines <= leaves" \
	"spine=1,leaf=101:101 leaves over 100 nodes" "leaf=3:is not spine=S,leaf=L" \
	"spine=1,leaf=-3:is not spine=S,leaf=L" "spine=1,leaf=3,x:is not spine=S,leaf=L"; do
	if "$vsbench" cycle -n 100 --topology "${bad%%:*}" >"$out" 2>&1; then
		fail "--topology ${bad%%:*} accepted"
	fi
	grep -qF -- "${bad#*:}" "$out" || fail "--topology ${bad%%:*}: no message \"${bad#*:}\""
done
# --network-topology: bad shares are refused with the share named.
for bad in 'medium|"medium": unknown networkTopology mode "medium"' \
	'hard:0|"hard:0": the tier "0" is not a number from 1 to 100' \
	'hard:1=150%|"hard:1=150%": the share "150%" is not a percent from 1 to 100' \
	'hard=60%,soft=50%|the shares add up to 110%, more than 100%' \
	'hard,soft|"hard,soft": only one share may go without =PCT%' \
	'hard=100%,soft|nothing is left for the one without' \
	'hard,,soft|an empty share' \
	'hard=1,hard=1,hard=1,hard=1,hard=1|more than 4 shares'; do
	set +e
	"$vsbench" cycle -n 10 --topology spine=1,leaf=2 --network-topology "${bad%%|*}" >"$out" 2>&1
	rc=$?
	set -e
	[ "$rc" -eq 2 ] || fail "--network-topology ${bad%%|*} exited $rc, expected 2"
	grep -qF -- "${bad#*|}" "$out" || fail "--network-topology ${bad%%|*}: no message \"${bad#*|}\""
done
for bad in "cycle -n 10 --network-topology hard:needs HyperNodes: give --topology" \
	"run --preset tiny --network-topology hard:the preset tiny has no HyperNodes" \
	"run --preset topology-tiny --mode socket:refused with the topology preset topology-tiny"; do
	set +e
	# shellcheck disable=SC2086
	"$vsbench" ${bad%%:*} >"$out" 2>&1
	rc=$?
	set -e
	[ "$rc" -eq 2 ] || fail "\"vsbench ${bad%%:*}\" exited $rc, expected 2"
	grep -qF -- "${bad#*:}" "$out" || fail "\"vsbench ${bad%%:*}\": no message \"${bad#*:}\""
done
# The configuration gets network-topology-aware, and the podgroups their share.
"$vsbench" cycle -n 100 -j 200 -t 4 -c 1 --topology spine=3,leaf=10 \
	--network-topology hard:1=30%,soft=20% >"$out" 2>&1 || fail "cycle --network-topology exited $?"
grep -q 'built-in + network-topology-aware configuration$' "$out" || fail "no network-topology-aware"
grep -q 'tree ready); 100 podgroups with a networkTopology$' "$out" ||
	fail "not 100 of 200 podgroups with a networkTopology"
grep -q 'invariants hold' "$out" || fail "cycle --network-topology: invariants"
# leaves JOBS-FILE: "JOBS SPREAD": the jobs bound and those bound across more than
# one leaf of topology-tiny (8 leaves of 25 nodes).
leaves() {
	awk '{ job = $1; sub(/-(worker|ps)-[0-9]+$/, "", job); n = $2; sub(/^node-0*/, "", n)
	       leaf = int((n + 0) / 25)
	       if (!(job in first)) first[job] = leaf; else if (first[job] != leaf) spread[job] = 1 }
	     END { c = 0; for (j in spread) c++; t = 0; for (j in first) t++; print t, c }' "$1"
}
# Every gang hard within tier 1 is bound under one leaf; without a topology they spread.
"$vsbench" run --preset topology-tiny --cycles 1 --network-topology hard:1 \
	--binds-out "$dir/hard.binds" >"$out" 2>&1 || fail "run --preset topology-tiny exited $?"
grep -q '(1000 binds in ' "$out" || fail "topology-tiny, hard:1: not every task bound"
[ "$(leaves "$dir/hard.binds")" = "28 0" ] ||
	fail "hard:1 gangs across leaves (jobs, spread): $(leaves "$dir/hard.binds")"
"$vsbench" run --preset topology-tiny --cycles 1 --network-topology none \
	--binds-out "$dir/none.binds" >"$out" 2>&1 || fail "run --network-topology none exited $?"
# shellcheck disable=SC2046
set -- $(leaves "$dir/none.binds")
[ "$1" = 28 ] && [ "$2" -gt 0 ] || fail "without a topology no gang spread over leaves ($*)"
"$vsbench" run --preset topology-tiny --cycles 1 >"$out" 2>&1 || fail "the preset exited $?"
grep -q 'invariants hold' "$out" || fail "topology-tiny: invariants"
# With network-topology-aware the fast path serves the tasks without a topology, and those
# with one in the dry runs of a leaf, exactly.
for nt in none hard:1=30%,soft=30% hard:1; do
	"$vsbench" run --preset topology-tiny --network-topology "$nt" --compare >"$out" 2>&1 ||
		fail "topology-tiny --network-topology $nt --compare exited $?"
	grep -q 'the same binds in the same order (exact)' "$out" ||
		fail "topology-tiny --network-topology $nt: the fast path is not exact"
	case $nt in
	hard:1) want='of 1000 binds from node indexes; [1-9][0-9]* placements in HyperNode dry runs' ;;
	*) want='fast path +[1-9][0-9]* of 1000 binds' ;;
	esac
	grep -Eq "$want" "$out" || fail "topology-tiny --network-topology $nt: not \"$want\""
done
if "$vsbench" run --preset topology-tiny --export-scenario "$dir/topo.yaml" >"$out" 2>&1; then
	fail "a topology preset exported without its HyperNodes"
fi
grep -q 'the cluster holds HyperNodes, which the export does not write yet' "$out" ||
	fail "no message for the export of HyperNodes"
# spread-tiny: half the PodGroups' pods keep apart by hostname (odd jobs) or spread over the
# four zones with maxSkew 1 (even jobs), job j's when (j * 53) % 100 < 50. The scan places
# them exactly as --compare's does; no two new pods of an anti-affinity job share a node and a
# spread job's new pods are within one of each other over the zones (node i is in zone i % 4),
# which the same jobs of the preset tiny, without constraints, are not.
"$vsbench" run --preset spread-tiny --compare --binds-out "$dir/spread.binds" >"$out" 2>&1 ||
	fail "spread-tiny --compare exited $?"
grep -q 'the same binds in the same order (exact)' "$out" || fail "spread-tiny: not exact"
grep -q 'invariants hold' "$out" || fail "spread-tiny: invariants"
apart() {
	awk '{ split($1, a, "/"); split(a[2], p, "-"); j = p[2] + 0
	       if ((j * 53) % 100 < 50 && j % 2 == 1 && ++c[j " " $2] > 1) bad++ }
	     END { print bad + 0 }' "$1"
}
skewed() {
	awk '{ split($1, a, "/"); split(a[2], p, "-"); j = p[2] + 0
	       if ((j * 53) % 100 < 50 && j % 2 == 0) { sub("node-", "", $2); c[j, ($2 + 0) % 4]++; jobs[j] = 1 } }
	     END { for (j in jobs) { mx = 0; mn = 1e9
		       for (z = 0; z < 4; z++) { v = c[j, z] + 0; if (v > mx) mx = v; if (v < mn) mn = v }
		       if (mx - mn > 1) bad++ }
		   print bad + 0 }' "$1"
}
[ "$(apart "$dir/spread.binds")" = 0 ] || fail "spread-tiny: an anti-affinity job's pods share a node"
[ "$(skewed "$dir/spread.binds")" = 0 ] || fail "spread-tiny: a spread job's pods skewed over zones"
"$vsbench" run --preset tiny --binds-out "$dir/tiny.binds" >"$out" 2>&1 || fail "tiny exited $?"
[ "$(apart "$dir/tiny.binds")" -gt 0 ] && [ "$(skewed "$dir/tiny.binds")" -gt 0 ] ||
	fail "the checks of spread-tiny find nothing where nothing keeps pods apart"
if "$vsbench" cycle --tainted 101 >"$out" 2>&1; then fail "--tainted 101 accepted"; fi
grep -q -- '--tainted: "101" is not a number from 0 to 100' "$out" || fail "no message for --tainted 101"

# 20 nodes, 3 queues, 40 PodGroups, 160 tasks: 223 objects, 5 batches of 50.
shape="-n 20 -q 3 -j 40 -t 4 -r 30 -s 3"
start_daemon "$dir/a.sock"
# shellcheck disable=SC2086
"$vsbench" load --socket "$dir/a.sock" --batch 50 $shape >"$out" 2>&1 || fail "load exited $?"
grep -q '^vsbench load: 223 objects .* batches of 50 (5 applied)$' "$out" ||
	fail "load did not report 223 objects in 5 batches"
[ "$(counts "$dir/a.sock")" = "20 3 40 160" ] ||
	fail "after a batched load the daemon has $(counts "$dir/a.sock") (nodes queues podgroups tasks)"

# The same objects again: the first batch is refused whole, and says which object.
set +e
# shellcheck disable=SC2086
"$vsbench" load --socket "$dir/a.sock" $shape >"$out" 2>&1
rc=$?
set -e
[ "$rc" -eq 1 ] || fail "a load of existing objects exited $rc, expected 1"
grep -q 'batch not applied: message seq [0-9]* (VS_CMD_QUEUE_NEW queue queue-0) failed: exists already' \
	"$out" || fail "a refused batch did not give the daemon's message naming queue-0"
grep -q '^vsbench load: 0 objects ' "$out" || fail "a refused batch was counted as loaded"
[ "$(counts "$dir/a.sock")" = "20 3 40 160" ] || fail "a refused batch changed the daemon"

# One acknowledged request per object, for comparison: the same objects.
start_daemon "$dir/b.sock"
# shellcheck disable=SC2086
"$vsbench" load --socket "$dir/b.sock" --batch 1 $shape >"$out" 2>&1 || fail "load -b 1 exited $?"
grep -q '^vsbench load: 223 objects .* one request each$' "$out" ||
	fail "load --batch 1 did not report 223 objects, one request each"
[ "$(counts "$dir/b.sock")" = "20 3 40 160" ] ||
	fail "after load --batch 1 the daemon has $(counts "$dir/b.sock")"

for bad in "cluster -n 0" "cluster --bogus" "cycle -c 0" "cycle --conf /nonexistent/conf" \
	   "load --batch -1" "load --batch many" "load --socket /nonexistent/sock" "nosuchcommand"; do
	set +e
	# shellcheck disable=SC2086
	"$vsbench" $bad >"$out" 2>&1
	rc=$?
	set -e
	case "$bad" in
	*nonexistent*) want=1 ;;
	*) want=2 ;;
	esac
	[ "$rc" -eq "$want" ] || fail "\"vsbench $bad\" exited $rc, expected $want"
	[ -s "$out" ] || fail "\"vsbench $bad\" said nothing"
done
echo "vsbench-smoke: 3 runs, 3 loads into daemons, 8 refusals and the topology runs as expected"
