#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# vsctl's object commands end to end: a real vschedd on a socket of the
# test's own, driven by the vsctl binary as a user would drive it. Each
# command that changes state must change what "list -o json" shows, and
# only that; a bad argument must change nothing and exit 2 naming the
# option; a refusal of the daemon must exit 1 with "vsctl: error:"; a client
# without the admin permission must be refused (as root only: it runs vsctl
# as nobody); "monitor" must print the bind of a "cycle run" and the events of
# the task it placed; "watch" must print the events of HyperNodes.
# Usage: selftests/vsctl-objects.sh OBJTREE
set -eu
objtree=$1
vsctl=$objtree/vsctl
dir=$(mktemp -d /tmp/vsctl-objects-XXXXXX)
sock=$dir/vs.sock
out=$dir/out
err=$dir/err
export VSCHED_SOCKET="$sock"
pid=
monitors=

cleanup() {
	for p in $monitors $pid; do
		kill -TERM "$p" 2>/dev/null || true
		wait "$p" 2>/dev/null || true
	done
	[ -n "${KEEP:-}" ] || rm -rf "$dir"
}
trap cleanup EXIT INT TERM

fail() {
	echo "vsctl-objects: FAIL: $*" >&2
	for f in "$out" "$err"; do
		[ -s "$f" ] && sed 's/^/    /' "$f" >&2
	done
	exit 1
}

checks=0

# run RC ARGS...: vsctl ARGS must exit RC; its output is in $out and $err.
run() {
	want=$1
	shift
	set +e
	"$vsctl" "$@" >"$out" 2>"$err"
	rc=$?
	set -e
	[ "$rc" -eq "$want" ] || fail "vsctl $* exited $rc, expected $want"
	checks=$((checks + 1))
}

# has FILE TEXT... / lacks FILE TEXT...: fixed strings.
has() {
	f=$1
	shift
	for want; do
		grep -qF -- "$want" "$f" || fail "no '$want' after vsctl $last"
	done
}

lacks() {
	f=$1
	shift
	for want; do
		! grep -qF -- "$want" "$f" || fail "'$want' still there after vsctl $last"
	done
}

# listed KIND: what "KIND list -o json" shows, in $out (one object of each kind, mostly).
listed() {
	last="$1 list -o json"
	run 0 "$1" list -o json
}

# usage_error MESSAGE ARGS...: exit 2 and MESSAGE on stderr.
usage_error() {
	msg=$1
	shift
	last="$*"
	run 2 "$@"
	has "$err" "$msg"
}

# daemon_error MESSAGE ARGS...: the daemon refuses, exit 1 and "vsctl: error: MESSAGE".
daemon_error() {
	msg=$1
	shift
	last="$*"
	run 1 "$@"
	has "$err" "vsctl: error: $msg"
}

# daemon_says MESSAGE ARGS...: the daemon refuses, exit 1, and its words
# after "vsctl: error: " (and the object it names) say MESSAGE.
daemon_says() {
	msg=$1
	shift
	last="$*"
	run 1 "$@"
	has "$err" "vsctl: error: " "$msg"
}

# ok ARGS...: a command that must succeed.
ok() {
	last="$*"
	run 0 "$@"
}

# snapshot: every object as JSON, to see that a refused command changed nothing.
snapshot() {
	for k in node queue podgroup task job prioclass hypernode; do
		"$vsctl" "$k" list -o json || fail "$k list failed"
	done >"$1"
}

unchanged() {
	snapshot "$dir/after"
	cmp -s "$dir/before" "$dir/after" || { diff "$dir/before" "$dir/after" >"$out" || true; fail "vsctl $last changed something"; }
}

# wait_for FILE PATTERN: until the monitor writes a line matching PATTERN (10 s at most).
wait_for() {
	i=0
	until grep -qE -- "$2" "$1"; do
		i=$((i + 1))
		[ "$i" -le 200 ] || { cp "$1" "$out"; fail "no line '$2' from the monitor"; }
		sleep 0.05
	done
	checks=$((checks + 1))
}

# start_daemon [FLAGS...]: a vschedd on $sock, once it listens.
start_daemon() {
	"$objtree/vschedd" --socket "$sock" --period 0 --binder=auto --self-check "$@" \
		>>"$dir/vschedd.log" 2>&1 &
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
}

start_daemon

# ---- nodes ----

