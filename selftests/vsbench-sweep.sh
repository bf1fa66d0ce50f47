#!/bin/sh
# "vsbench sweep": a sweep of tiny and 1k (given in the other order) writes
# sweep.json with both runs, as vsbench run reports them for the same seed,
# sweep.dat with their rows by nodes (the first, empty and quiet cycles
# measured), sweep.gp that redraws the plots, and the two SVGs with their
# titles, axes and panels; --compare adds the exhaustive scan's columns and
# --png the PNGs; --cycles 1 leaves the empty and the quiet cycle out as
# "-" and unplotted; without gnuplot the data files are written and the
# sweep exits 1 saying why; bad arguments exit 2 naming the option, with
# nothing run and no file made.
# Usage: selftests/vsbench-sweep.sh path/to/vsbench
set -eu
vsbench=$1
dir=$(mktemp -d /tmp/vsbench-sweep-XXXXXX)
out=$dir/log
trap 'rm -rf "$dir"' EXIT INT TERM
fail() { echo "vsbench-sweep: FAIL: $*" >&2; cat "$out" >&2; exit 1; }

command -v gnuplot >/dev/null ||
	fail "gnuplot is not installed (scripts/install-deps.sh installs gnuplot-nox)"

# sweep.dat: the value of column NAME (named by the header comment) in
# PRESET's row.
dat() {
	awk -v name="$1" -v preset="$2" '
		$1 == "#" && $2 == "preset" { for (i = 2; i <= NF; i++) if ($i == name) c = i - 1 }
		$1 == preset { v = $c }
		END { if (!c) exit 1; print v }' "$3"
}
# The value of a key of vsbench run's top-level object, at its own indent
# (2) or inside sweep.json's runs (6), one line per run.
key() { awk -v k="\"$1\":" -v ind="$2" 'index($0, sprintf("%*s", ind, "") k) == 1 {
	sub(/^[^:]*: */, ""); sub(/,$/, ""); print }' "$3"; }
holds() { awk -v a="$1" -v b="$3" "BEGIN { exit !(a + 0 $2 b + 0) }"; }

s=$dir/s
"$vsbench" sweep --presets 1k,tiny --seed 3 --out "$s" >"$out" 2>&1 || fail "sweep exited $?"
for f in sweep.json sweep.dat sweep.gp throughput.svg cycle.svg; do
	[ -s "$s/$f" ] || fail "no $f"
done
[ ! -e "$s/throughput.png" ] || fail "a PNG was made without --png"
grep -q '^tiny .* first ' "$out" || fail "the table has no first-cycle row for tiny"
grep -q '^1k .* empty ' "$out" || fail "the table has no empty-cycle row for 1k"
grep -q '^tiny .* quiet ' "$out" || fail "the table has no quiet-cycle row for tiny"
grep -q '^1k .* quiet ' "$out" || fail "the table has no quiet-cycle row for 1k"

# sweep.json: both runs, by nodes, each as vsbench run reports the same seed.
[ "$(key seed 2 "$s/sweep.json")" = 3 ] || fail "sweep.json: seed is not 3"
[ "$(key preset 6 "$s/sweep.json" | tr '\n' ' ')" = '"tiny" "1k" ' ] ||
	fail "sweep.json: runs are not tiny then 1k"
[ "$(key nodes 6 "$s/sweep.json" | tr '\n' ' ')" = '200 1000 ' ] ||
	fail "sweep.json: node counts are not 200 and 1000"
[ "$(key seed 6 "$s/sweep.json" | tr '\n' ' ')" = '3 3 ' ] || fail "sweep.json: a run without seed 3"
"$vsbench" run --preset tiny --seed 3 --json >"$dir/tiny.json" 2>"$out" || fail "run exited $?"
for f in tasks podgroups binds pending cycles_run; do
	[ "$(key "$f" 6 "$s/sweep.json" | head -n 1)" = "$(key "$f" 2 "$dir/tiny.json")" ] ||
		fail "sweep.json: tiny's $f is not what vsbench run reports"
done

# sweep.dat: one row per preset by nodes, the figures of sweep.json.
[ "$(grep -v '^#' "$s/sweep.dat" | awk '{ print $1 }' | tr '\n' ' ')" = 'tiny 1k ' ] ||
	{ cp "$s/sweep.dat" "$out"; fail "sweep.dat: rows are not tiny then 1k"; }
