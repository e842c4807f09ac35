# Copyright (c) uuidv7 contributors
#
# The maintenance worker (src/worker.c): with uuidv7 preloaded, the tables
# with a policy keep themselves, with no scheduler.  In two databases named
# by uuidv7.maintenance_databases (a third is not), as the role
# uuidv7.maintenance_role names: periods made ahead and retired, on its
# interval, each run recorded; a table of another owner left to its owner;
# nothing in a database without the extension; a table whose code takes
# too long is cancelled at uuidv7.maintenance_table_timeout, one whose code
# catches the cancel ends the worker at twice it and runs last in the next,
# and the other tables' and databases' runs go on; the doctor expects runs on
# the worker's interval where it runs; a worker's slot is a
# background worker's, never a client connection's; after the launcher is
# killed, and after a backend crashes, it comes back and runs again; a fast
# shutdown stops it.  What keeps it from running is named by the doctor (a
# role that cannot log in, a database in the list that does not exist).
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Uuidv7Test;

my $node = uuidv7_node('keeper', "shared_preload_libraries = 'uuidv7'",
	"uuidv7.maintenance_databases = 'app1, \"App 2\", no_extension'",
	"uuidv7.maintenance_role = 'regress_keeper'", 'uuidv7.maintenance_interval = 1',
	"uuidv7.maintenance_table_timeout = '2s'",
	'restart_after_crash = on');

$node->safe_psql('postgres', q{
	CREATE ROLE regress_keeper LOGIN;
	CREATE ROLE regress_other LOGIN;
	CREATE DATABASE app1 OWNER regress_keeper;
	CREATE DATABASE "App 2" OWNER regress_keeper;
	CREATE DATABASE app3 OWNER regress_keeper;
	CREATE DATABASE no_extension});
# each database: events, with last month's periods and a policy of a week
# ahead and ten days kept, owned by the keeper; theirs, the same, owned by
# another role
for my $db ('app1', 'App 2', 'app3')
{
	$node->safe_psql($db, q{
		SET client_min_messages = warning;
		CREATE EXTENSION uuidv7;
		GRANT CREATE ON SCHEMA public TO regress_other;
		SET ROLE regress_keeper;
		CREATE TABLE events (id uuid7 PRIMARY KEY) PARTITION BY RANGE (id);
		SELECT count(*) FROM uuidv7_create_partitions('events', now() - interval '30 days', now(), '1 day', 'UTC');
		SELECT uuidv7_set_partition_policy('events', ahead => '7 days', keep => '10 days');
		RESET ROLE;
		CREATE TABLE theirs (id uuid7 PRIMARY KEY) PARTITION BY RANGE (id);
		ALTER TABLE theirs OWNER TO regress_other;
		SET ROLE regress_other;
		SELECT count(*) FROM uuidv7_create_partitions('theirs', now() - interval '30 days', now(), '1 day', 'UTC');
		SELECT uuidv7_set_partition_policy('theirs', ahead => '7 days', keep => '10 days');});
}

