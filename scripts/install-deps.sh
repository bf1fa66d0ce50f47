#!/bin/sh
# Install the Debian packages vsched needs to build and test. Idempotent: a
# package that is already installed is not touched, and nothing runs apt when
# everything is present. Needs root (or sudo) only when something is missing.
#
# Usage: scripts/install-deps.sh [--check]
#   --check   only report what is missing; exit 1 if anything is
set -eu

# One line per package: the build and its tests need every one of them
# (gnuplot-nox: "vsbench sweep" draws its plots with it, and
# selftests/vsbench-sweep.sh checks them; libssl-dev: vskube decodes the
# base64 certificates of a kubeconfig with OpenSSL's libcrypto;
# libgit2-dev: the unit tests define the three libgit2 functions Criterion
# calls (selftests/libgit2_lazy.c), with its headers;
# libcurl4-openssl-dev: vskube talks to the API server with libcurl;
# libmicrohttpd-dev: the tests serve HTTP with it, the test API server
# of selftests/kube/ among them; curl and jq: the end-to-end tests ask
# the test API server with curl and read its request log with jq, and
# scripts/conformance.sh compares decisions with jq;
# groff-base: selftests/manual-pages.sh formats the manual pages; tmux:
# selftests/vsctl-top.sh reads the screen vsctl top draws in a terminal;
# zlib1g-dev: checkpoints are checksummed with zlib's crc32();
# clang and libclang-rt-14-dev: "make fuzz" builds the fuzz targets with
# clang and links them with libFuzzer, which that package holds; python3 and
# python3-yaml: scripts/vsnl-gen.py makes the protocol's header, policies and
# tables from Documentation/netlink/vsched.yaml, and make check compares).
PACKAGES="
build-essential
pkg-config
libmnl-dev
libnl-3-dev
libnl-genl-3-dev
libjemalloc-dev
libcriterion-dev
libgit2-dev
libyaml-dev
libjansson-dev
zlib1g-dev
libssl-dev
libcurl4-openssl-dev
libmicrohttpd-dev
valgrind
gnuplot-nox
curl
jq
groff-base
tmux
clang
libclang-rt-14-dev
python3
python3-yaml
"

# Go is no Debian package here: only the conformance oracle (make oracle,
# Documentation/conformance.md) needs it, so its absence is reported, never
# installed, and fails nothing else.
if [ "${1:-}" = "--check" ] && ! command -v go >/dev/null 2>&1; then
	echo "optional, for make oracle: go (Go 1.22 or later)" >&2
fi

missing=""
for p in $PACKAGES; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
		missing="$missing $p"
	fi
done

if [ -z "$missing" ]; then
	exit 0
fi

if [ "${1:-}" = "--check" ]; then
	echo "missing packages:$missing" >&2
	exit 1
fi

echo "scripts/install-deps.sh: installing:$missing" >&2
SUDO=""
if [ "$(id -u)" != 0 ]; then
	if command -v sudo >/dev/null 2>&1; then
		SUDO="sudo"
	else
		echo "scripts/install-deps.sh: need root to install:$missing" >&2
		exit 1
	fi
fi

export DEBIAN_FRONTEND=noninteractive
# A fresh machine has no package lists; an update is cheap next to a failed install.
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing
