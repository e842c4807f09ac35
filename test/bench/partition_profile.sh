#!/usr/bin/env bash
# test/bench/partition_profile.sh: where the cost of a one-row insert routed
# through a parent partitioned by its UUIDv7 key goes, against a parent
# partitioned by a timestamptz column, side by side in one run; and how much
# of an insert's and of a one-day query's time is spent in this extension.
#
# For each of PARTITIONS daily partitions (UTC days, 144 rows a day loaded
# first), pgbench (one client, simple protocol) inserts one row at a time of
# the last day (where new rows go) and, apart, at a random time of any day
# (each session then opens every partition once), into each of:
#
#   timestamptz     ts timestamptz, a plain index on ts
#   uuid7 key       id uuid7 PRIMARY KEY (the recommended table)
#   uuid key        id uuid PRIMARY KEY (no domain: its check left out)
#   uuid7, index    id uuid7 with a plain index (no uniqueness check)
#
# each uuid form with uuidv7_generate_at(to_timestamp(:a)), the timestamptz
# form with to_timestamp(:a).  Every table runs BENCH_SECONDS seconds in each
# of ROUNDS interleaved rounds and the best rate counts.
#
# Then, at the largest size, perf samples the backend (cpu-clock) while it
# inserts and while it counts a random day's rows with the time operators
# (uuidv7_time_ops), and reports the share of samples in each object file:
# the server itself, uuidv7.so (which holds the time operators too), the C
# library, the kernel.  Prints Markdown tables and writes them to
# test/bench/out/partition_profile.md.
#
# Sizes: PARTITIONS ("100 5000"), BENCH_SECONDS (5), ROUNDS (5); the server
# of PG_CONFIG (default: the newest installed).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib.sh"
find_pg_config

PARTITIONS=${PARTITIONS:-100 5000}
SECONDS_EACH=${BENCH_SECONDS:-5}
ROUNDS=${ROUNDS:-5}
bench_begin profile
cluster_start uuidv7-bench-ins "shared_buffers = 1GB" "max_locks_per_transaction = 1024" "jit = off"
psql_q "SET client_min_messages = warning; CREATE EXTENSION uuidv7; CREATE EXTENSION uuidv7_time_ops" >/dev/null

BASE=1704067200 # 2024-01-01 00:00:00 UTC
tables=(ev_ts ev_uuid7 ev_uuid ev_uuid7_index)
declare -A label=(
	[ev_ts]="timestamptz, plain index on ts"
	[ev_uuid7]="uuid7 PRIMARY KEY"
	[ev_uuid]="uuid PRIMARY KEY (no domain check)"
	[ev_uuid7_index]="uuid7, plain index (no uniqueness check)"
)

rate() { pgbench_rate "$1"; }

