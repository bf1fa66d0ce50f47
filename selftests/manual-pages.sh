#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
#
# The manual pages and the bash completions against the programs they
# describe: every page formats without a warning; every long option a
# program's --help lists is in its page (for vsbench, every command's
# --help, each command with a section of the page, and each explaining
# every option its usage names) and, for vschedd and
# vskube, every option of the page's OPTIONS is one the program takes (for
# vsbench, every option the page's paragraphs are tagged with is one a
# command takes); --version answers;
# the completions offer every group, command and long option the programs'
# --help lists, and vskube's the values of its enumerated options.
#
# Usage: selftests/manual-pages.sh OBJTREE SRCTREE
set -eu

objtree=$1
srctree=$2
fail() { echo "manual-pages: $*" >&2; exit 1; }

command -v groff >/dev/null || fail "groff is missing (scripts/install-deps.sh installs it)"
command -v bash >/dev/null || fail "bash is missing"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Every page formats as a manual page, without a warning of any kind.
pages=0
for page in "$srctree"/Documentation/*.8; do
	groff -man -ww -z "$page" >"$tmp/groff" 2>&1 || fail "$page: groff failed: $(cat "$tmp/groff")"
	[ ! -s "$tmp/groff" ] || fail "$page: groff warns: $(cat "$tmp/groff")"
	pages=$((pages + 1))
done
[ "$pages" -ge 4 ] || fail "only $pages manual pages in Documentation/"

# The long options of a text, one per line ("\-" of roff read as "-").
long_options() { sed 's/\\-/-/g' | grep -o -- '--[a-z][a-z0-9-]*' | sort -u; }

for prog in vschedd vsctl vskube; do
	page=$srctree/Documentation/$prog.8
	[ -f "$page" ] || fail "$prog has no manual page"
	"$objtree/$prog" --help >"$tmp/help" 2>&1 || fail "$prog --help failed"
	long_options <"$tmp/help" >"$tmp/help.opts"
	[ -s "$tmp/help.opts" ] || fail "$prog --help lists no option"
	long_options <"$page" >"$tmp/page.opts"
	missing=$(comm -23 "$tmp/help.opts" "$tmp/page.opts")
	[ -z "$missing" ] || fail "$prog.8 does not document" $missing
done

# The daemon and the bridge: what their OPTIONS sections name, they take.
for prog in vschedd vskube; do
	page=$srctree/Documentation/$prog.8
	"$objtree/$prog" --help >"$tmp/help" 2>&1
	long_options <"$tmp/help" >"$tmp/help.opts"
	sed -n '/^\.SH OPTIONS/,/^\.SH [^O]/p' "$page" | long_options >"$tmp/page.opts"
	[ -s "$tmp/page.opts" ] || fail "$prog.8 has no OPTIONS"
	extra=$(comm -13 "$tmp/help.opts" "$tmp/page.opts")
	[ -z "$extra" ] || fail "$prog.8 documents options $prog does not list:" $extra
	"$objtree/$prog" --version >"$tmp/version" 2>&1 || fail "$prog --version failed"
	grep -qx "$prog [0-9][0-9.]*" "$tmp/version" || fail "$prog --version: $(cat "$tmp/version")"
done

# vsbench: its commands are listed by "vsbench --help", their options by
# "vsbench COMMAND --help". Each command has a section (.SS vsbench COMMAND),
# each option is in the page, and each option a paragraph of the page is
# tagged with (.TP) is taken by some command.
page=$srctree/Documentation/vsbench.8
[ -f "$page" ] || fail "vsbench has no manual page"
"$objtree/vsbench" --help >"$tmp/help" 2>&1 || fail "vsbench --help failed"
awk '/^commands:/ { on = 1; next } /^$/ { on = 0 } on && /^  [a-z]/ { print $1 }' \
	"$tmp/help" >"$tmp/commands"
[ -s "$tmp/commands" ] || fail "vsbench --help lists no command"
while read -r cmd; do
	grep -qx "\.SS vsbench $cmd" "$page" || fail "vsbench.8 has no section for vsbench $cmd"
	"$objtree/vsbench" "$cmd" --help >>"$tmp/help" 2>&1 || fail "vsbench $cmd --help failed"
done <"$tmp/commands"
long_options <"$tmp/help" >"$tmp/help.opts"
[ -s "$tmp/help.opts" ] || fail "vsbench's commands list no option"
# Each command's --help explains, on a line of its own, every option its usage names.
while read -r cmd; do
	"$objtree/vsbench" "$cmd" --help >"$tmp/cmd.help" 2>&1
	sed '/^$/q' "$tmp/cmd.help" | grep -oE -- '(^|[][ (|])--?[a-zA-Z][a-zA-Z0-9-]*' |
		sed 's/^[][ (|]//' | sort -u >"$tmp/named"
	grep -E '^ +-' "$tmp/cmd.help" | sed -E 's/^ +//; s/ {2,}.*//' |
		grep -oE -- '--?[a-zA-Z][a-zA-Z0-9-]*' | sort -u >"$tmp/explained"
	missing=$(comm -23 "$tmp/named" "$tmp/explained")
	[ -z "$missing" ] || fail "vsbench $cmd --help names options it does not explain:" $missing
