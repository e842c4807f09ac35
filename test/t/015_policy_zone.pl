# Copyright (c) uuidv7 contributors
#
# A policy's keep and ahead are counted on its grid's calendar, whatever
# the TimeZone of the session that runs maintenance: a run from a session
# in Pacific/Kiritimati (UTC+14) or America/New_York retires and makes the
# periods a run in UTC does.  Counted in the session's zone, a run at
# 22:00 UTC on 30 November (noon on 1 December in Kiritimati) cut "3 months"
# back at 31 August 22:00 UTC rather than 30 August 22:00, and retired the
# day of 30 August that the policy keeps; a run from New York at 02:00 UTC on
# 1 December (30 November there) made its "6 months" ahead reach 31 May
# rather than 1 June, a month short.  The server's clock is set to those
# moments (test/data/clock_offset.c, preloaded); the tests' own are the
# machine's.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time);
use Time::Local qw(timegm);
use Uuidv7Test;

plan skip_all => 'gcc is not installed' unless system('sh', '-c', 'command -v gcc >/dev/null') == 0;
my $shim = PostgreSQL::Test::Utils::tempdir() . '/clock_offset.so';
system('gcc', '-shared', '-fPIC', '-O2', '-o', $shim, 'test/data/clock_offset.c', '-ldl') == 0
  or die 'could not build the clock shim';

my $node = PostgreSQL::Test::Cluster->new('zone');
$node->init;
$node->append_conf('postgresql.conf', "max_connections = 40\n");

# at(YEAR, MONTH, DAY, HOUR, [MINUTE]): the server started with its clock
# at that time (UTC), running on from there
my $started = 0;
sub at
{
	my ($y, $mo, $d, $h, $mi) = @_;
	$node->stop if $started;
	local $ENV{LD_PRELOAD} = $shim;
	local $ENV{UUIDV7_CLOCK_OFFSET} = sprintf('%.3f', timegm(0, $mi // 0, $h, $d, $mo - 1, $y) - time());
	$node->start;
	$started = 1;
}

# keep: daily periods in UTC from 25 August, kept "3 months", a run at 22:00
# UTC on 30 November from a session in Kiritimati and from one in UTC
for my $zone ('Pacific/Kiritimati', 'UTC')
{
	at(2026, 11, 30, 22);
	$node->safe_psql('postgres', q{
		SET client_min_messages = warning;
		DROP EXTENSION IF EXISTS uuidv7 CASCADE;
		DROP TABLE IF EXISTS daily;
		CREATE EXTENSION uuidv7;
		CREATE TABLE daily (id uuid7 PRIMARY KEY, v int) PARTITION BY RANGE (id);
		SELECT count(*) FROM uuidv7_create_partitions('daily', '2026-08-25 00:00+00', '2026-12-03 00:00+00', '1 day', 'UTC');
		SELECT uuidv7_set_partition_policy('daily', keep => '3 months');});
	is( $node->safe_psql(
			'postgres', qq{
		SET TimeZone = '$zone';
		CALL uuidv7_run_maintenance();
		SELECT to_char(min(period_start) AT TIME ZONE 'UTC', 'YYYY-MM-DD'), (SELECT periods_past_keep FROM uuidv7_partition_metrics)
		FROM uuidv7_partitions('daily');}),
		'2026-08-30|0',
		"keep from a session in $zone: the oldest day kept is 30 August, none past keep");
}

# ahead: monthly periods in UTC, "6 months" ahead, a run at 02:00 UTC on
# 1 December from a session in New York and from one in UTC
for my $zone ('America/New_York', 'UTC')
{
	at(2026, 12, 1, 2);
	$node->safe_psql('postgres', q{
		SET client_min_messages = warning;
		DROP TABLE IF EXISTS monthly;
		CREATE TABLE monthly (id uuid7 PRIMARY KEY, v int) PARTITION BY RANGE (id);
		SELECT count(*) FROM uuidv7_create_partitions('monthly', '2026-11-01 00:00+00', '2026-12-01 00:00+00', '1 month', 'UTC');});
	is( $node->safe_psql(
			'postgres', qq{
		SET TimeZone = '$zone';
		SET client_min_messages = warning;
		DO \$\$ BEGIN PERFORM uuidv7_set_partition_policy('monthly', ahead => '6 months'); END \$\$;
		SELECT to_char(max(period_start) AT TIME ZONE 'UTC', 'YYYY-MM-DD') FROM uuidv7_partitions('monthly');}),
		'2027-06-01',
		"ahead from a session in $zone: periods made to June's");
}

# the doctor's reach of a policy, a daily grid in New York, from sessions
# elsewhere: one day ahead at 04:30 UTC on 14 March 2027, the day New
# York's clocks go forward (a day of 23 hours), from UTC; seven days ahead
# (the doctor's own week) at 04:30 UTC on 8 March, from Kolkata.  Each
# policy makes its periods to 15 March 00:00 in New York (04:00 UTC), its
# reach there, and the doctor finds nothing
for my $case (['eastern', '1 day', 'UTC', 14], ['eastern_week', '7 days', 'Asia/Kolkata', 8])
{
	my ($table, $ahead, $zone, $day) = @$case;
	at(2027, 3, $day, 4, 30);
	is( $node->safe_psql(
			'postgres', qq{
		SET TimeZone = '$zone';
		SET client_min_messages = warning;
		CREATE TABLE $table (id uuid7 PRIMARY KEY, v int) PARTITION BY RANGE (id);
		DO \$\$ BEGIN PERFORM uuidv7_set_partition_policy('$table', ahead => '$ahead', step => '1 day', zone => 'America/New_York'); END \$\$;
		SELECT max(period_end) AT TIME ZONE 'UTC', (SELECT count(*) FROM uuidv7_doctor() WHERE object = 'public.$table')
		FROM uuidv7_partitions('$table');}),
		'2027-03-15 04:00:00|0',
		"the doctor counts $ahead ahead from a session in $zone as the policy does");
}

# a grid's zone the server no longer knows (a pg_upgrade onto other time
# zone data): its periods past keep are unknown, the other tables' figures
# stand
is( $node->safe_psql(
		'postgres', q{
	SET session_replication_role = replica;
	UPDATE uuidv7_partition_config SET zone = 'Gone/Zone' WHERE parent_oid = 'daily'::regclass;
	RESET session_replication_role;
	SELECT parent, periods_past_keep FROM uuidv7_partition_metrics WHERE parent IN ('public.daily', 'public.monthly') ORDER BY 1;}),
	"public.daily|\npublic.monthly|0",
	'a zone not known leaves one figure unknown');

$node->stop;
done_testing();