[ "$(dat nodes 1k "$s/sweep.dat")" = 1000 ] || fail "sweep.dat: 1k has not 1000 nodes"
[ "$(dat binds tiny "$s/sweep.dat")" = "$(key binds 2 "$dir/tiny.json")" ] ||
	fail "sweep.dat: tiny's binds are not the run's"
for p in tiny 1k; do
	for c in pods_per_sec cycle_p50_ms cycle_max_ms first_ms first_open_ms \
		first_allocate_ms first_close_ms empty_ms empty_open_ms quiet_ms quiet_open_ms \
		quiet_allocate_ms quiet_close_ms peak_rss_mib; do
		v=$(dat "$c" "$p" "$s/sweep.dat") || fail "sweep.dat: no column $c"
		holds "$v" '>' 0 || { cp "$s/sweep.dat" "$out"; fail "sweep.dat: $p $c is \"$v\""; }
	done
	# a quiet enqueue or backfill is tens of ns: there, measured is enough
	for c in quiet_enqueue_ms quiet_backfill_ms active_podgroups; do
		v=$(dat "$c" "$p" "$s/sweep.dat") || fail "sweep.dat: no column $c"
		{ [ "$v" != - ] && holds "$v" '>=' 0; } ||
			{ cp "$s/sweep.dat" "$out"; fail "sweep.dat: $p $c is \"$v\""; }
	done
	holds "$(dat first_allocate_ms "$p" "$s/sweep.dat")" '<=' \
		"$(dat first_ms "$p" "$s/sweep.dat")" || fail "sweep.dat: $p: allocate > its cycle"
	# not measured without --compare: "-", not a made-up zero
	[ "$(dat speedup "$p" "$s/sweep.dat")" = - ] || fail "sweep.dat: a speedup without --compare"
done
holds "$(dat first_ms 1k "$s/sweep.dat")" '>' "$(dat empty_ms 1k "$s/sweep.dat")" ||
	fail "sweep.dat: 1k's empty cycle is not faster than its first"
# the empty cycle looks again at every job the binder touched, the quiet one at none
holds "$(dat empty_ms 1k "$s/sweep.dat")" '>' "$(dat quiet_ms 1k "$s/sweep.dat")" ||
	fail "sweep.dat: 1k's quiet cycle is not faster than its empty one"

# The plots: complete SVG documents with their titles and the presets on the x axis.
for f in throughput.svg cycle.svg; do
	grep -q '<svg' "$s/$f" || fail "$f has no <svg root"
	grep -q '</svg>' "$s/$f" || fail "$f is cut short"
	grep -q '200 (tiny)' "$s/$f" || fail "$f: no tic at tiny's 200 nodes"
	grep -q '1000 (1k)' "$s/$f" || fail "$f: no tic at 1k's 1000 nodes"
	grep -q 'nodes (log scale)' "$s/$f" || fail "$f: no x axis label"
done
grep -q 'pods placed per second against cluster size' "$s/throughput.svg" ||
	fail "throughput.svg: no title"
for t in 'cycle time by part against cluster size' 'first cycle' 'empty cycle' \
	'quiet cycle (nothing changed)' 'whole cycle' \
	'allocate' 'session open' 'session close'; do
	grep -q "$t" "$s/cycle.svg" || fail "cycle.svg: no \"$t\""
done
# every line has its title: gnuplot's own is the plot command's text
! grep -q 'sweep.dat' "$s/throughput.svg" "$s/cycle.svg" || fail "a line titled by gnuplot"

# sweep.gp is kept to redraw: it makes the same plots from the data alone.
rm "$s/throughput.svg" "$s/cycle.svg"
(cd "$s" && gnuplot sweep.gp) >"$out" 2>&1 || fail "gnuplot sweep.gp exited $?"
grep -q 'pods placed per second against' "$s/throughput.svg" || fail "sweep.gp did not redraw"
[ -s "$s/cycle.svg" ] || fail "sweep.gp did not redraw cycle.svg"

