# Copyright (c) uuidv7 contributors
#
# Many writers, no coordination, one warehouse.  Two "region" clusters each
# take concurrent inserts (pgbench) into an orders table keyed by uuid7
# DEFAULT uuidv7_generate(); a "warehouse" cluster holds the same table
# range-partitioned by month on the key and subscribes to both regions with
# PostgreSQL's logical replication.  In the middle of the load region A is
# stopped hard (immediate shutdown) and restarted.  A streaming hot standby of
# region A runs every read-only function, generation included.  Then: the
# warehouse holds exactly the rows the regions committed, no key twice, every
# row in the partition of its embedded time, and every embedded time within a
# second of the row's insert time.
#
# Load: 4 clients per region, LOAD_SECONDS (5) before and after the fault.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Uuidv7Test;

my $seconds = $ENV{LOAD_SECONDS} // 5;
my $dir = PostgreSQL::Test::Utils::tempdir();

# a region: its orders published, every statement of the load not logged
sub region
{
	my ($name) = @_;
	my $node = PostgreSQL::Test::Cluster->new("region_$name");
	$node->init(allows_streaming => 'logical');
	$node->append_conf('postgresql.conf', "fsync = on\nlog_statement = none\nmax_connections = 40\n");
	$node->start;
	$node->safe_psql('postgres', 'CREATE DATABASE app');
	$node->safe_psql('app', "SET client_min_messages = warning;
		CREATE EXTENSION uuidv7;
		CREATE TABLE orders (
			id uuid7 PRIMARY KEY DEFAULT uuidv7_generate(),
			region text NOT NULL,
			amount int NOT NULL,
			inserted_at timestamptz NOT NULL DEFAULT clock_timestamp());
		CREATE PUBLICATION orders_pub FOR TABLE orders");
	open my $fh, '>', "$dir/$name.sql" or die;
	print $fh "\\set amount random(1, 1000)\nINSERT INTO orders (region, amount) VALUES ('$name', :amount);\n";
	close $fh;
	return $node;
}
my %region = (a => region('a'), b => region('b'));

# a streaming hot standby of region A
$region{a}->backup('base');
my $standby = PostgreSQL::Test::Cluster->new('standby_a');
$standby->init_from_backup($region{a}, 'base', has_streaming => 1);
$standby->start;

# the warehouse: the same table, range-partitioned by month on the key
my $warehouse = uuidv7_node('warehouse');
$warehouse->safe_psql('postgres', 'CREATE DATABASE app');
$warehouse->safe_psql('app', "SET client_min_messages = warning;
	CREATE EXTENSION uuidv7;
	CREATE TABLE orders (
		id uuid7 NOT NULL,
		region text NOT NULL,
		amount int NOT NULL,
		inserted_at timestamptz NOT NULL,
		PRIMARY KEY (id)
	) PARTITION BY RANGE (id);
	SELECT count(*) FROM uuidv7_create_partitions('orders', date_trunc('month', now()) - interval '1 month',
		now() + interval '1 month', '1 month');
	CREATE TABLE orders_default PARTITION OF orders DEFAULT");
for my $name ('a', 'b')
{
	(my $from = $region{$name}->connstr('app')) =~ s/'/''/g;
	$warehouse->safe_psql('app', "CREATE SUBSCRIPTION from_$name CONNECTION '$from' PUBLICATION orders_pub");
}

# load(REGION): pgbench on it for LOAD_SECONDS, in the background;
# loaded(HANDLE, WHAT): it ended, every client having done all it was to do
sub load
{
	my ($name) = @_;
	return pgbench_start($region{$name}, 'app', {}, '-c', 4, '-j', 2, '-T', $seconds, '-f', "$dir/$name.sql");
}
sub loaded
{
	my ($h, $what) = @_;
	my ($ok, $out) = pgbench_finish($h);
	ok($ok && $out !~ /aborted/, $what) or diag($out);
}

my $load_b = load('b');
my $load_a = load('a');
sleep(int($seconds / 2));
$region{a}->stop('immediate');
my (undef, $a_crashed) = pgbench_finish($load_a);
like($a_crashed, qr/server closed the connection|terminating connection|connection to server/,
	'the load on region A saw its server stop');
$region{a}->start;
loaded(load('a'), 'region A, started again, took its load');
loaded($load_b, 'region B took its load meanwhile');
loaded(load('b'), 'and more');

# the warehouse has applied all that each region committed
$region{$_}->wait_for_catchup("from_$_") for ('a', 'b');

my $rows = "SELECT count(*) || ' ' || md5(string_agg(id::text || amount, ',' ORDER BY id)) FROM orders";
for my $name ('a', 'b')
{
	is($warehouse->safe_psql('app', "$rows WHERE region = '$name'"),
		$region{$name}->safe_psql('app', $rows), "region \U$name\E's rows, and only they, in the warehouse");
}
cmp_ok($region{$_}->safe_psql('app', 'SELECT count(*) FROM orders'), '>', 0, "region \U$_\E committed rows")
  for ('a', 'b');
is( $warehouse->safe_psql(
		'app', "SELECT count(*) = count(DISTINCT id),
		(SELECT count(*) FROM orders_default),
		count(*) FILTER (WHERE NOT EXISTS (
			SELECT FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
			WHERE c.oid = o.tableoid AND o.id >= uuidv7_min(date_trunc('month', uuidv7_timestamp(o.id)))
				AND o.id < uuidv7_min(date_trunc('month', uuidv7_timestamp(o.id)) + interval '1 month'))),
		max(abs(extract(epoch FROM uuidv7_timestamp(id) - inserted_at))) < 1
		FROM orders o"),
	't|0|0|t',
	'the warehouse: no key twice, none in the default partition, each in the partition of its time, each time within a second of its insert');

# the standby: every read-only function, generation included
$standby->poll_query_until('app', "SELECT count(*) > 0 FROM orders") or die 'the standby never saw the rows';
is( $standby->safe_psql(
		'app', "SELECT pg_is_in_recovery()
		AND uuidv7_timestamp(uuidv7_generate()) > now() - interval '1 minute'
		AND uuidv7_timestamp(uuidv7_generate('-1 hour')) < now()
		AND uuidv7_timestamp(uuidv7_generate_at('2025-01-01')) = '2025-01-01'
		AND uuidv7_min('2025-01-01') < uuidv7_max('2025-01-01')
		AND (SELECT count(*) FROM uuidv7_partition_bounds('2025-01-01', '2026-01-01', '1 month', 'UTC')) = 12
		AND uuidv7_from_base32(uuidv7_to_base32(uuidv7_min('2025-01-01'))) = uuidv7_min('2025-01-01')
		AND (SELECT bool_and(uuidv7_timestamp(id) IS NOT NULL) FROM orders)"),
	't', 'the hot standby of region A runs every read-only function');

$_->stop for ($standby, $warehouse, $region{a}, $region{b});
done_testing();
