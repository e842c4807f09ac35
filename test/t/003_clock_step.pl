# Copyright (c) uuidv7 contributors
#
# The system clock steps back an hour in the middle of a session, and forward
# again.  Values stay strictly increasing, and carry the real time again once
# the clock has caught up.  The clock is moved with libfaketime, preloaded
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
$node->stop;

done_testing();
