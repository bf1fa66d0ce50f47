#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
#
# The core's layering rule (Documentation/architecture.md, "The core"): a
# directory of kernel/ includes only from its own layer's directory and the
# layers below it, never from a sibling of its layer, and never from
# userspace/:
#
#   0 core   1 sched, controllers, bind   2 actions, plugins   3 registry
#   4 netlink   5 daemon
#
# (uapi/ headers are for everyone). Prints each include that breaks the rule
# as FILE:LINE and what it includes, and exits 1 if there is any. KNOWN
# lists the breaks not yet mended, each with its reason; a KNOWN entry that
# no longer occurs is an error too, so that the list only shrinks.
#
# Usage: scripts/check-layers.sh [SRCTREE]   (default: this script's tree)
#   CHECK_LAYERS_KNOWN="FILE:DIR ..."  the known breaks instead of the list below
set -eu
export LC_ALL=C
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
[ -d "$root/kernel" ] || { echo "check-layers: no kernel/ in $root" >&2; exit 2; }

# FILE:DIRECTORY it includes from, one a word, each with its reason above it
# (none today). CHECK_LAYERS_KNOWN replaces the list (the script's own test).
KNOWN=${CHECK_LAYERS_KNOWN-""}

cd "$root"
found=$(find kernel -name '*.[ch]' | sort | xargs grep -n '^#include "' /dev/null |
	awk -v known="$KNOWN" '
	BEGIN {
		split("core sched controllers bind actions plugins registry netlink daemon", d, " ")
		split("0 1 1 1 2 2 3 4 5", r, " ")
		for (i in d)
			rank[d[i]] = r[i]
		split("lib kube vsctl vskube vsbench harness", u, " ")
		for (i in u)
			user[u[i]] = 1
		n = split(known, k, /[ \n]+/)
		for (i = 1; i <= n; i++)
			if (k[i] != "")
				allowed[k[i]] = 1
	}
	{
		# kernel/DIR/FILE:LINE:#include "INC/..."
		split($0, f, ":")
		file = f[1]; line = f[2]
		split(file, p, "/"); own = p[2]
		inc = $0; sub(/^[^"]*"/, "", inc); sub(/\/.*/, "", inc)
		if (inc in user) {
			printf "BAD %s:%s: includes %s/ (userspace) from kernel/\n", file, line, inc
			next
		}
		if (!(inc in rank) || !(own in rank) || inc == own)
			next
		if (rank[inc] < rank[own])
			next
		why = rank[inc] > rank[own] ? "a higher layer" : "a sibling of its layer"
		if ((file ":" inc) in allowed) {
			seen[file ":" inc] = 1
			next
		}
		printf "BAD %s:%s: includes %s/ (%s) from %s/\n", file, line, inc, why, own
	}
	END {
		for (a in allowed)
			if (!(a in seen))
				printf "GONE %s: listed as known in check-layers.sh, but no longer included: take it off the list\n", a
	}')
if [ -n "$found" ]; then
	echo "$found" | sed 's/^[A-Z]* /check-layers: /' >&2
	exit 1
fi
echo "check-layers: kernel/ keeps its layers ($(echo "$KNOWN" | wc -w) known breaks listed)"