md=()
for days in $PARTITIONS; do
	echo "== $days daily partitions"
	"$PG_BINDIR/psql" -X -q -v ON_ERROR_STOP=1 >/dev/null <<-SQL
		SET client_min_messages = warning;
		DROP TABLE IF EXISTS ev_ts, ev_uuid7, ev_uuid, ev_uuid7_index;
		$(ts_table_sql "$BASE" "$days")
		CREATE TABLE ev_uuid7 (id uuid7 PRIMARY KEY, v int NOT NULL) PARTITION BY RANGE (id);
		CREATE TABLE ev_uuid (id uuid PRIMARY KEY, v int NOT NULL) PARTITION BY RANGE (id);
		CREATE TABLE ev_uuid7_index (id uuid7 NOT NULL, v int NOT NULL) PARTITION BY RANGE (id);
		CREATE INDEX ON ev_uuid7_index (id);
		SELECT count(*) FROM uuidv7_create_partitions('ev_uuid7', to_timestamp($BASE), to_timestamp($BASE + $days * 86400), '1 day', 'UTC');
		SELECT count(*) FROM uuidv7_create_partitions('ev_uuid', to_timestamp($BASE), to_timestamp($BASE + $days * 86400), '1 day', 'UTC');
		SELECT count(*) FROM uuidv7_create_partitions('ev_uuid7_index', to_timestamp($BASE), to_timestamp($BASE + $days * 86400), '1 day', 'UTC');
		INSERT INTO ev_uuid7 SELECT uuidv7_generate_at(to_timestamp($BASE + g * 600)), g FROM generate_series(0, $days * 144 - 1) g;
		INSERT INTO ev_uuid SELECT * FROM ev_uuid7;
		INSERT INTO ev_uuid7_index SELECT * FROM ev_uuid7;
		VACUUM ANALYZE ev_ts;
		VACUUM ANALYZE ev_uuid7;
		VACUUM ANALYZE ev_uuid;
		VACUUM ANALYZE ev_uuid7_index;
	SQL
	configs=()
	for when in last any; do
		for t in "${tables[@]}"; do
			{
				if [ $when = last ]; then
					echo "\\set a $BASE + ($days - 1) * 86400 + random(0, 86399)"
				else
					echo "\\set a $BASE + random(0, $days * 86400 - 1)"
				fi
				if [ "$t" = ev_ts ]; then
					echo "INSERT INTO ev_ts (ts, v) VALUES (to_timestamp(:a), 0);"
				else
					echo "INSERT INTO $t (id, v) VALUES (uuidv7_generate_at(to_timestamp(:a)), 0);"
				fi
			} >"$work/$when-$t.sql"
			configs+=("$when-$t")
		done
	done
	declare -A rates=()
	for round in $(seq 1 "$ROUNDS"); do
		echo "   round $round of $ROUNDS"
		# each round starts with another configuration, so that none always runs first
		for i in "${!configs[@]}"; do
			c=${configs[$(((i + round) % ${#configs[@]}))]}
			rates[$c]+="$(rate "$work/$c.sql") "
		done
	done
	md+=("### $days daily partitions" ""
		"| table | inserts/s into the last day (best of $ROUNDS) | ratio | inserts/s into any day | ratio |"
		"|---|---|---|---|---|")
	for t in "${tables[@]}"; do
		row="| ${label[$t]}"
		for when in last any; do
			r=$(best_of ${rates[$when-$t]})
			row+=" | $(printf '%.0f' "$r") | $(ratio "$r" "$(best_of ${rates[$when-ev_ts]})")"
		done
		md+=("$row |")
	done
	md+=("")
	unset rates
done

# profile SCRIPT: share of the backend's cpu-clock samples in each object
# file while pgbench runs SCRIPT for BENCH_SECONDS
profile() {
	local bench pid
	"$PG_BINDIR/pgbench" -n -c 1 -T "$((SECONDS_EACH + 2))" -M simple -f "$1" >/dev/null 2>&1 &
	bench=$!
	sleep 1
	pid=$(psql_q "SELECT pid FROM pg_stat_activity WHERE application_name = 'pgbench'")
	perf record -q -e cpu-clock -F 2000 -p "$pid" -o "$work/perf.data" -- sleep "$SECONDS_EACH" >/dev/null 2>&1 || true
	wait "$bench"
	perf report -i "$work/perf.data" --no-children --stdio --sort dso 2>/dev/null |
		awk '/^ +[0-9.]+%/ { printf "%s %s; ", $2, $1 }' | sed 's/; $//'
}
if command -v perf >/dev/null && [ "${PROFILE:-1}" = 1 ]; then
	echo "== profiles"
	{
		echo "\\set d random(0, $days - 1)"
		echo "SELECT count(*) FROM ev_uuid7 WHERE id >= to_timestamp($BASE + :d * 86400) AND id < to_timestamp($BASE + (:d + 1) * 86400);"
	} >"$work/day.sql"
	md+=("### Where the backend's time goes, $days partitions (perf, share of cpu-clock samples by object file)" ""
		"| workload | object files |" "|---|---|"
		"| insert one row of the last day into the uuid7 table | $(profile "$work/last-ev_uuid7.sql") |"
		"| insert one row of the last day into the timestamptz table | $(profile "$work/last-ev_ts.sql") |"
		"| insert one row of any day into the uuid7 table | $(profile "$work/any-ev_uuid7.sql") |"
		"| count one day's rows by the time operators | $(profile "$work/day.sql") |" "")
fi

{
	echo "## One-row inserts routed through the parent, best of $ROUNDS runs of ${SECONDS_EACH} s"
	echo
	echo "$(date -u '+%Y-%m-%d %H:%M UTC'), PostgreSQL $("$PG_BINDIR/postgres" --version | sed -E 's/^[^0-9]*([0-9][^ ]*).*/\1/'), $(nproc) cores, pgbench with one client"
	echo
	printf '%s\n' "${md[@]}"
} | tee "$OUT/partition_profile.md"
