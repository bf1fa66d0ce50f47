#!/bin/sh
# volcano-oracle -time-session and -percentage-nodes-to-find: a timed run
# reports one entry per cycle of the file (open, each action, close, their
# total, binds) and decides what the untimed run decides; on 1000 nodes
# where only the last is empty, searching every node (100) places the pod
# there, as vsched does, where vc-scheduler's default search does not reach
# it; a session that commits more binds than Volcano's bind channel holds
# ends; runs that differ go on to ten times as many; bad values exit 2 with a
# message.
# Usage: selftests/oracle-session.sh ORACLE VSCTL
set -eu
oracle=$1
vsctl=$2
dir=$(mktemp -d /tmp/oracle-session-XXXXXX)
trap 'rm -rf "$dir"' EXIT INT TERM
fail() { echo "oracle-session: FAIL: $*" >&2; exit 1; }

# The head of these files: enqueue and allocate with the plugins given, in one
# tier, and the queue q1.
conf_and_queue() {
	echo 'conf: |'
	echo '  actions: "enqueue, allocate"'
	echo '  tiers:'
	echo '  - plugins:'
	for p in "$@"; do
		echo "    - name: $p"
	done
	echo 'queues:'
	echo '  - {name: q1}'
}

# 1000 nodes of 4 cpus, each but the last running a pod of 1; one pod to place.
f=$dir/wide.yaml
{
	echo 'cycles: 2'
	conf_and_queue gang predicates proportion nodeorder
	echo 'nodes:'
	awk 'BEGIN { for (i = 1; i <= 1000; i++)
		printf "  - {name: n%04d, allocatable: {cpu: \"4\", memory: 8Gi, pods: \"110\"}}\n", i }'
	echo 'podgroups:'
	echo '  - {name: busy, namespace: ns, queue: q1, minMember: 1, phase: Running}'
	echo '  - {name: pg, namespace: ns, queue: q1, minMember: 1, phase: Inqueue}'
	echo 'pods:'
	awk 'BEGIN { for (i = 1; i < 1000; i++)
		printf "  - {name: b%04d, namespace: ns, podgroup: busy, request: {cpu: \"1\", memory: 1Gi}, phase: Running, node: n%04d}\n", i, i }'
	echo '  - {name: p, namespace: ns, podgroup: pg, request: {cpu: "1", memory: 1Gi}}'
} >"$f"

"$vsctl" scenario run -o json "$f" >"$dir/v.json" || fail "vsctl scenario run exited $?"
[ "$(jq -r '.[0].binds["ns/p"]' "$dir/v.json")" = n1000 ] || fail "vsched did not place p on n1000"

"$oracle" -time-session -percentage-nodes-to-find 100 "$f" >"$dir/o.json" 2>"$dir/o.err" ||
	fail "the oracle exited $?: $(cat "$dir/o.err")"
[ "$(jq -r '.[0].binds["ns/p"]' "$dir/o.json")" = n1000 ] ||
	fail "searching every node, Volcano placed p on $(jq -r '.[0].binds["ns/p"]' "$dir/o.json")"
[ "$(jq '.[0].session.cycles | length' "$dir/o.json")" = 2 ] || fail "not one timing per cycle"
jq -e '.[0].session | .gcPercent > 0 and .buildMs >= 0 and .maxRssBytes > 0' "$dir/o.json" \
	>/dev/null || fail "session: gcPercent, buildMs or maxRssBytes missing"
jq -e '.[0].session.cycles | map(.binds) == [1, 0]' "$dir/o.json" >/dev/null ||
	fail "the cycles' binds are not 1 then 0"
# each total is the sum of its parts, to the printed 0.001 ms
jq -e '.[0].session.cycles | all(.openMs + .closeMs + (.actionsMs | add) - .totalMs | fabs < 0.01)' \
	"$dir/o.json" >/dev/null || fail "a cycle's total is not open + actions + close"
jq -e '.[0].session.cycles | all(.actionsMs | keys == ["allocate", "enqueue"])' "$dir/o.json" \
	>/dev/null || fail "the actions timed are not the file's"
