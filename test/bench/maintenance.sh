#!/usr/bin/env bash
# test/bench/maintenance.sh: one maintenance run over many partitioned
# tables, alone and beside a writing application, and the maintenance
# worker's CPU while there is nothing to do.
#
# TABLES tables m_1 ... m_N (id uuid7 PRIMARY KEY, v int), each with
# PARTITIONS UTC days of partitions (the last ending a week from today), a
# DEFAULT partition, a row a day, made by the DDL uuidv7_partition_ddl writes
# and given a policy by uuidv7_set_partition_policy.  CALL
# uuidv7_run_maintenance() is timed (wall clock) as:
#
#   nothing to do      every table's periods there, none old enough to retire
#   nightly            each table a period created and a period dropped
#   nightly, writers   the same (the next day's) beside WRITERS pgbench
#                      clients, each inserting a row into a random table,
#                      started two seconds after them
#
# with the writers' throughput, longest and 99th-percentile latency beside
# the same writers alone (the floor), run for as long (RUN_SECONDS, or
# enough to outlast the nightly run).  The counts of periods created and
# retired come from uuidv7_maintenance_runs, and are checked.
#
# Then the server restarts with the library preloaded, the worker running
# in the database every WORKER_INTERVAL seconds, and autovacuum off (its
# workers would count): the CPU the launcher and its database workers use
# over WORKER_SECONDS (the launcher's own from /proc, the workers', which
# exit, as the postmaster's reaped children's), with no policy, and with
# every table's policy and nothing to do.  Prints Markdown and writes it to
# test/bench/out/maintenance.md.
#
# Sizes: TABLES (100), PARTITIONS (1000), WRITERS (2), RUN_SECONDS (30),
# WORKER_INTERVAL (10), WORKER_SECONDS (120); the server of PG_CONFIG.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib.sh"
find_pg_config

TABLES=${TABLES:-100}
PARTITIONS=${PARTITIONS:-1000}
WRITERS=${WRITERS:-2}
RUN_SECONDS=${RUN_SECONDS:-30}
WORKER_INTERVAL=${WORKER_INTERVAL:-10}
WORKER_SECONDS=${WORKER_SECONDS:-120}
bench_begin maintenance
settings=("shared_buffers = 1GB" "max_locks_per_transaction = 1024" "jit = off" "max_wal_size = 4GB"
	"checkpoint_timeout = 30min")
cluster_start uuidv7-bench-maintenance "${settings[@]}"
export PGTZ=UTC
psql_q "CREATE EXTENSION uuidv7"

psql_in() { "$PG_BINDIR/psql" -X -q -At -v ON_ERROR_STOP=1 "$@"; }

# the tables, each in a transaction of its own: days d0 ... today + 6
echo "== $TABLES tables of $PARTITIONS partitions" >&2
for t in $(seq "$TABLES"); do
	psql_in >/dev/null <<-SQL
		SET client_min_messages = warning;
		CREATE TABLE m_$t (id uuid7 PRIMARY KEY DEFAULT uuidv7_generate(), v int) PARTITION BY RANGE (id);
		CREATE TABLE m_${t}_default PARTITION OF m_$t DEFAULT;
		DO \$\$
		DECLARE
			d record;
		BEGIN
			FOR d IN SELECT ddl FROM uuidv7_partition_ddl('m_$t', current_date - ($PARTITIONS - 7), current_date + 7,
														   '1 day', 'UTC') LOOP
				EXECUTE d.ddl;
			END LOOP;
		END
		\$\$;
		INSERT INTO m_$t (id, v)
		SELECT uuidv7_generate_at((current_date - ($PARTITIONS - 7))::timestamptz + g * interval '1 day' + interval '1 hour'), g
		FROM generate_series(0, $PARTITIONS - 1) g;
	SQL
done
[ "$(psql_in -c "SELECT count(*) FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhparent WHERE c.relname ~ '^m_[0-9]+\$'")" \
	-eq $((TABLES * (PARTITIONS + 1))) ] || { echo "maintenance.sh: the tables have not their partitions" >&2; exit 1; }
