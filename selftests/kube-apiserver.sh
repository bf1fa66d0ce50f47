#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The test Kubernetes API server (selftests/kube/kapiserver,
# Documentation/kube-test-apiserver.md) against the real client: kubectl
# creates a node, a pod, a Queue and a PodGroup from the YAML files in
# selftests/kube/ (the other kinds, a HyperNode among them, inline), gets them, watches a pod change and go as it happens,
# patches, replaces with a stale resourceVersion (409) and deletes. Then
# curl, for what kubectl does not reach: the binding and eviction
# subresources (and an injected binding failure), the status subresource,
# paginated and filtered lists, bookmarks and watch timeouts, 410 Gone
# after the history is compacted, dropped watches, and bad input answered
# 400 (or 422, 415) with nothing changed, and the request log. The server
# must stop cleanly on SIGTERM: under SANITIZE=1 that is where leaks would
# show. Last, --load: a cluster restored from a file keeps the statuses and
# uids it gives, and a bad file is refused, naming its line.
# kubectl is the one make peers builds, in PEERS (make check passes it):
# the release the real-server tests use. Without PEERS, the machine's
# kubectl; without one (or curl) the test says SKIP and passes.
# Usage: selftests/kube-apiserver.sh OBJTREE selftests/kube [PEERS]
set -eu
objtree=$1
top=$2
server=$objtree/selftests/kube/kapiserver

if [ -n "${3:-}" ]; then
	if [ ! -x "$3/kubectl" ]; then
		echo "kube-apiserver: FAIL: no $3/kubectl: run 'make peers' first" >&2
		exit 1
	fi
	PATH=$(cd "$3" && pwd):$PATH
	export PATH
fi
for tool in kubectl curl; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "kube-apiserver: SKIP: no $tool on this machine"
		exit 0
	fi
done

dir=$(mktemp -d /tmp/kube-apiserver-XXXXXX)
pid=
bg=
cleanup() {
	for p in $bg; do
		kill "$p" 2>/dev/null || true
		wait "$p" 2>/dev/null || true
	done
	if [ -n "$pid" ]; then
		kill -TERM "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	fi
	rm -rf "$dir"
}
trap cleanup EXIT INT TERM

fail() {
	echo "kube-apiserver: FAIL: $*" >&2
	sed 's/^/    /' "$dir/log" >&2 2>/dev/null || true
	exit 1
}

# -v: every request in the log, which a failure prints.
"$server" --port-file "$dir/port" --bookmark-interval 300 --history 1000 -v >"$dir/log" 2>&1 &
pid=$!
i=0
while [ ! -s "$dir/port" ]; do
	i=$((i + 1))
	[ "$i" -le 200 ] && kill -0 "$pid" 2>/dev/null || fail "kapiserver did not start"
	sleep 0.05
done
base=http://127.0.0.1:$(cat "$dir/port")

cat >"$dir/kubeconfig" <<EOF
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

# kubectl against the server, its discovery cache ours alone.
k() {
	kubectl --kubeconfig "$dir/kubeconfig" --cache-dir "$dir/cache" --request-timeout 20s "$@"
}

# "kubectl ARGS..." must succeed and print exactly $1.
k_is() {
	want=$1
	shift
	got=$(k "$@" 2>&1) || fail "kubectl $*: $got"
	[ "$got" = "$want" ] || fail "kubectl $* printed \"$got\", not \"$want\""
}

# "kubectl ARGS..." must fail and say $1 (a fixed string).
k_fails() {
	want=$1
	shift
	if got=$(k "$@" 2>&1); then
		fail "kubectl $* succeeded: $got"
	fi
	case $got in
	*"$want"*) ;;
	*) fail "kubectl $* did not say \"$want\": $got" ;;
	esac
}

