#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
#
# A real Kubernetes API server on loopback for the bridge's tests
# (Documentation/kube-test-apiserver.md, "The real kube-apiserver"): etcd
# (selftests/peers/cmd/etcd-embed) and kube-apiserver, both built by `make peers`
# from the releases pinned in selftests/peers/go.mod, with Volcano's CRDs
# installed from the Volcano release the oracle pins, but for the PodGroup
# CRD (which in that release has no networkTopology) and the HyperNode CRD
# (which that release has not): make peers writes those from volcano.sh/apis
# (selftests/peers/crdgen/).
#
#   selftests/real-apiserver.sh start DIR [PEERS]
#   selftests/real-apiserver.sh stop DIR
#   selftests/real-apiserver.sh restart-apiserver DIR [compact]
#   selftests/real-apiserver.sh compact DIR
#
# start makes DIR (which must not hold a running server), generates with
# openssl a CA, the serving certificate for 127.0.0.1 and localhost, an admin
# client certificate (group system:masters), a client certificate for the
# user "vsched-bridge" and the service-account signing keys, and a bearer
# token for the user "vsched-test" (the two users have no groups: RBAC grants
# them nothing until a test binds a role to them). It starts etcd and
# kube-apiserver on free loopback ports, waits for /readyz, installs the
# CRDs and waits for them to be Established, and writes:
#   DIR/admin.kubeconfig   the admin, by client certificate, CA verified
#   DIR/token.kubeconfig   the user vsched-test, by bearer token, CA verified
#   DIR/bridge.kubeconfig  the user vsched-bridge, by client certificate
#   DIR/env                SERVER, TOKEN, ETCD, the ports, the kubeconfigs,
#                          PEERS and KUBECTL (the kubectl of PEERS)
# Every step is bounded and logged in DIR/real-apiserver.log; the servers log
# to DIR/etcd.log and DIR/kube-apiserver.log, and every request of a user
# outside system:masters is in DIR/audit.log. A start that fails stops what
# it started and exits 1 with the end of the logs.
#
# PEERS is where `make peers` put the programs (kube-apiserver, kubectl,
# etcd-embed) and the CRDs: GO_DIR/peers, by default go/peers in the source
# tree. The kubectl there is the one used, never the machine's.
#
# stop sends SIGTERM to kube-apiserver, then etcd, waits up to STOP_TIMEOUT
# seconds (10) for each, then SIGKILL; nothing it started is left running.
#
# restart-apiserver stops kube-apiserver (its watches end) and starts it
# again on the same port and etcd, and waits for /readyz; with "compact",
# etcd is compacted while it is down. compact writes a key outside
# /registry/ to etcd and compacts etcd's history up to it, printing the
# revision: a list resumed with an older continue token is 410 Gone, and
# after a restart so is every watch resumed from before (kube-apiserver's
# watch cache starts at etcd's revision, past what any client has seen).
#
# READY_TIMEOUT (120) bounds each wait of start, in seconds. The ports are
# picked below the kernel's ephemeral range; a server that exits because
# another process bound its port first is started again on another, up to
# five times. APISERVER_PORTS lists ports kube-apiserver is tried on first
# (one taken is skipped the same way).
set -eu

srctree=$(cd "$(dirname "$0")/.." && pwd)
READY_TIMEOUT=${READY_TIMEOUT:-120}
STOP_TIMEOUT=${STOP_TIMEOUT:-10}
APISERVER_PORTS=${APISERVER_PORTS:-}

usage() {
	echo "usage: selftests/real-apiserver.sh start DIR [PEERS] | stop DIR |" \
	     "restart-apiserver DIR [compact] | compact DIR" >&2
	exit 2
}

[ $# -ge 2 ] || usage
cmd=$1
dir=$2

case $APISERVER_PORTS in *[!0-9\ ]*)
	echo "real-apiserver: APISERVER_PORTS is a list of port numbers (got '$APISERVER_PORTS')" >&2
	exit 2 ;;
esac
case $READY_TIMEOUT$STOP_TIMEOUT in
*[!0-9]*)
	echo "real-apiserver: READY_TIMEOUT and STOP_TIMEOUT are whole seconds" \
	     "(got '$READY_TIMEOUT', '$STOP_TIMEOUT')" >&2
	exit 2 ;;
esac

log() {
	echo "$(date -u +%H:%M:%S.%N | cut -c1-12) $*" >>"$dir/real-apiserver.log"
}

say() {
	log "$*"
	echo "real-apiserver: $*" >&2
}