# --compare: the exhaustive scan's rate and the speed-up; --png: PNGs; --cycles 1: no empty
# cycle, so no quiet one either.
c=$dir/c
"$vsbench" sweep --presets tiny --compare --png --cycles 1 --out "$c" >"$out" 2>&1 ||
	fail "sweep --compare --png exited $?"
holds "$(dat speedup tiny "$c/sweep.dat")" '>' 0 || fail "--compare: no speedup"
holds "$(dat exhaustive_pods_per_sec tiny "$c/sweep.dat")" '>' 0 || fail "--compare: no exhaustive rate"
holds "$(dat exhaustive_pods_per_sec tiny "$c/sweep.dat")" '<' "$(dat pods_per_sec tiny "$c/sweep.dat")" ||
	fail "--compare: the exhaustive scan is not slower"
grep -q 'exhaustive scan' "$c/throughput.svg" || fail "--compare: the exhaustive scan is not plotted"
[ "$(dat empty_ms tiny "$c/sweep.dat")" = - ] || fail "--cycles 1: an empty cycle"
! grep -q 'empty cycle (' "$c/cycle.svg" || fail "--cycles 1: an empty-cycle plot"
for col in quiet_ms quiet_open_ms quiet_allocate_ms quiet_close_ms active_podgroups; do
	[ "$(dat "$col" tiny "$c/sweep.dat")" = - ] || fail "--cycles 1: $col is not \"-\""
done
! grep -q 'quiet cycle (' "$c/cycle.svg" || fail "--cycles 1: a quiet-cycle plot"
! grep -q '^tiny .* quiet ' "$out" || fail "--cycles 1: a quiet-cycle row in the table"
for f in throughput.png cycle.png; do
	[ "$(head -c 4 "$c/$f" | tail -c 3)" = PNG ] || fail "--png: $f is not a PNG"
done

# No gnuplot: the data is written, the plots are not, exit 1 and why.
n=$dir/n
set +e
PATH=/nonexistent "$vsbench" sweep --presets tiny --out "$n" >"$out" 2>&1
rc=$?
set -e
[ "$rc" -eq 1 ] || fail "without gnuplot the sweep exited $rc, expected 1"
grep -q 'gnuplot not found.*plots were not made' "$out" || fail "without gnuplot: no reason given"
for f in sweep.json sweep.dat sweep.gp; do
	[ -s "$n/$f" ] || fail "without gnuplot: no $f"
done
[ ! -e "$n/throughput.svg" ] || fail "without gnuplot: an SVG"

refusals=0
: >"$dir/file"
mkdir "$dir/empty"
for bad in "--presets nope --out $dir/x|--presets" "--presets= --out $dir/x|--presets" \
	"--presets tiny,,1k --out $dir/x|--presets" "--presets tiny,1k,tiny --out $dir/x|given twice" \
	"--out $dir/x|--presets" "--presets tiny|--out" "--presets tiny --out $dir/file|--out" \
	"--presets tiny --out $dir/none/x|--out" "--presets tiny --out /proc|--out" \
	"--presets tiny --out $dir/x --seed x|--seed" "--presets tiny --out $dir/x --cycles 0|--cycles" \
	"--presets tiny --out $dir/x --mode socket|--mode" "--presets tiny --out $dir/x --bogus|bogus" \
	"--presets tiny --out $dir/x extra|extra" "--presets nope --out $dir/empty|--presets"; do
	args=${bad%|*}
	want=${bad#*|}
	set +e
	# shellcheck disable=SC2086
	"$vsbench" sweep $args >"$out" 2>&1
	rc=$?
	set -e
	[ "$rc" -eq 2 ] || fail "\"vsbench sweep $args\" exited $rc, expected 2"
	grep -q -e "$want" "$out" || fail "\"vsbench sweep $args\" did not name \"$want\""
	! grep -q 'running preset' "$out" || fail "\"vsbench sweep $args\" ran a preset"
	[ ! -e "$dir/x" ] || fail "\"vsbench sweep $args\" made its --out"
	[ -z "$(ls -A "$dir/empty")" ] || fail "\"vsbench sweep $args\" wrote into --out"
	refusals=$((refusals + 1))
done
echo "vsbench-sweep: tiny and 1k swept, tabled and plotted, redrawn from sweep.gp; --compare," \
	"--png, no gnuplot, and $refusals refusals as expected"
