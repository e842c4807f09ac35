#!/usr/bin/env bash
# test/t_upkeep_load.sh: partition upkeep while the application reads,
# inserts, updates and deletes, and upkeep killed in the middle.
#
# A table keyed by uuid7, partitioned by month, with a DEFAULT partition and
# the months of December 2024 to February 2025.  Three sets of rows the
# clients know by key wait from February to July, most of them in DEFAULT:
# 1,000 that nobody changes (readers count them all, and look one up by
# key), 200 that updaters add 1 to, 8,000 that deleters delete, one each.
# Beside them:
#
# - writers insert rows at random instants of January to June, so that rows
#   of March to June keep arriving in DEFAULT;
# - readers count the fixed set (always 1,000) and look up one of its rows
#   by key (always 1 row), at REPEATABLE READ;
# - updaters and deleters change one row a transaction and record how many
#   rows each statement changed (it must be 1), at REPEATABLE READ where
#   pgbench retries serialization failures (15 and later), READ COMMITTED
#   before; no other failure is retried.
#
# Meanwhile a scheduler creates March, then April, May and June (moving the
# rows that wait), one call a second, then drops December and detaches
# January.  Checked: every upkeep call succeeds; no client fails; every
# count and lookup was exact; every update and delete changed its row; the
# rows found are the rows committed.
#
# Then a live table keyed by uuid7 is adopted while four clients insert
# into it.  Last, the server is killed in the middle of each call (a
# creation that moves rows, retention, and an adoption stopped after its
# bounds are set): every row is there after the restart, the table takes
# new rows, and the call completes when run again.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
find_pg_config

work=$(mktemp -d /tmp/uuidv7-upkeep-load.XXXXXX)
chmod 777 "$work"
cluster_start uuidv7-upkeep-load "max_connections = 40"
at_exit 'rm -rf "$work"'
q() { "$PG_BINDIR/psql" -X -q -At -v ON_ERROR_STOP=1 -c "$1"; }
status=0
check() { # check LABEL CONDITION-EXIT-CODE
	if [ "$2" -eq 0 ]; then echo "ok: $1"; else echo "FAILED: $1"; status=1; fi
}

q "CREATE EXTENSION uuidv7"
"$PG_BINDIR/psql" -X -q -v ON_ERROR_STOP=1 <<'SQL'
CREATE TABLE ev (id uuid7 PRIMARY KEY, client int NOT NULL, at timestamptz NOT NULL, v int NOT NULL DEFAULT 0)
PARTITION BY RANGE (id);
CREATE TABLE ev_default PARTITION OF ev DEFAULT;
SELECT count(*) FROM uuidv7_create_partitions('ev', '2024-12-01', '2025-03-01', '1 month', 'UTC');
INSERT INTO ev SELECT uuidv7_generate_at('2024-12-01 00:00+00'::timestamptz + g * interval '40 minutes'), 0, now()
FROM generate_series(1, 1000) g;
-- the keys of the sets the clients know, February to July
CREATE FUNCTION fixed_key(k int) RETURNS uuid LANGUAGE sql IMMUTABLE
	AS $$ SELECT uuidv7_min('2025-02-01 00:00+00'::timestamptz + k * interval '4 hours') $$;
CREATE FUNCTION counter_key(k int) RETURNS uuid LANGUAGE sql IMMUTABLE
	AS $$ SELECT uuidv7_min('2025-02-01 00:00:01+00'::timestamptz + k * interval '20 hours') $$;
CREATE FUNCTION doomed_key(k int) RETURNS uuid LANGUAGE sql IMMUTABLE
	AS $$ SELECT uuidv7_min('2025-02-01 00:00:02+00'::timestamptz + k * interval '30 minutes') $$;
INSERT INTO ev (id, client, at) SELECT fixed_key(k), -1, now() FROM generate_series(0, 999) k;
INSERT INTO ev (id, client, at) SELECT counter_key(k), -2, now() FROM generate_series(0, 199) k;
INSERT INTO ev (id, client, at) SELECT doomed_key(k), -3, now() FROM generate_series(0, 7999) k;
CREATE SEQUENCE doomed;
-- what the clients saw and did
CREATE TABLE reads (what text, n bigint);
CREATE TABLE updates (k int, n bigint);
CREATE TABLE deletes (k int, n bigint);
SQL

