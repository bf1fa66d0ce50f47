#!/bin/sh
# "vsbench sim": the sim-tiny preset's JSON holds every promised field with
# values that agree with each other, and the same seed makes the same
# decisions; three traces in selftests/vsbench/ replay with outcomes worked
# out by hand in their comments (waiting for earlier jobs, an eviction and
# its grace period, the deserved shares of weighted queues); bad traces and
# options are refused with status 2 and a message naming the line and
# column or the option, and nothing runs.
# Usage: selftests/vsbench-sim.sh path/to/vsbench path/to/selftests/vsbench
set -eu
vsbench=$1
data=$2
dir=$(mktemp -d /tmp/vsbench-sim-XXXXXX)
out=$dir/out
out2=$dir/out2
trap 'rm -rf "$dir"' EXIT INT TERM
fail() { echo "vsbench-sim: FAIL: $*" >&2; cat "$out" >&2; exit 1; }
# The value of a jq path in $out (or in $2).
get() { jq -r "$1" "${2:-$out}"; }
holds() { awk -v a="$1" -v b="$3" "BEGIN { exit !(a + 0 $2 b + 0) }"; }
# "is PATH VALUE": the field, exactly.
is() { [ "$(get "$1")" = "$2" ] || fail "$1 is $(get "$1"), not $2"; }

# ---- the tiny preset ----
"$vsbench" sim --preset sim-tiny --json >"$out" 2>&1 || fail "sim --preset sim-tiny exited $?"
jq -e . "$out" >/dev/null || fail "not JSON"
for f in preset seed period_ms nodes queues virtual_s cycles tasks_at_start running_at_start \
	jobs_arrived tasks_arrived binds tasks_finished podgroups_completed pending_at_end \
	running_at_end evictions evictions_completed utilisation time_to_schedule_s per_queue \
	cycle_ms cycles_over_100ms decisions_hash; do
	jq -e "has(\"$f\")" "$out" >/dev/null || fail "no field \"$f\""
done
is .preset sim-tiny
is .seed 1
is .period_ms 1000
is .nodes 200
is .queues 4
is .cycles 30
is .virtual_s 30
is .tasks_at_start 4000
holds "$(get .jobs_arrived)" '>' 0 || fail "no job arrived"
holds "$(get .binds)" '>' 0 || fail "nothing bound"
holds "$(get .tasks_finished)" '>' 0 || fail "nothing finished"
holds "$(get .podgroups_completed)" '>' 0 || fail "no podgroup completed"
# Every task that ever existed is pending, running or finished (no evictions here).
total=$(($(get .tasks_at_start) + $(get .tasks_arrived)))
[ "$total" -eq $(($(get .pending_at_end) + $(get .running_at_end) + $(get .tasks_finished))) ] ||
	fail "tasks at start and arrived ($total) are not pending + running + finished"
# Every bind is a task that was pending at start or arrived.
[ "$(get .binds)" -eq $(($(get .tasks_at_start) - $(get .running_at_start) + \
	$(get .tasks_arrived) - $(get .pending_at_end))) ] || fail "binds do not add up"
[ "$(get .binds)" = "$(get .time_to_schedule_s.samples)" ] || fail "one time to schedule per bind"
for u in cpu_mean memory_mean cpu_end memory_end; do
	holds "$(get .utilisation.$u)" '>' 0 || fail "utilisation.$u not positive"
	holds "$(get .utilisation.$u)" '<=' 1 || fail "utilisation.$u above 1"
done
p50=$(get .time_to_schedule_s.p50)
holds "$p50" '<=' "$(get .time_to_schedule_s.p90)" || fail "time to schedule p50 > p90"
holds "$(get .time_to_schedule_s.p99)" '<=' "$(get .time_to_schedule_s.max)" || fail "p99 > max"
holds "$(get .cycle_ms.p50)" '>' 0 || fail "cycle_ms.p50 not positive"
holds "$(get .cycle_ms.p50)" '<=' "$(get .cycle_ms.max)" || fail "cycle_ms p50 > max"
[ "$(get '.per_queue | length')" = 4 ] || fail "not 4 queues"
[ "$(get '[.per_queue[].weight] | join(",")')" = "1,2,3,4" ] || fail "queue weights"
[ "$(get '[.per_queue[] | select(.deserved_cpu > 0)] | length')" = 4 ] ||
	fail "a queue without a deserved share"

