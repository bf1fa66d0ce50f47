#!/bin/sh
# The scenarios against a running vschedd: every scenario in
# selftests/scenarios/ and every fixture in selftests/vsctl/ through
# "vsctl scenario run --socket", on a daemon started here on a temporary
# socket (cycles on request only). This is the proof that the daemon decides
# as the in-process core does: the decisions of each file (binds, evictions,
# PodGroup phases, as "-v" prints them) must be the in-process run's, line
# for line, and so must every verdict and difference. A file may be skipped
# only for what the socket cannot carry (nodeScores, pipelinedTo, a
# PodGroup without its queue, a configuration without actions, a
# HyperNode's leaves), and only
# when the file has it. Then the run's refusals: no daemon, a daemon that runs
# cycles of its own, a daemon that confirms binds itself.
# Usage: selftests/scenarios-remote.sh BUILD_DIR selftests
set -eu
build=$1
top=$2
vsctl=$build/vsctl
tmp=$(mktemp -d)
pids=
cleanup() {
	for p in $pids; do
		kill "$p" 2>/dev/null || :
		wait "$p" 2>/dev/null || :
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
fail() {
	echo "scenarios-remote: FAIL: $*" >&2
	[ ! -s "$tmp/out" ] || cat "$tmp/out" >&2
	exit 1
}

# A daemon on $tmp/NAME.sock with the options given; returns once it listens.
daemon() {
	name=$1
	shift
	"$build/vschedd" --socket "$tmp/$name.sock" --self-check "$@" 2>"$tmp/$name.log" &
	pids="$pids $!"
	i=0
	while [ ! -S "$tmp/$name.sock" ]; do
		i=$((i + 1))
		[ "$i" -le 200 ] || { cat "$tmp/$name.log" >&2; fail "vschedd $name did not start"; }
		sleep 0.05
	done
}

# Keep what both runs must agree on: a file's verdict line (a skipped file
# counts as passed) and the decisions below it ("pipelined" too, which the
# daemon tells as VS_DECISION_PIPELINE), without the summary.
# Files the daemon could not run at all (a SKIP line with no decision after
# it) are left out of both sides; $tmp/notrun lists them.
normalize() {
	awk -v notrun="$tmp/notrun" '
		BEGIN { while ((getline f < notrun) > 0) skip[f] = 1 }
		/^(PASS|FAIL|SKIP) / { file = $2; if (skip[file]) next;
			print ($1 == "SKIP" ? "PASS" : $1) " " file; next }
		/^[0-9]+ passed, / { next }
		{ if (!skip[file]) print }
	' "$1"
}

# Every SKIP of @1 must name a reason the file gives; prints the counts.
check_skips() {
	: >"$tmp/notrun"
	grep '^SKIP ' "$1" >"$tmp/skips" || :
	while read -r _ file reason; do
		case $reason in
		"(pipelinedTo needs the in-process core)")
			grep -q 'pipelinedTo:' "$file" || fail "$file skipped for pipelinedTo"
			echo "$file" >>"$tmp/notrun" ;;
		"(a podgroup whose queue is not listed needs the in-process core)")
			echo "$file" >>"$tmp/notrun" ;;
		"(a configuration without actions needs the in-process core)")
			grep -q '^actions: *\[\]' "$file" || fail "$file skipped for no actions"
			echo "$file" >>"$tmp/notrun" ;;
		"(nodeScores needs the in-process core)")
			grep -q '^  nodeScores:' "$file" || fail "$file skipped for nodeScores"
			! grep -q '^actions: *\[\]' "$file" || echo "$file" >>"$tmp/notrun" ;;
		"(hypernodes leaves need the in-process core)")
			grep -q '^    [^ ]*: {.*leaves:' "$file" || fail "$file skipped for leaves" ;;
		*)
			fail "$file skipped for an unknown reason: $reason" ;;
		esac
	done <"$tmp/skips"
}

daemon main --period 0
sock=$tmp/main.sock