# METHOD PATH [BODY [CONTENT-TYPE]]: the reply's body into $dir/body, its status printed.
req() {
	if [ $# -ge 3 ]; then
		curl -sS -X "$1" -H "Content-Type: ${4:-application/json}" --data-binary "$3" \
			-o "$dir/body" -w '%{http_code}' "$base$2"
	else
		curl -sS -X "$1" -o "$dir/body" -w '%{http_code}' "$base$2"
	fi
}

# CODE TEXT METHOD PATH [BODY [TYPE]]: the reply must have that status and hold TEXT.
expect() {
	want=$1 text=$2
	shift 2
	got=$(req "$@") || fail "curl $1 $2 failed"
	[ "$got" = "$want" ] || fail "$1 $2 answered $got, not $want: $(cat "$dir/body")"
	[ -z "$text" ] || grep -qF -- "$text" "$dir/body" ||
		fail "$1 $2: no '$text' in $(cat "$dir/body")"
}

# The store's last resourceVersion.
cur_rv() {
	curl -sS "$base/__test/stats" | sed -n 's/.*"resourceVersion":\([0-9]*\).*/\1/p'
}

# Wait up to 20s (kubectl starts slowly on a loaded machine) for file $1
# to hold the fixed string $2.
wait_for() {
	i=0
	until grep -qF -- "$2" "$1" 2>/dev/null; do
		i=$((i + 1))
		[ "$i" -le 400 ] || fail "waited in vain for '$2' in $1: $(cat "$1")"
		sleep 0.05
	done
}

# ---- kubectl: discovery, create, get ----
k version >"$dir/out" 2>&1 || fail "kubectl version: $(cat "$dir/out")"
grep -q "^Server Version: v1.32.0-vsched-kapiserver" "$dir/out" ||
	fail "kubectl version: $(cat "$dir/out")"
for f in node pod queue podgroup; do
	k create -f "$top/$f.yaml" >"$dir/out" 2>&1 || fail "create -f $f.yaml: $(cat "$dir/out")"
done
k_is "8 True" get node n1 -o jsonpath='{.status.allocatable.cpu} {.status.conditions[0].status}'
# A create keeps a node's status but resets a pod's, as the apiserver does.
k_is "volcano Pending pg1 web" get pod p1 \
	-o jsonpath='{.spec.schedulerName} {.status.phase} {.metadata.annotations.scheduling\.k8s\.io/group-name} {.metadata.labels.app}'
k_is "1 true" get queue q1 -o jsonpath='{.spec.weight} {.spec.reclaimable}'
k_is "q1 1 default" get podgroup pg1 -o jsonpath='{.spec.queue} {.spec.minMember} {.metadata.namespace}'
uid=$(k get pod p1 -o jsonpath='{.metadata.uid}')
case $uid in
????????-????-4???-????-????????????) ;;
*) fail "pod uid \"$uid\"" ;;
esac
rv1=$(k get pod p1 -o jsonpath='{.metadata.resourceVersion}')
k_is "pg1" get pg -o jsonpath='{.items[*].metadata.name}'
k get pods >"$dir/out" 2>&1 || fail "get pods: $(cat "$dir/out")"
grep -q '^p1 ' "$dir/out" || fail "get pods printed: $(cat "$dir/out")"
k_fails 'pods "p1" already exists' create -f "$top/pod.yaml"
k_fails 'Error from server (NotFound): pods "nope" not found' get pod nope
k_fails 'Error from server (NotFound): queues.scheduling.volcano.sh "nope" not found' get queue nope

# The other kinds, from YAML. A body in protobuf (what newer kubectls'
# generators, "create namespace NAME", send) is refused with 415.
k_fails 'namespaces "volcano-system" not found' get namespace volcano-system
expect 415 '' POST /api/v1/namespaces 'k8s' application/vnd.kubernetes.protobuf
k_fails 'namespaces "volcano-system" not found' get namespace volcano-system
k create -f - >"$dir/out" 2>&1 <<EOF || fail "create -f of the other kinds: $(cat "$dir/out")"
apiVersion: v1
kind: Namespace
metadata:
  name: volcano-system
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata:
  name: high
