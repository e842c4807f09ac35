-- policies: a table given, in one call, how far ahead its periods are made
-- and how long they are kept; one entry point runs them all and records
-- each run
SET client_min_messages = notice;
\set SHOW_CONTEXT never
SET DateStyle = 'ISO, YMD';
SET IntervalStyle = 'postgres';
SET TimeZone = 'UTC';
-- (the periods below are counted from now(), in statements apart: begin
-- after a day that ends within a minute, so that none turns meanwhile)
DO $$ BEGIN PERFORM pg_sleep(extract(epoch FROM t - clock_timestamp())) FROM date_trunc('day', clock_timestamp() + interval '1 minute', 'UTC') AS t WHERE t > clock_timestamp(); END $$;

CREATE TABLE metrics (id uuid7 PRIMARY KEY, v int) PARTITION BY RANGE (id);
CREATE TABLE metrics_default PARTITION OF metrics DEFAULT;
-- a table without a grid needs its step
SELECT uuidv7_set_partition_policy('metrics', ahead => '3 days', keep => '5 days');
-- the periods of the last ten days, as an application had them, and a row
-- that waits in DEFAULT for tomorrow's
SELECT count(*) FROM uuidv7_create_partitions('metrics', now() - interval '10 days', now(), '1 day', 'UTC');
INSERT INTO metrics VALUES (uuidv7_generate_at(date_trunc('day', now()) + interval '1 day 1 hour'), 1);

-- bad input
SELECT uuidv7_set_partition_policy('metrics', ahead => '-1 day');
-- (positive as intervals compare, a year counting 360 days, but a keep of
-- '-1 year 361 days' cuts four days after now: refused, and so is a record
-- of one written straight into the configuration)
SELECT interval '-1 year 361 days' > interval '0' AS compares_positive;
SELECT uuidv7_set_partition_policy('metrics', keep => '-1 year 361 days');
SELECT uuidv7_set_partition_policy('metrics', ahead => '1 mon -29 days');
UPDATE uuidv7_partition_config SET keep = '-1 year 361 days' WHERE parent_oid = 'metrics'::regclass;
SELECT uuidv7_set_partition_policy('metrics', keep => '5 days', retire => 'archives');
SELECT uuidv7_set_partition_policy('metrics', retire => NULL);
SELECT uuidv7_set_partition_policy('metrics', ahead => '3 days', step => '1 month', zone => 'UTC');
CALL uuidv7_run_maintenance('-1 minute');
BEGIN;
CALL uuidv7_run_maintenance();
ROLLBACK;

