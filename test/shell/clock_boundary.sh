#!/usr/bin/env bash
# test/shell/clock_boundary.sh: every pg_regress suite and isolation spec,
# each begun two seconds before a month turns in UTC (also an hour and a
# day), on a cluster whose clock is set ahead.  Many tests count periods
# from now(), in statements apart (CALLs commit): a calendar turning between
# them changed their output, and a run across midnight failed.  Each such
# test either takes its expectations from one time or waits past a turn
# that is near (a DO block at its start); this check shows it does, where
# a run at the turn would otherwise be rare.  Only the server's real-time
# clock is moved (test/data/clock_offset.c, preloaded); pg_regress, psql
# and the monotonic clock keep the machine's.  BOUNDARY_SECONDS sets how
# long before the turn each begins (2), BOUNDARY_TESTS which run (all):
# a turn later in a test, where it has a window, is found so.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
find_pg_config

work=$(mktemp -d /tmp/uuidv7-boundary.XXXXXX)
chmod 755 "$work"
at_exit 'rm -rf "$work"'
gcc -shared -fPIC -O2 -Wall -Werror -o "$work/clock_offset.so" "$TOP/test/data/clock_offset.c" -ldl
cluster_init uuidv7-boundary
# at_turn: the server restarted with its clock BOUNDARY_SECONDS before the
# next month begins in UTC
at_turn() {
	local now turn
	as_pg_user "$PG_BINDIR/pg_ctl" -D "$CLUSTER_DIR/data" -m fast -w stop >/dev/null 2>&1 || true
	now=$(date -u +%s.%N)
	turn=$(date -u -d "$(date -u -d "@$now" +%Y-%m-01) +1 month" +%s)
	CLUSTER_ENV="LD_PRELOAD=$work/clock_offset.so UUIDV7_CLOCK_OFFSET=$(awk -v t="$turn" -v n="$now" -v d="${BOUNDARY_SECONDS:-2}" 'BEGIN { printf "%.3f", t - n - d }')" cluster_run
}
pgxs=$(dirname "$("$PG_CONFIG" --pgxs)")/..
regress=$(sed -n 's/^REGRESS = //p' "$TOP/Makefile")
isolation=$(sed -n 's/^ISOLATION = //p' "$TOP/Makefile")
status=0
# run_one KIND NAME: one suite (regress) or spec (isolation) from the tree,
# in a database made for it
run_one() {
	local kind=$1 name=$2 runner rc=0
	case $kind in
		regress) runner=$pgxs/test/regress/pg_regress ;;
		isolation) runner=$pgxs/test/isolation/pg_isolation_regress ;;
	esac
	mkdir -p "$work/$kind-$name"
	at_turn
	"$runner" --inputdir="$TOP" --outputdir="$work/$kind-$name" --bindir="$PG_BINDIR" \
		--load-extension=uuidv7 --dbname=boundary_regression "$name" >"$work/$kind-$name.log" 2>&1 || rc=$?
	if [ $rc -eq 0 ]; then
		echo "$kind/$name: ok"
	else
		echo "$kind/$name: FAILED at the turn of the month"
		cat "$work/$kind-$name/regression.diffs" 2>/dev/null | head -n 60 || tail -n 20 "$work/$kind-$name.log"
		status=1
	fi
}
chown "$PG_OS_USER" "$work"
for name in $regress; do
	[ -z "${BOUNDARY_TESTS:-}" ] || grep -qw -- "$name" <<<"$BOUNDARY_TESTS" && run_one regress "$name"
done
for name in $isolation; do
	[ -z "${BOUNDARY_TESTS:-}" ] || grep -qw -- "$name" <<<"$BOUNDARY_TESTS" && run_one isolation "$name"
done
exit $status
