#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# vskube end to end against the real kube-apiserver (selftests/real-apiserver.sh:
# kube-apiserver, etcd and kubectl of the release pinned in selftests/peers/go.mod,
# built by make peers), started once for the whole script, a vschedd and the
# bridge between them, the clusters made with that kubectl. The bridge speaks
# TLS verified against the server's CA, and has exactly the ClusterRole of
# deploy/vsched.yaml: as its ServiceAccount (a token from the TokenRequest
# API, "kubectl create token") and as a user of a client certificate bound to
# the same role. RBAC refuses what the role does not grant.
#
# Part 1, the same decisions: each cluster of selftests/equivalence/ is
# created with kubectl (and, as a kubelet would, the pods' statuses the
# manifests give are put through the status subresource; the PodGroups'
# are theirs from the create: Volcano's CRD has no status subresource).
# The bridge watches every other cluster being made, and lists the others
# once made. vschedd must take the objects in the order they were made:
# the API server stamps their creation to the second, and a list comes in
# name order, so where the manifest's order is not the name order the
# next object waits for the next second. Once vschedd holds the scenario's
# starting state, its cycles are run ("vsctl cycle run", vschedd on
# --period 0); after each, the bridge's bindings and evictions are waited
# for, this script deleting the pods an eviction left terminating, as
# their kubelet would (a PodDisruptionBudget refuses the evictions of one
# cluster: the bridge deletes those pods). Then the API server's pods
# (their spec.nodeName, and which are gone) must be what "vsctl scenario
# run" decides in-process, and the PodGroups' phases, the pending pods'
# PodScheduled conditions and Events, and the preemptors' nominated nodes
# are in the API server.
#
# Part 2, what goes wrong: pods made with kubectl on a cluster that cycles
# by itself are bound; so are pods made after kube-apiserver restarted
# (every watch cut), and after etcd was compacted and kube-apiserver
# restarted again (410 Gone: the bridge lists again); a bridge restarted,
# and a vschedd restarted, lose nothing; /metrics and /healthz answer.
# HyperNodes made, changed and deleted with kubectl are in vschedd as they
# are in the API server (vsctl hypernode show). A
# gang that waits for a node label gets Volcano's exact texts in its pods'
# conditions and Events and its PodGroup's status and Event, then runs,
# and the queue's allocated is written. Under two leaves of a spine, a
# PodGroup with networkTopology {mode: hard, highestTierAllowed: 1} (kept
# by the API server: the PodGroup CRD make peers writes from
# volcano.sh/apis) is bound within one leaf, and one of three pods, which
# no leaf holds, stays Pending with nothing bound. A pod with a scheduling
# gate waits while another takes its node's hostPort; once kubectl removes
# the gate it is told the port is held, and is bound when that pod is gone.
#
# Part 3, two bridges with leader election on the Lease of deploy/vsched.yaml:
# only the leader connects to vschedd and binds; when it stops it lets go
# of the Lease, and the other takes over and binds what comes next.
#
# Then kube-apiserver's audit log tells what the bridge asked: nothing was
# refused, and it asked for every permission the ClusterRole grants. Last,
# the role without its binding rule: the bridge's binding is refused.
#
# Faults a real server cannot be made to produce are in vskube-faults.sh
# (the test API server, selftests/kube/kapiserver).
#
# Usage: selftests/vskube-e2e.sh OBJTREE selftests [PEERS]
#   PEERS: where make peers put kube-apiserver, kubectl, etcd-embed and the
#   CRDs (default: go/peers of the source tree). Logs are kept on failure.
set -eu
me=vskube-e2e
objtree=$1
top=$2
srctree=$(cd "$top/.." && pwd)
peers=${3:-$srctree/go/peers}
dir=$top/equivalence
vsctl=$objtree/vsctl
launcher=$top/real-apiserver.sh
tmp=$(mktemp -d /tmp/vskube-e2e-XXXXXX)
api=$tmp/api
vs_pid=
vk_pid=
pa=
pb=
holder=
keep=
t_start=$(date +%s)

for f in kube-apiserver kubectl etcd-embed crd/.volcano crd/.apis; do
	if [ ! -e "$peers/$f" ]; then
		echo "vskube-e2e: FAIL: no $peers/$f: run 'make peers' first" >&2
		rmdir "$tmp"
		exit 1
	fi
done
peers=$(cd "$peers" && pwd)
# The servers through a directory of links, etcd-embed through a script that
# waits a second before it becomes etcd-embed: the launcher must take a child
# it looks at before its exec for a live one (it once took it for dead).
mkdir "$tmp/peers"
for f in kube-apiserver kubectl crd; do
	ln -s "$peers/$f" "$tmp/peers/$f"
done
cat >"$tmp/peers/etcd-embed" <<SLOW
#!/bin/sh
exec env E="$peers/etcd-embed" sh -c 'sleep 1; exec "\$E" "\$@"' sh "\$@"
SLOW
chmod +x "$tmp/peers/etcd-embed"
peers=$tmp/peers
# kubectl of the pinned release, never the machine's
PATH=$peers:$PATH
export PATH

cleanup() {
	stop pa
	stop pb
	stop vk_pid
	stop vs_pid
	stop holder
	"$launcher" stop "$api" >/dev/null 2>&1 || :
	if [ -n "$keep" ]; then
		echo "vskube-e2e: logs kept in $tmp (api/: the servers' logs and audit.log)" >&2
	else
		rm -rf "$tmp"
	fi
}
trap cleanup EXIT
trap 'exit 1' INT TERM
. "$dir/lib.sh"
. "$top/vskube-lib.sh"

