#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# vsmutate, the mutation fuzzer of a real vschedd (Documentation/fuzzing.md,
# "The mutation fuzzer"), and the fuzzer itself: the same seed makes the
# same mutants in the same order (--dry-run's digest, and the digest of
# what a live run sent, restarts and all), another seed others; a daemon
# that dies under it is reported, with a reproducer that --replay sends
# again; then COUNT mutants of seed SEED against the daemon, from the
# netlink corpus and the checkpoints it makes of it: the same datagrams
# every time, so that a failure is the daemon's, and reproduces.
# Usage: selftests/vsmutate.sh OBJTREE SRCTREE COUNT SEED
set -eu
objtree=$1
srctree=$2
count=$3
seed=$4
mutate=$objtree/selftests/mutate/vsmutate
vschedd=$objtree/vschedd
corpus=$srctree/selftests/fuzz/corpus/netlink
dir=$(mktemp -d /tmp/vsmutate-test-XXXXXX)
trap 'rm -rf "$dir"' EXIT INT TERM
# What a failed run of the fuzzer's own tests keeps goes in here too; not the last run's.
tmpdir=${TMPDIR:-/tmp}
export TMPDIR="$dir"

fail() {
	echo "vsmutate.sh: $*" >&2
	exit 1
}

digest() {
	sed -n 's/^vsmutate: seed [0-9]*: digest \([0-9a-f]*\) of.*/\1/p' "$1"
}

# The same seed, the same stream; another seed, another.
"$mutate" --vschedd "$vschedd" --corpus "$corpus" --seed 7 --count 2000 --dry-run >"$dir/a"
"$mutate" --vschedd "$vschedd" --corpus "$corpus" --seed 7 --count 2000 --dry-run >"$dir/b"
"$mutate" --vschedd "$vschedd" --corpus "$corpus" --seed 8 --count 2000 --dry-run >"$dir/c"
a=$(digest "$dir/a")
[ -n "$a" ] || fail "no digest in: $(cat "$dir/a")"
[ "$a" = "$(digest "$dir/b")" ] || fail "seed 7 made two streams: $a and $(digest "$dir/b")"
[ "$a" != "$(digest "$dir/c")" ] || fail "seeds 7 and 8 made the same stream ($a)"

# What a live run sends is that stream, whatever the daemon answers and
# however often it restarts.
"$mutate" --vschedd "$vschedd" --corpus "$corpus" --seed 7 --count 300 --dry-run >"$dir/d"
"$mutate" --vschedd "$vschedd" --corpus "$corpus" --seed 7 --count 300 --restart-every 100 \
	>"$dir/e" || fail "seed 7, 300 mutants: $(cat "$dir/e")"
[ "$(digest "$dir/d")" = "$(digest "$dir/e")" ] ||
	fail "the run sent $(digest "$dir/e"), the dry run made $(digest "$dir/d")"
grep -q '^vsmutate: seed 7: 300 datagrams, .* messages in .* messages/s), 4 daemon lives$' \
	"$dir/e" || fail "the run's counts: $(cat "$dir/e")"
grep -q '^vsmutate: accepted [0-9]* (acked), refused [1-9]' "$dir/e" ||
	fail "no acks and refusals counted: $(cat "$dir/e")"

# A daemon that dies (here of its CPU limit: SIGXCPU, or SIGKILL past the
# hard one) is a failure, with a reproducer; replayed to a daemon that
# lives, it passes.
cat >"$dir/dying-vschedd" <<EOF
#!/bin/sh
exec prlimit --cpu=1:2 "$vschedd" "\$@"
EOF
chmod +x "$dir/dying-vschedd"
if "$mutate" --vschedd "$dir/dying-vschedd" --corpus "$corpus" --seed 9 --seconds 60 \
	--restart-every 0 --out "$dir/repro" >"$dir/f" 2>&1; then
	fail "a daemon killed under it went unnoticed: $(cat "$dir/f")"
fi
grep -q 'vschedd was killed by signal [0-9]* (' "$dir/f" ||
	fail "the death was not told: $(cat "$dir/f")"
grep -q "reproduce with: .* --replay $dir/repro" "$dir/f" || fail "no reproducer: $(cat "$dir/f")"
[ -s "$dir/repro/repro.dgrams" ] && [ -s "$dir/repro/repro.ckpt" ] ||
	fail "the reproducer is not whole: $(ls -l "$dir/repro")"
"$mutate" --vschedd "$vschedd" --replay "$dir/repro" >"$dir/g" 2>&1 ||
	fail "the reproducer fails on a daemon that lives: $(tail -n 20 "$dir/g")"
grep -q '^vsmutate: replayed [1-9][0-9]* datagrams: no failure$' "$dir/g" ||
	fail "the replay: $(cat "$dir/g")"

# What the fuzzer found, cut down by hand, replayed: each directory of
# regress/ is a reproducer (a checkpoint and the datagrams sent after it)
# that once made the daemon fail.
for r in "$srctree"/selftests/mutate/regress/*/; do
	"$mutate" --vschedd "$vschedd" --replay "$r" >"$dir/r" 2>&1 ||
		fail "regress/$(basename "$r") fails again: $(tail -n 20 "$dir/r")"
done

# The run; a failure keeps its directory, the reproducer in it.
TMPDIR=$tmpdir "$mutate" --vschedd "$vschedd" --corpus "$corpus" --count "$count" --seed "$seed"
