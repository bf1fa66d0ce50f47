#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
#
# kube-scheduler, Volcano's scheduler and vsched side by side on the real
# API server (Documentation/benchmarks.md, "The peers side by side"). For
# each size and each scheduler, from scratch:
#   1. a fresh etcd and kube-apiserver (selftests/real-apiserver.sh start);
#   2. the scheduler, as the admin (system:masters: RBAC is not what is
#      measured), waited for until it serves:
#        kube-scheduler  PEERS/kube-scheduler, its default profile, no leader
#                        election; ready when its /healthz says ok (v1.30
#                        has no /readyz);
#        volcano         PEERS/vc-scheduler, its built-in configuration (no
#                        --scheduler-conf), no leader election; ready when
#                        its klog socket appears, which it opens once its
#                        caches have synced;
#        vsched          OBJTREE/vschedd (Volcano's built-in configuration,
#                        a cycle a second, the binder external) and
#                        OBJTREE/vskube; ready when vskube's /readyz says ok;
#   3. PEERS/peers-load: NODES Ready nodes, QUEUES queues, PodGroups of
#      GROUP pods, then PODS pods for that scheduler, watched until bound;
#   4. the CPU time (utime + stime, from /proc/PID/stat) each process spent
#      while peers-load ran, and its peak resident set (VmHWM, from
#      /proc/PID/status, reset through clear_refs when peers-load starts);
#   5. everything stopped.
# Then one table (peers-load's throughput and latencies, the CPU and peak
# RSS of the scheduler's processes, kube-apiserver and etcd), the data in
# OUT/peers.dat, and, if gnuplot is installed, OUT/throughput.svg,
# OUT/latency.svg and OUT/cpu.svg against the number of pods.
#
# Usage: scripts/bench-peers.sh [SCHEDULER...]   (kube-scheduler volcano vsched)
#   SIZES="1000:10000"   NODES:PODS pairs, run in turn
#   GROUP=10 QUEUES=4    pods per PodGroup, queues
#   PEERS=DIR            make bench-peers' Go programs (default: go/peers)
#   OBJTREE=DIR          where vschedd and vskube are (default: the source tree)
#   OUT=DIR              keep the files there (default: a temporary
#                        directory, removed)
#   TIMEOUT=600          seconds peers-load waits for the last bind
#   KUBE_SCHEDULER_ARGS  extra options (default: --kube-api-qps=5000
#                        --kube-api-burst=5000, as scheduler_perf sets its
#                        client; kube-scheduler's own default is 50 and 100)
#   VOLCANO_ARGS         extra vc-scheduler options (default: none)
#   VSCHEDD_ARGS         extra vschedd options (default: none)
#   VSKUBE_ARGS          extra vskube options (default: none; --bind-workers N)
#   LOAD_ARGS            extra peers-load options (--pod-cpu 500m, ...)
# Exit status 1 when a step fails or a scheduler leaves pods unbound, 2 on
# a usage error.
set -u
export LC_ALL=C

srctree=$(cd "$(dirname "$0")/.." && pwd)
PEERS=${PEERS:-$srctree/go/peers}
OBJTREE=${OBJTREE:-$srctree}
SIZES=${SIZES:-1000:10000}
GROUP=${GROUP:-10}
QUEUES=${QUEUES:-4}
TIMEOUT=${TIMEOUT:-600}
KUBE_SCHEDULER_ARGS=${KUBE_SCHEDULER_ARGS---kube-api-qps=5000 --kube-api-burst=5000}
VOLCANO_ARGS=${VOLCANO_ARGS:-}
VSCHEDD_ARGS=${VSCHEDD_ARGS:-}
VSKUBE_ARGS=${VSKUBE_ARGS:-}
LOAD_ARGS=${LOAD_ARGS:-}
launcher=$srctree/selftests/real-apiserver.sh

bad() { echo "bench-peers: $*" >&2; exit 2; }

case "${1:-}" in
-h|--help)
	sed -n '/^# Usage/,/^set -u/p' "$0" | grep '^#' | sed 's/^# \{0,1\}//'
	exit 0
	;;
-*)
	bad "unknown option \"$1\" (--help)"
	;;