# The pid in DIR/NAME.pid, if that process is still the program started
# under that name (a pid may be reused once the process is gone).
live_pid() {
	pf=$dir/$1.pid
	[ -s "$pf" ] || return 1
	p=$(cat "$pf")
	case $p in '' | *[!0-9]*) return 1 ;; esac
	[ -r "/proc/$p/cmdline" ] || return 1
	tr '\0' ' ' <"/proc/$p/cmdline" | grep -q -- "$1" || return 1
	echo "$p"
}

# Whether the process started as NAME is still there: its pid exists and has
# not exited (a zombie has). Not live_pid: between the fork and the exec the
# child's command line is still this script's, and under load a server is
# looked at in that moment.
running() {
	pf=$dir/$1.pid
	[ -s "$pf" ] || return 1
	p=$(cat "$pf")
	case $p in '' | *[!0-9]*) return 1 ;; esac
	st=$(sed 's/.*) //' "/proc/$p/stat" 2>/dev/null | cut -d' ' -f1)
	[ -n "$st" ] && [ "$st" != Z ]
}

stop_one() {
	name=$1
	if ! p=$(live_pid "$name"); then
		rm -f "$dir/$name.pid"
		return 0
	fi
	log "stop: SIGTERM to $name ($p)"
	kill -TERM "$p" 2>/dev/null || true
	w0=$(now_ms)
	deadline=$((w0 + STOP_TIMEOUT * 1000))
	while kill -0 "$p" 2>/dev/null; do
		# A zombie has exited: only its parent's wait is missing.
		case $(cut -d' ' -f3 "/proc/$p/stat" 2>/dev/null) in Z | '') break ;; esac
		if [ "$(now_ms)" -ge "$deadline" ]; then
			say "stop: $name ($p) still running after ${STOP_TIMEOUT}s: SIGKILL"
			kill -KILL "$p" 2>/dev/null || true
			break
		fi
		sleep 0.1
	done
	log "stop: $name ($p) stopped after $(since "$w0")s"
	rm -f "$dir/$name.pid"
}

stop_all() {
	stop_one kube-apiserver
	stop_one etcd-embed
}

# A loopback port no socket uses, none of the ports given (those chosen
# before: each call runs in a subshell of its own, which remembers nothing),
# below the kernel's ephemeral range: a port in it may be the local end of
# any outgoing connection a moment later, and a listener cannot bind a port
# a connection holds. Another process may still take it before the server
# does: the server then exits saying "address already in use", and
# start_on_free_port tries another.
free_port() {
	lo=$(cut -f1 /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null)
	case $lo in '' | *[!0-9]*) lo=32768 ;; esac
	[ "$lo" -gt 12000 ] || lo=32768
	while :; do
		p=$(( $(od -An -N2 -tu2 /dev/urandom) % (lo - 10000) + 10000 ))
		case " $* " in *" $p "*) continue ;; esac
		if [ -z "$(ss -Htan "sport = :$p" 2>/dev/null)" ]; then
			echo "$p"
			return
		fi
	done
}

fail() {
	say "FAIL: $*"
	for f in etcd.log kube-apiserver.log kubectl.log; do
		[ -s "$dir/$f" ] || continue
		echo "--- last lines of $dir/$f" >&2
		tail -n 15 "$dir/$f" | cut -c1-300 >&2
	done
	stop_all
	exit 1
}

now_ms() {
	date +%s%3N
}

# Seconds since T0 (from now_ms), to a tenth.
since() {
	awk "BEGIN { printf \"%.1f\", ($(now_ms) - $1) / 1000 }"
}

# Poll until CONDITION (a command) succeeds, the process NAME dies, or
# READY_TIMEOUT seconds pass.
wait_for() {
	wait_up "$@" || fail "$2 exited while waiting for $1"
}

# wait_for, but returns 1 when NAME exits instead of failing.
wait_up() {
	what=$1
	name=$2
	shift 2
	w0=$(now_ms)
	deadline=$((w0 + READY_TIMEOUT * 1000))
	while ! "$@" >/dev/null 2>&1; do
		running "$name" || return 1
		[ "$(now_ms)" -lt "$deadline" ] || fail "no $what after ${READY_TIMEOUT}s"
		sleep 0.2
	done
	log "$what after $(since "$w0")s"
}

