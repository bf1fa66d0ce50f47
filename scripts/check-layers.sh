#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
#
# The layering rule (Documentation/architecture.md, "Layers"). In kernel/,
# a directory includes only from its own layer's directory and the layers
# below it, never from a sibling of its layer, and never from userspace/:
#
#   0 core   1 sched, controllers, bind   2 actions, plugins   3 registry
#   4 netlink   5 daemon
#
# In userspace/, no file includes a header of kernel/: the programs link
# libvsnl and include uapi/ and userspace/ alone. The one exception is
# userspace/harness/, the code that runs the core in-process; and so a
# userspace program (one whose objects the Makefile takes from userspace/)
# links libvscore.a only if it links the harness, libvsharness.a, too.
#
# (uapi/ headers are for everyone). Prints each include that breaks the rule
# as FILE:LINE and what it includes, and exits 1 if there is any. KNOWN
# lists the breaks not yet mended, each with its reason, KNOWN_LINKS the
# programs that still link the core without the harness; an entry of either
# that no longer occurs is an error too, so that the lists only shrink.
#
# Usage: scripts/check-layers.sh [SRCTREE]   (default: this script's tree)
#   CHECK_LAYERS_KNOWN="FILE:DIR ..."  the known breaks instead of the list below
#   CHECK_LAYERS_KNOWN_LINKS="PROG ..."  the known links instead of that list
set -eu
export LC_ALL=C
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
[ -d "$root/kernel" ] || { echo "check-layers: no kernel/ in $root" >&2; exit 2; }
[ -d "$root/userspace" ] || { echo "check-layers: no userspace/ in $root" >&2; exit 2; }
[ -f "$root/Makefile" ] || { echo "check-layers: no Makefile in $root" >&2; exit 2; }

# FILE:DIRECTORY it includes from, one a word, each with its reason above it.
# CHECK_LAYERS_KNOWN replaces the list (the script's own test).
known_breaks=$(sed 's/#.*//' <<'EOF_KNOWN'
EOF_KNOWN
)
KNOWN=$(echo ${CHECK_LAYERS_KNOWN-$known_breaks})

# Userspace programs that link libvscore.a without the harness, each with
# its reason above it.
known_links=$(sed 's/#.*//' <<'EOF_LINKS'
EOF_LINKS
)
KNOWN_LINKS=$(echo ${CHECK_LAYERS_KNOWN_LINKS-$known_links})

cd "$root"
# Every directory of kernel/ is the core's, whichever layer it is.
kdirs=$(find kernel -mindepth 1 -maxdepth 1 -type d | sed 's|^kernel/||' | sort | tr '\n' ' ')
found=$(find kernel userspace -name '*.[ch]' | sort | xargs grep -n '^#include "' /dev/null |
	awk -v known="$KNOWN" -v kdirs="$kdirs" '
	BEGIN {
		split("core sched controllers bind actions plugins registry netlink daemon", d, " ")
		split("0 1 1 1 2 2 3 4 5", r, " ")
		for (i in d)
			rank[d[i]] = r[i]
		split("lib kube vsctl vskube vsbench harness", u, " ")
		for (i in u)
			user[u[i]] = 1
		split(kdirs, kd, /[ \n]+/)
		for (i in kd)
			if (kd[i] != "")
				kernel_dir[kd[i]] = 1
		n = split(known, k, /[ \n]+/)
		for (i = 1; i <= n; i++)
			if (k[i] != "")
				allowed[k[i]] = 1
	}
	{
		# kernel/DIR/FILE:LINE:#include "INC/..." (or userspace/DIR/...)
		split($0, f, ":")
		file = f[1]; line = f[2]
		split(file, p, "/"); side = p[1]; own = p[2]
		inc = $0; sub(/^[^"]*"/, "", inc); sub(/\/.*/, "", inc)
		if (side == "userspace") {
			if (!(inc in kernel_dir) || own == "harness")
				next
			if ((file ":" inc) in allowed) {
				seen[file ":" inc] = 1
				next
			}
			printf "BAD %s:%s: includes kernel/%s/ from userspace/ (outside userspace/harness/)\n",
			       file, line, inc
			next
		}
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
# The Makefile's "PROG-dirs := ..." and "PROG-libs := ..." lines: a program
# of userspace/ that links the core links the harness.
found=$found$(awk -v known="$KNOWN_LINKS" '
	BEGIN {
		n = split(known, k, /[ \n]+/)
		for (i = 1; i <= n; i++)
			if (k[i] != "")
				allowed[k[i]] = 1
	}
	/^[a-z0-9_]+-dirs[ \t]*:=/ && / userspace\// {
		p = $1; sub(/-dirs$/, "", p)
		user[p] = FNR
	}
	/^[a-z0-9_]+-libs[ \t]*:=/ {
		p = $1; sub(/-libs$/, "", p)
		libs[p] = $0
		line[p] = FNR
	}
	END {
		for (p in user) {
			core = libs[p] ~ /\/libvscore\.a/
			if (core && p in allowed) {
				seen[p] = 1
				continue
			}
			if (core && libs[p] !~ /\/libvsharness\.a/)
				printf "\nBAD Makefile:%d: %s links libvscore.a but not the harness (libvsharness.a)",
				       line[p], p
		}
		for (a in allowed)
			if (!(a in seen))
				printf "\nGONE %s: listed as linking the core in check-layers.sh, but does not: take it off the list", a
	}' Makefile)
found=$(echo "$found" | sed '/^$/d')
if [ -n "$found" ]; then
	echo "$found" | sed 's/^[A-Z]* /check-layers: /' >&2
	exit 1
fi
echo "check-layers: kernel/ keeps its layers, userspace/ keeps off kernel/ ($(echo "$KNOWN" | wc -w) known breaks listed), only the harness's users link the core ($(echo "$KNOWN_LINKS" | wc -w) known)"
