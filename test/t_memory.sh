#!/usr/bin/env bash
# test/t_memory.sh: 50 million generations in one session do not grow the
# backend's memory.  The backend's peak resident size (VmHWM), once the same
# query without our functions has run at the same size (PostgreSQL's own
# memory for 50 million rows), must not grow by more than 4 MB over 50
# million generations (GENERATIONS) and more shifted, backfilled and base32
# values.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
find_pg_config

GENERATIONS=${GENERATIONS:-50000000}
psql_q "CREATE DATABASE uuidv7_memory"
out=$("$PG_BINDIR/psql" -X -q -At -v ON_ERROR_STOP=1 -d uuidv7_memory <<SQL
SELECT pg_backend_pid() AS pid \gset
\setenv BACKEND_PID :pid
CREATE EXTENSION uuidv7;
SELECT count(1) FROM (SELECT generate_series(1, $GENERATIONS)) s;
\! sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\) kB/warm \1/p' /proc/\$BACKEND_PID/status
SELECT count(uuidv7_generate()) FROM (SELECT generate_series(1, $GENERATIONS)) s;
SELECT count(uuidv7_generate('-1 hour')) FROM (SELECT generate_series(1, $GENERATIONS / 10)) s;
SELECT count(uuidv7_generate_at('2025-01-01')) FROM (SELECT generate_series(1, $GENERATIONS / 10)) s;
SELECT count(uuidv7_to_base32(uuidv7_from_base32('01FWHE4YDGFK1SHH6W1G60EECF'))) FROM (SELECT generate_series(1, $GENERATIONS / 10)) s;
\! sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\) kB/after \1/p' /proc/\$BACKEND_PID/status
SQL
)
psql_q "DROP DATABASE uuidv7_memory"
warm=$(sed -n 's/^warm //p' <<<"$out")
after=$(sed -n 's/^after //p' <<<"$out")
echo "backend peak resident size: ${warm} kB after $GENERATIONS rows without generation, ${after} kB after $GENERATIONS generations and more"
[ -n "$warm" ] && [ -n "$after" ] && [ $((after - warm)) -le 4096 ]
