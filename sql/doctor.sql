-- uuidv7_doctor(): each problem it knows, present and then fixed

-- the settings its output depends on, whatever the server's: the planner's,
-- parallelism, JIT and the client's at their built-in defaults
SELECT count(set_config(name, boot_val, false)) > 0 AS settings_pinned FROM pg_settings
WHERE name ~ '^enable_' OR name IN ('client_min_messages', 'extra_float_digits', 'jit',
	'max_parallel_workers_per_gather', 'plan_cache_mode', 'default_statistics_target', 'effective_cache_size',
	'random_page_cost', 'seq_page_cost', 'cpu_tuple_cost', 'cpu_index_tuple_cost', 'cpu_operator_cost',
	'parallel_setup_cost', 'parallel_tuple_cost', 'min_parallel_table_scan_size', 'min_parallel_index_scan_size');
-- (errors without the PL/pgSQL or SQL lines that raised them, which differ
-- between the C and SQL editions)
\set SHOW_CONTEXT never
SET TimeZone = 'UTC';
SET DateStyle = 'ISO';
SET client_min_messages = warning;

-- nothing to report yet
SELECT * FROM uuidv7_doctor();

-- partitions that ran out in the past, a DEFAULT partition holding rows, and
-- a healthy table beside them; a table partitioned on something else is
-- none of its business
CREATE TABLE stale (id uuid7 PRIMARY KEY) PARTITION BY RANGE (id);
SELECT count(*) FROM uuidv7_create_partitions('stale', '2025-01-01', '2025-03-01', '1 month', 'UTC');
CREATE TABLE stale_default PARTITION OF stale DEFAULT;
INSERT INTO stale VALUES (uuidv7_generate());
-- a late row of a period before the oldest partition (as after retention)
INSERT INTO stale VALUES (uuidv7_min('2024-06-01 00:00+00'));
-- a table whose adoption stopped after its bounds were set
CREATE TABLE half_adopted (id uuid7 PRIMARY KEY);
DO $$
BEGIN
	EXECUTE format('ALTER TABLE half_adopted ADD CONSTRAINT uuidv7_adopt_bounds CHECK (id >= %L AND id < %L)',
				   uuidv7_min('2025-01-01 00:00+00'), uuidv7_min('2025-03-01 00:00+00'));
END
$$;
CREATE TABLE healthy (id uuid PRIMARY KEY CHECK (uuidv7_domain_check(id))) PARTITION BY RANGE (id);
SELECT count(*) FROM uuidv7_create_partitions('healthy', now() - interval '1 day', now() + interval '30 days', '1 day', 'UTC');
CREATE TABLE healthy_default PARTITION OF healthy DEFAULT;
CREATE TABLE open_ended (id uuid PRIMARY KEY) PARTITION BY RANGE (id);
CREATE TABLE open_ended_all PARTITION OF open_ended FOR VALUES FROM (uuidv7_min('2025-01-01 00:00+00')) TO (MAXVALUE);
CREATE TABLE empty_parent (id uuid7 PRIMARY KEY) PARTITION BY RANGE (id);
CREATE TABLE by_time (t timestamptz) PARTITION BY RANGE (t);
SELECT * FROM uuidv7_doctor() ORDER BY object COLLATE "C", problem COLLATE "C";

-- what a role may not read is not looked at
CREATE ROLE regress_doctor_reader;
-- (so that a role without superuser running the suite may become it)
GRANT regress_doctor_reader TO CURRENT_USER;
GRANT SELECT, INSERT ON stale TO regress_doctor_reader;
SET ROLE regress_doctor_reader;
SELECT severity, object FROM uuidv7_doctor() ORDER BY object COLLATE "C", problem COLLATE "C";
RESET ROLE;
DROP OWNED BY regress_doctor_reader;
DROP ROLE regress_doctor_reader;

-- fixed as it says: the months from where they ended are made and the row
-- waiting in the DEFAULT partition moves in
SELECT sum(moved) AS moved FROM uuidv7_create_partitions('public.stale', '2025-03-01 00:00:00+00', now() + interval '1 month', '1 month');
SELECT count(*) > 0 AS created FROM uuidv7_create_partitions('public.empty_parent', date_trunc('day', now()), now() + interval '1 month', '1 day');
SELECT * FROM uuidv7_doctor() ORDER BY object COLLATE "C", problem COLLATE "C";
-- the late row archived as it says, and later ones refused; the adoption
-- finished
DELETE FROM stale_default WHERE id < uuidv7_min('2025-01-01 00:00+00');
SELECT partition, action FROM uuidv7_drop_partitions('stale', '2024-01-01 00:00+00', refuse_late_rows => true);
INSERT INTO stale VALUES (uuidv7_min('2024-06-01 00:00+00'));
CALL uuidv7_adopt_table('half_adopted', '1 month', 'UTC', periods_ahead => 0);
SELECT severity, object, problem FROM uuidv7_doctor() ORDER BY object COLLATE "C", problem COLLATE "C";

DROP TABLE stale, healthy, open_ended, empty_parent, by_time, half_adopted;

