#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
#
# Run scenario files through vsched (vsctl scenario run -o json, in-process)
# and through Volcano's own scheduler (the oracle, selftests/oracle/volcano/),
# and compare what they decided: binds (which task on which node), the bind
# count, evictions, what is left pipelined, PodGroup phases, and NodeOrder
# scores when both give them. Documentation/conformance.md.
#
# Usage: scripts/conformance.sh [FILE...]
#   default: every selftests/scenarios/*.yaml
#   VSCTL=path ORACLE=path choose the programs (default: the in-tree build)
#
# One line per file: "SAME FILE", "DIFF FILE: what differs", or "KNOWN FILE:
# reason" for a file marked as a known departure (conformance: {known: ...},
# with keys: [...] only in those decisions: a difference elsewhere is a DIFF);
# then "N passed, N failed, N known". Exit status 1 when a file differs or
# could not be run by either side, 2 on a usage or setup error.
set -u

srctree=$(cd "$(dirname "$0")/.." && pwd)
VSCTL=${VSCTL:-$srctree/vsctl}
ORACLE=${ORACLE:-$srctree/go/bin/volcano-oracle}

case "${1:-}" in
-h|--help)
	sed -n '/^# Usage/,/^set -u/p' "$0" | grep '^#' | sed 's/^# \{0,1\}//'
	exit 0
	;;
esac
for prog in "$VSCTL" "$ORACLE"; do
	if [ ! -x "$prog" ]; then
		echo "conformance.sh: $prog is not built (make vsctl oracle)" >&2
		exit 2
	fi
done
if ! command -v jq >/dev/null 2>&1; then
	echo "conformance.sh: jq is not installed (scripts/install-deps.sh installs it)" >&2
	exit 2
fi
if [ $# -eq 0 ]; then
	set -- "$srctree"/selftests/scenarios/*.yaml
fi

# The comparison itself, shared with the oracle's fuzzer: one implementation.
verdict_jq=$srctree/scripts/conformance-verdict.jq

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

passed=0
failed=0
known=0
for path in "$@"; do
	f=${path#"$srctree"/}	# files of the tree as the tree names them
	"$VSCTL" scenario run -o json "$path" >"$tmp/v.json" 2>"$tmp/v.err"
	"$ORACLE" "$path" >"$tmp/o.json" 2>"$tmp/o.err"
	if ! line=$(jq -r -n --slurpfile v "$tmp/v.json" --slurpfile o "$tmp/o.json" \
		-f "$verdict_jq" 2>"$tmp/jq.err"); then
		line="DIFF	: cannot read the decisions: $(head -n 1 "$tmp/jq.err")"
	fi
	case $line in
	SAME*) passed=$((passed + 1)) ;;
	KNOWN*) known=$((known + 1)) ;;
	*) failed=$((failed + 1)) ;;
	esac
	echo "${line%%	*} $f${line#*	}"
done
echo "$passed passed, $failed failed, $known known"
[ "$failed" -eq 0 ]
