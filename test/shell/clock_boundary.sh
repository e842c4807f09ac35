#!/usr/bin/env bash
# test/shell/clock_boundary.sh: every pg_regress suite and isolation spec,
# each with a month's turn in UTC (also an hour's and a day's) falling at most
# half a second into it, on a cluster whose clock is set ahead.  Many tests
# count periods from now(), in statements apart (CALLs commit): a calendar
# turning between them changed their output, and a run across midnight
# failed.  Each such test either takes its expectations from one time or waits
# past a turn that is near (a DO block at its start, or at each section's);
# this check shows it does, where a run at the turn would otherwise be
# rare.  Only the server's real-time clock is moved (test/data/clock_offset.c,
# preloaded); pg_regress, psql and the monotonic clock keep the
# machine's.  BOUNDARY_SECONDS sets how far into each test the turn falls
# (0.5), which is how a window later in a test is found; BOUNDARY_TESTS names
# the tests to run (all).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
find_pg_config

work=$(mktemp -d /tmp/uuidv7-boundary.XXXXXX)
chmod 755 "$work"
at_exit 'rm -rf "$work"'
gcc -shared -fPIC -O2 -Wall -Werror -o "$work/clock_offset.so" "$TOP/test/data/clock_offset.c" -ldl
cluster_init uuidv7-boundary
cluster_run
pgxs=$(dirname "$("$PG_CONFIG" --pgxs)")/..
regress=$(sed -n 's/^REGRESS = //p' "$TOP/Makefile")
isolation=$(sed -n 's/^ISOLATION = //p' "$TOP/Makefile")
for name in ${BOUNDARY_TESTS:-}; do
	tr ' ' '\n' <<<"$regress $isolation" | grep -qx -- "$name" ||
		{ echo "BOUNDARY_TESTS: no suite or spec is named $name" >&2; exit 2; }
done
# restart_before_turn SECONDS: the server restarted with its clock SECONDS
# before the next month begins in UTC
restart_before_turn() {
	local now turn
	as_pg_user "$PG_BINDIR/pg_ctl" -D "$CLUSTER_DIR/data" -m fast -w stop >/dev/null
	now=$(date -u +%s.%N)
	turn=$(date -u -d "$(date -u -d "@$now" +%Y-%m-01) +1 month" +%s)
	CLUSTER_ENV="LD_PRELOAD=$work/clock_offset.so UUIDV7_CLOCK_OFFSET=$(awk -v t="$turn" -v n="$now" -v d="$1" \
		'BEGIN { printf "%.3f", t - n - d }')" cluster_run
}
# ahead_of_turn: whether the server's clock is still more than a tenth of a
# second before the turn it was set before (not past it, in the next month)
ahead_of_turn() {
	[ "$(psql_q "SELECT extract(epoch FROM date_trunc('month', clock_timestamp(), 'UTC') + interval '1 month'
		- clock_timestamp()) BETWEEN 0.1 AND 3600")" = t ]
}
status=0
# run_one KIND NAME: one suite (regress) or spec (isolation) from the tree,
# in a database made for it at the server's clock of the run before, the
# server then restarted so that the turn falls BOUNDARY_SECONDS into it
# (where the restart took that long, again with the time it took added: a
# test begun after the turn would pass without showing anything)
run_one() {
	local kind=$1 name=$2 runner rc=0 lead=${BOUNDARY_SECONDS:-0.5} ahead=
	case $kind in
		regress) runner=$pgxs/test/regress/pg_regress ;;
		isolation) runner=$pgxs/test/isolation/pg_isolation_regress ;;
	esac
	mkdir -p "$work/$kind-$name"
	"$pgxs/test/regress/pg_regress" --inputdir="$TOP" --outputdir="$work/$kind-$name" --bindir="$PG_BINDIR" \
		--load-extension=uuidv7 --dbname="boundary_$name" >"$work/$kind-$name.log" 2>&1 ||
		{ cat "$work/$kind-$name.log"; exit 1; }
	for _ in 1 2 3 4 5; do
		restart_before_turn "$lead"
		if ahead_of_turn; then
			ahead=1
			break
		fi
		lead=$(awk -v l="$lead" 'BEGIN { print l + 1 }')
	done
	if [ -z "$ahead" ]; then
		echo "$kind/$name: FAILED: each restart took longer than the turn's lead"
		status=1
		return
	fi
	"$runner" --inputdir="$TOP" --outputdir="$work/$kind-$name" --bindir="$PG_BINDIR" \
		--use-existing --dbname="boundary_$name" "$name" >>"$work/$kind-$name.log" 2>&1 || rc=$?
	if [ $rc -eq 0 ]; then
		echo "$kind/$name: ok (the turn at most $lead s into it)"
	else
		echo "$kind/$name: FAILED at the turn of the month (at most $lead s into it)"
		cat "$work/$kind-$name/regression.diffs" 2>/dev/null | head -n 60 || tail -n 20 "$work/$kind-$name.log"
		status=1
	fi
}
chown "$PG_OS_USER" "$work"
# (BOUNDARY_TESTS's names, matched whole)
chosen() { [ -z "${BOUNDARY_TESTS:-}" ] || tr ' ' '\n' <<<"$BOUNDARY_TESTS" | grep -qx -- "$1"; }
for name in $regress; do
	if chosen "$name"; then run_one regress "$name"; fi
done
for name in $isolation; do
	if chosen "$name"; then run_one isolation "$name"; fi
done
exit $status
