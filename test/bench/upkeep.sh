#!/usr/bin/env bash
# test/bench/upkeep.sh: what partition upkeep costs the application.  A
# table keyed by uuid7, partitioned by month (December 2024 to February 2025
# made, 1,000 rows in December), with a DEFAULT partition holding WAITING
# rows of March 2025 (rows that arrived before their month was made).  Four
# kinds of client run at once, one pgbench client each, every transaction
# logged: inserters (five rows a transaction at random instants of January
# to June), readers (a count of ten keys' range and a lookup, among the
# waiting rows), updaters (one waiting row by key) and deleters (one waiting
# row by key, each once).  Two seconds in:
#
# - nothing runs (the clients alone: the floor);
# - uuidv7_create_partitions makes March (moving its waiting rows), then
#   April;
# - uuidv7_drop_partitions drops December, then detaches January.
#
# For each: how long the calls took, the clients' throughput against the
# floor, and each kind's longest and 99th-percentile transaction latency
# (its longest wait).  Each scenario starts from a fresh table.  Prints a
# Markdown table and writes it to test/bench/out/upkeep.md.
#
# Sizes: WAITING (the waiting rows, "10000 1000000"), RUN_SECONDS (20, how long
# the clients run); the server of PG_CONFIG (default: the newest installed).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib.sh"
find_pg_config

WAITING=${WAITING:-10000 1000000}
SECONDS_RUN=${RUN_SECONDS:-20}
bench_begin upkeep
cluster_start uuidv7-bench-upkeep "shared_buffers = 1GB" "max_wal_size = 4GB" "jit = off" \
	"checkpoint_timeout = 30min"
psql_q "CREATE EXTENSION uuidv7"

upkeep_writer_script >"$work/inserter.sql"
# the waiting rows' keys, March 2025, a fixed step apart: $1 rows in all
cat >"$work/reader.sql" <<'EOF'
\set k random(0, :waiting - 11)
SELECT count(*) FROM ev WHERE id >= waiting_key(:k) AND id < waiting_key(:k + 10);
SELECT client FROM ev WHERE id = waiting_key(:k);
EOF
cat >"$work/updater.sql" <<'EOF'
\set k random(0, :waiting - 1)
UPDATE ev SET client = client + 1 WHERE id = waiting_key(:k);
EOF
cat >"$work/deleter.sql" <<'EOF'
SELECT nextval('doomed') * 7 % :waiting AS k \gset
DELETE FROM ev WHERE id = waiting_key(:k::int);
EOF

# fresh_table N: the table, with N rows of March waiting in DEFAULT
fresh_table() {
	"$PG_BINDIR/psql" -X -q -v ON_ERROR_STOP=1 >/dev/null <<-SQL
		SET client_min_messages = warning;
		DROP TABLE IF EXISTS ev, ev_p2025_01;
		DROP SEQUENCE IF EXISTS doomed;
		CREATE SEQUENCE doomed;
		CREATE OR REPLACE FUNCTION waiting_key(k int) RETURNS uuid LANGUAGE sql IMMUTABLE
			AS \$\$ SELECT uuidv7_min('2025-03-01 00:00+00'::timestamptz + k * (interval '31 days' / $1)) \$\$;
		CREATE TABLE ev (id uuid7 PRIMARY KEY, client int NOT NULL, at timestamptz NOT NULL) PARTITION BY RANGE (id);
		CREATE TABLE ev_default PARTITION OF ev DEFAULT;
		SELECT count(*) FROM uuidv7_create_partitions('ev', '2024-12-01', '2025-03-01', '1 month', 'UTC');
		INSERT INTO ev SELECT uuidv7_generate_at('2024-12-01 00:00+00'::timestamptz + g * interval '40 minutes'), 0, now()
		FROM generate_series(1, 1000) g;
		INSERT INTO ev SELECT waiting_key(g), 0, now() FROM generate_series(0, $1 - 1) g;
		VACUUM ANALYZE ev;
		CHECKPOINT;
	SQL
}