# A node takes 110 pods unless told, as a kubelet reports.
ok node add n0 --cpu 1
ok node show n0
has "$out" '"pods": "110"'
ok node del n0

ok node add n1 --cpu 8 --memory 32Gi --pods 110 --gpu 2 --res example.com/fpga=1 \
	--label zone=a --taint gpu=yes:NoSchedule
listed node
has "$out" '"cpu": "8"' '"memory": "32Gi"' '"pods": "110"' '"nvidia.com/gpu": "2"' \
	'"example.com/fpga": "1"' '"zone": "a"' '"key": "gpu"' '"effect": "NoSchedule"' \
	'"unschedulable": false' '"ready": true'

# set changes what it names: the other resources, labels and taints stay.
ok node set n1 --cpu 16 --label zone- --label rack=r1 --taint spot=true:PreferNoSchedule
listed node
has "$out" '"cpu": "16"' '"memory": "32Gi"' '"nvidia.com/gpu": "2"' '"rack": "r1"' \
	'"key": "gpu"' '"key": "spot"' '"effect": "PreferNoSchedule"'
lacks "$out" '"zone"'
ok node set n1 --taint gpu:NoSchedule- --taint spot=false:PreferNoSchedule
listed node
lacks "$out" '"key": "gpu"' '"value": "true"'
has "$out" '"key": "spot"' '"value": "false"'

ok node cordon n1
listed node
has "$out" '"unschedulable": true'
ok node list
has "$out" 'Ready,SchedulingDisabled'
ok node uncordon n1
listed node
has "$out" '"unschedulable": false'
# Its images: each name with its size; set --image replaces them all.
ok node set n1 --image nginx:1.25,nginx@sha256:ab=187Mi --image pause
listed node
has "$out" '"nginx:1.25"' '"nginx@sha256:ab"' '"sizeBytes": 196083712' '"pause"'
ok node set n1 --image redis:7=1Gi
listed node
has "$out" '"redis:7"' '"sizeBytes": 1073741824'
lacks "$out" '"nginx:1.25"' '"pause"'
ok node set n1 --not-ready
listed node
has "$out" '"ready": false'
ok node set n1 --ready --taint spot-
listed node
has "$out" '"ready": true'
lacks "$out" '"taints"'
# The last taint off is a NEW that replaces the node: the rest of it stays.
has "$out" '"cpu": "16"' '"nvidia.com/gpu": "2"' '"example.com/fpga": "1"' '"rack": "r1"' \
	'"unschedulable": false' '"redis:7"'

# ---- queues, priority classes, PodGroups ----

ok queue add q1 --weight 3 --capability cpu=64,memory=256Gi --reclaimable false --priority -2
listed queue
has "$out" '"weight": 3' '"capability": {' '"cpu": "64"' '"memory": "256Gi"' \
	'"reclaimable": false' '"priority": -2' '"state": "Open"'
ok queue set q1 --capability cpu=32 --weight 4
listed queue
has "$out" '"weight": 4' '"cpu": "32"' '"memory": "256Gi"' '"reclaimable": false'
ok queue close q1
listed queue
has "$out" '"state": "Closed"'
ok queue open q1
listed queue
has "$out" '"state": "Open"'

ok prioclass add high --value 1000 --preemption-policy Never --global-default
listed prioclass
has "$out" '"value": 1000' '"globalDefault": true' '"preemptionPolicy": "Never"'
ok prioclass set high --value 10 --no-global-default
listed prioclass
has "$out" '"value": 10' '"globalDefault": false' '"preemptionPolicy": "Never"'

ok podgroup add team-a/pg1 --queue q1 --min-member 3 --min-resources cpu=1 --priority-class high
listed podgroup
has "$out" '"queue": "q1"' '"minMember": 3' '"minResources": {' '"priorityClassName": "high"'
lacks "$out" '"preemptable"'
ok podgroup set pg1 -n team-a --min-member 1
listed podgroup
has "$out" '"minMember": 1' '"queue": "q1"' '"priorityClassName": "high"'
# --preemptable: its volcano.sh/preemptable, kept by a set that does not name it
ok podgroup set pg1 -n team-a --preemptable false
listed podgroup
has "$out" '"preemptable": false' '"minMember": 1'
ok podgroup set pg1 -n team-a --min-member 2
ok podgroup list -A -o wide
has "$out" 'PREEMPTABLE' 'false'
ok podgroup set pg1 -n team-a --preemptable true --min-member 1
ok podgroup show team-a/pg1
has "$out" '"preemptable": true' '"minMember": 1'
# --network-topology MODE[:TIER]: a number is highestTierAllowed, a name highestTierName
ok podgroup set pg1 -n team-a --network-topology soft:spine
listed podgroup
has "$out" '"networkTopology": {' '"mode": "soft"' '"highestTierName": "spine"' '"minMember": 1'
ok podgroup set pg1 -n team-a --network-topology hard:2
listed podgroup
has "$out" '"mode": "hard"' '"highestTierAllowed": 2' '"priorityClassName": "high"'
lacks "$out" '"highestTierName"'

