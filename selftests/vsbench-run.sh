#!/bin/sh
# "vsbench run": the tiny preset's JSON holds every promised field with sane
# values and none of the figures that were not measured; with --compare the
# exhaustive scan binds what the fast path binds; the same seed builds the
# same cluster and binds the same tasks; the table runs; --mode socket
# against a vschedd of its own (from the same directory) binds what the
# in-process run binds, reports the daemon's figures and leaves out what the
# socket cannot tell, and a second run into the now loaded daemon is
# refused; bad arguments exit 2 with a message naming the argument.
# Usage: selftests/vsbench-run.sh path/to/vsbench
set -eu
vsbench=$1
objtree=$(dirname "$vsbench")
dir=$(mktemp -d /tmp/vsbench-run-XXXXXX)
out=$dir/out
out2=$dir/out2
pid=
cleanup() {
	if [ -n "$pid" ]; then
		kill -TERM "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	fi
	rm -rf "$dir"
}
trap cleanup EXIT INT TERM
fail() { echo "vsbench-run: FAIL: $*" >&2; cat "$out" >&2; exit 1; }

# The value of a key of the top-level object (indented by 2) or of an object
# nested in it (indented by 4), as --json prints them: 'key: value[,]'.
top() { awk -v k="\"$1\":" '$1 == k && /^  "/ && !/^   / { sub(/^[^:]*: */, ""); sub(/,$/, ""); print }' "$2"; }
nested() { awk -v k="\"$1\":" '$1 == k && /^    "/ && !/^     / { sub(/^[^:]*: */, ""); sub(/,$/, ""); print }' "$2"; }
# awk compares numbers; exit status 0 when "$1 $2 $3" holds.
holds() { awk -v a="$1" -v b="$3" "BEGIN { exit !(a + 0 $2 b + 0) }"; }

"$vsbench" run --preset tiny --json >"$out" 2>&1 || fail "run --preset tiny --json exited $?"
head -c 1 "$out" | grep -q '{' || fail "not a JSON object"
for f in preset mode seed nodes tasks podgroups binds pods_per_sec cycle_ms session_open_ms \
	actions_ms session_close_ms peak_rss_bytes bytes_per_node bytes_per_task cycles; do
	[ -n "$(top "$f" "$out")" ] || fail "no field \"$f\""
done
for f in p50 p99 max allocate; do
	[ -n "$(nested "$f" "$out")" ] || fail "no field \"$f\" in cycle_ms or actions_ms"
done
# Not measured in this run (no --compare, no socket mode): not printed with made-up values.
for f in speedup_vs_exhaustive exact exhaustive_sched_ms load_objects_per_sec; do
	! grep -q "\"$f\"" "$out" || fail "field \"$f\" printed though it was not measured"
done
holds "$(top fast_placements "$out")" '>' 0 || fail "the fast path placed nothing"
holds "$(top fast_placements "$out")" '<=' "$(top binds "$out")" || fail "more fast placements than binds"
[ "$(top preset "$out")" = '"tiny"' ] || fail "preset is not \"tiny\""
[ "$(top mode "$out")" = '"inproc"' ] || fail "mode is not \"inproc\""
[ "$(top seed "$out")" = 1 ] || fail "default seed is not 1"
holds "$(top nodes "$out")" '>' 0 || fail "no nodes"
holds "$(top tasks "$out")" '>' 0 || fail "no tasks"
holds "$(top binds "$out")" '>' 0 || fail "nothing bound"
holds "$(top binds "$out")" '<=' "$(top tasks "$out")" || fail "more binds than tasks"
holds "$(top pods_per_sec "$out")" '>' 0 || fail "pods_per_sec not positive"
holds "$(top peak_rss_bytes "$out")" '>' 0 || fail "peak_rss_bytes not positive"
holds "$(top bytes_per_node "$out")" '>' 0 || fail "bytes_per_node not positive"
holds "$(top bytes_per_task "$out")" '>' 0 || fail "bytes_per_task not positive"
p50=$(nested p50 "$out")
p99=$(nested p99 "$out")
max=$(nested max "$out")
holds "$p50" '>' 0 || fail "cycle_ms.p50 not positive"
holds "$p50" '<=' "$p99" || fail "cycle_ms p50 $p50 > p99 $p99"
holds "$p99" '<=' "$max" || fail "cycle_ms p99 $p99 > max $max"
cycles=$(top cycles_run "$out")
holds "$cycles" '>=' 1 || fail "no cycle ran"
holds "$cycles" '<=' 3 || fail "more than the default 3 cycles"

# The same seed, given explicitly: the same cluster, the same decisions.
"$vsbench" run --preset tiny --seed 1 --json >"$out2" 2>&1 || fail "run --seed 1 exited $?"
for f in nodes queues podgroups tasks running_at_start binds pending cycles_run; do
	[ "$(top "$f" "$out")" = "$(top "$f" "$out2")" ] ||
		fail "seed 1 twice: $f $(top "$f" "$out") then $(top "$f" "$out2")"
done
"$vsbench" run --preset tiny --seed 7 --cycles 1 --json >"$out2" 2>&1 || fail "run --seed 7 exited $?"
[ "$(top seed "$out2")" = 7 ] || fail "seed 7 not reported"
[ "$(top cycles_run "$out2")" = 1 ] || fail "--cycles 1 ran $(top cycles_run "$out2") cycles"

