#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
#
# Run a Go command the way vsched builds its Go test programs (the conformance
# oracle and the peers, Documentation/conformance.md): Go's module and build
# caches in the build's Go directory (GO_DIR/mod, GO_DIR/cache; the Makefile's
# GO_DIR, by default go/ in the source tree), never in $HOME; the Go that is
# installed, never a downloaded toolchain; modules from the machine's GOPROXY;
# at a low priority, since the machines are shared.
#
# Usage: scripts/go-env.sh GO_DIR COMMAND [ARG...]
#   e.g. scripts/go-env.sh go go build -p 2 -o go/bin/volcano-oracle .
set -eu

if [ $# -lt 2 ]; then
	echo "usage: scripts/go-env.sh GO_DIR COMMAND [ARG...]" >&2
	exit 2
fi
mkdir -p "$1" || exit 1
godir=$(cd "$1" && pwd)
shift

if ! command -v go >/dev/null 2>&1; then
	echo "scripts/go-env.sh: go is not installed: the conformance oracle needs Go 1.22 or later" \
	     "(the machines of this project have it installed); nothing else in vsched does" >&2
	exit 1
fi

GOMODCACHE=$godir/mod
GOCACHE=$godir/cache
GOTOOLCHAIN=local
# -modcacherw: the module cache is in the build tree, and "make clean" or rm -r
# must be able to delete it (Go makes it read-only otherwise).
GOFLAGS="-modcacherw -buildvcs=false${GOFLAGS:+ $GOFLAGS}"
export GOMODCACHE GOCACHE GOTOOLCHAIN GOFLAGS

exec nice -n 10 "$@"
