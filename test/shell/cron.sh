#!/usr/bin/env bash
# test/shell/cron.sh: the pg_cron recipe of docs/partitioning.md ("Keeping it
# ahead, on a schedule"), walked as the page has it: the provider's part by a
# superuser, in pg_cron's database; the application's part by a role that is
# no superuser (its policy in its own database, its job scheduled with
# cron.schedule_in_database from pg_cron's); then run by pg_cron itself.
#
# The blocks of SQL the page marks are taken from the page as it stands;
# then the job's schedule is moved to every minute (in the table cron.job,
# which pg_cron watches) and the test waits for the run (pg_cron before 1.5
# counts in whole minutes, so this takes up to about a minute).  Beside the
# page's orders, a table whose next period cannot be made makes the run
# fail: it checks that cron.job_run_details records the run as failed,
# naming that table, and that orders was kept all the same: this month and
# the next three exist, an early row waiting in the DEFAULT partition moved
# into its month, and exactly the months that ended before the cut are gone,
# the straddling one kept.
#
# pg_cron comes from Debian: the package of the server's suite (bookworm's
# 1.4 for the machine's 15, bullseye's 1.3, trixie's and sid's 1.6 in the
# roots of 13, 17 and 18), or bullseye's package unpacked into a server of
# 13 built from source.  Where Debian has none (19), or one without
# cron.schedule_in_database (1.3), the test is skipped (77); a package that
# does not install fails it.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
find_pg_config

work=$(mktemp -d /tmp/uuidv7-cron.XXXXXX)
at_exit 'rm -rf "$work"'

# install_pg_cron: pg_cron for the server of PG_CONFIG, from Debian's binary
# packages; 77 where Debian has none for it
install_pg_cron() {
	local deb
	if [ -f "$("$PG_CONFIG" --pkglibdir)/pg_cron.so" ]; then
		return 0
	fi
	if [ "$PG_CONFIG" = "/usr/lib/postgresql/$PG_MAJOR/bin/pg_config" ]; then
		apt_update || return 1
		as_root flock /run/lock/uuidv7-apt apt-cache show "postgresql-$PG_MAJOR-cron" >/dev/null 2>&1 || return 77
		apt_install "postgresql-$PG_MAJOR-cron" || return 1
		return 0
	fi
	[ "$PG_MAJOR" = 13 ] || return 77
	# a server built from source: unpack the package's module and scripts
	# into its own directories
	debian_apt "$work/apt" bullseye || return 1
	(cd "$work" && apt-get "${APT_OPTS[@]}" -qq download "postgresql-$PG_MAJOR-cron") || return 1
	deb=$(ls "$work"/postgresql-"$PG_MAJOR"-cron_*.deb) || return 1
	dpkg-deb -x "$deb" "$work/deb" || return 1
	as_root cp "$work/deb/usr/lib/postgresql/$PG_MAJOR/lib/pg_cron.so" "$("$PG_CONFIG" --pkglibdir)/" || return 1
	as_root cp "$work"/deb/usr/share/postgresql/"$PG_MAJOR"/extension/pg_cron* "$("$PG_CONFIG" --sharedir)/extension/" || return 1
}

rc=0
install_pg_cron || rc=$?
case $rc in
	0) ;;
	77)
		echo "Debian has no build of pg_cron for PostgreSQL $PG_MAJOR: skipped"
		exit 77
		;;
	*)
		echo "pg_cron could not be installed" >&2
		exit 1
		;;
esac

# the recipe, exactly as the page shows it: its three blocks, each run as
# the page says, by whom and where
block() {
	awk -v marker="$1" 'index($0, "<!-- needs: pg_cron (test/shell/cron.sh runs this block " marker ") -->") { marked = 1; next }
		marked && /^```sql$/ { inside = 1; next }
		inside && /^```$/ { exit }
		inside { print }' "$TOP/docs/partitioning.md"
}
block "as a superuser, in the database of cron.database_name" >"$work/provider.sql"
block "as the application's role, in its database" >"$work/policy.sql"
block "as the application's role, in the database of cron.database_name" >"$work/schedule.sql"
grep -q 'GRANT' "$work/provider.sql" && grep -q 'uuidv7_set_partition_policy' "$work/policy.sql" &&
	grep -q 'cron.schedule_in_database' "$work/schedule.sql" ||
	{ echo "the recipe's three blocks are not in docs/partitioning.md" >&2; exit 1; }

