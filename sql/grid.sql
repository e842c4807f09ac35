-- partition grids: a table remembers its step, zone and anchor, and every
-- later call follows them, whatever the caller's TimeZone
SET client_min_messages = warning;
\set SHOW_CONTEXT never
SET DateStyle = 'ISO, YMD';
SET IntervalStyle = 'postgres';
SET TimeZone = 'UTC';
CREATE SCHEMA s;

-- a table given its first periods records its grid; a from inside a
-- period means that period, whose name names it (before: s.ev_p2026_09
-- from 2026-09-27 09:45, and the nightly call then failed with 42P07)
CREATE TABLE s.ev (id uuid7 PRIMARY KEY, v int) PARTITION BY RANGE (id);
SELECT partition_name, created FROM uuidv7_create_partitions('s.ev', '2026-09-27 09:45:19.173+00', '2026-11-27 09:45+00', '1 month', 'UTC');
SELECT partition, period_start, period_end FROM uuidv7_partitions('s.ev') ORDER BY lower_bound;
SELECT parent_schema, parent_name, step, zone, anchor, parent_oid = 's.ev'::regclass AS its_oid FROM uuidv7_partition_config WHERE parent_schema = 's';
SELECT partition_name, created FROM uuidv7_create_partitions('s.ev', '2026-10-01', '2027-01-01', '1 month', 'UTC');

-- from another session's zone, without step or zone: the table's
SET TimeZone = 'Europe/Berlin';
SELECT partition_name, created FROM uuidv7_create_partitions('s.ev', '2026-12-15', '2027-02-01');
SELECT partition_name, lower_bound, upper_bound FROM uuidv7_partition_ddl('s.ev', '2027-02-01', '2027-03-01');
SELECT * FROM uuidv7_partition_grid('s.ev');
-- a step or zone that would make other periods: 22023, naming both
SELECT * FROM uuidv7_create_partitions('s.ev', '2027-01-01', '2027-02-01', '1 month', 'Europe/Berlin');
SELECT * FROM uuidv7_create_partitions('s.ev', '2027-01-01', '2027-02-01', '1 day');
-- names of the same zone and steps of the same periods agree
SELECT count(*) FROM uuidv7_create_partitions('s.ev', '2027-01-01', '2027-02-01', '1 mon', 'Etc/UTC');
SET TimeZone = 'America/New_York';
SELECT partition, period_start FROM uuidv7_partitions('s.ev') ORDER BY lower_bound;
SET TimeZone = 'UTC';

-- a table partitioned by the DDL of a migration (no record): its grid is
-- read from its partitions' bounds, and the doctor's fix names it in full,
-- the same from any zone, and works from any other (before: from
-- Europe/Berlin, orders_p2025_10 ended at 01:00 UTC, and the nightly job
-- failed with 42P07)
CREATE TABLE orders (id uuid7 PRIMARY KEY) PARTITION BY RANGE (id);
SELECT ddl FROM uuidv7_partition_ddl('orders', '2025-07-01', '2025-10-01', '1 month', 'UTC') \gexec
SELECT count(*) AS records FROM uuidv7_partition_config WHERE parent_name = 'orders';
SET TimeZone = 'Europe/Berlin';
SELECT * FROM uuidv7_partition_grid('orders');
SELECT fix FROM uuidv7_doctor() WHERE object = 'public.orders' \gset berlin_
SELECT :'berlin_fix';
-- (run from New York, up to a fixed time)
SET TimeZone = 'America/New_York';
SELECT replace(:'berlin_fix', 'now() + interval ''1 month''', '''2025-12-01 00:00+00''') AS fix \gset
:fix
SET TimeZone = 'UTC';
SELECT partition, period_start, period_end FROM uuidv7_partitions('orders') ORDER BY lower_bound;
SELECT step, zone, anchor FROM uuidv7_partition_config WHERE parent_name = 'orders';

