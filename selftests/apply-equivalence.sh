#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The same cluster two ways must be scheduled the same way. Each pair of
# selftests/equivalence/ is a scenario (NAME.scenario.yaml, run in-process by
# "vsctl scenario run -v") and the Kubernetes manifests of the same cluster
# (NAME.manifests.yaml). The manifests go to a vschedd of their own, started
# here on a temporary socket with the scenario's volcano-scheduler.conf
# (--conf), cycles on request only and the daemon as its own binder; then
# "vsctl apply -f", as many "vsctl cycle run" as the scenario has cycles, and
# "vsctl task list -A -j" and "vsctl podgroup list -A -j". Both sides are
# reduced to one line per pod (node and status), one per PodGroup (phase) and
# the number of binds and evictions, and must be equal line for line.
#
# The in-process side is what the scenario's pods become: a pod it bound is
# Running on that node (the daemon's binder confirms the bind, as the
# in-process run confirms it between cycles), a pod it evicted is gone, every
# other pod keeps the node and status the file gives it (Pending, no node;
# a pod left Pipelined is Pending again once the session closes, on both
# sides).
# So that a pair cannot pass by being wrong the same way on both sides, each
# scenario must pass its own "expect:" (which must hold "binds:"), and each
# side must have bound something.
# Usage: selftests/apply-equivalence.sh OBJTREE selftests
set -eu
objtree=$1
dir=$2/equivalence
vsctl=$objtree/vsctl
tmp=$(mktemp -d /tmp/apply-equivalence-XXXXXX)
pid=

stop_daemon() {
	if [ -n "$pid" ]; then
		kill -TERM "$pid" 2>/dev/null || :
		wait "$pid" 2>/dev/null || :
		pid=
	fi
}
cleanup() {
	stop_daemon
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
. "$dir/lib.sh"

fail() {
	echo "apply-equivalence: FAIL: $*" >&2
	[ ! -s "$tmp/out" ] || sed 's/^/    /' "$tmp/out" >&2
	exit 1
}

# A vschedd on $tmp/NAME.sock with the configuration @2; returns once it listens.
start_daemon() {
	export VSCHED_SOCKET="$tmp/$1.sock"
	"$objtree/vschedd" --socket "$VSCHED_SOCKET" --conf "$2" --period 0 --binder auto --self-check \
		>"$tmp/$1.log" 2>&1 &
	pid=$!
	i=0
	while [ ! -S "$VSCHED_SOCKET" ]; do
		i=$((i + 1))
		if [ "$i" -gt 200 ] || ! kill -0 "$pid" 2>/dev/null; then
			cp "$tmp/$1.log" "$tmp/out"
			fail "$1: vschedd did not start"
		fi
		sleep 0.05
	done
}

# The daemon's state and the counts the cycles reported.
remote_state() {
	daemon_state "$tmp/tasks.json" "$tmp/podgroups.json"
	awk '
		/^cycle [0-9]+: / { b += $3; e += $5 }
		END { print "binds " b + 0; print "evicts " e + 0 }
	' "$tmp/cycles"
}

set -- "$dir"/*.scenario.yaml
[ -e "$1" ] || fail "no scenario in $dir"
npairs=0
ntasks=0
for scn in "$@"; do
	name=$(basename "$scn" .scenario.yaml)
	man=$dir/$name.manifests.yaml
	[ -f "$man" ] || fail "$name: no $name.manifests.yaml beside $name.scenario.yaml"
	: >"$tmp/out"
	if ! grep -q '^expect:' "$scn" || ! grep -q '^  binds: *{.' "$scn"; then
		fail "$name: the scenario has no expect: with the binds it must make"
	fi
	conf_of "$scn" >"$tmp/$name.conf"
	[ -s "$tmp/$name.conf" ] || fail "$name: the scenario has no conf: | block"

	# ---- in-process ----
	"$vsctl" scenario run -v "$scn" >"$tmp/out" 2>&1 ||
		fail "$name: the scenario fails in-process"
	grep -q '^PASS ' "$tmp/out" || fail "$name: the scenario did not pass"
	local_state "$scn" "$tmp/out" | sort >"$tmp/local"

	# ---- vschedd ----
	start_daemon "$name" "$tmp/$name.conf"
	"$vsctl" apply -f "$man" >"$tmp/out" 2>&1 || fail "$name: vsctl apply -f $man"
	: >"$tmp/cycles"
	n=$(cycles_of "$scn")
	i=0
	while [ "$i" -lt "$n" ]; do
		"$vsctl" cycle run >"$tmp/out" 2>&1 || fail "$name: vsctl cycle run"
		cat "$tmp/out" >>"$tmp/cycles"
		i=$((i + 1))
	done
	"$vsctl" task list -A -j >"$tmp/tasks.json" 2>"$tmp/out" || fail "$name: vsctl task list"
	"$vsctl" podgroup list -A -j >"$tmp/podgroups.json" 2>"$tmp/out" ||
		fail "$name: vsctl podgroup list"
	stop_daemon
	remote_state | sort >"$tmp/remote"

	# ---- the same decisions, and some ----
	for side in local remote; do
		grep -q '^task ' "$tmp/$side" || fail "$name: the $side side has no pod"
		! grep -qx 'binds 0' "$tmp/$side" || fail "$name: the $side side bound nothing"
	done
	mv "$tmp/local" "$tmp/$name.in-process"
	mv "$tmp/remote" "$tmp/$name.vschedd"
	diff -u "$tmp/$name.in-process" "$tmp/$name.vschedd" >"$tmp/out" ||
		fail "$name: vschedd decided otherwise than the in-process core"
	npairs=$((npairs + 1))
	ntasks=$((ntasks + $(grep -c '^task ' "$tmp/$name.in-process")))
done
echo "apply-equivalence: $npairs clusters, $ntasks pods: vsctl apply to vschedd decides as" \
	"vsctl scenario run in-process"