# app1: slow, the keeper's, whose index function sleeps a minute in the
# worker when tomorrow's row waiting in DEFAULT moves: each run of it is
# cancelled at the table timeout, and the other tables' and databases' runs
# go on
$node->safe_psql('app1', q{
	SET client_min_messages = warning;
	SET ROLE regress_keeper;
	CREATE TABLE slow (id uuid7 PRIMARY KEY, v int) PARTITION BY RANGE (id);
	CREATE TABLE slow_default PARTITION OF slow DEFAULT;
	CREATE FUNCTION slow_key(v int) RETURNS int LANGUAGE plpgsql IMMUTABLE AS $$
	BEGIN
		IF (SELECT backend_type FROM pg_catalog.pg_stat_activity WHERE pid = pg_catalog.pg_backend_pid()) = 'uuidv7 maintenance' THEN
			PERFORM pg_catalog.pg_sleep(60);
		END IF;
		RETURN v;
	END
	$$;
	CREATE INDEX ON slow (slow_key(v));
	SELECT uuidv7_set_partition_policy('slow', ahead => '3 days', step => '1 day', zone => 'UTC');
	-- (tomorrow's period, made by the policy's call, taken away: its row
	-- waits in DEFAULT for the worker to make it again)
	DO $$ BEGIN EXECUTE format('DROP TABLE slow_p%s', to_char((now() AT TIME ZONE 'UTC') + interval '1 day', 'YYYY_MM_DD')); END $$;
	INSERT INTO slow VALUES (uuidv7_generate_at(now() + interval '1 day'), 1);
	-- stubborn: the same, its function catching the cancel, and going on
	CREATE TABLE stubborn (id uuid7 PRIMARY KEY, v int) PARTITION BY RANGE (id);
	CREATE TABLE stubborn_default PARTITION OF stubborn DEFAULT;
	CREATE FUNCTION stubborn_key(v int) RETURNS int LANGUAGE plpgsql IMMUTABLE AS $$
	DECLARE
		t0 timestamptz := pg_catalog.clock_timestamp();
	BEGIN
		IF (SELECT backend_type FROM pg_catalog.pg_stat_activity WHERE pid = pg_catalog.pg_backend_pid()) = 'uuidv7 maintenance' THEN
			WHILE pg_catalog.clock_timestamp() < t0 + interval '60 seconds' LOOP
				BEGIN
					PERFORM pg_catalog.pg_sleep(0.2);
				EXCEPTION WHEN query_canceled THEN
					NULL;
				END;
			END LOOP;
		END IF;
		RETURN v;
	END
	$$;
	CREATE INDEX ON stubborn (stubborn_key(v));
	SELECT uuidv7_set_partition_policy('stubborn', ahead => '3 days', step => '1 day', zone => 'UTC');
	DO $$ BEGIN EXECUTE format('DROP TABLE stubborn_p%s', to_char((now() AT TIME ZONE 'UTC') + interval '1 day', 'YYYY_MM_DD')); END $$;
	INSERT INTO stubborn VALUES (uuidv7_generate_at(now() + interval '1 day'), 1);
	-- tail: after stubborn by name
	CREATE TABLE tail (id uuid7 PRIMARY KEY) PARTITION BY RANGE (id);
	SELECT count(*) FROM uuidv7_create_partitions('tail', now() - interval '2 days', now(), '1 day', 'UTC');
	SELECT uuidv7_set_partition_policy('tail', ahead => '3 days');});

# runs(DB): the runs recorded there of events, and of theirs
sub runs
{
	my ($db) = @_;
	return $node->safe_psql($db,
		q{SELECT count(*) FILTER (WHERE parent = 'public.events') || ' ' || count(*) FILTER (WHERE parent = 'public.theirs')
		  FROM uuidv7_maintenance_runs});
}

# (the first runs come within a second or so of the start)
# (the policy's own call is a run too, which retires nothing: the worker's
# first run is the one that retired the old periods, and its retirement is
# done once the run's record has it)
ok( $node->poll_query_until('app1',
		"SELECT count(*) >= 3 AND count(*) FILTER (WHERE retired > 0) >= 1 FROM uuidv7_maintenance_runs WHERE parent = 'public.events'"),
	'app1: the worker ran, and ran again on its interval');
ok( $node->poll_query_until('App 2',
		"SELECT count(*) FILTER (WHERE retired > 0) >= 1 FROM uuidv7_maintenance_runs WHERE parent = 'public.events'"),
	'App 2: the worker ran');
for my $db ('app1', 'App 2')
{
	# (polled: just after midnight UTC, the days counted from now() have
	# moved, and the worker's next run, seconds away, moves the periods)
	ok( $node->poll_query_until($db, q{
			SELECT min(period_start) = date_trunc('day', now() - interval '10 days', 'UTC')
				AND max(period_end) >= now() + interval '7 days'
			FROM uuidv7_partitions('events')}),
		"$db: events kept a week ahead and ten days back");
	is( $node->safe_psql($db,
			q{SELECT bool_and(error IS NULL) FROM uuidv7_maintenance_runs WHERE parent = 'public.events'}),
		't', "$db: every run of events without error");
	# (theirs: one run, its policy's own call)
	like(runs($db), qr/^\d+ 1$/, "$db: theirs, of another owner, left to its owner");
}
ok( $node->poll_query_until('app1',
		"SELECT count(*) >= 2 FROM uuidv7_maintenance_runs WHERE parent = 'public.slow' AND sqlstate = '57014'"),
	'app1: slow, cancelled at the table timeout in each run, is recorded so');
