#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# vskube at scale: a cluster of NODES nodes and RUNNING pods already
# running on them (in PodGroups of 10, over 4 queues), and PENDING pods
# waiting in gangs of 10, is loaded into the test API server
# (kapiserver --load); a vschedd (--binder=external) and the bridge are
# started beside it. Measured: how long the bridge takes from its start
# to vschedd holding the whole cluster (its lists, translation and
# batches), how long from there until every pending pod is bound in the
# API server, how many statuses and Events it writes meanwhile, the CPU
# time each process spends on the load, and the peak memory of each. It checks that every pending pod was bound
# exactly once, that no running pod moved, and that the running PodGroups'
# statuses, which the API server has already, were not written again.
#
# Usage: selftests/vskube-scale.sh OBJTREE [NODES RUNNING PENDING]
#   default 200 2000 200: a smoke run of the script (make check);
#   make bench-kube runs 50000 1000000 10000 (Documentation/benchmarks.md).
# With -j (first argument) the report is one JSON object.
set -eu
json=false
if [ "${1:-}" = -j ]; then
	json=true
	shift
fi
objtree=$1
nodes=${2:-200}
running=${3:-2000}
pending=${4:-200}
vsctl=$objtree/vsctl
tmp=$(mktemp -d /tmp/vskube-scale-XXXXXX)
api_pid=
vs_pid=
vk_pid=

for n in "$nodes" "$running" "$pending"; do
	case $n in
	'' | *[!0-9]*) echo "vskube-scale: \"$n\" is not a number" >&2; exit 2 ;;
	esac
done
[ $((running % 10)) = 0 ] && [ $((pending % 10)) = 0 ] && [ "$nodes" -gt 0 ] ||
	{ echo "vskube-scale: RUNNING and PENDING are multiples of 10, NODES at least 1" >&2; exit 2; }

stop() {
	eval "p=\${$1}"
	if [ -n "$p" ]; then
		kill -TERM "$p" 2>/dev/null || :
		wait "$p" 2>/dev/null || :
	fi
	eval "$1="
}
cleanup() {
	stop vk_pid
	stop vs_pid
	stop api_pid
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

fail() {
	echo "vskube-scale: FAIL: $*" >&2
	for f in api.log vskube.log vschedd.log; do
		[ ! -s "$tmp/$f" ] || { echo "  $f:"; tail -n 20 "$tmp/$f" | sed 's/^/    /'; } >&2
	done
	exit 1
}

now_ms() { date +%s%3N; }
# Peak and current resident memory of a process, in MiB.
hwm_mib() { awk '/^VmHWM:/ { printf "%.0f", $2 / 1024 }' "/proc/$1/status"; }
# CPU time a process has used (user + system), in ms.
cpu_ms() {
	awk -v hz="$(getconf CLK_TCK)" '{ sub(/^.*\) /, ""); printf "%.0f", ($12 + $13) * 1000 / hz }' \
		"/proc/$1/stat"
}
# A metric's value as an integer (Prometheus writes 1173004 as 1.173004e+06).
metric() { awk -v m="$1" '$1 == m { printf "%.0f\n", $2 }' "$tmp/metrics"; }

# Wait up to $1 seconds for "$2..." to succeed.
within() {
	_until=$(($(date +%s) + $1))
	shift
	while ! "$@" >/dev/null 2>&1; do
		[ "$(date +%s)" -lt "$_until" ] || return 1
		sleep 0.1
	done
}

# ---- the cluster, one object a line, each kind in the store's order ----
t0=$(now_ms)
awk -v nodes="$nodes" -v running="$running" -v pending="$pending" 'BEGIN {
	nsn = 10
	for (q = 0; q < 4; q++)
		printf "{\"apiVersion\":\"scheduling.volcano.sh/v1beta1\",\"kind\":\"Queue\",\"metadata\":{\"name\":\"q%d\"},\"spec\":{\"weight\":1},\"status\":{\"state\":\"Open\"}}\n", q
	for (s = 0; s < nsn; s++)
		printf "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"ns-%02d\"}}\n", s
	printf "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"pend\"}}\n"
	for (n = 0; n < nodes; n++)
		printf "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n-%06d\",\"labels\":{\"kubernetes.io/hostname\":\"n-%06d\",\"zone\":\"z%d\"}},\"spec\":{},\"status\":{\"allocatable\":{\"cpu\":\"64\",\"memory\":\"256Gi\",\"pods\":\"110\"},\"capacity\":{\"cpu\":\"64\",\"memory\":\"256Gi\",\"pods\":\"110\"},\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\"}]}}\n", n, n, n % 3
	groups = running / 10
	per = int((groups + nsn - 1) / nsn)
	for (g = 0; g < groups; g++) {
		ns = sprintf("ns-%02d", int(g / per))
		printf "{\"apiVersion\":\"scheduling.volcano.sh/v1beta1\",\"kind\":\"PodGroup\",\"metadata\":{\"name\":\"rg-%07d\",\"namespace\":\"%s\"},\"spec\":{\"minMember\":10,\"queue\":\"q%d\"},\"status\":{\"phase\":\"Running\",\"running\":10,\"conditions\":[{\"type\":\"Scheduled\",\"status\":\"True\",\"reason\":\"tasks in gang are ready to be scheduled\",\"message\":\"\",\"transitionID\":\"1\",\"lastTransitionTime\":\"2026-01-01T00:00:00Z\"}]}}\n", g, ns, g % 4
		for (i = 0; i < 10; i++) {
			p = g * 10 + i
			printf "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"r-%07d-%d\",\"namespace\":\"%s\",\"annotations\":{\"scheduling.k8s.io/group-name\":\"rg-%07d\"}},\"spec\":{\"schedulerName\":\"volcano\",\"nodeName\":\"n-%06d\",\"containers\":[{\"name\":\"c\",\"image\":\"busybox\",\"resources\":{\"requests\":{\"cpu\":\"1\",\"memory\":\"2Gi\"}}}]},\"status\":{\"phase\":\"Running\"}}\n", g, i, ns, g, p % nodes
		}
	}
	for (g = 0; g < pending / 10; g++) {
		printf "{\"apiVersion\":\"scheduling.volcano.sh/v1beta1\",\"kind\":\"PodGroup\",\"metadata\":{\"name\":\"pg-%06d\",\"namespace\":\"pend\"},\"spec\":{\"minMember\":10,\"queue\":\"q%d\"},\"status\":{\"phase\":\"Pending\"}}\n", g, g % 4
		for (i = 0; i < 10; i++)
			printf "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p-%06d-%d\",\"namespace\":\"pend\",\"annotations\":{\"scheduling.k8s.io/group-name\":\"pg-%06d\"}},\"spec\":{\"schedulerName\":\"volcano\",\"containers\":[{\"name\":\"c\",\"image\":\"busybox\",\"resources\":{\"requests\":{\"cpu\":\"500m\",\"memory\":\"1Gi\"}}}]}}\n", g, i, g
	}
}' >"$tmp/cluster.json"
t_gen=$(($(now_ms) - t0))
size_mib=$(($(stat -c %s "$tmp/cluster.json") / 1048576))

