#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# make fuzz: each target under libFuzzer for a set time (Documentation/fuzzing.md).
#
# Usage: selftests/fuzz-run.sh FUZZTREE SRCTREE SECONDS TARGET...
#
# FUZZTREE is the FUZZ=1 output tree: the targets are FUZZTREE/selftests/fuzz/
# fuzz-NAME. What a run finds new goes to FUZZTREE/corpus/NAME/ (and is read
# again by the next run, with the committed selftests/fuzz/corpus/NAME/); a
# crash is written to FUZZTREE/crash/ and stops the run, with libFuzzer's
# output in FUZZTREE/log/NAME.log.
set -eu

tree=$1
srctree=$2
seconds=$3
shift 3

case $seconds in
''|*[!0-9]*) echo "fuzz-run: FUZZ_TIME \"$seconds\" is not a number of seconds" >&2; exit 2 ;;
esac
mkdir -p "$tree/crash" "$tree/log"
for t in "$@"; do
	bin=$tree/selftests/fuzz/fuzz-$t
	if [ ! -x "$bin" ]; then
		echo "fuzz-run: no target $t (the targets: selftests/fuzz/fuzz_*.c)" >&2
		exit 2
	fi
	mkdir -p "$tree/corpus/$t"
	echo "fuzz-run: $t for ${seconds}s"
	if ! "$bin" -max_total_time="$seconds" -print_final_stats=1 \
		-artifact_prefix="$tree/crash/$t-" \
		"$tree/corpus/$t" "$srctree/selftests/fuzz/corpus/$t" >"$tree/log/$t.log" 2>&1; then
		tail -n 40 "$tree/log/$t.log" >&2
		echo "fuzz-run: $t crashed; the input is in $tree/crash/, the log in $tree/log/$t.log" >&2
		exit 1
	fi
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$tree/log/$t.log")
	found=$(ls "$tree/corpus/$t" | wc -l)
	echo "fuzz-run: $t: ${runs:-?} inputs, no crash; $found inputs of its own in $tree/corpus/$t"
done