esac
[ $# -gt 0 ] || set -- kube-scheduler volcano vsched
for s in "$@"; do
	case $s in
	kube-scheduler | volcano | vsched) ;;
	*) bad "unknown scheduler \"$s\": kube-scheduler, volcano or vsched" ;;
	esac
done
for v in GROUP QUEUES TIMEOUT; do
	eval "n=\$$v"
	case $n in
	'' | *[!0-9]* | 0) bad "$v=\"$n\" is not a positive whole number" ;;
	esac
done
for size in $SIZES; do
	case $size in
	*[!0-9:]* | :* | *: | *:*:*) bad "SIZES: \"$size\" is not NODES:PODS" ;;
	*:*) ;;
	*) bad "SIZES: \"$size\" is not NODES:PODS" ;;
	esac
	nodes=${size%:*} pods=${size#*:}
	[ "$nodes" -gt 0 ] && [ "$pods" -gt 0 ] || bad "SIZES: \"$size\": NODES and PODS must be positive"
	[ $((pods % GROUP)) -eq 0 ] || bad "SIZES: \"$size\": $pods pods are not groups of GROUP=$GROUP"
done
[ -n "$SIZES" ] || bad "SIZES is empty"
need="kube-apiserver kubectl etcd-embed crd/.volcano peers-load"
for s in "$@"; do
	case $s in
	kube-scheduler) need="$need kube-scheduler" ;;
	volcano) need="$need vc-scheduler" ;;
	vsched) [ -x "$OBJTREE/vschedd" ] && [ -x "$OBJTREE/vskube" ] ||
		bad "no vschedd and vskube in OBJTREE=$OBJTREE: run make first" ;;
	esac
done
for f in $need; do
	[ -e "$PEERS/$f" ] || bad "no $PEERS/$f: run 'make bench-peers-progs' first"
done
PEERS=$(cd "$PEERS" && pwd)
for t in jq curl ss; do
	command -v "$t" >/dev/null || bad "$t is needed"
done

if [ -n "${OUT:-}" ]; then
	out=$OUT
	mkdir -p "$out" || exit 2
	out=$(cd "$out" && pwd)
else
	out=$(mktemp -d /tmp/bench-peers-XXXXXX) || exit 2
fi
hz=$(getconf CLK_TCK)
run=
rdir=
sched_pids=

cleanup() {
	for p in $sched_pids; do
		kill -TERM "$p" 2>/dev/null && wait "$p" 2>/dev/null
	done
	sched_pids=
	[ -z "$run" ] || "$launcher" stop "$run/api" >/dev/null 2>&1
	run=
}
trap 'cleanup; [ -n "${OUT:-}" ] || rm -rf "$out"' EXIT
trap 'exit 1' INT TERM