# A loopback port another process listens on, given to the launcher as the
# first to try: kube-apiserver exits for want of it, and the launcher starts
# it again on a port it picks (a port taken between the pick and the bind
# once failed the whole run).
python3 -c 'import socket, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen()
print(s.getsockname()[1], flush=True); time.sleep(900)' >"$tmp/held" &
holder=$!
until [ -s "$tmp/held" ]; do
	kill -0 "$holder" 2>/dev/null || fail "the port holder exited"
	sleep 0.1
done
held=$(cat "$tmp/held")
APISERVER_PORTS=$held "$launcher" start "$api" "$peers" >"$tmp/out" 2>&1 ||
	fail "the real API server did not start"
stop holder
. "$api/env"
[ "$PORT" != "$held" ] || fail "kube-apiserver is on $held, the port another process held"
grep -q "kube-apiserver exited: a port of its was taken" "$api/real-apiserver.log" ||
	fail "the launcher did not say kube-apiserver lost port $held"
[ "$(command -v kubectl)" = "$KUBECTL" ] || fail "kubectl is $(command -v kubectl), not $KUBECTL"

k() {
	kubectl --kubeconfig "$ADMIN_KUBECONFIG" --cache-dir "$tmp/cache" --request-timeout 20s "$@"
}

# ---- the bridge's identities: deploy/vsched.yaml's ServiceAccount and role ----
# The documents of deploy/vsched.yaml of the kinds @...
deploy_docs() {
	awk -v kinds=" $* " '
		function flush() { if (index(kinds, " " kind " ")) printf "%s---\n", doc; doc = ""; kind = "" }
		/^---/ { flush(); next }
		/^kind: / { kind = $2 }
		{ doc = doc $0 "\n" }
		END { flush() }
	' "$srctree/deploy/vsched.yaml"
}
sa_ns=$(deploy_docs ServiceAccount | sed -n 's/^  namespace: *//p')
sa_name=$(deploy_docs ServiceAccount | sed -n 's/^  name: *//p')
[ -n "$sa_ns" ] && [ -n "$sa_name" ] || fail "no ServiceAccount in deploy/vsched.yaml"
k create namespace "$sa_ns" >"$tmp/out" 2>&1 || fail "kubectl create namespace $sa_ns"
deploy_docs ServiceAccount ClusterRole ClusterRoleBinding >"$tmp/rbac.yaml"
k apply -f "$tmp/rbac.yaml" >"$tmp/out" 2>&1 || fail "kubectl apply the RBAC of deploy/vsched.yaml"
role=$(deploy_docs ClusterRole | sed -n 's/^  name: *//p')
# the client certificate's user gets the same role
k create clusterrolebinding vsched-bridge-cert --clusterrole="$role" --user="$CERT_USER" \
	>"$tmp/out" 2>&1 || fail "kubectl create clusterrolebinding"
sa_user=system:serviceaccount:$sa_ns:$sa_name
# The ServiceAccount's token, from the TokenRequest API; the bridge reads it from a file.
k create token "$sa_name" -n "$sa_ns" --duration 2h >"$tmp/sa.token" 2>"$tmp/out" ||
	fail "kubectl create token $sa_name"
cat >"$tmp/sa.kubeconfig" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: real
  cluster: {server: "$SERVER", certificate-authority: "$CA"}
users:
- name: vsched
  user: {tokenFile: "$tmp/sa.token"}
contexts:
- name: real
  context: {cluster: real, user: vsched}
current-context: real
EOF
# RBAC's informer sees the bindings a moment after they are made.
for kc in "$tmp/sa.kubeconfig" "$CERT_KUBECONFIG"; do
	until_ok sh -c "[ \"\$(kubectl --kubeconfig '$kc' auth can-i create pods --subresource=binding)\" = yes ]" ||
		fail "$kc: the role is not granted"
done
[ "$(kubectl --kubeconfig "$tmp/sa.kubeconfig" auth can-i create pods 2>/dev/null)" = no ] ||
	fail "the ServiceAccount may create pods: the role grants more than deploy/vsched.yaml says"

# vschedd with the configuration @1 and the period @2.
start_vschedd() {
	rm -f "$tmp/vs.sock"
	"$objtree/vschedd" --socket "$tmp/vs.sock" --conf "$1" --period "$2" --self-check -v 1 \
		>>"$tmp/vschedd.log" 2>&1 &
	vs_pid=$!
	until_ok test -S "$tmp/vs.sock" || fail "vschedd did not start"
}

# The bridge, as the identity of the kubeconfig @1.
start_vskube() {
	"$objtree/vskube" --kubeconfig "$1" --socket "$tmp/vs.sock" -v 3 \
		--listen-address 127.0.0.1:0 >>"$tmp/vskube.log" 2>&1 &
	vk_pid=$!
}

export VSCHED_SOCKET="$tmp/vs.sock"

# The documents of @1 whose status the API server drops on create (pods,
# Queues): for the status subresource.
with_status() {
	awk '
		function flush() { if (has && kind != "Node" && kind != "PodGroup") printf "%s---\n", doc
			doc = ""; has = 0; kind = "" }
		/^---/ { flush(); next }
		/^kind: / { kind = $2 }
		/^status:/ { has = 1 }
		{ doc = doc $0 "\n" }
		END { flush() }
	' "$1"
}

