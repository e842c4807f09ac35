# Copyright (c) uuidv7 contributors
#
# Tables that keep themselves, from the clock's point of view, through a
# month (the default tier) or a year (UUIDV7_TIER=full): three tables of
# grids of an hour, a day and a month in Europe/Berlin (the month crosses a
# change of its clocks), each with a policy and a DEFAULT partition.  The
# clock is moved a day at a time with libfaketime, preloaded into the
# server, and after each step the maintenance entry point is called from a
# session, as the worker calls it (the postmaster's other children, the
# worker among them, keep the real clock).  Beside each call, writers and
# readers run with prepared statements and generic plans: each transaction
# writes a row to a table and to a ledger, and readers check, in one
# snapshot, that a table holds as many rows of the last hours as the ledger
# says, at READ COMMITTED and REPEATABLE READ.  Maintenance is down for five
# days once, and the postmaster is killed in the middle of a run once.
# At the end: no transaction failed, no row of a period still kept is lost
# or left in DEFAULT, the grid within keep has no hole, and amcheck finds
# nothing wrong with any index or heap.  (Under libfaketime PostgreSQL's
# timeouts never fire, lock_timeout among them: upkeep's short tries wait
# here as plain lock waits do.  Each pgbench client has a thread of its
# own, so that one whose statement waits never holds back another's open
# transaction, which the wait would then be waiting for.)
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Uuidv7Test;

my ($faketime) = grep { -f } glob('/usr/lib/*/faketime/libfaketime.so.1 /usr/lib/faketime/libfaketime.so.1');
plan skip_all => 'libfaketime is not installed' unless $faketime;

