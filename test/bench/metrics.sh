#!/usr/bin/env bash
# test/bench/metrics.sh: what a scrape of uuidv7_partition_metrics costs, in
# each edition side by side in one run, on each of MAJORS (15): the C
# edition installed into the server (as test/check.sh builds it) and the SQL
# edition into a copy of the server that has no C of uuidv7 (test/lib.sh
# server_copy), a cluster each.
#
# One database of TABLES (100) tables of PARTITIONS (1000) daily partitions
# each, the last a week ahead, a DEFAULT partition holding a few rows, and a
# policy with a keep shorter than the table (so that some periods are past
# it) and a run recorded; then SELECT * FROM uuidv7_partition_metrics, as
# postgres_exporter runs it, timed by the client (psql's \timing, a local
# socket): as the first statement of a new session (cold: median of ROUNDS
# sessions) and as the fastest of ROUNDS queries in one session after a
# first (warm: the exporter keeps its connection).
#
# Prints a Markdown table and writes it to test/bench/out/metrics.md.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib.sh"

MAJORS=${MAJORS:-15}
TABLES=${TABLES:-100}
PARTITIONS=${PARTITIONS:-1000}
ROUNDS=${ROUNDS:-5}
export PGTZ=UTC
OUT=$TOP/test/bench/out
mkdir -p "$OUT"
work=$(mktemp -d /tmp/uuidv7-bench-metrics.XXXXXX)
chmod 755 "$work"
at_exit 'rm -rf "$work"'

# query_ms EDITION QUERIES: the milliseconds of each of QUERIES scrapes in
# one session, one a line
query_ms() {
	for _ in $(seq "$2"); do
		echo "SELECT * FROM uuidv7_partition_metrics;"
	done | PGHOST=${host[$1]} PGPORT=${port[$1]} "${bin[$1]}/psql" -X -q -d metrics -v ON_ERROR_STOP=1 \
		-c '\timing on' -o /dev/null -f - | sed -nE 's/^Time: ([0-9.]+) ms.*/\1/p'
}
# query_cost EDITION: "cold warm" in milliseconds
query_cost() {
	local cold=() warm
	for _ in $(seq "$ROUNDS"); do
		cold+=("$(query_ms "$1" 1)")
	done
	warm=$(query_ms "$1" $((ROUNDS + 1)) | tail -n +2)
	[ "${#cold[@]}" -eq "$ROUNDS" ] && [ "$(wc -l <<<"$warm")" -eq "$ROUNDS" ] || { echo "no time for $1" >&2; return 1; }
	printf '%.1f %.1f\n' "$(median "${cold[@]}")" "$(fastest_of $warm)"
}

rows=()
for major in $MAJORS; do
	editions_install "$major"

	declare -A host=() port=() bin=()
	for edition in c sql; do
		if [ $edition = c ]; then PG_CONFIG=$C_PG_CONFIG; else PG_CONFIG=$SQL_PG_CONFIG; fi
		find_pg_config
		cluster_start "uuidv7-bench-metrics-$major-$edition" "jit = off" "shared_buffers = 512MB" \
			"max_locks_per_transaction = 2048" "fsync = off"
		host[$edition]=$PGHOST port[$edition]=$PGPORT bin[$edition]=$PG_BINDIR
		psql_q "CREATE DATABASE metrics" >/dev/null
		"$PG_BINDIR/psql" -X -q -d metrics -v ON_ERROR_STOP=1 >/dev/null <<SQL
SET client_min_messages = warning;
CREATE EXTENSION uuidv7;
SELECT format('CREATE TABLE t%1\$s (id uuid7 PRIMARY KEY, v int) PARTITION BY RANGE (id);
	CREATE TABLE t%1\$s_default PARTITION OF t%1\$s DEFAULT;
	INSERT INTO t%1\$s VALUES (uuidv7_generate_at(current_date - $PARTITIONS - 10), 1);', g)
FROM generate_series(1, $TABLES) g
\gexec
-- (the partitions by their DDL, each its own transaction: quicker to make
-- than by uuidv7_create_partitions, which checks each against DEFAULT)
SELECT d.ddl FROM generate_series(1, $TABLES) g,
	uuidv7_partition_ddl(format('t%s', g)::regclass, current_date - ($PARTITIONS - 8), current_date + 7, '1 day', 'UTC') d
\gexec
SELECT format('SELECT uuidv7_set_partition_policy(%L, ahead => ''7 days'', keep => ''$((PARTITIONS / 2)) days'')',
	format('t%s', g))
FROM generate_series(1, $TABLES) g
\gexec
VACUUM ANALYZE;
SQL
	done

	version=$("${bin[c]}/postgres" --version | sed -E 's/^[^0-9]*([0-9][^ ]*).*/\1/')
	read -r c_cold c_warm <<<"$(query_cost c)" || exit 1
	read -r sql_cold sql_warm <<<"$(query_cost sql)" || exit 1
	rows+=("| $version | $TABLES x $PARTITIONS | $c_cold | $sql_cold | $(ratio "$sql_cold" "$c_cold" 1) | $c_warm | $sql_warm | $(ratio "$sql_warm" "$c_warm" 1) |")
	cluster_stop_all
	CLUSTER_DIRS=()
done

{
	echo "## A scrape of uuidv7_partition_metrics, ms: cold (median of $ROUNDS new sessions), warm (fastest of $ROUNDS queries after a first)"
	echo
	echo "| server | tables x partitions | C, cold | SQL, cold | SQL / C | C, warm | SQL, warm | SQL / C |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|"
	printf '%s\n' "${rows[@]}"
} | tee "$OUT/metrics.md"
