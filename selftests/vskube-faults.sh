#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# vskube against faults a real kube-apiserver cannot be made to produce
# (Documentation/kube-test-apiserver.md, "What kapiserver is still for"),
# on the test API server selftests/kube/kapiserver, driven with the kubectl
# make peers builds. The rest of the bridge's end-to-end test is
# vskube-e2e.sh, against the real server.
#
# A binding the API server refuses with a server error of its choosing
# (500 "etcd is slow": the real one answers 500 only when etcd fails under
# it): the bridge says so, vschedd puts the pod back to Pending with the
# API server's message, and the pod is bound on a later cycle; /metrics
# counts the failed binding and the good ones.
#
# Usage: selftests/vskube-faults.sh OBJTREE [PEERS]   (PEERS: go/peers)
set -eu
me=vskube-faults
objtree=$1
srctree=$(cd "$(dirname "$0")/.." && pwd)
peers=${2:-$srctree/go/peers}
tmp=$(mktemp -d /tmp/vskube-faults-XXXXXX)
api_pid=
vs_pid=
vk_pid=
keep=

if [ ! -x "$peers/kubectl" ]; then
	echo "vskube-faults: FAIL: no $peers/kubectl: run 'make peers' first" >&2
	rmdir "$tmp"
	exit 1
fi
PATH=$(cd "$peers" && pwd):$PATH
export PATH

cleanup() {
	stop vk_pid
	stop vs_pid
	stop api_pid
	if [ -n "$keep" ]; then
		echo "vskube-faults: logs kept in $tmp" >&2
	else
		rm -rf "$tmp"
	fi
}
trap cleanup EXIT
trap 'exit 1' INT TERM

. "$srctree/selftests/vskube-lib.sh"

"$objtree/selftests/kube/kapiserver" --port-file "$tmp/port" >"$tmp/kapi.log" 2>&1 &
api_pid=$!
until_ok test -s "$tmp/port" || fail "kapiserver did not start"
base=http://127.0.0.1:$(cat "$tmp/port")
cat >"$tmp/kubeconfig" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: kapi
  cluster: {server: "$base"}
contexts:
- name: kapi
  context: {cluster: kapi, user: test}
users:
- name: test
  user: {}
current-context: kapi
EOF
k() {
	kubectl --kubeconfig "$tmp/kubeconfig" --cache-dir "$tmp/cache" --request-timeout 20s "$@"
}

cycling_conf >"$tmp/conf"
"$objtree/vschedd" --socket "$tmp/vs.sock" --conf "$tmp/conf" --period 100ms -v 1 \
	>"$tmp/vschedd.log" 2>&1 &
vs_pid=$!
until_ok test -S "$tmp/vs.sock" || fail "vschedd did not start"
"$objtree/vskube" --kubeconfig "$tmp/kubeconfig" --socket "$tmp/vs.sock" -v 3 \
	--listen-address 127.0.0.1:0 >"$tmp/vskube.log" 2>&1 &
vk_pid=$!

one_node_cluster a1 >"$tmp/cluster.yaml"
k create -f "$tmp/cluster.yaml" >"$tmp/out" 2>&1 || fail "kubectl create -f cluster.yaml"
until_ok bound a1 || fail "a pod made with kubectl was not bound"

curl -fsS -X POST "$base/__test/fail-bindings?count=1&code=500&message=etcd%20is%20slow" \
	>"$tmp/out" 2>&1 || fail "fail-bindings"
pod a2 | k create -f - >"$tmp/out" 2>&1 || fail "kubectl create a2"
until_ok grep -q "Failed to bind pod <default/a2> to node <w1>: etcd is slow" "$tmp/vskube.log" ||
	fail "the refused binding was not seen"
until_ok grep -q "default/a2.*etcd is slow.*back to Pending" "$tmp/vschedd.log" ||
	fail "vschedd did not put a2 back to Pending with the API server's message"
until_ok bound a2 || fail "a pod whose binding failed was not bound again"

port=$(sed -n 's/.*serving \/metrics, \/healthz and \/readyz on port \([0-9]*\)$/\1/p' \
	"$tmp/vskube.log" | tail -n 1)
[ -n "$port" ] || fail "vskube said no metrics port"
curl -fsS "http://127.0.0.1:$port/metrics" >"$tmp/metrics" 2>&1 || fail "GET /metrics"
for want in 'vskube_binds_total{result="success"} 2' 'vskube_binds_total{result="error"} 1'; do
	grep -qxF "$want" "$tmp/metrics" || { cp "$tmp/metrics" "$tmp/out"; fail "/metrics: no $want"; }
done
echo "vskube-faults: a binding refused with 500: the pod back to Pending with the API server's" \
	"message, bound on a later cycle; /metrics counts one failed binding and two good ones"
