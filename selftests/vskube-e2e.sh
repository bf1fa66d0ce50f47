#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# vskube end to end: the test API server (selftests/kube/kapiserver), a
# vschedd and the bridge between them, driven with the real kubectl.
#
# Part 1, the same decisions: each cluster of selftests/equivalence/ is
# created with "kubectl create -f NAME.manifests.yaml" (and, as a kubelet
# and Volcano's controllers would, the statuses the manifests give are put
# through the status subresource). The bridge watches every other cluster
# being made, and lists the others once made (it is started after them):
# either way vschedd must take the objects in the order they were made,
# which the API server stamps a second apart (--creation-step 1), as the
# scenario lists them; a list comes in name order. Once vschedd holds the scenario's
# starting state, the scenario's cycles are run ("vsctl cycle run", vschedd
# on --period 0); after each, the bridge's bindings and evictions are
# waited for. Then the API server's pods (their spec.nodeName, and which
# are gone) must be what "vsctl scenario run" decides in-process.
#
# Part 2, what goes wrong: pods made with kubectl on a cluster that cycles
# by itself are bound; so are pods made after every watch was dropped, and
# after the history was compacted (410 Gone: the bridge lists again); a
# binding the API server refuses puts the pod back to Pending in vschedd,
# and it is bound on a later cycle; a bridge restarted, and a vschedd
# restarted, lose nothing; /metrics and /healthz answer. Statuses: after
# each cluster of part 1, the PodGroups' phases and the pending pods'
# PodScheduled conditions and Events are in the API server; a gang that
# waits for a node label gets Volcano's exact texts in its pods'
# conditions and Events and its PodGroup's status and Event, then runs,
# and the queue's allocated is written.
#
# Part 3, two bridges with leader election on a Lease: only the leader
# connects to vschedd and binds; when it stops it lets go of the Lease,
# and the other takes over and binds what comes next.
# Without kubectl the test says SKIP and passes.
# Usage: selftests/vskube-e2e.sh OBJTREE selftests
set -eu
objtree=$1
top=$2
dir=$top/equivalence
vsctl=$objtree/vsctl
tmp=$(mktemp -d /tmp/vskube-e2e-XXXXXX)
api_pid=
vs_pid=
vk_pid=

if ! command -v kubectl >/dev/null 2>&1; then
	echo "vskube-e2e: SKIP: no kubectl on this machine"
	exit 0
fi

