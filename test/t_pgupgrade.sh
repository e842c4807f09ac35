#!/usr/bin/env bash
# test/t_pgupgrade.sh: pg_upgrade of a cluster that uses uuidv7 and
# uuidv7_time_ops (same major version).  Data, defaults, generated columns,
# partitions and the bounds all survive; the time operators survive too but
# pg_upgrade drops their membership in core's operator families, which
# uuidv7_time_ops_status() reports and uuidv7_time_ops_repair() restores.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
find_pg_config

q() { "$PG_BINDIR/psql" -X -q -At -v ON_ERROR_STOP=1 -d app -c "$1"; }

cluster_start uuidv7-upgrade-old
old=$CLUSTER_DIR old_port=$PGPORT
psql_q "CREATE DATABASE app"
"$PG_BINDIR/psql" -X -q -v ON_ERROR_STOP=1 -d app >/dev/null <<'SQL'
SET client_min_messages = warning;
CREATE EXTENSION uuidv7;
CREATE EXTENSION uuidv7_time_ops;
CREATE TABLE orders (
	id uuid7 PRIMARY KEY DEFAULT uuidv7_generate(),
	created_at timestamptz GENERATED ALWAYS AS (uuidv7_timestamp(id)) STORED,
	v int
) PARTITION BY RANGE (id);
SELECT count(*) FROM uuidv7_create_partitions('orders', '2025-01-01', '2025-04-01', '1 month', 'UTC');
INSERT INTO orders (id, v)
SELECT uuidv7_generate_at('2025-01-01 00:00:00+00'::timestamptz + g * interval '1 minute'), g
FROM generate_series(0, 99999) g;
CREATE INDEX orders_brin ON orders USING brin (id);
ANALYZE orders;
SQL
plan_query="EXPLAIN (COSTS OFF) SELECT count(*) FROM orders
	WHERE id >= '2025-02-10 00:00:00+00'::timestamptz AND id < '2025-02-11 00:00:00+00'::timestamptz"
before=$(q "SELECT count(*), sum(v), count(*) FILTER (WHERE created_at = uuidv7_timestamp(id)) FROM orders")
before_plan=$(q "$plan_query")
as_pg_user "$PG_BINDIR/pg_ctl" -D "$old/data" -m fast -w stop >/dev/null

cluster_init uuidv7-upgrade-new
new=$CLUSTER_DIR
(cd "$new" && as_pg_user "$PG_BINDIR/pg_upgrade" -b "$PG_BINDIR" -B "$PG_BINDIR" \
	-d "$old/data" -D "$new/data" -p "$old_port" -P "$PGPORT" -s "$new" >"$new/pg_upgrade.log" 2>&1) ||
	{ tail -n 30 "$new/pg_upgrade.log"; exit 1; }
cluster_run

after=$(q "SELECT count(*), sum(v), count(*) FILTER (WHERE created_at = uuidv7_timestamp(id)) FROM orders")
missing=$(q "SELECT count(*) FROM uuidv7_time_ops_status() WHERE NOT present")
lost_plan=$(q "$plan_query")
repaired=$(q "SELECT count(*) FROM uuidv7_time_ops_repair()")
# pg_upgrade carries no planner statistics over: gather them as it advises
q "ANALYZE"
still_missing=$(q "SELECT count(*) FROM uuidv7_time_ops_status() WHERE NOT present")
repaired_plan=$(q "$plan_query")
# removing the extension also removes the members the repair added
q "DROP EXTENSION uuidv7_time_ops"
left_over=$(q "SELECT count(*) FROM pg_amop WHERE 'timestamptz'::regtype IN (amoplefttype, amoprighttype)
	AND 'uuid'::regtype IN (amoplefttype, amoprighttype)")
left_over=$((left_over + $(q "SELECT count(*) FROM pg_amproc WHERE amproclefttype = 'uuid'::regtype
	AND amprocrighttype IN ('timestamptz'::regtype, 'interval'::regtype)")))
works=$(q "SELECT uuidv7_timestamp(uuidv7_generate()) > now() - interval '1 minute'
	AND (SELECT count(*) FROM uuidv7_partition_ddl('orders', '2025-04-01', '2025-06-01', '1 month', 'UTC')) = 2")

echo "rows, sum, generated column right: before $before, after $after"
echo "family members missing after pg_upgrade: $missing; added by repair: $repaired; missing after repair: $still_missing"
echo "family members left after DROP EXTENSION uuidv7_time_ops: $left_over"
echo "plan before:"; echo "$before_plan"
echo "plan after pg_upgrade:"; echo "$lost_plan"
echo "plan after repair:"; echo "$repaired_plan"
[ "$before" = "$after" ] && [ "$missing" -gt 0 ] && [ "$repaired" = "$missing" ] && [ "$still_missing" = 0 ] &&
	grep -q "Index Only Scan using orders_p2025_02_pkey" <<<"$before_plan" &&
	! grep -q "Index" <<<"$lost_plan" &&
	[ "$repaired_plan" = "$before_plan" ] && [ "$left_over" = 0 ] && [ "$works" = t ]
