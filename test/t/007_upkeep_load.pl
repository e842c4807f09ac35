# Copyright (c) uuidv7 contributors
#
# Partition upkeep while the application reads, inserts, updates and
# deletes, and upkeep killed in the middle.
#
# A table keyed by uuid7, partitioned by month, with a DEFAULT partition and
# the months of December 2024 to February 2025.  Three sets of rows the
# clients know by key wait from February to July, most of them in DEFAULT:
# 1,000 that nobody changes (readers count them all, and look one up by
# key), 200 that updaters add 1 to, 8,000 that deleters delete, one each.
# Beside them:
#
# - writers insert rows at random instants of January to June
#   (test/data/upkeep_writer.sql), so that rows of March to June keep arriving in
#   DEFAULT;
# - readers count the fixed set (always 1,000) and look up one of its rows
#   by key (always 1 row), at REPEATABLE READ;
# - updaters and deleters change one row a transaction and record how many
#   rows each statement changed (it must be 1), at REPEATABLE READ where
#   pgbench retries serialization failures (15 and later), READ COMMITTED
#   before; no other failure is retried.
#
# Meanwhile a scheduler creates March, then April, May and June (moving the
# rows that wait), one call a second, then drops December and detaches
# January.  Checked: every upkeep call succeeds; no client fails; every
# count and lookup was exact; every update and delete changed its row; the
# rows found are the rows committed.
#
# Then a live table keyed by uuid7 is adopted while four clients insert
# into it, and eight schedulers create overlapping spans at once.  Last,
# the server is killed in the middle of each call (waiting for its locks,
# then at work: a creation that moves rows, retention that has dropped a
# partition, an adoption whose bounds are set): every row is there after
# the restart, the table takes new rows, and the call completes when run
# again.
#
# Load: LOAD_SECONDS (10) of it.
use strict;
use warnings;

use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(sleep);
use Uuidv7Test;

my $seconds = $ENV{LOAD_SECONDS} // 10;
my $dir = PostgreSQL::Test::Utils::tempdir();
# (the framework logs every statement; not those of the load)
my $node = uuidv7_node('upkeep', 'log_statement = none');
my $db = 'postgres';
sub sql { return $node->safe_psql($db, $_[0]); }

sql(q{CREATE EXTENSION uuidv7;
	CREATE TABLE ev (id uuid7 PRIMARY KEY, client int NOT NULL, at timestamptz NOT NULL, v int NOT NULL DEFAULT 0)
	PARTITION BY RANGE (id);
	CREATE TABLE ev_default PARTITION OF ev DEFAULT;
	SELECT count(*) FROM uuidv7_create_partitions('ev', '2024-12-01', '2025-03-01', '1 month', 'UTC');
	INSERT INTO ev SELECT uuidv7_generate_at('2024-12-01 00:00+00'::timestamptz + g * interval '40 minutes'), 0, now()
	FROM generate_series(1, 1000) g;
	-- the keys of the sets the clients know, February to July
	CREATE FUNCTION fixed_key(k int) RETURNS uuid LANGUAGE sql IMMUTABLE
		AS $$ SELECT uuidv7_min('2025-02-01 00:00+00'::timestamptz + k * interval '4 hours') $$;
	CREATE FUNCTION counter_key(k int) RETURNS uuid LANGUAGE sql IMMUTABLE
		AS $$ SELECT uuidv7_min('2025-02-01 00:00:01+00'::timestamptz + k * interval '20 hours') $$;
	CREATE FUNCTION doomed_key(k int) RETURNS uuid LANGUAGE sql IMMUTABLE
		AS $$ SELECT uuidv7_min('2025-02-01 00:00:02+00'::timestamptz + k * interval '30 minutes') $$;
	INSERT INTO ev (id, client, at) SELECT fixed_key(k), -1, now() FROM generate_series(0, 999) k;
	INSERT INTO ev (id, client, at) SELECT counter_key(k), -2, now() FROM generate_series(0, 199) k;
	INSERT INTO ev (id, client, at) SELECT doomed_key(k), -3, now() FROM generate_series(0, 7999) k;
	CREATE SEQUENCE doomed;
	-- what the clients saw and did
	CREATE TABLE reads (what text, n bigint);
	CREATE TABLE updates (k int, n bigint);
	CREATE TABLE deletes (k int, n bigint)});