upkeep_writer_script >"$work/writer.sql"
cat >"$work/reader.sql" <<'EOF'
\set k random(0, 999)
BEGIN;
INSERT INTO reads SELECT 'count', count(*) FROM ev WHERE client = -1;
INSERT INTO reads SELECT 'lookup', count(*) FROM ev WHERE id = fixed_key(:k);
END;
EOF
cat >"$work/updater.sql" <<'EOF'
\set k random(0, 199)
WITH u AS (UPDATE ev SET v = v + 1 WHERE id = counter_key(:k) RETURNING 1) INSERT INTO updates SELECT :k, count(*) FROM u;
EOF
cat >"$work/deleter.sql" <<'EOF'
SELECT nextval('doomed') - 1 AS k \gset
WITH d AS (DELETE FROM ev WHERE id = doomed_key(:k) RETURNING 1) INSERT INTO deletes SELECT :k, count(*) FROM d;
\sleep 3 ms
EOF

# REPEATABLE READ where pgbench retries what fails with 40001 (15 and later)
changers=(env)
retries=()
if "$PG_BINDIR/pgbench" --help | grep -q -- --max-tries; then
	changers=(env "PGOPTIONS=-c default_transaction_isolation=repeatable\\ read")
	retries=(--max-tries=1000)
fi
seconds=${LOAD_SECONDS:-10}
run() { # run NAME CLIENTS [pgbench options...]: in the background
	local name=$1 clients=$2
	shift 2
	"$@" >"$work/$name.out" 2>&1 &
	pids+=($!)
	names+=("$name")
}
pids=()
names=()
run writers 2 "$PG_BINDIR/pgbench" -n -c 2 -j 1 -T "$seconds" -f "$work/writer.sql"
run readers 1 env "PGOPTIONS=-c default_transaction_isolation=repeatable\\ read" \
	"$PG_BINDIR/pgbench" -n -c 1 -T "$seconds" -f "$work/reader.sql"
run updaters 1 "${changers[@]}" "$PG_BINDIR/pgbench" -n -c 1 -T "$seconds" "${retries[@]}" -f "$work/updater.sql"
run deleters 1 "${changers[@]}" "$PG_BINDIR/pgbench" -n -c 1 -T "$seconds" "${retries[@]}" -f "$work/deleter.sql"

upkeep() { # upkeep LABEL SQL: one call of the scheduler, its outcome recorded
	local rc=0
	q "$2" >"$work/call.out" 2>&1 || rc=$?
	echo "$1: $([ $rc -eq 0 ] && echo ok || echo "FAILED $(head -n 1 "$work/call.out")")" | tee -a "$work/calls.txt"
}
: >"$work/calls.txt"
sleep 2
for month in 03 04 05 06; do
	upkeep "create 2025-$month" "SELECT partition_name || ' moved ' || moved FROM uuidv7_create_partitions('ev',
		'2025-$month-01 00:00+00', '2025-$month-01 00:00+00'::timestamptz + interval '1 month', '1 month', 'UTC')"
	sleep 1
done
upkeep "drop 2024-12" "SELECT * FROM uuidv7_drop_partitions('ev', '2025-01-01 00:00+00')"
sleep 1
upkeep "detach 2025-01" "SELECT * FROM uuidv7_drop_partitions('ev', '2025-02-01 00:00+00', detach_only => true)"
failed_clients=0
for i in "${!pids[@]}"; do
	wait "${pids[$i]}" || { echo "${names[$i]}: pgbench failed"; failed_clients=$((failed_clients + 1)); }
	echo "${names[$i]}: $(grep -E '^number of (transactions actually processed|failed transactions)|aborted' "$work/${names[$i]}.out" | tr '\n' ' ')"
done

