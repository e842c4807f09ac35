#!/usr/bin/env bash
# test/bench/maintenance_cost.sh: what a scheduled maintenance run costs a
# table, the whole call as a scheduler makes it, in each edition side by
# side in one run, on each of MAJORS (15): the C edition installed into the
# server (as test/check.sh builds it) and the SQL edition into a copy of the
# server that has no C of uuidv7 (test/lib.sh server_copy), a cluster each.
#
# For each size of SIZES (100 1000): a database holding one table of that
# many daily partitions, the last a week ahead, with a policy of a week
# ahead and a keep longer than the table, so that a run has nothing to do,
# as most scheduled runs do; then CALL uuidv7_run_maintenance(), timed by
# the client (psql's \timing, a local socket), as the first statement of a
# new session (cold: median of ROUNDS sessions) and as the fastest of ROUNDS
# calls in one session after a first (warm).
#
# Prints a Markdown table and writes it to test/bench/out/maintenance_cost.md.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib.sh"

MAJORS=${MAJORS:-15}
SIZES=${SIZES:-100 1000}
ROUNDS=${ROUNDS:-5}
export PGTZ=UTC
OUT=$TOP/test/bench/out
mkdir -p "$OUT"
work=$(mktemp -d /tmp/uuidv7-bench-maint.XXXXXX)
chmod 755 "$work"
at_exit 'rm -rf "$work"'

# call_ms EDITION DB CALLS: the milliseconds of each of CALLS calls in one
# session, one a line
call_ms() {
	for _ in $(seq "$3"); do
		echo "CALL uuidv7_run_maintenance();"
	done | PGHOST=${host[$1]} PGPORT=${port[$1]} PGOPTIONS='-c client_min_messages=warning' \
		"${bin[$1]}/psql" -X -q -d "$2" -v ON_ERROR_STOP=1 -c '\timing on' -f - |
		sed -nE 's/^Time: ([0-9.]+) ms.*/\1/p'
}
# call_cost EDITION DB: "cold warm" in milliseconds
call_cost() {
	local cold=() warm
	for _ in $(seq "$ROUNDS"); do
		cold+=("$(call_ms "$1" "$2" 1)")
	done
	warm=$(call_ms "$1" "$2" $((ROUNDS + 1)) | tail -n +2)
	[ "${#cold[@]}" -eq "$ROUNDS" ] && [ "$(wc -l <<<"$warm")" -eq "$ROUNDS" ] || { echo "no time for $1 $2" >&2; return 1; }
	printf '%.1f %.1f\n' "$(median "${cold[@]}")" "$(fastest_of $warm)"
}

rows=()
for major in $MAJORS; do
	editions_install "$major"

	declare -A host=() port=() bin=()
	for edition in c sql; do
		if [ $edition = c ]; then PG_CONFIG=$C_PG_CONFIG; else PG_CONFIG=$SQL_PG_CONFIG; fi
		find_pg_config
		cluster_start "uuidv7-bench-maint-$major-$edition" "jit = off" "shared_buffers = 256MB" "max_locks_per_transaction = 1024"
		host[$edition]=$PGHOST port[$edition]=$PGPORT bin[$edition]=$PG_BINDIR
		for size in $SIZES; do
			psql_q "CREATE DATABASE s$size" >/dev/null
			"$PG_BINDIR/psql" -X -q -d "s$size" -v ON_ERROR_STOP=1 >/dev/null <<SQL
SET client_min_messages = warning;
CREATE EXTENSION uuidv7;
CREATE TABLE up (id uuid7 PRIMARY KEY, v int) PARTITION BY RANGE (id);
CREATE TABLE up_default PARTITION OF up DEFAULT;
SELECT count(*) FROM uuidv7_create_partitions('up', current_date - ($size - 8), current_date + 7, '1 day', 'UTC');
SELECT uuidv7_set_partition_policy('up', ahead => '7 days', keep => '$((size + 30)) days');
SQL
		done
	done

	version=$("${bin[c]}/postgres" --version | sed -E 's/^[^0-9]*([0-9][^ ]*).*/\1/')
	for size in $SIZES; do
		read -r c_cold c_warm <<<"$(call_cost c "s$size")" || exit 1
		read -r sql_cold sql_warm <<<"$(call_cost sql "s$size")" || exit 1
		rows+=("| $version | $size | $c_cold | $sql_cold | $(ratio "$sql_cold" "$c_cold" 1) | $c_warm | $sql_warm | $(ratio "$sql_warm" "$c_warm" 1) |")
	done
	cluster_stop_all
	CLUSTER_DIRS=()
done

{
	echo "## A maintenance run with nothing to do, one table, ms: cold (median of $ROUNDS new sessions), warm (fastest of $ROUNDS calls after a first)"
	echo
	echo "| server | partitions | C, cold | SQL, cold | SQL / C | C, warm | SQL, warm | SQL / C |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|"
	printf '%s\n' "${rows[@]}"
} | tee "$OUT/maintenance_cost.md"