# ---- bad arguments: exit 2, the option named, nothing changed ----

snapshot "$dir/before"
usage_error 'vsctl node add: --cpu "abc": ' node add n2 --cpu abc
unchanged
usage_error 'vsctl node set: --memory "-1Gi": ' node set n1 --memory -1Gi
unchanged
usage_error 'vsctl node add: --taint "k=v:Sometimes": unknown taint effect' \
	node add n2 --taint k=v:Sometimes
usage_error 'vsctl node add: --label "zone-": ' node add n2 --label zone-
usage_error 'vsctl node add: --image "a,,b=1": an empty image name' node add n2 --image a,,b=1
usage_error 'vsctl node set: --image "a=1x": size: invalid quantity' node set n1 --image a=1x
daemon_error 'node N2: invalid node name "N2": must start and end with a lowercase letter or digit' \
	node add N2
usage_error 'vsctl node add: --res "nvidia.com/gpu": expected NAME=QUANTITY' \
	node add n2 --res nvidia.com/gpu
usage_error 'vsctl queue add: --weight "0": not a number in 1..2147483647' queue add q2 --weight 0
usage_error 'vsctl queue set: --reclaimable "yes": not true or false' queue set q1 --reclaimable yes
usage_error 'vsctl queue add: --capability "cpu=1,": ' queue add q2 --capability cpu=1,
usage_error 'vsctl podgroup add: --min-member "-1": not a number' podgroup add pg2 --min-member -1
usage_error 'vsctl podgroup add: --preemptable "maybe": not true or false' \
	podgroup add pg2 --preemptable maybe
usage_error 'vsctl podgroup add: --network-topology "medium": unknown networkTopology mode "medium" (one of: hard, soft)' \
	podgroup add pg2 --network-topology medium
usage_error 'vsctl podgroup add: --network-topology "hard:": expected a tier after' \
	podgroup add pg2 --network-topology hard:
usage_error 'vsctl job add: --network-topology "hard:99999999999": highestTierAllowed "99999999999": not a number in 0..2147483647' \
	job add team-a/j9 --task w:1 --network-topology hard:99999999999
daemon_error 'podgroup Team/pg2: invalid namespace "Team": must start and end with a lowercase letter or digit' \
	podgroup add Team/pg2 --queue q1
usage_error 'vsctl prioclass add: --value is required' prioclass add low
usage_error 'vsctl prioclass add: --preemption-policy "Sometimes": ' \
	prioclass add low --value 1 --preemption-policy Sometimes
usage_error 'vsctl task add: --queue is for a task without --podgroup' \
	task add team-a/p9 --podgroup pg1 --queue q1
usage_error 'vsctl task status: unknown task event "runing"' task status team-a/p9 runing
usage_error 'vsctl task status: --exit-code goes with failed only' \
	task status team-a/p9 running --exit-code 1
usage_error 'vsctl job add: --task is required' job add team-a/j9
usage_error 'vsctl job add: --task "w:0": replicas "0": not a number in 1..2147483647' \
	job add team-a/j9 --task w:0
usage_error 'vsctl node set: nothing to change' node set n1
usage_error 'vsctl node cordon: expected NAME' node cordon
usage_error 'unrecognized option' node add n2 --cpus 1
unchanged

# ---- refusals of the daemon: exit 1, "vsctl: error: ..." ----

