#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# scripts/check-layers.sh: the source tree keeps the core's layers; on a copy
# of its kernel/, an include from a higher layer, from a sibling of the
# layer and from userspace/ are each refused with the file and line named,
# and a known break that is gone from the code must leave the list.
# Usage: selftests/check-layers.sh SRCTREE
set -eu
src=$(cd "$1" && pwd)
check=$src/scripts/check-layers.sh
tmp=$(mktemp -d /tmp/check-layers-XXXXXX)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "check-layers-test: FAIL: $*" >&2; exit 1; }

"$check" "$src" >"$tmp/out" 2>&1 || { cat "$tmp/out" >&2; fail "the tree breaks its layers"; }

fresh() {
	rm -rf "$tmp/t"
	mkdir -p "$tmp/t"
	(cd "$src" && find kernel -name '*.[ch]' | tar -cf - -T -) | tar -xf - -C "$tmp/t"
	"$check" "$tmp/t" >/dev/null 2>&1 || fail "a copy of kernel/ does not pass as the tree does"
}
refused() { # WHAT MESSAGE
	rc=0
	"$check" "$tmp/t" >"$tmp/out" 2>&1 || rc=$?
	[ "$rc" = 1 ] || fail "$1: exit $rc, not 1"
	grep -qF "$2" "$tmp/out" || { cat "$tmp/out" >&2; fail "$1: no \"$2\""; }
}

fresh
echo '#include "netlink/msg.h"' >>"$tmp/t/kernel/core/res.c"
n=$(grep -c '' "$tmp/t/kernel/core/res.c")
refused "core including netlink" "kernel/core/res.c:$n: includes netlink/ (a higher layer) from core/"

fresh
echo '#include "actions/actions.h"' >>"$tmp/t/kernel/plugins/gang.c"
refused "a plugin including actions" "includes actions/ (a sibling of its layer) from plugins/"

fresh
echo '#include "sched/session.h"' >>"$tmp/t/kernel/bind/waits.c"
refused "the bind pipeline including sched" "includes sched/ (a sibling of its layer) from bind/"

fresh
echo '#include "lib/vsnl.h"' >>"$tmp/t/kernel/daemon/loop.c"
refused "the daemon including libvsnl" "includes lib/ (userspace) from kernel/"

# A break listed as known passes; once mended, it must leave the list.
fresh
echo '#include "actions/actions.h"' >>"$tmp/t/kernel/sched/framework.c"
CHECK_LAYERS_KNOWN="kernel/sched/framework.c:actions" "$check" "$tmp/t" >"$tmp/out" 2>&1 ||
	{ cat "$tmp/out" >&2; fail "a break listed as known was refused"; }
fresh
export CHECK_LAYERS_KNOWN="kernel/sched/framework.c:actions"
refused "a known break mended" "kernel/sched/framework.c:actions: listed as known"
unset CHECK_LAYERS_KNOWN

echo "check-layers-test: ok"
