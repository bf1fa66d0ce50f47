#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A VolcanoJob's life through the socket, standalone: submitted with vsctl,
# its PodGroup admitted and its tasks made by the job controller, bound by
# the daemon's own binder, Running; its tasks reported finished with
# "vsctl task status", Completed; and a failed task under a PodFailed =
# RestartJob policy restarting the job with one retry counted. Then the
# users' commands, "vsctl job abort|resume|restart|terminate|complete", each
# moving the phase as the state table of Documentation/controllers.md says
# (kernel/controllers/jobstate.c), and their errors: an unknown job (exit 1,
# the daemon's words), a usage error (exit 2, nothing sent). The node gives
# back everything at the end: nothing leaks.
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

# "PHASE RETRIES" of job $1, from "job show".
job_state() {
	"$vsctl" job show "$1" >"$dir/job" || fail "job show $1"
	echo "$(field "$dir/job" phase) $(field "$dir/job" retryCount)"
}

# Job $1 must be in "PHASE RETRIES" $2; $3 says after what.
expect_state() {
	got=$(job_state "$1")
	[ "$got" = "$2" ] || fail "$1 is \"$got\" $3, not \"$2\""
}

# The phase of job $1 as "job list -j" shows it (the jobs are the array's
# objects, indented 4; their task groups are deeper).
list_phase() {
	"$vsctl" job list -j >"$dir/jobs" || fail "job list -j"
	awk -v want="$1" '
		/^    "name": "/ { n = $2; gsub(/[",]/, "", n) }
		/^    "phase": "/ { p = $2; gsub(/[",]/, "", p); if (n == want) print p }' \
		"$dir/jobs"
}

# The tasks of job $1 (of its PodGroup, named like it), one name a line.
job_tasks() {
	"$vsctl" task list -j -n default --podgroup "$1" >"$dir/tasks" || fail "task list $1"
	sed -n 's/^    "name": "\([^"]*\)",*$/\1/p' "$dir/tasks"
}

# Run cycles until job $1 is in phase $2, at most $3 of them.
cycles_until() {
	n=0
	while [ "$(job_phase "$1")" != "$2" ]; do
		n=$((n + 1))
		[ "$n" -le "$3" ] || fail "$1 is $(job_phase "$1") after $3 cycles, not $2"
		"$vsctl" cycle run >/dev/null || fail "cycle run"
	done
}

# "vsctl ARGS..." must exit $1 and say $2 (a fixed string; "": nothing) on
# standard error.
expect_exit() {
	want=$1 msg=$2
	shift 2
	rc=0
	"$vsctl" "$@" >"$dir/out" 2>"$dir/err" || rc=$?
	[ "$rc" = "$want" ] || fail "vsctl $* exited $rc, not $want: $(cat "$dir/err")"
	if [ -z "$msg" ]; then
		[ ! -s "$dir/err" ] || fail "vsctl $* said: $(cat "$dir/err")"
	else
		grep -qF -- "$msg" "$dir/err" || fail "vsctl $* did not say \"$msg\": $(cat "$dir/err")"
	fi
}

"$objtree/vschedd" --socket "$VSCHED_SOCKET" --period 0 --self-check >"$dir/log" 2>&1 &
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

# ---- users' commands ----
# A command runs as Volcano's job controller runs a bus Command: the kill is
# at once (the tasks leave the core in the same request), and the sync after
# the next cycle settles the phase, standing in for the pod deletion events.
"$vsctl" job create cmd --task w:2:cpu=1 >/dev/null || fail "job create cmd"
cycles_until cmd Running 3

# abort: Aborting at once, its tasks gone, then Aborted.
"$vsctl" job abort cmd >/dev/null || fail "job abort cmd"
expect_state cmd "Aborting 0" "after abort"
[ -z "$(job_tasks cmd)" ] || fail "an aborted job keeps live tasks: $(job_tasks cmd)"
"$vsctl" cycle run >/dev/null
expect_state cmd "Aborted 0" "a cycle after abort"
[ "$(list_phase cmd)" = Aborted ] || fail "job list -j shows cmd $(list_phase cmd)"

# An Aborted job takes only ResumeJob: restart is accepted and changes nothing.
"$vsctl" job restart cmd >/dev/null || fail "job restart of an Aborted job"
expect_state cmd "Aborted 0" "after restart (Aborted)"

# resume: Restarting with a retry counted, then Pending, then running again.
"$vsctl" job resume cmd >/dev/null || fail "job resume cmd"
expect_state cmd "Restarting 1" "after resume"
"$vsctl" cycle run >/dev/null
expect_state cmd "Pending 1" "a cycle after resume"
cycles_until cmd Running 3
[ "$(job_tasks cmd | tr '\n' ' ')" = "cmd-w-0 cmd-w-1 " ] ||
	fail "the resumed job runs $(job_tasks cmd | tr '\n' ' ')"

# restart: every task killed, one more retry, Restarting until its tasks are back.
"$vsctl" job restart cmd >/dev/null || fail "job restart cmd"
expect_state cmd "Restarting 2" "after restart"
[ -z "$(job_tasks cmd)" ] || fail "a restarted job keeps tasks: $(job_tasks cmd)"
cycles_until cmd Pending 3
cycles_until cmd Running 3
expect_state cmd "Running 2" "back from its restart"