ok( $node->wait_for_log(qr/uuidv7 maintenance of the table of OID \d+ went on past twice uuidv7\.maintenance_table_timeout, its cancel caught: the worker ended it/),
	'app1: stubborn, whose code catches the cancel, ends the worker at twice the timeout');
ok( $node->poll_query_until('app1',
		"SELECT count(*) >= 2 FROM uuidv7_maintenance_runs WHERE parent = 'public.tail' AND sqlstate IS NULL"),
	'app1: tail, after stubborn by name, runs: the table that ended a worker runs last in the next');
my $app2_runs = $node->safe_psql('App 2', 'SELECT count(*) FROM uuidv7_maintenance_runs');
ok( $node->poll_query_until('App 2', "SELECT count(*) > $app2_runs FROM uuidv7_maintenance_runs"),
	'App 2, after app1 in each round: its runs go on');
is(runs('app3'), '1 1', 'app3, not named: no run but the policies\' own calls');
is( $node->safe_psql('app3', "SELECT min(period_start) < now() - interval '20 days' FROM uuidv7_partitions('events')"),
	't', 'app3: no period retired');
# the doctor expects a run on the worker's interval where the worker runs
# (app1: theirs, which the worker's role may not alter, last run an hour
# ago), daily where it does not (app3, not named)
for my $db ('app1', 'app3')
{
	$node->safe_psql($db, q{
		SET ROLE regress_other;
		INSERT INTO uuidv7_maintenance_history (parent_schema, parent_name, parent_oid, started_at, duration)
		VALUES ('public', 'theirs', 'theirs'::regclass, now() - interval '1 hour', '1 second');});
}
my $overdue = q{SELECT problem || ' / ' || fix FROM uuidv7_doctor() WHERE object = 'public.theirs' AND problem LIKE '%maintenance run%'};
like(
	$node->safe_psql('app1', $overdue),
	qr/^it has a policy, but no maintenance run since .* \(the maintenance worker runs here every 00:00:01\) \/ give uuidv7\.maintenance_role the rights of the table's owner, as a superuser or a role with ADMIN OPTION on regress_other: GRANT regress_other TO regress_keeper$/,
	'app1: the doctor finds a policy not run for twice the worker\'s interval, and names the grant');
is($node->safe_psql('app3', $overdue), '', 'app3, where the worker does not run: an hour without a run is no finding');
# a superuser's table: the fix never grants a superuser's rights to the
# worker's role
$node->safe_psql('app1', q{
	SET client_min_messages = warning;
	CREATE TABLE super_owned (id uuid7 PRIMARY KEY) PARTITION BY RANGE (id);
	SELECT count(*) FROM uuidv7_create_partitions('super_owned', now(), now() + interval '1 day', '1 day', 'UTC');
	SELECT uuidv7_set_partition_policy('super_owned', ahead => '1 day');});
# (its policy's own call is its last run: the finding comes twice the
# worker's interval after it)
ok( $node->poll_query_until('app1',
		q{SELECT fix LIKE 'the worker does not take a superuser''s rights: give the table an owner that is no superuser and that regress_keeper is a member of (ALTER TABLE public.super\_owned OWNER TO ...)%'
		  FROM uuidv7_doctor() WHERE object = 'public.super_owned' AND problem LIKE '%maintenance run%'}),
	'a superuser\'s table: the fix names no GRANT of a superuser');

