#!/usr/bin/env bash
# test/bench/time_predicates.sh: how the time predicates of a UUIDv7 key are
# planned and run, side by side in one interleaved run, on tables of daily
# partitions (144 rows a day, a btree on the key) against the same rows in a
# table partitioned by a timestamptz column.
#
# 1. A constant range (one hour, one day, at random), at each of PARTITIONS
#    partitions, simple protocol (planned every time) and prepared with
#    generic plans (pruned when the executor starts):
#      timestamptz  ts >= to_timestamp(a) AND ts < to_timestamp(b)
#      bounds       id >= uuidv7_min(to_timestamp(a)) AND id < uuidv7_min(...)
#      operators    id >= to_timestamp(a) AND id < to_timestamp(b)
#    (to_timestamp(float8) is IMMUTABLE: a constant once planned.)
# 2. Ranges relative to now() at the largest size: the last hour and the last
#    day (written '1 day' and '24 hours'), lower bound only, in each form and
#    written with the constant now() has, simple and prepared; the table's
#    rows end a day after now.  (A plan with a plan-time bound serves the
#    transaction that made it: a prepared statement run once a transaction is
#    planned each time, as in the simple protocol.)
# 3. The planner's row estimate of each form of 2, beside the rows there are.
#
# Every configuration runs BENCH_SECONDS seconds in each of ROUNDS rounds and
# the best rate counts (noise on a shared machine only lowers a rate); rates
# are compared within a round-robin, as ratios.  The library is preloaded
# (the planner hook serves the bounds form of 2).  Prints Markdown and writes
# it to test/bench/out/time_predicates.md.
#
# Sizes: PARTITIONS ("100 1000"), BENCH_SECONDS (4), ROUNDS (3); the server
# of PG_CONFIG (default: the newest installed).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib.sh"
find_pg_config

PARTITIONS=${PARTITIONS:-100 1000}
SECONDS_EACH=${BENCH_SECONDS:-4}
ROUNDS=${ROUNDS:-3}
bench_begin time-predicates
cluster_start uuidv7-bench-time-predicates "shared_buffers = 1GB" "max_locks_per_transaction = 1024" "jit = off" \
	"shared_preload_libraries = 'uuidv7'"
psql_q "SET client_min_messages = warning; CREATE EXTENSION uuidv7" >/dev/null

# the tables: DAYS daily partitions of each kind, from the Unix time BASE
make_tables() { # make_tables BASE DAYS
	"$PG_BINDIR/psql" -X -q -v ON_ERROR_STOP=1 >/dev/null <<-SQL
		SET client_min_messages = warning;
		DROP TABLE IF EXISTS ev_ts, ev_uuid;
		$(ts_table_sql "$1" "$2")
		CREATE TABLE ev_uuid (id uuid7 PRIMARY KEY, v int NOT NULL) PARTITION BY RANGE (id);
		SELECT count(*) FROM uuidv7_create_partitions('ev_uuid', to_timestamp($1), to_timestamp($1 + $2 * 86400), '1 day', 'UTC');
		INSERT INTO ev_uuid SELECT uuidv7_generate_at(to_timestamp($1 + g * 600)), g FROM generate_series(0, $2 * 144 - 1) g;
		VACUUM ANALYZE ev_ts;
		VACUUM ANALYZE ev_uuid;
	SQL
}

# partitions a plan was made with, and how many of them the executor dropped
shape() { # shape QUERY simple|prepared
	local plan n removed
	plan=$("$PG_BINDIR/psql" -X -At -v ON_ERROR_STOP=1 <<-SQL
		SET plan_cache_mode = $([ "$2" = prepared ] && echo force_generic_plan || echo auto);
		PREPARE q AS $1;
		EXPLAIN (COSTS OFF) EXECUTE q;
	SQL
	)
	n=$(grep -oE '(Scan|Scan using [^ ]+) on ev_[a-z0-9_]+' <<<"$plan" | awk '{ print $NF }' | sort -u | wc -l)
	removed=$(sed -nE 's/.*Subplans Removed: ([0-9]+).*/\1/p' <<<"$plan" | head -n 1)
	echo "$((n + ${removed:-0}))${removed:+ → $n at start}"
}

# run each "NAME|PROTOCOL|QUERY-FILE" ROUNDS times, round-robin: rates[NAME]
declare -A rates=()
run_rounds() {
	local round c name protocol file
	for round in $(seq 1 "$ROUNDS"); do
		echo "   round $round of $ROUNDS"
		for c in "$@"; do
			IFS='|' read -r name protocol file <<<"$c"
			rates[$name]+="$(pgbench_rate "$file" "$protocol") "
		done
	done
}

