#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
#
# The verdict of a `make memcheck` run: valgrind wrote one log per process
# it traced (--log-file=DIR/%p.log, -q: nothing but errors and leaks), and
# every one of them must be empty. This is what sees a leak in a Criterion
# test's own process, reported as it exits after its test passed, when
# Criterion no longer looks at its exit status.
#
# usage: memcheck-logs.sh DIR
set -eu

if [ $# -ne 1 ] || [ ! -d "$1" ]; then
	echo "usage: $0 DIR (the directory of valgrind's logs)" >&2
	exit 2
fi
n=$(find "$1" -name '*.log' -type f | wc -l)
if [ "$n" -eq 0 ]; then
	echo "memcheck: no logs in $1: valgrind did not run" >&2
	exit 1
fi
bad=$(find "$1" -name '*.log' -type f -size +0 | sort)
if [ -z "$bad" ]; then
	echo "memcheck: $n processes, no error, no definite leak"
	exit 0
fi
for f in $bad; do
	echo "==== $f"
	cat "$f"
done
echo "memcheck: $(echo "$bad" | wc -l) of $n processes reported errors or leaks (above)" >&2
exit 1
