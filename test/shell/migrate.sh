#!/usr/bin/env bash
# test/shell/migrate.sh: the migration from a bigserial key of docs/migrating.md ("From
# bigserial or version 4 keys"), run as it stands while a client keeps
# inserting, then the adoption of the result; and a table of version 4 keys
# refused by uuidv7_adopt_table with the count of them.
#
# The table has rows whose created_at ties (three to a second) and a unique
# index would break on any duplicate.  Checked afterwards: every row has a
# version 7 key, SET NOT NULL was proved by the CHECK rather than by a scan
# under its lock, the primary key is the new column, no row was lost, the
# backfilled keys sort exactly as (created_at, old id) do and carry their
# row's time to the microsecond they were spread by, the client's rows
# sort after them, and the adopted table keeps it all.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
find_pg_config

work=$(mktemp -d /tmp/uuidv7-migrate.XXXXXX)
chmod 755 "$work"
at_exit 'rm -rf "$work"'

awk '/<!-- test\/shell\/migrate.sh runs this block/ { marked = 1; next }
	marked && /^```sql$/ { inside = 1; next }
	inside && /^```$/ { exit }
	inside { print }' "$TOP/docs/migrating.md" >"$work/recipe.sql"
grep -q 'PRIMARY KEY USING INDEX' "$work/recipe.sql" || { echo "no recipe found in docs/migrating.md" >&2; exit 1; }

cluster_start uuidv7-migrate
"$PG_BINDIR/psql" -X -q -v ON_ERROR_STOP=1 <<'SQL'
SET client_min_messages = warning;
CREATE EXTENSION uuidv7;
CREATE TABLE orders (
	id bigserial PRIMARY KEY,
	created_at timestamptz NOT NULL DEFAULT now(),
	note text
);
CREATE INDEX ON orders (created_at);
-- 30,000 rows, three to a second, some batches ending inside a tie
INSERT INTO orders (created_at, note)
SELECT timestamptz '2025-01-01 00:00:00+00' + (g / 3) * interval '1 second', 'old ' || g
FROM generate_series(0, 29999) g;
CREATE TABLE before AS SELECT id, created_at, note FROM orders;
SQL

# a client inserting all along
cat >"$work/insert.sql" <<'SQL'
INSERT INTO orders (note) VALUES ('new');
SQL
"$PG_BINDIR/pgbench" -n -c 1 -T 6 -f "$work/insert.sql" >"$work/pgbench.log" 2>&1 &
writer=$!
# (at DEBUG1 PostgreSQL says when SET NOT NULL needs no scan)
PGOPTIONS="-c client_min_messages=debug1" "$PG_BINDIR/psql" -X -q -v ON_ERROR_STOP=1 -f "$work/recipe.sql" \
	2>"$work/recipe.log" || { cat "$work/recipe.log"; exit 1; }
wait "$writer" || { cat "$work/pgbench.log"; exit 1; }
if grep -q 'existing constraints on column "orders.id7" are sufficient to prove that it does not contain nulls' \
	"$work/recipe.log"; then
	echo "not null: proved by the CHECK" >>"$work/out.txt"
fi

"$PG_BINDIR/psql" -X -q -At -v ON_ERROR_STOP=1 >>"$work/out.txt" <<'SQL'
SELECT 'primary key: ' || pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 'orders'::regclass AND contype = 'p';
SELECT 'keys not v7: ' || count(*) FROM orders WHERE uuidv7_timestamp(id7) IS NULL;
SELECT 'old rows lost: ' || count(*) FROM before b WHERE NOT EXISTS (
	SELECT FROM orders o WHERE o.id = b.id AND o.created_at = b.created_at AND o.note = b.note);
SELECT 'new rows: ' || (count(*) > 0) FROM orders WHERE note = 'new';
SELECT 'old order kept: ' || bool_and(by_key = by_time) FROM (
	SELECT row_number() OVER (ORDER BY id7) AS by_key, row_number() OVER (ORDER BY created_at, id) AS by_time
	FROM orders WHERE note <> 'new') s;
SELECT 'time kept: ' || bool_and(uuidv7_timestamp(id7) BETWEEN date_trunc('milliseconds', created_at)
								  AND created_at + interval '3 microseconds')
FROM orders WHERE note <> 'new';
SELECT 'new rows after old: ' || ((SELECT id7 FROM orders WHERE note = 'new' ORDER BY id7 LIMIT 1)
								   > (SELECT id7 FROM orders WHERE note <> 'new' ORDER BY id7 DESC LIMIT 1));
SQL
# then the table is adopted, and the client's inserts still go in
"$PG_BINDIR/psql" -X -q -v ON_ERROR_STOP=1 >/dev/null <<'SQL'
CALL uuidv7_adopt_table('orders', '1 month', 'UTC');
INSERT INTO orders (note) VALUES ('after adoption');
SQL
"$PG_BINDIR/psql" -X -q -At -v ON_ERROR_STOP=1 >>"$work/out.txt" <<'SQL'
-- (the adopted table, three periods ahead and a DEFAULT partition)
SELECT 'adopted: ' || relkind::text || ' ' || (SELECT count(*) FROM orders) || ' rows, '
	|| (SELECT count(*) FROM uuidv7_partitions('orders')) || ' partitions'
FROM pg_class WHERE oid = 'orders'::regclass;
-- (this month's rows, the new one too, are in the adopted table)
SELECT 'rows after adoption: ' || ((SELECT count(*) FROM orders) = (SELECT count(*) FROM orders_adopted)
	AND (SELECT count(*) FROM orders WHERE note = 'after adoption') = 1);
-- version 4 keys are refused, counted
CREATE TABLE legacy_v4 (id uuid PRIMARY KEY, n int);
INSERT INTO legacy_v4 SELECT gen_random_uuid(), g FROM generate_series(1, 25) g;
INSERT INTO legacy_v4 SELECT uuidv7_generate(), g FROM generate_series(1, 5) g;
SQL
"$PG_BINDIR/psql" -X -q -At -v ON_ERROR_STOP=0 -c "CALL uuidv7_adopt_table('legacy_v4', '1 day', 'UTC')" \
	>>"$work/out.txt" 2>&1 || true
cat "$work/out.txt"
grep -E 'tps|transactions' "$work/pgbench.log" || true

value() { sed -n "s/^$1: //p" "$work/out.txt"; }
[ "$(value "not null")" = "proved by the CHECK" ] &&
	[ "$(value "primary key")" = "PRIMARY KEY (id7)" ] &&
	[ "$(value "keys not v7")" = 0 ] &&
	[ "$(value "old rows lost")" = 0 ] &&
	[ "$(value "new rows")" = true ] &&
	[ "$(value "old order kept")" = true ] &&
	[ "$(value "time kept")" = true ] &&
	[ "$(value "new rows after old")" = true ] &&
	[[ "$(value adopted)" == "p "*" rows, 5 partitions" ]] &&
	[ "$(value "rows after adoption")" = true ] &&
	grep -q 'table "legacy_v4" has 25 keys that are not version 7 UUIDs' "$work/out.txt"