# jobs reach the server through its socket, TCP being off
cluster_init uuidv7-cron "shared_preload_libraries = 'pg_cron'" "cron.database_name = 'postgres'"
echo "cron.host = '$CLUSTER_DIR'" >>"$CLUSTER_DIR/data/postgresql.conf"
cluster_run

# the application's database and its role, which is no superuser
psql_q "CREATE ROLE app_owner LOGIN" >/dev/null
psql_q "CREATE DATABASE app OWNER app_owner" >/dev/null
"$PG_BINDIR/psql" -X -q -v ON_ERROR_STOP=1 -U app_owner -d app >/dev/null <<'SQL'
SET client_min_messages = warning;
CREATE EXTENSION uuidv7;
CREATE TABLE public.orders (
	id uuid7 PRIMARY KEY DEFAULT uuidv7_generate(),
	customer_id bigint NOT NULL,
	total numeric(12, 2) NOT NULL
) PARTITION BY RANGE (id);
CREATE TABLE public.orders_default PARTITION OF public.orders DEFAULT;
-- two years of months up to this one, and a row for the month after next,
-- which waits in the DEFAULT partition until its month is made
SELECT count(*) FROM uuidv7_create_partitions('public.orders',
	date_trunc('month', now() - interval '24 months', 'UTC'), now(), '1 month', 'UTC');
INSERT INTO public.orders (id, customer_id, total)
VALUES (uuidv7_generate_at(now() + interval '2 months'), 1, 9.99);
-- stuck: a table whose next month's period cannot be made (its name taken
-- by a table of another kind), so that the scheduled run fails
CREATE TABLE public.stuck (id uuid7 PRIMARY KEY) PARTITION BY RANGE (id);
SELECT uuidv7_set_partition_policy('public.stuck', ahead => '2 months', step => '1 month', zone => 'UTC');
DO $$ BEGIN EXECUTE format('DROP TABLE stuck_p%1$s; CREATE TABLE stuck_p%1$s (id uuid7)',
						   to_char((now() AT TIME ZONE 'UTC') + interval '1 month', 'YYYY_MM')); END $$;
SQL
# pg_cron's schedule_in_database came with 1.4
"$PG_BINDIR/psql" -X -q -v ON_ERROR_STOP=1 -c "CREATE EXTENSION pg_cron" >/dev/null
if [ "$(psql_q "SELECT to_regprocedure('cron.schedule_in_database(text,text,text,text,text,boolean)') IS NULL")" = t ]; then
	echo "pg_cron $(psql_q "SELECT extversion FROM pg_extension WHERE extname = 'pg_cron'") has no cron.schedule_in_database (1.4 and later): skipped"
	exit 77
fi
# the provider's part, as a superuser; then the application's role, as the
# page has it (its policy in its database, its job from pg_cron's)
"$PG_BINDIR/psql" -X -q -v ON_ERROR_STOP=1 -f "$work/provider.sql" >/dev/null
"$PG_BINDIR/psql" -X -q -v ON_ERROR_STOP=1 -U app_owner -d app -c "SET client_min_messages = warning" -f "$work/policy.sql" >/dev/null
"$PG_BINDIR/psql" -X -q -v ON_ERROR_STOP=1 -U app_owner -d postgres -f "$work/schedule.sql" >/dev/null
[ "$(psql_q "SELECT rolsuper FROM pg_roles WHERE rolname = 'app_owner'")" = f ] || exit 1
# (the checks follow the UTC month of the run, which pg_cron starts at the
# next minute's start, and of pg_cron's record of it: begin after a month
# that ends within three minutes, so that none turns between them)
psql_q "DO \$\$ BEGIN PERFORM pg_sleep(extract(epoch FROM b - clock_timestamp()) + 0.1) FROM (SELECT date_trunc('month', clock_timestamp() + interval '3 min', 'UTC') AS b) s WHERE b > clock_timestamp(); END \$\$" >/dev/null
psql_q "UPDATE cron.job SET schedule = '* * * * *'" >/dev/null

