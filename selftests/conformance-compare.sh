#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
#
# scripts/conformance.sh's comparison, without Go: the oracle is replaced by a
# script that prints vsctl's own decisions for the file, changed as each case
# needs, in the oracle's JSON (Documentation/conformance.md). Checks SAME,
# DIFF for each kind of decision, KNOWN for a whole-file mark and for a mark
# scoped by keys (a difference outside the keys is still a DIFF), several
# outcomes of which one agrees, an oracle that could not run the file, the
# summary line and the exit status; and the comparison as the fuzzer runs it,
# over a stream of pairs.
#
# Usage: selftests/conformance-compare.sh OBJTREE SRCTREE
set -eu

[ $# -eq 2 ] || { echo "usage: $0 OBJTREE SRCTREE" >&2; exit 2; }
objtree=$(cd "$1" && pwd)
srctree=$(cd "$2" && pwd)
file=$srctree/selftests/vsctl/pass-explicit-gang.yaml
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "conformance-compare: FAIL: $*" >&2; cat "$tmp/out" >&2; exit 1; }

# The fake oracle: vsctl's decisions, piped through the jq filter of $CASE.
cat >"$tmp/oracle" <<EOF2
#!/bin/sh
"$objtree/vsctl" scenario run -o json "\$1" |
	jq "[.[0] | del(.result, .differences) | .result = \"ran\" | \$CASE]"
EOF2
chmod +x "$tmp/oracle"

# run CASE-FILTER EXPECTED-STATUS: the script's output in $tmp/out
run() {
	set +e
	CASE=$1 VSCTL=$objtree/vsctl ORACLE=$tmp/oracle "$srctree/scripts/conformance.sh" "$file" \
		>"$tmp/out" 2>&1
	rc=$?
	set -e
	[ "$rc" -eq "$2" ] || fail "case '$1' exited $rc, expected $2"
}
has() { grep -qF -- "$1" "$tmp/out" || fail "no \"$1\""; }

name=selftests/vsctl/pass-explicit-gang.yaml

run '.' 0
has "SAME $name"
has "1 passed, 0 failed, 0 known"

run '.binds["ns/gang-1"] = "n1"' 1
has "DIFF $name: binds: ns/gang-1: vsched n2, volcano n1"
has "0 passed, 1 failed, 0 known"

run '.bindCount = 3 | .evicts = ["ns/busy-0"]' 1
has 'bindCount: vsched 2, volcano 3; evicts: vsched [], volcano ["ns/busy-0"]'

run '.pipelined = {"ns/toobig-0": "n1"} | .podgroupPhase["ns/gang"] = "Inqueue"' 1
has 'pipelined: ns/toobig-0=n1 only in volcano; podgroupPhase: ns/gang: vsched Running, volcano Inqueue'

run '.nodeScores["ns/gang-0"].n2 = 68.7500001' 0
run '.nodeScores["ns/gang-0"].n2 = 70' 1
has 'nodeScores: ns/gang-0 on n2: vsched 68.75, volcano 70'

run '.known = "a reason" | .binds = {}' 0
has "KNOWN $name: a reason"
has "0 passed, 0 failed, 1 known"

run '.known = "a reason"' 0
has "KNOWN $name: a reason (yet they agree: is the mark still needed?)"

run '.known = "phases" | .knownKeys = ["podgroupPhase"] | .podgroupPhase["ns/gang"] = "Inqueue"' 0
has "KNOWN $name: phases [podgroupPhase]"

run '.known = "phases" | .knownKeys = ["podgroupPhase"] | .podgroupPhase["ns/gang"] = "Inqueue" |
	.binds["ns/gang-0"] = "n1"' 1
has "DIFF $name: binds: ns/gang-0: vsched n2, volcano n1"
grep -q "podgroupPhase" "$tmp/out" && fail "an excused difference is shown"

run '.runs = 20 | .outcomes = 2 | .alternatives = [.] | .binds["ns/gang-0"] = "n1"' 0
has "SAME $name (Volcano: 2 outcomes in 20 runs)"

run '{file, result: "fail", error: "cannot run it"}' 1
has "DIFF $name: the oracle could not run it: cannot run it"

# The fuzzer's way in (volcano-oracle fuzz): the same program over a stream of
# [vsched, oracle] pairs, one verdict a line as JSON.
"$objtree/vsctl" scenario run -o json "$file" >"$tmp/v.json"
jq '[.[0] | del(.result, .differences) | .result = "ran"]' "$tmp/v.json" >"$tmp/o.json"
jq '[.[0] | del(.result, .differences) | .result = "ran" | .bindCount = 9]' "$tmp/v.json" \
	>"$tmp/o2.json"
for o in o o2; do
	jq -c -n --slurpfile v "$tmp/v.json" --slurpfile o "$tmp/$o.json" '[$v[0], $o[0]]'
done | jq -c --arg out json -f "$srctree/scripts/conformance-verdict.jq" >"$tmp/out"
[ "$(sed -n 1p "$tmp/out" | jq -r .verdict)" = SAME ] || fail "stream: first pair not SAME"
[ "$(sed -n 2p "$tmp/out" | jq -r '.verdict + " " + .diffs[0]')" = \
	"DIFF bindCount: vsched 2, volcano 9" ] || fail "stream: second pair not a DIFF in bindCount"

echo "conformance-compare: 15 cases as expected"