daemon_error 'node n1: exists already' node add n1
daemon_error 'node n9 not found' node set n9 --cpu 1
daemon_error 'node n9 not found' node cordon n9
daemon_error 'podgroup team-a/pg9: unable to find queue: queue q9 does not exist' podgroup add team-a/pg9 --queue q9
daemon_error 'queue q9 not found' queue close q9
daemon_error 'task team-a/p9 not found' task status team-a/p9 failed --exit-code 1
# vsctl reads an option only as far as the request needs it (a label's
# shape, a quantity, an effect); names and values are the daemon's to
# check, once for every client, and it says which field is wrong.
daemon_says 'node n2: invalid label key "Bad Key": only letters, digits' \
	node add n2 --label 'Bad Key=v'
daemon_says 'node n1: label "zone": invalid label value "-a-": must start and end with a letter or digit' \
	node set n1 --label zone=-a-
daemon_says 'node n1: invalid taint key "Bad Key": only letters, digits' \
	node set n1 --taint 'Bad Key=v:NoSchedule'
daemon_says 'node n2: invalid taint value "-x-": must start and end with a letter or digit' \
	node add n2 --taint k=-x-:NoSchedule
daemon_says 'node n2: allocatable: invalid resource name "foo": not a resource Kubernetes defines' \
	node add n2 --res foo=1
daemon_says 'queue q2: invalid parent queue name "Bad_Q": must start and end with a lowercase letter or digit' \
	queue add q2 --parent Bad_Q
daemon_says 'queue q1: capability: invalid resource name "Foo": not a resource Kubernetes defines' \
	queue set q1 --capability Foo=1
daemon_says 'pod team-a/p9: toleration 0: an empty key needs operator Exists' \
	task add team-a/p9 --podgroup pg1 --toleration =v
daemon_says 'pod team-a/p9: invalid nodeSelector key "a b": only letters, digits' \
	task add team-a/p9 --podgroup pg1 --node-selector 'a b=c'
daemon_says 'job team-a/j9: invalid task name "W": must start and end with a lowercase letter or digit' \
	job add team-a/j9 --queue q1 --task W:1
daemon_says 'job team-a/j9: task name "w" given twice' \
	job add team-a/j9 --queue q1 --task w:1 --task w:2
daemon_says 'vjob team-a/j9: policy 0: unknown job action "Reboot" (one of: AbortJob, RestartJob' \
	job add team-a/j9 --queue q1 --task w:1 --policy PodFailed=Reboot
# What the protocol's policy refuses is refused before it is sent, by the
# codec, naming the option: a label value past 63 characters.
usage_error "vsctl node set: --label \"zone=$(printf '%064d' 0)\": kv.value: 65 bytes with the NUL, at most 64" \
	node set n1 --label "zone=$(printf '%064d' 0)"
# vsctl checks only that a key can be sent; whether a name is a DNS name is
# the daemon's to say, once for every client: it refuses it for a new
# object and finds no object by it.
usage_error 'vsctl task show: "/p1": namespace is empty' task show /p1
usage_error 'vsctl task show: "team-a/": name is empty' task show team-a/
usage_error 'vsctl node show: "team-a/n1": a node has no namespace' node show team-a/n1
usage_error "vsctl task show: \"team-a/$(printf '%0254d' 0)\": name is longer than 253 characters" \
	task show "team-a/$(printf '%0254d' 0)"
daemon_error 'task team-a/Not_A_Name not found' task show team-a/Not_A_Name
usage_error 'vsctl task list: --status: unknown task status "Pendin" (one of: Pending, Allocated, Pipelined, Binding, Bound, Running, Releasing, Succeeded, Failed, Unknown)' \
	task list --status Pendin
unchanged

# ---- monitor: the decisions of a cycle, as ip monitor shows them ----

"$vsctl" monitor decisions cycles >"$dir/monitor" 2>&1 &
monitors=$!
"$vsctl" monitor -j >"$dir/monitor.json" 2>&1 &
monitors="$monitors $!"
"$vsctl" monitor events cycles >"$dir/monitor.events" 2>&1 &
monitors="$monitors $!"
# Subscribed once a cycle shows up: until then, run empty ones.
i=0
until grep -q '^\[cycles\] cycle' "$dir/monitor" && grep -q '"notification":"cycle"' \
	"$dir/monitor.json" && grep -q '^\[cycles\] cycle' "$dir/monitor.events"; do
	i=$((i + 1))
	[ "$i" -le 100 ] || { cp "$dir/monitor" "$out"; fail "the monitors saw no cycle"; }
	"$vsctl" cycle run >/dev/null || fail "cycle run failed"
	sleep 0.1
done

