#!/usr/bin/env bash
# test/bench/sql_edition.sh: the SQL edition against the C edition, and the
# time comparisons, side by side in one run, on each of MAJORS (15 18): the C
# edition installed into the server (as test/check.sh builds it), with
# uuidv7_time_ops, and the SQL edition into a copy of the server that has no
# C of uuidv7 (test/lib.sh server_copy), a cluster each.
#
# - generation: SELECT count(f()) FROM generate_series(1, ROWS), ns a value
#   above the count(1) floor, fastest of ROUNDS interleaved runs, for each
#   edition's uuidv7_generate(), and core's uuidv7() where the server has it;
# - a one-day count on a table of 1,000 daily partitions (a row every 15
#   minutes) in three forms: uuidv7_min() bounds, the time operators of
#   uuidv7 (inlined SQL), and those of uuidv7_time_ops (C, in core's btree
#   family; C edition only); the partitions scanned, planning and execution
#   time (EXPLAIN ANALYZE, fastest of ROUNDS), with constants (plan-time
#   pruning) and as a generic plan of a prepared statement (pruning at
#   executor start);
# - upkeep on a table of UPKEEP_PARTITIONS daily partitions (the last a week
#   ahead) and a DEFAULT partition: uuidv7_partitions, the nightly
#   uuidv7_create_partitions that creates nothing, uuidv7_drop_partitions that
#   drops nothing and uuidv7_doctor(), each timed inside the server as the
#   first call of a new session (cold: median of ROUNDS sessions) and as the
#   fastest of ROUNDS calls in one session after a first (warm), rolled back.
#
# Prints Markdown tables and writes them to test/bench/out/sql_edition.md.
#
# Sizes: ROWS (1000000), ROUNDS (5), UPKEEP_PARTITIONS (3000).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib.sh"

MAJORS=${MAJORS:-15 18}
ROWS=${ROWS:-1000000}
ROUNDS=${ROUNDS:-5}
UPKEEP_PARTITIONS=${UPKEEP_PARTITIONS:-3000}
# (the days of the upkeep table are UTC days)
export PGTZ=UTC
OUT=$TOP/test/bench/out
mkdir -p "$OUT"
work=$(mktemp -d /tmp/uuidv7-bench-sqled.XXXXXX)
chmod 755 "$work"
at_exit 'rm -rf "$work"'

ns_per_row() { awk -v ms="$1" -v floor="$2" -v rows="$ROWS" 'BEGIN {printf "%.0f", (ms - floor) * 1e6 / rows}'; }

# the partitioned table and the two forms of the one-day query
TABLE_SQL="
SET client_min_messages = warning;
CREATE TABLE ev (id uuid7 PRIMARY KEY, v int) PARTITION BY RANGE (id);
SELECT count(*) FROM uuidv7_create_partitions('ev', '2023-01-01 00:00+00', '2023-01-01 00:00+00'::timestamptz + interval '1000 days', '1 day', 'UTC');
INSERT INTO ev SELECT uuidv7_generate_at('2023-01-01 00:00+00'::timestamptz + g * interval '15 minutes'), g
FROM generate_series(0, 1000 * 96 - 1) g;
VACUUM ANALYZE ev;
CREATE TABLE up (id uuid7 PRIMARY KEY, v int) PARTITION BY RANGE (id);
CREATE TABLE up_default PARTITION OF up DEFAULT;
SELECT count(*) FROM uuidv7_create_partitions('up', current_date - ($UPKEEP_PARTITIONS - 7), current_date + 7, '1 day', 'UTC');
INSERT INTO up SELECT uuidv7_generate_at((current_date - ($UPKEEP_PARTITIONS - 7))::timestamptz + g * interval '1 day'), g
FROM generate_series(0, $UPKEEP_PARTITIONS - 1) g;
VACUUM ANALYZE up;
CREATE FUNCTION plan_of(q text) RETURNS json LANGUAGE plpgsql AS \$\$
DECLARE
	plan json;
BEGIN
	EXECUTE 'EXPLAIN (ANALYZE, FORMAT JSON) ' || q INTO plan;
	RETURN plan -> 0;
END
\$\$;
-- partitions scanned, planning ms, execution ms of a plan
CREATE FUNCTION summary(p json) RETURNS text LANGUAGE sql AS \$\$
	SELECT (SELECT count(*) FROM regexp_matches(p::text, '\"Relation Name\": \"ev_p', 'g')) || ' '
		|| (p ->> 'Planning Time') || ' ' || (p ->> 'Execution Time')
