#!/usr/bin/env bash
# test/t_partition_concurrency.sh: schedulers that create partitions of one
# parent at the same moment, with overlapping spans, all succeed, and each
# period's partition is made once.
#
# First two sessions in a fixed order: the first creates January to June and
# holds its transaction open until it sees the second waiting for the
# parent's lock (so the test fails if creators do not wait for each other);
# the second, April to September, then creates only July to September.  The
# same with uuidv7_drop_partitions against a creator.  Then SESSIONS
# sessions at once with overlapping spans.  Last, a role with no privilege
# on the table cannot make its upkeep wait.
# Runs against the cluster in PGHOST.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
find_pg_config

SESSIONS=${SESSIONS:-8}
db=uuidv7_partition_concurrency
work=$(mktemp -d /tmp/uuidv7-partition-concurrency.XXXXXX)
at_exit 'rm -rf "$work"'

psql_q "CREATE DATABASE $db"
export PGDATABASE=$db
psql_q "CREATE EXTENSION uuidv7"
psql_q "CREATE TABLE ev (id uuid7 PRIMARY KEY, v int) PARTITION BY RANGE (id)"

# hold_until_waiter SQL: in the background, run SQL in a transaction that
# stays open until another session waits for a lock on the parent (30
# seconds at most, then it fails); returns once upkeep's lock on it is held.  Its output goes to
# $work/held.txt, its process id to $held.
hold_until_waiter() {
	"$PG_BINDIR/psql" -X -q -At -v ON_ERROR_STOP=1 >"$work/held.txt" 2>&1 <<SQL &
BEGIN;
$1;
DO \$\$
BEGIN
	FOR i IN 1..600 LOOP
		IF EXISTS (SELECT FROM pg_catalog.pg_locks WHERE locktype = 'relation' AND relation = 'ev'::regclass AND NOT granted) THEN
			RETURN;
		END IF;
		PERFORM pg_catalog.pg_sleep(0.05);
	END LOOP;
	RAISE EXCEPTION 'no other session waited for the parent''s lock within 30 seconds';
END
\$\$;
COMMIT;
SQL
	held=$!
	for _ in $(seq 1 600); do
		[ "$(psql_q "SELECT count(*) FROM pg_locks WHERE locktype = 'relation' AND relation = 'ev'::regclass
			AND mode = 'ShareUpdateExclusiveLock' AND granted")" -gt 0 ] && return
		sleep 0.05
	done
}
held_result() { wait "$held" || { cat "$work/held.txt"; exit 1; }; cat "$work/held.txt"; }

# creators with overlapping spans
hold_until_waiter "SELECT 'first created ' || count(*) FILTER (WHERE created)
	FROM uuidv7_create_partitions('ev', '2025-01-01', '2025-07-01', '1 month', 'UTC')"
second=$(psql_q "SELECT 'second created ' || count(*) FILTER (WHERE created) || ', found ' || count(*) FILTER (WHERE NOT created)
	FROM uuidv7_create_partitions('ev', '2025-04-01', '2025-10-01', '1 month', 'UTC')")
first_result=$(held_result)
echo "$first_result; $second"

# retention and creation take turns too: a creator that waits for a drop
# finds the dropped periods missing and makes them again
hold_until_waiter "SELECT 'dropped ' || count(*) FROM uuidv7_drop_partitions('ev', '2025-03-01')"
recreated=$(psql_q "SELECT 'recreated ' || count(*) FILTER (WHERE created)
	FROM uuidv7_create_partitions('ev', '2025-01-01', '2025-03-01', '1 month', 'UTC')")
dropped=$(held_result)
echo "$dropped; $recreated"

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

# a role with no privilege on the table cannot make its upkeep wait: it
# cannot lock the table, and holding the advisory lock upkeep took before
# 0.3.0 (its key was public) holds nothing back
psql_q "CREATE ROLE regress_mallory LOGIN"
"$PG_BINDIR/psql" -X -q -At -U regress_mallory >"$work/mallory.txt" 2>&1 <<'SQL' &
SELECT pg_advisory_lock((x'75756964'::bigint << 32) | 'ev'::regclass::oid::bigint);
\set ON_ERROR_STOP off
BEGIN;
LOCK TABLE ev IN ACCESS SHARE MODE;
\echo lock as mallory: :LAST_ERROR_SQLSTATE
ROLLBACK;
SELECT pg_sleep(8);
SQL
mallory=$!
for _ in $(seq 1 100); do
	grep -q "lock as mallory" "$work/mallory.txt" && break
	sleep 0.1
done
unhindered=$(psql_q "SET lock_timeout = '3s';
	SELECT 'upkeep beside mallory: created ' || count(*) FILTER (WHERE created)
	FROM uuidv7_create_partitions('ev', '2027-01-01', '2027-03-01', '1 month', 'UTC')
	UNION ALL SELECT 'dropped ' || count(*) FROM uuidv7_drop_partitions('ev', '2025-02-01')" 2>&1 | tr '\n' ' ') || true
mallory_lock=$(sed -n 's/^lock as mallory: //p' "$work/mallory.txt")
psql_q "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = 'regress_mallory'" >/dev/null
wait "$mallory" 2>/dev/null || true
echo "mallory's LOCK TABLE: $mallory_lock; ${unhindered% }"

PGDATABASE=postgres psql_q "DROP DATABASE $db"
PGDATABASE=postgres psql_q "DROP ROLE regress_mallory"
[ "$first_result" = "first created 6" ] && [ "$second" = "second created 3, found 3" ] &&
	[ "$dropped" = "dropped 2" ] && [ "$recreated" = "recreated 2" ] &&
	[ "$failed" -eq 0 ] && [ "$listing" = "18 partitions, 18 distinct, 9 in 2026" ] &&
	[ "$mallory_lock" = 42501 ] && [ "$unhindered" = "upkeep beside mallory: created 2 dropped 1 " ]