ok task add team-a/p1 --podgroup pg1 --cpu 1 --memory 1Gi --priority 5 --role worker \
	--node-selector rack=r1 --toleration gpu=yes:NoSchedule --toleration '' \
	--preemptable true --label app=web
listed task
has "$out" '"podgroup": "pg1"' '"status": "Pending"' '"cpu": "1"' '"memory": "1Gi"' \
	'"priority": 5' '"role": "worker"' '"rack": "r1"' '"operator": "Equal"' \
	'"operator": "Exists"' '"preemptable": true' '"app": "web"'
ok cycle run
wait_for "$dir/monitor" '^\[decisions\] cycle [0-9]+: bind team-a/p1 -> n1$'
wait_for "$dir/monitor" '^\[cycles\] cycle [0-9]+: 1 binds, 0 evicts, 0 pending, [0-9.]+ ms$'
wait_for "$dir/monitor.json" \
	'^\{"cycleID":[0-9]+,"decision":\[\{"kind":"bind","namespace":"team-a","name":"p1","node":"n1"\}\],"notification":"decisions"\}$'
# The events: the task made, sent to the binder, bound and running (--binder=auto).
wait_for "$dir/monitor.events" '^\[events\] new task team-a/p1 Pending$'
wait_for "$dir/monitor.events" '^\[events\] status task team-a/p1 Binding$'
wait_for "$dir/monitor.events" '^\[events\] status task team-a/p1 Bound$'
wait_for "$dir/monitor.events" '^\[events\] status task team-a/p1 Running$'
wait_for "$dir/monitor.json" '^\{"eventKind":"status","task":\{.*"name":"p1",.*"status":"Binding".*"notification":"event"\}$'
# In that order, and nothing else of the task.
[ "$(grep '^\[events\] [a-z]* task ' "$dir/monitor.events" | tr '\n' ,)" = \
  "[events] new task team-a/p1 Pending,[events] status task team-a/p1 Binding,[events] status task team-a/p1 Bound,[events] status task team-a/p1 Running," ] ||
	{ cp "$dir/monitor.events" "$out"; fail "the task's events are not its four, in order"; }
for p in $monitors; do
	kill -TERM "$p"
	wait "$p" || fail "a monitor did not end cleanly on SIGTERM"
done
monitors=

# ---- explain: why an object is where it is ----

ok explain task team-a/p1
has "$out" 'Task:     team-a/p1' 'Status:   Running' 'Message:  running on node n1'
ok explain node n1
has "$out" 'Node:     n1' 'Task team-a/p1: Running <cpu 1, memory 1Gi, pods 1>'
ok explain task team-a/p1 -j
has "$out" '"reason": "Running"' '"steps": ['
ok task add team-a/p2 --podgroup pg1 --cpu 1000
ok explain task team-a/p2
has "$out" 'Reason:   NotConsidered'
ok cycle run
ok explain task team-a/p2 --scores
has "$out" 'Reason:   NotAllocatable' 'Allocatable: refused: proportion: queue q1: allocated <' \
	'Scores: 0 of 1 nodes pass the predicates'
ok explain job team-a/pg1
has "$out" 'PodGroup: team-a/pg1' 'Reason:   NotAllocatable' \
	'Allocatable: the queue refused 1 task(s), the first p2: proportion: queue q1: allocated <'
usage_error '"pod": explain a job, podgroup, task or node' explain pod team-a/p1
usage_error '--scores: only a task is scored' explain node n1 --scores
usage_error '--scores: "0" is not a number from 1 to 1000' explain task team-a/p1 --scores=0
daemon_error 'task team-a/nobody not found' explain task team-a/nobody
ok task del team-a/p2

# ---- host ports and scheduling gates ----

# A gated task waits, on a node whose hostPort it asks for is free; the
# second task on that port waits for a node where it is free.
ok task add team-a/h1 --podgroup pg1 --cpu 100m --host-port 8080 --host-port 53/UDP@10.0.0.1 \
	--gated --image busybox --image nginx:1.25
ok task show team-a/h1
has "$out" '"gated": true' '"hostPort": 8080' '"protocol": "TCP"' '"protocol": "UDP"' \
	'"hostIP": "10.0.0.1"' '"busybox:latest"' '"nginx:1.25"'
