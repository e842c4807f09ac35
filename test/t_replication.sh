#!/usr/bin/env bash
# test/t_replication.sh: many writers, no coordination, one warehouse.
#
# Two "region" clusters each take concurrent inserts (pgbench) into an orders
# table keyed by uuid7 DEFAULT uuidv7_generate(); a "warehouse" cluster holds
# the same table range-partitioned by month on the key and subscribes to both
# regions with PostgreSQL's logical replication.  In the middle of the load
# region A is stopped hard (immediate shutdown) and restarted.  A streaming
# hot standby of region A runs every read-only function, generation included.
# Then: the warehouse holds exactly the rows the regions committed, no key
# twice, every row in the partition of its embedded time, and every embedded
# time within a second of the row's insert time.
#
# Load: CLIENTS per region (4), LOAD_SECONDS of load before and after the fault (5).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
find_pg_config

CLIENTS=${CLIENTS:-4}
SECONDS_OF_LOAD=${LOAD_SECONDS:-5}
work=$(mktemp -d /tmp/uuidv7-replication.XXXXXX)
chmod 777 "$work"

# run SQL on one cluster: sql HOST PORT SQL
sql() { "$PG_BINDIR/psql" -X -q -At -v ON_ERROR_STOP=1 -h "$1" -p "$2" -d app -c "$3"; }

