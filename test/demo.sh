#!/usr/bin/env bash
# test/demo.sh: the main job on a fresh machine.  Builds and installs
# uuidv7, starts a throwaway cluster, runs test/demo.sql in it (the life of a
# table partitioned by month on its UUIDv7 key: months made ahead, an early
# row rescued from the DEFAULT partition, old months retired, a day queried
# by time), then stops and removes the cluster.  test/shell/demo.sh checks it.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

ensure_build_deps
build_and_install
cluster_start uuidv7-demo
"$PG_BINDIR/psql" -X -e -f "$TOP/test/demo.sql"