ok cycle run
ok explain task team-a/h1
has "$out" 'Reason:   SchedulingGated'
ok task status team-a/h1 ungated
ok task add team-a/h2 --podgroup pg1 --cpu 100m --host-port 8080/TCP
ok cycle run
ok task show team-a/h1
has "$out" '"node": "n1"'
ok explain task team-a/h2
has "$out" "node(s) didn't have free ports for the requested pod ports"
usage_error 'vsctl task add: --host-port "0": expected PORT[/PROTOCOL][@HOSTIP], PORT in 1..65535' \
	task add team-a/h3 --podgroup pg1 --host-port 0
usage_error 'vsctl task add: --host-port "80/tcp": unknown protocol "tcp" (one of: TCP, UDP, SCTP)' \
	task add team-a/h3 --podgroup pg1 --host-port 80/tcp
daemon_says 'pod team-a/h3: hostPorts[0]: hostIP "10.0" is not an IPv4 or IPv6 address' \
	task add team-a/h3 --podgroup pg1 --host-port 80@10.0
usage_error 'vsctl task add: --image "": an empty image' task add team-a/h3 --podgroup pg1 --image ""
ok task del team-a/h1
ok task del team-a/h2

# ---- what a pod's arrival asks of the daemon: its owner's PodGroup, admission ----

ok task add team-a/o1 --owner-uid u-1 --queue q1 --cpu 1
ok task add team-a/o2 --owner-uid u-1 --queue q1 --cpu 1
ok task list -n team-a -o json
has "$out" '"name": "o1",' '"name": "o2",' '"podgroup": "podgroup-u-1"'
ok podgroup list -n team-a -o json
has "$out" '"name": "podgroup-u-1"'
daemon_error 'pod team-a/a1: no PriorityClass "nope"' \
	task add team-a/a1 --podgroup pg1 --admit --priority-class nope
ok task add team-a/a2 --podgroup pg1 --admit --priority-class high
last="task show team-a/a2"
run 0 task show team-a/a2
has "$out" '"priority": 10,' '"priorityClassName": "high"' '"preemptionPolicy": "Never"'
daemon_error 'pod team-a/s1: a pod of scheduler "default-scheduler" (this one is "volcano") is on no node' \
	task add team-a/s1 --podgroup pg1 --scheduler default-scheduler
for t in o1 o2 a2; do
	ok task del "team-a/$t"
done

# ---- task status ----

listed task
has "$out" '"node": "n1"'
ok task status team-a/p1 running
listed task
has "$out" '"status": "Running"'
ok task status team-a/p1 succeeded
listed task
has "$out" '"status": "Succeeded"'
lacks "$out" '"node": "n1"'
daemon_error 'task team-a/p1 is Succeeded: it cannot be running' task status team-a/p1 running
ok task status team-a/p1 deleted
ok task list -A -o json
lacks "$out" '"name": "p1"'

# ---- VolcanoJobs ----

ok job add team-a/tf --queue q1 --max-retry 5 --task ps:1:cpu=1 \
	--task worker:2:cpu=500m,memory=1Gi --policy PodFailed=RestartJob
ok job list -A -o json
has "$out" '"name": "tf"' '"maxRetry": 5' '"replicas": 2' '"cpu": "500m"' \
	'"event": "PodFailed"' '"action": "RestartJob"' '"phase": "Pending"'
ok job list -o wide
has "$out" 'RETRIES' 'TASKS' 'ps:1,worker:2' '0/5'
last="job show team-a/tf"
run 0 job show team-a/tf
has "$out" '"queue": "q1"' '"retryCount": 0'
ok job del team-a/tf
ok job list -j
lacks "$out" '"tf"'

# ---- HyperNodes: the tree over the nodes, and the events of its changes ----

"$vsctl" watch events cycles >"$dir/watch" 2>&1 &
monitors=$!
i=0
until grep -q '"notification":"cycle"' "$dir/watch"; do
	i=$((i + 1))
	[ "$i" -le 100 ] || { cp "$dir/watch" "$out"; fail "watch saw no cycle"; }
	"$vsctl" cycle run >/dev/null || fail "cycle run failed"
	sleep 0.1
done
ok node add gpu-a-1 --cpu 1 --label zone=z1
ok hypernode add leaf-a --tier 1 --tier-name leaf --member node:exact=n1 \
	--member 'node:regex=^gpu-a-'
