# Copyright (c) uuidv7 contributors
#
# uuidv7_partition_metrics as a monitoring system reads it, beside an
# application: a scrape never fails, and never queues the application, for
# what other sessions hold.  With a session in the middle of DDL on one
# table (ACCESS EXCLUSIVE held), another with a temporary partitioned table
# of its own (which no other session may read), and a third about to drop
# a table: the scrape answers within a second, with NULL figures for the
# table it could not lock and the figures of every other, lists no other
# session's temporary table, and leaves out a table dropped while it waited.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time);
use Uuidv7Test;

my $node = uuidv7_node('metrics');
$node->safe_psql('postgres', q{
	SET client_min_messages = warning;
	CREATE EXTENSION uuidv7;
	CREATE FUNCTION make(name text) RETURNS void LANGUAGE plpgsql AS $$
	BEGIN
		EXECUTE format('CREATE TABLE %I (id uuid7 PRIMARY KEY DEFAULT uuidv7_generate()) PARTITION BY RANGE (id)', name);
		EXECUTE format('CREATE TABLE %I PARTITION OF %I DEFAULT', name || '_default', name);
		PERFORM count(*) FROM uuidv7_create_partitions(name, '2030-01-01', '2030-01-11', '1 day', 'UTC');
		EXECUTE format('INSERT INTO %I SELECT uuidv7_generate_at(%L) FROM generate_series(1, 2)', name, '2020-01-01 00:00+00');
	END
	$$;
	SELECT make('a_busy'), make('b_quiet'), make('c_doomed');});

# (each holder waits on an advisory lock a gate session holds, so that it
# holds what it took until the gate is closed)
my $gate = psql_start($node, 'postgres', 'SELECT pg_advisory_lock(7); SELECT pg_sleep(600);');
$node->poll_query_until('postgres', q{SELECT count(*) = 1 FROM pg_locks WHERE locktype = 'advisory' AND granted})
  or die 'no gate';
my $ddl = psql_start($node, 'postgres', q{
	BEGIN;
	ALTER TABLE a_busy ADD COLUMN note text;
	SELECT pg_advisory_lock_shared(7);
	COMMIT;});
my $temp = psql_start($node, 'postgres', q{
	CREATE TEMP TABLE scratch (id uuid PRIMARY KEY) PARTITION BY RANGE (id);
	CREATE TEMP TABLE scratch_d PARTITION OF scratch DEFAULT;
	SELECT pg_advisory_lock_shared(7);});
$node->poll_query_until('postgres', q{SELECT count(*) = 2 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted})
  or die 'the holders did not start';

my $started = time;
my $rows = $node->safe_psql('postgres', q{
	SELECT parent, coalesce(partitions::text, 'NULL'), coalesce(default_rows::text, 'NULL')
	FROM uuidv7_partition_metrics ORDER BY parent COLLATE "C";});
my $took = time - $started;
# (meanwhile an application's insert into a table no one holds goes through)
my $inserted = $node->safe_psql('postgres', q{SET lock_timeout = '5s'; INSERT INTO b_quiet DEFAULT VALUES RETURNING 1});
$node->safe_psql('postgres', q{SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE '%pg_sleep(600)%' AND pid <> pg_backend_pid()});
$gate->{run}->kill_kill;
psql_finish($_) for ($ddl, $temp);

is($rows, "public.a_busy|NULL|NULL\npublic.b_quiet|10|2\npublic.c_doomed|10|2",
	'a scrape beside DDL and another session\'s temporary table: NULL figures for the table under DDL, the others in full, no temporary table of another session');
ok($took < 10, "the scrape answered without waiting on the DDL (${took}s)");
is($inserted, '1', 'an insert into another table went through');

# a table dropped after the scrape's snapshot (REPEATABLE READ) is left out,
# and fails nothing
$gate = psql_start($node, 'postgres', 'SELECT pg_advisory_lock(9); SELECT pg_sleep(600);');
$node->poll_query_until('postgres', q{SELECT count(*) = 1 FROM pg_locks WHERE locktype = 'advisory' AND granted})
  or die 'no gate';
# (no COMMIT: the scrape is the last statement, whose result alone psql
# prints before 15; the session's end ends the transaction)
my $scrape = psql_start($node, 'postgres', q{
	BEGIN ISOLATION LEVEL REPEATABLE READ;
	SELECT 1;
	SELECT pg_advisory_lock_shared(9);
	SELECT string_agg(parent, ',' ORDER BY parent COLLATE "C") FROM uuidv7_partition_metrics;});
$node->poll_query_until('postgres', q{SELECT count(*) = 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted})
  or die 'no scrape';
$node->safe_psql('postgres', 'DROP TABLE c_doomed');
$node->safe_psql('postgres', q{SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE '%pg_sleep(600)%' AND pid <> pg_backend_pid()});
$gate->{run}->kill_kill;
is((split /\n/, psql_finish($scrape))[-1], 'public.a_busy,public.b_quiet',
	'a table dropped after the scrape\'s snapshot: left out, nothing failed');

$node->stop;
done_testing();
