# Copyright (c) uuidv7 contributors
#
# uuidv7_progress (src/progress.c): a call of upkeep says how far it is
# while it works.  With uuidv7 preloaded, rows moving out of a DEFAULT
# partition show the call, the table, the step, the blocks read and the rows
# moved, growing, to the session itself and to another session of the same
# role or of pg_read_all_stats, never to another role; nothing once the call
# is over; the steps of retirement and of a maintenance run, each with its
# table; an interactive call held up for over ten seconds tells its client
# how far it is in a NOTICE.  Without preload: the same from PostgreSQL 17
# (in the dynamic shared memory registry), an empty view before.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Uuidv7Test;

# the table: 1,439 rows of 2025-01-01 waiting in its DEFAULT partition and
# 561 of the day after; a CHECK that, as rows move, notes what the view shows
# the session (at rows 1, 700 and 1400) and waits at row 1000 for advisory
# lock 42 where hold_at_1000 is set
my $setup = q{
	SET client_min_messages = warning;
	CREATE EXTENSION uuidv7;
	CREATE ROLE regress_peer;
	CREATE ROLE regress_watcher IN ROLE pg_read_all_stats;
	CREATE TABLE prog (id uuid7 PRIMARY KEY, v int NOT NULL) PARTITION BY RANGE (id);
	CREATE TABLE prog_default PARTITION OF prog DEFAULT;
	INSERT INTO prog SELECT uuidv7_generate_at('2025-01-01 00:00+00'::timestamptz + g * interval '1 minute'), g
	FROM generate_series(1, 2000) g;
	CREATE TABLE seen (v int, command text, parent text, phase text, blocks_done int8, blocks_total int8, rows_moved int8);
	CREATE FUNCTION look(v int) RETURNS bool LANGUAGE plpgsql AS $$
	BEGIN
		-- (upkeep runs with search_path pg_catalog, pg_temp)
		IF v IN (1, 700, 1400) THEN
			INSERT INTO public.seen SELECT look.v, p.command, p.parent, p.phase, p.blocks_done, p.blocks_total, p.rows_moved
			FROM public.uuidv7_progress p WHERE p.pid = pg_backend_pid();
		ELSIF v = 1000 AND current_setting('regress.hold_at_1000', true) = 'on' THEN
			PERFORM pg_advisory_lock_shared(42);
		END IF;
		RETURN true;
	END
	$$;
	ALTER TABLE prog ADD CONSTRAINT looked CHECK (look(v));
	TRUNCATE seen;
	CREATE TABLE blocks AS SELECT pg_relation_size('prog_default') / current_setting('block_size')::int AS n;};

# what each look saw: the call, the step, and counts that are those of the
# blocks before the one being read
my $looks = q{
	SELECT s.v, s.command, s.parent, s.phase,
		s.blocks_total = (SELECT n FROM blocks),
		CASE WHEN s.v = 1 THEN s.blocks_done = 0 AND s.rows_moved = 0
			ELSE s.blocks_done BETWEEN 1 AND s.blocks_total - 1 AND s.rows_moved BETWEEN 1 AND s.v - 1 END
	FROM seen s ORDER BY s.v};
# (the table as the reader's search_path names it: upkeep's is pg_catalog)
my $moving = 'uuidv7_create_partitions|public.prog|moving rows of public.prog_default into public.prog_p2025_01_01';

my $node = uuidv7_node('progress', "shared_preload_libraries = 'uuidv7'");
$node->safe_psql('postgres', $setup);

# held at row 1000 for over ten seconds by another session's lock: the view
# shows the call to the session's role and pg_read_all_stats, not to
# another role; the client is told in a NOTICE
my $holder = psql_start($node, 'postgres', q{SELECT pg_advisory_lock(42); SELECT pg_sleep(13)});
$node->poll_query_until('postgres', "SELECT count(*) = 1 FROM pg_locks WHERE locktype = 'advisory' AND granted")
  or die 'no lock held';
my $mover = psql_start($node, 'postgres', q{
	SET regress.hold_at_1000 = on;
	SELECT partition_name, moved FROM uuidv7_create_partitions('prog', '2025-01-01', '2025-01-01 12:00', '1 day', 'UTC')});
ok( $node->poll_query_until('postgres',
		"SELECT count(*) = 1 FROM uuidv7_progress WHERE phase LIKE 'moving rows%' AND rows_moved > 0"),
	'another session sees the rows moving');
is( $node->safe_psql('postgres', q{
		SELECT command, 'public.' || parent, phase, blocks_done > 0 AND blocks_done < blocks_total, rows_moved BETWEEN 1 AND 999,
			datname, started_at <= now()
		FROM uuidv7_progress}),
	"$moving|t|t|postgres|t",
	'it shows the call, the table, the step, how far the read is, the database and since when');
is($node->safe_psql('postgres', 'SET ROLE regress_peer; SELECT count(*) FROM uuidv7_progress'),
	'0', 'another role sees nothing of it');