# Picks ports with PICK, starts NAME in the background with RUN (which logs
# to DIR/LOG) and waits for WHAT, the command READY. When NAME exits because
# another process took one of its ports first, picks new ones and runs it
# again, up to five times.
start_on_free_port() {
	name=$1 logf=$dir/$2 pick=$3 run=$4 what=$5 ready=$6
	tries=0
	while :; do
		"$pick"
		from=$(($(cat "$logf" 2>/dev/null | wc -l) + 1))
		"$run"
		wait_up "$what" "$name" "$ready" && return 0
		tries=$((tries + 1))
		if [ "$tries" -ge 5 ] ||
		   ! tail -n "+$from" "$logf" | grep -q 'address already in use'; then
			fail "$name exited while waiting for $what"
		fi
		say "$name exited: a port of its was taken before it bound it; trying others"
	done
}

# Certificates: a CA, the serving certificate, the admin's client
# certificate, and the service-account key pair. P-256 keys: generated in
# milliseconds, and Go's TLS takes them everywhere.
make_pki() {
	pki=$dir/pki
	mkdir -p "$pki"
	o() { openssl "$@" >>"$dir/openssl.log" 2>&1 || fail "openssl $1 failed (see $dir/openssl.log)"; }
	o req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 7 \
		-keyout "$pki/ca.key" -out "$pki/ca.crt" -subj "/CN=vsched-test-ca"
	cert() { # NAME SUBJECT EXTENSIONS
		o req -new -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
			-keyout "$pki/$1.key" -out "$pki/$1.csr" -subj "$2"
		printf '%s\n' "$3" >"$pki/$1.ext"
		o x509 -req -in "$pki/$1.csr" -CA "$pki/ca.crt" -CAkey "$pki/ca.key" \
			-CAcreateserial -days 7 -out "$pki/$1.crt" -extfile "$pki/$1.ext"
	}
	cert apiserver "/CN=kube-apiserver" "basicConstraints=CA:FALSE
keyUsage=digitalSignature,keyEncipherment
extendedKeyUsage=serverAuth
subjectAltName=IP:127.0.0.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc"
	cert admin "/O=system:masters/CN=vsched-admin" "basicConstraints=CA:FALSE
keyUsage=digitalSignature,keyEncipherment
extendedKeyUsage=clientAuth"
	# a user of no group: RBAC grants it what a test binds to it
	cert bridge "/CN=vsched-bridge" "basicConstraints=CA:FALSE
keyUsage=digitalSignature,keyEncipherment
extendedKeyUsage=clientAuth"
	o genpkey -algorithm EC -pkeyopt ec_paramgen_curve:prime256v1 -out "$pki/sa.key"
	o pkey -in "$pki/sa.key" -pubout -out "$pki/sa.pub"
	chmod 600 "$pki"/*.key
}

kubeconfig() { # FILE USER-LINES
	cat >"$1" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: real-apiserver
  cluster:
    server: $server
    certificate-authority: $dir/pki/ca.crt
users:
- name: user
  user:
$2
contexts:
- name: real-apiserver
  context:
    cluster: real-apiserver
    user: user
current-context: real-apiserver
EOF
}

# kube-apiserver on $port against $etcd, in the background, its pid in
# DIR/kube-apiserver.pid. No controller manager runs: the ServiceAccount
# admission plugin would refuse every pod for want of the "default"
# ServiceAccount it creates, and TaintNodesByCondition would leave every
# node tainted not-ready, a taint only the node lifecycle controller takes
# away once the kubelet says Ready. The endpoint reconciler would publish
# 127.0.0.1, which Endpoints refuse. Tokens of ServiceAccounts (kubectl
# create token) still work. Every request but those of system:masters (the
# server itself, the admin) goes to DIR/audit.log, a JSON line each: what
# the bridge asked, as RBAC saw it.
apiserver_run() {
	printf '%s\n' 'apiVersion: audit.k8s.io/v1' 'kind: Policy' \
		'omitStages: [RequestReceived]' 'rules:' \
		'- {level: None, userGroups: ["system:masters"]}' '- {level: Metadata}' \
		>"$dir/audit-policy.yaml"
	"$peers/kube-apiserver" \
		--etcd-servers="$etcd" \
		--bind-address=127.0.0.1 --advertise-address=127.0.0.1 --secure-port="$port" \
		--tls-cert-file="$dir/pki/apiserver.crt" --tls-private-key-file="$dir/pki/apiserver.key" \
		--client-ca-file="$dir/pki/ca.crt" \
		--token-auth-file="$dir/tokens.csv" \
		--authorization-mode=Node,RBAC \
		--service-account-issuer="$server" \
		--service-account-key-file="$dir/pki/sa.pub" \
		--service-account-signing-key-file="$dir/pki/sa.key" \
		--service-cluster-ip-range=10.96.0.0/24 \
		--disable-admission-plugins=ServiceAccount,TaintNodesByCondition \
		--endpoint-reconciler-type=none \
		--audit-policy-file="$dir/audit-policy.yaml" \
		--audit-log-path="$dir/audit.log" --audit-log-format=json --audit-log-mode=blocking \
		--profiling=false \
		</dev/null >>"$dir/kube-apiserver.log" 2>&1 &
	echo $! >"$dir/kube-apiserver.pid"
}

apiserver_ready() {
	[ "$(curl -s --max-time 5 --cacert "$dir/pki/ca.crt" --cert "$dir/pki/admin.crt" \
		--key "$dir/pki/admin.key" "$server/readyz")" = ok ]
}

start() {
	for f in kube-apiserver kubectl etcd-embed crd/.volcano crd/.apis; do
		[ -e "$peers/$f" ] || {
			echo "real-apiserver: no $peers/$f: run 'make peers' first" >&2
			exit 1
		}
	done
	mkdir -p "$dir"
	dir=$(cd "$dir" && pwd)
	for name in kube-apiserver etcd-embed; do
		if p=$(live_pid "$name"); then
			echo "real-apiserver: $dir already has a running $name ($p): stop it first" >&2
			exit 1
		fi
	done
	rm -rf "$dir/etcd" "$dir/pki" "$dir"/*.log "$dir"/*.kubeconfig "$dir/env" "$dir/tokens.csv"
	t0=$(now_ms)
	log "start: peers from $peers (Volcano $(cat "$peers/crd/.volcano"), the PodGroup and" \
	    "HyperNode CRDs from $(cat "$peers/crd/.apis"))"

	make_pki
	token=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
	printf '%s,vsched-test,vsched-test-uid\n' "$token" >"$dir/tokens.csv"
	chmod 600 "$dir/tokens.csv"
	log "certificates and token made"

	pick_etcd_ports() {
		etcd_port=$(free_port)
		etcd_peer_port=$(free_port "$etcd_port")
		etcd=http://127.0.0.1:$etcd_port
	}
	etcd_run() {
		rm -rf "$dir/etcd" # a start that failed may have begun its member
		"$peers/etcd-embed" --data-dir "$dir/etcd" --client-port "$etcd_port" \
			--peer-port "$etcd_peer_port" --ready-timeout "${READY_TIMEOUT}s" \
			--log "$dir/etcd.log" </dev/null >>"$dir/etcd.log" 2>&1 &
		echo $! >"$dir/etcd-embed.pid"
		log "etcd-embed ($!) on $etcd"
	}
	etcd_ready() { grep -q '^etcd-embed: ready' "$dir/etcd.log"; }
	start_on_free_port etcd-embed etcd.log pick_etcd_ports etcd_run "etcd ready" etcd_ready

	pick_apiserver_port() {
		set -- $APISERVER_PORTS
		if [ $# -gt 0 ]; then
			port=$1
			shift
			APISERVER_PORTS=$*
		else
			port=$(free_port "$etcd_port" "$etcd_peer_port")
		fi
		server=https://127.0.0.1:$port
	}
	apiserver_start() {
		apiserver_run
		log "kube-apiserver ($(cat "$dir/kube-apiserver.pid")) on $server"
	}
	start_on_free_port kube-apiserver kube-apiserver.log pick_apiserver_port apiserver_start \
		"kube-apiserver /readyz" apiserver_ready

	kubeconfig "$dir/admin.kubeconfig" "    client-certificate: $dir/pki/admin.crt
    client-key: $dir/pki/admin.key"
	kubeconfig "$dir/token.kubeconfig" "    token: $token"
	kubeconfig "$dir/bridge.kubeconfig" "    client-certificate: $dir/pki/bridge.crt
    client-key: $dir/pki/bridge.key"
	chmod 600 "$dir"/*.kubeconfig

	k() { kubectl --kubeconfig "$dir/admin.kubeconfig" --request-timeout=30s "$@" >>"$dir/kubectl.log" 2>&1; }
	# create, not apply: the Job CRD is larger than apply's annotation.
	k create -f "$peers/crd/" || fail "kubectl create -f $peers/crd/ failed"
	log "CRDs created: $(cd "$peers/crd" && echo *.yaml)"
	w0=$(now_ms)
	k wait --for=condition=Established --timeout="${READY_TIMEOUT}s" -f "$peers/crd/" ||
		fail "the CRDs were not Established within ${READY_TIMEOUT}s"
	log "CRDs Established after $(since "$w0")s"
	# Established is the CRD's condition; discovery may lag it by a moment.
	wait_for "Volcano's resources in discovery" kube-apiserver \
		kubectl --kubeconfig "$dir/admin.kubeconfig" get queues.scheduling.volcano.sh,podgroups.scheduling.volcano.sh,jobs.batch.volcano.sh,hypernodes.topology.volcano.sh -A

	cat >"$dir/env" <<EOF
PEERS=$peers
KUBECTL=$peers/kubectl
SERVER=$server
ETCD=$etcd
PORT=$port
ETCD_PORT=$etcd_port
TOKEN=$token
TOKEN_USER=vsched-test
ADMIN_KUBECONFIG=$dir/admin.kubeconfig
TOKEN_KUBECONFIG=$dir/token.kubeconfig
CERT_USER=vsched-bridge
CERT_KUBECONFIG=$dir/bridge.kubeconfig
CA=$dir/pki/ca.crt
EOF
	say "ready in $(since "$t0")s: $server (KUBECONFIG=$dir/admin.kubeconfig)"
}

# kube-apiserver stopped (SIGTERM: its watches end) and started again on
# the same port with the same etcd, waited for. Its watch cache starts
# over at etcd's revision: a watch resumed from before is 410 Gone if etcd
# was written in between (compact does).
restart_apiserver() {
	t0=$(now_ms)
	stop_one kube-apiserver
	[ -z "$1" ] || compact >/dev/null
	apiserver_run
	log "kube-apiserver ($(cat "$dir/kube-apiserver.pid")) started again on $server"
	wait_for "kube-apiserver /readyz again" kube-apiserver apiserver_ready
	say "kube-apiserver restarted in $(since "$t0")s"
}

# etcd through its JSON gateway: POST /v3/kv/API with BODY; the answer.
etcd_call() {
	curl -fsS --max-time 10 -X POST -d "$2" "$etcd/v3/kv/$1"
}

# etcd's revision moved on (a key outside /registry/, which kube-apiserver
# never reads, written) and its history compacted up to there: every
# resourceVersion handed out before is older than etcd keeps. Prints the
# revision.
compact() {
	key=$(printf 'vsched-test/compact' | base64)
	val=$(date +%s%N | base64)
	ans=$(etcd_call put "{\"key\":\"$key\",\"value\":\"$val\"}") ||
		{ say "compact: etcd refused the put: $ans"; exit 1; }
	rev=$(printf '%s' "$ans" | sed -n 's/.*"revision":"\([0-9]*\)".*/\1/p')
	[ -n "$rev" ] || { say "compact: no revision in etcd's answer: $ans"; exit 1; }
	ans=$(etcd_call compaction "{\"revision\":\"$rev\",\"physical\":true}") ||
		{ say "compact: etcd refused the compaction at $rev: $ans"; exit 1; }
	log "etcd compacted at revision $rev"
	echo "$rev"
}

