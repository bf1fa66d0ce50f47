#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# vsctl stats and vsctl top against a real vschedd: the statistics carry
# Volcano's metrics as the cycles left them (two cycles: two observations in
# each latency histogram; every bind a scheduled attempt), --prometheus is
# the text format with Volcano's names, "stats pools" counts the objects;
# top draws its screen in a terminal (tmux, a pseudo-terminal: the screen is
# read back as a user would see it), fits a small one, quits on "q", and
# without a terminal prints a block per refresh with no escape sequence.
# Usage: selftests/vsctl-top.sh OBJTREE
set -eu
objtree=$1
vsctl=$objtree/vsctl
dir=$(mktemp -d /tmp/vsctl-top-XXXXXX)
sock=$dir/vs.sock
out=$dir/out
export VSCHED_SOCKET="$sock"
# Each screen gets a tmux server of its own, on a socket in $dir: a server
# just killed may still hold its socket for a moment, and a client that
# meets it there reads "server exited unexpectedly". remain-on-exit is in
# the configuration, so the pane stays even if top exits at once.
printf 'set-option -g remain-on-exit on\n' >"$dir/tmux.conf"
screens=0
tmux="tmux -S $dir/tmux-0 -f $dir/tmux.conf"
pid=

cleanup() {
	$tmux kill-server 2>/dev/null || true
	if [ -n "$pid" ]; then
		kill -TERM "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	fi
	rm -rf "$dir"
}
trap cleanup EXIT INT TERM

fail() {
	echo "vsctl-top: FAIL: $*" >&2
	[ -s "$out" ] && sed 's/^/    /' "$out" >&2
	exit 1
}

has() {
	for want; do
		grep -qF -- "$want" "$out" || fail "no '$want'"
	done
}

command -v tmux >/dev/null || fail "tmux is missing (scripts/install-deps.sh installs it)"
command -v jq >/dev/null || fail "jq is missing (scripts/install-deps.sh installs it)"

"$objtree/vschedd" --socket "$sock" --period 0 --binder=auto >"$dir/vschedd.log" 2>&1 &
pid=$!
i=0
while [ ! -S "$sock" ]; do
	i=$((i + 1))
	[ "$i" -le 100 ] && kill -0 "$pid" 2>/dev/null || fail "vschedd did not start"
	sleep 0.05
done
"$objtree/vsbench" load -n 6 -q 12 -j 24 -t 2 -r 0 -s 7 >/dev/null || fail "vsbench load"
"$vsctl" cycle run >/dev/null && "$vsctl" cycle run >/dev/null || fail "cycle run"

# ---- stats ----
"$vsctl" stats -j >"$out" || fail "stats -j"
binds=$(jq .binds "$out")
[ "$binds" -gt 0 ] || fail "no bind in two cycles"
[ "$(jq .attemptsScheduled "$out")" = "$binds" ] || fail "scheduled attempts are not the binds"
[ "$(jq '.histograms[] | select(.name == "e2e_scheduling_latency_milliseconds") | .count' \
	"$out")" = 2 ] || fail "two cycles, not two e2e observations"
[ "$(jq '[.histograms[] | select(.name == "e2e_scheduling_latency_milliseconds") |
	.buckets[]] | add' "$out")" = 2 ] || fail "the e2e buckets do not add up to 2"
[ "$(jq '.recentCycles | map(.id) | join(",")' "$out")" = '"1,2"' ] ||
	fail "recent cycles are not 1 and 2"
"$vsctl" stats >"$out" || fail "stats"
has "scheduleAttempts   $binds scheduled" "e2e_scheduling_latency_milliseconds" \
	'action_scheduling_latency_milliseconds{action="allocate"}' "last cycle 2:"

"$vsctl" stats --prometheus >"$out" || fail "stats --prometheus"
has "# TYPE volcano_e2e_scheduling_latency_milliseconds histogram" \
	"volcano_e2e_scheduling_latency_milliseconds_count 2" \
	'volcano_e2e_scheduling_latency_milliseconds_bucket{le="+Inf"} 2' \
	'volcano_action_scheduling_latency_milliseconds_count{action="allocate"} 2' \
	'volcano_plugin_scheduling_latency_milliseconds_count{plugin="gang",OnSession="OnSessionOpen"} 2' \
	"volcano_schedule_attempts_total{result=\"scheduled\"} $binds" \
	'volcano_queue_weight{queue_name="queue-0"} 1' \
	'volcano_queue_share{queue_name="queue-0"}' \
	'volcano_queue_allocated_milli_cpu{queue_name="queue-0"}'
# Every sample line is a name, optional labels and a number.
bad=$(grep -v '^#' "$out" |
	grep -Evc '^[a-zA-Z_:][a-zA-Z0-9_:]*(\{[a-zA-Z_][a-zA-Z0-9_]*="[^"]*"(,[a-zA-Z_][a-zA-Z0-9_]*="[^"]*")*\})? [-+0-9.eE]+$' ||
	true)