# --compare: the exhaustive scan on the same cluster binds the same tasks in the same order.
"$vsbench" run --preset tiny --compare --json >"$out2" 2>&1 || fail "run --compare exited $?"
[ "$(top exact "$out2")" = true ] || { cp "$out2" "$out"; fail "the fast path is not exact"; }
holds "$(top speedup_vs_exhaustive "$out2")" '>' 0 || fail "no speedup_vs_exhaustive"
holds "$(top exhaustive_sched_ms "$out2")" '>' 0 || fail "no exhaustive_sched_ms"
[ "$(top binds "$out2")" = "$(top binds "$out")" ] || fail "--compare changed the fast run"

# --cycles 0 builds only: the cycle figures are null, not zero.
"$vsbench" run --preset tiny --cycles 0 --json >"$out2" 2>&1 || fail "run --cycles 0 exited $?"
[ "$(top pods_per_sec "$out2")" = null ] || fail "--cycles 0 printed a pods_per_sec"

"$vsbench" run --preset tiny --mode inproc >"$out" 2>&1 || fail "run (table) exited $?"
grep -q 'invariants hold' "$out" || fail "table run did not check invariants"
grep -q '^ *pods placed per second' "$out" || fail "table has no pods per second"

# --mode socket: a daemon of its own, cycles on request only, checking its
# invariants; nobody else subscribes, so the run is its binder.
"$vsbench" run --preset tiny --json >"$out2" 2>&1 || { cp "$out2" "$out"; fail "run --json exited $?"; }
sock=$dir/vschedd.sock
"$objtree/vschedd" --socket "$sock" --period 0 --self-check >"$dir/vschedd.log" 2>&1 &
pid=$!
i=0
while [ ! -S "$sock" ]; do
	i=$((i + 1))
	if [ "$i" -gt 200 ] || ! kill -0 "$pid" 2>/dev/null; then
		cp "$dir/vschedd.log" "$out"
		fail "vschedd did not start"
	fi
	sleep 0.05
done
"$vsbench" run --preset tiny --mode socket --socket "$sock" --json >"$out" 2>&1 ||
	fail "run --mode socket exited $?"
head -c 1 "$out" | grep -q '{' || fail "socket mode: not a JSON object"
[ "$(top mode "$out")" = '"socket"' ] || fail "mode is not \"socket\""
for f in preset seed nodes tasks podgroups binds pending pods_per_sec cycle_ms actions_ms \
	load_objects_per_sec daemon_rss_bytes bytes_per_node bytes_per_task cycles; do
	[ -n "$(top "$f" "$out")" ] || fail "socket mode: no field \"$f\""
done
for f in p50 p99 max allocate; do
	[ -n "$(nested "$f" "$out")" ] || fail "socket mode: no field \"$f\" in cycle_ms or actions_ms"
done
# Not measurable over the socket: absent, not zero.
for f in session_open_ms session_close_ms peak_rss_bytes fast_placements speedup_vs_exhaustive \
	exact exhaustive_sched_ms; do
	! grep -q "\"$f\"" "$out" || fail "socket mode printed \"$f\", which it cannot measure"
done
# The daemon decides as the core does: the same binds for the same seed.
for f in nodes queues podgroups tasks running_at_start binds pending cycles_run; do
	[ "$(top "$f" "$out")" = "$(top "$f" "$out2")" ] ||
		fail "socket mode: $f $(top "$f" "$out"), in-process $(top "$f" "$out2")"
done
holds "$(top load_objects_per_sec "$out")" '>' 0 || fail "load_objects_per_sec not positive"
holds "$(top daemon_rss_bytes "$out")" '>' 0 || fail "daemon_rss_bytes not positive"
holds "$(top pods_per_sec "$out")" '>' 0 || fail "socket mode: pods_per_sec not positive"
holds "$(top bytes_per_task "$out")" '>' 0 || fail "socket mode: bytes_per_task not positive"
p50=$(nested p50 "$out")
max=$(nested max "$out")
holds "$p50" '>' 0 || fail "socket mode: cycle_ms.p50 not positive"
holds "$p50" '<=' "$max" || fail "socket mode: cycle_ms p50 $p50 > max $max"

# The daemon holds the preset now: a second run is refused, and says why.
set +e
"$vsbench" run --preset tiny --mode socket --socket "$sock" --json >"$out" 2>&1
rc=$?
set -e
[ "$rc" -eq 1 ] || [ "$rc" -eq 2 ] || fail "a run into a loaded daemon exited $rc, expected 1 or 2"
grep -q 'holds objects already' "$out" || fail "a run into a loaded daemon did not say why"
! grep -q '"binds"' "$out" || fail "a refused run printed figures"
kill -0 "$pid" 2>/dev/null || { cp "$dir/vschedd.log" "$out"; fail "vschedd died (--self-check?)"; }

refusals=0
for bad in "--preset nope|--preset" "--mode socket --preset tiny --compare|--compare" \
	"--preset tiny --socket /nowhere|--socket" \
	"--preset tiny --mode carrier-pigeon|--mode" "--preset tiny --seed x|--seed" \
	"--preset tiny --seed -3|--seed" "--preset tiny --cycles many|--cycles" \
	"--seed 1|--preset" "--preset tiny --bogus|bogus"; do
	args=${bad%|*}
	want=${bad#*|}
	set +e
	# shellcheck disable=SC2086
	"$vsbench" run $args >"$out" 2>&1
	rc=$?
	set -e
	[ "$rc" -eq 2 ] || fail "\"vsbench run $args\" exited $rc, expected 2"
	grep -q -e "$want" "$out" || fail "\"vsbench run $args\" did not name \"$want\""
	refusals=$((refusals + 1))
done
echo "vsbench-run: tiny preset measured in-process and over a socket, reproducible, and" \
	"$refusals refusals as expected"