value: 1000
---
apiVersion: coordination.k8s.io/v1
kind: Lease
metadata:
  name: vsched
  namespace: volcano-system
spec:
  holderIdentity: a
  leaseDurationSeconds: 15
---
apiVersion: v1
kind: Event
metadata:
  name: p1.1
involvedObject:
  kind: Pod
  name: p1
  namespace: default
reason: FailedScheduling
message: 0/1 nodes are available
type: Warning
---
apiVersion: topology.volcano.sh/v1alpha1
kind: HyperNode
metadata:
  name: s0
spec:
  tier: 1
  members:
  - type: Node
    selector:
      exactMatch:
        name: n1
EOF
k_is "Active" get namespace volcano-system -o jsonpath='{.status.phase}'
k_is "1000" get priorityclass high -o jsonpath='{.value}'
k_is "a 15" get lease -n volcano-system vsched -o jsonpath='{.spec.holderIdentity} {.spec.leaseDurationSeconds}'
k_is "p1.1" get events --field-selector reason=FailedScheduling,involvedObject.name=p1 \
	-o jsonpath='{.items[*].metadata.name}'
k_is "1 n1" get hn s0 -o jsonpath='{.spec.tier} {.spec.members[0].selector.exactMatch.name}'
k_fails 'hypernodes.topology.volcano.sh "nope" not found' get hypernode nope

# ---- kubectl get -w sees an update and a delete as they happen ----
k get pod p1 -w --output-watch-events \
	-o jsonpath='{.type} {.object.metadata.name} {.object.metadata.labels.tier}{"\n"}' \
	>"$dir/watch" 2>&1 &
kwatch=$!
bg="$bg $kwatch"
wait_for "$dir/watch" "ADDED p1"
k patch pod p1 --type=merge -p '{"metadata":{"labels":{"tier":"gold"}}}' >/dev/null ||
	fail "patch pod p1"
wait_for "$dir/watch" "MODIFIED p1 gold"
k_is "gold web" get pod p1 -o jsonpath='{.metadata.labels.tier} {.metadata.labels.app}'
rv2=$(k get pod p1 -o jsonpath='{.metadata.resourceVersion}')
[ "$rv2" -gt "$rv1" ] || fail "the patch left resourceVersion $rv2 (was $rv1)"
k delete pod p1 >"$dir/out" 2>&1 || fail "delete pod p1: $(cat "$dir/out")"
grep -qF 'pod "p1" deleted' "$dir/out" || fail "delete printed: $(cat "$dir/out")"
wait_for "$dir/watch" "DELETED p1 gold"
kill "$kwatch"
k_fails 'pods "p1" not found' get pod p1

# ---- patch and a stale update ----
k patch podgroup pg1 --type=merge -p '{"spec":{"minMember":3}}' >/dev/null || fail "patch pg1"
k_is 3 get podgroup pg1 -o jsonpath='{.spec.minMember}'
k get queue q1 -o json >"$dir/q1.json" || fail "get q1 -o json"
k patch queue q1 --type=merge -p '{"spec":{"weight":2}}' >/dev/null || fail "patch q1"
k_fails 'the object has been modified' replace -f "$dir/q1.json"
k_is 2 get queue q1 -o jsonpath='{.spec.weight}'
k delete queue q1 >/dev/null || fail "delete queue q1"
k_fails 'queues.scheduling.volcano.sh "q1" not found' get queue q1

# kubectl apply: a create, then a strategic merge patch whose containers
# merge by name, so that what the change leaves out (image, memory) stays.
sed 's/name: p1$/name: ap/' "$top/pod.yaml" | k apply -f - >"$dir/out" 2>&1 ||
	fail "apply: $(cat "$dir/out")"
sed 's/name: p1$/name: ap/; s/cpu: "1"/cpu: "2"/' "$top/pod.yaml" | k apply -f - >"$dir/out" 2>&1 ||
	fail "apply again: $(cat "$dir/out")"