# wait for a run of the job to end (a minute and a little more at most)
for _ in $(seq 1 90); do
	finished=$(psql_q "SELECT count(DISTINCT jobid) FROM cron.job_run_details WHERE status IN ('succeeded', 'failed')")
	[ "$finished" -ge 1 ] && break
	sleep 2
done

"$PG_BINDIR/psql" -X -q -At -v ON_ERROR_STOP=1 >"$work/out.txt" <<'SQL'
-- the time the job ran
SELECT coalesce(min(start_time), now()) AS ran FROM cron.job_run_details \gset
SELECT 'runs: ' || string_agg(j.jobname || ' ' || j.username || ' ' || j.database || ' ' || d.status, ', ' ORDER BY j.jobname, d.status)
FROM (SELECT DISTINCT jobid, status FROM cron.job_run_details WHERE status IN ('succeeded', 'failed')) d
	JOIN cron.job j USING (jobid);
SELECT 'failures: ' || coalesce(string_agg(return_message, '; '), 'none')
FROM cron.job_run_details WHERE status = 'failed';
\c app
SELECT 'maintenance runs: ' || string_agg(format('%s %s ok %s failed', parent, ok, failed), ', ' ORDER BY parent)
FROM (SELECT parent, count(*) FILTER (WHERE error IS NULL) AS ok, count(*) FILTER (WHERE error IS NOT NULL) AS failed
	  FROM uuidv7_maintenance_runs GROUP BY parent) r;
SELECT 'months ahead: ' || count(*) FROM uuidv7_partitions('public.orders')
WHERE period_start > date_trunc('month', :'ran'::timestamptz, 'UTC');
SELECT 'early rows in DEFAULT: ' || count(*) FROM public.orders_default;
SELECT 'early row in its month: ' || count(*) FROM public.orders o
	JOIN uuidv7_partitions('public.orders') p ON p.partition = o.tableoid
WHERE uuidv7_timestamp(o.id) >= p.period_start AND uuidv7_timestamp(o.id) < p.period_end;
SELECT 'ended before the cut: ' || count(*) FROM uuidv7_partitions('public.orders')
WHERE period_end <= :'ran'::timestamptz - interval '13 months';
SELECT 'first month straddles the cut: ' || (min(period_start) < :'ran'::timestamptz - interval '13 months'
	AND min(period_end) > :'ran'::timestamptz - interval '13 months')
FROM uuidv7_partitions('public.orders');
SELECT 'gaps: ' || count(*) FROM (
	SELECT upper_bound, lead(lower_bound) OVER (ORDER BY lower_bound) AS next_lower
	FROM uuidv7_partitions('public.orders') WHERE period_start IS NOT NULL) p
WHERE next_lower IS NOT NULL AND next_lower <> upper_bound;
SQL
cat "$work/out.txt"

value() { sed -n "s/^$1: //p" "$work/out.txt"; }
# (the run failed, for stuck, and said so to pg_cron; orders was kept all
# the same, by the role that is no superuser)
[ "$(value runs)" = "uuidv7 maintenance app_owner app failed" ] &&
	[[ "$(value failures)" == "ERROR:  the maintenance of public.stuck (42P07) failed"* ]] &&
	[ "$(value "maintenance runs")" = "public.orders 2 ok 0 failed, public.stuck 1 ok 1 failed" ] &&
	[ "$(value "months ahead")" = 3 ] &&
	[ "$(value "early rows in DEFAULT")" = 0 ] &&
	[ "$(value "early row in its month")" = 1 ] &&
	[ "$(value "ended before the cut")" = 0 ] &&
	[ "$(value "first month straddles the cut")" = true ] &&
	[ "$(value gaps)" = 0 ] ||
	{ tail -n 20 "$CLUSTER_DIR/server.log"; exit 1; }
