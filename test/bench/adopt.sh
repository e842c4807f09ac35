#!/usr/bin/env bash
# test/bench/adopt.sh: how long uuidv7_adopt_table() keeps other sessions
# waiting, on a table of ROWS rows (default a million) with a uuid7 key and a
# secondary index, against ALTER TABLE ... ALTER COLUMN id TYPE uuid7 on the
# same rows keyed by plain uuid (the rewrite it spares).
#
# While each runs, two clients at RATE transactions per second each (pgbench
# --rate, every transaction logged) read a row by its key and insert a row;
# the longest latency either sees is the longest it waited for a lock, next
# to the longest they see with nothing else running.  The
# adopted table's file is compared before and after (no rewrite).  Prints a
# Markdown table and writes it to test/bench/out/adopt.md.
#
# Sizes: ROWS (1000000), RATE (200), PROBE_SECONDS (40: how long the
# clients run; the statement must end inside it); the server of PG_CONFIG
# (default: the newest installed).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib.sh"
find_pg_config

ROWS=${ROWS:-1000000}
RATE=${RATE:-200}
PROBE_SECONDS=${PROBE_SECONDS:-40}
bench_begin adopt
cluster_start uuidv7-bench-adopt "shared_buffers = 1GB" "max_wal_size = 4GB" "jit = off"

"$PG_BINDIR/psql" -X -q -v ON_ERROR_STOP=1 >/dev/null <<SQL
SET client_min_messages = warning;
CREATE EXTENSION uuidv7;
CREATE TABLE orders (id uuid7 PRIMARY KEY DEFAULT uuidv7_generate(), customer int NOT NULL, total numeric(10, 2));
INSERT INTO orders (id, customer, total)
SELECT uuidv7_generate_at(now() - interval '180 days' + g * (interval '180 days' / $ROWS)), g % 1000, g % 500
FROM generate_series(1, $ROWS) g;
CREATE INDEX ON orders (customer);
CREATE TABLE orders_plain (id uuid PRIMARY KEY DEFAULT uuidv7_generate(), customer int NOT NULL, total numeric(10, 2));
INSERT INTO orders_plain SELECT * FROM orders;
CREATE INDEX ON orders_plain (customer);
VACUUM ANALYZE orders;
VACUUM ANALYZE orders_plain;
SQL

# run_with_clients NAME TABLE SQL: SQL timed, with a reader and a writer of
# TABLE at RATE each; prints "seconds max_read_ms max_write_ms"
run_with_clients() {
	local name=$1 table=$2 sql=$3 t0 t1 pids=()
	echo "SELECT 1 FROM $table WHERE id = (SELECT id FROM $table ORDER BY id DESC LIMIT 1);" >"$work/read.sql"
	echo "INSERT INTO $table (customer, total) VALUES (1, 1);" >"$work/write.sql"
	for client in read write; do
		(cd "$work" && "$PG_BINDIR/pgbench" -n -c 1 -R "$RATE" -T "$PROBE_SECONDS" -l --log-prefix="log-$name-$client" \
			-f "$client.sql" >"$work/$name-$client.out" 2>&1) &
		pids+=($!)
	done
	sleep 2
	t0=$(date +%s.%N)
	"$PG_BINDIR/psql" -X -q -v ON_ERROR_STOP=1 -c "$sql" >/dev/null
	t1=$(date +%s.%N)
	# the clients run their whole time (a stopped pgbench would lose the
	# end of its log); the statement must have ended well inside it
	wait "${pids[@]}"
	if awk -v a="$t0" -v b="$t1" -v p="$PROBE_SECONDS" 'BEGIN { exit !(b - a > p - 4) }'; then
		echo "$name outlasted the clients: raise PROBE_SECONDS" >&2
		exit 1
	fi
	# the log's third field is each transaction's latency in microseconds
	local read_ms write_ms
	read_ms=$(awk 'BEGIN { m = 0 } $3 + 0 > m { m = $3 + 0 } END { printf "%.1f", m / 1000 }' "$work/log-$name-read".*)
	write_ms=$(awk 'BEGIN { m = 0 } $3 + 0 > m { m = $3 + 0 } END { printf "%.1f", m / 1000 }' "$work/log-$name-write".*)
	echo "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') $read_ms $write_ms"
}

# the clients' own longest latency, with nothing else running
read -r idle_s idle_read idle_write <<<"$(run_with_clients idle orders "SELECT pg_sleep(1)")"
file_before=$(psql_q "SELECT pg_relation_filenode('orders')")
read -r adopt_s adopt_read adopt_write <<<"$(run_with_clients adopt orders \
	"CALL uuidv7_adopt_table('orders', '1 month', 'UTC')")"
file_after=$(psql_q "SELECT pg_relation_filenode('orders_adopted')")
read -r plain_s plain_read plain_write <<<"$(run_with_clients adopt_plain orders_plain \
	"CALL uuidv7_adopt_table('orders_plain', '1 month', 'UTC')")"
"$PG_BINDIR/psql" -X -q -c "DROP TABLE orders, orders_plain" >/dev/null
"$PG_BINDIR/psql" -X -q -v ON_ERROR_STOP=1 >/dev/null <<SQL
CREATE TABLE rewrite (id uuid PRIMARY KEY DEFAULT uuidv7_generate(), customer int NOT NULL, total numeric(10, 2));
INSERT INTO rewrite (id, customer, total)
SELECT uuidv7_generate_at(now() - interval '180 days' + g * (interval '180 days' / $ROWS)), g % 1000, g % 500
FROM generate_series(1, $ROWS) g;
CREATE INDEX ON rewrite (customer);
VACUUM ANALYZE rewrite;
SQL
read -r alter_s alter_read alter_write <<<"$(run_with_clients alter rewrite \
	"ALTER TABLE rewrite ALTER COLUMN id TYPE uuid7")"

same_file=no
[ "$file_before" = "$file_after" ] && same_file=yes
{
	echo "## Adopting a live table of $ROWS rows: longest wait of a reader and a writer (each at $RATE/s)"
	echo
	echo "$(date -u '+%Y-%m-%d %H:%M UTC'), PostgreSQL $("$PG_BINDIR/postgres" --version | sed -E 's/^[^0-9]*([0-9][^ ]*).*/\1/'), $(nproc) cores"
	echo
	echo "| operation | total time | longest read | longest insert | table file kept |"
	echo "|---|---|---|---|---|"
	echo "| nothing (the clients alone, for 1 s) | ${idle_s} s | ${idle_read} ms | ${idle_write} ms | |"
	echo "| \`CALL uuidv7_adopt_table('orders', '1 month')\`, uuid7 key | ${adopt_s} s | ${adopt_read} ms | ${adopt_write} ms | $same_file |"
	echo "| the same, plain uuid key (adds the v7 rule's scan and CHECK) | ${plain_s} s | ${plain_read} ms | ${plain_write} ms | |"
	echo "| \`ALTER TABLE ... ALTER COLUMN id TYPE uuid7\` (rewrite) | ${alter_s} s | ${alter_read} ms | ${alter_write} ms | no |"
} | tee "$OUT/adopt.md"