processed=$(sed -nE 's/^number of transactions actually processed: ([0-9]+).*/\1/p' "$work/writers.out")
calls_ok=$(grep -c ': ok$' "$work/calls.txt" || true)
check "6 upkeep calls under readers, writers, updaters and deleters" $([ "$calls_ok" = 6 ]; echo $?)
check "no client failed" $([ "$failed_clients" = 0 ] && ! grep -q -E 'aborted|^number of failed transactions: [1-9]' "$work"/*.out; echo $?)
read -r reads bad_reads <<<"$(q "SELECT count(*), count(*) FILTER (WHERE n <> CASE what WHEN 'count' THEN 1000 ELSE 1 END) FROM reads" | tr '|' ' ')"
echo "reads: $reads, of which wrong: $bad_reads"
check "every count of the fixed set and every lookup exact" $([ "$reads" -gt 0 ] && [ "$bad_reads" = 0 ]; echo $?)
read -r updates bad_updates sum_v <<<"$(q "SELECT count(*), count(*) FILTER (WHERE n <> 1), (SELECT sum(v) FROM ev WHERE client = -2) FROM updates" | tr '|' ' ')"
echo "updates: $updates, of which changed no row: $bad_updates; the counters add up to $sum_v"
check "every update changed its row, and none was lost" $([ "$updates" -gt 0 ] && [ "$bad_updates" = 0 ] && [ "$sum_v" = "$updates" ]; echo $?)
read -r deletes bad_deletes left <<<"$(q "SELECT count(*), count(*) FILTER (WHERE n <> 1),
	(SELECT count(*) FROM ev WHERE client = -3 AND id IN (SELECT doomed_key(k) FROM deletes)) FROM deletes" | tr '|' ' ')"
echo "deletes: $deletes, of which deleted no row: $bad_deletes; deleted rows still there: $left"
check "every delete deleted its row" $([ "$deletes" -gt 0 ] && [ "$bad_deletes" = 0 ] && [ "$left" = 0 ]; echo $?)
found=$(q "SELECT (SELECT count(*) FROM ev WHERE client >= 0) + (SELECT count(*) FROM ev_p2025_01 WHERE client >= 0)")
check "the rows found are the writers' ($((processed * 5)))" $([ "$found" = $((processed * 5)) ]; echo $?)
in_default=$(q "SELECT count(*) FROM ev_default WHERE id >= uuidv7_min('2025-02-01 00:00+00') AND id < uuidv7_min('2025-07-01 00:00+00')")
check "no row of a created period left in DEFAULT" $([ "$in_default" = 0 ]; echo $?)
echo "partitions: $(q "SELECT string_agg(partition::text, ' ' ORDER BY period_start NULLS LAST) FROM uuidv7_partitions('ev')")"

# adoption of a live table while it is written to
q "CREATE TABLE legacy (id uuid7 PRIMARY KEY DEFAULT uuidv7_generate(), client int NOT NULL, at timestamptz NOT NULL)"
q "INSERT INTO legacy SELECT uuidv7_generate_at(now() - g * interval '1 hour'), 0, now() FROM generate_series(1, 2000) g"
{
	echo "BEGIN;"
	for r in 1 2 3 4 5; do echo "INSERT INTO legacy (client, at) VALUES (:client_id, clock_timestamp());"; done
	echo "END;"
} >"$work/legacy.sql"
"$PG_BINDIR/pgbench" -n -c 4 -j 2 -T 8 -f "$work/legacy.sql" >"$work/pgbench-legacy.out" 2>&1 &
writers=$!
sleep 2
adopt_rc=0
q "CALL uuidv7_adopt_table('legacy', '1 month', 'UTC')" >"$work/adopt.out" 2>&1 || adopt_rc=$?
rc=0
wait "$writers" || rc=$?
processed=$(sed -nE 's/^number of transactions actually processed: ([0-9]+).*/\1/p' "$work/pgbench-legacy.out")
aborted=$(grep -c 'aborted' "$work/pgbench-legacy.out" || true)
found=$(q "SELECT count(*) FROM legacy")
partitioned=$(q "SELECT relkind FROM pg_class WHERE oid = 'legacy'::regclass")
echo "adopt under writers: call exit $adopt_rc $(head -n 1 "$work/adopt.out"), pgbench exit $rc, clients aborted: $aborted"
echo "rows: $found found, $((2000 + processed * 5)) committed; legacy's relkind now: $partitioned"
check "a live table adopted under writers, every row found" $([ "$adopt_rc" = 0 ] && [ "$rc" = 0 ] && [ "$aborted" = 0 ] &&
	[ "$processed" -gt 0 ] && [ "$found" = $((2000 + processed * 5)) ] && [ "$partitioned" = p ]; echo $?)

# The server killed in the middle of a call: while the call waits for a lock
# that a transaction holds, or, for the move, the moment it holds its locks,
# before it moves 200,000 rows.  kill_during LABEL SQL HOLD_SQL: SQL
# started while HOLD_SQL's transaction holds its locks, the server killed
# once SQL waits for them, then restarted.
restart_killed() { # once the killed server is gone
	for _ in $(seq 1 100); do
		as_pg_user "$PG_BINDIR/pg_ctl" -D "$CLUSTER_DIR/data" status >/dev/null 2>&1 || break
		sleep 0.1
	done
	cluster_run
}
kill_server() {
	as_pg_user "$PG_BINDIR/pg_ctl" -D "$CLUSTER_DIR/data" -m immediate -w stop >/dev/null
	wait "$@" 2>/dev/null || true
	restart_killed
}
# kill_when CONDITION: in the background, a session that kills the server
# (SIGQUIT to the postmaster, as pg_ctl's immediate mode) the moment the
# condition holds, checked every millisecond from inside the server, so
# that no call can finish between the moment and the kill; its process id in
# $watcher
kill_when() {
	"$PG_BINDIR/psql" -X -q >/dev/null 2>&1 <<-SQL &
		DO \$\$
		DECLARE
			postmaster text := split_part(pg_read_file('postmaster.pid'), E'\\n', 1);
		BEGIN
			FOR i IN 1..60000 LOOP
				IF $1 THEN
					EXECUTE format('COPY (SELECT 1) TO PROGRAM %L', 'kill -QUIT ' || postmaster);
				END IF;
				PERFORM pg_sleep(0.001);
			END LOOP;
		END
		\$\$;
	SQL
	watcher=$!
}
kill_during() {
	local label=$1 sql=$2 hold=$3 holder call
	"$PG_BINDIR/psql" -X -q -c "BEGIN; $hold; SELECT pg_sleep(60); COMMIT;" >/dev/null 2>&1 &
	holder=$!
	sleep 0.5
	q "$sql" >"$work/killed.out" 2>&1 &
	call=$!
	for _ in $(seq 1 200); do
		[ "$(q "SELECT count(*) FROM pg_stat_activity WHERE query LIKE '%uuidv7_%' AND wait_event_type = 'Lock'
			AND pid <> pg_backend_pid()")" -gt 0 ] && break
		sleep 0.05
	done
	kill_server "$call" "$holder"
	echo "$label: server killed while the call waited, restarted"
}
digest() { q "SELECT count(*), sum(v) FROM crash" | tr '|' ' '; }
q "CREATE TABLE crash (id uuid7 PRIMARY KEY, v int NOT NULL) PARTITION BY RANGE (id)"
q "CREATE TABLE crash_default PARTITION OF crash DEFAULT"
q "SELECT count(*) FROM uuidv7_create_partitions('crash', '2025-01-01', '2025-02-01', '1 month', 'UTC')" >/dev/null
q "INSERT INTO crash SELECT uuidv7_generate_at('2025-01-01 00:00+00'::timestamptz + g * interval '1 minute'), 1 FROM generate_series(1, 20000) g"
q "INSERT INTO crash SELECT uuidv7_generate_at('2025-02-01 00:00+00'::timestamptz + g * interval '10 seconds'), 2 FROM generate_series(1, 200000) g"
q "CHECKPOINT"
before=$(digest)
kill_during "create" "SELECT * FROM uuidv7_create_partitions('crash', '2025-02-01', '2025-03-01', '1 month', 'UTC')" \
	"INSERT INTO crash VALUES (uuidv7_min('2025-01-20 00:00+00'), 0)"
check "every row there after a kill during creation" $([ "$(digest)" = "$before" ]; echo $?)
kill_when "EXISTS (SELECT FROM pg_locks WHERE relation = 'crash'::regclass AND mode = 'AccessExclusiveLock' AND granted)"
q "SELECT * FROM uuidv7_create_partitions('crash', '2025-02-01', '2025-03-01', '1 month', 'UTC')" >"$work/killed.out" 2>&1 || true
wait "$watcher" || true
restart_killed
echo "create, moving 200,000 rows: server killed once it held its locks, restarted"
check "the killed move committed nothing, and every row is there" $(! grep -q crash_p2025_02 "$work/killed.out" &&
	[ "$(digest)" = "$before" ]; echo $?)
q "INSERT INTO crash VALUES (uuidv7_min('2025-02-20 00:00+00'), 0)"
moved=$(q "SELECT moved FROM uuidv7_create_partitions('crash', '2025-02-01', '2025-03-01', '1 month', 'UTC')")
check "creation completes when run again (moved $moved)" $([ "$moved" = 200001 ] &&
	[ "$(q "SELECT count(*) FROM ONLY crash_default")" = 0 ]; echo $?)
before=$(digest)
kill_during "retention" "SELECT * FROM uuidv7_drop_partitions('crash', '2025-02-01')" "SELECT count(*) FROM crash"
check "every row there after a kill during retention" $([ "$(digest)" = "$before" ]; echo $?)
check "retention completes when run again" $([ "$(q "SELECT count(*) FROM uuidv7_drop_partitions('crash', '2025-02-01')")" = 1 ]; echo $?)

# adoption: killed at its first lock, then as soon as its bounds are set
# (the table's CHECK), before it validates them
q "CREATE TABLE live (id uuid7 PRIMARY KEY DEFAULT uuidv7_generate(), v int NOT NULL)"
q "INSERT INTO live (id, v) SELECT uuidv7_generate_at(now() - g * interval '1 minute'), 1 FROM generate_series(1, 50000) g"
kill_during "adoption" "CALL uuidv7_adopt_table('live', '1 month', 'UTC')" "LOCK live IN SHARE UPDATE EXCLUSIVE MODE"
kill_when "EXISTS (SELECT FROM pg_constraint WHERE conname = 'uuidv7_adopt_bounds')"
q "CALL uuidv7_adopt_table('live', '1 month', 'UTC')" >"$work/killed.out" 2>&1 || true
wait "$watcher" || true
restart_killed
bounds=$(q "SELECT count(*) FROM pg_constraint WHERE conname = 'uuidv7_adopt_bounds'")
echo "adoption: server killed after its bounds were set (bounds left: $bounds), restarted"
q "INSERT INTO live (v) VALUES (1)"
q "INSERT INTO live (id, v) VALUES (uuidv7_generate_at(date_trunc('month', now(), 'UTC') + interval '1 month 20 days'), 1)"
check "a stopped adoption left a table with every row, that takes this month's and next month's" \
	$([ "$bounds" = 1 ] && [ "$(q "SELECT relkind FROM pg_class WHERE oid = 'live'::regclass")" = r ] &&
	[ "$(q "SELECT count(*) FROM live")" = 50002 ]; echo $?)
q "CALL uuidv7_adopt_table('live', '1 month', 'UTC')"
check "adoption completes when run again, every row there" $([ "$(q "SELECT relkind FROM pg_class WHERE oid = 'live'::regclass")" = p ] &&
	[ "$(q "SELECT count(*) FROM live")" = 50002 ] &&
	[ "$(q "SELECT count(*) FROM uuidv7_partitions('live') WHERE period_start >= date_trunc('month', now(), 'UTC') + interval '2 months'")" = 3 ]; echo $?)
exit $status
