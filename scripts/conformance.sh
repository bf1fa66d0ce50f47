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

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# The differences between vsched's decisions ($v) and Volcano's ($o), one per
# line; nothing when they agree. Volcano's choice can depend on the order of a
# Go map, so the oracle runs a file several times and gives every distinct
# outcome: vsched agrees when it made one of them. The outcome compared is the
# first that agrees entirely, else the first that agrees outside the keys a
# known mark excuses, else the first.
cat >"$tmp/compare.jq" <<'JQ'
def mapdiff($name; $a; $b):
	([($a | keys[]) as $k | select($b | has($k) | not) | "\($k)=\($a[$k]) only in vsched"] +
	 [($b | keys[]) as $k | select($a | has($k) | not) | "\($k)=\($b[$k]) only in volcano"] +
	 [($a | keys[]) as $k | select(($b | has($k)) and $a[$k] != $b[$k]) |
	  "\($k): vsched \($a[$k]), volcano \($b[$k])"])
	| if length > 0 then "\($name): " + join(", ") else empty end;
def scores($a; $b):
	[($a | keys[]) as $t | select($b | has($t)) | ($a[$t] | keys[]) as $n |
	 select(($b[$t] | has($n)) and ((($a[$t][$n]) - ($b[$t][$n])) | fabs) > 1e-6) |
	 "\($t) on \($n): vsched \($a[$t][$n]), volcano \($b[$t][$n])"]
	| if length > 0 then "nodeScores: " + join(", ") else empty end;
def diffs($v; $o):
	[mapdiff("binds"; $v.binds; $o.binds),
	 (if $v.bindCount != $o.bindCount then
		"bindCount: vsched \($v.bindCount), volcano \($o.bindCount)" else empty end),
	 (($v.evicts | sort) as $a | ($o.evicts | sort) as $b |
		if $a != $b then "evicts: vsched \($a), volcano \($b)" else empty end),
	 mapdiff("pipelined"; $v.pipelined; $o.pipelined),
	 mapdiff("podgroupPhase"; $v.podgroupPhase; $o.podgroupPhase),
	 (if $v.nodeScores and $o.nodeScores then scores($v.nodeScores; $o.nodeScores)
	  else empty end)];
($v[0][0] // null) as $v | ($o[0][0] // null) as $o |
if $v == null then "vsched gave no decisions"
elif $o == null then "the oracle gave no decisions"
elif $v.error then "vsched could not run it: \($v.error)"
elif $o.error then "the oracle could not run it: \($o.error)"
else
	($o.knownKeys // []) as $excused |
	[([$o] + ($o.alternatives // []))[] | diffs($v; .)] as $all |
	([$all[] | select(length == 0)] +
	 [$all[] | select(all(.[]; (split(":")[0]) as $k | $excused | index($k)))] +
	 [$all[0]])[0][]
end
JQ

passed=0
failed=0
known=0
for path in "$@"; do
	f=${path#"$srctree"/}	# files of the tree as the tree names them
	"$VSCTL" scenario run -o json "$path" >"$tmp/v.json" 2>"$tmp/v.err"
	"$ORACLE" "$path" >"$tmp/o.json" 2>"$tmp/o.err"
	if ! diff=$(jq -r -n --slurpfile v "$tmp/v.json" --slurpfile o "$tmp/o.json" \
		-f "$tmp/compare.jq" 2>"$tmp/jq.err"); then
		diff="cannot read the decisions: $(head -n 1 "$tmp/jq.err")"
	fi
	mark=$(jq -r '.[0].known // empty' "$tmp/o.json" 2>/dev/null)
	varies=$(jq -r '.[0] | select(.outcomes > 1) |
		" (Volcano: \(.outcomes) outcomes in \(.runs) runs)"' "$tmp/o.json" 2>/dev/null)
	scope=$(jq -r '(.[0].knownKeys // []) | join("|")' "$tmp/o.json" 2>/dev/null)
	# a mark that names keys excuses only the differences in them
	if [ -n "$mark" ] && [ -n "$scope" ]; then
		rest=$(printf '%s\n' "$diff" | grep -v -E "^($scope): " | grep -v '^$')
		if [ -n "$rest" ]; then
			diff=$rest
			mark=""
		else
			mark="$mark [$(echo "$scope" | sed 's/|/, /g')]"
		fi
	fi
	if [ -n "$mark" ]; then
		known=$((known + 1))
		if [ -z "$diff" ]; then
			echo "KNOWN $f: $mark (yet they agree: is the mark still needed?)$varies"
		else
			echo "KNOWN $f: $mark$varies"
		fi
	elif [ -z "$diff" ]; then
		passed=$((passed + 1))
		echo "SAME $f$varies"
	else
		failed=$((failed + 1))
		echo "DIFF $f: $(printf '%s\n' "$diff" | paste -sd ';' - | sed 's/;/; /g')$varies"
	fi
done
echo "$passed passed, $failed failed, $known known"
[ "$failed" -eq 0 ]