-- given: the next three days made at once (the waiting row moved into its
-- period), as a run of maintenance, and recorded so (its NOTICE names
-- them: the days are today's)
SET client_min_messages = warning;
SELECT uuidv7_set_partition_policy('metrics', ahead => '3 days', keep => '5 days');
SET client_min_messages = notice;
SELECT parent, step, zone, ahead, keep, retire, refuse_late_rows, last_run IS NOT NULL AS has_run, last_run_ok
FROM uuidv7_partition_policies;
SELECT parent, created, retired, moved, sqlstate, error, retired_partitions,
	created_partitions = ARRAY(SELECT format('public.metrics_p%s', to_char(now() + d * interval '1 day', 'YYYY_MM_DD'))
							   FROM generate_series(1, 3) d) AS named_created
FROM uuidv7_maintenance_runs;
-- a run: nothing left to make, the periods that ended five days ago or
-- more dropped, and named
CALL uuidv7_run_maintenance();
SELECT parent, created, retired, moved, sqlstate, error, cardinality(retired_partitions) AS named_retired
FROM uuidv7_maintenance_runs ORDER BY started_at;
SELECT min(period_start) = date_trunc('day', now()) - interval '5 days' AS oldest_kept,
	max(period_end) = date_trunc('day', now()) + interval '4 days' AS newest,
	count(*) FILTER (WHERE lower_bound IS NULL) AS default_partitions
FROM uuidv7_partitions('metrics');
SELECT tableoid::regclass = (SELECT p.partition FROM uuidv7_partitions('metrics') p
							 WHERE p.period_start = date_trunc('day', now()) + interval '1 day') AS in_its_period
FROM metrics;
-- again: nothing to do, and said so
CALL uuidv7_run_maintenance();
SELECT parent, created, retired, moved, sqlstate FROM uuidv7_maintenance_runs ORDER BY started_at;

-- detached and kept, late rows refused
SELECT uuidv7_set_partition_policy('metrics', ahead => '3 days', keep => '2 days', retire => 'detach', refuse_late_rows => true);
CALL uuidv7_run_maintenance();
SELECT created, retired FROM uuidv7_maintenance_runs ORDER BY started_at DESC LIMIT 1;
SELECT count(*) AS detached_kept FROM pg_class c
WHERE c.relname LIKE 'metrics\_p%' AND c.relkind = 'r' AND NOT c.relispartition;
\set VERBOSITY terse
INSERT INTO metrics VALUES (uuidv7_generate_at(now() - interval '4 days'), 2);
\set VERBOSITY default

-- a table whose maintenance fails is recorded so, with its error, and the
-- others' runs go on; the doctor names it
CREATE TABLE broken (id uuid7 PRIMARY KEY) PARTITION BY RANGE (id);
SET client_min_messages = warning;
SELECT uuidv7_set_partition_policy('broken', ahead => '2 days', step => '1 day', zone => 'UTC');
SET client_min_messages = notice;
-- (tomorrow's period taken away, and its name taken by a table of another
-- kind, before the run that makes it again)
DO $$ BEGIN EXECUTE format('DROP TABLE broken_p%1$s; CREATE TABLE broken_p%1$s (id uuid7)', to_char(now() + interval '1 day', 'YYYY_MM_DD')); END $$;
-- (its WARNING names the day: the history is read below)
SET client_min_messages = error;
CALL uuidv7_run_maintenance();
SET client_min_messages = notice;
SELECT parent, created, sqlstate, error LIKE 'relation public.broken_p% already exists and is not the partition of public.broken for the period from %' AS named
FROM uuidv7_maintenance_runs WHERE started_at = (SELECT max(started_at) FROM uuidv7_maintenance_runs r WHERE r.parent = 'public.broken');
SELECT parent, last_run_ok FROM uuidv7_partition_policies ORDER BY parent;
SELECT severity, object, problem LIKE 'its last maintenance run, at %, failed: relation public.broken_p% already exists %(SQLSTATE 42P07)' AS named, fix
FROM uuidv7_doctor() WHERE object = 'public.broken' ORDER BY severity;

-- a role that may not read a table learns nothing of its runs, not even
-- through a function of its own that the planner would run first (the
-- views are security barriers)
CREATE ROLE regress_policy_peeker;
-- (the runner may be a role with CREATEROLE only: it takes it on)
GRANT regress_policy_peeker TO CURRENT_USER;
SET ROLE regress_policy_peeker;
CREATE FUNCTION pg_temp.peek(t text) RETURNS bool LANGUAGE plpgsql COST 0.0000001
	AS $$ BEGIN RAISE NOTICE 'peeked: %', left(t, 20); RETURN true; END $$;
SELECT count(*) FROM uuidv7_maintenance_runs WHERE pg_temp.peek(error);
SELECT count(*) FROM uuidv7_partition_policies WHERE pg_temp.peek(last_error);
DROP FUNCTION pg_temp.peek(text);
RESET ROLE;
DROP ROLE regress_policy_peeker;

-- a role runs the policies of the tables it may alter, and only those
CREATE ROLE regress_policy_other;
GRANT regress_policy_other TO CURRENT_USER;
GRANT ALL ON metrics TO regress_policy_other;
SET ROLE regress_policy_other;
SELECT uuidv7_set_partition_policy('metrics', ahead => '1 day');
CALL uuidv7_run_maintenance();
INSERT INTO uuidv7_maintenance_history (parent_schema, parent_name, started_at, duration)
VALUES ('public', 'metrics', now(), '1 second');
RESET ROLE;

-- removed, the same way: listed no more, run no more
SELECT uuidv7_set_partition_policy('broken');
SELECT parent FROM uuidv7_partition_policies ORDER BY parent;
SELECT severity, object FROM uuidv7_doctor() WHERE object = 'public.broken';

-- never run (a policy of keep alone makes nothing when given): the doctor
-- says so
CREATE TABLE idle (id uuid7 PRIMARY KEY) PARTITION BY RANGE (id);
SELECT count(*) > 0 AS made FROM uuidv7_create_partitions('idle', now(), now() + interval '1 month', '1 day', 'UTC');
SELECT uuidv7_set_partition_policy('idle', keep => '30 days');
SELECT severity, object, problem, fix FROM uuidv7_doctor() WHERE object = 'public.idle';

-- a table whose code raises what OTHERS does not catch (a cancel, a failed
-- assertion), or renames the table in its run, stops no other table's run
CREATE TABLE hostile_a (id uuid7 PRIMARY KEY, v int) PARTITION BY RANGE (id);
CREATE TABLE hostile_a_default PARTITION OF hostile_a DEFAULT;
CREATE TABLE hostile_b (id uuid7 PRIMARY KEY, v int) PARTITION BY RANGE (id);
CREATE TABLE hostile_b_default PARTITION OF hostile_b DEFAULT;
CREATE TABLE hostile_c (id uuid7 PRIMARY KEY, v int) PARTITION BY RANGE (id);
CREATE TABLE hostile_c_default PARTITION OF hostile_c DEFAULT;
-- (each evaluated when its waiting row moves into tomorrow's partition,
-- whose index is built then)
CREATE FUNCTION hostile_rename() RETURNS void LANGUAGE sql
	AS $$ ALTER TABLE public.hostile_c RENAME TO hostile_c_renamed $$;
CREATE FUNCTION hostile(v int) RETURNS int LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
	IF v = 1 AND current_setting('regress.hostile', true) = 'on' THEN
		RAISE SQLSTATE '57014' USING MESSAGE = 'not a real cancel';
	ELSIF v = 2 AND current_setting('regress.hostile', true) = 'on' THEN
		ASSERT false, 'a failed assertion';
	ELSIF v = 3 AND current_setting('regress.hostile', true) = 'on' THEN
		PERFORM public.hostile_rename();
	END IF;
	RETURN v;
END
$$;
CREATE INDEX ON hostile_a (hostile(v));
CREATE INDEX ON hostile_b (hostile(v));
CREATE INDEX ON hostile_c (hostile(v));
SET client_min_messages = warning;
SELECT count(uuidv7_set_partition_policy(t, ahead => '2 days', step => '1 day', zone => 'UTC'))
FROM unnest('{hostile_a, hostile_b, hostile_c, idle}'::regclass[]) t;
SET client_min_messages = notice;
-- (tomorrow's period made again by the run, its row waiting in DEFAULT)
DO $$ BEGIN EXECUTE format('DROP TABLE hostile_a_p%1$s, hostile_b_p%1$s, hostile_c_p%1$s', to_char(now() + interval '1 day', 'YYYY_MM_DD')); END $$;
INSERT INTO hostile_a VALUES (uuidv7_generate_at(date_trunc('day', now()) + interval '1 day 1 hour'), 1);
INSERT INTO hostile_b VALUES (uuidv7_generate_at(date_trunc('day', now()) + interval '1 day 1 hour'), 2);
INSERT INTO hostile_c VALUES (uuidv7_generate_at(date_trunc('day', now()) + interval '1 day 1 hour'), 3);
DELETE FROM uuidv7_maintenance_history;
SET regress.hostile = on;
SET client_min_messages = error;
CALL uuidv7_run_maintenance();
SET client_min_messages = notice;
RESET regress.hostile;
SELECT parent, sqlstate, error FROM uuidv7_maintenance_runs ORDER BY parent;

DELETE FROM uuidv7_maintenance_history WHERE parent_oid IN ('metrics'::regclass, 'broken'::regclass, 'idle'::regclass);
DELETE FROM uuidv7_maintenance_history WHERE parent_oid IN ('hostile_a'::regclass, 'hostile_b'::regclass, 'hostile_c_renamed'::regclass);
DELETE FROM uuidv7_partition_config WHERE parent_name IN ('metrics', 'broken', 'idle', 'hostile_a', 'hostile_b', 'hostile_c');
DROP TABLE metrics, broken, idle, hostile_a, hostile_b, hostile_c_renamed;
DROP FUNCTION hostile(int), hostile_rename();
DO $$
DECLARE t regclass;
BEGIN
	FOR t IN SELECT c.oid FROM pg_class c
			 WHERE c.relkind = 'r' AND (c.relname LIKE 'metrics\_p%' OR c.relname LIKE 'broken\_p%') LOOP
		EXECUTE format('DROP TABLE %s', t);
	END LOOP;
END
$$;
DROP ROLE regress_policy_other;