region_schema="SET client_min_messages = warning;
CREATE EXTENSION uuidv7;
CREATE TABLE orders (
	id uuid7 PRIMARY KEY DEFAULT uuidv7_generate(),
	region text NOT NULL,
	amount int NOT NULL,
	inserted_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE PUBLICATION orders_pub FOR TABLE orders;"

start_region() {
	cluster_start "uuidv7-region-$1" "fsync = on" "wal_level = logical" "max_wal_senders = 10" \
		"max_replication_slots = 10" "wal_keep_size = 256MB"
	psql_q "CREATE DATABASE app"
	"$PG_BINDIR/psql" -X -q -v ON_ERROR_STOP=1 -d app -c "$region_schema" >/dev/null
}
start_region a
a_dir=$CLUSTER_DIR a_host=$PGHOST a_port=$PGPORT
start_region b
b_dir=$CLUSTER_DIR b_host=$PGHOST b_port=$PGPORT
at_exit 'rm -rf "$work"'

# a streaming hot standby of region A
standby_dir=$(mktemp -d /tmp/uuidv7-standby.XXXXXX)
chmod 755 "$standby_dir"
[ "$(id -u)" -eq 0 ] && chown "$PG_OS_USER" "$standby_dir"
CLUSTER_DIRS+=("$standby_dir")
as_pg_user "$PG_BINDIR/pg_basebackup" -h "$a_host" -p "$a_port" -U "$PGUSER" -D "$standby_dir/data" -R -X stream
standby_port=$((a_port + 1))
cat >>"$standby_dir/data/postgresql.conf" <<EOF
port = $standby_port
unix_socket_directories = '$standby_dir'
hot_standby = on
EOF
as_pg_user "$PG_BINDIR/pg_ctl" -D "$standby_dir/data" -l "$standby_dir/server.log" -w start >/dev/null

# the warehouse: the same table, range-partitioned by month on the key
cluster_start uuidv7-warehouse
w_host=$PGHOST w_port=$PGPORT
psql_q "CREATE DATABASE app"
sql "$w_host" "$w_port" "SET client_min_messages = warning;
CREATE EXTENSION uuidv7;
CREATE TABLE orders (
	id uuid7 NOT NULL,
	region text NOT NULL,
	amount int NOT NULL,
	inserted_at timestamptz NOT NULL,
	PRIMARY KEY (id)
) PARTITION BY RANGE (id);
SELECT count(*) FROM uuidv7_create_partitions('orders', date_trunc('month', now()) - interval '1 month',
											   now() + interval '1 month', '1 month');
CREATE TABLE orders_default PARTITION OF orders DEFAULT;" >/dev/null
sql "$w_host" "$w_port" "CREATE SUBSCRIPTION from_a CONNECTION 'host=$a_host port=$a_port dbname=app user=''$PGUSER'''
	PUBLICATION orders_pub" 2>/dev/null
sql "$w_host" "$w_port" "CREATE SUBSCRIPTION from_b CONNECTION 'host=$b_host port=$b_port dbname=app user=''$PGUSER'''
	PUBLICATION orders_pub" 2>/dev/null

for r in a b; do
	printf '\\set amount random(1, 1000)\nINSERT INTO orders (region, amount) VALUES (%s, :amount);\n' "'$r'" >"$work/$r.sql"
done
load() { # load REGION HOST PORT: pgbench for SECONDS_OF_LOAD seconds
	"$PG_BINDIR/pgbench" -n -h "$2" -p "$3" -c "$CLIENTS" -j 2 -T "$SECONDS_OF_LOAD" -f "$work/$1.sql" app \
		>"$work/pgbench-$1-$4.log" 2>&1 || true
}

echo "load: $CLIENTS clients on each region; region A stopped hard in the middle"
load b "$b_host" "$b_port" 1 &
load_b=$!
load a "$a_host" "$a_port" 1 &
load_a=$!
sleep $((SECONDS_OF_LOAD / 2))
as_pg_user "$PG_BINDIR/pg_ctl" -D "$a_dir/data" -m immediate -w stop >/dev/null
wait "$load_a"
as_pg_user "$PG_BINDIR/pg_ctl" -D "$a_dir/data" -l "$a_dir/server.log" -w start >/dev/null
load a "$a_host" "$a_port" 2
wait "$load_b"
load b "$b_host" "$b_port" 2

# wait until the warehouse has caught up with both regions
expected=$(( $(sql "$a_host" "$a_port" "SELECT count(*) FROM orders") + $(sql "$b_host" "$b_port" "SELECT count(*) FROM orders") ))
for _ in $(seq 1 120); do
	[ "$(sql "$w_host" "$w_port" "SELECT count(*) FROM orders")" -ge "$expected" ] && break
	sleep 1
done
sleep 2

region_rows() { sql "$1" "$2" "SELECT count(*) || ' ' || md5(string_agg(id::text || amount, ',' ORDER BY id)) FROM orders"; }
a_rows=$(region_rows "$a_host" "$a_port")
b_rows=$(region_rows "$b_host" "$b_port")
w_a_rows=$(sql "$w_host" "$w_port" "SELECT count(*) || ' ' || md5(string_agg(id::text || amount, ',' ORDER BY id)) FROM orders WHERE region = 'a'")
w_b_rows=$(sql "$w_host" "$w_port" "SELECT count(*) || ' ' || md5(string_agg(id::text || amount, ',' ORDER BY id)) FROM orders WHERE region = 'b'")
IFS='|' read -r w_total w_distinct w_default w_misplaced w_skew <<<"$(sql "$w_host" "$w_port" "
	SELECT count(*), count(DISTINCT id),
		(SELECT count(*) FROM orders_default),
		count(*) FILTER (WHERE NOT EXISTS (
			SELECT FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
			WHERE c.oid = o.tableoid AND o.id >= uuidv7_min(date_trunc('month', uuidv7_timestamp(o.id)))
				AND o.id < uuidv7_min(date_trunc('month', uuidv7_timestamp(o.id)) + interval '1 month'))),
		max(abs(extract(epoch FROM uuidv7_timestamp(id) - inserted_at)))
	FROM orders o")"
crashed=$(grep -c "server closed the connection\|terminating connection\|connection to server" "$work/pgbench-a-1.log" || true)

# the standby: every read-only function, generation included
standby=$("$PG_BINDIR/psql" -X -q -At -v ON_ERROR_STOP=1 -h "$standby_dir" -p "$standby_port" -d app -c "
	SELECT pg_is_in_recovery()
		AND uuidv7_timestamp(uuidv7_generate()) > now() - interval '1 minute'
		AND uuidv7_timestamp(uuidv7_generate('-1 hour')) < now()
		AND uuidv7_timestamp(uuidv7_generate_at('2025-01-01')) = '2025-01-01'
		AND uuidv7_min('2025-01-01') < uuidv7_max('2025-01-01')
		AND (SELECT count(*) FROM uuidv7_partition_bounds('2025-01-01', '2026-01-01', '1 month', 'UTC')) = 12
		AND uuidv7_from_base32(uuidv7_to_base32(uuidv7_min('2025-01-01'))) = uuidv7_min('2025-01-01')
		AND (SELECT count(*) FROM orders) > 0
		AND (SELECT bool_and(uuidv7_timestamp(id) IS NOT NULL) FROM orders)")

echo "region A: ${a_rows%% *} rows (pgbench saw the crash: $crashed messages), region B: ${b_rows%% *} rows"
echo "warehouse: $w_total rows, $w_distinct distinct ids, $w_default in the default partition, $w_misplaced outside the partition of their time"
echo "region A's rows identical in the warehouse: $([ "$a_rows" = "$w_a_rows" ] && echo yes || echo no), region B's: $([ "$b_rows" = "$w_b_rows" ] && echo yes || echo no)"
echo "largest gap between embedded time and insert time: ${w_skew} s"
echo "hot standby of region A runs every read-only function: $standby"
[ "$w_total" -eq "$expected" ] && [ "$w_distinct" -eq "$w_total" ] && [ "$w_default" -eq 0 ] &&
	[ "$w_misplaced" -eq 0 ] && [ "$a_rows" = "$w_a_rows" ] && [ "$b_rows" = "$w_b_rows" ] &&
	awk -v s="$w_skew" 'BEGIN {exit !(s < 1)}' && [ "$standby" = t ] && [ "$crashed" -gt 0 ]