-- a table with an anchor of its own: fiscal quarters from February, and
-- weeks from Sunday, read from their partitions; a from inside a period
-- means that period, not the calendar's
CREATE TABLE fiscal (id uuid7 PRIMARY KEY) PARTITION BY RANGE (id);
SELECT format('CREATE TABLE fiscal_q%s PARTITION OF fiscal FOR VALUES FROM (%L) TO (%L)', row_number() OVER (ORDER BY period_start), lower_bound, upper_bound)
FROM uuidv7_partition_bounds('2025-02-01', '2025-11-01', '3 months', 'UTC') \gexec
SELECT * FROM uuidv7_partition_grid('fiscal');
SELECT partition_name, created FROM uuidv7_create_partitions('fiscal', '2025-09-15', '2026-03-01');
SELECT partition, period_start, period_end FROM uuidv7_partitions('fiscal') ORDER BY lower_bound;
CREATE TABLE weekly (id uuid7 PRIMARY KEY) PARTITION BY RANGE (id);
SELECT format('CREATE TABLE weekly_w%s PARTITION OF weekly FOR VALUES FROM (%L) TO (%L)', row_number() OVER (ORDER BY period_start), lower_bound, upper_bound)
FROM uuidv7_partition_bounds('2025-06-01', '2025-06-22', '7 days', 'UTC') \gexec
SELECT partition_name, created FROM uuidv7_create_partitions('weekly', '2025-06-18 12:00', '2025-07-02');
SELECT partition, to_char(period_start, 'Dy YYYY-MM-DD HH24:MI') AS starts FROM uuidv7_partitions('weekly') ORDER BY lower_bound;

-- a zone whose clocks move at midnight (Havana: the day of 2026-03-08
-- starts at 01:00): days from its local midnights, the short day's from
-- 01:00, a call from inside it meaning it
CREATE TABLE havana (id uuid7 PRIMARY KEY) PARTITION BY RANGE (id);
SELECT partition_name, created FROM uuidv7_create_partitions('havana', '2026-03-06 12:00-05', '2026-03-10 00:00-04', '1 day', 'America/Havana');
SELECT partition, period_start AT TIME ZONE 'America/Havana' AS local_start, period_end - period_start AS length
FROM uuidv7_partitions('havana') ORDER BY lower_bound;
SELECT partition_name, created FROM uuidv7_create_partitions('havana', '2026-03-08 12:00-04', '2026-03-11 00:00-04');
-- read from a session in UTC, without a record, it fits neither the
-- session's days nor UTC's: a clear error, and a fix that names the zone
DELETE FROM uuidv7_partition_config WHERE parent_name = 'havana';
SELECT * FROM uuidv7_partition_grid('havana');
SELECT * FROM uuidv7_create_partitions('havana', '2026-03-11', '2026-03-12');
-- (a policy given a step and zone records them only where the partitions
-- follow them)
SELECT uuidv7_set_partition_policy('havana', ahead => '2 days', step => '1 day', zone => 'UTC');
SELECT count(*) AS records FROM uuidv7_partition_config WHERE parent_name = 'havana';
SELECT count(*) FROM uuidv7_create_partitions('havana', '2026-03-11 00:00-04', '2026-03-12 00:00-04', '1 day', 'America/Havana');
SELECT uuidv7_set_partition_grid('havana', '1 day', 'America/Havana');
SELECT step, zone FROM uuidv7_partition_grid('havana');

-- hours in a zone across its clock change (Berlin, 2026-03-29 02:00 CET is
-- 03:00 CEST): lengths of time from the first period's local midnight;
-- called again from inside a period, nothing new and no error
CREATE TABLE hourly (id uuid7 PRIMARY KEY) PARTITION BY RANGE (id);
SELECT count(*) FROM uuidv7_create_partitions('hourly', '2026-03-28 22:30+00', '2026-03-29 03:00+00', '6 hours', 'Europe/Berlin');
SELECT partition, period_start AT TIME ZONE 'Europe/Berlin' AS local_start FROM uuidv7_partitions('hourly') ORDER BY lower_bound;
SELECT count(*) FILTER (WHERE created) AS created FROM uuidv7_create_partitions('hourly', '2026-03-29 01:00+00', '2026-03-29 05:00+00');