my $days = ($ENV{UUIDV7_TIER} // 'default') eq 'full' ? 365 : 30;
my $outage_from = 12;    # the day maintenance stops, for five days
my $killed_on = 20;      # the day the postmaster is killed in a run

# The clock starts on 2027-03-15 12:00 UTC (Berlin's clocks change on the
# 28th), as an offset from now in seconds, rewritten at each step.
my $offset_file = PostgreSQL::Test::Utils::tempdir() . '/offset';
my $start_offset = 1805112000 - time();    # 2027-03-15 12:00:00 UTC
sub set_day
{
	my ($day) = @_;
	open my $fh, '>', "$offset_file.new" or die;
	printf $fh "%+ds\n", $start_offset + 86400 * $day;
	close $fh;
	rename "$offset_file.new", $offset_file or die;
}
set_day(0);

my $node = PostgreSQL::Test::Cluster->new('soak');
$node->init;
$node->append_conf('postgresql.conf', "max_connections = 40\nfsync = off\n");
sub start_faked
{
	local $ENV{LD_PRELOAD} = $faketime;
	local $ENV{FAKETIME_TIMESTAMP_FILE} = $offset_file;
	local $ENV{FAKETIME_NO_CACHE} = 1;
	local $ENV{FAKETIME_DONT_FAKE_MONOTONIC} = 1;
	$node->start;
}
start_faked();
is($node->safe_psql('postgres', q{SELECT now()::date}), '2027-03-15', 'the server\'s clock starts on 2027-03-15');

$node->safe_psql('postgres', q{
	SET client_min_messages = warning;
	CREATE EXTENSION uuidv7;
	CREATE EXTENSION amcheck;
	SET TimeZone = 'Europe/Berlin';
	CREATE TABLE ledger (tbl text NOT NULL, id uuid NOT NULL);
	CREATE INDEX ON ledger (tbl, id);
	CREATE TABLE hourly (id uuid7 PRIMARY KEY DEFAULT uuidv7_generate(), v int NOT NULL) PARTITION BY RANGE (id);
	CREATE TABLE hourly_default PARTITION OF hourly DEFAULT;
	SELECT uuidv7_set_partition_policy('hourly', ahead => '12 hours', keep => '7 days', step => '1 hour', zone => 'Europe/Berlin');
	CREATE TABLE daily (id uuid7 PRIMARY KEY DEFAULT uuidv7_generate(), v int NOT NULL) PARTITION BY RANGE (id);
	CREATE TABLE daily_default PARTITION OF daily DEFAULT;
	SELECT uuidv7_set_partition_policy('daily', ahead => '3 days', keep => '10 days', step => '1 day', zone => 'Europe/Berlin');
	CREATE TABLE monthly (id uuid7 PRIMARY KEY DEFAULT uuidv7_generate(), v int NOT NULL) PARTITION BY RANGE (id);
	CREATE TABLE monthly_default PARTITION OF monthly DEFAULT;
	SELECT uuidv7_set_partition_policy('monthly', ahead => '2 months', keep => '3 months', step => '1 month', zone => 'Europe/Berlin');
});

# the application: writers of each table, readers that check a table
# against the ledger over the last six hours in one snapshot (a division by
# zero where they differ), all prepared, with generic plans
my $dir = PostgreSQL::Test::Utils::tempdir();
for my $t ('hourly', 'daily', 'monthly')
{
	open my $w, '>', "$dir/write_$t.sql" or die;
	print $w "BEGIN;\n"
	  . "WITH r AS (INSERT INTO $t (v) VALUES (1) RETURNING id) INSERT INTO ledger SELECT '$t', id FROM r;\n"
	  . "END;\n";
	close $w;
	open my $r, '>', "$dir/read_$t.sql" or die;
	print $r "SELECT 1 / (SELECT CASE WHEN (SELECT count(*) FROM $t WHERE id >= now() - interval '6 hours')"
	  . " = (SELECT count(*) FROM ledger WHERE tbl = '$t' AND id >= uuidv7_min(now() - interval '6 hours')) THEN 1 ELSE 0 END);\n";
	close $r;
	open my $rr, '>', "$dir/read_rr_$t.sql" or die;
	print $rr "BEGIN ISOLATION LEVEL REPEATABLE READ;\n"
	  . "SELECT count(*) FROM $t WHERE id >= now() - interval '6 hours';\n"
	  . "SELECT 1 / (SELECT CASE WHEN (SELECT count(*) FROM $t WHERE id >= now() - interval '6 hours')"
	  . " = (SELECT count(*) FROM ledger WHERE tbl = '$t' AND id >= uuidv7_min(now() - interval '6 hours')) THEN 1 ELSE 0 END);\n"
	  . "END;\n";
	close $rr;
}
my @scripts = map { ("-f", "$dir/write_$_.sql\@4", "-f", "$dir/read_$_.sql\@1", "-f", "$dir/read_rr_$_.sql\@1") }
  ('hourly', 'daily', 'monthly');
my %generic = (PGOPTIONS => '-c plan_cache_mode=force_generic_plan -c TimeZone=Europe/Berlin');

# children_of(PID): the processes whose parent is PID
sub children_of
{
	my ($parent) = @_;
	my @children;
	for my $stat (glob '/proc/[0-9]*/stat')
	{
		open my $f, '<', $stat or next;
		my $line = <$f> // next;
		my ($pid, $ppid) = $line =~ /^(\d+) \(.*\) \S (\d+)/ or next;
		push @children, $pid if $ppid == $parent;
	}
	return @children;
}

my $failed_runs = 0;
my $transactions = 0;
my @bad;
for my $day (0 .. $days)
{
	set_day($day) if $day > 0;
	my $app = pgbench_start($node, 'postgres', \%generic, '-M', 'prepared', '-c', '2', '-j', '2', '-t', '100', @scripts);
	my $maintained = !($day >= $outage_from && $day < $outage_from + 5);
	if ($day == $killed_on)
	{
		# the postmaster killed while a run makes and retires periods;
		# the application's sessions end with it, and start again after
		my $run = psql_start($node, 'postgres', 'CALL uuidv7_run_maintenance()');
		$node->poll_query_until('postgres',
			q{SELECT count(*) > 0 FROM pg_stat_activity WHERE query = 'CALL uuidv7_run_maintenance()'})
		  or die 'no run to kill';
		open my $pidfile, '<', $node->data_dir . '/postmaster.pid' or die;
		chomp(my $pid = <$pidfile>);
		close $pidfile;
		my @children = children_of($pid);
		kill 'KILL', $pid;
		eval { $run->{run}->finish };
		pgbench_finish($app);
		# (its children, orphaned, end as they see it gone: the server
		# starts again once none is attached to its shared memory)
		for (1 .. 600)
		{
			last unless grep { kill 0, $_ } @children;
			select(undef, undef, undef, 0.1);
		}
		# (the framework will not start a node whose pid file is there, as
		# a killed postmaster leaves it; its children are gone)
		unlink $node->data_dir . '/postmaster.pid' or die "postmaster.pid: $!";
		$node->_update_pid(0);
		start_faked();
		$app = pgbench_start($node, 'postgres', \%generic, '-M', 'prepared', '-c', '2', '-j', '2', '-t', '100', @scripts);
	}
	$node->safe_psql('postgres', 'SET client_min_messages = warning; CALL uuidv7_run_maintenance()') if $maintained;
	my ($ok, $out) = pgbench_finish($app);
	my ($done) = $out =~ /number of transactions actually processed: (\d+)/;
	$transactions += $done // 0;
	push @bad, "day $day: $out" unless $ok && ($done // 0) == 200;
	$failed_runs += $node->safe_psql('postgres',
		q{SELECT count(*) FROM uuidv7_maintenance_runs WHERE sqlstate IS NOT NULL AND started_at > now() - interval '1 hour'});
}

# (one more run: the periods of the last day's rows made, as the next
# scheduled run would)
$node->safe_psql('postgres', 'SET client_min_messages = warning; CALL uuidv7_run_maintenance()');

is(join("\n", @bad), '', "no transaction of the application failed over $days days ($transactions transactions)");
is($failed_runs, 0, 'no maintenance run failed');
is( $node->safe_psql('postgres', q{
		SELECT string_agg(t || ' ' || n, ', ' ORDER BY t)
		FROM (SELECT 'hourly' AS t, count(*) AS n FROM ONLY hourly_default
			  UNION ALL SELECT 'daily', count(*) FROM ONLY daily_default
			  UNION ALL SELECT 'monthly', count(*) FROM ONLY monthly_default) d}),
	'daily 0, hourly 0, monthly 0', 'no row left in DEFAULT');
# every row the ledger has of a period still kept is in its table
is( $node->safe_psql('postgres', q{
		WITH oldest AS (SELECT t, (SELECT min(p.lower_bound) FROM uuidv7_partitions(t::regclass) p) AS bound
						FROM unnest(ARRAY['hourly', 'daily', 'monthly']) t),
			everything AS (SELECT id FROM hourly UNION ALL SELECT id FROM daily UNION ALL SELECT id FROM monthly)
		SELECT string_agg(o.t || ' ' || (SELECT count(*) FROM ledger l
										 WHERE l.tbl = o.t AND l.id >= o.bound
											 AND NOT EXISTS (SELECT FROM everything e WHERE e.id = l.id)), ', ' ORDER BY o.t)
		FROM oldest o}),
	'daily 0, hourly 0, monthly 0', 'no row of a kept period lost');
# no hole from the oldest partition within keep to the last, which reaches
# ahead; none older than keep left
is( $node->safe_psql('postgres', q{
		SET TimeZone = 'Europe/Berlin';
		SELECT string_agg(format('%s %s %s %s', c.parent, p.gaps, p.last_end >= now() + c.ahead, p.first_end > now() - c.keep - c.step), ', ' ORDER BY c.parent::text)
		FROM (SELECT parent_name::regclass AS parent, ahead, keep, step FROM uuidv7_partition_config) c,
			LATERAL (SELECT count(*) FILTER (WHERE q.lower_bound <> q.previous) AS gaps, max(q.period_end) AS last_end,
						 min(q.period_end) AS first_end
					 FROM (SELECT x.*, lag(x.upper_bound) OVER (ORDER BY x.lower_bound) AS previous
						   FROM uuidv7_partitions(c.parent) x WHERE x.lower_bound IS NOT NULL) q) p}),
	'daily 0 t t, hourly 0 t t, monthly 0 t t', 'each grid whole within keep, ahead as far as its policy asks, and nothing older than keep');
# amcheck: every btree index of every partition and of the ledger, with
# its heap (an error fails the query)
cmp_ok( $node->safe_psql('postgres', q{
		SELECT count(bt_index_check(i.indexrelid, true))
		FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam
		WHERE a.amname = 'btree' AND c.relkind = 'i'
			AND (i.indrelid IN (SELECT inhrelid FROM pg_inherits) OR i.indrelid = 'ledger'::regclass)}),
	'>', 0, 'amcheck finds every index of every partition sound, each with its heap');
SKIP:
{
	skip 'verify_heapam comes with PostgreSQL 14', 1 if $node->safe_psql('postgres', 'SHOW server_version_num') < 140000;
	is( $node->safe_psql('postgres', q{
			SELECT count(*) FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid AND c.relkind = 'r',
				LATERAL verify_heapam(i.inhrelid) v}),
		'0', 'verify_heapam finds nothing wrong in any partition');
}

$node->stop;
done_testing();
