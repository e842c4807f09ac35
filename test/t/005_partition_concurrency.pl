# Copyright (c) uuidv7 contributors
#
# Schedulers that create partitions of one parent at once, many of them with
# overlapping spans, all succeed, and each period's partition is made once.
# (The interleavings of two, with retention and with a role without
# privilege, are the isolation spec upkeep_overlap.)
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Uuidv7Test;

my $sessions = 8;
my $node = uuidv7_node('creators');
$node->safe_psql('postgres', 'CREATE EXTENSION uuidv7;
	CREATE TABLE ev (id uuid7 PRIMARY KEY, v int) PARTITION BY RANGE (id)');

# session s creates the six months from month s % 4 of 2026
my @running = map {
	my $from = $_ % 4;
	psql_start($node, 'postgres', "SELECT count(*) FROM uuidv7_create_partitions('ev',
		timestamptz '2026-01-01 00:00+00' + $from * interval '1 month',
		timestamptz '2026-01-01 00:00+00' + ($from + 6) * interval '1 month', '1 month', 'UTC')")
} 1 .. $sessions;
is(psql_finish($_), '6', 'a creator saw its six periods') for @running;
is( $node->safe_psql(
		'postgres', "SELECT count(*), count(DISTINCT lower_bound), min(period_start) AT TIME ZONE 'UTC',
		max(period_start) AT TIME ZONE 'UTC' FROM uuidv7_partitions('ev')"),
	'9|9|2026-01-01 00:00:00|2026-09-01 00:00:00',
	'each period made once');
$node->stop;

done_testing();
