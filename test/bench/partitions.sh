#!/usr/bin/env bash
# test/bench/partitions.sh: time-range queries on a table range-partitioned
# by its UUIDv7 key, against the same rows in a table range-partitioned by a
# timestamptz column, side by side in one run.
#
# For each of PARTITIONS daily partitions (UTC days), 144 rows a day (one
# every 10 minutes) and a btree on the key, pgbench (one client) runs
# count(*) over a random one-hour, one-day or 30-day range, in each form:
#
#   timestamptz   ts >= to_timestamp(a) AND ts < to_timestamp(b), on the
#                 table partitioned by ts
#   uuidv7_min    id >= uuidv7_min(to_timestamp(a)) AND id < uuidv7_min(to_timestamp(b))
#   time ops      id >= to_timestamp(a) AND id < to_timestamp(b)  (uuidv7_time_ops)
#
# and the timestamptz form once more, whose ratio to the first shows how far
# two runs of the same thing differ.
#
# to_timestamp(float8) is IMMUTABLE, so these fold to constants and prune at
# plan time.  The "expression" forms take their bounds from a STABLE
# expression instead, date_trunc('hour', to_timestamp(a)) (it depends on the
# session's TimeZone), which prunes when the executor starts.  Each runs
# under the simple protocol (planned every time) and prepared with generic
# plans (plan_cache_mode = force_generic_plan: pruned at run time, the plan
# shows "Subplans Removed").  Last, one-row inserts at a random time, routed
# through each parent.
#
# Every configuration runs BENCH_SECONDS seconds in each of ROUNDS interleaved
# rounds and the best rate counts (noise on a shared machine only lowers a
# rate).  The partitions each form scans come from EXPLAIN of one range.
# Prints Markdown tables and writes them to test/bench/out/partitions.md.
#
# Sizes: PARTITIONS ("100 1000 5000"), BENCH_SECONDS (5), ROUNDS (3),
# PROTOCOLS ("simple expression generic": any of them); the server
# of PG_CONFIG (default: the newest installed).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib.sh"
find_pg_config

PARTITIONS=${PARTITIONS:-100 1000 5000}
SECONDS_EACH=${BENCH_SECONDS:-5}
ROUNDS=${ROUNDS:-3}
PROTOCOLS=${PROTOCOLS:-simple expression generic}
bench_begin part
# generic plans lock every partition and its index
cluster_start uuidv7-bench-part "shared_buffers = 1GB" "max_locks_per_transaction = 1024" "jit = off"
psql_q "SET client_min_messages = warning; CREATE EXTENSION uuidv7; CREATE EXTENSION uuidv7_time_ops" >/dev/null

BASE=1704067200 # 2024-01-01 00:00:00 UTC

# the WHERE clause of each form, over the bounds A and B (SQL expressions)
where() { # where FORM A B (FORM_again: FORM itself)
	case ${1%_again} in
		timestamptz) echo "ts >= to_timestamp($2) AND ts < to_timestamp($3)" ;;
		uuidv7_min) echo "id >= uuidv7_min(to_timestamp($2)) AND id < uuidv7_min(to_timestamp($3))" ;;
		time_ops) echo "id >= to_timestamp($2) AND id < to_timestamp($3)" ;;
		timestamptz_expr) echo "ts >= date_trunc('hour', to_timestamp($2)) AND ts < date_trunc('hour', to_timestamp($3))" ;;
		uuidv7_min_expr) echo "id >= uuidv7_min(date_trunc('hour', to_timestamp($2))) AND id < uuidv7_min(date_trunc('hour', to_timestamp($3)))" ;;
		time_ops_expr) echo "id >= date_trunc('hour', to_timestamp($2)) AND id < date_trunc('hour', to_timestamp($3))" ;;
	esac
}
table_of() { case $1 in timestamptz*) echo ev_ts ;; *) echo ev_uuid ;; esac; }
# the pgbench lines that set :a and :b to a random range of each length
range_vars() { # range_vars RANGE DAYS
	echo "\\set d random(0, $2 - 31)"
	echo "\\set h random(0, 23)"
	case $1 in
		hour) echo "\\set a $BASE + :d * 86400 + :h * 3600"; echo "\\set b :a + 3600" ;;
		day) echo "\\set a $BASE + :d * 86400"; echo "\\set b :a + 86400" ;;
		month) echo "\\set a $BASE + :d * 86400"; echo "\\set b :a + 30 * 86400" ;;
	esac
}
span_of() { case $1 in hour) echo 3600 ;; day) echo 86400 ;; month) echo $((30 * 86400)) ;; esac; }