done <"$tmp/commands"
long_options <"$page" >"$tmp/page.opts"
missing=$(comm -23 "$tmp/help.opts" "$tmp/page.opts")
[ -z "$missing" ] || fail "vsbench.8 does not document" $missing
awk '/^\.TP/ { if ((getline line) > 0) print line }' "$page" | long_options >"$tmp/page.opts"
[ -s "$tmp/page.opts" ] || fail "vsbench.8 tags no paragraph with an option"
extra=$(comm -13 "$tmp/help.opts" "$tmp/page.opts")
[ -z "$extra" ] || fail "vsbench.8 documents options no vsbench command lists:" $extra

# Completion of a command line, the last word being completed: what it offers.
complete_line() {
	file=$1
	shift
	bash --norc --noprofile -c '
		. "$1"
		shift
		COMP_WORDS=("$@")
		COMP_CWORD=$(($# - 1))
		COMP_LINE="$*"
		COMP_POINT=${#COMP_LINE}
		"_$1"
		printf "%s\n" "${COMPREPLY[@]}"' complete "$file" "$@" </dev/null
}

# vskube: every long option, and the values of those with a set of them.
comp=$srctree/scripts/bash-completion/vskube
"$objtree/vskube" --help | long_options >"$tmp/help.opts"
complete_line "$comp" vskube -- | sort -u >"$tmp/offered"
missing=$(comm -23 "$tmp/help.opts" "$tmp/offered")
[ -z "$missing" ] || fail "vskube completion does not offer" $missing
extra=$(comm -13 "$tmp/help.opts" "$tmp/offered")
[ -z "$extra" ] || fail "vskube completion offers options vskube does not take:" $extra
[ "$(complete_line "$comp" vskube --leader-elect-re | tr '\n' ' ')" = \
  "--leader-elect-renew-deadline --leader-elect-retry-period --leader-elect-resource-namespace --leader-elect-resource-name " ] ||
	fail "vskube --leader-elect-re: $(complete_line "$comp" vskube --leader-elect-re)"
# An optional value is joined ("--leader-elect=false"); bash splits at "=".
[ "$(complete_line "$comp" vskube --leader-elect = f)" = false ] ||
	fail "vskube --leader-elect=f: $(complete_line "$comp" vskube --leader-elect = f)"
complete_line "$comp" vskube --leader-elect '' | grep -qx -- --kubeconfig ||
	fail "vskube --leader-elect <TAB> should offer the options, not a value"
[ "$(complete_line "$comp" vskube -v 1 | tr '\n' ' ')" = "1 10 " ] ||
	fail "vskube -v 1: $(complete_line "$comp" vskube -v 1)"
: >"$tmp/kubeconfig-here"
[ "$(complete_line "$comp" vskube --kubeconfig "$tmp/kubeconfig-h")" = "$tmp/kubeconfig-here" ] ||
	fail "vskube --kubeconfig: files are not offered"
[ -z "$(complete_line "$comp" vskube --list-page-size '')" ] ||
	fail "vskube --list-page-size: a number has nothing to offer"

# vsctl: every group, every group's commands, every command's long options.
comp=$srctree/scripts/bash-completion/vsctl
"$objtree/vsctl" --help | grep -E '^  [a-z]' >"$tmp/commands"
awk '{ print $1 }' "$tmp/commands" | sort -u >"$tmp/groups"
complete_line "$comp" vsctl '' | sort -u >"$tmp/offered"
missing=$(comm -23 "$tmp/groups" "$tmp/offered")
[ -z "$missing" ] || fail "vsctl completion does not offer the groups" $missing
while read -r group cmd rest; do
	case $cmd in
	-* | \[* | '') set -- vsctl "$group" "--" ; rest="$cmd $rest" ;;
	*)
		complete_line "$comp" vsctl "$group" '' | grep -qx -- "$cmd" ||
			fail "vsctl $group <TAB> does not offer $cmd"
		set -- vsctl "$group" "$cmd" "--"
		;;
	esac
	echo "$rest" | long_options >"$tmp/cmd.opts"
	complete_line "$comp" "$@" | sort -u >"$tmp/offered"
	missing=$(comm -23 "$tmp/cmd.opts" "$tmp/offered")
	[ -z "$missing" ] || fail "$* <TAB> does not offer" $missing
done <"$tmp/commands"

echo "manual-pages: $pages pages, options of vschedd, vsctl, vskube and vsbench, completions: ok"
