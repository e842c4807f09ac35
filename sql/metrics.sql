-- uuidv7_partition_metrics: each table partitioned on a uuid key, in numbers
-- a monitoring system alerts on (docs/monitoring.md)
SET client_min_messages = warning;
\set SHOW_CONTEXT never
SET DateStyle = 'ISO, YMD';
SET IntervalStyle = 'postgres';
SET TimeZone = 'UTC';

-- kept by a policy, a month ahead; run out (its last period ended in 2025),
-- rows waiting; open-ended (its last partition runs to MAXVALUE); without
-- a partition, or a DEFAULT; partitioned on something else (not listed)
CREATE TABLE kept (id uuid7 PRIMARY KEY) PARTITION BY RANGE (id);
CREATE TABLE kept_default PARTITION OF kept DEFAULT;
SELECT uuidv7_set_partition_policy('kept', ahead => '1 month', keep => '1 year', step => '1 day', zone => 'UTC');
CREATE TABLE ran_out (id uuid7 PRIMARY KEY) PARTITION BY RANGE (id);
CREATE TABLE ran_out_default PARTITION OF ran_out DEFAULT;
SELECT count(*) AS created FROM uuidv7_create_partitions('ran_out', '2025-01-01', '2025-03-01', '1 month', 'UTC');
INSERT INTO ran_out SELECT uuidv7_generate() FROM generate_series(1, 3);
CREATE TABLE open_ended (id uuid PRIMARY KEY) PARTITION BY RANGE (id);
CREATE TABLE open_ended_all PARTITION OF open_ended FOR VALUES FROM (uuidv7_min('2025-01-01 00:00+00')) TO (MAXVALUE);
CREATE TABLE bare (id uuid7 PRIMARY KEY) PARTITION BY RANGE (id);
CREATE TABLE by_time (t timestamptz) PARTITION BY RANGE (t);
-- keyed by a domain over uuid7 (listed, as the partition functions take
-- it); split into ranges of uuids that are no times (no UUIDv7 bound: not
-- partitioned by time, no time to its end)
CREATE DOMAIN my_id AS uuid7;
CREATE TABLE by_domain (id my_id PRIMARY KEY) PARTITION BY RANGE (id);
SELECT count(*) AS created FROM uuidv7_create_partitions('by_domain', '2025-01-01', '2025-02-01', '1 month', 'UTC');
CREATE TABLE shards (id uuid PRIMARY KEY) PARTITION BY RANGE (id);
CREATE TABLE shards_a PARTITION OF shards FOR VALUES FROM ('00000000-0000-0000-0000-000000000000') TO ('80000000-0000-0000-0000-000000000000');
CREATE TABLE shards_b PARTITION OF shards FOR VALUES FROM ('80000000-0000-0000-0000-000000000000') TO (MAXVALUE);
-- (kept's partitions: a month of days from today, as long as this month)
SELECT parent, CASE WHEN parent = 'public.kept' AND partitions BETWEEN 29 AND 33 THEN 'a month of days'
					ELSE partitions::text END AS partitions,
	CASE WHEN seconds_until_last_period_ends IS NULL THEN 'NULL'
		 WHEN seconds_until_last_period_ends IN ('Infinity', '-Infinity') THEN seconds_until_last_period_ends::text
		 WHEN seconds_until_last_period_ends > 27 * 86400 THEN 'a month ahead'
		 WHEN seconds_until_last_period_ends < 0 THEN 'past' END AS last_period_ends,
	default_rows, default_rows_estimated, periods_past_keep,
	seconds_since_last_success BETWEEN 0 AND 600 AS ran_lately, last_run_failed
FROM uuidv7_partition_metrics ORDER BY parent COLLATE "C";
-- (ran_out's last period ended at 2025-03-01: as many seconds ago)
SELECT now() - make_interval(secs => -seconds_until_last_period_ends) = '2025-03-01 00:00+00' AS ended_then
FROM uuidv7_partition_metrics WHERE parent = 'public.ran_out';

-- a role that may read the table but not its DEFAULT partition gets the
-- planner's estimate, and is told so; a table it may not read is not listed
ANALYZE ran_out_default;
CREATE ROLE regress_metrics_reader;
-- (so that a role without superuser running the suite may become it)
GRANT regress_metrics_reader TO CURRENT_USER;
GRANT SELECT ON ran_out TO regress_metrics_reader;
SET ROLE regress_metrics_reader;
SELECT parent, default_rows, default_rows_estimated FROM uuidv7_partition_metrics ORDER BY parent COLLATE "C";
RESET ROLE;
-- given the DEFAULT partition, it counts; but where row-level security
-- would hide rows from the count, the estimate again
GRANT SELECT ON ran_out_default TO regress_metrics_reader;
SET ROLE regress_metrics_reader;
SELECT default_rows, default_rows_estimated FROM uuidv7_partition_metrics WHERE parent = 'public.ran_out';
RESET ROLE;
ALTER TABLE ran_out_default ENABLE ROW LEVEL SECURITY;
SET ROLE regress_metrics_reader;
SELECT default_rows, default_rows_estimated FROM uuidv7_partition_metrics WHERE parent = 'public.ran_out';
RESET ROLE;
ALTER TABLE ran_out_default DISABLE ROW LEVEL SECURITY;
REVOKE SELECT ON ran_out_default FROM regress_metrics_reader;
-- a table whose schema the role may not use is not listed, and a DEFAULT
-- partition in such a schema is not counted: neither fails the view
CREATE SCHEMA metrics_hidden;
CREATE TABLE metrics_hidden.elsewhere (id uuid7 PRIMARY KEY) PARTITION BY RANGE (id);
CREATE TABLE metrics_hidden.ran_out_more PARTITION OF ran_out FOR VALUES FROM (uuidv7_min('2024-01-01 00:00+00')) TO (uuidv7_min('2024-02-01 00:00+00'));
GRANT SELECT ON metrics_hidden.elsewhere, ran_out_default TO regress_metrics_reader;
ALTER TABLE ran_out DETACH PARTITION ran_out_default;
ALTER TABLE ran_out_default SET SCHEMA metrics_hidden;
ALTER TABLE ran_out ATTACH PARTITION metrics_hidden.ran_out_default DEFAULT;
SET ROLE regress_metrics_reader;
SELECT parent, partitions, default_rows, default_rows_estimated FROM uuidv7_partition_metrics ORDER BY parent COLLATE "C";
RESET ROLE;
ALTER TABLE ran_out DETACH PARTITION metrics_hidden.ran_out_default;
ALTER TABLE metrics_hidden.ran_out_default SET SCHEMA public;
ALTER TABLE ran_out ATTACH PARTITION ran_out_default DEFAULT;
REVOKE SELECT ON ran_out_default FROM regress_metrics_reader;
DROP SCHEMA metrics_hidden CASCADE;
SELECT parent, default_rows, default_rows_estimated FROM uuidv7_partition_metrics WHERE parent = 'public.ran_out';
REVOKE SELECT ON ran_out FROM regress_metrics_reader;
DROP ROLE regress_metrics_reader;

-- DEFAULT's rows counted up to 10,000; past that, the planner's estimate,
-- and so said
INSERT INTO ran_out SELECT uuidv7_generate_at('2026-01-01 00:00+00') FROM generate_series(1, 9997);
SELECT default_rows, default_rows_estimated FROM uuidv7_partition_metrics WHERE parent = 'public.ran_out';
INSERT INTO ran_out SELECT uuidv7_generate_at('2026-01-02 00:00+00') FROM generate_series(1, 2000);
SELECT default_rows, default_rows_estimated FROM uuidv7_partition_metrics WHERE parent = 'public.ran_out';
ANALYZE ran_out_default;
SELECT default_rows, default_rows_estimated FROM uuidv7_partition_metrics WHERE parent = 'public.ran_out';
DELETE FROM ran_out_default;
ANALYZE ran_out_default;

-- periods past the policy's keep, still attached; a run that failed (a
-- period that rows of another table reference cannot be retired), then
-- one that succeeded
CREATE TABLE aged (id uuid7 PRIMARY KEY) PARTITION BY RANGE (id);
SELECT count(*) AS created FROM uuidv7_create_partitions('aged', '2025-01-01', '2025-04-01', '1 month', 'UTC');
INSERT INTO aged VALUES (uuidv7_generate_at('2025-01-15 00:00+00'));
CREATE TABLE aged_ref (aged_id uuid REFERENCES aged);
INSERT INTO aged_ref SELECT id FROM aged;
SELECT uuidv7_set_partition_policy('aged', keep => '1 year');
SELECT periods_past_keep, last_run_failed FROM uuidv7_partition_metrics WHERE parent = 'public.aged';
CALL uuidv7_run_maintenance(warn_only => true);
SELECT periods_past_keep, last_run_failed, seconds_since_last_success IS NOT NULL AS a_success_before
FROM uuidv7_partition_metrics WHERE parent = 'public.aged';
DELETE FROM aged_ref;
CALL uuidv7_run_maintenance();
SELECT partitions, periods_past_keep, last_run_failed, seconds_since_last_success BETWEEN 0 AND 600 AS ran_lately
FROM uuidv7_partition_metrics WHERE parent = 'public.aged';

-- an archive that a policy retires periods into holds past periods only:
-- not listed
CREATE TABLE shipped (id uuid7 PRIMARY KEY) PARTITION BY RANGE (id);
SELECT count(*) AS created FROM uuidv7_create_partitions('shipped', '2025-01-01', '2025-02-01', '1 month', 'UTC');
SELECT uuidv7_set_partition_policy('shipped', keep => '1 month', retire => 'archive');
CALL uuidv7_run_maintenance();
SELECT archive FROM uuidv7_partition_policies WHERE parent = 'public.shipped';
SELECT parent FROM uuidv7_partition_metrics WHERE parent LIKE 'public.shipped%' ORDER BY parent COLLATE "C";

DROP TABLE kept, ran_out, open_ended, bare, by_time, by_domain, shards, aged_ref, aged, shipped, shipped_archive;
DROP DOMAIN my_id;
