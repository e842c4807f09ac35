#!/usr/bin/env bash
# test/bench/public_id.sh: the cost of public ids against generation, side
# by side in one run, on the server of PG_CONFIG (default: the machine's).
#
# A throwaway cluster with uuidv7 preloaded and a key times SELECT count(f)
# over a table of ROWS UUIDv7s for: count(id) (the floor), uuidv7_generate(),
# and uuidv7_to_public() and uuidv7_from_public() under each scheme, ns a
# value above the floor, fastest of ROUNDS interleaved runs (noise on a
# shared machine only ever adds time).  Prints a Markdown table and writes it
# to test/bench/out/public_id.md.
#
# Sizes: ROWS (1000000), ROUNDS (7).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib.sh"
find_pg_config

ROWS=${ROWS:-1000000}
ROUNDS=${ROUNDS:-7}
bench_begin public-id

cluster_init uuidv7-bench-public-id "jit = off" "shared_preload_libraries = 'uuidv7'" \
	"uuidv7.public_id_key_file = 'uuidv7.keys'"
# a key file of a random key, as the server's OS user, mode 0600
echo "* $(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')" | as_pg_user tee "$CLUSTER_DIR/data/uuidv7.keys" >/dev/null
as_pg_user chmod 600 "$CLUSTER_DIR/data/uuidv7.keys"
cluster_run
psql_q "SET client_min_messages = warning; CREATE EXTENSION uuidv7"
create_bench_ms
"$PG_BINDIR/psql" -X -q -v ON_ERROR_STOP=1 <<SQL
CREATE TABLE ids AS SELECT uuidv7_generate() AS id FROM generate_series(1, $ROWS);
SET uuidv7.public_id_scheme = ff1;
CREATE TABLE public_ff1 AS SELECT uuidv7_to_public(id) AS id FROM ids;
SET uuidv7.public_id_scheme = uuidv47;
CREATE TABLE public_uuidv47 AS SELECT uuidv7_to_public(id) AS id FROM ids;
VACUUM ANALYZE;
SQL

# name|scheme|expression|table
cases=(
	"floor||id|ids"
	"uuidv7_generate()||uuidv7_generate()|ids"
	"ff1 to|ff1|uuidv7_to_public(id)|ids"
	"ff1 from|ff1|uuidv7_from_public(id)|public_ff1"
	"uuidv47 to|uuidv47|uuidv7_to_public(id)|ids"
	"uuidv47 from|uuidv47|uuidv7_from_public(id)|public_uuidv47"
)
declare -A ms=()
for _ in $(seq 1 "$ROUNDS"); do
	for c in "${cases[@]}"; do
		IFS='|' read -r name scheme expr table <<<"$c"
		ms[$name]+="$("$PG_BINDIR/psql" -X -q -At -v ON_ERROR_STOP=1 \
			-c "SET uuidv7.public_id_scheme = ${scheme:-ff1}" \
			-c "SELECT bench_ms('SELECT count($expr) FROM $table')") "
	done
done
floor=$(fastest_of ${ms[floor]})
ns() { awk -v ms="$(fastest_of ${ms[$1]})" -v floor="$floor" -v rows="$ROWS" 'BEGIN {printf "%.0f", (ms - floor) * 1e6 / rows}'; }
gen=$(ns "uuidv7_generate()")
version=$("$PG_BINDIR/postgres" --version | sed -E 's/^[^0-9]*([0-9][^ ]*).*/\1/')
{
	echo "## Public ids: ns per id above the count(id) floor, fastest of $ROUNDS runs over $ROWS ids"
	echo
	echo "$(date -u '+%Y-%m-%d %H:%M UTC'), PostgreSQL $version, $(nproc) cores, $(sed -n 's/^model name.*: //p' /proc/cpuinfo | head -1), $(openssl version 2>/dev/null || echo OpenSSL)"
	echo
	echo "| function | ns per id | / uuidv7_generate() |"
	echo "|---|---|---|"
	echo "| uuidv7_generate() | $gen | 1.00x |"
	for name in "ff1 to" "ff1 from" "uuidv47 to" "uuidv47 from"; do
		read -r scheme way <<<"$name"
		echo "| uuidv7_${way}_public(), $scheme | $(ns "$name") | $(ratio "$(ns "$name")" "$gen") |"
	done
} | tee "$OUT/public_id.md"