KINDS="inserter reader updater deleter"
# scenario NAME WAITING SQL: the clients for SECONDS_RUN on a fresh table,
# SQL run (and timed) two seconds in; prints "call_s tps" and, for each
# kind, "max_ms p99_ms"
scenario() {
	local name=$1 waiting=$2 sql=$3 t0 t1 pids=() kind tps=0
	fresh_table "$waiting"
	rm -f "$work"/log-"$name"-*
	for kind in $KINDS; do
		(cd "$work" && "$PG_BINDIR/pgbench" -n -c 1 -T "$SECONDS_RUN" -l --log-prefix="log-$name-$kind" \
			-D waiting="$waiting" -f "$kind.sql" >"$work/$name-$kind.out" 2>&1) &
		pids+=($!)
	done
	sleep 2
	t0=$(date +%s.%N)
	"$PG_BINDIR/psql" -X -q -v ON_ERROR_STOP=1 -c "$sql" >/dev/null
	t1=$(date +%s.%N)
	for pid in "${pids[@]}"; do wait "$pid" || { cat "$work/$name"-*.out; exit 1; }; done
	if grep -q -E 'aborted|^number of failed transactions: [1-9]' "$work/$name"-*.out; then
		cat "$work/$name"-*.out
		exit 1
	fi
	for kind in $KINDS; do
		tps=$(awk -v a="$tps" -v b="$(sed -nE 's/^tps = ([0-9.]+) \((without initial|excluding).*/\1/p' "$work/$name-$kind.out" | head -n 1)" 'BEGIN {print a + b}')
	done
	printf '%.2f %.0f' "$(awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}')" "$tps"
	# the log's third field is each transaction's latency in microseconds
	for kind in $KINDS; do
		sort -n -k3,3 "$work"/log-"$name-$kind".* | awk '
			{ v[NR] = $3 }
			END { printf " %.1f %.1f", v[NR] / 1000, v[int(NR * 0.99)] / 1000 }'
	done
	echo
}

{
	echo "## Partition upkeep beside inserters, readers, updaters and deleters"
	echo
	echo "$(date -u '+%Y-%m-%d %H:%M UTC'), PostgreSQL $("$PG_BINDIR/postgres" --version | sed -E 's/^[^0-9]*([0-9][^ ]*).*/\1/'), $(nproc) cores, clients for $SECONDS_RUN s"
	echo
	echo "| rows waiting in DEFAULT | upkeep, two seconds in | its time | clients' tps | vs. clients alone | inserters: longest, p99 | readers | updaters | deleters |"
	echo "|---|---|---|---|---|---|---|---|---|"
} >"$OUT/upkeep.md"
row() { # row WAITING LABEL FLOOR_TPS call_s tps ins_max ins_p99 rd_max rd_p99 up_max up_p99 del_max del_p99
	printf '| %s | %s | %s | %s | %s | %s ms, %s ms | %s ms, %s ms | %s ms, %s ms | %s ms, %s ms |\n' \
		"$1" "$2" "$([ "$2" = "nothing (the floor)" ] && echo "" || echo "$4 s")" "$5" "$(ratio "$5" "$3")" \
		"$6" "$7" "$8" "$9" "${10}" "${11}" "${12}" "${13}"
}
for waiting in $WAITING; do
	read -r -a alone <<<"$(scenario alone "$waiting" "SELECT 1")"
	read -r -a create <<<"$(scenario create "$waiting" \
		"SELECT count(*) FROM uuidv7_create_partitions('ev', '2025-03-01', '2025-04-01', '1 month', 'UTC');
		 SELECT count(*) FROM uuidv7_create_partitions('ev', '2025-04-01', '2025-05-01', '1 month', 'UTC')")"
	read -r -a drop <<<"$(scenario retention "$waiting" \
		"SELECT count(*) FROM uuidv7_drop_partitions('ev', '2025-01-01');
		 SELECT count(*) FROM uuidv7_drop_partitions('ev', '2025-02-01', detach_only => true)")"
	{
		row "$waiting" "nothing (the floor)" "${alone[1]}" "${alone[@]}"
		row "$waiting" "create March (moving its rows), then April" "${alone[1]}" "${create[@]}"
		row "$waiting" "drop December, then detach January" "${alone[1]}" "${drop[@]}"
	} >>"$OUT/upkeep.md"
done
cat "$OUT/upkeep.md"
