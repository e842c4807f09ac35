# Copyright (c) uuidv7 contributors
#
# The system clock steps back an hour in the middle of a session, and forward
# again.  Values stay strictly increasing, and carry the real time again once
# the clock has caught up; a kept plan of a query relative to now() answers
# as a fresh one across the steps.  The clock is moved with libfaketime, preloaded
# into a cluster of its own; only the real-time clock is faked (timeouts use
# the monotonic one).
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Uuidv7Test;

my ($faketime) = grep { -f } glob('/usr/lib/*/faketime/libfaketime.so.1 /usr/lib/faketime/libfaketime.so.1');
plan skip_all => 'libfaketime is not installed' unless $faketime;

my $offset_file = PostgreSQL::Test::Utils::tempdir() . '/offset';
# Every server process rereads the file at each clock read, and libfaketime
# makes a process exit when it reads an empty one: a new offset is written
# beside it and renamed into place
sub step_clock
{
	open my $fh, '>', "$offset_file.new" or die;
	print $fh "$_[0]\n";
	close $fh;
	rename "$offset_file.new", $offset_file or die;
}
step_clock('+0');

my $node = PostgreSQL::Test::Cluster->new('clock');
$node->init;
{
	local $ENV{LD_PRELOAD} = $faketime;
	local $ENV{FAKETIME_TIMESTAMP_FILE} = $offset_file;
	local $ENV{FAKETIME_NO_CACHE} = 1;
	local $ENV{FAKETIME_DONT_FAKE_MONOTONIC} = 1;
	$node->start;
}

# one session throughout: psql's \! steps the clock between statements (the
# file's name reaches its shell through the environment, never as text)
local $ENV{UUIDV7_OFFSET_FILE} = $offset_file;
my $result = $node->safe_psql(
	'postgres', qq{
CREATE EXTENSION uuidv7;
CREATE TEMP TABLE seq (n serial, id uuid, clock timestamptz, phase text);
INSERT INTO seq (id, clock, phase) SELECT uuidv7_generate(), clock_timestamp(), 'before' FROM generate_series(1, 1000);
INSERT INTO seq (id, clock, phase) SELECT uuidv7_generate('-10 minutes'), clock_timestamp(), 'shifted before' FROM generate_series(1, 1000);
\\! echo "-1h" > "\$UUIDV7_OFFSET_FILE.new" && mv "\$UUIDV7_OFFSET_FILE.new" "\$UUIDV7_OFFSET_FILE"
INSERT INTO seq (id, clock, phase) SELECT uuidv7_generate(), clock_timestamp(), 'stepped back' FROM generate_series(1, 1000);
INSERT INTO seq (id, clock, phase) SELECT uuidv7_generate('-10 minutes'), clock_timestamp(), 'shifted stepped back' FROM generate_series(1, 1000);
\\! echo "+0" > "\$UUIDV7_OFFSET_FILE.new" && mv "\$UUIDV7_OFFSET_FILE.new" "\$UUIDV7_OFFSET_FILE"
INSERT INTO seq (id, clock, phase) SELECT uuidv7_generate(), clock_timestamp(), 'restored' FROM generate_series(1, 1000);
SELECT
	-- the clock really stepped back
	(SELECT max(clock) FROM seq WHERE phase = 'before') - (SELECT min(clock) FROM seq WHERE phase = 'stepped back') > interval '59 minutes',
	-- strictly increasing through the step, per shift
	(SELECT count(*) FROM (SELECT id <= lag(id) OVER (ORDER BY n) AS bad FROM seq WHERE phase NOT LIKE 'shifted%') s WHERE bad),
	(SELECT count(*) FROM (SELECT id <= lag(id) OVER (ORDER BY n) AS bad FROM seq WHERE phase LIKE 'shifted%') s WHERE bad),
	-- while the clock was behind, values kept the time of the last one before the step
	(SELECT bool_and(uuidv7_timestamp(id) >= (SELECT max(uuidv7_timestamp(id)) FROM seq WHERE phase = 'before'))
	 FROM seq WHERE phase = 'stepped back'),
	-- once restored, values carry the clock's time again
	(SELECT bool_and(abs(extract(epoch FROM uuidv7_timestamp(id) - clock)) < 1) FROM seq WHERE phase = 'restored'),
	(SELECT count(DISTINCT id) FROM seq);});
is($result, 't|0|0|t|t|5000',
	'stepped back; in order (unshifted, shifted); held the time; caught up; all distinct');

# A plan kept and run again (a generic plan of a prepared statement) whose
# lower bound relative to now() got a plan-time constant: after the clock
# steps back half an hour, and forward again, it answers as the same query
# planned afresh.  Rows one a minute over the last 150 minutes, periods of
# 10 minutes; "the last 2 hours" holds 120 of them, and 150 once the clock
# is half an hour behind.
$result = $node->safe_psql(
	'postgres', qq{
SELECT uuidv7_min(now()) IS NOT NULL AS loaded;
CREATE TABLE ev (id uuid7 PRIMARY KEY) PARTITION BY RANGE (id);
SELECT count(*) > 0 FROM uuidv7_create_partitions('ev', now() - interval '4 hours', now() + interval '1 hour', '10 minutes');
INSERT INTO ev SELECT uuidv7_generate_at(now() - (g + 0.5) * interval '1 minute') FROM generate_series(0, 149) g;
SET plan_cache_mode = force_generic_plan;
PREPARE recent AS SELECT count(*) FROM ev WHERE id >= now() - interval '2 hours';
CREATE TEMP TABLE counts (phase text, kept bigint, fresh bigint);
INSERT INTO counts SELECT 'before', (SELECT 0), (SELECT count(*) FROM ev WHERE id >= now() - interval '2 hours');
EXECUTE recent \\gset kept_
UPDATE counts SET kept = :kept_count WHERE phase = 'before';
\\! echo "-30m" > "\$UUIDV7_OFFSET_FILE.new" && mv "\$UUIDV7_OFFSET_FILE.new" "\$UUIDV7_OFFSET_FILE"
EXECUTE recent \\gset kept_
INSERT INTO counts SELECT 'stepped back', :kept_count, (SELECT count(*) FROM ev WHERE id >= now() - interval '2 hours');
EXECUTE recent \\gset kept_
INSERT INTO counts SELECT 'again', :kept_count, (SELECT count(*) FROM ev WHERE id >= now() - interval '2 hours');
\\! echo "+0" > "\$UUIDV7_OFFSET_FILE.new" && mv "\$UUIDV7_OFFSET_FILE.new" "\$UUIDV7_OFFSET_FILE"
EXECUTE recent \\gset kept_
INSERT INTO counts SELECT 'forward', :kept_count, (SELECT count(*) FROM ev WHERE id >= now() - interval '2 hours');
SELECT string_agg(phase || ' ' || kept || ' ' || fresh, ', ' ORDER BY phase) FROM counts;});
is( (split /\n/, $result)[-1],
	'again 150 150, before 120 120, forward 120 120, stepped back 150 150',
	'a kept plan answers as a fresh one, the clock stepped back and forward');
$node->stop;

done_testing();