grep -qF 'pod/ap configured' "$dir/out" || fail "apply printed: $(cat "$dir/out")"
k_is "main busybox 2 1Gi" get pod ap -o jsonpath='{.spec.containers[*].name} {.spec.containers[0].image} {.spec.containers[0].resources.requests.cpu} {.spec.containers[0].resources.requests.memory}'
k delete pod ap >/dev/null || fail "delete pod ap"

# ---- binding, eviction and the status subresource, with curl ----
k create -f "$top/pod.yaml" >/dev/null || fail "create p1 again"
bind='{"apiVersion":"v1","kind":"Binding","metadata":{"name":"p1"},"target":{"kind":"Node","name":"n1"}}'
expect 201 '"status":"Success"' POST /api/v1/namespaces/default/pods/p1/binding "$bind"
k_is "n1 True" get pod p1 -o jsonpath='{.spec.nodeName} {.status.conditions[?(@.type=="PodScheduled")].status}'
expect 409 'pod p1 is already assigned to node \"n1\"' \
	POST /api/v1/namespaces/default/pods/p1/binding "$bind"
expect 404 'pods \"p9\" not found' POST /api/v1/namespaces/default/pods/p9/binding \
	'{"apiVersion":"v1","kind":"Binding","metadata":{"name":"p9"},"target":{"name":"n1"}}'
# An injected failure: the next binding fails so, the one after succeeds.
sed 's/name: p1$/name: p2/' "$top/pod.yaml" | k create -f - >/dev/null || fail "create p2"
bind2='{"apiVersion":"v1","kind":"Binding","metadata":{"name":"p2"},"target":{"name":"n1"}}'
expect 200 '"count":1' POST '/__test/fail-bindings?count=1&code=500&message=etcd%20is%20down'
expect 500 '"message":"etcd is down"' POST /api/v1/namespaces/default/pods/p2/binding "$bind2"
k_is "" get pod p2 -o jsonpath='{.spec.nodeName}'
expect 201 '"code":201' POST /api/v1/namespaces/default/pods/p2/binding "$bind2"
k_is n1 get pod p2 -o jsonpath='{.spec.nodeName}'
k_is "p1 p2" get pods --field-selector spec.nodeName=n1 -o jsonpath='{.items[*].metadata.name}'

# Status: its own endpoint changes it; the main one leaves it alone.
expect 200 '"phase":"Running"' PATCH /api/v1/namespaces/default/pods/p1/status \
	'{"status":{"phase":"Running"}}' application/merge-patch+json
expect 200 '"phase":"Running"' PATCH /api/v1/namespaces/default/pods/p1 \
	'{"status":{"phase":"Failed"}}' application/strategic-merge-patch+json
k_is Running get pod p1 -o jsonpath='{.status.phase}'
# Volcano's PodGroup CRD has no status subresource: the object's status is
# written with it.
expect 404 'the server could not find the requested resource' PATCH \
	/apis/scheduling.volcano.sh/v1beta1/namespaces/default/podgroups/pg1/status \
	'{"status":{"phase":"Pending"}}' application/merge-patch+json
expect 200 '"phase":"Inqueue"' PATCH \
	/apis/scheduling.volcano.sh/v1beta1/namespaces/default/podgroups/pg1 \
	'{"status":{"phase":"Inqueue"}}' application/merge-patch+json
k_is "Inqueue 3" get pg pg1 -o jsonpath='{.status.phase} {.spec.minMember}'

evict='{"apiVersion":"policy/v1","kind":"Eviction","metadata":{"name":"p1","namespace":"default"}}'
expect 201 '"status":"Success"' POST /api/v1/namespaces/default/pods/p1/eviction "$evict"
k_fails 'pods "p1" not found' get pod p1
expect 404 'pods \"p1\" not found' POST /api/v1/namespaces/default/pods/p1/eviction "$evict"

# ---- lists: pagination, selectors ----
for n in 0 1 2 3 4; do
	sed "s/name: p1$/name: page-$n/; s/app: web/app: batch/" "$top/pod.yaml" |
		k create -f - >/dev/null || fail "create page-$n"
