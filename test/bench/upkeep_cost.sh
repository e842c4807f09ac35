#!/usr/bin/env bash
# test/bench/upkeep_cost.sh: what partition upkeep costs as a table's
# partitions grow in number, with the partitions listed from the partition
# descriptor (the C edition's uuidv7_partitions) and, side by side in the
# same run, by deparsing each partition's bound (the SQL edition's
# uuidv7_partitions, put in its place inside a transaction rolled back).
#
# For each of PARTITIONS, table ev (id uuid7 PRIMARY KEY) gets that many UTC
# days of partitions, the last ending a week from today, 24 rows a day, and a
# DEFAULT partition.  Timed inside the server (bench_ms):
#
#   uuidv7_partitions   the listing
#   create, nothing     the nightly call, every period of the week ahead there
#   drop, nothing       uuidv7_drop_partitions before the first period
#   drop 10             the 10 oldest periods dropped
#   doctor              uuidv7_doctor()
#   core: create        CREATE TABLE ... PARTITION OF with the primary key
#   core: drop          DROP TABLE of the oldest partition
#
# each as the first call of a new session (cold: the median of ROUNDS
# sessions) and the fastest of ROUNDS calls in one session (warm); every call
# that changes the table is rolled back.  Prints Markdown tables and writes
# them to test/bench/out/upkeep_cost.md.
#
# Sizes: PARTITIONS ("300 1000 3000 10000"), ROUNDS (5); the server of
# PG_CONFIG (default: the newest installed).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib.sh"
find_pg_config

PARTITIONS=${PARTITIONS:-300 1000 3000 10000}
ROUNDS=${ROUNDS:-5}
bench_begin upkeep_cost
cluster_start uuidv7-bench-upkeep-cost "shared_buffers = 512MB" "max_locks_per_transaction = 1024" "jit = off"
psql_q "CREATE EXTENSION uuidv7"
create_bench_ms

# the SQL edition's listing, as the SQL edition's script has it
deparsed=$(awk -f "$TOP/src/assemble.awk" -v edition=sql "$TOP/src/partition.sql" |
	sed -n '/^CREATE FUNCTION uuidv7_partitions(/,/^\$function\$;/p' |
	sed -e 's/^CREATE FUNCTION/CREATE OR REPLACE FUNCTION public./' -e 's/@extschema@/public/g')
[ -n "$deparsed" ] || { echo "no SQL edition of uuidv7_partitions in src/partition.sql" >&2; exit 1; }
printf '%s\n' "$deparsed" >"$work/deparsed.sql"

# timed_sql LISTING STATEMENT ROLLBACK REPS: the milliseconds of each of REPS
# runs of STATEMENT in one session, one a line, the listing (descriptor or
# deparsed) in use, each run rolled back if ROLLBACK is "rollback"
timed_sql() {
	{
		echo "BEGIN;"
		[ "$1" = deparsed ] && cat "$work/deparsed.sql"
		for _ in $(seq "$4"); do
			if [ "$3" = rollback ]; then
				echo "SAVEPOINT s; SELECT bench_ms(\$q\$$2\$q\$); ROLLBACK TO SAVEPOINT s;"
			else
				echo "SELECT bench_ms(\$q\$$2\$q\$);"
			fi
		done
		echo "ROLLBACK;"
	} | "$PG_BINDIR/psql" -X -q -At -v ON_ERROR_STOP=1 2>&1 | grep -E '^[0-9.]+$'
}

# cost LISTING STATEMENT ROLLBACK: "cold warm" in milliseconds
cost() {
	local cold=() warm
	for _ in $(seq "$ROUNDS"); do cold+=("$(timed_sql "$1" "$2" "$3" 1)"); done
	# (the first run of the session warms it)
	warm=$(fastest_of $(timed_sql "$1" "$2" "$3" $((ROUNDS + 1)) | tail -n +2))
	printf '%.1f %.1f\n' "$(median "${cold[@]}")" "$warm"
}

report="$OUT/upkeep_cost.md"
{
	echo "PostgreSQL $("$PG_BINDIR/postgres" --version | sed 's/.* //'), $(date -u '+%Y-%m-%d %H:%M UTC')," \
		"cold: median of $ROUNDS new sessions; warm: fastest of $ROUNDS calls in one session; milliseconds"
	echo
} >"$report"

for n in $PARTITIONS; do
	echo "== $n partitions" >&2
	"$PG_BINDIR/psql" -X -q -v ON_ERROR_STOP=1 >/dev/null <<-SQL
		SET client_min_messages = warning;
		DROP TABLE IF EXISTS ev;
		CREATE TABLE ev (id uuid7 PRIMARY KEY, v int) PARTITION BY RANGE (id);
		CREATE TABLE ev_default PARTITION OF ev DEFAULT;
		SELECT count(*) FROM uuidv7_create_partitions('ev', current_date - ($n - 7), current_date + 7, '1 day', 'UTC');
		INSERT INTO ev (id, v)
		SELECT uuidv7_generate_at((current_date - ($n - 7))::timestamptz + g * interval '1 hour'), g
		FROM generate_series(0, $n * 24 - 1) g;
		VACUUM ANALYZE ev;
	SQL
	first="(current_date - ($n - 7))::timestamptz"
	declare -A ops=(
		[1]="uuidv7_partitions|SELECT count(*) FROM uuidv7_partitions('ev')|keep"
		[2]="create, nothing|SELECT count(*) FROM uuidv7_create_partitions('ev', current_date, current_date + 7, '1 day', 'UTC')|rollback"
		[3]="drop, nothing|SELECT count(*) FROM uuidv7_drop_partitions('ev', $first)|rollback"
		[4]="drop 10|SELECT count(*) FROM uuidv7_drop_partitions('ev', $first + interval '10 days')|rollback"
		[5]="doctor|SELECT count(*) FROM uuidv7_doctor()|keep"
		[6]="core: create|CREATE TABLE ev_next PARTITION OF ev FOR VALUES FROM (uuidv7_min(current_date + 7)) TO (uuidv7_min(current_date + 8))|rollback"
		[7]="core: drop|DROP TABLE ev_p$(date -u -d "-$((n - 7)) days" +%Y_%m_%d)|rollback"
	)
	{
		echo "### $n daily partitions"
		echo
		echo "| call | descriptor, cold | descriptor, warm | deparsed, cold | deparsed, warm | deparsed / descriptor (warm) |"
		echo "|---|---:|---:|---:|---:|---:|"
	} >>"$report"
	for i in 1 2 3 4 5 6 7; do
		IFS='|' read -r name statement rollback <<<"${ops[$i]}"
		read -r dcold dwarm <<<"$(cost descriptor "$statement" "$rollback")"
		if [ "${name#core}" = "$name" ]; then
			read -r pcold pwarm <<<"$(cost deparsed "$statement" "$rollback")"
			echo "| $name | $dcold | $dwarm | $pcold | $pwarm | $(ratio "$pwarm" "$dwarm" 1) |" >>"$report"
		else
			echo "| $name | $dcold | $dwarm | | | |" >>"$report"
		fi
	done
	echo >>"$report"
	unset ops
done
cat "$report"