stop() {
	# $1: the variable holding the pid
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
. "$dir/lib.sh"

fail() {
	echo "vskube-e2e: FAIL: $*" >&2
	for f in out vskube.log vschedd.log; do
		[ ! -s "$tmp/$f" ] || { echo "  $f:"; tail -n 40 "$tmp/$f" | sed 's/^/    /'; } >&2
	done
	exit 1
}

# Wait up to 20 s for the command "$@" to succeed.
until_ok() {
	_try=0
	while ! "$@" >/dev/null 2>&1; do
		_try=$((_try + 1))
		[ "$_try" -le 400 ] || return 1
		sleep 0.05
	done
}

start_api() {
	"$objtree/selftests/kube/kapiserver" --port-file "$tmp/port" --bookmark-interval 300 \
		--creation-step 1 >"$tmp/kapi.log" 2>&1 &
	api_pid=$!
	since=0
	until_ok test -s "$tmp/port" || fail "kapiserver did not start"
	base=http://127.0.0.1:$(cat "$tmp/port")
	cat >"$tmp/kubeconfig" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: kapi
  cluster:
    server: $base
contexts:
- name: kapi
  context:
    cluster: kapi
    user: test
users:
- name: test
  user: {}
current-context: kapi
EOF
}

# What vskube asked of this API server since last time, as RBAC sees it:
# "VERB GROUP RESOURCE[/SUBRESOURCE]" lines added to $tmp/asked (the log
# keeps the last 1024 requests: called after each step that makes many).
log_requests() {
	curl -fsS "$base/__test/requests?since=$since" >"$tmp/requests.json" ||
		fail "GET /__test/requests"
	since=$(jq -r .last "$tmp/requests.json")
	jq -r '.requests[] | select(.userAgent | startswith("vskube/")) |
		"\(.method) \(.path) \(.watch)"' \
		"$tmp/requests.json" | awk '
		{
			n = split($2, s, "/")
			if (s[2] == "api") { group = "\"\""; i = 4 } else { group = s[3]; i = 5 }
			if (s[i] == "namespaces" && n > i + 1) i += 2
			res = s[i]; name = s[i + 1]; sub_ = s[i + 2]
			if (sub_ != "") res = res "/" sub_
			if ($1 == "GET") verb = name != "" ? "get" : $3 == "true" ? "watch" : "list"
			else if ($1 == "POST") verb = "create"
			else if ($1 == "PUT") verb = "update"
			else verb = tolower($1)
			print verb, group, res
		}' >>"$tmp/asked"
}

# What deploy/vsched.yaml grants vskube: its ClusterRole's rules as the same lines.
granted() {
	awk '
		function items(line, key,    v) {
			v = line; sub(".*" key ": \\[", "", v); sub("\\].*", "", v); gsub(/ /, "", v)
			return v
		}
		/^kind: ClusterRole$/ { in_role = 1; next }
		/^---/ { in_role = 0 }
		in_role && /^- \{apiGroups:/ {
			ng = split(items($0, "apiGroups"), g, ","); nr = split(items($0, "resources"), r, ",")
			nv = split(items($0, "verbs"), v, ",")
			for (a = 1; a <= ng; a++) for (b = 1; b <= nr; b++) for (c = 1; c <= nv; c++)
				print v[c], g[a], r[b]
		}
	' "$top/../deploy/vsched.yaml" | sort -u
}

# vschedd with the configuration @1 and the period @2.
start_vschedd() {
	rm -f "$tmp/vs.sock"
	"$objtree/vschedd" --socket "$tmp/vs.sock" --conf "$1" --period "$2" --self-check -v 1 \
		>>"$tmp/vschedd.log" 2>&1 &
	vs_pid=$!
	until_ok test -S "$tmp/vs.sock" || fail "vschedd did not start"
}

start_vskube() {
	"$objtree/vskube" --kubeconfig "$tmp/kubeconfig" --socket "$tmp/vs.sock" -v 3 \
		--listen-address 127.0.0.1:0 >>"$tmp/vskube.log" 2>&1 &
	vk_pid=$!
}

k() {
	kubectl --kubeconfig "$tmp/kubeconfig" --cache-dir "$tmp/cache" --request-timeout 20s "$@"
}

export VSCHED_SOCKET="$tmp/vs.sock"

# The documents of @1 that give a status, for the status subresource.
with_status() {
	awk '
		function flush() { if (has) printf "%s---\n", doc; doc = ""; has = 0 }
		/^---/ { flush(); next }
		/^status:/ { has = 1 }
		{ doc = doc $0 "\n" }
		END { flush() }
	' "$1"
}

# A Namespace for every namespace @1 names: the API server wants them first.
namespaces_of() {
	sed -n 's/^ *namespace: *\([a-z0-9-]*\) *$/\1/p' "$1" | sort -u |
		while read -r ns; do
			[ "$ns" = default ] || printf 'apiVersion: v1\nkind: Namespace\nmetadata: {name: %s}\n---\n' "$ns"
		done
}

# vschedd's objects, as daemon_state() gives them.
daemon_now() {
	"$vsctl" task list -A -j >"$tmp/tasks.json" 2>/dev/null &&
		"$vsctl" podgroup list -A -j >"$tmp/podgroups.json" 2>/dev/null &&
		daemon_state "$tmp/tasks.json" "$tmp/podgroups.json" | sort
}

# vschedd holds exactly the state in $tmp/want.
daemon_is() {
	daemon_now >"$tmp/have" && cmp -s "$tmp/want" "$tmp/have"
}

# Nothing waits for the bridge: no task Binding (its result) or Releasing (its pod going).
settled() {
	"$vsctl" task list -A -j >"$tmp/tasks.json" 2>/dev/null &&
		! grep -q '"status": "\(Binding\|Releasing\)"' "$tmp/tasks.json"
}

# The API server's pods: "task NS/NAME NODE", "-" for none.
api_pods() {
	k get pods -A -o jsonpath='{range .items[*]}{.metadata.namespace}/{.metadata.name} {.spec.nodeName}{"\n"}{end}' |
		awk 'NF { print "task " $1 " " ($2 == "" ? "-" : $2) }' | sort
}

# The API server's PodGroups: "podgroup NS/NAME PHASE".
api_podgroups() {
	k get podgroups -A -o jsonpath='{range .items[*]}{.metadata.namespace}/{.metadata.name} {.status.phase}{"\n"}{end}' |
		awk 'NF { print "podgroup " $1 " " $2 }' | sort
}

# Every PodGroup in the API server has the phase vschedd gave it.
podgroups_written() {
	daemon_now | grep '^podgroup ' >"$tmp/pgs" && api_podgroups >"$tmp/apipgs" &&
		[ -z "$(comm -13 "$tmp/pgs" "$tmp/apipgs")" ]
}

# The pods vschedd leaves Pending: "NS NAME".
pending_pods() {
	daemon_now | awk '$1 == "task" && $4 == "Pending" { split($2, a, "/"); print a[1], a[2] }'
}

# Each pod vschedd leaves Pending has PodScheduled=False, and a FailedScheduling Event saying why.
conditions_written() {
	pending_pods | while read -r ns p; do
		why=$(k get pod -n "$ns" "$p" -o jsonpath='{.status.conditions[?(@.type=="PodScheduled")].status} {.status.conditions[?(@.type=="PodScheduled")].reason}')
		case $why in
		"False Unschedulable" | "False Schedulable") ;;
		*) echo "pod $ns/$p: PodScheduled is \"$why\""; return 1 ;;
		esac
		k get events -n "$ns" --field-selector "involvedObject.name=$p,reason=FailedScheduling" \
			-o name | grep -q . || { echo "pod $ns/$p: no FailedScheduling Event"; return 1; }
	done
}