# ---- the API server ----
t0=$(now_ms)
"$objtree/selftests/kube/kapiserver" --port-file "$tmp/port" --load "$tmp/cluster.json" \
	>"$tmp/api.log" 2>&1 &
api_pid=$!
within 3600 test -s "$tmp/port" || fail "kapiserver did not start"
t_api=$(($(now_ms) - t0))
rm -f "$tmp/cluster.json"
api=http://127.0.0.1:$(cat "$tmp/port")
printf 'apiVersion: v1\nkind: Config\nclusters: [{name: s, cluster: {server: "%s"}}]\nusers: [{name: s, user: {}}]\ncontexts: [{name: s, context: {cluster: s, user: s}}]\ncurrent-context: s\n' \
	"$api" >"$tmp/kubeconfig"

# ---- vschedd and the bridge ----
export VSCHED_SOCKET="$tmp/vs.sock"
"$objtree/vschedd" --binder external --period 1s >"$tmp/vschedd.log" 2>&1 &
vs_pid=$!
within 20 test -S "$VSCHED_SOCKET" || fail "vschedd did not start"
t0=$(now_ms)
api_cpu0=$(cpu_ms "$api_pid")
vs_cpu0=$(cpu_ms "$vs_pid")
"$objtree/vskube" --kubeconfig "$tmp/kubeconfig" --listen-address 127.0.0.1:0 -v 1 \
	>"$tmp/vskube.log" 2>&1 &
vk_pid=$!
within 20 grep -q 'serving /metrics' "$tmp/vskube.log" || fail "vskube did not start"
mport=$(sed -n 's/.*serving \/metrics, \/healthz and \/readyz on port \([0-9]*\)$/\1/p' \
	"$tmp/vskube.log")
scrape() { curl -fsS "http://127.0.0.1:$mport/metrics" >"$tmp/metrics"; }
synced() { scrape && [ "$(metric vskube_synced)" = 1 ]; }
within 3600 synced || fail "vskube never synced"
t_sync=$(($(now_ms) - t0))
# What each process spent of the load: the API server's pages, the
# bridge's parsing and translation, the daemon's batches.
vk_cpu=$(cpu_ms "$vk_pid")
api_cpu=$(($(cpu_ms "$api_pid") - api_cpu0))
vs_cpu=$(($(cpu_ms "$vs_pid") - vs_cpu0))
vk_sync_mib=$(hwm_mib "$vk_pid")

# ---- every pending pod bound ----
t0=$(now_ms)
bound() {
	curl -fsS "$api/__test/stats" >"$tmp/stats" &&
		[ "$(jq .bindings "$tmp/stats")" -ge "$pending" ]
}
within 3600 bound || fail "$(jq .bindings "$tmp/stats") of $pending pods bound"
t_bind=$(($(now_ms) - t0))
# The statuses that follow: until the bridge has written nothing for 2 s.
quiet() {
	scrape
	w=$(awk '$1 ~ /^vskube_(status_writes|events)_total/ { s += $2 } END { print s + 0 }' \
		"$tmp/metrics")
	[ "$w" = "${last_w:-x}" ] && return 0
	last_w=$w
	return 1
}
last_w=
while ! quiet; do sleep 2; done
t_quiet=$(($(now_ms) - t0))

