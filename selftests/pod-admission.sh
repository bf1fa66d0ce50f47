#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# What the daemon does with a pod as it arrives (Documentation/protocol.md,
# "Pods on their way in"), end to end: a real vschedd, raw VS_CMD_TASK_NEW
# requests written byte by byte from the uapi header (no client library in
# between), and vsctl to read what they made. The pods of one owner share
# the PodGroup named after its UID, which goes with the last of them; a pod
# of another scheduler is refused while on no node and shadowed on one;
# --scheduler-name says which are the daemon's own; VS_TASK_A_ADMIT runs the
# priority admission, and without it a pod is taken as it is.
# Usage: selftests/pod-admission.sh OBJTREE SRCTREE
set -eu
objtree=$1
srctree=$2
vsctl=$objtree/vsctl
dir=$(mktemp -d /tmp/pod-admission-XXXXXX)
sock=$dir/vs.sock
out=$dir/out
export VSCHED_SOCKET="$sock"
pid=

cleanup() {
	if [ -n "$pid" ]; then
		kill -TERM "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	fi
	[ -n "${KEEP:-}" ] || rm -rf "$dir"
}
trap cleanup EXIT INT TERM

fail() {
	echo "pod-admission: FAIL: $*" >&2
	[ -s "$out" ] && sed 's/^/    /' "$out" >&2
	exit 1
}

command -v python3 >/dev/null || fail "python3 is missing (scripts/install-deps.sh installs it)"
checks=0

# The raw client: VS_CMD_TASK_NEW of ns/NAME with KEY=VALUE attributes of the
# task nest (a flag for a KEY without "="), acked; prints "ok" or the errno
# and the daemon's message.
cat >"$dir/pod.py" <<'PY'
import os, re, socket, struct, sys

hdr = open(sys.argv[1]).read()
consts = {}
for body in re.findall(r'enum \w+ \{(.*?)\};', hdr, re.S):
    n = 0
    for name, val in re.findall(r'^\s*(\w+)\s*(?:=\s*([^,/]+))?,', body, re.M):
        n = int(val.strip(), 0) if val else n
        consts[name] = n
        n += 1
genl_id = int(re.search(r'#define VSCHED_GENL_ID\s+(\w+)', hdr).group(1), 0)

def attr(t, data):
    return struct.pack('=HH', 4 + len(data), t) + data + b'\0' * (-len(data) % 4)

ns, name = sys.argv[3].split('/')
body = attr(consts['VS_TASK_A_NAMESPACE'], ns.encode() + b'\0')
body += attr(consts['VS_TASK_A_NAME'], name.encode() + b'\0')
for kv in sys.argv[4:]:
    k, eq, v = kv.partition('=')
    t = consts['VS_TASK_A_' + k.upper().replace('-', '_')]
    if not eq:
        body += attr(t, b'')
    elif k == 'status':
        body += attr(t, struct.pack('=I', consts['VS_TASK_STATUS_' + v.upper()]))
    else:
        body += attr(t, v.encode() + b'\0')
payload = struct.pack('=BBH', consts['VS_CMD_TASK_NEW'], 1, 0)
payload += attr(consts['VS_A_TASK'] | 0x8000, body)
msg = struct.pack('=IHHII', 16 + len(payload), genl_id, 1 | 4, 1, 0) + payload
s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
s.connect(sys.argv[2])
s.send(msg)
r = s.recv(65536)
ln, typ, flags = struct.unpack_from('=IHH', r)
assert typ == 2, 'not an ack: type %d' % typ
err = struct.unpack_from('=i', r, 16)[0]
if err == 0:
    print('ok')
    sys.exit(0)
off = 20 + (16 if flags & 0x100 else struct.unpack_from('=I', r, 20)[0])
msg = ''
while off + 4 <= ln:
    alen, atype = struct.unpack_from('=HH', r, off)
    if atype == 1:
        msg = r[off + 4:off + alen].rstrip(b'\0').decode()
    off += (alen + 3) & ~3
print('error %d: %s' % (err, msg))
PY

