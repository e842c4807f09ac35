#!/usr/bin/env bash
# test/bench/estimates.sh: the planner's row estimates for time ranges on a
# UUIDv7 key against the rows there are.  A table of ROWS rows (a million)
# keyed by uuid7, a row every 30 seconds from 2025-01-01 (about 347 days),
# analyzed; ranges of a minute to three months starting at 03:17 UTC of the
# day in the middle of the rows (2025-06-24 for a million), in three forms:
#
# - bounds:   id >= uuidv7_min(t1) AND id < uuidv7_min(t2)
# - time ops: id >= t1::timestamptz AND id < t2::timestamptz (uuidv7_time_ops)
# - expr:     uuidv7_timestamp(id) >= t1 AND uuidv7_timestamp(id) < t2, with
#             an index on uuidv7_timestamp(id) (whose statistics ANALYZE keeps)
#
# at the default statistics target and at 10,000 (the key column's and the
# expression index's).  Prints a Markdown table (estimate / actual rows) and
# writes it to test/bench/out/estimates-PGMAJOR.md.
#
# Sizes: ROWS (1000000); the server of PG_CONFIG (default: the newest
# installed).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib.sh"
find_pg_config

ROWS=${ROWS:-1000000}
bench_begin estimates
cluster_start uuidv7-bench-estimates "shared_buffers = 512MB" "jit = off"
"$PG_BINDIR/psql" -X -q -v ON_ERROR_STOP=1 >/dev/null <<SQL
SET client_min_messages = warning;
CREATE EXTENSION uuidv7;
CREATE EXTENSION uuidv7_time_ops;
CREATE TABLE ev (id uuid7 PRIMARY KEY, v int);
INSERT INTO ev SELECT uuidv7_generate_at('2025-01-01 00:00+00'::timestamptz + g * interval '30 seconds'), g
FROM generate_series(0, $ROWS - 1) g;
CREATE INDEX ev_time ON ev (uuidv7_timestamp(id));
VACUUM ANALYZE ev;
CREATE FUNCTION estimate(q text) RETURNS bigint LANGUAGE plpgsql AS \$\$
DECLARE
	plan json;
BEGIN
	EXECUTE 'EXPLAIN (FORMAT JSON) ' || q INTO plan;
	RETURN (plan -> 0 -> 'Plan' ->> 'Plan Rows')::bigint;
END
\$\$;
SQL

widths=("1 minute" "10 minutes" "1 hour" "1 day" "1 week" "1 month" "3 months")
measure() { # measure TARGET: a table row for each width
	local width t1 t2
	# the ranges start at 03:17 UTC of the day in the middle of the rows
	t1=$(psql_q "SELECT to_char(date_trunc('day', timestamptz '2025-01-01 00:00+00' + $ROWS * interval '15 seconds',
		'UTC') + interval '3 hours 17 minutes', 'YYYY-MM-DD HH24:MI:SS+00')")
	for width in "${widths[@]}"; do
		t2=$(psql_q "SELECT to_char((timestamptz '$t1' + interval '$width') AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS+00')")
		psql_q "SET TimeZone = 'UTC';
			SELECT '| $1 | $width | ' || count(*) || ' | '
				|| estimate(\$q\$SELECT * FROM ev WHERE id >= uuidv7_min('$t1') AND id < uuidv7_min('$t2')\$q\$) || ' | '
				|| estimate(\$q\$SELECT * FROM ev WHERE id >= '$t1'::timestamptz AND id < '$t2'::timestamptz\$q\$) || ' | '
				|| estimate(\$q\$SELECT * FROM ev WHERE uuidv7_timestamp(id) >= '$t1' AND uuidv7_timestamp(id) < '$t2'\$q\$) || ' |'
			FROM ev WHERE uuidv7_timestamp(id) >= '$t1' AND uuidv7_timestamp(id) < '$t2'"
	done
}

version=$("$PG_BINDIR/postgres" --version | sed -E 's/^[^0-9]*([0-9][^ ]*).*/\1/')
{
	echo "## Row estimates for time ranges, PostgreSQL $version ($ROWS rows, one every 30 s)"
	echo
	echo "| statistics target | range | actual rows | bounds form | time operators | uuidv7_timestamp(id), indexed |"
	echo "|---|---|---|---|---|---|"
	measure "default (100)"
	psql_q "ALTER TABLE ev ALTER COLUMN id SET STATISTICS 10000; ALTER INDEX ev_time ALTER COLUMN 1 SET STATISTICS 10000; ANALYZE ev"
	measure 10000
} | tee "$OUT/estimates-$PG_MAJOR.md"
