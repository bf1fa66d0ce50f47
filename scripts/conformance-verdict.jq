# SPDX-License-Identifier: Apache-2.0
#
# The comparison of vsched's decisions with Volcano's, one scenario file at a
# time: the one implementation that scripts/conformance.sh and the oracle's
# fuzzer (volcano-oracle fuzz) both run (Documentation/conformance.md).
#
#   jq -r -n --slurpfile v VSCHED.json --slurpfile o ORACLE.json [--arg out json] -f THIS
#   jq -c --arg out json -f THIS     (a stream: each input [VSCHED, ORACLE])
#
# VSCHED.json is `vsctl scenario run -o json FILE`, ORACLE.json the oracle's
# output for the same file. Prints the verdict as a line "SAME|KNOWN|DIFF",
# a tab, and what conformance.sh writes after the file name; with
# `--arg out json`, as {verdict, diffs, mark, varies} (diffs: one string per
# decision that differs, each "key: ...").

# The differences between vsched's decisions ($v) and Volcano's ($o), one per
# line; nothing when they agree.
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

# Volcano's choice can depend on the order of a Go map, so the oracle runs a
# file several times and gives every distinct outcome: vsched agrees when it
# made one of them. The outcome compared is the first that agrees entirely,
# else the first that agrees outside the keys a known mark excuses, else the
# first.
def compared($v; $o):
	if $v == null then ["vsched gave no decisions"]
	elif $o == null then ["the oracle gave no decisions"]
	elif $v.error then ["vsched could not run it: \($v.error)"]
	elif $o.error then ["the oracle could not run it: \($o.error)"]
	else
		($o.knownKeys // []) as $excused |
		[([$o] + ($o.alternatives // []))[] | diffs($v; .)] as $all |
		([$all[] | select(length == 0)] +
		 [$all[] | select(all(.[]; (split(":")[0]) as $k | any($excused[]; . == $k)))] +
		 [$all[0]])[0]
	end;

# A mark that names keys excuses only the differences in them: any other
# difference makes the file a DIFF.
def verdict($v; $o):
	compared($v; $o) as $d |
	($o.known // "") as $mark |
	($o.knownKeys // []) as $scope |
	(if ($o.outcomes // 1) > 1 then " (Volcano: \($o.outcomes) outcomes in \($o.runs) runs)"
	 else "" end) as $varies |
	[$d[] | select((split(": ")[0]) as $k | any($scope[]; . == $k) | not)] as $rest |
	if $mark != "" and ($scope | length) > 0 and ($rest | length) > 0 then
		{verdict: "DIFF", diffs: $rest, mark: null, varies: $varies}
	elif $mark != "" then
		{verdict: "KNOWN", diffs: $d, varies: $varies,
		 mark: (if ($scope | length) > 0 then "\($mark) [\($scope | join(", "))]" else $mark end)}
	elif ($d | length) == 0 then
		{verdict: "SAME", diffs: [], mark: null, varies: $varies}
	else
		{verdict: "DIFF", diffs: $d, mark: null, varies: $varies}
	end;

# A file's pair from --slurpfile, else each input is a pair [VSCHED, ORACLE]
# (the fuzzer keeps one jq running and writes a pair a line).
(if $ARGS.named | has("v") then [$ARGS.named.v[0], $ARGS.named.o[0]] else . end) as $pair |
verdict($pair[0][0] // null; $pair[1][0] // null) |
if $ARGS.named.out == "json" then .
elif .verdict == "SAME" then "SAME\t\(.varies)"
elif .verdict == "KNOWN" and (.diffs | length) == 0 then
	"KNOWN\t: \(.mark) (yet they agree: is the mark still needed?)\(.varies)"
elif .verdict == "KNOWN" then "KNOWN\t: \(.mark)\(.varies)"
else "DIFF\t: \(.diffs | join("; "))\(.varies)"
end