psql_q "VACUUM ANALYZE"
psql_q "CHECKPOINT"

# policy AHEAD_DAYS KEEP_DAYS: every table's
policy() {
	psql_in -c "SELECT count(uuidv7_set_partition_policy(format('m_%s', t)::regclass, $1, $2, step => '1 day', zone => 'UTC'))
		FROM generate_series(1, $TABLES) t" >/dev/null
}

# maintain LABEL CREATED RETIRED: one run, timed, its counts checked; prints seconds
maintain() {
	local t0 t1 counts
	psql_q "TRUNCATE uuidv7_maintenance_history"
	t0=$(date +%s.%N)
	PGOPTIONS="-c client_min_messages=warning" psql_in -c "CALL uuidv7_run_maintenance()"
	t1=$(date +%s.%N)
	counts=$(psql_in -F ' ' -c "SELECT count(*), sum(created), sum(retired), count(sqlstate) FROM uuidv7_maintenance_runs")
	[ "$counts" = "$TABLES $2 $3 0" ] ||
		{ echo "maintenance.sh: $1: runs, created, retired, errors: $counts, not $TABLES $2 $3 0" >&2; exit 1; }
	awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.2f\n", b - a}'
}

# (inserts into any of the tables, today's partition)
cat >"$work/writer.sql" <<-'EOF'
	\set t random(1, :tables)
	INSERT INTO m_:t (v) VALUES (:t);
EOF

# writers SECONDS LABEL [SQL]: the writers for SECONDS, SQL run two seconds
# in (its seconds saved in $work/LABEL.call); prints "tps max_ms p99_ms"
writers() {
	local pid
	rm -f "$work"/log-"$2".*
	(cd "$work" && "$PG_BINDIR/pgbench" -n -c "$WRITERS" -j "$WRITERS" -T "$1" -l --log-prefix="log-$2" \
		-D tables="$TABLES" -f writer.sql >"$work/$2.out" 2>&1) &
	pid=$!
	if [ -n "${3:-}" ]; then
		sleep 2
		eval "$3" >"$work/$2.call"
	fi
	wait "$pid" || { cat "$work/$2.out" >&2; exit 1; }
	if grep -q -E 'aborted|^number of failed transactions: [1-9]' "$work/$2.out"; then
		cat "$work/$2.out" >&2
		exit 1
	fi
	printf '%.0f' "$(sed -nE 's/^tps = ([0-9.]+) \((without initial|excluding).*/\1/p' "$work/$2.out" | head -n 1)"
	# (the log's third field: each transaction's latency in microseconds)
	sort -n -k3,3 "$work"/log-"$2".* | awk '{ v[NR] = $3 } END { printf " %.1f %.1f\n", v[NR] / 1000, v[int(NR * 0.99)] / 1000 }'
}

# today + 6 made; nothing older than d0 + 1 day
days_kept() { echo "'$(($1)) days'"; }
policy "'6 days'" "$(days_kept "PARTITIONS - 7")"
idle_nothing=$(maintain "nothing to do" 0 0)
policy "'7 days'" "$(days_kept "PARTITIONS - 8")"
idle_nightly=$(maintain "nightly" "$TABLES" "$TABLES")
policy "'8 days'" "$(days_kept "PARTITIONS - 9")"
seconds=$(awk -v r="$RUN_SECONDS" -v n="$idle_nightly" 'BEGIN {s = int(n * 2 + 10); print (s > r) ? s : r}')
out=$(writers "$seconds" alone)
read -r -a floor <<<"$out"
out=$(writers "$seconds" nightly "maintain 'nightly, writers' $TABLES $TABLES")
read -r -a beside <<<"$out"
busy_nightly=$(cat "$work/nightly.call")
[ -n "$busy_nightly" ] || { echo "maintenance.sh: no time for the run beside the writers" >&2; exit 1; }

