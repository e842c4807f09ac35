#!/usr/bin/env bash
# test/t_partition_concurrency.sh: schedulers that create partitions of one
# parent at the same moment, with overlapping spans, all succeed, and each
# period's partition is made once.
#
# First two sessions in a fixed order: the first creates January to June and
# holds its transaction open until it sees the second waiting for the
# parent's creation lock (so the test fails if creators do not wait for each
# other); the second, April to September, then creates only July to
# September.  Then SESSIONS sessions at once with overlapping spans.
# Runs against the cluster in PGHOST.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
find_pg_config

SESSIONS=${SESSIONS:-8}
db=uuidv7_partition_concurrency
work=$(mktemp -d /tmp/uuidv7-partition-concurrency.XXXXXX)
trap 'rm -rf "$work"' EXIT

psql_q "CREATE DATABASE $db"
export PGDATABASE=$db
psql_q "CREATE EXTENSION uuidv7"
psql_q "CREATE TABLE ev (id uuid7 PRIMARY KEY, v int) PARTITION BY RANGE (id)"

"$PG_BINDIR/psql" -X -q -At -v ON_ERROR_STOP=1 >"$work/first.txt" 2>&1 <<'SQL' &
BEGIN;
SELECT 'first created ' || count(*) FILTER (WHERE created)
FROM uuidv7_create_partitions('ev', '2025-01-01', '2025-07-01', '1 month', 'UTC');
DO $$
BEGIN
	FOR i IN 1..600 LOOP
		IF EXISTS (SELECT FROM pg_catalog.pg_locks WHERE locktype = 'advisory' AND NOT granted) THEN
			RETURN;
		END IF;
		PERFORM pg_catalog.pg_sleep(0.05);
	END LOOP;
	RAISE EXCEPTION 'no second creator waited for the parent''s lock within 30 seconds';
END
$$;
COMMIT;
SQL
first=$!
# the second starts once the first holds the lock
for _ in $(seq 1 600); do
	[ "$(psql_q "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted")" -gt 0 ] && break
	sleep 0.05
done
second=$(psql_q "SELECT 'second created ' || count(*) FILTER (WHERE created) || ', found ' || count(*) FILTER (WHERE NOT created)
	FROM uuidv7_create_partitions('ev', '2025-04-01', '2025-10-01', '1 month', 'UTC')")
wait "$first" || { cat "$work/first.txt"; exit 1; }
first_result=$(cat "$work/first.txt")
echo "$first_result; $second"

# many at once: session s creates the six months from month s % 4 of 2026
pids=()
for s in $(seq 1 "$SESSIONS"); do
	psql_q "SELECT count(*) FROM uuidv7_create_partitions('ev', timestamptz '2026-01-01 00:00+00' + $((s % 4)) * interval '1 month',
		timestamptz '2026-01-01 00:00+00' + $((s % 4 + 6)) * interval '1 month', '1 month', 'UTC')" >/dev/null 2>"$work/$s.err" &
	pids+=($!)
done
failed=0
for s in $(seq 1 "$SESSIONS"); do
	wait "${pids[$((s - 1))]}" || { failed=$((failed + 1)); cat "$work/$s.err"; }
done
listing=$(psql_q "SELECT count(*) || ' partitions, ' || count(DISTINCT lower_bound) || ' distinct, '
	|| count(*) FILTER (WHERE period_start >= '2026-01-01') || ' in 2026' FROM uuidv7_partitions('ev')")
echo "$SESSIONS sessions at once: $failed failed; $listing"

PGDATABASE=postgres psql_q "DROP DATABASE $db"
[ "$first_result" = "first created 6" ] && [ "$second" = "second created 3, found 3" ] &&
	[ "$failed" -eq 0 ] && [ "$listing" = "18 partitions, 18 distinct, 9 in 2026" ]