# The Namespaces @1 names that the API server does not have yet.
namespaces_of() {
	k get namespaces -o name | sed 's|^namespace/||' >"$tmp/have-ns"
	sed -n 's/^ *namespace: *\([a-z0-9-]*\) *$/\1/p' "$1" | sort -u |
		while read -r ns; do
			grep -qxF "$ns" "$tmp/have-ns" ||
				printf 'apiVersion: v1\nkind: Namespace\nmetadata: {name: %s}\n---\n' "$ns"
		done
}

# Create the objects of @1 in its order, so that the order vschedd takes
# them in is the manifest's however the bridge learns of them: creation
# times are whole seconds and a list is in name order, so an object whose
# name sorts before one of its kind made in the same second waits for the
# next second. The manifest is cut there into $tmp/batch.N.yaml.
create_in_order() {
	rm -f "$tmp"/batch.*.yaml
	awk -v out="$tmp/batch" '
		function flush(    key) {
			if (kind != "") {
				key = ns "/" name
				if (kind in last && last[kind] > key) { n++; delete last }
				last[kind] = key
				printf "%s---\n", doc >(out "." n ".yaml")
			}
			doc = ""; kind = ""; ns = ""; name = ""
		}
		BEGIN { n = 1 }
		/^---/ { flush(); next }
		/^kind: / { kind = $2 }
		/^  name: / { name = $2 }
		/^  namespace: / { ns = $2 }
		{ doc = doc $0 "\n" }
		END { flush() }
	' "$1"
	b=1
	while [ -e "$tmp/batch.$b.yaml" ]; do
		if [ "$b" -gt 1 ]; then
			# the API server shares this clock: sleep past the second
			ns_now=$(date +%N)
			sleep "$(awk -v n="$ns_now" 'BEGIN { printf "%.3f", (1e9 - n) / 1e9 + 0.02 }')"
		fi
		k create -f "$tmp/batch.$b.yaml" >"$tmp/out" 2>&1 ||
			fail "kubectl create -f $tmp/batch.$b.yaml (of $1)"
		b=$((b + 1))
	done
	nbatches=$((nbatches + b - 1))
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

# What the kubelets would do: a pod being deleted (evicted) is gone.
kubelet() {
	k get pods -A -o jsonpath='{range .items[?(@.metadata.deletionTimestamp)]}{.metadata.namespace} {.metadata.name}{"\n"}{end}' |
		while read -r ns p; do
			k delete pod -n "$ns" "$p" --force --grace-period=0 --wait=false >/dev/null 2>&1 || :
		done
}

# Nothing waits for the bridge: no task Binding (its result) or Releasing (its pod going).
settled() {
	kubelet
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

# Each node vschedd nominated for a pod (a preemptor pipelined where its
# victims leave) is the pod's status.nominatedNodeName; their number is
# added to $tmp/nnominated.
nominations_written() {
	daemon_now >/dev/null || return 1
	jq -r '.[] | select(.nominatedNodeName) | "\(.namespace) \(.name) \(.nominatedNodeName)"' \
		"$tmp/tasks.json" >"$tmp/nominated" || return 1
	while read -r ns p want; do
		got=$(k get pod -n "$ns" "$p" -o jsonpath='{.status.nominatedNodeName}')
		[ "$got" = "$want" ] || { echo "pod $ns/$p: nominatedNodeName \"$got\", not $want"; return 1; }
	done <"$tmp/nominated"
}

# A PodDisruptionBudget no disruption controller ever computes: the API
# server refuses (429) every eviction of the pods of namespace @1 labelled
# vsched.dev/no-eviction, and the bridge deletes them instead.
no_evictions_in() {
	k create -f - <<EOF
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: no-evictions, namespace: $1}
spec:
  maxUnavailable: 0
  selector: {matchLabels: {vsched.dev/no-eviction: "1"}}
EOF
}

# ---- part 1: the same decisions as the scenarios ----
set -- "$dir"/*.scenario.yaml
[ -e "$1" ] || fail "no scenario in $dir"
nclusters=0
npods=0
npgs=0
npending=0
nnominated=0
nbatches=0
nrefused=0
for scn in "$@"; do
	name=$(basename "$scn" .scenario.yaml)
	man=$dir/$name.manifests.yaml
	conf_of "$scn" >"$tmp/conf"
	"$vsctl" scenario run -v "$scn" >"$tmp/run" 2>&1 ||
		{ cp "$tmp/run" "$tmp/out"; fail "$name: the scenario fails in-process"; }
	local_state "$scn" "$tmp/run" | awk '$1 == "task" { print $1, $2, $3 }' | sort >"$tmp/local"

	start_vschedd "$tmp/conf" 0
	# every other cluster is watched being made; the others, listed once made
	[ $((nclusters % 2)) -eq 0 ] || start_vskube "$CERT_KUBECONFIG"
	namespaces_of "$man" >"$tmp/ns.yaml"
	if [ -s "$tmp/ns.yaml" ]; then
		k create -f "$tmp/ns.yaml" >"$tmp/out" 2>&1 || fail "$name: the namespaces"
	fi
	create_in_order "$man"
	with_status "$man" >"$tmp/status.yaml"
	if [ -s "$tmp/status.yaml" ]; then
		k replace --subresource=status -f "$tmp/status.yaml" >"$tmp/out" 2>&1 ||
			fail "$name: kubectl replace --subresource=status"
	fi
	# the first pod the scenario evicts: its eviction is refused
	victim=$(sed -n 's/^    evicts: \([^ ,]*\).*/\1/p' "$tmp/run")
	if [ -n "$victim" ] && [ "$victim" != none ]; then
		pdb_ns=${victim%%/*}
		k label pod -n "$pdb_ns" "${victim#*/}" vsched.dev/no-eviction=1 >"$tmp/out" 2>&1 &&
			no_evictions_in "$pdb_ns" >"$tmp/out" 2>&1 || fail "$name: the PodDisruptionBudget"
		nrefused=$((nrefused + 1))
	else
		pdb_ns=
	fi
	[ $((nclusters % 2)) -eq 1 ] || start_vskube "$CERT_KUBECONFIG"
	{ pods_of "$scn"; podgroups_of "$scn"; } | sort >"$tmp/want"
	until_ok daemon_is ||
		{ diff -u "$tmp/want" "$tmp/have" >"$tmp/out" || :; fail "$name: vschedd never held the cluster"; }

	n=$(cycles_of "$scn")
	c=0
	while [ "$c" -lt "$n" ]; do
		"$vsctl" cycle run >"$tmp/out" 2>&1 || fail "$name: vsctl cycle run"
		until_ok settled || fail "$name: the bridge left binds or evictions undone"
		c=$((c + 1))
	done
	api_pods >"$tmp/apipods"
	diff -u "$tmp/local" "$tmp/apipods" >"$tmp/out" ||
		fail "$name: the pods in the API server are not where vsctl scenario run puts them"
	grep -q "Bound pod" "$tmp/vskube.log" || fail "$name: the bridge bound nothing"
	until_ok podgroups_written ||
		{ diff -u "$tmp/pgs" "$tmp/apipgs" >"$tmp/out" || :; fail "$name: PodGroup phases not written"; }
	until_ok conditions_written ||
		{ conditions_written >"$tmp/out" 2>&1 || :; fail "$name: pending pods' conditions not written"; }
	until_ok nominations_written ||
		{ nominations_written >"$tmp/out" 2>&1 || :; fail "$name: nominated nodes not written"; }
	nnominated=$((nnominated + $(grep -c . "$tmp/nominated" || :)))
	nclusters=$((nclusters + 1))
	npods=$((npods + $(grep -c '^task ' "$tmp/local")))
	npgs=$((npgs + $(grep -c . "$tmp/apipgs" || :)))
	npending=$((npending + $(pending_pods | grep -c . || :)))
	stop vk_pid
	stop vs_pid
	# the next cluster starts from nothing (the namespaces stay)
	k delete -f "$man" --force --grace-period=0 --ignore-not-found >"$tmp/out" 2>&1 ||
		fail "$name: kubectl delete -f $man"
	[ -z "$pdb_ns" ] || k delete pdb no-evictions -n "$pdb_ns" >"$tmp/out" 2>&1 ||
		fail "$name: kubectl delete pdb"
	k delete events --all -A >"$tmp/out" 2>&1 || fail "$name: kubectl delete events"
	[ -z "$(k get pods,podgroups -A -o name)" ] || fail "$name: objects left after the delete"
	rm -rf "$tmp/cache"
	: >"$tmp/vskube.log"
	: >"$tmp/vschedd.log"
done
echo "vskube-e2e: $nclusters clusters, $npods pods made with kubectl ($nbatches creates in order):" \
	"bound and evicted by vskube as vsctl scenario run decides; $npgs PodGroups' phases written," \
	"$npending pending pods told why, $nnominated preemptors' nominated nodes written"
[ "$npgs" -gt 0 ] && [ "$npending" -gt 0 ] && [ "$nnominated" -gt 0 ] ||
	fail "the clusters left no PodGroup, no pending pod or no nominated node to check"

# ---- part 2: what goes wrong ----
cycling_conf >"$tmp/conf"

# The pod's node in the API server ("" while none).
node_of() {
	k get pod "$1" -o jsonpath='{.spec.nodeName}'
}

# The bridge's requests in kube-apiserver's audit log, after its line @1:
# "VERB GROUP RESOURCE[/SUBRESOURCE] CODE NAME ID" (GROUP "" for the core),
# once each (a watch is logged as it starts and as it ends).
asked_since() {
	tail -n +"$(($1 + 1))" "$api/audit.log" | jq -r --arg sa "$sa_user" --arg cert "$CERT_USER" '
		select(.stage == "ResponseComplete" or .stage == "ResponseStarted") |
		select(.user.username == $sa or .user.username == $cert) |
		select(.userAgent // "" | startswith("vskube/")) |
		select(.objectRef != null) |
		"\(.verb) \(.objectRef.apiGroup // "\"\"") \(.objectRef.resource)\(
			if .objectRef.subresource then "/" + .objectRef.subresource else "" end) \(
			.responseStatus.code) \(.objectRef.name // "-") \(.auditID)"' |
		awk '!seen[$NF]++'
}

audit_lines() {
	wc -l <"$api/audit.log"
}

: >"$tmp/vskube.log"
start_vschedd "$tmp/conf" 100ms
start_vskube "$tmp/sa.kubeconfig"
one_node_cluster a1 >"$tmp/cluster.yaml"
k create -f "$tmp/cluster.yaml" >"$tmp/out" 2>&1 || fail "kubectl create -f cluster.yaml"
until_ok bound a1 || fail "a pod made with kubectl was not bound"

# every watch cut: kube-apiserver stops and starts again
"$launcher" restart-apiserver "$api" >"$tmp/out" 2>&1 || fail "restart-apiserver"
pod a2 | k create -f - >"$tmp/out" 2>&1 || fail "kubectl create a2"
until_ok bound a2 || fail "a pod made after kube-apiserver restarted was not bound"

# 410 Gone: etcd moved on and compacted while the watches were cut, so
# the restarted watch cache has nothing from before: the bridge lists again
mark=$(audit_lines)
"$launcher" restart-apiserver "$api" compact >"$tmp/out" 2>&1 || fail "restart-apiserver compact"
pod a3 | k create -f - >"$tmp/out" 2>&1 || fail "kubectl create a3"
until_ok bound a3 || fail "a pod made after a compaction and a restart was not bound"
# (a watch the restarted server refused a moment, 503 or 403, is retried
# after a backoff, and is 410 then)
relisted() {
	asked_since "$mark" >"$tmp/relists"
	for res in nodes pods podgroups queues priorityclasses hypernodes; do
		grep -q "^list [^ ]* $res 200 " "$tmp/relists" || return 1
	done
}
until_ok relisted ||
	{ cp "$tmp/relists" "$tmp/out"; fail "the bridge did not list every kind again after the 410"; }
stop vk_pid
pod a4 | k create -f - >"$tmp/out" 2>&1 || fail "kubectl create a4"
start_vskube "$tmp/sa.kubeconfig"
until_ok bound a4 || fail "a pod made while the bridge was down was not bound"

stop vs_pid
start_vschedd "$tmp/conf" 100ms
pod a5 | k create -f - >"$tmp/out" 2>&1 || fail "kubectl create a5"
until_ok bound a5 || fail "a pod made after vschedd restarted was not bound"
until_ok test "$("$vsctl" task list -A -j | grep -c '"name"')" -eq 5 ||
	fail "the restarted vschedd was not given the five pods"
for p in a1 a2 a3 a4; do
	[ "$(node_of $p)" = w1 ] || fail "$p moved"
done
port=$(sed -n 's/.*serving \/metrics, \/healthz and \/readyz on port \([0-9]*\)$/\1/p' \
	"$tmp/vskube.log" | tail -n 1)
[ -n "$port" ] || fail "vskube said no metrics port"
curl -fsS "http://127.0.0.1:$port/metrics" >"$tmp/metrics" 2>&1 || fail "GET /metrics"
# this vskube (started again for a4) bound a4 and a5, and loaded vschedd twice
for want in 'vskube_leader 1' 'vskube_synced 1' 'vskube_loads_total 2' \
	'vskube_binds_total{result="success"} 2' 'vskube_binds_total{result="error"} 0'; do
	grep -qxF "$want" "$tmp/metrics" || { cp "$tmp/metrics" "$tmp/out"; fail "/metrics: no $want"; }
done
# and beside its own, the scheduler's under Volcano's names: the restarted
# vschedd placed a5 alone, in cycles it timed
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
echo "vskube-e2e: kube-apiserver restarted, a 410 after a compaction, a bridge and a vschedd restarted:" \
	"every pod bound once; /metrics counts it, the scheduler's metrics with it"

# HyperNodes (the CRD make peers writes from volcano.sh/apis) mirrored:
# made, their members changed, deleted, as "vsctl hypernode show" tells.
# "MEMBERS NODECOUNT" of the HyperNode @1 in vschedd.
hn_is() {
	[ "$("$vsctl" hypernode show "$1" 2>/dev/null |
		jq -r '"\([.members[] | .exactMatch // .regexMatch] | join(",")) \(.nodeCount)"')" = "$2" ]
}
k create -f - >"$tmp/out" 2>&1 <<EOF || fail "kubectl create the HyperNodes: $(cat "$tmp/out")"
apiVersion: topology.volcano.sh/v1alpha1
kind: HyperNode
metadata: {name: s0}
spec:
  tier: 1
  members:
  - {type: Node, selector: {exactMatch: {name: w1}}}
---
apiVersion: topology.volcano.sh/v1alpha1
kind: HyperNode
metadata: {name: s1}
spec:
  tier: 2
  members:
  - {type: HyperNode, selector: {exactMatch: {name: s0}}}
EOF
until_ok hn_is s0 "w1 1" || fail "HyperNode s0 not in vschedd: $("$vsctl" hypernode list 2>&1)"
until_ok hn_is s1 "s0 1" || fail "HyperNode s1 not in vschedd: $("$vsctl" hypernode list 2>&1)"
k patch hypernode s0 --type=merge \
	-p '{"spec":{"members":[{"type":"Node","selector":{"regexMatch":{"pattern":"^x"}}}]}}' \
	>"$tmp/out" 2>&1 || fail "kubectl patch hypernode s0: $(cat "$tmp/out")"
until_ok hn_is s0 "^x 0" || fail "s0's new members not in vschedd: $("$vsctl" hypernode show s0 2>&1)"
hn_is s1 "s0 0" || fail "s1 does not count s0's nodes: $("$vsctl" hypernode show s1 2>&1)"
k delete hypernode s0 s1 >"$tmp/out" 2>&1 || fail "kubectl delete the HyperNodes"
until_ok sh -c "! '$vsctl' hypernode show s0 && ! '$vsctl' hypernode show s1" ||
	fail "the HyperNodes deleted are still in vschedd"
echo "vskube-e2e: HyperNodes made, their members changed and deleted with kubectl, mirrored"

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
# the queue's allocated: seven pods of 100m and 64Mi
until_ok jp_is queue default '{.status.allocated.cpu} {.status.allocated.memory} {.status.allocated.pods}' \
	"700m 448Mi 7" || fail "queue default: allocated $(jp queue default '{.status.allocated}')"
curl -fsS "http://127.0.0.1:$port/metrics" >"$tmp/metrics" 2>&1 || fail "GET /metrics"
grep -q '^vskube_status_writes_total{kind="pod"} [1-9]' "$tmp/metrics" &&
	grep -q '^vskube_events_total [1-9]' "$tmp/metrics" ||
	{ cp "$tmp/metrics" "$tmp/out"; fail "/metrics counts no status write or Event"; }

# A bridge started again loads vschedd, which tells every status anew: the
# PodGroups vsched made for the bare pods a1..a5, which the API server does
# not have, are not written (no PATCH answered 404), nor are the pods,
# bound already, nor is the gang: vschedd took its conditions from the
# API server with it, and its status is the one the API server has.
mark=$(audit_lines)
stop vk_pid
start_vskube "$tmp/sa.kubeconfig"
synced_again() {
	port=$(sed -n 's/.*serving \/metrics, \/healthz and \/readyz on port \([0-9]*\)$/\1/p' \
		"$tmp/vskube.log" | tail -n 1)
	curl -fsS "http://127.0.0.1:$port/metrics" >"$tmp/metrics" &&
		grep -qxF 'vskube_status_writes_skipped_total{why="absent"} 5' "$tmp/metrics"
}
until_ok synced_again ||
	{ grep "vskube_status" "$tmp/metrics" >"$tmp/out" || :; fail "the restarted bridge skipped nothing"; }
sleep 0.5
asked_since "$mark" | awk '$1 == "patch" { print $1, $2, $3, $4, $5 }' |
	grep -v '^patch scheduling.volcano.sh queues/status 200 default$' \
	>"$tmp/out" || :
[ ! -s "$tmp/out" ] || fail "the restarted bridge wrote statuses it should not have"
echo "vskube-e2e: a waiting gang: its pods' PodScheduled, the PodGroup's status, their Events and" \
	"the queue's allocated are written in Volcano's words; a bridge restarted writes no PodGroup the API lacks"

# A gang with a network topology (the PodGroup CRD of volcano.sh/apis: with
# v1.10.0's the API server would prune networkTopology), placed within one
# HyperNode: two leaves of two nodes under a spine, the
# network-topology-aware plugin set, a gang of two in hard mode within
# tier 1 is bound under one leaf (w1, emptier, would take it otherwise);
# a gang of three, each leaf holding two, is told why and bound nowhere.
{ cycling_conf; echo '  - name: network-topology-aware'; } >"$tmp/topo.conf"
"$vsctl" conf set "$tmp/topo.conf" >"$tmp/out" 2>&1 || fail "vsctl conf set topo.conf"
{
	for n in t1 t2 t3 t4; do
		cat <<EOF
apiVersion: v1
kind: Node
metadata: {name: $n}
status:
  allocatable: {cpu: "2", memory: 4Gi, pods: "110"}
  conditions: [{type: Ready, status: "True"}]
---
EOF
	done
	for hn in "leaf-a 1 Node t1 t2" "leaf-b 1 Node t3 t4" "spine 2 HyperNode leaf-a leaf-b"; do
		set -- $hn
		printf 'apiVersion: topology.volcano.sh/v1alpha1\nkind: HyperNode\n'
		printf 'metadata: {name: %s}\nspec:\n  tier: %s\n  members:\n' "$1" "$2"
		printf '  - {type: %s, selector: {exactMatch: {name: %s}}}\n' "$3" "$4" "$3" "$5"
		echo ---
	done
} >"$tmp/topo.yaml"
k create -f "$tmp/topo.yaml" >"$tmp/out" 2>&1 || fail "kubectl create -f topo.yaml"
until_ok hn_is leaf-a "t1,t2 2" && until_ok hn_is leaf-b "t3,t4 2" &&
	until_ok hn_is spine "leaf-a,leaf-b 4" ||
	fail "the HyperNodes are not in vschedd: $("$vsctl" hypernode list 2>&1)"
# The PodGroup @1 of the pods @2... in hard mode within tier 1, each pod a node's cpu.
topo_gang() {
	pg=$1
	shift
	cat <<EOF
apiVersion: scheduling.volcano.sh/v1beta1
kind: PodGroup
metadata: {name: $pg, namespace: default}
spec:
  minMember: $#
  queue: default
  networkTopology: {mode: hard, highestTierAllowed: 1}
---
EOF
	for p; do
		cat <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: $p
  namespace: default
  annotations: {scheduling.k8s.io/group-name: $pg}
spec:
  schedulerName: volcano
  containers: [{name: c, image: busybox, resources: {requests: {cpu: "2", memory: 1Gi}}}]
---
EOF
	done
}
topo_gang topo2 tp1 tp2 | k create -f - >"$tmp/out" 2>&1 || fail "kubectl create the gang topo2"
jp_is podgroup topo2 '{.spec.networkTopology.mode} {.spec.networkTopology.highestTierAllowed}' "hard 1" ||
	fail "the API server pruned topo2's networkTopology: $(jp podgroup topo2 '{.spec}')"
until_ok bound tp1 && until_ok bound tp2 || fail "the gang topo2 was not bound"
"$vsctl" podgroup show default/topo2 -o json >"$tmp/out" 2>&1 &&
	[ "$(jq -c .networkTopology "$tmp/out")" = '{"mode":"hard","highestTierAllowed":1}' ] ||
	fail "vschedd's topo2 has no networkTopology of hard within tier 1"
case "$(node_of tp1) $(node_of tp2)" in
"t1 t2" | "t2 t1" | "t3 t4" | "t4 t3") ;;
*) fail "topo2's pods are on $(node_of tp1) and $(node_of tp2), not under one leaf" ;;
esac
topo_gang topo3 tq1 tq2 tq3 | k create -f - >"$tmp/out" 2>&1 || fail "kubectl create the gang topo3"
for p in tq1 tq2 tq3; do
	until_ok jp_is pod $p "$sched.status}" False ||
		fail "$p: no PodScheduled=False: $(jp pod $p '{.status.conditions}')"