\$\$;"
# the day's predicate in each form, %s standing for its two ends
declare -A FORMS=(
	[bounds]="id >= uuidv7_min(%s) AND id < uuidv7_min(%s)"
	[operators]="id >= %s AND id < %s"
	[time_ops]="id OPERATOR(uuidv7_time_ops.>=) %s AND id OPERATOR(uuidv7_time_ops.<) %s"
)
# plan_summary EDITION FORM constant|generic: partitions scanned, planning
# and execution ms
plan_summary() {
	local where
	if [ "$3" = constant ]; then
		# shellcheck disable=SC2059
		where=$(printf "${FORMS[$2]}" "''2024-06-01 00:00+00''::timestamptz" "''2024-06-02 00:00+00''::timestamptz")
		on "$1" "SELECT summary(plan_of('SELECT count(*) FROM ev WHERE $where'))"
	else
		# shellcheck disable=SC2059
		where=$(printf "${FORMS[$2]}" '$1' '$2')
		PGHOST=${host[$1]} PGPORT=${port[$1]} "${bin[$1]}/psql" -X -q -At -v ON_ERROR_STOP=1 \
			-c "SET plan_cache_mode = force_generic_plan" \
			-c "PREPARE one_day(timestamptz, timestamptz) AS SELECT count(*) FROM ev WHERE $where" \
			-c "SELECT summary(plan_of('EXECUTE one_day(''2024-06-01 00:00+00'', ''2024-06-02 00:00+00'')'))" | tail -n 1
	fi
}

# the upkeep calls, each a name and a statement
UPKEEP=(
	"uuidv7_partitions|SELECT count(*) FROM uuidv7_partitions('up')"
	"create, nothing|SELECT count(*) FROM uuidv7_create_partitions('up', current_date, current_date + 7, '1 day', 'UTC')"
	"drop, nothing|SELECT count(*) FROM uuidv7_drop_partitions('up', current_date - ($UPKEEP_PARTITIONS - 7))"
	"uuidv7_doctor()|SELECT count(*) FROM uuidv7_doctor()"
)
# upkeep_ms EDITION STATEMENT CALLS: the milliseconds of each of CALLS runs
# of STATEMENT in one session, each rolled back, one a line
upkeep_ms() {
	for _ in $(seq "$3"); do
		echo "BEGIN; SELECT bench_ms(\$q\$$2\$q\$); ROLLBACK;"
	done | PGHOST=${host[$1]} PGPORT=${port[$1]} "${bin[$1]}/psql" -X -q -At -v ON_ERROR_STOP=1 | grep -E '^[0-9.]+$'
}
# upkeep_cost EDITION STATEMENT: "cold warm" in milliseconds
upkeep_cost() {
	local cold=() warm
	for _ in $(seq "$ROUNDS"); do
		cold+=("$(upkeep_ms "$1" "$2" 1)")
	done
	warm=$(upkeep_ms "$1" "$2" $((ROUNDS + 1)) | tail -n +2)
	[ "${#cold[@]}" -eq "$ROUNDS" ] && [ "$(wc -l <<<"$warm")" -eq "$ROUNDS" ] || { echo "no time for: $2" >&2; return 1; }
	printf '%.1f %.1f\n' "$(median "${cold[@]}")" "$(fastest_of $warm)"
}

