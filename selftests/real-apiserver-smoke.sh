#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
#
# The real kube-apiserver of selftests/real-apiserver.sh, checked by hand
# (not in make check yet: it needs `make peers`): start it; /readyz through
# kubectl; a Node with its allocatable status, a Queue and a PodGroup
# created with kubectl as the admin (client certificate), and a HyperNode
# (the CRD's own rule refusing a member without a selector); the bearer-token
# user refused (403) before an RBAC role is bound to it, allowed what the
# role grants after, and still refused what it does not grant; TLS checked
# against the generated CA; stop, and nothing it started left running.
#
# Usage: selftests/real-apiserver-smoke.sh [PEERS]   (after make peers; PEERS: go/peers)
set -eu

srctree=$(cd "$(dirname "$0")/.." && pwd)
peers=${1:-$srctree/go/peers}
launcher=$srctree/selftests/real-apiserver.sh
dir=$(mktemp -d /tmp/real-apiserver-XXXXXX)
keep=

cleanup() {
	"$launcher" stop "$dir" 2>/dev/null || true
	if [ -n "$keep" ]; then
		echo "real-apiserver-smoke: logs kept in $dir" >&2
	else
		rm -rf "$dir"
	fi
}
trap cleanup EXIT INT TERM

fail() {
	echo "real-apiserver-smoke: FAIL: $*" >&2
	keep=1
	exit 1
}

ok() {
	echo "real-apiserver-smoke: ok: $*"
}

"$launcher" start "$dir" "$peers" || { keep=1; exit 1; }
. "$dir/env"
PATH=$PEERS:$PATH	# the kubectl make peers built
admin() { kubectl --kubeconfig "$ADMIN_KUBECONFIG" "$@"; }
user() { kubectl --kubeconfig "$TOKEN_KUBECONFIG" "$@"; }
# The HTTP status of GET PATH as the token user.
user_status() {
	curl -s -o /dev/null -w '%{http_code}' --max-time 10 --cacert "$CA" \
		-H "Authorization: Bearer $TOKEN" "$SERVER$1"
}

[ "$(admin get --raw /readyz)" = ok ] || fail "kubectl get --raw /readyz is not ok"
version=$(admin version -o json | sed -n 's/^ *"gitVersion": "\(.*\)",$/\1/p' | tail -n 1)
want=$(sed -n 's/^\tk8s.io\/kubernetes \(v[0-9.]*\).*/\1/p' "$srctree/selftests/peers/go.mod")
[ "$version" = "$want" ] || fail "the server says it is $version, go.mod pins $want"
ok "/readyz through kubectl, server $version"

# Without the CA the server's certificate is not trusted; with it, it is.
if curl -s -o /dev/null --max-time 10 "$SERVER/readyz"; then
	fail "curl trusted the server without the generated CA"
fi
ok "TLS verified against the generated CA only"

admin create -f - >/dev/null <<EOF || fail "kubectl create node"
apiVersion: v1
kind: Node
metadata:
  name: smoke-node
  labels: {kubernetes.io/hostname: smoke-node}
EOF
# The status subresource, as a kubelet reports it.
admin patch node smoke-node --subresource=status --type=merge -p \
	'{"status":{"capacity":{"cpu":"8","memory":"32Gi","pods":"110"},
	  "allocatable":{"cpu":"7500m","memory":"30Gi","pods":"110"},
	  "conditions":[{"type":"Ready","status":"True","reason":"KubeletReady",
	  "lastHeartbeatTime":"2026-01-01T00:00:00Z","lastTransitionTime":"2026-01-01T00:00:00Z"}]}}' \
	>/dev/null || fail "kubectl patch node --subresource=status"
alloc=$(admin get node smoke-node -o jsonpath='{.status.allocatable.cpu} {.status.allocatable.memory}')
[ "$alloc" = "7500m 30Gi" ] || fail "node allocatable is '$alloc', not '7500m 30Gi'"
ok "Node smoke-node with allocatable $alloc"

admin create -f - >/dev/null <<EOF || fail "kubectl create queue and podgroup"
apiVersion: scheduling.volcano.sh/v1beta1
kind: Queue
metadata:
  name: smoke-queue
spec:
  weight: 2
  reclaimable: true
  capability: {cpu: "4", memory: 8Gi}
---
apiVersion: scheduling.volcano.sh/v1beta1
kind: PodGroup
metadata:
  name: smoke-pg
  namespace: default
spec:
  minMember: 2
  queue: smoke-queue
  minResources: {cpu: "2"}