# rate of one script: transactions per second (a generic plan: prepared)
rate() { # rate SCRIPT simple|generic
	pgbench_rate "$1" "$([ "$2" = generic ] && echo prepared || echo simple)"
}

# partitions a plan scans, and the count it removed at run time
scanned() { # scanned FORM RANGE DAYS PROTOCOL
	local a=$((BASE + 40 * 86400)) b plan
	b=$((a + $(span_of "$2")))
	if [ "$4" = generic ]; then
		plan=$("$PG_BINDIR/psql" -X -At -v ON_ERROR_STOP=1 <<-SQL
			SET plan_cache_mode = force_generic_plan;
			PREPARE q(float8, float8) AS SELECT count(*) FROM $(table_of "$1") WHERE $(where "$1" '$1' '$2');
			EXPLAIN (COSTS OFF) EXECUTE q($a, $b);
		SQL
		)
	else
		plan=$(psql_q "EXPLAIN (COSTS OFF) SELECT count(*) FROM $(table_of "$1") WHERE $(where "$1" "$a" "$b")")
	fi
	local n removed
	# (the tables a plan reads, each once: a bitmap scan names it on two lines)
	n=$(grep -oE '(Seq Scan|Index Scan using [^ ]+|Index Only Scan using [^ ]+|Bitmap Heap Scan) on ev_[a-z0-9_]+' <<<"$plan" |
		awk '{ print $NF }' | sort -u | wc -l)
	removed=$(sed -nE 's/.*Subplans Removed: ([0-9]+).*/\1/p' <<<"$plan" | head -n 1)
	echo "$n${removed:+, $removed removed}"
}