done
# As the apiserver: the items left are counted only when nothing is filtered.
total=$(k get pods -o name | grep -c . || :)
expect 200 "\"remainingItemCount\":$((total - 2))}" GET '/api/v1/namespaces/default/pods?limit=2'
path='/api/v1/namespaces/default/pods?labelSelector=app%3Dbatch&limit=2'
expect 200 '"continue":"' GET "$path"
! grep -q remainingItemCount "$dir/body" || fail "a filtered list counts what remains"
names="" pages=0
while :; do
	pages=$((pages + 1))
	names="$names$(sed 's/"continue":"[^"]*"//' "$dir/body" |
		grep -o '"name":"page-[0-9]"' | sed 's/"name":"\(.*\)"/\1 /' | tr -d '\n')"
	token=$(sed -n 's/.*"continue":"\([^"]*\)".*/\1/p' "$dir/body")
	[ -n "$token" ] || break
	[ "$pages" -lt 10 ] || fail "pagination does not end"
	expect 200 '"kind":"PodList"' GET "$path&continue=$token"
done
[ "$names" = "page-0 page-1 page-2 page-3 page-4 " ] || fail "pages gave \"$names\""
[ "$pages" = 3 ] || fail "5 pods in pages of 2 took $pages pages"
# kubectl pages as well: its --chunk-size is the limit it sends.
k_is "page-0 page-1 page-2 page-3 page-4" get pods --chunk-size 2 -l app=batch \
	-o jsonpath='{.items[*].metadata.name}'
k_is "p2" get pods -l 'app in (web),tier!=gold' -o jsonpath='{.items[*].metadata.name}'
k_is "page-3" get pods --field-selector metadata.name=page-3 -o jsonpath='{.items[*].metadata.name}'
k_is "" get pods --field-selector spec.schedulerName=default-scheduler \
	-o jsonpath='{.items[*].metadata.name}'
# A node that is not cordoned has no spec.unschedulable, and matches "false".
k_is n1 get nodes --field-selector spec.unschedulable=false -o jsonpath='{.items[*].metadata.name}'
k_is "" get nodes --field-selector spec.unschedulable=true -o jsonpath='{.items[*].metadata.name}'
expect 400 'field label not supported: spec.color' GET '/api/v1/pods?fieldSelector=spec.color%3Dred'
expect 400 'unable to parse requirement' GET '/api/v1/pods?labelSelector=app%20in%20x'

# ---- watches: bookmarks, timeouts, 410 Gone, dropped streams ----
rv=$(cur_rv)
curl -sSN "$base/api/v1/pods?watch=1&resourceVersion=$rv&allowWatchBookmarks=true&timeoutSeconds=2" \
	>"$dir/bm" || fail "a watch that times out did not end cleanly"
grep -qF "{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{\"resourceVersion\":\"$rv\"}}}" \
	"$dir/bm" || fail "no bookmark at $rv: $(cat "$dir/bm")"
# From an old resourceVersion: the events since, in order, the deletion last.
curl -sSN "$base/api/v1/namespaces/default/pods?watch=true&resourceVersion=$rv1&timeoutSeconds=1" \
	>"$dir/replay" || fail "replay watch"
sed -n 's/^{"type":"\([A-Z]*\)".*"name":"\(p[12]\)".*/\1 \2/p' "$dir/replay" | tr '\n' ' ' \
	>"$dir/types"
case $(cat "$dir/types") in
"MODIFIED p1 DELETED p1 ADDED p1 MODIFIED p1 ADDED p2 "*) ;;
*) fail "replay from $rv1 gave: $(cat "$dir/types")" ;;
esac
# Compacted: the old resourceVersion is gone, for watches and continued lists.
expect 200 '"continue"' GET '/api/v1/pods?limit=1'
token=$(sed -n 's/.*"continue":"\([^"]*\)".*/\1/p' "$dir/body")
k label pod p2 compacted=yes >/dev/null || fail "label p2"
expect 200 '"compacted":' POST /__test/compact
curl -sSN "$base/api/v1/pods?watch=1&resourceVersion=$rv1" >"$dir/gone" ||
	fail "a 410 watch did not end cleanly"
