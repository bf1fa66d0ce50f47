#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A VolcanoJob's life through the socket, standalone: submitted with vsctl,
# its PodGroup admitted and its tasks made by the job controller, bound by
# the daemon's own binder, Running; its tasks reported finished with
# "vsctl task status", Completed; and a failed task under a PodFailed =
# RestartJob policy restarting the job with one retry counted. The node
# gives back everything at the end: nothing leaks.
# Usage: selftests/vjob-lifecycle.sh OBJTREE
set -eu
objtree=$1
vsctl=$objtree/vsctl
dir=$(mktemp -d /tmp/vjob-lifecycle-XXXXXX)
export VSCHED_SOCKET="$dir/vs.sock"
pid=

cleanup() {
	if [ -n "$pid" ]; then
		kill -TERM "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	fi
	rm -rf "$dir"
}
trap cleanup EXIT INT TERM

fail() {
	echo "vjob-lifecycle: FAIL: $*" >&2
	sed 's/^/    /' "$dir/log" >&2 2>/dev/null || true
	exit 1
}

# The value of "KEY": in vsctl's JSON for one object.
field() {
	sed -n "s/^  \"$2\": \"*\([^\",]*\)\"*,*$/\1/p" "$1" | head -n 1
}

job_phase() {
	"$vsctl" job show "$1" >"$dir/job" || fail "job show $1"
	field "$dir/job" phase
}

"$objtree/vschedd" --socket "$VSCHED_SOCKET" --period 0 >"$dir/log" 2>&1 &
pid=$!
i=0
while [ ! -S "$VSCHED_SOCKET" ]; do
	i=$((i + 1))
	[ "$i" -le 100 ] && kill -0 "$pid" 2>/dev/null || fail "vschedd did not start"
	sleep 0.05
done

"$vsctl" queue add default >/dev/null || fail "queue add"
"$vsctl" node add n1 --cpu 8 --memory 16Gi >/dev/null || fail "node add"
"$vsctl" job add tf --task ps:1:cpu=1 --task worker:2:cpu=1 >/dev/null || fail "job add"
[ "$(job_phase tf)" = Pending ] || fail "a new job is not Pending"

# Cycle 1 admits its PodGroup, the controller makes the tasks; cycle 2 binds them.
"$vsctl" cycle run >/dev/null
"$vsctl" cycle run >/dev/null
for t in tf-ps-0 tf-worker-0 tf-worker-1; do
	"$vsctl" task show "$t" >"$dir/task" || fail "task $t was not made"
	[ "$(field "$dir/task" status)" = Running ] || fail "task $t is not Running"
done
[ "$(job_phase tf)" = Running ] || fail "the job is not Running"

for t in tf-ps-0 tf-worker-0 tf-worker-1; do
	"$vsctl" task status "$t" succeeded >/dev/null || fail "task status $t succeeded"
done
"$vsctl" cycle run >/dev/null
[ "$(job_phase tf)" = Completed ] || fail "the job is not Completed"

# A failure under PodFailed=RestartJob: the job restarts, one retry counted, and runs again.
"$vsctl" job add rs --task w:2:cpu=1 --policy PodFailed=RestartJob >/dev/null || fail "job add rs"
"$vsctl" cycle run >/dev/null
"$vsctl" cycle run >/dev/null
[ "$(job_phase rs)" = Running ] || fail "rs is not Running"
"$vsctl" task status rs-w-0 failed --exit-code 1 >/dev/null || fail "task status failed"
[ "$(job_phase rs)" = Restarting ] || fail "rs is $(job_phase rs), not Restarting"
[ "$(field "$dir/job" retryCount)" = 1 ] || fail "no retry was counted"
for _ in 1 2 3 4; do
	"$vsctl" cycle run >/dev/null
done
[ "$(job_phase rs)" = Running ] || fail "rs is $(job_phase rs) after its restart, not Running"

# Deleting it gives the node everything back.
"$vsctl" job del rs >/dev/null || fail "job del rs"
"$vsctl" node show n1 >"$dir/node" || fail "node show"
grep -q '"nrTasks": 0' "$dir/node" || fail "the node still holds tasks"
echo "vjob-lifecycle: Pending, Running, Completed; a restart under its policy; nothing left on the node"
