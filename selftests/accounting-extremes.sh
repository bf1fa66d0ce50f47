#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The core's sums at the edges of the quantity range, end to end: a vschedd
# under --self-check (which aborts on a sum that differs from one taken
# afresh) is given amounts of several EiB beside small ones through
# "vsctl apply", runs a cycle, loses a pod, runs another; it must still be
# up, whole (SIGUSR2) and show the exact amounts.
#  - resting PodGroups: 1000003 bytes beside 4 EiB in one queue, the 4 EiB
#    pod deleted (the resting sums were float64 and kept 1000448);
#  - a PodGroup and a queue whose total passes INT64_MAX, one pod deleted
#    (the saturated totals stayed "unlimited");
#  - a node whose used memory passes INT64_MAX (idle was not what its
#    tasks make it, then stayed wrong).
# Usage: selftests/accounting-extremes.sh OBJTREE
set -eu
objtree=$1
vsctl=$objtree/vsctl
dir=$(mktemp -d /tmp/accounting-extremes-XXXXXX)
sock=$dir/vs.sock
export VSCHED_SOCKET="$sock"
pid=

cleanup() {
	if [ -n "$pid" ]; then
		kill -TERM "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	fi
	[ -n "${KEEP:-}" ] || rm -rf "$dir"
}
trap cleanup EXIT INT TERM

fail() {
	echo "accounting-extremes: FAIL: $*" >&2
	for f in "$dir/out" "$dir/vschedd.log"; do
		[ -s "$f" ] && sed 's/^/    /' "$f" >&2
	done
	exit 1
}

start_daemon() {
	rm -f "$sock"
	: >"$dir/vschedd.log"
	"$objtree/vschedd" --socket "$sock" --period 0 --binder=auto --self-check \
		>>"$dir/vschedd.log" 2>&1 &
	pid=$!
	i=0
	while [ ! -S "$sock" ]; do
		i=$((i + 1))
		if [ "$i" -gt 200 ] || ! kill -0 "$pid" 2>/dev/null; then
			fail "vschedd did not start"
		fi
		sleep 0.05
	done
}

stop_daemon() {
	kill -TERM "$pid"
	wait "$pid" || true
	pid=
}

# ok ARGS...: vsctl ARGS must succeed, with a daemon still up after it.
ok() {
	"$vsctl" "$@" >"$dir/out" 2>&1 || fail "vsctl $* failed"
	kill -0 "$pid" 2>/dev/null || fail "vschedd died after vsctl $*"
}

# whole: the daemon's own check of the whole core passes.
whole() {
	n=$(grep -c 'the core is whole' "$dir/vschedd.log" || true)
	kill -USR2 "$pid"
	i=0
	until [ "$(grep -c 'the core is whole' "$dir/vschedd.log" || true)" -gt "$n" ]; do
		i=$((i + 1))
		[ "$i" -le 200 ] || fail "no 'the core is whole' after SIGUSR2 ($1)"
		sleep 0.05
	done
}

# shows KIND TEXT: "KIND list" has TEXT.
shows() {
	ok "$1" list
	grep -qF -- "$2" "$dir/out" || fail "$1 list does not show '$2'"
}

# pod NAME PODGROUP NODE MEMORY: a Running pod.
pod() {
	cat <<EOF
---
apiVersion: v1
kind: Pod
metadata:
  name: $1
  namespace: ns
  annotations: {scheduling.k8s.io/group-name: $2}
spec:
  nodeName: $3
  containers:
  - name: c
    resources: {requests: {memory: "$4"}}
status: {phase: Running}
EOF
}

podgroup() {
	cat <<EOF
---
apiVersion: scheduling.volcano.sh/v1beta1
kind: PodGroup
metadata: {name: $1, namespace: ns}
spec: {minMember: 1, queue: q1}
status: {phase: Running}
EOF
}

cluster() {
	cat <<EOF
apiVersion: scheduling.volcano.sh/v1beta1
kind: Queue
metadata: {name: q1}
spec: {weight: 1}
EOF
	for n; do
		cat <<EOF
---
apiVersion: v1
kind: Node
metadata: {name: $n}
status:
  allocatable: {cpu: "8", memory: 7Ei, pods: "110"}
EOF
	done
}

# Resting PodGroups: the issue's case.
{
	cluster n1
	podgroup small
	podgroup huge
	pod small-0 small n1 1000003
	pod huge-0 huge n1 4Ei
} >"$dir/resting.yaml"
start_daemon
ok apply -f "$dir/resting.yaml"
ok cycle run
ok task del ns/huge-0
ok cycle run
whole "resting podgroups"
shows queue "1000003/0"
stop_daemon

# A PodGroup and its queue past INT64_MAX, on two nodes.
{
	cluster n1 n2
	podgroup big
	pod big-0 big n1 5Ei
	pod big-1 big n2 5Ei
} >"$dir/total.yaml"
start_daemon
ok apply -f "$dir/total.yaml"
shows queue "unlimited/0"
ok cycle run
ok task del ns/big-1
ok cycle run
whole "podgroup and queue totals"
shows queue "5Ei/0"
stop_daemon

# A node whose used memory passes INT64_MAX.
sed 's/nodeName: n2/nodeName: n1/' "$dir/total.yaml" >"$dir/node.yaml"
start_daemon
ok apply -f "$dir/node.yaml"
whole "a node past INT64_MAX"
ok cycle run
ok task del ns/big-1
ok cycle run
whole "the node after a pod left"
shows node "2Ei/7Ei"
stop_daemon

echo "accounting-extremes: ok"