my %script = (
	reader => q{\set k random(0, 999)
BEGIN;
INSERT INTO reads SELECT 'count', count(*) FROM ev WHERE client = -1;
INSERT INTO reads SELECT 'lookup', count(*) FROM ev WHERE id = fixed_key(:k);
END;
},
	updater => q{\set k random(0, 199)
WITH u AS (UPDATE ev SET v = v + 1 WHERE id = counter_key(:k) RETURNING 1) INSERT INTO updates SELECT :k, count(*) FROM u;
},
	deleter => q{SELECT nextval('doomed') - 1 AS k \gset
WITH d AS (DELETE FROM ev WHERE id = doomed_key(:k) RETURNING 1) INSERT INTO deletes SELECT :k, count(*) FROM d;
\sleep 3 ms
},
	legacy => "BEGIN;\n"
	  . "INSERT INTO legacy (client, at) VALUES (:client_id, clock_timestamp());\n" x 5
	  . "INSERT INTO legacy_items (legacy_id) SELECT id FROM legacy WHERE client = :client_id ORDER BY id DESC LIMIT 1;\n"
	  . "END;\n");
for my $name (keys %script)
{
	open my $fh, '>', "$dir/$name.sql" or die;
	print $fh $script{$name};
	close $fh;
}

# REPEATABLE READ where pgbench retries what fails with 40001 (15 and later)
my $repeatable_read = { PGOPTIONS => '-c default_transaction_isolation=repeatable\ read' };
my ($changers, @retries) = ({});
if (`pgbench --help` =~ /--max-tries/)
{
	($changers, @retries) = ($repeatable_read, '--max-tries=1000');
}
my %clients = (
	writers => pgbench_start($node, $db, {}, '-c', 2, '-j', 1, '-T', $seconds, '-f', 'test/data/upkeep_writer.sql'),
	readers => pgbench_start($node, $db, $repeatable_read, '-c', 1, '-T', $seconds, '-f', "$dir/reader.sql"),
	updaters => pgbench_start($node, $db, $changers, '-c', 1, '-T', $seconds, @retries, '-f', "$dir/updater.sql"),
	deleters => pgbench_start($node, $db, $changers, '-c', 1, '-T', $seconds, @retries, '-f', "$dir/deleter.sql"));

# upkeep(LABEL, SQL): one call of the scheduler; whether it succeeded
my $calls_ok = 0;
sub upkeep
{
	my ($label, $sql) = @_;
	my ($rc, $out, $err) = $node->psql($db, $sql);
	note("$label: " . ($rc == 0 ? 'ok' : "FAILED $err"));
	$calls_ok++ if $rc == 0;
}
sleep(2);
for my $month ('03', '04', '05', '06')
{
	upkeep("create 2025-$month", "SELECT partition_name || ' moved ' || moved FROM uuidv7_create_partitions('ev',
		'2025-$month-01 00:00+00', '2025-$month-01 00:00+00'::timestamptz + interval '1 month', '1 month', 'UTC')");
	sleep(1);
}
upkeep('drop 2024-12', "SELECT * FROM uuidv7_drop_partitions('ev', '2025-01-01 00:00+00')");
sleep(1);
upkeep('detach 2025-01', "SELECT * FROM uuidv7_drop_partitions('ev', '2025-02-01 00:00+00', detach_only => true)");
is($calls_ok, 6, '6 upkeep calls under readers, writers, updaters and deleters');

my $failed_clients = 0;
my %out;
for my $name (sort keys %clients)
{
	(my $ok, $out{$name}) = pgbench_finish($clients{$name});
	note("$name: " . join(' ', $out{$name} =~ /^(number of (?:transactions actually processed|failed transactions).*)$/mg));
	$failed_clients++
	  if !$ok || $out{$name} =~ /aborted|^number of failed transactions: [1-9]/m;
}
is($failed_clients, 0, 'no client failed') or diag(join "\n", values %out);
my ($processed) = $out{writers} =~ /^number of transactions actually processed: (\d+)/m;

is(sql("SELECT count(*) > 0, count(*) FILTER (WHERE n <> CASE what WHEN 'count' THEN 1000 ELSE 1 END) FROM reads"),
	't|0', 'every count of the fixed set and every lookup exact');