# The same seed: the same decisions; another seed: others.
"$vsbench" sim --preset sim-tiny --seed 1 --json >"$out2" 2>&1 || fail "sim --seed 1 exited $?"
for f in .jobs_arrived .tasks_arrived .binds .tasks_finished .podgroups_completed .pending_at_end \
	.running_at_end .utilisation .time_to_schedule_s .per_queue .decisions_hash; do
	[ "$(jq -c "$f" "$out")" = "$(jq -c "$f" "$out2")" ] ||
		fail "seed 1 twice: $f $(jq -c "$f" "$out") then $(jq -c "$f" "$out2")"
done
"$vsbench" sim --preset sim-tiny --seed 2 --duration 5 --period 500 --json >"$out2" 2>&1 ||
	fail "sim --seed 2 exited $?"
[ "$(get .decisions_hash "$out2")" != "$(get .decisions_hash)" ] || fail "seed 2 decided as seed 1"
[ "$(get .cycles "$out2")" = 10 ] || fail "5 s in periods of 500 ms is not 10 cycles"
"$vsbench" sim --preset sim-tiny --duration 3 >"$out" 2>&1 || fail "the table exited $?"
grep -q 'time to schedule s' "$out" || fail "the table has no time to schedule"
grep -q '^queue-3 ' "$out" || fail "the table has no queue-3"

# ---- traces, with the outcomes their comments work out ----
two="--nodes 2 --node-size 4,8Gi"
"$vsbench" sim --trace "$data/sim-wait.csv" $two --json >"$out" 2>&1 || fail "sim-wait exited $?"
is .cycles 21
is .virtual_s 21
is .jobs_arrived 3
is .binds 5
is .tasks_finished 5
is .podgroups_completed 3
is .pending_at_end 0
is .running_at_end 0
jq -c .time_to_schedule_s "$out" >"$out2"
[ "$(cat "$out2")" = '{"samples":5,"p50":10.5,"p90":14,"p99":14,"max":14}' ] ||
	fail "sim-wait: time to schedule $(cat "$out2")"
# 8 cpu held for 14 of the 21 cycles, 4 for 6: 136 / 168
is .utilisation.cpu_mean 0.809524
is .utilisation.cpu_end 0
is .evictions 0

"$vsbench" sim --trace "$data/sim-evict.csv" $two --conf "$data/sim-preempt.conf" --grace 5 \
	--json >"$out" 2>&1 || fail "sim-evict exited $?"
is .cycles 120
is .binds 4
is .evictions 1
is .evictions_completed 1
is .tasks_finished 3
is .podgroups_completed 2
[ "$(jq -c '.time_to_schedule_s | [.samples, .p50, .max]' "$out")" = '[4,0,11]' ] ||
	fail "sim-evict: time to schedule $(jq -c .time_to_schedule_s "$out")"
# Without preempt, high waits for low to finish: no eviction.
"$vsbench" sim --trace "$data/sim-evict.csv" $two --json >"$out" 2>&1 || fail "no preempt: $?"
is .evictions 0
is .time_to_schedule_s.max 99

"$vsbench" sim --trace "$data/sim-fair.csv" $two --duration 10 --json >"$out" 2>&1 ||
	fail "sim-fair exited $?"
is .cycles 10
is .binds 8
is .pending_at_end 8
[ "$(jq -c '[.per_queue[] | [.name, .weight, .deserved_cpu, .allocated_cpu, .ratio_cpu]]' \
	"$out")" = '[["q1",1,0.25,0.25,1],["q3",3,0.75,0.75,1]]' ] ||
	fail "sim-fair: queues $(jq -c .per_queue "$out")"
# memory: q1 asks 8 of 16 Gi and q3 8 too: water-filling gives each its request
[ "$(jq -c '[.per_queue[].deserved_memory]' "$out")" = '[0.5,0.5]' ] ||
	fail "sim-fair: deserved memory $(jq -c '[.per_queue[].deserved_memory]' "$out")"

