#!/bin/sh
# Smoke test of "vsctl scenario run" on the scenarios in selftests/vsctl/:
# pass-*.yaml must pass; fail-expect.yaml and fail-hypernodes.yaml must fail
# with each difference shown; every bad-*.yaml must be refused with the message its first line
# announces ("# error: TEXT": the output must contain TEXT); JSON output must
# carry the decisions; bad usage must exit 2 with a message.
# Usage: selftests/vsctl-smoke.sh path/to/vsctl selftests/vsctl
set -eu
vsctl=$1
dir=$2
out=$(mktemp)
trap 'rm -f "$out"' EXIT
fail() { echo "vsctl-smoke: FAIL: $*" >&2; cat "$out" >&2; exit 1; }

# Run from the directory so that messages name the files as the tests expect.
cd "$dir"
runs=0

for f in pass-*.yaml; do
	"$vsctl" scenario run "$f" >"$out" 2>&1 || fail "$f exited $?"
	grep -qx "PASS $f" "$out" || fail "$f did not pass"
	grep -qx '1 passed, 0 failed' "$out" || fail "$f: no summary line"
	runs=$((runs + 1))
done

set +e
"$vsctl" scenario run fail-expect.yaml >"$out" 2>&1
rc=$?
set -e
[ "$rc" -eq 1 ] || fail "fail-expect.yaml exited $rc, expected 1"
for want in 'FAIL fail-expect.yaml' \
	'    binds: expected {ns/p1: n2}, got {ns/p1: n1}' \
	'    bindCount: expected 2, got 1' \
	'    evicts: expected [ns/p1], got []' \
	'    podgroupPhase: expected {ns/pg1: Running}, got {ns/pg1: Inqueue}' \
	'0 passed, 1 failed'; do
	grep -qxF "$want" "$out" || fail "fail-expect.yaml: no line \"$want\""
done
runs=$((runs + 1))

refused=0
for f in bad-*.yaml; do
	want=$(sed -n '1s/^# error: //p' "$f")
	[ -n "$want" ] || fail "$f does not say which error it expects"
	set +e
	"$vsctl" scenario run "$f" >"$out" 2>&1
	rc=$?
	set -e
	[ "$rc" -eq 1 ] || fail "$f exited $rc, expected 1"
	grep -qx "FAIL $f" "$out" || fail "$f: no FAIL line"
	grep -qF "    $want" "$out" || fail "$f: no message \"$want\""
	refused=$((refused + 1))
done