fail() {
	echo "bench-peers: $*" >&2
	if [ -n "$rdir" ]; then
		for f in "$rdir"/*.log; do
			[ -s "$f" ] || continue
			echo "--- last lines of $f" >&2
			tail -n 10 "$f" | cut -c1-300 >&2
		done
	fi
	exit 1
}

# A loopback port no socket uses (as real-apiserver.sh picks its own),
# below the ephemeral range: a listener cannot bind a port an outgoing
# connection holds.
free_port() {
	lo=$(cut -f1 /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null)
	case $lo in '' | *[!0-9]*) lo=32768 ;; esac
	[ "$lo" -gt 12000 ] || lo=32768
	while :; do
		p=$(( $(od -An -N2 -tu2 /dev/urandom) % (lo - 10000) + 10000 ))
		[ -n "$(ss -Htan "sport = :$p" 2>/dev/null)" ] || { echo "$p"; return; }
	done
}

# Wait up to 120 s for "$@" to succeed while every scheduler process lives.
wait_ready() {
	end=$(($(date +%s) + 120))
	while ! "$@" >/dev/null 2>&1; do
		for p in $sched_pids; do
			kill -0 "$p" 2>/dev/null || fail "$s ($p) exited before it was ready"
		done
		[ "$(date +%s)" -le "$end" ] || fail "$s not ready after 120 s"
		sleep 0.2
	done
}

readyz() { [ "$(curl -sk --max-time 5 "$1")" = ok ]; }

# Start scheduler $s against the server of $run/api/env; its pids in sched_pids.
start_scheduler() {
	case $s in
	kube-scheduler)
		port=$(free_port)
		# shellcheck disable=SC2086 # KUBE_SCHEDULER_ARGS is a list of options
		"$PEERS/kube-scheduler" --kubeconfig "$ADMIN_KUBECONFIG" \
			--authentication-kubeconfig "$ADMIN_KUBECONFIG" \
			--authorization-kubeconfig "$ADMIN_KUBECONFIG" \
			--leader-elect=false --bind-address 127.0.0.1 --secure-port "$port" \
			$KUBE_SCHEDULER_ARGS >"$run/scheduler.log" 2>&1 &
		sched_pids=$!
		# v1.30 has no /readyz, and its /healthz checks only that it
		# serves; it lists the empty cluster within milliseconds of that,
		# and peers-load makes the nodes first.
		wait_ready readyz "https://127.0.0.1:$port/healthz"
		;;
	volcano)
		mkdir -p "$run/klog"
		# shellcheck disable=SC2086 # VOLCANO_ARGS is a list of options
		DEBUG_SOCKET_DIR=$run/klog "$PEERS/vc-scheduler" --kubeconfig "$ADMIN_KUBECONFIG" \
			--leader-elect=false $VOLCANO_ARGS >"$run/scheduler.log" 2>&1 &
		sched_pids=$!
		wait_ready sh -c "ls '$run/klog' | grep -q ."
		;;
	vsched)
		port=$(free_port)
		# shellcheck disable=SC2086 # VSCHEDD_ARGS is a list of options
		"$OBJTREE/vschedd" --socket "$run/vs.sock" --period 1s --binder external \
			--admin-group "$(id -g)" $VSCHEDD_ARGS >"$run/vschedd.log" 2>&1 &
		sched_pids=$!
		wait_ready test -S "$run/vs.sock"
		# shellcheck disable=SC2086 # VSKUBE_ARGS is a list of options
		"$OBJTREE/vskube" --kubeconfig "$ADMIN_KUBECONFIG" --socket "$run/vs.sock" \
			--listen-address "127.0.0.1:$port" $VSKUBE_ARGS >"$run/vskube.log" 2>&1 &
		sched_pids="$sched_pids $!"
		wait_ready readyz "http://127.0.0.1:$port/readyz"
		;;
	esac
}

# CPU ticks (utime + stime) of pid $1; its comm may hold spaces.
ticks() { sed 's/.*) //' "/proc/$1/stat" | awk '{ print $12 + $13 }'; }
# Peak resident set of pid $1, in KiB.
hwm() { awk '/^VmHWM:/ { print $2 }' "/proc/$1/status"; }

# Sums over the pids @2...: CPU seconds since the ticks in variable
# t0_PID, and peak RSS in MiB; "cpu rss" printed.
usage_of() {
	c=0 r=0
	for p in "$@"; do
		eval "t0=\$t0_$p"
		c=$((c + $(ticks "$p") - t0))
		r=$((r + $(hwm "$p")))
	done
	awk -v c="$c" -v hz="$hz" -v r="$r" 'BEGIN { printf "%.2f %.0f\n", c / hz, r / 1024 }'
}

dat=$out/peers.dat
printf '# bench-peers %s: GROUP=%s QUEUES=%s\n' "$(date -u +%FT%TZ)" "$GROUP" "$QUEUES" >"$dat"
echo '# scheduler nodes pods bound pods/s p50_ms p99_ms sched_cpu_s sched_rss_mib apiserver_cpu_s apiserver_rss_mib etcd_cpu_s etcd_rss_mib creates/s' >>"$dat"
status=0

for size in $SIZES; do
	nodes=${size%:*} pods=${size#*:}
	for s in "$@"; do
		rdir=$out/$s-$nodes-$pods
		run=$rdir
		rm -rf "$rdir"
		mkdir -p "$rdir"
		echo "bench-peers: $s, $nodes nodes, $pods pods" >&2
		"$launcher" start "$rdir/api" "$PEERS" >"$rdir/start.log" 2>&1 ||
			fail "the real API server did not start (see $rdir/start.log)"
		. "$rdir/api/env"
		start_scheduler
		apiserver=$(cat "$rdir/api/kube-apiserver.pid")
		etcd=$(cat "$rdir/api/etcd-embed.pid")
		# the pods' schedulerName: kube-scheduler's default profile's, and
		# volcano, which vskube takes by default (deploy/vsched.yaml)
		name=volcano
		[ "$s" != kube-scheduler ] || name=default-scheduler
		for p in $sched_pids $apiserver $etcd; do
			eval "t0_$p=$(ticks "$p")"
			# VmHWM back to the current RSS: the peak of the run, not of the start
			echo 5 >"/proc/$p/clear_refs" 2>/dev/null || :
		done
		# shellcheck disable=SC2086 # LOAD_ARGS is a list of options
		"$PEERS/peers-load" --kubeconfig "$ADMIN_KUBECONFIG" --scheduler-name "$name" \
			--nodes "$nodes" --pods "$pods" --group-size "$GROUP" --queues "$QUEUES" \
			--timeout "${TIMEOUT}s" $LOAD_ARGS >"$rdir/load.json" 2>"$rdir/load.log"
		rc=$?
		for p in $sched_pids $apiserver $etcd; do
			kill -0 "$p" 2>/dev/null || fail "$s: process $p exited during the run"
		done
		# shellcheck disable=SC2086 # the scheduler's pids
		su=$(usage_of $sched_pids)
		au=$(usage_of "$apiserver")
		eu=$(usage_of "$etcd")
		cleanup
		[ -s "$rdir/load.json" ] || fail "$s: peers-load failed: $(tail -n 3 "$rdir/load.log")"
		if [ "$rc" -ne 0 ]; then
			echo "bench-peers: $s: $(tail -n 1 "$rdir/load.log")" >&2
			status=1
		fi
		printf '%s %s %s %s %s\n' "$s" \
			"$(jq -r '[.nodes, .pods, .bound, (.podsPerSecond * 10 | round / 10),
				.latencyP50Ms, .latencyP99Ms] | map(tostring) | join(" ")' "$rdir/load.json")" \
			"$su $au" "$eu" "$(jq '.createsPerSecond | round' "$rdir/load.json")" >>"$dat"
	done
done

awk '
	BEGIN {
		printf "%-15s %6s %6s %6s %9s %8s %9s %9s %11s %9s %11s %9s\n", "scheduler",
		       "nodes", "pods", "bound", "creates/s", "pods/s", "p50 ms", "p99 ms",
		       "sched CPU s", "RSS MiB", "apisrv CPU", "RSS MiB"
	}
	/^#/ { next }
	{ printf "%-15s %6d %6d %6d %9d %8.1f %9.1f %9.1f %11.2f %9d %11.2f %9d\n",
	         $1, $2, $3, $4, $14, $5, $6, $7, $8, $9, $10, $11 }
' "$dat"
echo "bench-peers: data in $dat (etcd's CPU and RSS too)" >&2

if command -v gnuplot >/dev/null; then
	cat >"$out/peers.gp" <<'EOF'
# Redraw: cd OUT && gnuplot peers.gp
set terminal svg size 800,480 dynamic
set key top left
set xlabel "pods (nodes: see peers.dat)"
set grid
set output "throughput.svg"
set ylabel "pods bound per second"
plot for [s in "kube-scheduler volcano vsched"] "peers.dat" \
	using ($3):(strcol(1) eq s ? $5 : 1/0) with linespoints title s
set output "latency.svg"
set ylabel "p99 creation to bind, ms"
set logscale y
plot for [s in "kube-scheduler volcano vsched"] "peers.dat" \
	using ($3):(strcol(1) eq s ? $7 : 1/0) with linespoints title s
set output "cpu.svg"
set ylabel "scheduler CPU seconds"
plot for [s in "kube-scheduler volcano vsched"] "peers.dat" \
	using ($3):(strcol(1) eq s ? $8 : 1/0) with linespoints title s
EOF
	if (cd "$out" && gnuplot peers.gp) >"$out/gnuplot.log" 2>&1; then
		echo "bench-peers: plots in $out/throughput.svg, latency.svg and cpu.svg" >&2
	else
		echo "bench-peers: gnuplot failed (see $out/gnuplot.log)" >&2
		status=1
	fi
else
	echo "bench-peers: gnuplot not found in PATH: no plots (scripts/install-deps.sh installs it)" >&2
fi
[ -n "${OUT:-}" ] || echo "bench-peers: OUT=DIR keeps the files" >&2
exit "$status"