# ---- refusals: status 2, the message, nothing run ----
# "refused WHAT MESSAGE ARGS...": exit 2, MESSAGE on stderr, nothing on stdout.
refused() {
	what=$1 msg=$2
	shift 2
	set +e
	"$vsbench" sim "$@" >"$out" 2>"$out2"
	rc=$?
	set -e
	[ "$rc" = 2 ] || fail "$what: exit status $rc, not 2"
	grep -qF -- "$msg" "$out2" || { cat "$out2" >&2; fail "$what: no \"$msg\""; }
	[ ! -s "$out" ] || fail "$what: something ran"
}
# "bad_trace MESSAGE LINES...": the trace of LINES is refused with MESSAGE.
bad_trace() {
	msg=$1
	shift
	printf '%s\n' "$@" >"$dir/bad.csv"
	refused "trace $*" "vsbench sim: $dir/bad.csv:$msg" --trace "$dir/bad.csv" $two
}
h=submit_s,name,tasks,cpu,memory,duration_s
bad_trace '2: column cpu: invalid quantity "lots"' $h 0,a,1,lots,1Gi,5
bad_trace '2: column cpu: "0" is zero' $h 0,a,1,0,1Gi,5
bad_trace '3: column memory: invalid quantity "-1Gi"' $h 0,a,1,1,1Gi,5 1,b,1,1,-1Gi,5
bad_trace '2: column submit_s: "-1" is not a number of seconds >= 0' $h -1,a,1,1,1Gi,5
bad_trace '2: column duration_s: "0" is not a number of seconds > 0' $h 0,a,1,1,1Gi,0
bad_trace '2: column tasks: "0" is not a whole number from 1 to 100000' $h 0,a,0,1,1Gi,5
bad_trace '2: column name: invalid name "A_b"' $h 0,A_b,1,1,1Gi,5
bad_trace '3: column name: job default/a is on line 2 already' $h 0,a,1,1,1Gi,5 1,a,1,1,1Gi,5
bad_trace '2: column duration_s: missing' $h 0,a,1,1,1Gi
bad_trace '2: more fields than the header' $h 0,a,1,1,1Gi,5,9
bad_trace '1: column colour: not a column of a trace' $h,colour 0,a,1,1,1Gi,5,red
bad_trace '1: column duration_s: missing from the header' submit_s,name,tasks,cpu,memory
bad_trace '1: column cpu: named twice in the header' $h,cpu 0,a,1,1,1Gi,5,1
bad_trace '2: column min_member: "3" is not a whole number from 1 to 2' \
	submit_s,name,tasks,min_member,cpu,memory,duration_s 0,a,2,3,1,1Gi,5
bad_trace '2: column priority: "high" is not a whole number' $h,priority 0,a,1,1,1Gi,5,high
bad_trace '3: column queue_weight: queue q has weight 2 on line 2, not 3' \
	$h,queue,queue_weight 0,a,1,1,1Gi,5,q,2 0,b,1,1,1Gi,5,q,3
refused "no trace file" "vsbench sim: $dir/none.csv: No such file" --trace "$dir/none.csv"
refused "no source" "one of --preset" --json
refused "both sources" "one of --preset" --preset sim-tiny --trace "$data/sim-wait.csv"
refused "unknown preset" '--preset: unknown preset "huge"' --preset huge
refused "--nodes with a preset" "--nodes is for --trace" --preset sim-tiny --nodes 3
refused "bad --period" '--period: "0" is not a number' --preset sim-tiny --period 0
refused "bad --duration" '--duration: "soon" is not a number of seconds' --preset sim-tiny \
	--duration soon
refused "bad --node-size" '--node-size: "4" is not CPU,MEMORY' --trace "$data/sim-wait.csv" \
	--node-size 4
refused "bad --seed" '--seed: "x"' --preset sim-tiny --seed x
refused "stray argument" 'unexpected argument "extra"' --preset sim-tiny extra
"$vsbench" sim --help | grep -q steady-50k || fail "--help lists no steady-50k"
"$vsbench" --help | grep -q '^  sim ' || fail "vsbench --help lists no sim"
echo "vsbench-sim: ok"