# Every file in one run: the run goes on after failures and counts them all.
npass=$(ls pass-*.yaml | wc -l)
nall=$(ls ./*.yaml | wc -l)
set +e
"$vsctl" scenario run ./*.yaml >"$out" 2>&1
rc=$?
set -e
[ "$rc" -eq 1 ] || fail "the whole directory exited $rc, expected 1"
tail -n 1 "$out" | grep -qx "$npass passed, $((nall - npass)) failed" || fail "bad summary"

# HyperNodes: each differing field, and the leaves (in-process only).
set +e
"$vsctl" scenario run fail-hypernodes.yaml >"$out" 2>&1
rc=$?
set -e
[ "$rc" -eq 1 ] || fail "fail-hypernodes.yaml exited $rc, expected 1"
for want in '    hypernodes: leaf parent: expected "", got "spine"' \
	'    hypernodes: spine parent: expected "leaf", got ""' \
	'    hypernodes: spine nodeCount: expected 1, got 2'; do
	grep -qxF "$want" "$out" || fail "fail-hypernodes.yaml: no line \"$want\""
done
[ "$(grep -c '^    ' "$out")" -eq 3 ] || fail "fail-hypernodes.yaml: more than its differences"
sed 's/leaf: {parent: "", nodeCount: 2}/leaf: {parent: spine, leaves: [n2, n1, n3]}/;
	s/spine: {parent: leaf, nodeCount: 1}/spine: {leaves: [n1, n2]}/' \
	fail-hypernodes.yaml >"$out.yaml"
set +e
"$vsctl" scenario run "$out.yaml" >"$out" 2>&1
rc=$?
set -e
rm -f "$out.yaml"
[ "$rc" -eq 1 ] || fail "the leaves' difference exited $rc, expected 1"
grep -qxF '    hypernodes: leaf leaves: expected [n1, n2, n3], got [n1, n2]' "$out" ||
	fail "no difference in leaf's leaves"
[ "$(grep -c '^    ' "$out")" -eq 1 ] || fail "the leaves: more than their difference"
"$vsctl" scenario run -o json fail-hypernodes.yaml >"$out" 2>&1 && fail "json passed"
tr -d ' \n' <"$out" | grep -qF '"hypernodes":{"leaf":{"parent":"spine","nodeCount":2,"leaves":["n1","n2"]}' ||
	fail "json lacks the HyperNodes"

# JSON: the decisions in the shape of expect.
"$vsctl" scenario run -o json pass-explicit-gang.yaml >"$out" 2>&1 || fail "json exited $?"
for want in '"result": "pass"' '"ns/gang-0": "n2"' '"bindCount": 2' '"evicts": \[\]' \
	'"ns/toobig": "Inqueue"' '"n2": 68.75'; do
	grep -q "$want" "$out" || fail "json output lacks $want"
done
set +e
"$vsctl" scenario run --output=json fail-expect.yaml bad-enum.yaml >"$out" 2>&1
rc=$?
set -e
[ "$rc" -eq 1 ] || fail "json with failures exited $rc, expected 1"
grep -q '"bindCount: expected 2, got 1"' "$out" || fail "json lacks the differences"
grep -q '"error": "bad-enum.yaml:7: phase: ' "$out" || fail "json lacks the load error"

# A file that cannot be read fails like any other.
set +e
"$vsctl" scenario run /nonexistent/scenario.yaml >"$out" 2>&1
rc=$?
set -e
[ "$rc" -eq 1 ] || fail "a missing file exited $rc, expected 1"
grep -q 'No such file' "$out" || fail "a missing file: no reason given"

for good in "--help" "scenario --help" "scenario run --help" "node list --help" \
	"task show --help" "conf set --help" "watch --help"; do
	# shellcheck disable=SC2086
	"$vsctl" $good >"$out" 2>&1 || fail "\"vsctl $good\" exited $?"
	grep -q '^usage: vsctl' "$out" || fail "\"vsctl $good\" printed no usage"
done
usage=0
for bad in "" "nosuchgroup" "scenario" "scenario nosuch" "scenario run" \
	"scenario run --bogus x.yaml" "scenario run -o yaml x.yaml" \
	"node list -o yaml" "node list -n ns" "node show" "node show a b" \
	"queue list --status Pending" "task list --status Sleeping" "task list --podgroup pg" \
	"podgroup show -A x" "node show ns/name" "task show /x" "conf set" "cycle run extra" \
	"watch nosuchgroup" "watch --count 0" "cycle" "conf check" "conf check a b" \
	"conf check --socket x a.conf"; do
	set +e
	# shellcheck disable=SC2086
	"$vsctl" $bad >"$out" 2>&1
	rc=$?
	set -e
	[ "$rc" -eq 2 ] || fail "\"vsctl $bad\" exited $rc, expected 2"
	[ -s "$out" ] || fail "\"vsctl $bad\" said nothing"
	usage=$((usage + 1))
done

# Without a daemon: a clear error and exit status 1, whatever the command.
nosock=$(mktemp -u /tmp/vsctl-smoke-XXXXXX.sock)
# A group alone, or with options, is its list or show, as "ip link" is "ip link show".
for cmd in "node list" "task show ns/x" "conf show" "conf get" "stats show" "stats" "node" \
	"task -A -j"; do
	set +e
	# shellcheck disable=SC2086
	"$vsctl" $cmd --socket "$nosock" >"$out" 2>&1
	rc=$?
	set -e
	[ "$rc" -eq 1 ] || fail "\"vsctl $cmd\" without a daemon exited $rc, expected 1"
	grep -q "$nosock" "$out" || fail "\"vsctl $cmd\" without a daemon did not name the socket"
done

# conf check: the daemon's checks, here, without one.
conf=$(mktemp)
printf 'actions: "enqueue, allocate, backfill"\ntiers:\n- plugins:\n  - name: priority\n  - name: gang\n- plugins:\n  - name: drf\n' >"$conf"
"$vsctl" conf check "$conf" >"$out" 2>&1 || fail "conf check of a good file exited $?"
grep -qx "$conf: the configuration is valid: actions enqueue, allocate, backfill; 2 tiers" "$out" ||
	fail "conf check: not the verdict expected"
printf 'actions: "enqueue, alocate"\ntiers:\n- plugins:\n  - name: gang\n' >"$conf"
set +e
"$vsctl" conf check "$conf" >"$out" 2>&1
rc=$?
set -e
rm -f "$conf"
[ "$rc" -eq 1 ] || fail "conf check of a bad file exited $rc, expected 1"
grep -q "^vsctl conf check: $conf:1: unknown action \"alocate\"" "$out" ||
	fail "conf check: the bad action is not named with its line"

echo "vsctl-smoke: $runs runs, $refused refused files and $usage usage errors as expected"