# ---- the conformance suite ----
cd "$top/scenarios"
set -- ./*.yaml
[ -e "$1" ] || { echo "scenarios-remote: no scenario in $top/scenarios"; exit 0; }
"$vsctl" scenario run -v "$@" >"$tmp/local" 2>"$tmp/local.err" ||
	{ cp "$tmp/local" "$tmp/out"; fail "the in-process run failed"; }
set +e
"$vsctl" scenario run -v --socket "$sock" "$@" >"$tmp/out" 2>&1
rc=$?
set -e
[ "$rc" -eq 0 ] || fail "the run against vschedd exited $rc"
check_skips "$tmp/out"
normalize "$tmp/local" >"$tmp/local.n"
normalize "$tmp/out" >"$tmp/remote.n"
diff -u "$tmp/local.n" "$tmp/remote.n" >"$tmp/diff" ||
	{ cat "$tmp/diff" >&2; fail "vschedd decided otherwise than the in-process core"; }
nfiles=$#
nnotrun=$(wc -l <"$tmp/notrun")
ncompared=$(grep -c '^PASS ' "$tmp/remote.n" || :)
[ "$ncompared" -eq $((nfiles - nnotrun)) ] || fail "$ncompared files compared of $nfiles"
summary=$(tail -n 1 "$tmp/out")

# ---- the fixtures: the same verdicts and differences, the same refusals ----
cd "$top/vsctl"
set +e
"$vsctl" scenario run ./*.yaml >"$tmp/local" 2>&1
lrc=$?
"$vsctl" scenario run --socket "$sock" ./*.yaml >"$tmp/out" 2>&1
rc=$?
set -e
{ [ "$lrc" -eq 1 ] && [ "$rc" -eq 1 ]; } || fail "the fixtures exited $lrc in-process, $rc remotely"
check_skips "$tmp/out"
normalize "$tmp/local" >"$tmp/local.n"
normalize "$tmp/out" >"$tmp/remote.n"
diff -u "$tmp/local.n" "$tmp/remote.n" >"$tmp/diff" ||
	{ cat "$tmp/diff" >&2; fail "the fixtures differ against vschedd"; }
grep -qxF '    bindCount: expected 2, got 1' "$tmp/remote.n" ||
	fail "fail-expect.yaml: no difference"
"$vsctl" scenario run -o json --socket "$sock" pass-explicit-gang.yaml >"$tmp/out" 2>&1 ||
	fail "json exited $?"
for want in '"result": "skip"' '"skipped": "nodeScores needs' \
	'"ns/gang-0": "n2"' '"bindCount": 2' '"ns/toobig": "Inqueue"' '"pipelined": {}'; do
	grep -q "$want" "$tmp/out" || fail "json output lacks $want"
done
! grep -q '"nodeScores"' "$tmp/out" || fail "json shows what the daemon cannot"
cd "$tmp"

# ---- what the run refuses ----
# Two cycles, one bind in the first: the run confirms it between them.
cat >"$tmp/two.yaml" <<'EOF'
cycles: 2
actions: [enqueue, allocate]
plugins:
  - - {name: gang, enableJobReady: true}
  - - {name: predicates, enablePredicate: true}
queues:
  - {name: default, weight: 1}
nodes:
  - {name: n1, allocatable: {cpu: "2", memory: 4Gi, pods: "110"}}
podgroups:
  - {name: pg1, namespace: ns, queue: default, minMember: 1, phase: Inqueue}
  - {name: pg2, namespace: ns, queue: default, minMember: 1, phase: Inqueue}
pods:
  - {name: p1, namespace: ns, podgroup: pg1, request: {cpu: "1", memory: 1Gi}}
  - {name: p2, namespace: ns, podgroup: pg2, request: {cpu: "1", memory: 1Gi}}
expect:
  binds: {ns/p1: n1, ns/p2: n1}
  podgroupPhase: {ns/pg1: Running, ns/pg2: Running}
EOF
"$vsctl" scenario run --socket "$sock" two.yaml >"$tmp/out" 2>&1 || fail "two.yaml exited $?"
grep -qx 'PASS two.yaml' "$tmp/out" || fail "two.yaml did not pass"

# An eviction in the first cycle: its pod is deleted before the second, which
# binds the preemptor in the room it left.
sed -e 's/^actions: \[preempt\]/cycles: 2\nactions: [allocate, preempt]/' -e '/^expect:/,$d' \
	"$top/scenarios/preempt-other-job-one-task.yaml" >evict.yaml
cat >>evict.yaml <<'EOF'
expect:
  binds: {c1/preemptor1: n1}
  evicts: [c1/preemptee1]
  podgroupPhase: {c1/pg1: Running, c1/pg2: Inqueue}
EOF
"$vsctl" scenario run -v evict.yaml >"$tmp/local" 2>&1 ||
	{ cp "$tmp/local" "$tmp/out"; fail "evict.yaml failed in-process"; }
"$vsctl" scenario run -v --socket "$sock" evict.yaml >"$tmp/out" 2>&1 || fail "evict.yaml exited $?"
diff "$tmp/local" "$tmp/out" >/dev/null ||
	fail "evict.yaml: vschedd decided otherwise than the in-process core"

nosock=$tmp/nothing.sock
set +e
"$vsctl" scenario run --socket "$nosock" two.yaml >"$tmp/out" 2>&1
rc=$?
set -e
[ "$rc" -eq 1 ] || fail "without a daemon: exited $rc, expected 1"
grep -q "$nosock" "$tmp/out" || fail "without a daemon: the socket is not named"

# A daemon that runs cycles of its own: a cycle the run did not ask for.
sed 's/^cycles: 2/cycles: 50/' two.yaml >many.yaml
daemon periodic --period 1ms
set +e
"$vsctl" scenario run --socket "$tmp/periodic.sock" many.yaml >"$tmp/out" 2>&1
rc=$?
set -e
[ "$rc" -eq 1 ] || fail "a periodic daemon: exited $rc, expected 1"
grep -q 'which this run did not ask for' "$tmp/out" || fail "a periodic daemon: no reason"

# A daemon that confirms its binds itself leaves the run nothing to confirm.
daemon auto --period 0 --binder auto
set +e
"$vsctl" scenario run --socket "$tmp/auto.sock" two.yaml >"$tmp/out" 2>&1
rc=$?
set -e
[ "$rc" -eq 1 ] || fail "a daemon with --binder=auto: exited $rc, expected 1"
grep -q 'binder=auto' "$tmp/out" || fail "a daemon with --binder=auto: no hint"

echo "scenarios-remote: $nfiles scenarios against vschedd ($summary): the decisions of" \
	"$ncompared are the in-process ones, $nnotrun could not be sent; fixtures alike"
