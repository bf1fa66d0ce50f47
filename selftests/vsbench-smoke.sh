#!/bin/sh
# Smoke test of the vsbench commands: small runs that must succeed, report
# that every invariant holds, and schedule something; and bad options that
# must be refused with exit status 2 and a message.
# Usage: selftests/vsbench-smoke.sh path/to/vsbench
set -eu
vsbench=$1
out=$(mktemp)
trap 'rm -f "$out"' EXIT
fail() { echo "vsbench-smoke: FAIL: $*" >&2; cat "$out" >&2; exit 1; }

"$vsbench" cluster -n 100 -j 100 -t 4 --show 2 >"$out" 2>&1 || fail "cluster exited $?"
grep -q 'every node, job and queue consistent' "$out" || fail "cluster did not check invariants"
grep -q '^vs_task  *400 ' "$out" || fail "cluster did not list 400 tasks in the pool"

"$vsbench" cycle -n 20 -j 60 -t 4 -c 2 >"$out" 2>&1 || fail "cycle exited $?"
grep -q 'invariants hold' "$out" || fail "cycle did not check invariants"
binds=$(sed -n 's/^  \([0-9][0-9]*\) tasks bound.*/\1/p' "$out")
[ -n "$binds" ] && [ "$binds" -gt 0 ] || fail "cycle bound nothing"

for bad in "cluster -n 0" "cluster --bogus" "cycle -c 0" "cycle --conf /nonexistent/conf" "nosuchcommand"; do
	set +e
	# shellcheck disable=SC2086
	"$vsbench" $bad >"$out" 2>&1
	rc=$?
	set -e
	case "$bad" in
	*nonexistent*) want=1 ;;
	*) want=2 ;;
	esac
	[ "$rc" -eq "$want" ] || fail "\"vsbench $bad\" exited $rc, expected $want"
	[ -s "$out" ] || fail "\"vsbench $bad\" said nothing"
done
echo "vsbench-smoke: 3 runs and 5 refusals as expected"
