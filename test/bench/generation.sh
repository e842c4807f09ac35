#!/usr/bin/env bash
# test/bench/generation.sh: generation cost on every major the suite tests,
# side by side in one run.
#
# For each of MAJORS (13 15 17 18), on the same servers as test/check.sh (the
# machine's own, or one built from Debian's source and cached), a throwaway
# cluster times SELECT count(f()) FROM generate_series(1, ROWS) for
# count(1) (the floor), gen_random_uuid(), uuidv7_generate() and core's
# uuidv7() where the server has it (18), fastest of ROUNDS runs interleaved
# (noise on a shared machine only ever adds time).  Ratios are of the cost
# above the floor.  Prints a Markdown table and writes it to
# test/bench/out/generation.md.
#
# Sizes: ROWS (5000000), ROUNDS (7).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib.sh"

MAJORS=${MAJORS:-13 15 17 18}
ROWS=${ROWS:-5000000}
ROUNDS=${ROUNDS:-7}
OUT=$TOP/test/bench/out
mkdir -p "$OUT"
work=$(mktemp -d /tmp/uuidv7-bench-gen.XXXXXX)
at_exit 'rm -rf "$work"'

ns_per_row() { awk -v ms="$1" -v floor="$2" -v rows="$ROWS" 'BEGIN {printf "%.1f", (ms - floor) * 1e6 / rows}'; }

rows_md=()
for major in $MAJORS; do
	use_pg_major "$major"
	mkdir "$work/ext-$major"
	build_copy_and_install "$work/ext-$major" >/dev/null
	cluster_start "uuidv7-bench-gen-$major" "jit = off"
	psql_q "SET client_min_messages = warning; CREATE EXTENSION uuidv7"
	create_bench_ms
	gens=("1" "gen_random_uuid()" "uuidv7_generate()")
	core=$(psql_q "SELECT pg_catalog.to_regprocedure('pg_catalog.uuidv7()') IS NOT NULL")
	[ "$core" = t ] && gens+=("pg_catalog.uuidv7()")
	declare -A ms=()
	for _ in $(seq 1 "$ROUNDS"); do
		for g in "${gens[@]}"; do
			ms[$g]+="$(psql_q "SELECT bench_ms('SELECT count($g) FROM generate_series(1, $ROWS)')") "
		done
	done
	floor=$(fastest_of ${ms[1]})
	random=$(ns_per_row "$(fastest_of ${ms[gen_random_uuid()]})" "$floor")
	ours=$(ns_per_row "$(fastest_of ${ms[uuidv7_generate()]})" "$floor")
	core_ns="-" core_ratio="-"
	if [ "$core" = t ]; then
		core_ns=$(ns_per_row "$(fastest_of ${ms[pg_catalog.uuidv7()]})" "$floor")
		core_ratio=$(ratio "$core_ns" "$ours" 1)
	fi
	version=$("$PG_BINDIR/postgres" --version | sed -E 's/^[^0-9]*([0-9][^ ]*).*/\1/')
	rows_md+=("| $version | $ours | $random | $(ratio "$random" "$ours" 1) | $core_ns | $core_ratio |")
	cluster_stop
done

{
	echo "## Generation by major: ns per value above the count(1) floor, fastest of $ROUNDS runs of $ROWS rows"
	echo
	echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(sed -n 's/^model name.*: //p' /proc/cpuinfo | head -1)"
	echo
	echo "| server | uuidv7_generate() | gen_random_uuid() | gen_random_uuid() / ours | core uuidv7() | core uuidv7() / ours |"
	echo "|---|---|---|---|---|---|"
	printf '%s\n' "${rows_md[@]}"
} | tee "$OUT/generation.md"