case $cmd in
start)
	[ $# -le 3 ] || usage
	if [ ! -d "${3:-$srctree/go/peers}" ]; then
		echo "real-apiserver: PEERS ${3:-$srctree/go/peers}: no such directory:" \
		     "run 'make peers' first" >&2
		exit 1
	fi
	peers=$(cd "${3:-$srctree/go/peers}" && pwd)
	# kubectl of the same release, never whatever the machine has
	PATH=$peers:$PATH
	start "$@"
	;;
restart-apiserver | compact)
	[ $# -eq 2 ] || { [ $# -eq 3 ] && [ "$cmd $3" = "restart-apiserver compact" ]; } || usage
	[ -s "$dir/env" ] || { echo "real-apiserver: $dir: no server started there" >&2; exit 1; }
	dir=$(cd "$dir" && pwd)
	. "$dir/env"
	peers=$PEERS server=$SERVER etcd=$ETCD port=$PORT
	if [ "$cmd" = compact ]; then compact; else restart_apiserver "${3:-}"; fi
	;;
stop)
	[ $# -eq 2 ] || usage
	if [ ! -d "$dir" ]; then
		echo "real-apiserver: $dir: no such directory" >&2
		exit 1
	fi
	dir=$(cd "$dir" && pwd)
	stop_all
	say "stopped"
	;;
*)
	usage
	;;
esac
