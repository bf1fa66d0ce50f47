#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# scripts/check-layers.sh: the source tree keeps the core's layers; on a copy
# of its kernel/ and userspace/, an include from a higher layer, from a
# sibling of the layer and from userspace/ are each refused with the file and
# line named, so is a kernel/ header included by userspace/ outside its
# harness, and a known break that is gone from the code must leave the list;
# in a copy of its Makefile, a userspace program linking libvscore.a without
# the harness is refused, and so is a known one that no longer links it.
# Usage: selftests/check-layers.sh SRCTREE
set -eu
src=$(cd "$1" && pwd)
check=$src/scripts/check-layers.sh
tmp=$(mktemp -d /tmp/check-layers-XXXXXX)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "check-layers-test: FAIL: $*" >&2; exit 1; }
# The script's own list of known breaks (userspace not yet off kernel/), kept
# when a case gives its own.
listed=$(sed -n 's/^\(userspace\/[^#: ]*:[a-z]*\)$/\1/p' "$check" | tr '\n' ' ')

"$check" "$src" >"$tmp/out" 2>&1 || { cat "$tmp/out" >&2; fail "the tree breaks its layers"; }

fresh() {
	rm -rf "$tmp/t"
	mkdir -p "$tmp/t"
	(cd "$src" && { find kernel userspace -name '*.[ch]'; echo Makefile; } | tar -cf - -T -) |
		tar -xf - -C "$tmp/t"
	"$check" "$tmp/t" >/dev/null 2>&1 || fail "a copy of the tree does not pass as the tree does"
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

fresh
printf '#include "core/list.h"\n' >>"$tmp/t/userspace/lib/vsnl.h"
n=$(grep -c '' "$tmp/t/userspace/lib/vsnl.h")
refused "libvsnl including the core" \
	"userspace/lib/vsnl.h:$n: includes kernel/core/ from userspace/ (outside userspace/harness/)"

fresh
printf '#include "bind/x.h"\n' >>"$tmp/t/userspace/vskube/main.c"
mkdir -p "$tmp/t/kernel/bind"
refused "vskube including a kernel/ directory not in the layer list" \
	"includes kernel/bind/ from userspace/"

# The harness is the one userspace that runs the core, so includes it.
fresh
mkdir -p "$tmp/t/userspace/harness"
printf '#include "core/cluster.h"\n#include "sched/session.h"\n' >"$tmp/t/userspace/harness/run.c"
"$check" "$tmp/t" >"$tmp/out" 2>&1 || { cat "$tmp/out" >&2; fail "the harness was refused"; }

# A break listed as known passes; once mended, it must leave the list.
fresh
echo '#include "actions/actions.h"' >>"$tmp/t/kernel/sched/framework.c"
CHECK_LAYERS_KNOWN="$listed kernel/sched/framework.c:actions" "$check" "$tmp/t" >"$tmp/out" 2>&1 ||
	{ cat "$tmp/out" >&2; fail "a break listed as known was refused"; }
fresh
export CHECK_LAYERS_KNOWN="$listed kernel/sched/framework.c:actions"
refused "a known break mended" "kernel/sched/framework.c:actions: listed as known"
unset CHECK_LAYERS_KNOWN

# So does a userspace one: the list in the script names the files still to move.
fresh
printf '#include "core/list.h"\n' >>"$tmp/t/userspace/vskube/kjson.c"
CHECK_LAYERS_KNOWN="$listed userspace/vskube/kjson.c:core" "$check" "$tmp/t" >"$tmp/out" 2>&1 ||
	{ cat "$tmp/out" >&2; fail "a userspace break listed as known was refused"; }
fresh
export CHECK_LAYERS_KNOWN="$listed userspace/vskube/kjson.c:core"
refused "a known userspace break mended" "userspace/vskube/kjson.c:core: listed as known"
unset CHECK_LAYERS_KNOWN
first=${listed%% *}
if [ -n "$first" ]; then
	file=${first%:*}
	sed -i "/^#include \"${first##*:}\//d" "$tmp/t/$file"
	refused "a known break of the script's own list mended" "$first: listed as known"
fi

# Only what uses the harness links the core: vsctl and vsbench link both.
for p in vsctl vsbench; do
	grep -q "^$p-libs :=.*/libvsharness\.a .*/libvscore\.a" "$src/Makefile" ||
		fail "$p does not link the harness before the core"
done
fresh
sed -i 's|^\(vsbench-libs :=.*\)$(objtree)/libvsharness\.a |\1|' "$tmp/t/Makefile"
n=$(grep -n '^vsbench-libs :=' "$tmp/t/Makefile" | cut -d: -f1)
refused "vsbench linking the core without the harness" \
	"Makefile:$n: vsbench links libvscore.a but not the harness (libvsharness.a)"
fresh
printf 'vsfoo-dirs := userspace/vsfoo/\nvsfoo-libs := $(objtree)/libvsnl.a $(objtree)/libvscore.a\n' \
	>>"$tmp/t/Makefile"
refused "a new program linking the core without the harness" \
	"vsfoo links libvscore.a but not the harness (libvsharness.a)"
# vskube reads with the manifest reader without the core: linking the core again is refused.
fresh
sed -i 's|^\(vskube-libs :=.*\)$|\1 $(objtree)/libvscore.a|' "$tmp/t/Makefile"
n=$(grep -n '^vskube-libs :=' "$tmp/t/Makefile" | cut -d: -f1)
refused "vskube linking the core" \
	"Makefile:$n: vskube links libvscore.a but not the harness (libvsharness.a)"
# A link listed as known passes; once mended, it must leave the list.
fresh
printf 'vsfoo-dirs := userspace/vsfoo/\nvsfoo-libs := $(objtree)/libvsnl.a $(objtree)/libvscore.a\n' \
	>>"$tmp/t/Makefile"
CHECK_LAYERS_KNOWN_LINKS=vsfoo "$check" "$tmp/t" >"$tmp/out" 2>&1 ||
	{ cat "$tmp/out" >&2; fail "a link listed as known was refused"; }
sed -i 's|^\(vsfoo-libs :=.*\) $(objtree)/libvscore\.a|\1|' "$tmp/t/Makefile"
export CHECK_LAYERS_KNOWN_LINKS=vsfoo
refused "a known link mended" "vsfoo: listed as linking the core in check-layers.sh, but does not"
unset CHECK_LAYERS_KNOWN_LINKS

echo "check-layers-test: ok"
