#!/usr/bin/env bash
# test/t_upkeep_load.sh: partition upkeep while the application writes.
#
# A table keyed by uuid7, partitioned by month, with a DEFAULT partition and
# the months of December 2024 (1,000 rows, none written later), January and
# February 2025.  Four pgbench clients insert rows at random instants of
# January to June 2025 in a loop, five rows a transaction, so that rows of
# March to June keep arriving in DEFAULT (as rows made by clients with their
# own clocks, or by a backfill, do).  Meanwhile a scheduler creates March,
# then April, May and June, one period a call, a second apart, then drops
# December and detaches January (retention, both ways).  Checked: every
# upkeep call succeeds; no client aborts; the rows found (in the table and in
# the detached January) are exactly the rows the clients committed; no row
# of a created period is left in DEFAULT.
#
# Then a live table keyed by uuid7, not partitioned, is adopted by
# uuidv7_adopt_table while the same four clients insert new rows into it
# (ids made now by its default): the call succeeds, no client aborts, every
# row is found.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
find_pg_config

work=$(mktemp -d /tmp/uuidv7-upkeep-load.XXXXXX)
chmod 777 "$work"
cluster_start uuidv7-upkeep-load "max_connections = 40"
trap 'rm -rf "$work"; cluster_stop_all' EXIT
q() { "$PG_BINDIR/psql" -X -q -At -v ON_ERROR_STOP=1 -c "$1"; }

q "CREATE EXTENSION uuidv7"
q "CREATE TABLE ev (id uuid7 PRIMARY KEY, client int NOT NULL, at timestamptz NOT NULL) PARTITION BY RANGE (id)"
q "CREATE TABLE ev_default PARTITION OF ev DEFAULT"
q "SELECT count(*) FROM uuidv7_create_partitions('ev', '2024-12-01', '2025-03-01', '1 month', 'UTC')" >/dev/null
q "INSERT INTO ev SELECT uuidv7_generate_at('2024-12-01 00:00+00'::timestamptz + g * interval '40 minutes'), 0, now()
	FROM generate_series(1, 1000) g"

upkeep_writer_script >"$work/writer.sql"

seconds=${LOAD_SECONDS:-16}
"$PG_BINDIR/pgbench" -n -c 4 -j 2 -T "$seconds" -f "$work/writer.sql" >"$work/pgbench.out" 2>&1 &
writers=$!

upkeep() { # upkeep LABEL SQL: one call of the scheduler, its outcome recorded
	local rc=0
	q "$2" >"$work/call.out" 2>&1 || rc=$?
	echo "$1: $([ $rc -eq 0 ] && echo ok || echo "FAILED $(head -n 1 "$work/call.out")")" | tee -a "$work/calls.txt"
}
: >"$work/calls.txt"
sleep 2
for month in 03 04 05 06; do
	upkeep "create 2025-$month" "SELECT partition_name || ' moved ' || moved FROM uuidv7_create_partitions('ev',
		'2025-$month-01 00:00+00', '2025-$month-01 00:00+00'::timestamptz + interval '1 month', '1 month', 'UTC')"
	sleep 1
done
upkeep "drop 2024-12" "SELECT * FROM uuidv7_drop_partitions('ev', '2025-01-01 00:00+00')"
sleep 1
upkeep "detach 2025-01" "SELECT * FROM uuidv7_drop_partitions('ev', '2025-02-01 00:00+00', detach_only => true)"
rc=0
wait "$writers" || rc=$?
cat "$work/pgbench.out"

# the rows the clients committed: five a transaction pgbench counts as
# processed; the rows found: the table's (none of December's is left) and
# the detached January's
processed=$(sed -nE 's/^number of transactions actually processed: ([0-9]+).*/\1/p' "$work/pgbench.out")
aborted=$(grep -c 'aborted' "$work/pgbench.out" || true)
found=$(q "SELECT (SELECT count(*) FROM ev) + (SELECT count(*) FROM ev_p2025_01)")
in_default=$(q "SELECT count(*) FILTER (WHERE id >= uuidv7_min('2025-02-01 00:00+00')) FROM ev_default")
december=$(q "SELECT count(*) FROM ev WHERE id < uuidv7_min('2025-01-01 00:00+00')")
calls_ok=$(grep -c ': ok$' "$work/calls.txt" || true)
echo "upkeep calls: $calls_ok of $(wc -l <"$work/calls.txt") succeeded"
echo "pgbench exit $rc, clients aborted: $aborted, transactions: $processed ($((processed * 5)) rows)"
echo "rows found: $found; rows of created periods left in DEFAULT: $in_default; December rows left: $december"
echo "partitions: $(q "SELECT string_agg(partition::text, ' ' ORDER BY period_start NULLS LAST) FROM uuidv7_partitions('ev')")"
[ "$calls_ok" = 6 ] && [ "$rc" = 0 ] && [ "$aborted" = 0 ] && [ "$processed" -gt 0 ] &&
	[ "$found" = $((processed * 5)) ] && [ "$in_default" = 0 ] && [ "$december" = 0 ] && partitioned_ok=1 || partitioned_ok=0

# adoption of a live table while it is written to
q "CREATE TABLE legacy (id uuid7 PRIMARY KEY DEFAULT uuidv7_generate(), client int NOT NULL, at timestamptz NOT NULL)"
q "INSERT INTO legacy SELECT uuidv7_generate_at(now() - g * interval '1 hour'), 0, now() FROM generate_series(1, 2000) g"
{
	echo "BEGIN;"
	for r in 1 2 3 4 5; do echo "INSERT INTO legacy (client, at) VALUES (:client_id, clock_timestamp());"; done
	echo "END;"
} >"$work/legacy.sql"
"$PG_BINDIR/pgbench" -n -c 4 -j 2 -T 8 -f "$work/legacy.sql" >"$work/pgbench-legacy.out" 2>&1 &
writers=$!
sleep 2
adopt_rc=0
q "CALL uuidv7_adopt_table('legacy', '1 month', 'UTC')" >"$work/adopt.out" 2>&1 || adopt_rc=$?
rc=0
wait "$writers" || rc=$?
processed=$(sed -nE 's/^number of transactions actually processed: ([0-9]+).*/\1/p' "$work/pgbench-legacy.out")
aborted=$(grep -c 'aborted' "$work/pgbench-legacy.out" || true)
found=$(q "SELECT count(*) FROM legacy")
partitioned=$(q "SELECT relkind FROM pg_class WHERE oid = 'legacy'::regclass")
echo "adopt under writers: call exit $adopt_rc $(head -n 1 "$work/adopt.out"), pgbench exit $rc, clients aborted: $aborted"
echo "rows: $found found, $((2000 + processed * 5)) committed; legacy's relkind now: $partitioned"
[ "$partitioned_ok" = 1 ] && [ "$adopt_rc" = 0 ] && [ "$rc" = 0 ] && [ "$aborted" = 0 ] && [ "$processed" -gt 0 ] &&
	[ "$found" = $((2000 + processed * 5)) ] && [ "$partitioned" = p ]