-- a zone whose midnights fit another's periods between two clock changes is
-- not taken for theirs: months of Paris, made by DDL, read from New York
-- (before: New York's 18:00 was taken, and new periods were named a month
-- behind and ended at 23:00); named, Paris is read
CREATE TABLE paris (id uuid7 PRIMARY KEY) PARTITION BY RANGE (id);
SELECT ddl FROM uuidv7_partition_ddl('paris', '2025-01-01 00:00+01', '2025-05-01 00:00+02', '1 month', 'Europe/Paris') \gexec
SET TimeZone = 'America/New_York';
SELECT * FROM uuidv7_partition_grid('paris');
SELECT step, zone FROM uuidv7_internal.uuidv7_read_grid('paris', 'Europe/Paris');
SELECT partition_name, created FROM uuidv7_create_partitions('paris', '2025-07-15', '2025-09-01', zone => 'Europe/Paris');
SET TimeZone = 'UTC';
-- days of UTC made by DDL: a call in New York's days disagrees (before: it
-- was taken as the table's zone, and 42P07 followed); hours of UTC read
-- from a Berlin session keep UTC's names (before: Berlin's)
CREATE TABLE utc_days (id uuid7 PRIMARY KEY) PARTITION BY RANGE (id);
SELECT ddl FROM uuidv7_partition_ddl('utc_days', '2025-03-01', '2025-03-04', '1 day', 'UTC') \gexec
SELECT * FROM uuidv7_create_partitions('utc_days', '2025-03-03', '2025-03-06', '1 day', 'America/New_York');
CREATE TABLE utc_hours (id uuid7 PRIMARY KEY) PARTITION BY RANGE (id);
SELECT ddl FROM uuidv7_partition_ddl('utc_hours', '2025-03-01 10:00', '2025-03-01 13:00', '1 hour', 'UTC') \gexec
SET TimeZone = 'Europe/Berlin';
SELECT partition_name, created FROM uuidv7_create_partitions('utc_hours', '2025-03-01 12:00+00', '2025-03-01 15:00+00');
SELECT step, zone FROM uuidv7_partition_config WHERE parent_name = 'utc_hours';
SET TimeZone = 'UTC';
-- hours that a half-hour clock change moves off the hour are named with
-- their minutes (Lord Howe, 2025-04-06: two periods were named _01)
CREATE TABLE lord_howe (id uuid7 PRIMARY KEY) PARTITION BY RANGE (id);
SELECT partition_name, created FROM uuidv7_create_partitions('lord_howe', '2025-04-05 13:00+00', '2025-04-05 17:00+00', '1 hour', 'Australia/Lord_Howe');