# the worker: CPU ticks of the launcher and of the postmaster's reaped
# children over WORKER_SECONDS
ticks() { awk '{print $14 + $15, $16 + $17}' "/proc/$1/stat"; }
worker_cpu() {
	local launcher postmaster l0 c0 l1 c1 hz
	hz=$(getconf CLK_TCK)
	postmaster=$(head -n 1 "$CLUSTER_DIR/data/postmaster.pid")
	for _ in $(seq 50); do
		# (a background worker of no database: not in pg_stat_activity)
		launcher=$(pgrep -P "$postmaster" -f 'uuidv7 maintenance launcher' || true)
		[ -n "$launcher" ] && break
		sleep 0.2
	done
	[ -n "$launcher" ] || { echo "maintenance.sh: no launcher" >&2; exit 1; }
	sleep "$WORKER_INTERVAL"
	read -r l0 _ <<<"$(ticks "$launcher")"
	read -r _ c0 <<<"$(ticks "$postmaster")"
	sleep "$WORKER_SECONDS"
	read -r l1 _ <<<"$(ticks "$launcher")"
	read -r _ c1 <<<"$(ticks "$postmaster")"
	awk -v l="$((l1 - l0))" -v c="$((c1 - c0))" -v hz="$hz" -v s="$WORKER_SECONDS" \
		'BEGIN {printf "%.2f %.2f %.3f\n", 1000 * l / hz, 1000 * c / hz, 100 * (l + c) / hz / s}'
}
cat >>"$CLUSTER_DIR/data/postgresql.conf" <<-EOF
	shared_preload_libraries = 'uuidv7'
	uuidv7.maintenance_databases = '$PGDATABASE'
	uuidv7.maintenance_role = '$PGUSER'
	uuidv7.maintenance_interval = $WORKER_INTERVAL
	autovacuum = off
EOF
policy NULL NULL
as_pg_user "$PG_BINDIR/pg_ctl" -D "$CLUSTER_DIR/data" -w restart >/dev/null
out=$(worker_cpu)
read -r -a no_policy <<<"$out"
psql_q "TRUNCATE uuidv7_maintenance_history"
policy "'8 days'" "$(days_kept "PARTITIONS - 9")"
out=$(worker_cpu)
read -r -a policies <<<"$out"
worker_runs=$(psql_in -F ' ' -c "SELECT count(*) / $TABLES, round(1000 * extract(epoch FROM avg(duration)) * $TABLES, 0),
	sum(created) + sum(retired), count(sqlstate) FROM uuidv7_maintenance_runs")
read -r runs run_ms changed errors <<<"$worker_runs"
[ "$changed" = 0 ] && [ "$errors" = 0 ] && [ "$runs" -ge 1 ] ||
	{ echo "maintenance.sh: the worker's runs: $worker_runs" >&2; exit 1; }

report="$OUT/maintenance.md"
{
	echo "PostgreSQL $("$PG_BINDIR/postgres" --version | sed -E 's/^[^0-9]*([0-9][^ ]*).*/\1/'), $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores;" \
		"$TABLES tables of $PARTITIONS daily partitions; $WRITERS writers for $seconds s"
	echo
	echo "| CALL uuidv7_run_maintenance() | its time | writers' tps | vs. alone | writers' longest, p99 |"
	echo "|---|---:|---:|---:|---:|"
	echo "| nothing to do, no writers | $idle_nothing s | | | |"
	echo "| nightly (a period created and one dropped a table), no writers | $idle_nightly s | | | |"
	echo "| none: the writers alone | | ${floor[0]} | | ${floor[1]} ms, ${floor[2]} ms |"
	echo "| nightly, beside the writers | $busy_nightly s | ${beside[0]} | $(ratio "${beside[0]}" "${floor[0]}") | ${beside[1]} ms, ${beside[2]} ms |"
	echo
	echo "| the worker, every $WORKER_INTERVAL s, over $WORKER_SECONDS s | launcher's CPU | its database workers' CPU | share of one core |"
	echo "|---|---:|---:|---:|"
	echo "| no table with a policy | ${no_policy[0]} ms | ${no_policy[1]} ms | ${no_policy[2]} % |"
	echo "| $TABLES policies, nothing to do ($runs runs, $run_ms ms each in maintenance) | ${policies[0]} ms | ${policies[1]} ms | ${policies[2]} % |"
} >"$report"
cat "$report"
