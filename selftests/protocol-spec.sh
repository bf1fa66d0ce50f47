#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
#
# The protocol, written once (Documentation/protocol.md, "The spec"): the
# committed uapi header, policy tables, protocol tables and userspace codec
# are exactly what scripts/vsnl-gen.py makes from
# Documentation/netlink/vsched.yaml, so that none is edited by hand or left
# stale; the check itself sees a hand edit;
# and the generator refuses a bad spec (an unknown type, a duplicate value,
# a nest of no set, a bound of no enum entry) with the file, the line and
# the item, writing nothing.
#
# Usage: selftests/protocol-spec.sh SRCTREE
set -eu

srctree=$1
gen=$srctree/scripts/vsnl-gen.py
spec=$srctree/Documentation/netlink/vsched.yaml
fail() { echo "protocol-spec: $*" >&2; exit 1; }

command -v python3 >/dev/null || fail "python3 is missing (scripts/install-deps.sh installs it)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The committed files are what the spec makes.
python3 "$gen" --srctree "$srctree" --check 2>"$tmp/check" ||
	fail "generated files differ from the spec: $(cat "$tmp/check")"

# A copy made from the spec passes, and fails once a generated file is edited.
python3 "$gen" --srctree "$srctree" --out "$tmp/out" || fail "vsnl-gen.py --out failed"
python3 "$gen" --srctree "$srctree" --out "$tmp/out" --check || fail "a fresh copy does not pass --check"
# (protocol.md: in its generated tables; the prose around them is hand-written.)
for edit in uapi/vsched/vsched.h:VS_NAME_MAX kernel/netlink/policies.c:VS_NAME_MAX \
	    "Documentation/protocol.md:#### Attribute set res" userspace/lib/codec_gen.h:VS_A_NODE \
	    userspace/lib/codec_gen.c:VS_NAME_MAX; do
	f=${edit%%:*} what=${edit#*:}
	cp "$tmp/out/$f" "$tmp/saved"
	sed -i "0,/$what/s//$what edited/" "$tmp/out/$f"
	cmp -s "$tmp/out/$f" "$tmp/saved" && fail "$f: the edit changed nothing"
	if python3 "$gen" --srctree "$srctree" --out "$tmp/out" --check 2>"$tmp/err"; then
		fail "a hand edit of $f passes the check"
	fi
	grep -q "$f differs from what" "$tmp/err" || fail "the check does not name $f: $(cat "$tmp/err")"
	cp "$tmp/saved" "$tmp/out/$f"
done

# bad NAME 'ORIGINAL' 'REPLACEMENT' 'EXPECTED MESSAGE': the spec with its
# first ORIGINAL line replaced (awk reads "\n" in it as a new line) is refused, with a message naming the file,
# the line of the item and the item, and nothing is written.
bad() {
	name=$1 from=$2 to=$3 want=$4
	grep -qxF -- "$from" "$spec" || fail "$name: the spec has no line '$from'"
	awk -v from="$from" -v to="$to" '!done && $0 == from { print to; done = 1; next } { print }' \
		"$spec" >"$tmp/bad.yaml"
	rm -rf "$tmp/badout"
	if python3 "$gen" --srctree "$srctree" --spec "$tmp/bad.yaml" --out "$tmp/badout" 2>"$tmp/err"; then
		fail "$name: the generator took a bad spec"
	fi
	grep -q -- "^vsnl-gen: $tmp/bad.yaml:[0-9][0-9]*: .*$want" "$tmp/err" ||
		fail "$name: expected '$tmp/bad.yaml:LINE: ...$want', got: $(cat "$tmp/err")"
	[ ! -e "$tmp/badout" ] || fail "$name: a refused spec wrote files"
}

bad "unknown type" "    type: u64" "    type: u7" "attribute-set 'vsched', attribute 'cycle-id': unknown type 'u7'"
bad "duplicate attribute value" "  - name: memory" "  - name: memory\n    value: 1" \
	"attribute-set 'res', attribute 'memory': value 1 is already attribute 'cpu'"
bad "duplicate enum value" "  - not-in" "  - {name: not-in, value: 0}" \
	"definition 'sel-op': entry 'not-in' has the value 0 of 'in'"
bad "missing nest" "    nested-attributes: node" "    nested-attributes: nodes" \
	"attribute-set 'vsched', attribute 'node': nested-attributes 'nodes' is no attribute-set"
bad "unknown enum entry" "      max: no-execute" "      max: no-exec" \
	"attribute-set 'taint', attribute 'effect': bound 'no-exec' is no entry of its enum"
# (nsterm's attribute renamed: the subset nsterm-required lists one it has not.)
bad "subset of an unknown attribute" "  - name: field" "  - name: fields" \
	"attribute-set 'nsterm-required', attribute 'field': no such attribute in 'nsterm'"
bad "unknown enum display" "  display: camel" "  display: upper" \
	"definition 'taint-effect': display is 'name' or 'camel'"
bad "an entry's display without the enum's" "  - abort-job" "  - {name: abort-job, display: Abort}" \
	"definition 'action': an entry's display is a string, in an enum with display"
bad "unknown attribute display" "    display: time" "    display: date" \
	"attribute-set 'queue', attribute 'created': display is 'time'"

echo "protocol-spec: the generated files match the spec; bad specs refused"