done
sleep 0.5 # a few more cycles
for p in tq1 tq2 tq3; do
	[ -z "$(node_of $p)" ] || fail "$p of topo3 was bound on $(node_of $p): its gang crosses a leaf"
done
echo "vskube-e2e: a gang in hard mode within tier 1 bound under one leaf" \
	"($(node_of tp1), $(node_of tp2)); one a leaf cannot hold left Pending, told why"
k delete pods tp1 tp2 tq1 tq2 tq3 --force --grace-period=0 >"$tmp/out" 2>&1 &&
	k delete podgroups topo2 topo3 >"$tmp/out" 2>&1 &&
	k delete -f "$tmp/topo.yaml" >"$tmp/out" 2>&1 || fail "kubectl delete the topology step's objects"
"$vsctl" conf set "$tmp/conf" >"$tmp/out" 2>&1 || fail "vsctl conf set conf"

# Scheduling gates and host ports: gp1, gated, waits while gp2, made after
# it, takes gt1 and its hostPort 8080; once kubectl takes gp1's gate away it
# is told that the port is held, and is bound when gp2 is gone.
cat >"$tmp/gates.yaml" <<EOF
apiVersion: v1
kind: Node
metadata: {name: gt1, labels: {e2e: gates}}
status:
  allocatable: {cpu: "4", memory: 8Gi, pods: "110"}
  conditions: [{type: Ready, status: "True"}]