md=()
for days in $PARTITIONS; do
	echo "== $days daily partitions"
	"$PG_BINDIR/psql" -X -q -v ON_ERROR_STOP=1 >/dev/null <<-SQL
		SET client_min_messages = warning;
		DROP TABLE IF EXISTS ev_ts, ev_uuid;
		$(ts_table_sql "$BASE" "$days")
		CREATE TABLE ev_uuid (id uuid7 PRIMARY KEY, v int NOT NULL) PARTITION BY RANGE (id);
		SELECT count(*) FROM uuidv7_create_partitions('ev_uuid', to_timestamp($BASE), to_timestamp($BASE + $days * 86400), '1 day', 'UTC');
		INSERT INTO ev_uuid SELECT uuidv7_generate_at(to_timestamp($BASE + g * 600)), g FROM generate_series(0, $days * 144 - 1) g;
		VACUUM ANALYZE ev_ts;
		VACUUM ANALYZE ev_uuid;
	SQL

	# the scripts
	configs=()
	for range in hour day month; do
		for protocol in $PROTOCOLS; do
			forms=(timestamptz uuidv7_min time_ops)
			[ "$protocol" = expression ] && forms=(timestamptz_expr uuidv7_min_expr time_ops_expr)
			# the first form again: how far two runs of one thing differ
			forms+=("${forms[0]}_again")
			for form in "${forms[@]}"; do
				f="$work/$range-$protocol-$form.sql"
				{
					range_vars "$range" "$days"
					echo "SELECT count(*) FROM $(table_of "$form") WHERE $(where "$form" :a :b);"
				} >"$f"
				configs+=("$range $protocol $form")
			done
		done
	done
	inserts=()
	for form in timestamptz uuid; do
		{
			echo "\\set a $BASE + random(0, $days * 86400 - 1)"
			if [ $form = timestamptz ]; then
				echo "INSERT INTO ev_ts (ts, v) VALUES (to_timestamp(:a), 0);"
			else
				echo "INSERT INTO ev_uuid (id, v) VALUES (uuidv7_generate_at(to_timestamp(:a)), 0);"
			fi
		} >"$work/insert-simple-$form.sql"
		inserts+=("insert simple $form")
	done

	# the queries, then the partitions their plans scan, then the inserts
	# (which change the tables)
	declare -A rates=() shapes=()
	run_rounds() {
		local round c range protocol form p
		for round in $(seq 1 "$ROUNDS"); do
			echo "   round $round of $ROUNDS"
			for c in "$@"; do
				read -r range protocol form <<<"$c"
				p=$protocol
				[ "$p" = expression ] && p=simple
				rates[$c]+="$(rate "$work/$range-$protocol-$form.sql" "$p") "
			done
		done
	}
	run_rounds "${configs[@]}"
	for c in "${configs[@]}"; do
		read -r range protocol form <<<"$c"
		shapes[$c]=$(scanned "$form" "$range" "$days" "$([ "$protocol" = generic ] && echo generic || echo simple)")
	done
	run_rounds "${inserts[@]}"

	md+=("### $days daily partitions ($((days * 144)) rows)" ""
		"| range | protocol | timestamptz: queries/s [partitions scanned] | uuidv7_min: queries/s, ratio [scanned] | time operators: queries/s, ratio [scanned] | timestamptz again (noise) |"
		"|---|---|---|---|---|---|")
	for range in hour day month; do
		for protocol in $PROTOCOLS; do
			forms=(timestamptz uuidv7_min time_ops)
			label="simple, constant bounds (plan-time pruning)"
			[ "$protocol" = expression ] && forms=(timestamptz_expr uuidv7_min_expr time_ops_expr) &&
				label="simple, STABLE bounds (pruned at executor start)"
			[ "$protocol" = generic ] && label="prepared, generic plan (run-time pruning)"
			row="| one $range | $label"
			base_rate=
			for form in "${forms[@]}"; do
				r=$(best_of ${rates[$range $protocol $form]})
				s=${shapes[$range $protocol $form]}
				if [ -z "$base_rate" ]; then
					base_rate=$r
					row+=" | $(printf '%.0f' "$r") [$s]"
				else
					row+=" | $(printf '%.0f' "$r"), $(ratio "$r" "$base_rate") [$s]"
				fi
			done
			r=$(best_of ${rates[$range $protocol ${forms[0]}_again]})
			row+=" | $(printf '%.0f' "$r"), $(ratio "$r" "$base_rate")"
			md+=("$row |")
		done
	done
	ts_ins=$(best_of ${rates[insert simple timestamptz]})
	uu_ins=$(best_of ${rates[insert simple uuid]})
	md+=("| insert one row | simple, routed through the parent | $(printf '%.0f' "$ts_ins") | $(printf '%.0f' "$uu_ins"), $(ratio "$uu_ins" "$ts_ins") (uuidv7_generate_at) | | |" "")
	# (each size's table as soon as it is done)
	printf '%s\n' "${md[@]}" >"$OUT/partitions.partial.md"
	unset rates shapes
done

{
	echo "## Time ranges on partitioned tables: uuid7 key against timestamptz key, best of $ROUNDS runs of ${SECONDS_EACH} s"
	echo
	echo "$(date -u '+%Y-%m-%d %H:%M UTC'), PostgreSQL $("$PG_BINDIR/postgres" --version | sed -E 's/^[^0-9]*([0-9][^ ]*).*/\1/'), $(nproc) cores, pgbench with one client"
	echo
	printf '%s\n' "${md[@]}"
} | tee "$OUT/partitions.md"