grep -q '^{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1",.*"reason":"Expired","code":410}}$' \
	"$dir/gone" || fail "no 410 for a compacted resourceVersion: $(cat "$dir/gone")"
expect 410 '"reason":"Expired"' GET "/api/v1/pods?limit=1&continue=$token"
curl -sSN "$base/api/v1/pods?watch=1&resourceVersion=$(cur_rv)&timeoutSeconds=1" >"$dir/fresh" ||
	fail "a watch from the compacted revision"
[ ! -s "$dir/fresh" ] || fail "a watch from now said: $(cat "$dir/fresh")"
# A dropped stream ends at once, broken (no last chunk), and the client sees it.
curl -sSN "$base/api/v1/nodes?watch=1" >"$dir/drop" 2>&1 &
cpid=$!
bg="$bg $cpid"
wait_for "$dir/drop" '"name":"n1"'
expect 200 '"dropped":' POST /__test/drop-watches
i=0
while kill -0 "$cpid" 2>/dev/null; do
	i=$((i + 1))
	[ "$i" -le 200 ] || fail "a dropped watch stream stays open"
	sleep 0.05
done
if wait "$cpid"; then
	fail "a dropped watch ended as if cleanly"
fi
expect 200 '"watchesOpen":0' GET /__test/stats

# ---- bad input: refused, and nothing changes ----
rv=$(cur_rv)
pods=/api/v1/namespaces/default/pods
expect 400 'json parse error' POST $pods '{"kind":"Pod",'
expect 400 'must be a JSON object' POST $pods '[1,2]'
expect 400 'the API version in the data (v2) does not match' POST $pods \
	'{"apiVersion":"v2","kind":"Pod","metadata":{"name":"x"}}'
expect 400 'the kind in the data (Node) does not match' POST $pods \
	'{"apiVersion":"v1","kind":"Node","metadata":{"name":"x"}}'
expect 400 "Object 'Kind' is missing" POST $pods '{"apiVersion":"v1","metadata":{"name":"x"}}'
expect 422 'name or generateName is required' POST $pods '{"apiVersion":"v1","kind":"Pod","metadata":{}}'
expect 422 'metadata.name: Invalid value: \"Bad_Name\"' POST $pods \
	'{"apiVersion":"v1","kind":"Pod","metadata":{"name":"Bad_Name"}}'
expect 400 'labels and annotations must be maps of strings' POST $pods \
	'{"apiVersion":"v1","kind":"Pod","metadata":{"name":"x","labels":{"a":1}}}'
expect 400 'does not match the namespace sent on the request' POST $pods \
	'{"apiVersion":"v1","kind":"Pod","metadata":{"name":"x","namespace":"other"}}'
expect 404 'namespaces \"nowhere\" not found' POST /api/v1/namespaces/nowhere/pods \
	'{"apiVersion":"v1","kind":"Pod","metadata":{"name":"x"}}'
expect 400 'the name of the object (p3) does not match the name on the URL (p2)' PUT $pods/p2 \
	'{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p3"}}'
expect 400 'spec: must be an object' PUT $pods/p2 \
	'{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p2"},"spec":7}'
expect 400 'json parse error' PATCH $pods/p2 'nope' application/merge-patch+json
expect 400 'the name of the object (zz) does not match' PATCH $pods/p2 \
	'{"metadata":{"name":"zz"}}' application/merge-patch+json
expect 415 'application/merge-patch+json' PATCH $pods/p2 '[]' application/json-patch+json
expect 400 'the kind in the data (Pod) does not match the expected kind (Binding)' \
	POST $pods/page-0/binding '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"page-0"}}'
expect 422 'target.name: Required value' POST $pods/page-0/binding \
	'{"apiVersion":"v1","kind":"Binding","metadata":{"name":"page-0"}}'