is( sql("SELECT count(*) > 0, count(*) FILTER (WHERE n <> 1), count(*) = (SELECT sum(v) FROM ev WHERE client = -2)
		FROM updates"),
	't|0|t', 'every update changed its row, and none was lost');
is( sql("SELECT count(*) > 0, count(*) FILTER (WHERE n <> 1),
		(SELECT count(*) FROM ev WHERE client = -3 AND id IN (SELECT doomed_key(k) FROM deletes)) FROM deletes"),
	't|0|0', 'every delete deleted its row');
is(sql("SELECT (SELECT count(*) FROM ev WHERE client >= 0) + (SELECT count(*) FROM ev_p2025_01 WHERE client >= 0)"),
	($processed // 0) * 5, "the rows found are the writers'");
is( sql("SELECT count(*) FROM ev_default
		WHERE id >= uuidv7_min('2025-02-01 00:00+00') AND id < uuidv7_min('2025-07-01 00:00+00')"),
	0, 'no row of a created period left in DEFAULT');
note('partitions: ' . sql("SELECT string_agg(partition::text, ' ' ORDER BY period_start NULLS LAST) FROM uuidv7_partitions('ev')"));

# adoption of a live table while it is written to
# (with what points at it: another table's foreign key, which the writers
# use, a view, a trigger, a column's own sequence)
sql("CREATE TABLE legacy (id uuid7 PRIMARY KEY DEFAULT uuidv7_generate(), client int NOT NULL, at timestamptz NOT NULL,
		n bigserial, touched int NOT NULL DEFAULT 0);
	INSERT INTO legacy SELECT uuidv7_generate_at(now() - g * interval '1 hour'), 0, now() FROM generate_series(1, 2000) g;
	CREATE TABLE legacy_items (legacy_id uuid NOT NULL REFERENCES legacy);
	INSERT INTO legacy_items SELECT id FROM legacy;
	CREATE VIEW legacy_by_client AS SELECT client, count(*) AS rows FROM legacy GROUP BY client;
	CREATE FUNCTION legacy_touch() RETURNS trigger LANGUAGE plpgsql AS \$\$
		BEGIN NEW.touched := 1; RETURN NEW; END \$\$;
	CREATE TRIGGER legacy_touch BEFORE INSERT ON legacy FOR EACH ROW EXECUTE FUNCTION legacy_touch();
	ANALYZE legacy");
my $writers = pgbench_start($node, $db, {}, '-c', 4, '-j', 2, '-T', 8, '-f', "$dir/legacy.sql");
sleep(2);
my ($adopt_rc, $adopt_out, $adopt_err) = $node->psql($db, "CALL uuidv7_adopt_table('legacy', '1 month', 'UTC')");
my ($writers_ok, $writers_out) = pgbench_finish($writers);
($processed) = $writers_out =~ /^number of transactions actually processed: (\d+)/m;
is($adopt_rc, 0, 'a live table adopted under writers') or diag($adopt_err);
ok($writers_ok && $writers_out !~ /aborted/ && ($processed // 0) > 0, 'the writers went on')
  or diag($writers_out);
is(sql("SELECT count(*) || ' ' || (SELECT relkind::text FROM pg_class WHERE oid = 'legacy'::regclass) FROM legacy"),
	(2000 + ($processed // 0) * 5) . ' p', 'legacy partitioned, every row committed found');
# it said what it did, as it went
like($adopt_err, qr/legacy checked, keyed by id.*validating the bounds.*partitioned by id.*moved to it: views: 1, triggers: 1, foreign keys: 1.*periods made ahead.*validating foreign key legacy_items_legacy_id_fkey.*legacy adopted/s,
	'adoption reports each step, and what it moved');
# what pointed at the table points at the partitioned one: the foreign key
# (validated, and kept by a new row of a new period), the view, the
# trigger, the sequence; and rows past the last period go to DEFAULT
is( sql("SELECT confrelid::regclass || ' ' || convalidated FROM pg_constraint
		WHERE conrelid = 'legacy_items'::regclass AND contype = 'f' AND conparentid = 0"),
	'legacy true', 'the foreign key references the partitioned table, validated');
is( sql("INSERT INTO legacy (id, client, at) VALUES (uuidv7_generate_at(now() + interval '2 months'), 9, now());
		INSERT INTO legacy_items SELECT id FROM legacy WHERE client = 9 RETURNING (SELECT touched FROM legacy WHERE client = 9)"),
	'1', 'a row of a later period: its trigger fired, and a row of another table references it');
is( sql("SELECT (SELECT sum(rows) FROM legacy_by_client) = (SELECT count(*) FROM legacy)
		AND (SELECT count(*) FROM legacy_items) = (SELECT count(*) FROM legacy_items i JOIN legacy l ON l.id = i.legacy_id)"),
	't', 'the view reads every row, every item has its row');
is( sql("SELECT d.refobjid::regclass FROM pg_depend d
		WHERE d.objid = pg_get_serial_sequence('legacy', 'n')::regclass AND d.deptype = 'a'"),
	'legacy', 'the sequence belongs to the partitioned table');
is( sql("INSERT INTO legacy (id, client, at) VALUES (uuidv7_generate_at(now() + interval '5 years'), 9, now())
		RETURNING tableoid::regclass"),
	'legacy_default', 'a row past the last period waits in DEFAULT');

# schedulers at once, with overlapping spans (specs/upkeep_overlap.spec has
# the interleavings): session s creates the six months from month s % 4 of
# 2026, all eight let go together (each waits for a lock a holder takes
# first); every call succeeds and each period is made once
sql('CREATE TABLE sched (id uuid7 PRIMARY KEY, v int) PARTITION BY RANGE (id)');
my $gate = IPC::Run::start([ 'psql', '-X', '-q', '-d', $node->connstr($db),
		'-c', 'SELECT pg_advisory_lock(4242); SELECT pg_sleep(600)' ], '>', \my $gate_out, '2>', \my $gate_err);
$node->poll_query_until($db, "SELECT count(*) > 0 FROM pg_locks WHERE locktype = 'advisory' AND granted")
  or die 'the gate never closed';
my @schedulers = map {
	psql_start($node, $db, "SELECT pg_advisory_lock_shared(4242);
		SELECT count(*) FROM uuidv7_create_partitions('sched',
		timestamptz '2026-01-01 00:00+00' + $_ % 4 * interval '1 month',
		timestamptz '2026-01-01 00:00+00' + ($_ % 4 + 6) * interval '1 month', '1 month', 'UTC')")
} 1 .. 8;
ok($node->poll_query_until($db, "SELECT count(*) = 8 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"),
	'8 schedulers waiting at the gate');
$node->safe_psql($db, "SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND granted
	AND mode = 'ExclusiveLock'");
eval { $gate->finish };
psql_finish($_) for @schedulers;
is( sql("SELECT count(*) || ' ' || count(DISTINCT lower_bound) || ' '
		|| to_char(min(period_start) AT TIME ZONE 'UTC', 'YYYY-MM-DD') || ' '
		|| to_char(max(period_start) AT TIME ZONE 'UTC', 'YYYY-MM-DD') FROM uuidv7_partitions('sched')"),
	'9 9 2026-01-01 2026-09-01', '8 schedulers at once: 9 periods, each made once');

# The server killed in the middle of a call: while the call waits for a lock
# that a transaction holds, and once it is at work: creation the moment it
# holds its locks, before it moves 200,000 rows; retention once it has
# dropped a partition; adoption once its bounds are set.
#
# kill_during(LABEL, SQL, HOLD_SQL): SQL started while HOLD_SQL's
# transaction holds its locks, the server stopped in immediate mode once SQL
# waits for them, then started again
sub kill_during
{
	my ($label, $sql, $hold) = @_;
	my $holder = IPC::Run::start([ 'psql', '-X', '-q', '-d', $node->connstr($db),
			'-c', "BEGIN; $hold; SELECT pg_sleep(60); COMMIT;" ], '>', \my $hold_out, '2>', \my $hold_err);
	$node->poll_query_until($db, "SELECT count(*) > 0 FROM pg_stat_activity
		WHERE query LIKE '%pg_sleep(60)%' AND wait_event = 'PgSleep' AND pid <> pg_backend_pid()")
	  or die "$label: the holder never took its locks";
	my $call = IPC::Run::start([ 'psql', '-X', '-q', '-d', $node->connstr($db), '-c', $sql ],
		'>', \my $call_out, '2>', \my $call_err);
	$node->poll_query_until($db, "SELECT count(*) > 0 FROM pg_stat_activity WHERE query LIKE '%uuidv7_%'
		AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()")
	  or die "$label: the call never waited for the lock";
	$node->stop('immediate');
	eval { $_->finish } for ($call, $holder);
	$node->start;
	note("$label: server killed while the call waited, restarted");
}
# killed_call(LABEL, SQL, CONDITION): SQL run while a session watches for
# the condition, checked every millisecond from inside the server, and makes
# the postmaster exit (SIGQUIT, as pg_ctl's immediate mode) the moment it
# holds, so that no call can finish between the moment and the kill; the
# server started again; SQL's output.  (The call starts once the watcher
# watches; a watcher that never saw the moment fails the test.)
sub killed_call
{
	my ($label, $sql, $condition) = @_;
	my $watch = qq{DO \$\$
		DECLARE
			postmaster text := split_part(pg_read_file('postmaster.pid'), E'\\n', 1);
		BEGIN
			FOR i IN 1..60000 LOOP
				-- (pg_stat_activity is read afresh, not as the transaction
				-- first saw it)
				PERFORM pg_stat_clear_snapshot();
				IF $condition THEN
					EXECUTE format('COPY (SELECT 1) TO PROGRAM %L', 'kill -QUIT ' || postmaster);
				END IF;
				PERFORM pg_sleep(0.001);
			END LOOP;
		END
		\$\$};
	my $watcher = IPC::Run::start([ 'psql', '-X', '-q', '-d', $node->connstr($db), '-c', $watch ],
		'>', \my $watch_out, '2>', \my $watch_err, IPC::Run::timeout(120));
	$node->poll_query_until($db, "SELECT count(*) > 0 FROM pg_stat_activity
		WHERE query LIKE 'DO%kill -QUIT%' AND pid <> pg_backend_pid()")
	  or die "$label: the watcher never started";
	my ($rc, $out, $err) = $node->psql($db, $sql);
	my $killed = server_exited($node, 30);
	if (!$killed)
	{
		$node->safe_psql($db, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity
			WHERE query LIKE 'DO%kill -QUIT%' AND pid <> pg_backend_pid()");
	}
	eval { $watcher->finish };
	ok($killed, "$label: the server killed in the middle of the call") or diag("the call's output: $out $err");
	restart_after_kill($node) if $killed;
	return $out;
}

my $digest = "SELECT count(*) || ' ' || sum(v) FROM crash";
sql("CREATE TABLE crash (id uuid7 PRIMARY KEY, v int NOT NULL) PARTITION BY RANGE (id);
	CREATE TABLE crash_default PARTITION OF crash DEFAULT;
	SELECT count(*) FROM uuidv7_create_partitions('crash', '2025-01-01', '2025-02-01', '1 month', 'UTC');
	INSERT INTO crash SELECT uuidv7_generate_at('2025-01-01 00:00+00'::timestamptz + g * interval '1 minute'), 1
	FROM generate_series(1, 20000) g;
	INSERT INTO crash SELECT uuidv7_generate_at('2025-02-01 00:00+00'::timestamptz + g * interval '10 seconds'), 2
	FROM generate_series(1, 200000) g;
	CHECKPOINT");
my $before = sql($digest);
kill_during('create', "SELECT * FROM uuidv7_create_partitions('crash', '2025-02-01', '2025-03-01', '1 month', 'UTC')",
	"INSERT INTO crash VALUES (uuidv7_min('2025-01-20 00:00+00'), 0)");
is(sql($digest), $before, 'every row there after a kill during creation');

my $killed = killed_call('create, moving 200,000 rows, once it holds its locks',
	"SELECT * FROM uuidv7_create_partitions('crash', '2025-02-01', '2025-03-01', '1 month', 'UTC')",
	"EXISTS (SELECT FROM pg_locks WHERE relation = 'crash'::regclass AND mode = 'AccessExclusiveLock' AND granted)");
unlike($killed, qr/crash_p2025_02/, 'the killed move returned nothing');
is(sql($digest), $before, 'the killed move committed nothing, and every row is there');
sql("INSERT INTO crash VALUES (uuidv7_min('2025-02-20 00:00+00'), 0)");
is( sql("SELECT moved FROM uuidv7_create_partitions('crash', '2025-02-01', '2025-03-01', '1 month', 'UTC')")
	  . ' ' . sql("SELECT count(*) FROM ONLY crash_default"),
	'200001 0', 'creation completes when run again');

$before = sql($digest);
kill_during('retention', "SELECT * FROM uuidv7_drop_partitions('crash', '2025-02-01')", 'SELECT count(*) FROM crash');
is(sql($digest), $before, 'every row there after a kill during retention');
# and killed once it has dropped the partition, before it commits (an event
# trigger holds the DROP there)
sql(q{CREATE FUNCTION hold_drop() RETURNS event_trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(60); END $$;
	CREATE EVENT TRIGGER hold_drop ON sql_drop EXECUTE FUNCTION hold_drop()});
killed_call('retention, its partition dropped', "SELECT * FROM uuidv7_drop_partitions('crash', '2025-02-01')",
	"EXISTS (SELECT FROM pg_stat_activity WHERE query LIKE '%uuidv7_drop_partitions%' AND wait_event = 'PgSleep'
		AND pid <> pg_backend_pid())");
sql('DROP EVENT TRIGGER hold_drop; DROP FUNCTION hold_drop()');
is(sql($digest) . ' ' . sql("SELECT count(*) FROM pg_class WHERE relname = 'crash_p2025_01'"), "$before 1",
	'the killed drop committed nothing: every row there, the partition too');
is(sql("SELECT count(*) FROM uuidv7_drop_partitions('crash', '2025-02-01')"), 1, 'retention completes when run again');

# adoption: killed at its first lock, then as soon as its bounds are set
# (the table's CHECK), before it validates them
sql("CREATE TABLE live (id uuid7 PRIMARY KEY DEFAULT uuidv7_generate(), v int NOT NULL);
	INSERT INTO live (id, v) SELECT uuidv7_generate_at(now() - g * interval '1 minute'), 1 FROM generate_series(1, 50000) g");
kill_during('adoption', "CALL uuidv7_adopt_table('live', '1 month', 'UTC')", 'LOCK live IN SHARE UPDATE EXCLUSIVE MODE');
# (an event trigger holds the call at the start of the ALTER TABLE that
# would validate them)
sql(q{CREATE FUNCTION hold_validate() RETURNS event_trigger LANGUAGE plpgsql AS $$
	BEGIN
		IF EXISTS (SELECT FROM pg_constraint WHERE conname = 'uuidv7_adopt_bounds' AND NOT convalidated) THEN
			PERFORM pg_sleep(60);
		END IF;
	END $$;
	CREATE EVENT TRIGGER hold_validate ON ddl_command_start WHEN TAG IN ('ALTER TABLE') EXECUTE FUNCTION hold_validate()});
killed_call('adoption, once its bounds are set and before they are validated',
	"CALL uuidv7_adopt_table('live', '1 month', 'UTC')",
	"EXISTS (SELECT FROM pg_stat_activity WHERE query LIKE '%uuidv7_adopt_table%' AND wait_event = 'PgSleep'
		AND pid <> pg_backend_pid())");
sql('DROP EVENT TRIGGER hold_validate; DROP FUNCTION hold_validate()');
is(sql("SELECT count(*) FROM pg_constraint WHERE conname = 'uuidv7_adopt_bounds' AND NOT convalidated"), 1,
	'adoption killed after its bounds were set, before they were validated');
# (next month's row, late in the last month the bounds take: counted from
# the bound in the CHECK, not from now(), whose month may have turned since
# the bounds were set)
sql("INSERT INTO live (v) VALUES (1);
	INSERT INTO live (id, v) SELECT uuidv7_generate_at(uuidv7_timestamp(b[1]::uuid) - interval '1 month' + interval '20 days'), 1
	FROM pg_constraint c, regexp_match(pg_get_constraintdef(c.oid), '< ''([0-9a-f-]{36})''') b
	WHERE c.conrelid = 'live'::regclass AND c.conname = 'uuidv7_adopt_bounds'");
is( sql("SELECT relkind::text || ' ' || (SELECT count(*) FROM live) FROM pg_class WHERE oid = 'live'::regclass"),
	'r 50002', "a stopped adoption left a table with every row, that takes this month's and next month's");
sql("CALL uuidv7_adopt_table('live', '1 month', 'UTC')");
# (the periods made ahead: those after the adopted table's span)
is( sql("SELECT relkind::text || ' ' || (SELECT count(*) FROM live) || ' ' || (SELECT count(*) FROM uuidv7_partitions('live')
		WHERE period_start >= (SELECT period_end FROM uuidv7_partitions('live') WHERE partition = 'live_adopted'::regclass))
		FROM pg_class WHERE oid = 'live'::regclass"),
	'p 50002 3', 'adoption completes when run again, every row there');

$node->stop;
done_testing();