md=()
# 1. constant ranges
BASE=1704067200 # 2024-01-01 00:00:00 UTC
for days in $PARTITIONS; do
	echo "== $days daily partitions, constant ranges"
	make_tables "$BASE" "$days"
	configs=()
	for range in hour day; do
		span=3600
		[ $range = day ] && span=86400
		for form in timestamptz bounds operators; do
			case $form in
				timestamptz) where="ts >= to_timestamp(:a) AND ts < to_timestamp(:b)" table=ev_ts ;;
				bounds) where="id >= uuidv7_min(to_timestamp(:a)) AND id < uuidv7_min(to_timestamp(:b))" table=ev_uuid ;;
				operators) where="id >= to_timestamp(:a) AND id < to_timestamp(:b)" table=ev_uuid ;;
			esac
			f="$work/$days-$range-$form.sql"
			{
				echo "\\set a $BASE + random(0, $days - 2) * 86400 + $([ $range = hour ] && echo 'random(0, 23) * 3600' || echo 0)"
				echo "\\set b :a + $span"
				echo "SELECT count(*) FROM $table WHERE $where;"
			} >"$f"
			for protocol in simple prepared; do
				configs+=("$days $range $protocol $form|$protocol|$f")
			done
		done
	done
	run_rounds "${configs[@]}"
	md+=("### $days daily partitions, a constant range (queries/s, ratio to the timestamptz table)" ""
		"| range | protocol | timestamptz | bounds form | operators | operators / bounds |" "|---|---|---|---|---|---|")
	for range in hour day; do
		for protocol in simple prepared; do
			t=$(best_of ${rates[$days $range $protocol timestamptz]})
			b=$(best_of ${rates[$days $range $protocol bounds]})
			o=$(best_of ${rates[$days $range $protocol operators]})
			md+=("| one $range | $protocol | $(printf '%.0f' "$t") | $(printf '%.0f' "$b"), $(ratio "$b" "$t") | $(printf '%.0f' "$o"), $(ratio "$o" "$t") | $(ratio "$o" "$b") |")
		done
	done
	md+=("")
done

# 2. ranges relative to now(): rows up to a day after now
days=${PARTITIONS##* }
echo "== $days daily partitions, ranges relative to now()"
NOW=$(date +%s)
START=$(((NOW / 86400 + 1 - days + 1) * 86400))
make_tables "$START" "$days"
configs=()
declare -A queries=()
for range in "1 hour" "1 day" "24 hours"; do
	secs=$(psql_q "SELECT extract(epoch FROM interval '$range')::int")
	for form in timestamptz timestamptz_constant operators bounds constant; do
		case $form in
			timestamptz) q="SELECT count(*) FROM ev_ts WHERE ts >= now() - interval '$range'" ;;
			timestamptz_constant) q="SELECT count(*) FROM ev_ts WHERE ts >= to_timestamp($((NOW - secs)))" ;;
			operators) q="SELECT count(*) FROM ev_uuid WHERE id >= now() - interval '$range'" ;;
			bounds) q="SELECT count(*) FROM ev_uuid WHERE id >= uuidv7_min(now() - interval '$range')" ;;
			constant) q="SELECT count(*) FROM ev_uuid WHERE id >= to_timestamp($((NOW - secs)))" ;;
		esac
		f="$work/now-${range// /_}-$form.sql"
		echo "$q;" >"$f"
		queries[$range $form]=$q
		for protocol in simple prepared; do
			configs+=("$range $protocol $form|$protocol|$f")
		done
	done
done
run_rounds "${configs[@]}"
md+=("### $days daily partitions, relative to now() (queries/s [partitions planned → left at executor start])" ""
	"| range | protocol | timestamptz \`ts >= now() - x\` | timestamptz, constant | uuid7 constant \`id >= 'T'\` | operators \`id >= now() - x\`, ratio to constant | bounds \`id >= uuidv7_min(now() - x)\`, ratio to constant |"
	"|---|---|---|---|---|---|---|")
for range in "1 hour" "1 day" "24 hours"; do
	for protocol in simple prepared; do
		row="| \`$range\` | $protocol"
		c=$(best_of ${rates[$range $protocol constant]})
		for form in timestamptz timestamptz_constant constant operators bounds; do
			r=$(best_of ${rates[$range $protocol $form]})
			cell="$(printf '%.0f' "$r")"
			case $form in operators | bounds) cell+=", $(ratio "$r" "$c")" ;; esac
			row+=" | $cell [$(shape "${queries[$range $form]}" "$protocol")]"
		done
		md+=("$row |")
	done
done
md+=("")
# 3. row estimates of the forms of 2 (simple protocol), beside the truth
md+=("### Row estimates, relative to now() ($days daily partitions, a row every 10 minutes)" ""
	"| range | rows | timestamptz \`ts >= now() - x\` | constant \`id >= 'T'\` | operators \`id >= now() - x\` | bounds \`id >= uuidv7_min(now() - x)\` |"
	"|---|---|---|---|---|---|")
estimate() { psql_q "EXPLAIN $1" | sed -nE '1s/.*rows=([0-9]+).*/\1/p'; }
for range in "1 hour" "1 day" "24 hours" "7 days"; do
	secs=$(psql_q "SELECT extract(epoch FROM interval '$range')::int")
	actual=$(psql_q "SELECT count(*) FROM ev_uuid WHERE uuidv7_timestamp(id) >= now() - interval '$range'")
	md+=("| \`$range\` | $actual | $(estimate "SELECT * FROM ev_ts WHERE ts >= now() - interval '$range'") | $(estimate "SELECT * FROM ev_uuid WHERE id >= to_timestamp($(($(date +%s) - secs)))") | $(estimate "SELECT * FROM ev_uuid WHERE id >= now() - interval '$range'") | $(estimate "SELECT * FROM ev_uuid WHERE id >= uuidv7_min(now() - interval '$range')") |")
done
md+=("")

{
	echo "## Time predicates: C operators with planner support, and now()-relative lower bounds pruned at plan time"
	echo
	echo "$(date -u '+%Y-%m-%d %H:%M UTC'), PostgreSQL $("$PG_BINDIR/postgres" --version | sed -E 's/^[^0-9]*([0-9][^ ]*).*/\1/'), $(nproc) cores, pgbench with one client, best of $ROUNDS runs of ${SECONDS_EACH} s"
	echo
	printf '%s\n' "${md[@]}"
} | tee "$OUT/time_predicates.md"