---
EOF
for p in gp1 gp2; do
	gate=
	[ $p = gp1 ] && gate='schedulingGates: [{name: example.com/wait}]'
	cat >>"$tmp/gates.yaml" <<EOF
apiVersion: v1
kind: Pod
metadata: {name: $p, namespace: default}
spec:
  schedulerName: volcano
  nodeSelector: {e2e: gates}
  $gate
  containers:
  - name: c
    image: busybox
    resources: {requests: {cpu: 100m, memory: 64Mi}}
    ports: [{containerPort: 80, hostPort: 8080}]
---
EOF
done
k create -f "$tmp/gates.yaml" >"$tmp/out" 2>&1 || fail "kubectl create -f gates.yaml"
until_ok bound gp2 || fail "gp2 was not bound"
[ "$(node_of gp2)" = gt1 ] || fail "gp2 is on $(node_of gp2), not gt1"
until_ok sh -c "'$vsctl' explain task default/gp1 | grep -q 'Reason: *SchedulingGated'" ||
	fail "gp1 is not explained as gated: $("$vsctl" explain task default/gp1 2>&1)"
"$vsctl" task show default/gp1 >"$tmp/out" 2>&1 &&
	[ "$(jq -c '[.gated, .hostPorts]' "$tmp/out")" = '[true,[{"hostPort":8080,"protocol":"TCP"}]]' ] ||
	fail "vschedd's gp1 is not gated with hostPort 8080: $(cat "$tmp/out")"