expect 400 'the API version in the data (v1) does not match the expected API version (policy/v1)' \
	POST $pods/page-0/eviction '{"apiVersion":"v1","kind":"Eviction","metadata":{"name":"page-0"}}'
expect 409 'the object has been modified' PUT $pods/p2 \
	"{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p2\",\"resourceVersion\":\"$rv1\"}}"
expect 404 'the server could not find the requested resource' GET /apis/example.com/v1/widgets
expect 405 'does not allow this method' DELETE /api/v1/namespaces/default/pods
expect 400 'continue key is not valid' GET '/api/v1/pods?continue=%21%21'
expect 400 'non-negative integers' GET '/api/v1/pods?watch=1&resourceVersion=abc'
[ "$(cur_rv)" = "$rv" ] || fail "refused requests changed the store: rv $rv -> $(cur_rv)"

# ---- the request log: who asked what, answered how ----
expect 200 '"last":' GET /__test/requests
last=$(sed -n 's/^{"last":\([0-9]*\),.*/\1/p' "$dir/body")
k label node n1 role=edge >/dev/null || fail "label node n1"
k_is n1 get nodes -l role=edge -o jsonpath='{.items[*].metadata.name}'
expect 200 '"method":"PATCH","path":"/api/v1/nodes/n1","watch":false,"code":200,"userAgent":"kubectl' \
	GET "/__test/requests?since=$last"
grep -q "^{\"last\":[0-9]*,\"requests\":\[{\"seq\":$((last + 1)),\"method\":\"GET\"" \
	"$dir/body" || fail "the log since $last: $(cat "$dir/body")"
k_is " batch" get pod page-0 -o jsonpath='{.spec.nodeName} {.metadata.labels.app}'

# ---- a clean stop ----
kill -TERM "$pid"
rc=0
wait "$pid" || rc=$?
pid=
[ "$rc" = 0 ] || fail "kapiserver exited $rc on SIGTERM"
if grep -q 'Sanitizer\|runtime error' "$dir/log"; then
	fail "the sanitizers spoke"
fi
# ---- --load: a cluster restored as etcd holds it, statuses and uids kept ----
cat >"$dir/load.json" <<'EOF'
{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"big"}}

{"apiVersion":"v1","kind":"Node","metadata":{"name":"m1","labels":{"zone":"z1"}},"status":{"allocatable":{"cpu":"8","memory":"16Gi","pods":"110"}}}
{"apiVersion":"scheduling.volcano.sh/v1beta1","kind":"PodGroup","metadata":{"name":"g1","namespace":"big"},"spec":{"minMember":1},"status":{"phase":"Running","running":1}}
{"apiVersion":"v1","kind":"Pod","metadata":{"name":"r1","namespace":"big","uid":"11111111-2222-3333-4444-555555555555"},"spec":{"schedulerName":"volcano","nodeName":"m1","containers":[{"name":"c","image":"i"}]},"status":{"phase":"Running"}}
{"apiVersion":"v1","kind":"Pod","metadata":{"name":"w1","namespace":"big"},"spec":{"schedulerName":"volcano","containers":[{"name":"c","image":"i"}]}}
EOF
"$server" --port-file "$dir/port2" --load "$dir/load.json" --creation-step 5 >"$dir/log" 2>&1 &
pid=$!
i=0
while [ ! -s "$dir/port2" ]; do
	i=$((i + 1))
	[ "$i" -le 200 ] && kill -0 "$pid" 2>/dev/null || fail "kapiserver --load did not start"
	sleep 0.05
done
grep -q "^kapiserver: loaded 5 objects from $dir/load.json\$" "$dir/log" || fail "--load: the count"
printf 'apiVersion: v1\nkind: Config\nclusters: [{name: t, cluster: {server: "http://127.0.0.1:%s"}}]\nusers: [{name: t, user: {}}]\ncontexts: [{name: t, context: {cluster: t, user: t}}]\ncurrent-context: t\n' \
	"$(cat "$dir/port2")" >"$dir/kubeconfig2"