# ---- part 1: the same decisions as the scenarios ----
set -- "$dir"/*.scenario.yaml
[ -e "$1" ] || fail "no scenario in $dir"
nclusters=0
npods=0
npgs=0
npending=0
for scn in "$@"; do
	name=$(basename "$scn" .scenario.yaml)
	man=$dir/$name.manifests.yaml
	conf_of "$scn" >"$tmp/conf"
	"$vsctl" scenario run -v "$scn" >"$tmp/out" 2>&1 || fail "$name: the scenario fails in-process"
	local_state "$scn" "$tmp/out" | awk '$1 == "task" { print $1, $2, $3 }' | sort >"$tmp/local"

	start_api
	start_vschedd "$tmp/conf" 0
	# every other cluster is watched being made; the others, listed once made
	[ $((nclusters % 2)) -eq 0 ] || start_vskube
	namespaces_of "$man" | k create -f - >"$tmp/out" 2>&1 || fail "$name: the namespaces"
	k create -f "$man" >"$tmp/out" 2>&1 || fail "$name: kubectl create -f $man"
	with_status "$man" >"$tmp/status.yaml"
	if [ -s "$tmp/status.yaml" ]; then
		k replace --subresource=status -f "$tmp/status.yaml" >"$tmp/out" 2>&1 ||
			fail "$name: kubectl replace --subresource=status"
	fi
	[ $((nclusters % 2)) -eq 1 ] || start_vskube
	{ pods_of "$scn"; podgroups_of "$scn"; } | sort >"$tmp/want"
	until_ok daemon_is ||
		{ diff -u "$tmp/want" "$tmp/have" >"$tmp/out"; fail "$name: vschedd never held the cluster"; }

	n=$(cycles_of "$scn")
	c=0
	while [ "$c" -lt "$n" ]; do
		"$vsctl" cycle run >"$tmp/out" 2>&1 || fail "$name: vsctl cycle run"
		until_ok settled || fail "$name: the bridge left binds or evictions undone"
		c=$((c + 1))
	done
	api_pods >"$tmp/api"
	diff -u "$tmp/local" "$tmp/api" >"$tmp/out" ||
		fail "$name: the pods in the API server are not where vsctl scenario run puts them"
	grep -q "Bound pod" "$tmp/vskube.log" || fail "$name: the bridge bound nothing"
	until_ok podgroups_written ||
		{ diff -u "$tmp/pgs" "$tmp/apipgs" >"$tmp/out"; fail "$name: PodGroup phases not written"; }
	until_ok conditions_written ||
		{ conditions_written >"$tmp/out" 2>&1; fail "$name: pending pods' conditions not written"; }
	log_requests
	nclusters=$((nclusters + 1))
	npods=$((npods + $(grep -c '^task ' "$tmp/local")))
	npgs=$((npgs + $(grep -c . "$tmp/apipgs" || :)))
	npending=$((npending + $(pending_pods | grep -c . || :)))
	stop vk_pid
	stop vs_pid
	stop api_pid
	rm -rf "$tmp/cache" "$tmp/port"
	: >"$tmp/vskube.log"
	: >"$tmp/vschedd.log"
done
echo "vskube-e2e: $nclusters clusters, $npods pods made with kubectl: bound and evicted by vskube" \
	"as vsctl scenario run decides; $npgs PodGroups' phases written, $npending pending pods told why"
[ "$npgs" -gt 0 ] && [ "$npending" -gt 0 ] || fail "the clusters left no PodGroup or no pending pod to check"

# ---- part 2: what goes wrong ----
cat >"$tmp/conf" <<EOF
actions: "enqueue, allocate, backfill"
tiers:
- plugins:
  - name: priority
  - name: gang
- plugins:
  - name: predicates
  - name: proportion
  - name: nodeorder
EOF

# A pod NAME for the default queue, in a PodGroup of its own (the bridge makes it).
pod() {
	cat <<EOF
apiVersion: v1
kind: Pod
metadata: {name: $1, namespace: default}
spec:
  schedulerName: volcano
  containers: [{name: c, image: busybox, resources: {requests: {cpu: 100m, memory: 64Mi}}}]
---
EOF
}

# The pod's node in the API server ("" while none).
node_of() {
	k get pod "$1" -o jsonpath='{.spec.nodeName}'
}

bound() {
	[ -n "$(node_of "$1")" ]
}

start_api
start_vschedd "$tmp/conf" 100ms
start_vskube
cat >"$tmp/cluster.yaml" <<EOF
apiVersion: scheduling.volcano.sh/v1beta1
kind: Queue
metadata: {name: default}
spec: {weight: 1}
---
apiVersion: v1
kind: Node
metadata: {name: w1}
status:
  allocatable: {cpu: "8", memory: 16Gi, pods: "110"}
  conditions: [{type: Ready, status: "True"}]
---
EOF
pod a1 >>"$tmp/cluster.yaml"
k create -f "$tmp/cluster.yaml" >"$tmp/out" 2>&1 || fail "kubectl create -f cluster.yaml"
until_ok bound a1 || fail "a pod made with kubectl was not bound"
log_requests

curl -fsS -X POST "$base/__test/drop-watches" >"$tmp/out" 2>&1 || fail "drop-watches"
pod a2 | k create -f - >"$tmp/out" 2>&1 || fail "kubectl create a2"
until_ok bound a2 || fail "a pod made after the watches were dropped was not bound"

curl -fsS -X POST "$base/__test/compact" >"$tmp/out" 2>&1 || fail "compact"
curl -fsS -X POST "$base/__test/drop-watches" >"$tmp/out" 2>&1 || fail "drop-watches"
pod a3 | k create -f - >"$tmp/out" 2>&1 || fail "kubectl create a3"
until_ok bound a3 || fail "a pod made after a 410 Gone was not bound"

curl -fsS -X POST "$base/__test/fail-bindings?count=1&code=500&message=etcd%20is%20slow" \
	>"$tmp/out" 2>&1 || fail "fail-bindings"
pod a4 | k create -f - >"$tmp/out" 2>&1 || fail "kubectl create a4"
until_ok grep -q "Failed to bind pod <default/a4> to node <w1>: etcd is slow" "$tmp/vskube.log" ||
	fail "the refused binding was not seen"
until_ok grep -q "default/a4.*etcd is slow.*back to Pending" "$tmp/vschedd.log" ||
	fail "vschedd did not put a4 back to Pending with the API server's message"
until_ok bound a4 || fail "a pod whose binding failed was not bound again"
log_requests

stop vk_pid
pod a5 | k create -f - >"$tmp/out" 2>&1 || fail "kubectl create a5"
start_vskube
until_ok bound a5 || fail "a pod made while the bridge was down was not bound"

stop vs_pid
start_vschedd "$tmp/conf" 100ms
pod a6 | k create -f - >"$tmp/out" 2>&1 || fail "kubectl create a6"
until_ok bound a6 || fail "a pod made after vschedd restarted was not bound"
until_ok test "$("$vsctl" task list -A -j | grep -c '"name"')" -eq 6 ||
	fail "the restarted vschedd was not given the six pods"
for p in a1 a2 a3 a4 a5; do
	[ "$(node_of $p)" = w1 ] || fail "$p moved"
done
port=$(sed -n 's/.*serving \/metrics, \/healthz and \/readyz on port \([0-9]*\)$/\1/p' \
	"$tmp/vskube.log" | tail -n 1)
[ -n "$port" ] || fail "vskube said no metrics port"
curl -fsS "http://127.0.0.1:$port/metrics" >"$tmp/metrics" 2>&1 || fail "GET /metrics"
# this vskube (started again for a5) bound a5 and a6, and loaded vschedd twice
for want in 'vskube_leader 1' 'vskube_synced 1' 'vskube_loads_total 2' \
	'vskube_binds_total{result="success"} 2' 'vskube_binds_total{result="error"} 0'; do
	grep -qxF "$want" "$tmp/metrics" || { cp "$tmp/metrics" "$tmp/out"; fail "/metrics: no $want"; }
done
# and beside its own, the scheduler's under Volcano's names: the restarted
# vschedd placed a6 alone, in cycles it timed
for want in 'volcano_schedule_attempts_total{result="scheduled"} 1' \
	'volcano_queue_weight{queue_name="default"} 1' \
	'# TYPE volcano_e2e_scheduling_latency_milliseconds histogram' \
	'vskube_scheduler_metrics_failures_total 0'; do
	grep -qxF "$want" "$tmp/metrics" || { cp "$tmp/metrics" "$tmp/out"; fail "/metrics: no $want"; }
done
grep -q '^volcano_e2e_scheduling_latency_milliseconds_count [1-9]' "$tmp/metrics" &&
	grep -q '^volcano_action_scheduling_latency_milliseconds_bucket{action="allocate",le="+Inf"} [1-9]' \
		"$tmp/metrics" || { cp "$tmp/metrics" "$tmp/out"; fail "/metrics: no cycle observed"; }
# A vschedd that does not answer costs a scrape its families, not the scrape.
kill -STOP "$vs_pid"
rc=0
curl -fsS -m 20 "http://127.0.0.1:$port/metrics" >"$tmp/metrics" 2>&1 || rc=$?
kill -CONT "$vs_pid"
[ $rc -eq 0 ] || { cp "$tmp/metrics" "$tmp/out"; fail "GET /metrics while vschedd was stopped"; }
grep -qxF 'vskube_leader 1' "$tmp/metrics" && ! grep -q '^volcano_' "$tmp/metrics" ||
	{ cp "$tmp/metrics" "$tmp/out"; fail "/metrics while vschedd was stopped"; }
grep -q "/metrics without the scheduler's metrics: vschedd did not answer within 2000 ms" \
	"$tmp/vskube.log" || { cp "$tmp/vskube.log" "$tmp/out"; fail "vskube did not say why"; }
curl -fsS "http://127.0.0.1:$port/metrics" >"$tmp/metrics" 2>&1 || fail "GET /metrics"
grep -qxF 'vskube_scheduler_metrics_failures_total 1' "$tmp/metrics" &&
	grep -q '^volcano_e2e_scheduling_latency_milliseconds_count [1-9]' "$tmp/metrics" ||
	{ cp "$tmp/metrics" "$tmp/out"; fail "/metrics after vschedd went on"; }
[ "$(curl -fsS "http://127.0.0.1:$port/healthz")" = ok ] || fail "/healthz is not ok"
[ "$(curl -fsS "http://127.0.0.1:$port/readyz")" = ok ] || fail "/readyz is not ok"
log_requests
echo "vskube-e2e: watches dropped, a 410, a failed binding, a bridge and a vschedd restarted:" \
	"every pod bound once; /metrics counts it, the scheduler's metrics with it"

# Statuses and Events, in Volcano's words: a gang of two pods that ask for
# a label no node has waits, then runs once the node gets it.
cat >"$tmp/gang.yaml" <<EOF
apiVersion: scheduling.volcano.sh/v1beta1
kind: PodGroup
metadata: {name: gang, namespace: default}
spec: {minMember: 2, queue: default}
---
EOF
for p in g1 g2; do
	cat >>"$tmp/gang.yaml" <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: $p
  namespace: default
  annotations: {scheduling.k8s.io/group-name: gang}
spec:
  schedulerName: volcano
  nodeSelector: {disk: ssd}
  containers: [{name: c, image: busybox, resources: {requests: {cpu: 100m, memory: 64Mi}}}]
---
EOF
done
k create -f "$tmp/gang.yaml" >"$tmp/out" 2>&1 || fail "kubectl create -f gang.yaml"
nomatch="0/1 nodes are unavailable: 1 node(s) didn't match Pod's node affinity/selector."
# $3, a jsonpath, of the object $2 of kind $1; whether it is $4
jp() {
	k get "$1" "$2" -o jsonpath="$3"
}
jp_is() {
	[ "$(jp "$1" "$2" "$3")" = "$4" ]
}
# g1 is refused by the node; allocate stops at it, so g2 is told the gang's FitError
jobfit="pod group is not ready, 2 Pending, 2 minAvailable; Pending: 2 Unschedulable."
jobfit="$jobfit Origin reason is g1: $nomatch"
sched='{.status.conditions[?(@.type=="PodScheduled")]'
for pw in "g1 $nomatch" "g2 $jobfit"; do
	p=${pw%% *}
	until_ok jp_is pod $p "$sched.message}" "${pw#* }" ||
		fail "$p: PodScheduled is $(jp pod $p "$sched}")"
	jp_is pod $p "$sched.status} $sched.reason}" "False Unschedulable" ||
		fail "$p: PodScheduled is $(jp pod $p "$sched}")"
done
until_ok jp_is podgroup gang '{.status.phase}' Inqueue ||
	fail "gang: phase $(jp podgroup gang '{.status.phase}')"
jp_is podgroup gang '{.status.conditions[?(@.type=="Unschedulable")].reason}' NotEnoughResources ||
	fail "gang: conditions $(jp podgroup gang '{.status.conditions}')"
# FailedScheduling on each pod, found by its uid as kubectl describe finds it
events_of() {
	k get events --field-selector "$1" \
		-o jsonpath='{range .items[*]}{.type} {.reason} {.message}{"\n"}{end}'
}
# whether one of them is $2: a cycle that ran while the gang's pods were
# still arriving told what it saw then ("0/0 tasks in gang ..."), as
# Volcano's would, before the cycle this test waits for
events_are() {
	events_of "$1" | grep -qxF "$2"
}
for pw in "g1 $nomatch" "g2 $jobfit"; do
	p=${pw%% *}
	uid=$(jp pod $p '{.metadata.uid}')
	until_ok events_are "involvedObject.uid=$uid" "Warning FailedScheduling ${pw#* }" ||
		fail "$p: the Events are: $(events_of "involvedObject.uid=$uid")"
done
k describe pod g1 >"$tmp/out" 2>&1 && grep -q "FailedScheduling" "$tmp/out" ||
	fail "kubectl describe pod g1 shows no FailedScheduling"
gangmsg="2/2 tasks in gang unschedulable: $jobfit"
sel=involvedObject.kind=PodGroup,involvedObject.name=gang
until_ok events_are "$sel" "Warning Unschedulable $gangmsg" ||
	fail "gang: the Events are: $(events_of "$sel")"
k label node w1 disk=ssd >"$tmp/out" 2>&1 || fail "kubectl label node"
until_ok bound g1 || fail "g1 was not bound once its node was labelled"
until_ok bound g2 || fail "g2 was not bound once its node was labelled"
until_ok jp_is podgroup gang '{.status.phase}' Running ||
	fail "gang: phase $(jp podgroup gang '{.status.phase}')"
until_ok events_are "$sel,reason=Scheduled" "Normal Scheduled pod group is ready" ||
	fail "gang: the Events are: $(events_of "$sel,reason=Scheduled")"
# the queue's allocated: eight pods of 100m and 64Mi
until_ok jp_is queue default '{.status.allocated.cpu} {.status.allocated.memory} {.status.allocated.pods}' \
	"800m 512Mi 8" || fail "queue default: allocated $(jp queue default '{.status.allocated}')"
curl -fsS "http://127.0.0.1:$port/metrics" >"$tmp/metrics" 2>&1 || fail "GET /metrics"
grep -q '^vskube_status_writes_total{kind="pod"} [1-9]' "$tmp/metrics" &&
	grep -q '^vskube_events_total [1-9]' "$tmp/metrics" ||
	{ cp "$tmp/metrics" "$tmp/out"; fail "/metrics counts no status write or Event"; }
log_requests

# A bridge started again loads vschedd, which tells every status anew: the
# PodGroups vsched made for the bare pods a1..a6, which the API server does
# not have, are not written (no PATCH answered 404), nor are the pods,
# bound already, nor is the gang: vschedd took its conditions from the
# API server with it, and its status is the one the API server has.
mark=$(curl -fsS "$base/__test/requests" | jq .last)
stop vk_pid
start_vskube
synced_again() {
	port=$(sed -n 's/.*serving \/metrics, \/healthz and \/readyz on port \([0-9]*\)$/\1/p' \
		"$tmp/vskube.log" | tail -n 1)
	curl -fsS "http://127.0.0.1:$port/metrics" >"$tmp/metrics" &&
		grep -qxF 'vskube_status_writes_skipped_total{why="absent"} 6' "$tmp/metrics"
}
until_ok synced_again ||
	{ grep "vskube_status" "$tmp/metrics" >"$tmp/out"; fail "the restarted bridge skipped nothing"; }
sleep 0.5
curl -fsS "$base/__test/requests?since=$mark" >"$tmp/requests.json" || fail "GET /__test/requests"
jq -r '.requests[] | select(.userAgent | startswith("vskube/")) |
	select(.method == "PATCH") | "\(.method) \(.path) \(.code)"' "$tmp/requests.json" |
	grep -v '/queues/default/status 200$' >"$tmp/out" || :
[ ! -s "$tmp/out" ] || fail "the restarted bridge wrote statuses it should not have"
since=$mark
log_requests
echo "vskube-e2e: a waiting gang: its pods' PodScheduled, the PodGroup's status, their Events and" \
	"the queue's allocated are written in Volcano's words; a bridge restarted writes no PodGroup the API lacks"

# ---- part 3: leader election ----
stop vk_pid
elect() {
	"$objtree/vskube" --kubeconfig "$tmp/kubeconfig" --socket "$tmp/vs.sock" -v 3 \
		--listen-address "" --leader-elect --leader-elect-resource-namespace default \
		--leader-elect-lease-duration 1s --leader-elect-renew-deadline 600ms \
		--leader-elect-retry-period 150ms >"$tmp/$1.log" 2>&1 &
}
elect A
pa=$!
elect B
pb=$!
leads() {
	grep -q "successfully acquired lease" "$tmp/$1.log"
}
until_ok sh -c "grep -q 'successfully acquired lease' $tmp/A.log $tmp/B.log" || fail "nobody leads"
if leads A; then lead=A; lpid=$pa; other=B; opid=$pb; else lead=B; lpid=$pb; other=A; opid=$pa; fi
pod l1 | k create -f - >"$tmp/out" 2>&1 || fail "kubectl create l1"
until_ok bound l1 || fail "the leader did not bind l1"
grep -q "Bound pod <default/l1>" "$tmp/$lead.log" || fail "l1 was not bound by the leader"
! leads $other || fail "two leaders"
! grep -q "connected to vschedd\|Bound pod" "$tmp/$other.log" ||
	fail "the standby wrote: $(grep 'connected to vschedd\|Bound pod' "$tmp/$other.log")"
kill -TERM "$lpid"
wait "$lpid" 2>/dev/null || :
until_ok leads $other || fail "the standby did not take over"
pod l2 | k create -f - >"$tmp/out" 2>&1 || fail "kubectl create l2"
until_ok bound l2 || fail "the new leader did not bind l2"
grep -q "Bound pod <default/l2>" "$tmp/$other.log" || fail "l2 was not bound by the new leader"
! grep -q "Bound pod <default/l2>" "$tmp/$lead.log" || fail "the old leader bound l2"
! grep -q "Bound pod <default/l1>" "$tmp/$other.log" || fail "the new leader bound l1 again"
kill -TERM "$opid"
wait "$opid" 2>/dev/null || :
echo "vskube-e2e: two bridges on one Lease: one leads and binds, the other takes over when it stops"
log_requests

# ---- the ClusterRole of deploy/vsched.yaml is what vskube asked for ----
sort -u "$tmp/asked" >"$tmp/asked.sorted"
granted >"$tmp/granted"
[ -s "$tmp/granted" ] || fail "no rule read from deploy/vsched.yaml"
comm -23 "$tmp/asked.sorted" "$tmp/granted" >"$tmp/out"
[ ! -s "$tmp/out" ] || fail "vskube asked for what deploy/vsched.yaml does not grant"
# granted and not asked here: deleting a pod whose eviction the API refuses (kapiserver never does)
comm -13 "$tmp/asked.sorted" "$tmp/granted" >"$tmp/out"
[ "$(cat "$tmp/out")" = 'delete "" pods' ] ||
	fail "deploy/vsched.yaml grants what vskube never asked for"
# the ConfigMap's volcano-scheduler.conf is one vschedd takes
sed -n '/^  volcano-scheduler.conf: |$/,$p' "$top/../deploy/volcano-scheduler-configmap.yaml" |
	sed '1d; s/^    //' >"$tmp/deploy.conf"
[ -s "$tmp/deploy.conf" ] || fail "no volcano-scheduler.conf in the ConfigMap"
"$vsctl" conf check "$tmp/deploy.conf" >"$tmp/out" 2>&1 ||
	fail "the ConfigMap's volcano-scheduler.conf is refused"
echo "vskube-e2e: deploy/vsched.yaml grants exactly the $(grep -c . "$tmp/granted") permissions" \
	"vskube used (deleting a pod whose eviction is refused aside)"