gen_md=() day_md=() upkeep_md=()
for major in $MAJORS; do
	editions_install "$major"

	declare -A host=() port=() bin=()
	for edition in c sql; do
		if [ $edition = c ]; then PG_CONFIG=$C_PG_CONFIG; else PG_CONFIG=$SQL_PG_CONFIG; fi
		find_pg_config
		# (locks: the table of UPKEEP_PARTITIONS partitions is made in one call)
		cluster_start "uuidv7-bench-sqled-$major-$edition" "jit = off" "shared_buffers = 256MB" "max_locks_per_transaction = 1024"
		host[$edition]=$PGHOST port[$edition]=$PGPORT bin[$edition]=$PG_BINDIR
		psql_q "SET client_min_messages = warning; CREATE EXTENSION uuidv7" >/dev/null
		[ $edition = c ] && psql_q "CREATE EXTENSION uuidv7_time_ops" >/dev/null
		create_bench_ms
		"$PG_BINDIR/psql" -X -q -v ON_ERROR_STOP=1 <<<"$TABLE_SQL" >/dev/null
	done
	on() { # on EDITION SQL
		PGHOST=${host[$1]} PGPORT=${port[$1]} "${bin[$1]}/psql" -X -q -At -v ON_ERROR_STOP=1 -c "$2"
	}

	gens=("c 1" "c uuidv7_generate()" "sql 1" "sql uuidv7_generate()")
	core=$(on c "SELECT pg_catalog.to_regprocedure('pg_catalog.uuidv7()') IS NOT NULL")
	[ "$core" = t ] && gens+=("c pg_catalog.uuidv7()")
	declare -A ms=()
	for _ in $(seq 1 "$ROUNDS"); do
		for g in "${gens[@]}"; do
			ms[$g]+="$(on "${g%% *}" "SELECT bench_ms('SELECT count(${g#* }) FROM generate_series(1, $ROWS)')") "
		done
	done
	c_ns=$(ns_per_row "$(fastest_of ${ms[c uuidv7_generate()]})" "$(fastest_of ${ms[c 1]})")
	sql_ns=$(ns_per_row "$(fastest_of ${ms[sql uuidv7_generate()]})" "$(fastest_of ${ms[sql 1]})")
	core_ns="-" core_ratio="-"
	if [ "$core" = t ]; then
		core_ns=$(ns_per_row "$(fastest_of ${ms[c pg_catalog.uuidv7()]})" "$(fastest_of ${ms[c 1]})")
		core_ratio=$(ratio "$sql_ns" "$core_ns" 2)
	fi
	version=$("${bin[c]}/postgres" --version | sed -E 's/^[^0-9]*([0-9][^ ]*).*/\1/')
	gen_md+=("| $version | $c_ns | $sql_ns | $(ratio "$sql_ns" "$c_ns" 1) | $core_ns | $core_ratio |")

	# the one-day count: fastest planning and execution of ROUNDS, each form
	for form in constant generic; do
		for shape in bounds operators time_ops; do
			for edition in c sql; do
				[ $shape = time_ops ] && [ $edition = sql ] && continue
				scanned= plan_best= exec_best=
				for _ in $(seq 1 "$ROUNDS"); do
					read -r scanned plan exec < <(plan_summary $edition $shape $form)
					plan_best=$(fastest_of $plan_best $plan)
					exec_best=$(fastest_of $exec_best $exec)
				done
				day_md+=("| $version | $edition | $shape | $form | $scanned | $plan_best | $exec_best |")
			done
		done
	done

	# upkeep, each edition's call beside the other's
	for call in "${UPKEEP[@]}"; do
		IFS='|' read -r name statement <<<"$call"
		read -r c_cold c_warm <<<"$(upkeep_cost c "$statement")" || exit 1
		read -r sql_cold sql_warm <<<"$(upkeep_cost sql "$statement")" || exit 1
		upkeep_md+=("| $version | $name | $c_cold | $sql_cold | $(ratio "$sql_cold" "$c_cold" 1) | $c_warm | $sql_warm | $(ratio "$sql_warm" "$c_warm" 1) |")
	done
	cluster_stop_all
	CLUSTER_DIRS=()
done

{
	echo "## Generation: ns per value above the count(1) floor, fastest of $ROUNDS runs of $ROWS rows"
	echo
	echo "| server | C edition | SQL edition | SQL / C | core uuidv7() | SQL / core |"
	echo "|---|---|---|---|---|---|"
	printf '%s\n' "${gen_md[@]}"
	echo
	echo "## One-day count on 1,000 daily partitions (96,000 rows), fastest of $ROUNDS"
	echo
	echo "| server | edition | form | plan | partitions scanned | planning ms | execution ms |"
	echo "|---|---|---|---|---|---|---|"
	printf '%s\n' "${day_md[@]}"
	echo
	echo "## Upkeep on $UPKEEP_PARTITIONS daily partitions, ms: cold (median of $ROUNDS new sessions), warm (fastest of $ROUNDS calls after a first)"
	echo
	echo "| server | call | C, cold | SQL, cold | SQL / C | C, warm | SQL, warm | SQL / C |"
	echo "|---|---|---:|---:|---:|---:|---:|---:|"
	printf '%s\n' "${upkeep_md[@]}"
} | tee "$OUT/sql_edition.md"
