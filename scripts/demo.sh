#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
#
# The demo the README opens with: a vschedd in standalone mode (it binds
# what it schedules itself), a generated cluster loaded into it over the
# socket, a few scheduling cycles, and what came of them, shown with vsctl.
#
# Usage: scripts/demo.sh OBJTREE [vsbench load options]
set -eu

objtree=$1
shift
dir=$(mktemp -d /tmp/vsched-demo-XXXXXX)
sock=$dir/vsched.sock
export VSCHED_SOCKET="$sock"

cleanup() {
	if [ -n "${pid:-}" ] && kill -0 "$pid" 2>/dev/null; then
		kill -TERM "$pid"
		wait "$pid" || true
	fi
	rm -rf "$dir"
}
trap cleanup EXIT INT TERM

# --admin-group: vsbench and vsctl change things, which root and this group may.
"$objtree/vschedd" --socket "$sock" --period 0 --binder=auto --admin-group "$(id -g)" \
	>"$dir/vschedd.log" 2>&1 &
pid=$!
i=0
while [ ! -S "$sock" ]; do
	i=$((i + 1))
	if [ "$i" -gt 100 ] || ! kill -0 "$pid" 2>/dev/null; then
		echo "demo: vschedd did not start:" >&2
		cat "$dir/vschedd.log" >&2
		exit 1
	fi
	sleep 0.05
done

echo "== vschedd is up on $sock (standalone: it confirms its own binds)"
"$objtree/vsbench" load "$@"
echo
echo "== three scheduling cycles"
for _ in 1 2 3; do
	"$objtree/vsctl" cycle run
done
echo
echo "== queues"
"$objtree/vsctl" queue list
echo
echo "== the first PodGroups"
"$objtree/vsctl" podgroup list | head -n 8
echo
echo "== the first nodes"
"$objtree/vsctl" node list | head -n 6
echo
echo "== statistics"
"$objtree/vsctl" stats show