# terminate: Terminating, then Terminated; a finished job takes no command.
"$vsctl" job terminate cmd >/dev/null || fail "job terminate cmd"
expect_state cmd "Terminating 2" "after terminate"
"$vsctl" cycle run >/dev/null
expect_state cmd "Terminated 2" "a cycle after terminate"
for c in resume abort restart complete; do
	"$vsctl" job "$c" default/cmd >/dev/null || fail "job $c of a Terminated job"
	expect_state cmd "Terminated 2" "after $c (Terminated)"
done
"$vsctl" cycle run >/dev/null
[ "$(list_phase cmd)" = Terminated ] || fail "job list -j shows cmd $(list_phase cmd)"

# complete: Completing, then Completed, a finished task kept and counted.
"$vsctl" job add cp --task w:2:cpu=1 >/dev/null || fail "job add cp"
cycles_until cp Running 3
"$vsctl" task status cp-w-0 succeeded >/dev/null || fail "task status cp-w-0 succeeded"
"$vsctl" job complete -n default cp >/dev/null || fail "job complete cp"
expect_state cp "Completing 0" "after complete"
"$vsctl" cycle run >/dev/null
expect_state cp "Completed 0" "a cycle after complete"
[ "$(list_phase cp)" = Completed ] || fail "job list -j shows cp $(list_phase cp)"

# A Pending job (too big to be admitted) completes too: nothing of it was alive.
"$vsctl" job add big --task w:1:cpu=100 >/dev/null || fail "job add big"
"$vsctl" cycle run >/dev/null
expect_state big "Pending 0" "unadmitted"
"$vsctl" job complete big >/dev/null || fail "job complete big"
expect_state big "Completing 0" "after complete (Pending)"
"$vsctl" cycle run >/dev/null
expect_state big "Completed 0" "a cycle after complete (Pending)"

# Resumed after an abort, a job gets back the replica that had succeeded (as
# Volcano's retained pod rejoins the PodGroup made again): it counts for the
# gang, the other replica alone runs again, and the job completes.
"$vsctl" job add rsm --task w:2:cpu=1 >/dev/null || fail "job add rsm"
cycles_until rsm Running 3
"$vsctl" task status rsm-w-0 succeeded >/dev/null || fail "task status rsm-w-0 succeeded"
"$vsctl" job abort rsm >/dev/null || fail "job abort rsm"
"$vsctl" cycle run >/dev/null
expect_state rsm "Aborted 0" "a cycle after abort"
"$vsctl" job resume rsm >/dev/null || fail "job resume rsm"
cycles_until rsm Running 4
"$vsctl" task show rsm-w-0 >"$dir/task" || fail "rsm-w-0 did not come back"
[ "$(field "$dir/task" status)" = Succeeded ] || fail "rsm-w-0 came back $(field "$dir/task" status)"
"$vsctl" task show rsm-w-1 >"$dir/task" || fail "rsm-w-1 was not made again"
[ "$(field "$dir/task" status)" = Running ] || fail "rsm-w-1 is $(field "$dir/task" status)"
"$vsctl" task status rsm-w-1 succeeded >/dev/null || fail "task status rsm-w-1 succeeded"
cycles_until rsm Completed 3

# A restart that uses up maxRetry fails the job.
"$vsctl" job add mr --task w:1:cpu=1 --max-retry 1 >/dev/null || fail "job add mr"
cycles_until mr Running 3
"$vsctl" job restart mr >/dev/null || fail "job restart mr"
expect_state mr "Restarting 1" "after restart"
"$vsctl" cycle run >/dev/null
expect_state mr "Failed 1" "restarted maxRetry times"

# Errors: the daemon's (exit 1, its extended ack), usage (exit 2, nothing sent).
expect_exit 1 "vsctl: error: job default/nope not found" job abort nope
expect_exit 1 "vsctl: error: job team-a/cmd not found" job resume team-a/cmd
expect_exit 1 "vsctl: error: job team-a/cmd not found" job restart -n team-a cmd
for c in abort restart resume terminate complete; do
	expect_exit 2 "vsctl job $c: expected [NAMESPACE/]NAME" job "$c"
	expect_exit 2 "vsctl job $c: expected [NAMESPACE/]NAME" job "$c" cp big
	expect_exit 0 "" job "$c" --help
	grep -q "^usage: vsctl job $c \[--socket PATH\] \[-n NAMESPACE\] \[NAMESPACE/\]NAME" \
		"$dir/out" || fail "job $c --help: $(cat "$dir/out")"
done
# vsctl checks only that a key can be sent; the daemon finds no job by a name
# that is no DNS name.
expect_exit 2 'vsctl job terminate: "team-a/": name is empty' job terminate team-a/
expect_exit 1 "vsctl: error: job default/Bad_Name not found" job terminate Bad_Name
expect_exit 2 "unrecognized option '--cpu'" job complete --cpu 1 cp
expect_exit 1 "vsctl: error: cannot reach vschedd at $dir/none" job abort --socket "$dir/none" cp
expect_state cp "Completed 0" "after the refused commands"
expect_state big "Completed 0" "after the refused commands"

for j in cmd cp big mr rsm; do
	"$vsctl" job del "$j" >/dev/null || fail "job del $j"
done

# Deleting it gives the node everything back.
"$vsctl" job del rs >/dev/null || fail "job del rs"
"$vsctl" node show n1 >"$dir/node" || fail "node show"
grep -q '"nrTasks": 0' "$dir/node" || fail "the node still holds tasks"
echo "vjob-lifecycle: Pending, Running, Completed; a restart under its policy;" \
	"abort, resume, restart, terminate, complete and their errors; nothing left on the node"
