#!/usr/bin/env bash
# test/t_dump.sh: a database that uses uuidv7 (domain, defaults, generated
# columns, partitions, expression and BRIN indexes, the time operators in a
# view) dumped with pg_dump in custom format and as plain SQL, and restored
# into a fresh cluster: the schema dumps again identically, every table holds
# the same rows, and everything still works.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
find_pg_config

work=$(mktemp -d /tmp/uuidv7-dump.XXXXXX)
chmod 777 "$work"
cluster_start uuidv7-dump-source
trap 'rm -rf "$work"; cluster_stop_all' EXIT
source_host=$PGHOST source_port=$PGPORT
psql_q "CREATE DATABASE app"
"$PG_BINDIR/psql" -X -q -v ON_ERROR_STOP=1 -d app >/dev/null <<'SQL'
SET client_min_messages = warning;
CREATE EXTENSION uuidv7;
CREATE EXTENSION uuidv7_time_ops;
CREATE TABLE orders (
	id uuid7 PRIMARY KEY DEFAULT uuidv7_generate(),
	created_at timestamptz GENERATED ALWAYS AS (uuidv7_timestamp(id)) STORED,
	customer text NOT NULL,
	total numeric(10, 2)
) PARTITION BY RANGE (id);
SELECT count(*) FROM uuidv7_create_partitions('orders', '2025-01-01', '2025-07-01', '1 month', 'UTC');
CREATE INDEX orders_customer_idx ON orders (customer);
INSERT INTO orders (id, customer, total)
SELECT uuidv7_generate_at('2025-01-01 00:00:00+00'::timestamptz + g * interval '3 minutes'), 'c' || g % 97, g % 1000
FROM generate_series(0, 80000) g;
CREATE TABLE events (id uuid7 NOT NULL DEFAULT uuidv7_generate(), kind text);
INSERT INTO events (kind) SELECT 'k' || g % 5 FROM generate_series(1, 20000) g;
CREATE INDEX events_brin ON events USING brin (id);
CREATE INDEX events_time_idx ON events (uuidv7_timestamp(id));
CREATE INDEX events_suffix_idx ON events (right(uuidv7_to_base32_grouped(id), 9));
CREATE VIEW recent_orders AS
	SELECT * FROM orders WHERE id >= '2025-06-01 00:00:00+00'::timestamptz;
SQL

# the \restrict key of pg_dump 15.14+ is random in every dump
dump_schema() { "$PG_BINDIR/pg_dump" -h "$1" -p "$2" -d "$3" --schema-only | grep -Ev '^\\(un)?restrict '; }
table_digests() {
	"$PG_BINDIR/psql" -X -q -At -h "$1" -p "$2" -d "$3" -v ON_ERROR_STOP=1 -c "
		SELECT 'orders ' || count(*) || ' ' || md5(string_agg(o::text, ',' ORDER BY id)) FROM orders o;
		SELECT 'events ' || count(*) || ' ' || md5(string_agg(e::text, ',' ORDER BY id)) FROM events e;
		SELECT 'recent_orders ' || count(*) FROM recent_orders;
		SELECT 'rows in the partition of their time ' || bool_and(tableoid = (
			SELECT c.oid FROM pg_class c WHERE c.relname = 'orders_p' || to_char(created_at AT TIME ZONE 'UTC', 'YYYY_MM')))
		FROM orders;"
}
as_pg_user "$PG_BINDIR/pg_dump" -d app -Fc -f "$work/app.dump"
as_pg_user "$PG_BINDIR/pg_dump" -d app -f "$work/app.sql"
dump_schema "$source_host" "$source_port" app >"$work/source-schema.sql"
table_digests "$source_host" "$source_port" app >"$work/source-data.txt"

cluster_start uuidv7-dump-target
trap 'rm -rf "$work"; cluster_stop_all' EXIT
psql_q "CREATE DATABASE from_custom"
psql_q "CREATE DATABASE from_plain"
as_pg_user "$PG_BINDIR/pg_restore" -d from_custom --exit-on-error "$work/app.dump"
"$PG_BINDIR/psql" -X -q -v ON_ERROR_STOP=1 -d from_plain -f "$work/app.sql" >/dev/null

status=0
for db in from_custom from_plain; do
	dump_schema "$PGHOST" "$PGPORT" "$db" >"$work/$db-schema.sql"
	table_digests "$PGHOST" "$PGPORT" "$db" >"$work/$db-data.txt"
	works=$("$PG_BINDIR/psql" -X -q -At -d "$db" -v ON_ERROR_STOP=1 -c "
		SELECT count(*) FROM uuidv7_time_ops_status() WHERE NOT present;
		INSERT INTO events (kind) VALUES ('after restore') RETURNING uuidv7_timestamp(id) > now() - interval '1 minute';
		SELECT count(*) FROM uuidv7_partition_ddl('orders', '2025-07-01', '2025-09-01', '1 month', 'UTC');" | tr '\n' ' ')
	if diff -q "$work/source-schema.sql" "$work/$db-schema.sql" >/dev/null &&
		diff -q "$work/source-data.txt" "$work/$db-data.txt" >/dev/null && [ "$works" = "0 t 2 " ]; then
		echo "$db: identical schema, identical data ($(tr '\n' ';' <"$work/$db-data.txt" | cut -c1-60)...), working"
	else
		echo "$db: differs"
		diff "$work/source-schema.sql" "$work/$db-schema.sql" | head -20 || true
		diff "$work/source-data.txt" "$work/$db-data.txt" || true
		echo "checks: $works"
		status=1
	fi
done
exit $status
