#!/usr/bin/env bash
# test/t_preload.sh: with uuidv7 in shared_preload_libraries the postmaster
# loads the module before it forks any backend; every backend and parallel
# worker must still draw its own random bits.  Reruns the concurrency check,
# smaller, in such a cluster.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
find_pg_config

cluster_start uuidv7-preload "shared_preload_libraries = 'uuidv7'"
[ "$(psql_q "SHOW uuidv7.random_pool")" = "on" ]
SESSIONS=4 PER_SESSION=25000 BACKENDS=50 bash "$TOP/test/t_concurrency.sh"
