# Copyright (c) uuidv7 contributors
#
# Many sessions, short-lived backends and parallel workers generate at once
# into one unique index: no duplicate, and each session's values strictly
# increase.  Then the same, smaller, in a cluster with uuidv7 in
# shared_preload_libraries, where the postmaster loads the module before it
# forks any backend: every backend and parallel worker must still draw its
# own random bits.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Uuidv7Test;

# generate_at_once(NODE, SESSIONS, PER_SESSION, BACKENDS)
sub generate_at_once
{
	my ($node, $sessions, $per_session, $backends) = @_;
	my $db = 'uuidv7_concurrency';
	$node->safe_psql('postgres', "CREATE DATABASE $db");
	$node->safe_psql($db, 'CREATE EXTENSION uuidv7;
		CREATE TABLE ids (id uuid7 PRIMARY KEY, session int NOT NULL, seq bigint NOT NULL, source text NOT NULL)');

	# sessions at once, each inserting its values in generation order
	my @running = map {
		psql_start($node, $db, "INSERT INTO ids SELECT uuidv7_generate(), $_, g, 'session'
			FROM generate_series(1, $per_session) g")
	} 1 .. $sessions;
	# meanwhile, short-lived backends: each a fresh fork of the postmaster,
	# one after the other (psql's \c opens a new connection, then closes
	# the one before)
	$node->safe_psql($db, join '', map {
		"\\c\nINSERT INTO ids SELECT uuidv7_generate(), 1000 + $_, g, 'backend' FROM generate_series(1, 100) g;\n"
	} 1 .. $backends);
	psql_finish($_) for @running;

	# parallel workers: forced parallel plans generate in several processes
	$node->safe_psql($db, 'CREATE TABLE src AS SELECT g FROM generate_series(1, 200000) g; ANALYZE src');
	my $plan = $node->safe_psql($db, 'SET max_parallel_workers_per_gather = 2; SET parallel_setup_cost = 0;
		SET parallel_tuple_cost = 0; SET min_parallel_table_scan_size = 0;
		EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF)
		CREATE TABLE par AS SELECT uuidv7_generate() AS id, g FROM src');
	my ($workers) = $plan =~ /Workers Launched: (\d+)/;
	cmp_ok($workers // 0, '>', 0, 'parallel workers generated');
	$node->safe_psql($db, "INSERT INTO ids SELECT id, 2000, g, 'parallel' FROM par");

	my $expected = $sessions * $per_session + $backends * 100 + 200000;
	is( $node->safe_psql(
			$db, "SELECT count(*), count(DISTINCT id),
			(SELECT count(*) FROM (SELECT id <= lag(id) OVER (PARTITION BY session ORDER BY seq) AS bad
								   FROM ids WHERE source <> 'parallel') s WHERE bad),
			count(*) FILTER (WHERE uuidv7_timestamp(id) IS NULL),
			-- the random bits of each short-lived backend's first id (a
			-- pool shared across a fork would give them all the same)
			(SELECT count(DISTINCT right(id::text, 12)) FROM ids WHERE source = 'backend' AND seq = 1)
			FROM ids"),
		"$expected|$expected|0|0|$backends",
		'every id made, all distinct, in order within each session, all version 7, each backend with random bits of its own');
	$node->safe_psql('postgres', "DROP DATABASE $db");
}

my $node = uuidv7_node('plain');
generate_at_once($node, 8, 150000, 100);
$node->stop;

my $preloaded = uuidv7_node('preloaded', "shared_preload_libraries = 'uuidv7'");
is($preloaded->safe_psql('postgres', 'SHOW uuidv7.random_pool'), 'on', 'the module is preloaded');
generate_at_once($preloaded, 4, 25000, 50);
$preloaded->stop;

done_testing();
