#!/bin/sh
# "vsbench run --export-scenario": the tiny and spread-tiny presets' clusters,
# each written as a scenario file, schedules in vsctl's in-process run (the cycles of the file)
# exactly as vsbench scheduled it: the same tasks on the same nodes, the
# same count (--binds-out lists vsbench's binds); the file names its source
# and cycles. Bad options exit 2 with a message naming the option, and write
# nothing.
# Usage: selftests/vsbench-export.sh OBJTREE (the directory of vsbench and vsctl)
set -eu
bin=$1
dir=$(mktemp -d /tmp/vsbench-export-XXXXXX)
trap 'rm -rf "$dir"' EXIT INT TERM
fail() { echo "vsbench-export: FAIL: $*" >&2; exit 1; }

# The preset @1's cluster, exported, binds in vsctl as vsbench bound it.
same_binds() {
	"$bin/vsbench" run --preset "$1" --export-scenario "$dir/$1.yaml" --binds-out "$dir/binds" \
		>"$dir/out" 2>&1 || { cat "$dir/out" >&2; fail "vsbench run --preset $1 --export-scenario exited $?"; }
	grep -q "^source: \"vsbench run --preset $1 --seed 1\"\$" "$dir/$1.yaml" || fail "$1: no source line"
	grep -q '^cycles: 3$' "$dir/$1.yaml" || fail "$1: the file does not run --cycles' 3 cycles"
	[ "$(grep -c '^  - {name: "node-' "$dir/$1.yaml")" = 200 ] || fail "$1: not 200 nodes"
	sort "$dir/binds" >"$dir/vsbench.binds"
	[ -s "$dir/vsbench.binds" ] || fail "$1: vsbench bound nothing"
	"$bin/vsctl" scenario run -o json "$dir/$1.yaml" >"$dir/v.json" ||
		fail "vsctl scenario run of the exported $1 exited $?"
	jq -r '.[0].binds | to_entries[] | "\(.key) \(.value)"' "$dir/v.json" | sort >"$dir/vsctl.binds"
	cmp -s "$dir/vsbench.binds" "$dir/vsctl.binds" || {
		diff "$dir/vsbench.binds" "$dir/vsctl.binds" | head -20 >&2
		fail "vsctl binds otherwise than vsbench on the exported $1"
	}
	[ "$(jq '.[0].bindCount' "$dir/v.json")" = "$(wc -l <"$dir/binds" | tr -d ' ')" ] ||
		fail "$1: vsctl's bindCount is not vsbench's count of binds"
}
same_binds tiny
# spread-tiny's pods carry their labels, anti-affinity and spread constraints with them
same_binds spread-tiny
grep -q 'topologySpreadConstraints: \[{maxSkew: 1, topologyKey: "topology.kubernetes.io/zone", whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {"app": "job-0000000"}}}\]' \
	"$dir/spread-tiny.yaml" || fail "spread-tiny: no spread constraint written"
grep -q 'podAntiAffinity: {requiredDuringSchedulingIgnoredDuringExecution: \[{topologyKey: "kubernetes.io/hostname"' \
	"$dir/spread-tiny.yaml" || fail "spread-tiny: no anti-affinity written"
# Bad values: exit 2, a message naming the option, no file written.
bad() {
	rc=0
	"$bin/vsbench" run "$@" >"$dir/err" 2>&1 || rc=$?
	[ "$rc" = 2 ] || fail "vsbench run $* exited $rc, not 2"
	grep -q -- "$want" "$dir/err" || { cat "$dir/err" >&2; fail "vsbench run $*: no \"$want\""; }
}
want='--export-scenario: the file name is empty'
bad --preset tiny --export-scenario ''
want='--binds-out: the file name is empty'
bad --preset tiny --binds-out ''
want='--export-scenario is for --mode inproc'
bad --preset tiny --mode socket --export-scenario "$dir/s.yaml"
want='--binds-out is for --mode inproc'
bad --preset tiny --mode socket --binds-out "$dir/s.binds"
want="--export-scenario $dir/no/such/dir/x.yaml: No such file or directory"
bad --preset tiny --export-scenario "$dir/no/such/dir/x.yaml"
want="--binds-out $dir/no/such/dir/b: No such file or directory"
bad --preset tiny --binds-out "$dir/no/such/dir/b"
[ ! -e "$dir/s.yaml" ] && [ ! -e "$dir/s.binds" ] || fail "a refused run wrote a file"
echo "vsbench-export: ok"