[ "$bad" = 0 ] || fail "$bad lines of --prometheus are not samples"

"$vsctl" stats pools >"$out" || fail "stats pools"
tasks=$("$vsctl" stats -j | jq .nrTasks)
grep -Eq "^vs_task +$tasks " "$out" || fail "vs_task's active objects are not the $tasks tasks"
has NAME ACTIVE_OBJS NUM_OBJS OBJSIZE OBJPERSLAB NUM_SLABS BYTES

# ---- top in a terminal ----
# shows ERE MSG: wait (20 s at most: vsctl may run under valgrind on a busy
# machine) until the screen has a line matching
# ERE, else fail with MSG. A screen is read while top may still draw it
# (slowly under valgrind): each part is waited for.
shows() {
	i=0
	until $tmux capture-pane -p >"$out" 2>/dev/null && grep -Eq -- "$1" "$out"; do
		i=$((i + 1))
		[ "$i" -le 400 ] || fail "$2 (top's exit status: $(cat "$dir/status" 2>/dev/null || echo none))"
		sleep 0.05
	done
}

# ended_cleanly WHAT: top, told to end by WHAT, exits (20 s at most) with 0.
ended_cleanly() {
	i=0
	until [ -s "$dir/status" ]; do
		i=$((i + 1))
		[ "$i" -le 400 ] || fail "$1 did not end top"
		sleep 0.05
	done
	[ "$(cat "$dir/status")" = 0 ] || fail "top exited $(cat "$dir/status") on $1, not 0"
}

# screen W H: start top in a W x H terminal; the pane stays once it exits.
screen() {
	$tmux kill-server 2>/dev/null || true
	screens=$((screens + 1))
	tmux="tmux -S $dir/tmux-$screens -f $dir/tmux.conf"
	rm -f "$dir/status"
	$tmux new-session -d -x "$1" -y "$2" \
		"VSCHED_SOCKET=$sock $vsctl top -d 0.2; echo \$? >$dir/status"
	shows "^CYCLE" "top drew no screen in ${1}x$2"
}

screen 120 40
has "vsched top: 2 cycles, 6 nodes, 12 queues, 24 podgroups" "RESOURCE" "USE%" \
	"DESERVED cpu/mem" "SHARE"
grep -Eq '^cpu +[0-9]' "$out" || fail "no cpu utilisation line"
grep -Eq '^queue-0 +1 Open ' "$out" || fail "no line for queue-0"
grep -Eq '^queue-11 ' "$out" || fail "not every queue fits 40 lines"
shows '^1 +[0-9.]+ +[0-9]+ +0 +[0-9]+ +enqueue [0-9.]+ allocate' "no line for cycle 1"
grep -Eq '^2 +[0-9.]+ +[0-9]+ +0 +[0-9]+ +enqueue [0-9.]+ allocate' "$out" ||
	fail "no line for cycle 2"
[ "$(grep -n '^2 ' "$out" | cut -d: -f1)" -lt "$(grep -n '^1 ' "$out" | cut -d: -f1)" ] ||
	fail "cycles are not newest first"
# A cycle run now shows on the next refresh.
"$vsctl" cycle run >/dev/null
shows "^3 " "cycle 3 never showed"
$tmux send-keys q
ended_cleanly "q"

# A small terminal: lines cut at its width, the queues at its height.
screen 60 20
long=$(awk 'length > 60' "$out" | wc -l)
[ "$long" = 0 ] || fail "$long lines wider than the 60 columns"
has "more queues" "CYCLE"
[ "$(wc -l <"$out")" -le 20 ] || fail "more lines than the 20 rows"

# A terminal that closes (SIGHUP to top, the pane's shell child) ends top
# cleanly, as q does: exit status 0, not a death by the signal (129).
top_pid=$(pgrep -P "$($tmux display-message -p '#{pane_pid}')") ||
	fail "no top process in the pane"
kill -HUP "$top_pid"
ended_cleanly "SIGHUP"

# ---- top without a terminal ----
"$vsctl" top -b -n 2 -d 0.1 >"$out" || fail "top -b"
[ "$(grep -c '^vsched top:' "$out")" = 2 ] || fail "not two blocks for -n 2"
if grep -q "$(printf '\033')" "$out"; then
	fail "escape sequences without a terminal"
fi
for bad in "-d 0" "-d x" "-n 0" "extra"; do
	set +e
	# shellcheck disable=SC2086
	"$vsctl" top $bad >"$out" 2>&1
	rc=$?
	set -e
	[ "$rc" = 2 ] || fail "top $bad exited $rc, not 2 (a usage error)"
done

echo "vsctl-top: ok"