# vc-scheduler's default searches 420 of the 1000 nodes, from the first
"$oracle" -runs 1 "$f" >"$dir/d.json" 2>/dev/null || fail "the oracle at its default exited $?"
[ "$(jq -r '.[0].binds["ns/p"]' "$dir/d.json")" != n1000 ] ||
	fail "at its default search Volcano reached n1000: -percentage-nodes-to-find tests nothing"
"$oracle" -runs 1 -percentage-nodes-to-find 100 "$f" >"$dir/u.json" 2>/dev/null ||
	fail "the untimed oracle exited $?"
jq -e --slurpfile u "$dir/u.json" '.[0] | del(.session) == $u[0][0]' "$dir/o.json" >/dev/null ||
	fail "the timed run decided otherwise than the untimed one"

# More binds in one session than the cache's BindFlowChannel holds (5,000): 51 gangs of 100
# on 6 nodes. vc-scheduler drains the channel while it schedules; so must the oracle, or it
# waits forever in the Statement's commit.
g=$dir/many.yaml
{
	conf_and_queue gang predicates proportion
	echo 'nodes:'
	awk 'BEGIN { for (i = 1; i <= 6; i++)
		printf "  - {name: n%d, allocatable: {cpu: \"1000\", memory: 1000Gi, pods: \"1000\"}}\n", i }'
	echo 'podgroups:'
	awk 'BEGIN { for (g = 1; g <= 51; g++)
		printf "  - {name: g%02d, namespace: ns, queue: q1, minMember: 100, phase: Inqueue}\n", g }'
	echo 'pods:'
	awk 'BEGIN { for (g = 1; g <= 51; g++) for (i = 1; i <= 100; i++)
		printf "  - {name: g%02d-%03d, namespace: ns, podgroup: g%02d, request: {cpu: 100m, memory: 1Gi}}\n", g, i, g }'
} >"$g"
timeout 120 "$oracle" -runs 1 "$g" >"$dir/many.json" 2>"$dir/many.err" ||
	fail "5,100 binds in one session: the oracle exited $? (124: it hung): $(tail -n 3 "$dir/many.err")"
[ "$(jq '.[0].binds | length' "$dir/many.json")" = 5100 ] ||
	fail "5,100 binds in one session: the oracle bound $(jq '.[0].binds | length' "$dir/many.json")"

# Three equal victims, any two of which reclaim may take: Volcano's choice
# follows a small map's order, one pair in about 11 runs of 100. Where 20 runs
# differ, the oracle goes on to 200, so that so rare an outcome is seen.
v=$(dirname "$0")/scenarios/capacity-reclaim-stops-at-guarantee.yaml
"$oracle" -runs 20 "$v" >"$dir/varied.json" 2>"$dir/varied.err" ||
	fail "$v: the oracle exited $?: $(tail -n 3 "$dir/varied.err")"
[ "$(jq '.[0].runs' "$dir/varied.json")" = 200 ] ||
	fail "$v: differing outcomes in 20 runs, but $(jq '.[0].runs' "$dir/varied.json") runs in all, not 200"
[ "$(jq '.[0].outcomes' "$dir/varied.json")" = 3 ] ||
	fail "$v: $(jq '.[0].outcomes' "$dir/varied.json") outcomes in 200 runs, not the 3 pairs"

bad() {
	rc=0
	"$oracle" "$@" "$f" >"$dir/err" 2>&1 || rc=$?
	[ "$rc" = 2 ] || fail "volcano-oracle $* exited $rc, not 2"
	grep -q -- "$want" "$dir/err" || { cat "$dir/err" >&2; fail "volcano-oracle $*: no \"$want\""; }
}
want='-time-session times one run: -runs 3 is refused'
bad -time-session -runs 3
want='-percentage-nodes-to-find: 101 is not a percentage from 0 to 100'
bad -percentage-nodes-to-find 101
want='-percentage-nodes-to-find: -1 is not a percentage'
bad -percentage-nodes-to-find -1
echo "oracle-session: ok"