# ---- checks: each pending pod bound once, no running pod moved ----
[ "$(jq .bindings "$tmp/stats")" = "$pending" ] ||
	fail "$(jq .bindings "$tmp/stats") bindings for $pending pending pods"
[ "$(jq .evictions "$tmp/stats")" = 0 ] || fail "$(jq .evictions "$tmp/stats") evictions"
moved=$(curl -fsS "$api/api/v1/namespaces/ns-00/pods?limit=500" |
	jq -r --argjson n "$nodes" '[.items[] | select(.spec.nodeName !=
		("n-" + ((((.metadata.name | ltrimstr("r-") | split("-") | (.[0] | tonumber) * 10 +
		(.[1] | tonumber))) % $n) | tostring | ("000000" + .)[-6:])))] | length')
[ "$moved" = 0 ] || fail "$moved running pods are not on their nodes"
"$vsctl" task list -A --status Pending -o json >"$tmp/tasks" 2>&1 || fail "vsctl task list"
[ "$(jq length "$tmp/tasks")" = 0 ] || fail "$(jq length "$tmp/tasks") tasks still Pending"

scrape
writes_pg=$(awk '$1 == "vskube_status_writes_total{kind=\"podgroup\"}" { print $2 }' "$tmp/metrics")
writes_pod=$(awk '$1 == "vskube_status_writes_total{kind=\"pod\"}" { print $2 }' "$tmp/metrics")
writes_q=$(awk '$1 == "vskube_status_writes_total{kind=\"queue\"}" { print $2 }' "$tmp/metrics")
events=$(metric vskube_events_total)
unchanged=$(awk '$1 == "vskube_status_writes_skipped_total{why=\"unchanged\"}" { print $2 }' "$tmp/metrics")
# Volcano writes a status only where it differs from the object's: the
# running PodGroups, whose status the API server has, are left alone.
[ "$unchanged" -ge $((running / 10)) ] ||
	fail "$unchanged PodGroup statuses found unchanged, of $((running / 10)) running"
[ "$writes_pg" -le $((3 * pending / 10)) ] ||
	fail "$writes_pg PodGroup statuses written for $((pending / 10)) pending PodGroups"
batches=$(metric vskube_batches_total)
sent=$(metric vskube_messages_sent_total)
vk_mib=$(hwm_mib "$vk_pid")
vs_mib=$(hwm_mib "$vs_pid")
api_mib=$(hwm_mib "$api_pid")
stop vk_pid
stop vs_pid
stop api_pid

if $json; then
	printf '{"nodes":%s,"running":%s,"pending":%s,"file_mib":%s,"generate_ms":%s,"api_load_ms":%s,' \
		"$nodes" "$running" "$pending" "$size_mib" "$t_gen" "$t_api"
	printf '"sync_ms":%s,"sync_cpu_ms":{"kapiserver":%s,"vskube":%s,"vschedd":%s},' \
		"$t_sync" "$api_cpu" "$vk_cpu" "$vs_cpu"
	printf '"bind_ms":%s,"settle_ms":%s,"batches":%s,"messages":%s,' \
		"$t_bind" "$t_quiet" "$batches" "$sent"
	printf '"status_writes":{"podgroup":%s,"pod":%s,"queue":%s},"unchanged":%s,"events":%s,' \
		"$writes_pg" "$writes_pod" "$writes_q" "$unchanged" "$events"
	printf '"peak_mib":{"vskube_synced":%s,"vskube":%s,"vschedd":%s,"kapiserver":%s}}\n' \
		"$vk_sync_mib" "$vk_mib" "$vs_mib" "$api_mib"
else
	echo "vskube-scale: $nodes nodes, $running running pods, $pending pending in gangs of 10"
	printf '  %-44s %s\n' \
		"cluster file (generated)" "$size_mib MiB in $t_gen ms" \
		"kapiserver --load" "$t_api ms" \
		"vskube start -> vschedd holds the cluster" "$t_sync ms ($batches batches, $sent messages)" \
		"  CPU kapiserver / vskube / vschedd" "$api_cpu / $vk_cpu / $vs_cpu ms" \
		"-> every pending pod bound" "$t_bind ms" \
		"-> statuses and Events written" "$t_quiet ms" \
		"status writes (podgroup pod queue)" "$writes_pg $writes_pod $writes_q" \
		"statuses the API server had (not written)" "$unchanged" \
		"Events" "$events" \
		"peak RSS vskube (synced / end)" "$vk_sync_mib / $vk_mib MiB" \
		"peak RSS vschedd" "$vs_mib MiB" \
		"peak RSS kapiserver" "$api_mib MiB"
fi
