#!/usr/bin/env bash
# test/bench/upkeep_cost.sh: what partition upkeep costs as a table's
# partitions grow in number, with the partitions listed from the partition
# descriptor (the C edition's uuidv7_partitions) and, side by side in the
# same run, by deparsing each partition's bound (the SQL edition's
# uuidv7_partitions, put in its place inside a transaction rolled back).
#
# For each of PARTITIONS, table ev (id uuid7 PRIMARY KEY) gets that many UTC
# days of partitions, the last ending a week from today, 24 rows a day, and a
# DEFAULT partition.  Timed inside the server (bench_ms), in milliseconds:
#
#   uuidv7_partitions   the listing
#   create, nothing     the nightly call, every period of the week ahead there
#   drop, nothing       uuidv7_drop_partitions before the first period
#   doctor              uuidv7_doctor()
#   create 10           the next 10 periods ahead made (committed)
#   drop 10             the 10 oldest periods dropped (committed)
#   core: create        CREATE TABLE ... PARTITION OF with the primary key
#   core: drop          DROP TABLE of the oldest partition (committed)
#
# each as the first call of a new session (cold: the median of ROUNDS
# sessions) and the fastest of ROUNDS calls in one session after a first
# (warm).  A call that would change the table but is not marked committed is
# rolled back.  Committed calls run with the deparsed listing first, so that
# the descriptor's figures come from a table with fewer partitions by at most
# 2 x (2 x ROUNDS + 1) x 10.  Prints Markdown tables and writes them to
# test/bench/out/upkeep_cost.md.
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

export PGTZ=UTC

# the listing of either edition, put in place by CREATE OR REPLACE
stanza() {
	awk -f "$TOP/src/assemble.awk" -v edition="$1" "$TOP/src/partition.sql" |
		sed -n '/^CREATE FUNCTION uuidv7_partitions(/,/^\$function\$;$\|^LANGUAGE C .*;$/p' |
		sed -e 's/^CREATE FUNCTION/CREATE OR REPLACE FUNCTION public./' -e 's/@extschema@/public/g' \
			-e "s|'MODULE_PATHNAME'|'\$libdir/uuidv7'|"
}
stanza sql >"$work/deparsed.sql"
stanza c >"$work/descriptor.sql"
grep -q 'LANGUAGE sql' "$work/deparsed.sql" && grep -q 'LANGUAGE C' "$work/descriptor.sql" ||
	{ echo "src/partition.sql: no uuidv7_partitions of each edition" >&2; exit 1; }

# the next days ahead of the table's, and far ahead, by call
psql_q "CREATE SEQUENCE ahead_k; CREATE SEQUENCE far_k; CREATE SEQUENCE behind_k;
	CREATE FUNCTION next_ahead() RETURNS date LANGUAGE sql AS
		\$\$ SELECT current_date + 7 + 10 * (nextval('ahead_k')::int - 1) \$\$;
	CREATE FUNCTION next_far() RETURNS date LANGUAGE sql AS
		\$\$ SELECT date '2100-01-01' + nextval('far_k')::int \$\$"

# timed_sql LISTING STATEMENT MODE REPS: the milliseconds of each of REPS
# runs of STATEMENT in one session, one a line, with the listing (descriptor
# or deparsed) in place, each run rolled back (MODE rollback), committed
# (commit) or either (keep)
timed_sql() {
	{
		cat "$work/$1.sql"
		for _ in $(seq "$4"); do
			if [ "$3" = rollback ]; then
				echo "BEGIN; SELECT bench_ms(\$q\$$2\$q\$); ROLLBACK;"
			else
				echo "SELECT bench_ms(\$q\$$2\$q\$);"
			fi
		done
		cat "$work/descriptor.sql"
	} | "$PG_BINDIR/psql" -X -q -At -v ON_ERROR_STOP=1 | grep -E '^[0-9.]+$'
}

# cost LISTING STATEMENT MODE: "cold warm" in milliseconds
cost() {
	local cold=() warm one
	for _ in $(seq "$ROUNDS"); do
		one=$(timed_sql "$1" "$2" "$3" 1) && [ -n "$one" ] || { echo "no time for: $2" >&2; return 1; }
		cold+=("$one")
	done
	# (the first run of the session warms it)
	warm=$(timed_sql "$1" "$2" "$3" $((ROUNDS + 1)) | tail -n +2) && [ "$(wc -l <<<"$warm")" -eq "$ROUNDS" ] ||
		{ echo "no time for: $2" >&2; return 1; }
	printf '%.1f %.1f\n' "$(median "${cold[@]}")" "$(fastest_of $warm)"
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
	psql_q "ALTER SEQUENCE ahead_k RESTART; ALTER SEQUENCE far_k RESTART; ALTER SEQUENCE behind_k RESTART"
	first="(current_date - ($n - 7))"
	oldest="(SELECT partition FROM uuidv7_partitions('ev') WHERE lower_bound IS NOT NULL ORDER BY lower_bound LIMIT 1)"
	ops=(
		"uuidv7_partitions|SELECT count(*) FROM uuidv7_partitions('ev')|keep"
		"create, nothing|SELECT count(*) FROM uuidv7_create_partitions('ev', current_date, current_date + 7, '1 day', 'UTC')|rollback"
		"drop, nothing|SELECT count(*) FROM uuidv7_drop_partitions('ev', $first)|rollback"
		"doctor|SELECT count(*) FROM uuidv7_doctor()|keep"
		"create 10|SELECT count(*) FROM (SELECT next_ahead() AS d) s, uuidv7_create_partitions('ev', s.d, s.d + 10, '1 day', 'UTC')|commit"
		"drop 10|SELECT count(*) FROM uuidv7_drop_partitions('ev', $first + 10 * nextval('behind_k')::int)|commit"
		"core: create|DO \$\$ DECLARE d date := next_far(); BEGIN EXECUTE format('CREATE TABLE %I PARTITION OF ev FOR VALUES FROM (%L) TO (%L)', concat('ev_far_', to_char(d, 'YYYYMMDD')), uuidv7_min(d), uuidv7_min(d + 1)); END \$\$|commit"
		"core: drop|DO \$\$ BEGIN EXECUTE format('DROP TABLE %s', $oldest); END \$\$|commit"
	)
	{
		echo "### $n daily partitions"
		echo
		echo "| call | descriptor, cold | descriptor, warm | deparsed, cold | deparsed, warm | deparsed / descriptor (warm) |"
		echo "|---|---:|---:|---:|---:|---:|"
	} >>"$report"
	for op in "${ops[@]}"; do
		IFS='|' read -r name statement mode <<<"$op"
		if [ "${name#core}" != "$name" ]; then
			times=$(cost descriptor "$statement" "$mode") || exit 1
			read -r dcold dwarm <<<"$times"
			echo "| $name | $dcold | $dwarm | | | |" >>"$report"
			continue
		fi
		times=$(cost deparsed "$statement" "$mode") || exit 1
		read -r pcold pwarm <<<"$times"
		times=$(cost descriptor "$statement" "$mode") || exit 1
		read -r dcold dwarm <<<"$times"
		echo "| $name | $dcold | $dwarm | $pcold | $pwarm | $(ratio "$pwarm" "$dwarm" 1) |" >>"$report"
	done
	echo >>"$report"
done
cat "$report"
