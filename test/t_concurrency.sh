#!/usr/bin/env bash
# test/t_concurrency.sh: many sessions, short-lived backends and parallel
# workers generate at once into one unique index: no duplicate, and each
# session's values strictly increase.  Runs against the cluster in PGHOST.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
find_pg_config

SESSIONS=${SESSIONS:-8}
PER_SESSION=${PER_SESSION:-150000}
BACKENDS=${BACKENDS:-100}
db=uuidv7_concurrency

psql_q "CREATE DATABASE $db"
export PGDATABASE=$db
psql_q "CREATE EXTENSION uuidv7;
	CREATE TABLE ids (id uuid7 PRIMARY KEY, session int NOT NULL, seq bigint NOT NULL, source text NOT NULL)"

# sessions at once, each inserting its values in generation order
pids=()
for s in $(seq 1 "$SESSIONS"); do
	psql_q "INSERT INTO ids SELECT uuidv7_generate(), $s, g, 'session'
		FROM generate_series(1, $PER_SESSION) g" &
	pids+=($!)
done
# meanwhile, short-lived backends: each a fresh fork of the postmaster
for b in $(seq 1 "$BACKENDS"); do
	psql_q "INSERT INTO ids SELECT uuidv7_generate(), 1000 + $b, g, 'backend'
		FROM generate_series(1, 100) g"
done
for pid in "${pids[@]}"; do wait "$pid"; done

# parallel workers: forced parallel plans generate in several processes
psql_q "CREATE TABLE src AS SELECT g FROM generate_series(1, 200000) g; ANALYZE src"
workers=$(psql_q "SET max_parallel_workers_per_gather = 2; SET parallel_setup_cost = 0;
	SET parallel_tuple_cost = 0; SET min_parallel_table_scan_size = 0;
	EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF)
	CREATE TABLE par AS SELECT uuidv7_generate() AS id, g FROM src" |
	sed -n 's/.*Workers Launched: \([0-9]*\).*/\1/p')
psql_q "INSERT INTO ids SELECT id, 2000, g, 'parallel' FROM par"
echo "parallel workers launched: ${workers:-0}"

result=$(psql_q "SELECT count(*), count(DISTINCT id),
	(SELECT count(*) FROM (SELECT id <= lag(id) OVER (PARTITION BY session ORDER BY seq) AS bad
						   FROM ids WHERE source <> 'parallel') s WHERE bad),
	count(*) FILTER (WHERE uuidv7_timestamp(id) IS NULL)
	FROM ids")
IFS='|' read -r total distinct unordered notv7 <<<"$result"
expected=$((SESSIONS * PER_SESSION + BACKENDS * 100 + 200000))
echo "ids: $total (expected $expected), distinct: $distinct, out of order within a session: $unordered, not v7: $notv7"

PGDATABASE=postgres psql_q "DROP DATABASE $db"
[ "$total" -eq "$expected" ] && [ "$distinct" -eq "$total" ] && [ "$unordered" -eq 0 ] &&
	[ "$notv7" -eq 0 ] && [ "${workers:-0}" -gt 0 ]