is($node->safe_psql('postgres', 'SET ROLE regress_watcher; SELECT count(*) FROM uuidv7_progress'),
	'1', 'a member of pg_read_all_stats sees it');
psql_finish($holder);
is(psql_finish($mover), 'public.prog_p2025_01_01|1439', 'the call ends, its rows moved');
like($mover->{err}, qr/NOTICE:  \d+ of \d+ blocks of the DEFAULT partition read, \d+ rows moved/,
	'held up over ten seconds, it told its client how far it was');
is($node->safe_psql('postgres', 'SELECT count(*) FROM uuidv7_progress'), '0', 'over: nothing shows');
is( $node->safe_psql('postgres', $looks),
	join("\n", map { "$_|$moving|t|t" } (1, 700, 1400)),
	'the session itself saw the read grow as rows moved');
is( $node->safe_psql('postgres', q{
		SELECT bool_and(b.blocks_done > a.blocks_done AND b.rows_moved > a.rows_moved) FROM seen a JOIN seen b ON b.v > a.v}),
	't', 'each later look saw more blocks read and more rows moved');

# in a transaction block: nothing shows once the call's statement is over
is( $node->safe_psql('postgres', q{
		BEGIN;
		SELECT count(*) FROM uuidv7_create_partitions('prog', '2025-01-02', '2025-01-02 12:00', '1 day', 'UTC');
		SELECT count(*) FROM uuidv7_progress;
		COMMIT;}),
	"1\n0", 'in a transaction, nothing shows after the call');

# the steps of retirement and of a maintenance run, as DROP TABLE sees them
is( $node->safe_psql('postgres', q{
		SET client_min_messages = warning;
		CREATE TABLE steps (command text, parent text, phase text);
		CREATE FUNCTION note_step() RETURNS event_trigger LANGUAGE plpgsql AS $$
		BEGIN
			INSERT INTO public.steps SELECT p.command, p.parent, p.phase FROM public.uuidv7_progress p WHERE p.pid = pg_backend_pid();
		END
		$$;
		CREATE EVENT TRIGGER note_step ON ddl_command_end WHEN TAG IN ('DROP TABLE') EXECUTE FUNCTION note_step();
		SELECT count(*) FROM uuidv7_drop_partitions('prog', '2025-01-02');
		SELECT uuidv7_set_partition_policy('prog', keep => '1 day');
		CALL uuidv7_run_maintenance();
		SELECT string_agg(concat_ws('|', command, parent, phase), E'\n' ORDER BY phase) FROM steps;}),
	"1\n\nuuidv7_drop_partitions|public.prog|dropping public.prog_p2025_01_01\nuuidv7_run_maintenance|public.prog|dropping public.prog_p2025_01_02",
	'retirement shows its step, and a maintenance run its own call with the step of the table');

# a long name cut between characters, as core cuts a query's text: the
# view's text stays valid (in a UTF-8 database, and read in LATIN1 too)
$node->safe_psql('postgres', q{CREATE DATABASE utf8 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0});
is( $node->safe_psql('utf8', q{
		SET client_min_messages = warning;
		CREATE EXTENSION uuidv7;
		CREATE TABLE "ééééééééééééééééééééééééééééééé" (id uuid7 PRIMARY KEY) PARTITION BY RANGE (id);
		CREATE FUNCTION clipped() RETURNS text LANGUAGE plpgsql AS $$
		DECLARE
			r record;
		BEGIN
			PERFORM uuidv7_internal.uuidv7_progress_step(repeat('é', 40), '"ééééééééééééééééééééééééééééééé"', 'x' || repeat('é', 100));
			SELECT octet_length(p.command) AS c, octet_length(p.phase) AS f, octet_length(p.parent) AS t,
				convert_to(p.command || p.phase, 'LATIN1') IS NOT NULL AS latin1
			INTO r FROM uuidv7_progress p WHERE p.pid = pg_backend_pid();
			RETURN concat_ws(' ', r.c, r.f, r.t, r.latin1);
		END
		$$;
		SELECT clipped();}),
	'62 127 64 t', 'names cut between characters: valid text');

# without preload: from PostgreSQL 17, the same; before, an empty view
my $plain = uuidv7_node('progress_plain');
$plain->safe_psql('postgres', $setup);
$plain->safe_psql('postgres', q{
	SET client_min_messages = warning;
	SELECT count(*) FROM uuidv7_create_partitions('prog', '2025-01-01', '2025-01-01 12:00', '1 day', 'UTC')});
my $major = $plain->safe_psql('postgres', q{SELECT current_setting('server_version_num')::int / 10000});
is( $plain->safe_psql('postgres', $looks),
	$major >= 17 ? join("\n", map { "$_|$moving|t|t" } (1, 700, 1400)) : '',
	$major >= 17
	? 'without preload, from PostgreSQL 17: the same, in the dynamic shared memory registry'
	: 'without preload, before PostgreSQL 17: nothing to show, and no error');

$node->stop;
$plain->stop;
done_testing();