-- a renamed table keeps its record, moved to its name at the next call
ALTER TABLE utc_hours RENAME TO utc_hours_renamed;
SELECT step, zone, source FROM uuidv7_partition_grid('utc_hours_renamed');
SELECT count(*) FROM uuidv7_create_partitions('utc_hours_renamed', '2025-03-01 12:00+00', '2025-03-01 13:00+00');
SELECT parent_name FROM uuidv7_partition_config WHERE parent_name LIKE 'utc\_hours%';
-- the doctor's fix for a renamed table with a recorded grid and no
-- partitions yet follows its record, and works (before: it named days, which
-- the record of months refused with 22023)
CREATE TABLE monthly (id uuid7 PRIMARY KEY) PARTITION BY RANGE (id);
SELECT uuidv7_set_partition_grid('monthly', '1 month', 'UTC');
ALTER TABLE monthly RENAME TO monthly_renamed;
SELECT replace(fix, 'now() + interval ''1 month''', '''2025-03-01 00:00+00''') AS fix
FROM uuidv7_doctor() WHERE object = 'public.monthly_renamed' \gset
SELECT :'fix';
SELECT replace(replace(:'fix', 'SELECT *', 'SELECT count(*) AS periods'), 'now()', '''2025-01-15 00:00+00''::timestamptz') \gexec
DROP TABLE monthly_renamed;
-- nor is a renamed table's recorded grid reported unreadable (before: a
-- NOTICE until the record's next change, whose fix would record it again)
CREATE TABLE uneven (id uuid7 PRIMARY KEY) PARTITION BY RANGE (id);
SELECT uuidv7_set_partition_grid('uneven', '1 day', 'UTC');
CREATE TABLE uneven_1 PARTITION OF uneven FOR VALUES FROM (uuidv7_min('2024-01-01 00:00+00')) TO (uuidv7_min('2024-01-02 00:00+00'));
CREATE TABLE uneven_2 PARTITION OF uneven FOR VALUES FROM (uuidv7_min('2024-01-02 00:00+00')) TO (uuidv7_min('2024-02-02 00:00+00'));
CREATE TABLE uneven_3 PARTITION OF uneven FOR VALUES FROM (uuidv7_min('2024-02-02 00:00+00')) TO (uuidv7_min('2024-02-02 05:00+00'));
ALTER TABLE uneven RENAME TO uneven_renamed;
SELECT severity, problem FROM uuidv7_doctor() WHERE object = 'public.uneven_renamed' AND severity = 'notice';
DROP TABLE uneven_renamed;

-- a record's values must make a grid (22023), and its OID is its table's
\set VERBOSITY terse
UPDATE uuidv7_partition_config SET zone = 'Not/AZone' WHERE parent_name = 'lord_howe';
UPDATE uuidv7_partition_config SET anchor = 'infinity' WHERE parent_name = 'lord_howe';
UPDATE uuidv7_partition_config SET step = '1 mon -29 days' WHERE parent_name = 'lord_howe';
\set VERBOSITY default
UPDATE uuidv7_partition_config SET parent_oid = 'paris'::regclass WHERE parent_name = 'lord_howe';
SELECT parent_oid = 'lord_howe'::regclass AS its_own FROM uuidv7_partition_config WHERE parent_name = 'lord_howe';

-- a table with neither a record nor partitions needs a step; one whose
-- partitions follow no step can be given one, or recorded
CREATE TABLE fresh (id uuid7 PRIMARY KEY) PARTITION BY RANGE (id);
SELECT * FROM uuidv7_create_partitions('fresh', '2025-01-01', '2025-02-01');
SELECT * FROM uuidv7_partition_ddl('fresh', '2025-01-01', '2025-02-01');
SELECT * FROM uuidv7_partition_grid('fresh');
CREATE TABLE fresh_a PARTITION OF fresh FOR VALUES FROM (uuidv7_min('2025-01-01')) TO (uuidv7_min('2025-01-03'));
CREATE TABLE fresh_b PARTITION OF fresh FOR VALUES FROM (uuidv7_min('2025-01-03')) TO (uuidv7_min('2025-01-04'));
SELECT * FROM uuidv7_partition_grid('fresh');
SELECT uuidv7_set_partition_grid('fresh', '1 month', 'UTC');
SELECT partition_name FROM uuidv7_create_partitions('fresh', '2025-01-04', '2025-01-06', '1 day', 'UTC');
-- NULL as a STRICT function: no rows
SELECT count(*) FROM uuidv7_create_partitions(NULL, '2025-01-01', '2025-02-01', '1 day');
SELECT count(*) FROM uuidv7_partition_ddl('s.ev', NULL, '2025-02-01');
SELECT uuidv7_set_partition_grid('fresh', NULL);

-- a table dropped and made again under its name: the old record is not
-- the new table's
DROP TABLE s.ev;
CREATE TABLE s.ev (id uuid7 PRIMARY KEY) PARTITION BY RANGE (id);
SELECT partition_name FROM uuidv7_create_partitions('s.ev', '2025-01-01', '2025-01-03', '1 day', 'UTC');
SELECT step, zone, parent_oid = 's.ev'::regclass AS its_oid FROM uuidv7_partition_config WHERE parent_schema = 's' AND parent_name = 'ev';
-- pg_dump keeps the records of the tables that are, and only those
SELECT pg_catalog.array_length(e.extcondition, 1) AS filters FROM pg_extension e WHERE e.extname = 'uuidv7';

-- only a role that may alter the table writes its record; any may read
CREATE ROLE regress_grid_owner;
CREATE ROLE regress_grid_other;
-- (the runner may be a role with CREATEROLE only: it takes them on)
GRANT regress_grid_owner, regress_grid_other TO CURRENT_USER;
GRANT USAGE, CREATE ON SCHEMA s TO regress_grid_owner;
GRANT USAGE ON SCHEMA s TO regress_grid_other;
CREATE TABLE s.owned (id uuid7 PRIMARY KEY) PARTITION BY RANGE (id);
ALTER TABLE s.owned OWNER TO regress_grid_owner;
GRANT ALL ON s.owned TO regress_grid_other;
SET ROLE regress_grid_other;
SELECT parent_name FROM uuidv7_partition_config WHERE parent_name IN ('orders', 'havana') ORDER BY parent_name;
INSERT INTO uuidv7_partition_config (parent_schema, parent_name, parent_oid, step, zone, anchor)
VALUES ('s', 'owned', 's.owned'::regclass, '1 day', 'UTC', '2025-01-01');
UPDATE uuidv7_partition_config SET step = '1 year' WHERE parent_name = 'havana';
DELETE FROM uuidv7_partition_config WHERE parent_name = 'orders';
INSERT INTO uuidv7_partition_config (parent_schema, parent_name, parent_oid, step, zone, anchor)
VALUES ('public', 'not_yet', 0, '1 day', 'UTC', '2025-01-01');
SELECT uuidv7_set_partition_grid('s.owned', '1 day', 'UTC');
RESET ROLE;
SET ROLE regress_grid_owner;
SELECT uuidv7_set_partition_grid('s.owned', '1 day', 'UTC');
UPDATE uuidv7_partition_config SET step = '1 week' WHERE parent_schema = 's' AND parent_name = 'owned';
RESET ROLE;
SELECT step, zone, anchor FROM uuidv7_partition_config WHERE parent_schema = 's' AND parent_name = 'owned';

-- a table renamed, and a new one made under its name: each has its own
-- record (the renamed one's keeps its policy), also where another role owns
-- the renamed one; anyone may give a record its table's name now, nothing
-- else
CREATE TABLE s.kept (id uuid7 PRIMARY KEY) PARTITION BY RANGE (id);
ALTER TABLE s.kept OWNER TO regress_grid_owner;
SET ROLE regress_grid_owner;
SELECT count(*) FROM uuidv7_create_partitions('s.kept', '2025-01-01', '2025-01-02', '1 day', 'UTC');
SELECT uuidv7_set_partition_policy('s.kept', ahead => '7 days', keep => '30 days');
ALTER TABLE s.kept RENAME TO kept_before;
RESET ROLE;
CREATE TABLE s.kept (id uuid7 PRIMARY KEY) PARTITION BY RANGE (id);
GRANT CREATE ON SCHEMA s TO regress_grid_other;
ALTER TABLE s.kept OWNER TO regress_grid_other;
SET ROLE regress_grid_other;
SELECT count(*) FROM uuidv7_create_partitions('s.kept', '2025-01-01', '2025-01-02', '1 hour', 'UTC');
UPDATE uuidv7_partition_config SET ahead = '1 day' WHERE parent_oid = 's.kept_before'::regclass;
RESET ROLE;
SELECT parent_name, parent_oid = format('s.%I', parent_name)::regclass AS own_oid, step, ahead, keep
FROM uuidv7_partition_config WHERE parent_schema = 's' AND parent_name LIKE 'kept%' ORDER BY parent_name, own_oid;
-- (the renamed table's record takes its name at its next call)
SET ROLE regress_grid_owner;
SELECT uuidv7_set_partition_policy('s.kept_before', ahead => '7 days', keep => '30 days');
RESET ROLE;
SELECT parent_name, parent_oid = format('s.%I', parent_name)::regclass AS own_oid, step, ahead, keep
FROM uuidv7_partition_config WHERE parent_schema = 's' AND parent_name LIKE 'kept%' ORDER BY parent_name, own_oid;
-- names swapped between two tables: each record follows its table
ALTER TABLE s.kept RENAME TO kept_swap;
ALTER TABLE s.kept_before RENAME TO kept;
ALTER TABLE s.kept_swap RENAME TO kept_before;
SELECT count(*) FROM uuidv7_create_partitions('s.kept', '2025-01-02', '2025-01-03');
SELECT count(*) FROM uuidv7_create_partitions('s.kept_before', '2025-01-02', '2025-01-02 01:00');
SELECT parent_name, parent_oid = format('s.%I', parent_name)::regclass AS own_oid, step, ahead, keep
FROM uuidv7_partition_config WHERE parent_schema = 's' AND parent_name LIKE 'kept%' ORDER BY parent_name, own_oid;

DELETE FROM uuidv7_partition_config WHERE (parent_schema, parent_name) IN (('s', 'ev'), ('public', 'orders'), ('public', 'fiscal'), ('public', 'weekly'), ('public', 'havana'), ('public', 'hourly'), ('public', 'fresh'), ('s', 'owned'), ('public', 'paris'), ('public', 'utc_days'), ('public', 'utc_hours_renamed'), ('public', 'lord_howe'), ('s', 'kept'), ('s', 'kept_before'));
DROP TABLE s.ev, orders, fiscal, weekly, havana, hourly, fresh, s.owned, paris, utc_days, utc_hours_renamed, lord_howe,
	s.kept, s.kept_before;
DROP SCHEMA s;
DROP ROLE regress_grid_owner, regress_grid_other;
