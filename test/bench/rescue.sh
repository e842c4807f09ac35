#!/usr/bin/env bash
# test/bench/rescue.sh: moving a period's early rows out of the DEFAULT
# partition, against a plain INSERT ... SELECT of the same rows, side by side
# in one run.
#
# ROWS rows of one month (a uuid7 key, an int and a text column; the primary
# key and an index on the int column) wait in a table of their own.  In each
# of ROUNDS rounds, alternating:
#   insert: the month's partition exists; INSERT INTO parent SELECT the rows
#   rescue: the rows wait in the DEFAULT partition; uuidv7_create_partitions
#           for the month creates its partition and moves them in
# and the median times are compared as rates (rows a second).  Runs on the
# server of PG_CONFIG; prints a Markdown table and writes it to
# test/bench/out/rescue.md.
#
# Sizes: ROWS (1000000), ROUNDS (5).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib.sh"

ROWS=${ROWS:-1000000}
ROUNDS=${ROUNDS:-5}
bench_begin rescue
cluster_start uuidv7-bench-rescue "fsync = on" "shared_buffers = 256MB" "max_wal_size = 8GB" \
	"checkpoint_timeout = 1h" "autovacuum = off" "jit = off"
export PGOPTIONS="-c client_min_messages=warning"
psql_q "CREATE EXTENSION uuidv7"
create_bench_ms
psql_q "CREATE TABLE rows_of_june AS
	SELECT uuidv7_generate_at('2025-06-01 00:00+00'::timestamptz + g * (interval '30 days' / $ROWS)) AS id,
		g::int AS n, md5(g::text) AS note
	FROM generate_series(0, $ROWS - 1) g"


# a parent keyed by uuid7 with a DEFAULT partition and its indexes
fresh_parent() {
	psql_q "DROP TABLE IF EXISTS ev;
		CREATE TABLE ev (id uuid7 PRIMARY KEY, n int NOT NULL, note text) PARTITION BY RANGE (id);
		CREATE INDEX ev_n ON ev (n);
		CREATE TABLE ev_default PARTITION OF ev DEFAULT"
}
insert_ms=() rescue_ms=()
for _ in $(seq 1 "$ROUNDS"); do
	fresh_parent
	psql_q "SELECT count(*) FROM uuidv7_create_partitions('ev', '2025-06-01', '2025-07-01', '1 month', 'UTC')" >/dev/null
	psql_q "CHECKPOINT"
	insert_ms+=("$(psql_q "SELECT bench_ms('INSERT INTO ev SELECT * FROM rows_of_june')")")
	[ "$(psql_q "SELECT count(*) FROM ev_default")" = 0 ] || { echo "rows went to DEFAULT" >&2; exit 1; }

	fresh_parent
	psql_q "INSERT INTO ev SELECT * FROM rows_of_june; CHECKPOINT"
	rescue_ms+=("$(psql_q "SELECT bench_ms('SELECT * FROM uuidv7_create_partitions(''ev'', ''2025-06-01'', ''2025-07-01'', ''1 month'', ''UTC'')')")")
	[ "$(psql_q "SELECT count(*) FROM ev_default")" = 0 ] && [ "$(psql_q "SELECT count(*) FROM ev")" = "$ROWS" ] ||
		{ echo "the rescue lost or left rows" >&2; exit 1; }
done
insert=$(median "${insert_ms[@]}")
rescue=$(median "${rescue_ms[@]}")
rate() { awk -v ms="$1" -v rows="$ROWS" 'BEGIN {printf "%.0f", rows / (ms / 1000)}'; }

{
	echo "## Moving early rows out of DEFAULT: $ROWS rows of one month, median of $ROUNDS rounds"
	echo
	echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(psql_q "SELECT version()" | sed 's/ on .*//'), $(nproc) cores"
	echo
	echo "| operation | ms (median) | rows/s | rate vs INSERT ... SELECT |"
	echo "|---|---|---|---|"
	echo "| \`INSERT INTO ev SELECT ...\` into the existing partition (primary key and one index) | ${insert%.*} | $(rate "$insert") | 1.00x |"
	echo "| \`uuidv7_create_partitions\` moving the rows in from DEFAULT | ${rescue%.*} | $(rate "$rescue") | $(awk -v a="$insert" -v b="$rescue" 'BEGIN {printf "%.2fx", a / b}') |"
	echo
	echo "rounds (ms): insert ${insert_ms[*]}; rescue ${rescue_ms[*]}"
} | tee "$OUT/rescue.md"