# what keeps the worker from running is named by the doctor: a role that
# cannot log in (the worker's connection fails, and the log holds a FATAL),
# and a database in the list that does not exist
$node->safe_psql('postgres', 'ALTER ROLE regress_keeper NOLOGIN');
ok( $node->poll_query_until('app1',
		q{SELECT fix = 'the role uuidv7.maintenance_role names cannot log in, which the worker needs: ALTER ROLE regress_keeper LOGIN'
		  FROM uuidv7_doctor() WHERE object = 'public.events' AND problem LIKE 'it has a policy, but no maintenance run since %'}),
	'a role that cannot log in: the doctor names it, and the ALTER ROLE that fixes it');
$node->safe_psql('postgres', 'ALTER ROLE regress_keeper LOGIN');
$node->append_conf('postgresql.conf',
	"uuidv7.maintenance_databases = 'app1, \"App 2\", no_extension, \"Gone\", gone_too'");
$node->reload;
ok( $node->poll_query_until('App 2',
		q{SELECT string_agg(object || ': ' || problem, ' / ' ORDER BY problem COLLATE "C") FROM uuidv7_doctor() WHERE severity = 'warning' AND object = 'uuidv7.maintenance_databases'},
		'uuidv7.maintenance_databases: it names database "Gone", which does not exist: the maintenance worker runs nothing there / '
		  . 'uuidv7.maintenance_databases: it names database gone_too, which does not exist: the maintenance worker runs nothing there'),
	'a database in the list that does not exist: the doctor names it, from any database');
$node->append_conf('postgresql.conf', "uuidv7.maintenance_databases = 'app1, \"App 2\", no_extension'");
$node->reload;
# launcher_pid(): the launcher's process, a child of the postmaster of no
# database (pg_stat_activity does not list it)
sub launcher_pid
{
	open my $pidfile, '<', $node->data_dir . '/postmaster.pid' or die;
	chomp(my $postmaster = <$pidfile>);
	close $pidfile;
	for my $stat (glob '/proc/[0-9]*/stat')
	{
		open my $f, '<', $stat or next;
		my $line = <$f> // next;
		my ($pid, $ppid) = $line =~ /^(\d+) \(.*\) \S (\d+)/ or next;
		next unless $ppid == $postmaster;
		open my $cmd, '<', "/proc/$pid/cmdline" or next;
		my $cmdline = <$cmd> // '';
		return $pid if $cmdline =~ /uuidv7 maintenance launcher/;
	}
	return undef;
}
ok(defined launcher_pid(), 'the launcher runs, a background worker of no database');
is( $node->safe_psql('postgres',
		"SELECT count(*) FROM pg_stat_activity WHERE usename = 'regress_keeper' AND backend_type = 'client backend'"),
	'0', 'the workers take no client connection (each is a background worker)');

# after the launcher is killed (a crash: every process restarts), and after a
# backend crashes, the worker comes back and runs again
sub runs_after
{
	my ($what) = @_;
	my $before = $node->safe_psql('app1', 'SELECT count(*) FROM uuidv7_maintenance_runs');
	$what->();
	$node->poll_query_until('postgres', 'SELECT 1', '1') or die 'no restart';
	return $node->poll_query_until('app1', "SELECT count(*) > $before FROM uuidv7_maintenance_runs");
}
ok( runs_after(
		sub {
			kill 'KILL', launcher_pid();
		}),
	'the launcher killed: it comes back and runs again');
ok( runs_after(
		sub {
			my $victim = IPC::Run::start([ 'psql', '-X', '-q', '-d', $node->connstr('postgres'),
					'-c', 'SELECT pg_sleep(60)' ], '>', \my $out, '2>', \my $err);
			$node->poll_query_until('postgres',
				"SELECT count(*) = 1 FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(60)'")
			  or die 'no sleeping session';
			kill 'KILL', $node->safe_psql('postgres', "SELECT pid FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(60)'");
			$victim->finish;
		}),
	'a backend crashed: the worker comes back and runs again');

# a fast shutdown stops it (the framework's stop fails if the server does not)
$node->stop('fast');
like(slurp_file($node->logfile), qr/database system is shut down\n\z/, 'a fast shutdown stops the launcher and its workers');

done_testing();
