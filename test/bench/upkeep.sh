#!/usr/bin/env bash
# test/bench/upkeep.sh: what partition upkeep costs the application's
# writers.  A table keyed by uuid7, partitioned by month (December 2024 to
# February 2025 made, 1,000 rows in December), with a DEFAULT partition
# holding WAITING rows of March 2025 (rows that arrived before their month
# was made).  Four pgbench clients insert five rows a transaction at random
# instants of January to June 2025 (every transaction logged) while, two
# seconds in:
#
# - nothing runs (the writers alone: the floor);
# - uuidv7_create_partitions makes March (moving its waiting rows and those
#   that keep arriving), then April;
# - uuidv7_drop_partitions drops December, then detaches January.
#
# For each: how long the calls took, the writers' throughput against the
# floor, and the longest and 99th-percentile transaction latency (a writer's
# longest wait).  Each scenario starts from a fresh table.  Prints a Markdown
# table and writes it to test/bench/out/upkeep.md.
#
# Sizes: WAITING (the waiting rows, "10000 1000000"), RUN_SECONDS (20, how long
# the writers run), CLIENTS (4); the server of PG_CONFIG (default: the newest
# installed).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib.sh"
find_pg_config

WAITING=${WAITING:-10000 1000000}
SECONDS_RUN=${RUN_SECONDS:-20}
CLIENTS=${CLIENTS:-4}
bench_begin upkeep
cluster_start uuidv7-bench-upkeep "shared_buffers = 1GB" "max_wal_size = 4GB" "jit = off" \
	"checkpoint_timeout = 30min"
psql_q "CREATE EXTENSION uuidv7"

upkeep_writer_script >"$work/writer.sql"

# fresh_table N: the table, with N rows of March waiting in DEFAULT
fresh_table() {
	"$PG_BINDIR/psql" -X -q -v ON_ERROR_STOP=1 >/dev/null <<-SQL
		SET client_min_messages = warning;
		DROP TABLE IF EXISTS ev, ev_p2025_01;
		CREATE TABLE ev (id uuid7 PRIMARY KEY, client int NOT NULL, at timestamptz NOT NULL) PARTITION BY RANGE (id);
		CREATE TABLE ev_default PARTITION OF ev DEFAULT;
		SELECT count(*) FROM uuidv7_create_partitions('ev', '2024-12-01', '2025-03-01', '1 month', 'UTC');
		INSERT INTO ev SELECT uuidv7_generate_at('2024-12-01 00:00+00'::timestamptz + g * interval '40 minutes'), 0, now()
		FROM generate_series(1, 1000) g;
		INSERT INTO ev SELECT uuidv7_generate_at('2025-03-01 00:00+00'::timestamptz + g * (interval '31 days' / $1)), 0, now()
		FROM generate_series(0, $1 - 1) g;
		VACUUM ANALYZE ev;
		CHECKPOINT;
	SQL
}

# scenario NAME WAITING SQL: the writers for SECONDS_RUN on a fresh table,
# SQL run (and timed) two seconds in; prints "call_s tps max_ms p99_ms"
scenario() {
	local name=$1 waiting=$2 sql=$3 t0 t1 pid
	fresh_table "$waiting"
	rm -f "$work"/log-"$name".*
	(cd "$work" && "$PG_BINDIR/pgbench" -n -c "$CLIENTS" -j 2 -T "$SECONDS_RUN" -l --log-prefix="log-$name" \
		-f writer.sql >"$work/$name.out" 2>&1) &
	pid=$!
	sleep 2
	t0=$(date +%s.%N)
	"$PG_BINDIR/psql" -X -q -v ON_ERROR_STOP=1 -c "$sql" >/dev/null
	t1=$(date +%s.%N)
	wait "$pid" || { cat "$work/$name.out"; exit 1; }
	if grep -q aborted "$work/$name.out"; then
		cat "$work/$name.out"
		exit 1
	fi
	local tps
	tps=$(sed -nE 's/^tps = ([0-9.]+) \(without initial.*/\1/p; s/^tps = ([0-9.]+) \(excluding.*/\1/p' "$work/$name.out" | head -n 1)
	# the log's third field is each transaction's latency in microseconds
	sort -n -k3,3 "$work"/log-"$name".* | awk -v t="$tps" -v a="$t0" -v b="$t1" '
		{ v[NR] = $3 }
		END { printf "%.2f %.0f %.1f %.1f\n", b - a, t, v[NR] / 1000, v[int(NR * 0.99)] / 1000 }'
}

{
	echo "## Partition upkeep beside $CLIENTS writers (five rows a transaction, rows of every month)"
	echo
	echo "$(date -u '+%Y-%m-%d %H:%M UTC'), PostgreSQL $("$PG_BINDIR/postgres" --version | sed -E 's/^[^0-9]*([0-9][^ ]*).*/\1/'), $(nproc) cores, writers for $SECONDS_RUN s"
	echo
	echo "| rows waiting in DEFAULT | upkeep, two seconds in | its time | writers' tps | vs. writers alone | longest transaction | 99th percentile |"
	echo "|---|---|---|---|---|---|---|"
} >"$OUT/upkeep.md"
for waiting in $WAITING; do
	read -r _ alone_tps alone_max alone_p99 <<<"$(scenario alone "$waiting" "SELECT 1")"
	read -r create_s create_tps create_max create_p99 <<<"$(scenario create "$waiting" \
		"SELECT count(*) FROM uuidv7_create_partitions('ev', '2025-03-01', '2025-04-01', '1 month', 'UTC');
		 SELECT count(*) FROM uuidv7_create_partitions('ev', '2025-04-01', '2025-05-01', '1 month', 'UTC')")"
	read -r drop_s drop_tps drop_max drop_p99 <<<"$(scenario retention "$waiting" \
		"SELECT count(*) FROM uuidv7_drop_partitions('ev', '2025-01-01');
		 SELECT count(*) FROM uuidv7_drop_partitions('ev', '2025-02-01', detach_only => true)")"
	{
		echo "| $waiting | nothing (the floor) | | $alone_tps | 1.00x | $alone_max ms | $alone_p99 ms |"
		echo "| $waiting | create March (moving its rows), then April | $create_s s | $create_tps | $(ratio "$create_tps" "$alone_tps") | $create_max ms | $create_p99 ms |"
		echo "| $waiting | drop December, then detach January | $drop_s s | $drop_tps | $(ratio "$drop_tps" "$alone_tps") | $drop_max ms | $drop_p99 ms |"
	} >>"$OUT/upkeep.md"
done
cat "$OUT/upkeep.md"
