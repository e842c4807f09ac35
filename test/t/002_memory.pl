# Copyright (c) uuidv7 contributors
#
# 50 million generations in one session do not grow the backend's memory.
# The backend's peak resident size (VmHWM), once the same query without our
# functions has run at the same size (PostgreSQL's own memory for 50 million
# rows), must not grow by more than 4 MB over 50 million generations
# (UUIDV7_GENERATIONS) and more shifted, backfilled and base32 values.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Uuidv7Test;

if ($^O ne 'linux')
{
	plan skip_all => 'reads the backend\'s peak resident size from /proc';
}

my $n = $ENV{UUIDV7_GENERATIONS} // 50000000;
my $node = uuidv7_node('memory');
my $hwm = q{SELECT substring(pg_read_file('/proc/' || pg_backend_pid() || '/status') FROM 'VmHWM:\s*(\d+) kB')};
my ($warm, $after) = split /\n/, $node->safe_psql(
	'postgres', qq{
CREATE EXTENSION uuidv7;
SELECT count(1) FROM (SELECT generate_series(1, $n)) s \\g /dev/null
$hwm;
SELECT count(uuidv7_generate()) FROM (SELECT generate_series(1, $n)) s \\g /dev/null
SELECT count(uuidv7_generate('-1 hour')) FROM (SELECT generate_series(1, $n / 10)) s \\g /dev/null
SELECT count(uuidv7_generate_at('2025-01-01')) FROM (SELECT generate_series(1, $n / 10)) s \\g /dev/null
SELECT count(uuidv7_to_base32(uuidv7_from_base32('01FWHE4YDGFK1SHH6W1G60EECF'))) FROM (SELECT generate_series(1, $n / 10)) s \\g /dev/null
$hwm;});
note("backend peak resident size: $warm kB after $n rows without generation, $after kB after $n generations and more");
like($warm,  qr/^\d+$/, 'the peak resident size was read before generating');
like($after, qr/^\d+$/, 'the peak resident size was read after generating');
cmp_ok($after - $warm, '<=', 4096, 'the backend\'s peak resident size grew by 4 MB at most');
$node->stop;

done_testing();