ok hypernode add leaf-b --tier 1 --member node:labels=zone=z1,rack=
ok hypernode add spine --tier 2 --member hypernode:exact=leaf-a --member HyperNode:exact=leaf-b
listed hypernode
has "$out" '"name": "leaf-a"' '"tierName": "leaf"' '"regexMatch": "^gpu-a-"' \
	'"exactMatch": "n1"' '"parent": "spine"' '"nodeCount": 2' '"rack": ""' \
	'"type": "HyperNode"' '"children": 2'
ok hypernode list
# name order, and the tree: spine over both leaves, its nodes theirs; none discovered
[ "$(awk 'NR > 1 { print $1, $(NF - 1), $NF }' "$out" | tr '\n' ,)" = \
	"leaf-a 2 -,leaf-b 0 -,spine 2 -," ] ||
	fail "hypernode list: not the three in name order with their node counts"
ok hypernode list -o wide
has "$out" 'MEMBERS' 'node:exact=n1 node:regex=^gpu-a-' 'node:labels=rack=,zone=z1' \
	'hypernode:exact=leaf-a hypernode:exact=leaf-b'
ok hypernode show spine
has "$out" '"children": 2' '"nodeCount": 2'
lacks "$out" '"parent"'
# set: what it names; members given replace them all
ok hypernode set leaf-a --tier-name tor
ok hypernode show leaf-a
has "$out" '"tierName": "tor"' '"regexMatch": "^gpu-a-"'
ok hypernode set spine --member hypernode:exact=leaf-a
ok hypernode show leaf-b
lacks "$out" '"parent"'
ok stats show -o json
has "$out" '"nrHyperNodes": 3' '"hyperNodesReady": true'
snapshot "$dir/before"
usage_error 'vsctl hypernode add: --member "rack:exact=r1": unknown member type "rack" (one of: node, hypernode)' \
	hypernode add x --tier 1 --member rack:exact=r1
usage_error 'vsctl hypernode add: --member "node:name=n1": unknown selector "name" (one of: exact, regex, labels)' \
	hypernode add x --tier 1 --member node:name=n1
usage_error 'vsctl hypernode add: --member "node:labels=zone": label "zone": expected KEY=VALUE' \
	hypernode add x --tier 1 --member node:labels=zone
usage_error 'vsctl hypernode add: --member "node:exact=": the name is empty' \
	hypernode add x --tier 1 --member node:exact=
usage_error 'vsctl hypernode add: --member is required' hypernode add x --tier 1
usage_error 'vsctl hypernode add: --tier is required' hypernode add x --member node:exact=n1
usage_error 'vsctl hypernode add: --tier "-1": not a number in 0..2147483647' \
	hypernode add x --tier -1 --member node:exact=n1
daemon_error 'hypernode x: member 0: regexMatch pattern "(": ' \
	hypernode add x --tier 1 --member 'node:regex=('
daemon_error 'hypernode leaf-a: exists already' hypernode add leaf-a --tier 1 --member node:exact=n1
daemon_says 'hypernode name' hypernode add Not_A_Name --tier 1 --member node:exact=n1
daemon_error 'hypernode nope not found' hypernode del nope
daemon_error 'hypernode nope not found' hypernode set nope --tier 3
unchanged
ok hypernode del spine
wait_for "$dir/watch" '^\{"eventKind":"new","hypernode":\{"name":"leaf-a",.*"notification":"event"\}$'
wait_for "$dir/watch" '^\{"eventKind":"new","hypernode":\{"name":"spine",.*"children":2,"nodeCount":2\},"notification":"event"\}$'
wait_for "$dir/watch" '^\{"eventKind":"set","hypernode":\{"name":"leaf-a",.*"tierName":"tor",.*"notification":"event"\}$'
wait_for "$dir/watch" '^\{"eventKind":"del","hypernode":\{"name":"spine",.*"notification":"event"\}$'
# each change once, in order, and none of the refused ones
[ "$(grep -o '^{"eventKind":"[a-z]*","hypernode":{"name":"[a-z-]*"' "$dir/watch" |
     sed 's/.*Kind":"\([a-z]*\)".*name":"\(.*\)"/\1 \2/' | tr '\n' ,)" = \
  "new leaf-a,new leaf-b,new spine,set leaf-a,set spine,del spine," ] ||
	{ cp "$dir/watch" "$out"; fail "the HyperNodes' events are not their six, in order"; }
kill -TERM "$monitors"
wait "$monitors" || fail "watch did not end cleanly on SIGTERM"
monitors=

