# SPDX-License-Identifier: Apache-2.0
# What the bridge's end-to-end scripts (vskube-e2e.sh, vskube-faults.sh)
# share. Sourced; the caller sets $me (the name its messages start with)
# and $tmp (a directory of its own), and keeps its logs when $keep is set.

# Stop the process whose pid the variable named @1 holds, and empty it.
stop() {
	eval "p=\${$1}"
	if [ -n "$p" ]; then
		kill -TERM "$p" 2>/dev/null || :
		wait "$p" 2>/dev/null || :
	fi
	eval "$1="
}

# Say what failed, with the end of the logs, keep them, and exit 1.
fail() {
	echo "$me: FAIL: $*" >&2
	for f in out vskube.log vschedd.log; do
		[ ! -s "$tmp/$f" ] || { echo "  $f:"; tail -n 40 "$tmp/$f" | sed 's/^/    /'; } >&2
	done
	keep=1
	exit 1
}

# Wait up to 30 s for the command "$@" to succeed.
until_ok() {
	_end=$(($(date +%s) + 30))
	while ! "$@" >/dev/null 2>&1; do
		[ "$(date +%s)" -le "$_end" ] || return 1
		sleep 0.05
	done
}

# A pod NAME for the default queue, in a PodGroup of its own (the bridge makes it).
pod() {
	cat <<POD
apiVersion: v1
kind: Pod
metadata: {name: $1, namespace: default}
spec:
  schedulerName: volcano
  containers: [{name: c, image: busybox, resources: {requests: {cpu: 100m, memory: 64Mi}}}]
---
POD
}

# The first cluster the bridge binds in: the queue default, the Ready node w1
# (8 cpu, 16Gi) and the pod NAME.
one_node_cluster() {
	cat <<CLUSTER
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
CLUSTER
	pod "$1"
}

# Whether the pod NAME has a node (k: the caller's kubectl).
bound() {
	[ -n "$(k get pod "$1" -o jsonpath='{.spec.nodeName}')" ]
}

# The conf of the clusters that cycle by themselves.
cycling_conf() {
	cat <<CONF
actions: "enqueue, allocate, backfill"
tiers:
- plugins:
  - name: priority
  - name: gang
- plugins:
  - name: predicates
  - name: proportion
  - name: nodeorder
CONF
}
