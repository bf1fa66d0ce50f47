#!/bin/sh
# The conformance suite: every scenario in selftests/scenarios/ through
# "vsctl scenario run", which prints PASS or FAIL per file and exits 1 if any
# fails. Does nothing while the directory holds no scenario.
# selftests/scenarios-remote.sh runs the same files against a vschedd.
# Usage: selftests/scenarios-run.sh path/to/vsctl selftests/scenarios
set -eu
vsctl=$1
dir=$2
set -- "$dir"/*.yaml
if [ ! -e "$1" ]; then
	echo "scenarios-run: no scenario in $dir"
	exit 0
fi
exec "$vsctl" scenario run "$@"