[ -z "$(node_of gp1)" ] || fail "gp1 was bound while gated"
k patch pod gp1 --type=json -p '[{"op": "remove", "path": "/spec/schedulingGates"}]' \
	>"$tmp/out" 2>&1 || fail "kubectl patch gp1's schedulingGates away: $(cat "$tmp/out")"
ports="didn't have free ports for the requested pod ports"
until_ok sh -c "'$vsctl' explain task default/gp1 | grep -q \"$ports\"" ||
	fail "gp1, ungated, is not told that its port is held: $("$vsctl" explain task default/gp1 2>&1)"
[ -z "$(node_of gp1)" ] || fail "gp1 was bound beside gp2, on the same hostPort"
k delete pod gp2 --force --grace-period=0 >"$tmp/out" 2>&1 || fail "kubectl delete gp2"
until_ok bound gp1 || fail "gp1 was not bound once its port was free"
echo "vskube-e2e: a gated pod waits until kubectl removes its gate, then for its hostPort" \
	"to be free, and is bound on $(node_of gp1)"
k delete pod gp1 --force --grace-period=0 >"$tmp/out" 2>&1 &&
	k delete -f "$tmp/gates.yaml" --ignore-not-found >"$tmp/out" 2>&1 ||
	fail "kubectl delete the gates step's objects"