# pod WANT NS/NAME ATTR...: the request is answered WANT ("ok", or a line the answer begins with).
pod() {
	want=$1
	shift
	python3 "$dir/pod.py" "$srctree/uapi/vsched/vsched.h" "$sock" "$@" >"$out" 2>&1 ||
		fail "pod.py $* failed"
	case $(cat "$out") in
	"$want"*) ;;
	*) fail "task $*: expected '$want'" ;;
	esac
	checks=$((checks + 1))
}

# shows KIND TEXT...: "vsctl KIND list -o json" shows each TEXT; lacks: none of them.
shows() {
	k=$1
	shift
	"$vsctl" "$k" list -A -o json >"$out" 2>&1 || fail "vsctl $k list failed"
	for want; do
		grep -qF -- "$want" "$out" || fail "no '$want' in vsctl $k list"
	done
	checks=$((checks + 1))
}

lacks() {
	k=$1
	shift
	"$vsctl" "$k" list -A -o json >"$out" 2>&1 || fail "vsctl $k list failed"
	for want; do
		! grep -qF -- "$want" "$out" || fail "'$want' still in vsctl $k list"
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

stop_daemon() {
	kill -TERM "$pid"
	wait "$pid" || fail "vschedd exited $?"
	pid=
}

vsctl_ok() {
	"$vsctl" "$@" >"$out" 2>&1 || fail "vsctl $* failed"
}

start_daemon
vsctl_ok queue add default
vsctl_ok node add n1 --cpu 8

# ---- the pods of one owner share its PodGroup ----
pod ok team/web-1 owner-uid=7d1f0c2e-1
pod ok team/web-2 owner-uid=7d1f0c2e-1
pod ok team/lone
shows podgroup '"name": "podgroup-7d1f0c2e-1"' '"name": "podgroup-lone"'
shows task '"ownerUID": "7d1f0c2e-1"' '"podgroup": "podgroup-7d1f0c2e-1"'
vsctl_ok task del team/web-1
shows podgroup '"name": "podgroup-7d1f0c2e-1"'
vsctl_ok task del team/web-2
lacks podgroup '"name": "podgroup-7d1f0c2e-1"'
pod 'error -22: task team/bad: invalid owner UID "Not_A_UID"' team/bad owner-uid=Not_A_UID

# ---- pods of other schedulers ----
pod 'error -22: task team/kube-1: pod team/kube-1: a pod of scheduler "default-scheduler" (this '\
'one is "volcano") is on no node' team/kube-1 scheduler=default-scheduler
lacks task '"name": "kube-1"'
pod ok team/kube-1 scheduler=default-scheduler owner-uid=rs-9 status=running node=n1
shows podgroup '"name": "podgroup-rs-9"'
"$vsctl" podgroup show team/podgroup-rs-9 -o json >"$out" 2>&1 || fail "podgroup show failed"
! grep -qF '"minResources"' "$out" || fail "a shadow PodGroup has no minResources"
checks=$((checks + 1))
pod ok team/own-1 scheduler=volcano

# ---- priority admission, asked for ----
vsctl_ok prioclass add high --value 1000 --preemption-policy Never
pod ok team/adm-1 priority-class=high admit
shows task '"priority": 1000' '"preemptionPolicy": "Never"'
pod 'error -2: task team/adm-2: pod team/adm-2: no PriorityClass "missing"' \
	team/adm-2 priority-class=missing admit
lacks task '"name": "adm-2"'
# not asked: taken as it is (a class deleted since the pod was admitted)
pod ok team/as-is priority-class=missing
"$vsctl" task show team/as-is -o json >"$out" 2>&1 || fail "task show failed"
grep -qE '"priority": 1($|,)' "$out" || fail "a pod taken as it is has priority 1"
checks=$((checks + 1))

# ---- the daemon's own name ----
stop_daemon
rm -f "$sock"
start_daemon --scheduler-name batch
vsctl_ok queue add default
pod 'error -22: task team/v-1: pod team/v-1: a pod of scheduler "volcano" (this one is "batch")' \
	team/v-1 scheduler=volcano
pod ok team/b-1 scheduler=batch
"$vsctl" podgroup show team/podgroup-b-1 -o json >"$out" 2>&1 || fail "podgroup show failed"
grep -qF '"minResources"' "$out" || fail "the daemon's own pod gets a PodGroup with minResources"
checks=$((checks + 1))

echo "pod-admission: $checks checks passed"
