#!/usr/bin/env bash
# test/bench/charts.sh: the charts of BENCHMARKS.md's headline comparisons,
# drawn by gnuplot (Debian's gnuplot-nox) from the Markdown tables the
# benchmarks print into test/bench/out/, which are committed beside them:
#
#   generation.svg    ns per value above the floor, uuidv7_generate() beside
#                     gen_random_uuid() and core's uuidv7() where the server
#                     has it (test/bench/generation.sh)
#   time_ranges.svg   queries a second counting a range of time, the table
#                     partitioned by its uuid7 key (uuidv7_min bounds, and
#                     the time operators) beside the same rows partitioned
#                     by a timestamptz column, and that once more (how far
#                     two runs of one thing differ), bounds constant, by
#                     range and daily partitions (test/bench/partitions.sh)
#   upkeep.svg        the upkeep calls' warm milliseconds as a table's
#                     partitions grow, the partition descriptor's listing
#                     beside the deparsed one (test/bench/upkeep_cost.sh)
#
# Run it after a benchmark: it draws every chart whose table is there and
# says which are missing.  Writes test/bench/charts/*.svg.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
ensure_packages gnuplot-nox

OUT=$TOP/test/bench/out
CHARTS=$TOP/test/bench/charts
mkdir -p "$CHARTS"
work=$(mktemp -d /tmp/uuidv7-charts.XXXXXX)
at_exit 'rm -rf "$work"'

# the tables' figures as gnuplot data files in work/ (one a chart), from the
# Markdown rows: a cell's first number is its figure
/usr/bin/python3 - "$OUT" "$work" <<'PY'
import pathlib, re, sys

out, work = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])

def rows(name):
    """The cells of each table row of out/NAME, with the heading above it."""
    path = out / name
    if not path.exists():
        print(f"charts: no {path}: run test/bench/{name.replace('.md', '.sh')} first")
        return []
    heading, found = "", []
    for line in path.read_text().splitlines():
        if line.startswith("#"):
            heading = line.lstrip("# ")
        elif line.startswith("|") and not re.match(r"^\|[-:| ]+\|$", line):
            found.append((heading, [c.strip() for c in line.strip("|").split("|")]))
    return found

def number(cell):
    m = re.search(r"-?[0-9][0-9,]*(\.[0-9]+)?", cell)
    return float(m.group(0).replace(",", "")) if m else None

# generation: server, ours, gen_random_uuid(), core uuidv7() ("-": none)
lines = []
for _, cells in rows("generation.md"):
    if cells[0] == "server":
        continue
    core = number(cells[4]) if cells[4] != "-" else None
    lines.append(f'"{cells[0]}" {number(cells[1])} {number(cells[2])} {core if core is not None else "NaN"}')
if lines:
    (work / "generation.dat").write_text("\n".join(lines) + "\n")

# time ranges: the constant bounds' rows, by partitions and range
lines = []
for heading, cells in rows("partitions.md"):
    m = re.match(r"([0-9,]+) daily partitions", heading)
    if m and cells[0] != "range" and cells[1].startswith("simple, constant"):
        label = f"{cells[0]}, {m.group(1)}"
        lines.append(f'"{label}" {number(cells[2])} {number(cells[3])} {number(cells[4])} {number(cells[5])}')
if lines:
    (work / "time_ranges.dat").write_text("\n".join(lines) + "\n")

# upkeep: a block a call (the listing and the calls that read it), lines of
# partitions and the warm figures, descriptor then deparsed
calls = {}
for heading, cells in rows("upkeep_cost.md"):
    m = re.match(r"([0-9,]+) daily partitions", heading)
    if not m or cells[0] == "call" or cells[0] not in ("uuidv7_partitions", "create, nothing", "drop, nothing", "doctor"):
        continue
    calls.setdefault(cells[0], []).append(f"{number(m.group(1))} {number(cells[2])} {number(cells[4])}")
if calls:
    text = ""
    for call, points in calls.items():
        text += f'"{call}"\n' + "\n".join(points) + "\n\n\n"
    (work / "upkeep.dat").write_text(text)
    (work / "upkeep.calls").write_text("\n".join(calls) + "\n")
PY

common='set terminal svg size 900,480 dynamic noenhanced font "sans,12" background rgb "white"
set key top left
set grid ytics lc rgb "#dddddd"
set style fill solid 0.85 border -1'

if [ -f "$work/generation.dat" ]; then
	gnuplot <<-EOF
		$common
		set output "$CHARTS/generation.svg"
		set title "Generating a value: ns above the count(1) floor (test/bench/out/generation.md)"
		set ylabel "ns per value (lower is better)"
		set style data histograms
		set style histogram clustered gap 1
		set boxwidth 0.9
		set yrange [0:*]
		set key outside below horizontal
		plot "$work/generation.dat" using 2:xtic(1) title "uuidv7_generate()", \
			'' using 4 title "core uuidv7()", \
			'' using 3 title "gen_random_uuid()"
	EOF
	echo "charts: $CHARTS/generation.svg"
fi
if [ -f "$work/time_ranges.dat" ]; then
	gnuplot <<-EOF
		$common
		set output "$CHARTS/time_ranges.svg"
		set title "Counting a range of time, constant bounds: queries a second (test/bench/out/partitions.md)"
		set ylabel "queries/s (higher is better)"
		set style data histograms
		set style histogram clustered gap 1
		set boxwidth 0.9
		set yrange [0:*]
		set key outside below horizontal
		plot "$work/time_ranges.dat" using 2:xtic(1) title "timestamptz key", \
			'' using 3 title "uuid7 key, uuidv7_min() bounds", \
			'' using 4 title "uuid7 key, time operators", \
			'' using 5 title "timestamptz key again (the noise)"
	EOF
	echo "charts: $CHARTS/time_ranges.svg"
fi
if [ -f "$work/upkeep.dat" ]; then
	n=$(wc -l <"$work/upkeep.calls")
	gnuplot <<-EOF
		$common
		set output "$CHARTS/upkeep.svg"
		set title "Upkeep as partitions grow, warm calls (test/bench/out/upkeep_cost.md)"
		set ylabel "ms (lower is better)"
		set xlabel "partitions"
		set logscale xy
		set key outside right
		plot for [i=0:$((n - 1))] "$work/upkeep.dat" index i using 1:2 with linespoints lw 2 dt 1 lc i+1 title columnheader(1).", descriptor", \
			for [i=0:$((n - 1))] "$work/upkeep.dat" index i using 1:3 with linespoints lw 2 dt 2 lc i+1 title columnheader(1).", deparsed"
	EOF
	echo "charts: $CHARTS/upkeep.svg"
fi