# ---- outputs and help ----

for k in node queue podgroup task job prioclass hypernode; do
	ok "$k" list -o wide
	ok "$k" list -j
	cp "$out" "$dir/j"
	ok "$k" list -o json
	cmp -s "$out" "$dir/j" || fail "$k list: -j and -o json differ"
done
ok node list -o wide
has "$out" 'LABELS' 'rack=r1'
ok queue list -o wide
has "$out" 'CAPABILITY' 'cpu=32,memory=256Gi'
ok node add --help
has "$out" 'usage: vsctl node add' '--cpu Q' '--taint KEY[=VALUE]:EFFECT'
ok hypernode add --help
has "$out" 'usage: vsctl hypernode add' '--tier N' '--member TYPE:SEL=VALUE'
ok task status --help
has "$out" '--exit-code N'
ok monitor --help
has "$out" '--count N'

# ---- a client without the admin permission ----

if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null &&
	setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$vsctl"; then
	chmod 0755 "$dir"
	chmod 0666 "$sock"
	nobody() {
		last="$* (as nobody)"
		set +e
		setpriv --reuid=65534 --regid=65534 --clear-groups "$vsctl" "$@" >"$out" 2>"$err"
		rc=$?
		set -e
		checks=$((checks + 1))
	}
	snapshot "$dir/before"
	nobody node add n7 --cpu 1
	[ "$rc" -eq 1 ] || fail "vsctl $last exited $rc, expected 1"
	has "$err" 'vsctl: error: VS_CMD_NODE_NEW needs the admin permission'
	nobody node cordon n1
	[ "$rc" -eq 1 ] || fail "vsctl $last exited $rc, expected 1"
	has "$err" 'needs the admin permission'
	nobody queue close q1
	[ "$rc" -eq 1 ] || fail "vsctl $last exited $rc, expected 1"
	nobody_state=$(mktemp -u /tmp/vsctl-objects-nobody-XXXXXX)
	nobody dump "$nobody_state"
	[ "$rc" -eq 1 ] || fail "vsctl $last exited $rc, expected 1"
	has "$err" 'VS_CMD_DUMP needs the admin permission'
	[ ! -e "$nobody_state" ] && [ ! -e "$nobody_state.tmp" ] || fail "a refused dump left a file"
	rm -f "$nobody_state" "$nobody_state.tmp"
	nobody node list -o json
	[ "$rc" -eq 0 ] || fail "vsctl $last exited $rc: reading is open to anyone"
	has "$out" '"name": "n1"'
	unchanged
else
	echo "vsctl-objects: the test of a client without the admin permission needs root; skipped"
fi

# ---- dump: a checkpoint another daemon restores ----

snapshot "$dir/before"
ok dump "$dir/state"
has "$out" "$dir/state: " " requests, "
unchanged
usage_error 'usage: vsctl dump' dump
kill -TERM "$pid"
wait "$pid" || fail "vschedd did not stop cleanly"
start_daemon --checkpoint "$dir/state" --checkpoint-interval 0
last="dump, and a daemon restored from it"
has "$dir/vschedd.log" "checkpoint $dir/state restored"
snapshot "$dir/after"
# The same objects with the same quantities. A zero the original's history
# left in a resource list is not written; the last cycle's view of queues
# and the cycle that set a PodGroup's condition belong to no checkpoint.
same() {
	jq -S 'walk(if type == "object" then with_entries(select(.value != "0")) |
		del(.cycleDeserved, .sharePpm, .overused, .transition, .transitionID)
		else . end)' "$1"
}
same "$dir/before" >"$dir/before.n" && same "$dir/after" >"$dir/after.n" ||
	fail "jq cannot read the lists"
cmp -s "$dir/before.n" "$dir/after.n" ||
	{ diff "$dir/before.n" "$dir/after.n" >"$out" || true; fail "the restored daemon differs"; }
checks=$((checks + 1))

# ---- deletion ----

ok podgroup del team-a/pg1
ok queue del q1
ok prioclass del high
ok hypernode del leaf-a
ok hypernode del leaf-b
ok node del n1
ok node del gpu-a-1
snapshot "$dir/after"
[ "$(tr -d ' \n' <"$dir/after")" = '[][][][][][][]' ] || { cp "$dir/after" "$out"; fail "objects left"; }

echo "vsctl-objects: $checks checks of vsctl's object commands against vschedd passed"