# ---- part 3: leader election ----
stop vk_pid
elect() {
	"$objtree/vskube" --kubeconfig "$tmp/sa.kubeconfig" --socket "$tmp/vs.sock" -v 3 \
		--listen-address "" --leader-elect --leader-elect-resource-namespace "$sa_ns" \
		--leader-elect-lease-duration 2s --leader-elect-renew-deadline 1500ms \
		--leader-elect-retry-period 200ms >"$tmp/$1.log" 2>&1 &
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
# the bridge logs a bind once the API server answered it: kubectl may see it first
until_ok grep -q "Bound pod <default/l1>" "$tmp/$lead.log" || fail "l1 was not bound by the leader"
! leads $other || fail "two leaders"
! grep -q "connected to vschedd\|Bound pod" "$tmp/$other.log" ||
	fail "the standby wrote: $(grep 'connected to vschedd\|Bound pod' "$tmp/$other.log")"
holder=$(k get lease -n "$sa_ns" vc-scheduler -o jsonpath='{.spec.holderIdentity}')
[ -n "$holder" ] || fail "no holder in the Lease $sa_ns/vc-scheduler"
kill -TERM "$lpid"
wait "$lpid" 2>/dev/null || :
if [ "$lead" = A ]; then pa=; else pb=; fi
until_ok leads $other || fail "the standby did not take over"
pod l2 | k create -f - >"$tmp/out" 2>&1 || fail "kubectl create l2"
until_ok bound l2 || fail "the new leader did not bind l2"
until_ok grep -q "Bound pod <default/l2>" "$tmp/$other.log" ||
	fail "l2 was not bound by the new leader"
! grep -q "Bound pod <default/l2>" "$tmp/$lead.log" || fail "the old leader bound l2"
! grep -q "Bound pod <default/l1>" "$tmp/$other.log" || fail "the new leader bound l1 again"
[ "$(k get lease -n "$sa_ns" vc-scheduler -o jsonpath='{.spec.holderIdentity}')" != "$holder" ] ||
	fail "the Lease still names the old leader"
stop pa
stop pb
echo "vskube-e2e: two bridges on one Lease: one leads and binds, the other takes over when it stops"

# ---- the ClusterRole of deploy/vsched.yaml is what vskube asked for ----
# What deploy/vsched.yaml grants vskube: its ClusterRole's rules as
# "VERB GROUP RESOURCE" lines.
granted() {
	deploy_docs ClusterRole | awk '
		function items(line, key,    v) {
			v = line; sub(".*" key ": \\[", "", v); sub("\\].*", "", v); gsub(/ /, "", v)
			return v
		}
		/^- \{apiGroups:/ {
			ng = split(items($0, "apiGroups"), g, ","); nr = split(items($0, "resources"), r, ",")
			nv = split(items($0, "verbs"), v, ",")
			for (a = 1; a <= ng; a++) for (b = 1; b <= nr; b++) for (c = 1; c <= nv; c++)
				print v[c], g[a], r[b]
		}
	' | sort -u
}
asked_since 0 >"$tmp/asked.all"
# A kube-apiserver just restarted may refuse a moment, its authorizer's
# cache not filled yet (403 on an allowed watch): refused is what was
# refused and never allowed.
awk '
	{ p = $1 " " $2 " " $3 }
	$4 == 403 { refused[p] = $0 }
	$4 != 403 { allowed[p] = 1 }
	END { for (p in refused) if (!(p in allowed)) print refused[p] }
' "$tmp/asked.all" >"$tmp/out"
[ ! -s "$tmp/out" ] || fail "RBAC refused the bridge what deploy/vsched.yaml does not grant"
awk '{ print $1, $2, $3 }' "$tmp/asked.all" | sort -u >"$tmp/asked"
granted >"$tmp/granted"
[ -s "$tmp/granted" ] || fail "no rule read from deploy/vsched.yaml"
comm -23 "$tmp/asked" "$tmp/granted" >"$tmp/out"
[ ! -s "$tmp/out" ] || fail "vskube asked for what deploy/vsched.yaml does not grant"
comm -13 "$tmp/asked" "$tmp/granted" >"$tmp/out"
[ ! -s "$tmp/out" ] || fail "deploy/vsched.yaml grants what vskube never asked for"
# the ConfigMap's volcano-scheduler.conf is one vschedd takes
sed -n '/^  volcano-scheduler.conf: |$/,$p' "$srctree/deploy/volcano-scheduler-configmap.yaml" |
	sed '1d; s/^    //' >"$tmp/deploy.conf"
[ -s "$tmp/deploy.conf" ] || fail "no volcano-scheduler.conf in the ConfigMap"
"$vsctl" conf check "$tmp/deploy.conf" >"$tmp/out" 2>&1 ||
	fail "the ConfigMap's volcano-scheduler.conf is refused"
echo "vskube-e2e: deploy/vsched.yaml grants exactly the $(grep -c . "$tmp/granted") permissions" \
	"vskube used ($(grep -c . "$tmp/asked.all") requests, none refused; $nrefused eviction refused, the pod deleted)"

# ---- a rule less: RBAC refuses it ----
# The role without pods/binding: the bridge's binding is refused, and the pod stays unbound.
k get clusterrole "$role" -o json |
	jq '.rules |= map(.resources |= map(select(. != "pods/binding"))) |
		.rules |= map(select(.resources | length > 0))' >"$tmp/role.json" &&
	k replace -f "$tmp/role.json" >"$tmp/out" 2>&1 || fail "kubectl replace the role"
until_ok sh -c "[ \"\$(kubectl --kubeconfig '$tmp/sa.kubeconfig' auth can-i create pods --subresource=binding)\" = no ]" ||
	fail "the role still grants pods/binding"
: >"$tmp/vskube.log"
start_vskube "$tmp/sa.kubeconfig"
pod r1 | k create -f - >"$tmp/out" 2>&1 || fail "kubectl create r1"
until_ok grep -q "Failed to bind pod <default/r1>.*forbidden" "$tmp/vskube.log" ||
	fail "the bridge's binding was not refused without its rule"
! bound r1 || fail "r1 was bound without the rule"
echo "vskube-e2e: the role without pods/binding: RBAC refuses the bridge's binding" \
	"(in $(($(date +%s) - t_start)) s)"