k2() { kubectl --kubeconfig "$dir/kubeconfig2" "$@"; }
got=$(k2 get pods -n big -o jsonpath='{range .items[*]}{.metadata.name}={.status.phase}/{.spec.nodeName}/{.metadata.resourceVersion} {end}')
[ "$got" = "r1=Running/m1/8 w1=//9 " ] || fail "--load: the pods: $got"
got=$(k2 get pod r1 -n big -o jsonpath='{.metadata.uid}')
[ "$got" = 11111111-2222-3333-4444-555555555555 ] || fail "--load: the uid given was not kept: $got"
got=$(k2 get podgroups.scheduling.volcano.sh g1 -n big -o jsonpath='{.status.phase} {.status.running}')
[ "$got" = "Running 1" ] || fail "--load: the PodGroup's status was not kept: $got"
k2 get nodes m1 -o jsonpath='{.metadata.creationTimestamp}' | grep -q '^20[0-9][0-9]-' ||
	fail "--load: no creationTimestamp"
# --creation-step 5: two objects made at once are stamped 5 s apart, in order
printf 'apiVersion: v1\nkind: Namespace\nmetadata: {name: s%s}\n---\n' 1 2 |
	k2 create -f - >"$dir/out" 2>&1 || fail "--creation-step: kubectl create: $(cat "$dir/out")"
t1=$(k2 get namespace s1 -o jsonpath='{.metadata.creationTimestamp}')
t2=$(k2 get namespace s2 -o jsonpath='{.metadata.creationTimestamp}')
[ $(($(date -u -d "$t2" +%s) - $(date -u -d "$t1" +%s))) -ge 5 ] ||
	fail "--creation-step 5: s1 made at $t1, s2 at $t2"
kill -TERM "$pid"
rc=0
wait "$pid" || rc=$?
pid=
[ "$rc" = 0 ] || fail "kapiserver --load exited $rc on SIGTERM"
! grep -q 'Sanitizer\|runtime error' "$dir/log" || fail "the sanitizers spoke"

rc=0
"$server" --creation-step soon >"$dir/log" 2>&1 || rc=$?
[ "$rc" = 2 ] && grep -qF 'invalid value "soon"' "$dir/log" ||
	fail "--creation-step soon: exit $rc, $(cat "$dir/log")"

# A bad file: the server does not start, and says which line and why.
load_refused() {
	printf '%s\n' "$1" >"$dir/bad.json"
	rc=0
	"$server" --load "$dir/bad.json" >"$dir/log" 2>&1 || rc=$?
	[ "$rc" = 1 ] || fail "--load of $1: exit $rc"
	grep -qF "kapiserver: $dir/bad.json:$2" "$dir/log" || fail "--load of $1: $(cat "$dir/log")"
}
load_refused '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"nowhere"}}' \
	'1: Pod nowhere/p: namespaces "nowhere" not found'
load_refused '{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d"}}' \
	'1: apiVersion "apps/v1" kind "Deployment" is not a kind this server serves'
load_refused '{"apiVersion":"v1","kind":"Node","metadata":{"name":"Big_Node"}}' \
	'1: Node: metadata.name: Invalid value: "Big_Node"'
load_refused '{"apiVersion":"v1","kind":"Node","metadata":{"name":"n"}}
{"apiVersion":"v1","kind":"Node","metadata":{"name":"n"}}' '2: Node n already exists'
load_refused '{"apiVersion":"v1","kind":"Node","metadata":{"name":"n"},"spec":[]}' \
	'1: spec: must be an object'
load_refused '{"apiVersion":"v1",' '1: not JSON: '
load_refused '["a list"]' '1: not a JSON object'

echo "kube-apiserver: kubectl create, get, get -w, patch, replace (409), delete;" \
	"binding, eviction, status, pages, selectors, bookmarks, 410 Gone, dropped watches," \
	"bad input refused with nothing changed; --load, --creation-step"