EOF
[ "$(admin get queue smoke-queue -o jsonpath='{.spec.weight}')" = 2 ] || fail "queue weight"
[ "$(admin get podgroup smoke-pg -n default -o jsonpath='{.spec.queue}/{.spec.minMember}')" = smoke-queue/2 ] ||
	fail "podgroup spec"
ok "Queue smoke-queue and PodGroup default/smoke-pg created"

# The HyperNode CRD make peers writes from volcano.sh/apis: a HyperNode is
# served, and one whose member has no selector is refused by its rules.
admin create -f - >/dev/null <<EOF || fail "kubectl create hypernode"
apiVersion: topology.volcano.sh/v1alpha1
kind: HyperNode
metadata: {name: smoke-hn}
spec:
  tier: 1
  members:
  - {type: Node, selector: {exactMatch: {name: smoke-node}}}
EOF
[ "$(admin get hn smoke-hn -o jsonpath='{.spec.tier} {.spec.members[0].selector.exactMatch.name}')" = \
	"1 smoke-node" ] || fail "hypernode spec"
if admin create -f - >/dev/null 2>"$dir/hn.err" <<EOF; then
apiVersion: topology.volcano.sh/v1alpha1
kind: HyperNode
metadata: {name: smoke-bare}
spec:
  tier: 1
  members:
  - {type: Node, selector: {}}
EOF
	fail "a HyperNode member without a selector was created"
fi
grep -q "Either ExactMatch or RegexMatch or LabelMatch must be specified" "$dir/hn.err" ||
	fail "the bare member's refusal: $(cat "$dir/hn.err")"
ok "HyperNode smoke-hn created; a member without a selector refused by the CRD's rules"

# The token user: authenticated, but RBAC grants it nothing yet.
for path in /api/v1/nodes /apis/scheduling.volcano.sh/v1beta1/queues; do
	code=$(user_status "$path")
	[ "$code" = 403 ] || fail "GET $path as $TOKEN_USER before the role: $code, not 403"
done
if user get nodes >/dev/null 2>"$dir/user.err"; then
	fail "kubectl get nodes as $TOKEN_USER worked before the role"
fi
grep -q Forbidden "$dir/user.err" || fail "kubectl as $TOKEN_USER: $(cat "$dir/user.err")"
code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 --cacert "$CA" \
	-H "Authorization: Bearer not-$TOKEN" "$SERVER/api/v1/nodes")
[ "$code" = 401 ] || fail "a wrong token got $code, not 401"
ok "$TOKEN_USER refused (403) without a role; a wrong token 401"

admin create -f - >/dev/null <<EOF || fail "kubectl create the role"
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: smoke-reader
rules:
- apiGroups: [""]
  resources: [nodes]
  verbs: [get, list, watch]
- apiGroups: [scheduling.volcano.sh]
  resources: [queues, podgroups]
  verbs: [get, list, watch]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: smoke-reader
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: smoke-reader}
subjects:
- {apiGroup: rbac.authorization.k8s.io, kind: User, name: $TOKEN_USER}
EOF
# The authorizer learns of the binding through its informer: a moment.
i=0
until [ "$(user_status /api/v1/nodes)" = 200 ]; do
	i=$((i + 1))
	[ "$i" -le 50 ] || fail "$TOKEN_USER still refused 10s after the binding"
	sleep 0.2
done
got=$(user get nodes,queues -o name | sort | tr '\n' ' ')
[ "$got" = "node/smoke-node queue.scheduling.volcano.sh/smoke-queue " ] ||
	fail "as $TOKEN_USER, nodes and queues: '$got'"
got=$(user get podgroups -A -o name)
[ "$got" = podgroup.scheduling.volcano.sh/smoke-pg ] || fail "as $TOKEN_USER, podgroups: '$got'"
code=$(user_status /api/v1/pods)
[ "$code" = 403 ] || fail "GET /api/v1/pods as $TOKEN_USER (not in the role): $code, not 403"
ok "$TOKEN_USER lists nodes, queues and podgroups under the role, still 403 on pods"

pids="$(cat "$dir/kube-apiserver.pid") $(cat "$dir/etcd-embed.pid")"
"$launcher" stop "$dir"
for p in $pids; do
	if kill -0 "$p" 2>/dev/null && ! grep -q '^[^ ]* [^ ]* Z' "/proc/$p/stat" 2>/dev/null; then
		fail "process $p still running after stop"
	fi
done
ok "stopped, nothing left running"