-- rows that came before any partition was made (a table with a DEFAULT
-- partition only): the fix makes the periods from the oldest row's day, in
-- the zone it names, and no row is left in DEFAULT to be called late
CREATE TABLE early (id uuid7 PRIMARY KEY) PARTITION BY RANGE (id);
CREATE TABLE early_default PARTITION OF early DEFAULT;
-- (one transaction: the rows' days and the fix's are counted from one now())
BEGIN;
INSERT INTO early SELECT uuidv7_generate_at(now() - g * interval '1 day') FROM generate_series(1, 20) g;
SELECT severity, problem,
	(regexp_match(fix, '^SELECT \* FROM uuidv7_create_partitions\(''public\.early'', ''([^'']+)'', now\(\) \+ interval ''1 month'', ''1 day'', ''UTC''\);$'))[1]::timestamptz
		= date_trunc('day', now() - interval '20 days') AS from_the_oldest_rows_day
FROM uuidv7_doctor() WHERE object = 'public.early';
COMMIT;
DO $$ BEGIN EXECUTE (SELECT fix FROM uuidv7_doctor() WHERE object = 'public.early'); END $$;
SELECT (SELECT count(*) FROM early_default) AS left_in_default, count(*) AS findings
FROM uuidv7_doctor() WHERE object LIKE 'public.early%';
DROP TABLE early;

-- rows older than the oldest partition, of a table without a policy: the
-- fix names the call that makes their periods first, and it takes them in
CREATE TABLE came_early (id uuid7 PRIMARY KEY) PARTITION BY RANGE (id);
CREATE TABLE came_early_default PARTITION OF came_early DEFAULT;
SELECT count(*) AS created FROM uuidv7_create_partitions('came_early', '2025-03-01', '2025-05-01', '1 month', 'UTC');
INSERT INTO came_early VALUES (uuidv7_generate_at('2025-01-15 00:00+00')), (uuidv7_generate_at('2025-02-20 00:00+00'));
SELECT severity, problem, fix FROM uuidv7_doctor() WHERE object = 'public.came_early_default' ORDER BY problem COLLATE "C";
SELECT sum(moved) AS moved FROM uuidv7_create_partitions('public.came_early', '2025-01-15 00:00:00+00', '2025-03-01 00:00:00+00');
SELECT count(*) AS findings FROM uuidv7_doctor() WHERE object = 'public.came_early_default';
DROP TABLE came_early;

-- a table that keeps its oldest rows in a partition from MINVALUE: its fix
-- continues by the length of its last period, not by that partition's
CREATE TABLE archived (id uuid7 PRIMARY KEY) PARTITION BY RANGE (id);
CREATE TABLE archived_before PARTITION OF archived FOR VALUES FROM (MINVALUE) TO (uuidv7_min('2025-01-01 00:00+00'));
SELECT count(*) FROM uuidv7_create_partitions('archived', '2025-01-01', '2025-03-01', '1 month', 'UTC');
SELECT problem, fix FROM uuidv7_doctor() WHERE object = 'public.archived';
DROP TABLE archived;

-- a table of a million rows or more keyed by a uuid, with the default
-- statistics target, and one of a row less; their sizes as VACUUM counts
-- them (autovacuum kept off, so that nothing records another)
SET default_statistics_target = 100;
CREATE TABLE big_keyed (id uuid PRIMARY KEY, v int) WITH (autovacuum_enabled = off);
CREATE TABLE small_keyed (id uuid PRIMARY KEY, v int) WITH (autovacuum_enabled = off);
INSERT INTO big_keyed SELECT lpad(to_hex(g), 32, '0')::uuid FROM generate_series(1, 1000000) g;
INSERT INTO small_keyed SELECT lpad(to_hex(g), 32, '0')::uuid FROM generate_series(1, 999999) g;
VACUUM big_keyed;
VACUUM small_keyed;
SELECT relname, reltuples::bigint FROM pg_class WHERE relname IN ('big_keyed', 'small_keyed') ORDER BY relname COLLATE "C";
SELECT * FROM uuidv7_doctor() ORDER BY object COLLATE "C", problem COLLATE "C";
-- fixed as it says; a server-wide target of 1000 or more is enough too
ALTER TABLE big_keyed ALTER COLUMN id SET STATISTICS 10000;
SELECT count(*) AS findings FROM uuidv7_doctor();
ALTER TABLE big_keyed ALTER COLUMN id SET STATISTICS -1;
SET default_statistics_target = 1000;
SELECT count(*) AS findings FROM uuidv7_doctor();
SET default_statistics_target = 100;
DROP TABLE big_keyed, small_keyed;

-- a foreign key to a table partitioned on a uuid key, left NOT VALID (an
-- adoption stopped before it validated those it re-made); validated as the
-- fix says, nothing is found
CREATE TABLE parted (id uuid PRIMARY KEY) PARTITION BY RANGE (id);
CREATE TABLE parted_default PARTITION OF parted DEFAULT;
CREATE TABLE pointing (parted_id uuid);
ALTER TABLE pointing ADD CONSTRAINT pointing_parted FOREIGN KEY (parted_id) REFERENCES parted NOT VALID;
SELECT severity, object, problem, fix FROM uuidv7_doctor() WHERE object LIKE '%pointing';
ALTER TABLE pointing VALIDATE CONSTRAINT pointing_parted;
SELECT count(*) AS findings FROM uuidv7_doctor() WHERE object LIKE '%pointing';
DROP TABLE pointing, parted;
