-- partitioning: period bounds that tile, DDL for migrations, creating the
-- missing partitions, pruning, and the pg_partman encoder and decoder

-- the settings its output depends on, whatever the server's: the planner's,
-- parallelism, JIT and the client's at their built-in defaults
SELECT count(set_config(name, boot_val, false)) > 0 AS settings_pinned FROM pg_settings
WHERE name ~ '^enable_' OR name IN ('client_min_messages', 'extra_float_digits', 'jit',
	'max_parallel_workers_per_gather', 'plan_cache_mode', 'default_statistics_target', 'effective_cache_size',
	'random_page_cost', 'seq_page_cost', 'cpu_tuple_cost', 'cpu_index_tuple_cost', 'cpu_operator_cost',
	'parallel_setup_cost', 'parallel_tuple_cost', 'min_parallel_table_scan_size', 'min_parallel_index_scan_size');
SET TimeZone = 'UTC';
SET DateStyle = 'ISO';
\set SHOW_CONTEXT never

-- monthly periods of 2025: exact bounds, each period's upper bound is the
-- next one's lower bound
SELECT * FROM uuidv7_partition_bounds('2025-01-01', '2025-04-01', '1 month');

-- every step size; the last period may end after upto
SELECT step, count(*) AS periods, min(period_start) AS first_start, max(period_end) AS last_end
FROM unnest(ARRAY['1 year', '3 months', '1 month', '1 week', '1 day', '6 hours', '1 hour',
				  '15 minutes', '90 seconds']::interval[]) AS step,
	LATERAL uuidv7_partition_bounds('2025-01-01', '2025-01-02', step) b
GROUP BY step ORDER BY min(period_end - period_start) DESC;

-- months from the 31st come back to the 31st; years from a leap day
SELECT period_start, period_end FROM uuidv7_partition_bounds('2025-01-31', '2025-05-01', '1 month');
SELECT period_start, period_end FROM uuidv7_partition_bounds('2024-02-29', '2028-03-01', '1 year');

-- days follow the calendar of the zone: 23 and 25 hours across daylight saving
SELECT period_start, period_end, period_end - period_start AS length
FROM uuidv7_partition_bounds('2025-03-29 00:00+01', '2025-04-01 00:00+02', '1 day', 'Europe/Berlin');
SELECT period_start, period_end, period_end - period_start AS length
FROM uuidv7_partition_bounds('2025-10-25 00:00+02', '2025-10-28 00:00+01', '1 day', 'Europe/Berlin');
-- hours are absolute: the fall-back night has 25 hourly periods
SELECT count(*) AS hours, count(DISTINCT period_start) AS distinct_starts
FROM uuidv7_partition_bounds('2025-11-02 00:00-04', '2025-11-03 00:00-05', '1 hour', 'America/New_York');

-- the session's zone, or an explicit one: the same periods either way
SET TimeZone = 'America/New_York';
SELECT count(*) AS same_periods
FROM uuidv7_partition_bounds('2025-01-01 00:00-05', '2026-01-01 00:00-05', '1 month') a
	JOIN uuidv7_partition_bounds('2025-01-01 00:00-05', '2026-01-01 00:00-05', '1 month', 'America/New_York') b
	USING (period_start, period_end, lower_bound, upper_bound);
SET TimeZone = 'UTC';

-- volatility: the session-zone form reads TimeZone, the explicit one does not
SELECT p.oid::regprocedure, p.provolatile
FROM pg_proc p WHERE p.proname = 'uuidv7_partition_bounds' ORDER BY p.oid::regprocedure::text COLLATE "C";

-- edges and errors
SELECT count(*) AS no_periods FROM uuidv7_partition_bounds('2025-02-01', '2025-01-01', '1 month');
SELECT count(*) AS no_periods FROM uuidv7_partition_bounds('2025-01-01', '2025-01-01', '1 month');
SELECT * FROM uuidv7_partition_bounds('1970-01-01', '1970-01-01 00:00:00.003', '1 millisecond');
SELECT * FROM uuidv7_partition_bounds('2025-01-01', '2025-02-01', '0');
\echo :LAST_ERROR_SQLSTATE
SELECT * FROM uuidv7_partition_bounds('2025-01-01', '2025-02-01', '-1 day');
\echo :LAST_ERROR_SQLSTATE
SELECT * FROM uuidv7_partition_bounds('2025-01-01', '2025-04-01', '1 month -30 days');
\echo :LAST_ERROR_SQLSTATE
SELECT * FROM uuidv7_partition_bounds('2025-01-01', '2025-01-02', '400 microseconds');
\echo :LAST_ERROR_SQLSTATE
SELECT * FROM uuidv7_partition_bounds('2025-01-01', '2025-02-01', '1 day', 'Mars/Olympus_Mons');
\echo :LAST_ERROR_SQLSTATE
SELECT * FROM uuidv7_partition_bounds('1969-12-01', '1970-02-01', '1 month');
\echo :LAST_ERROR_SQLSTATE
SELECT * FROM uuidv7_partition_bounds('10889-07-01', '10889-08-02', '1 month');
\echo :LAST_ERROR_SQLSTATE
SELECT * FROM uuidv7_partition_bounds('2025-01-01', 'infinity', '1 month');
\echo :LAST_ERROR_SQLSTATE
SELECT count(*) FROM uuidv7_partition_bounds(NULL, '2025-01-01', '1 month');

-- tiling, property test.  Spans start at tricky instants (daylight-saving
-- gaps and overlaps in several zones, one at midnight, half-hour and
-- 45-minute zones, a day skipped at the date line, month ends, leap days,
-- the epoch) and at random ones drawn from a fixed seed, so that every run
-- checks the same spans; each runs 40 periods of each step.  Spans start at
-- whole milliseconds, as real partition sets do (a boundary inside a
-- millisecond rounds up to the next one, as uuidv7_min() does, so that
-- millisecond's ids go to the later period).
SELECT setseed(0.2025);
CREATE TEMP TABLE starts AS
SELECT local_ts AT TIME ZONE zone AS from_ts, zone
FROM (VALUES (timestamp '2025-03-30 00:00', 'Europe/Berlin'),	-- clocks spring forward at 02:00
			 ('2025-03-30 01:59:59.999', 'Europe/Berlin'),
			 ('2025-01-30 02:30', 'Europe/Berlin'),	-- two months later: 02:30 does not exist
			 ('2025-10-26 02:30', 'Europe/Berlin'),	-- an hour that happens twice
			 ('2025-02-09 02:30', 'America/New_York'),
			 ('2025-11-02 01:30', 'America/New_York'),
			 ('2025-09-05 02:15', 'Australia/Lord_Howe'),	-- 30-minute changes
			 ('2025-04-06 01:45', 'Australia/Lord_Howe'),
			 ('2023-08-01 00:00', 'America/Asuncion'),	-- 2023-10-01 00:00 does not exist
			 ('2025-09-07 01:00', 'America/Santiago'),
			 ('2011-12-29 00:00', 'Pacific/Apia'),	-- 2011-12-30 does not exist
			 ('2025-01-01 00:00', 'Asia/Kathmandu'),	-- +05:45
			 ('2024-02-29 00:00', 'Asia/Kolkata'),	-- +05:30, a leap day
			 ('2025-03-09 02:30', 'America/St_Johns'),	-- -03:30, and a gap
			 ('2025-01-31 00:00', 'UTC'),	-- month ends
			 ('2024-01-31 12:00', 'UTC'),
			 ('2024-02-29 23:59:59.999', 'Pacific/Auckland'),
			 ('1970-01-01 00:00', 'UTC')) AS t(local_ts, zone)	-- the epoch
UNION ALL
SELECT date_trunc('milliseconds', timestamptz '2020-01-01 00:00+00' + random() * interval '8 years'),
	(ARRAY['UTC', 'Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kathmandu'])[1 + (s % 5)]
FROM generate_series(1, 40) s;
-- from + k * step as PostgreSQL's own timestamptz + interval computes it
-- with TimeZone set to the span's zone: the oracle below
CREATE FUNCTION pg_temp.plus_in_zone(ts timestamptz, span interval, zone text) RETURNS timestamptz
LANGUAGE plpgsql SET TimeZone = 'UTC' AS $$
BEGIN
	PERFORM set_config('TimeZone', zone, true);
	RETURN ts + span;
END
$$;
CREATE TEMP TABLE spans AS
SELECT row_number() OVER (ORDER BY from_ts, zone, step) AS s, from_ts,
	pg_temp.plus_in_zone(from_ts, 40 * step, zone) AS upto_ts, zone, step
FROM starts,
	unnest(ARRAY['1 month', '1 day', '1 hour', '1 week', '3 months', '1 year', '2 days 12 hours',
				 '45 minutes']::interval[]) AS step;
CREATE TEMP TABLE periods AS
SELECT s, from_ts, zone, step, b.*, row_number() OVER (PARTITION BY s ORDER BY period_start) AS n
FROM spans, LATERAL uuidv7_partition_bounds(from_ts, upto_ts, step, zone) b;
SELECT count(DISTINCT s) AS spans, count(*) AS periods,
	count(*) FILTER (WHERE lower_bound >= upper_bound) AS empty,
	count(*) FILTER (WHERE next_lower IS NOT NULL AND next_lower <> upper_bound) AS gaps_or_overlaps,
	count(*) FILTER (WHERE next_start IS NOT NULL AND next_start <> period_end) AS periods_not_adjacent
FROM (SELECT *, lead(lower_bound) OVER w AS next_lower, lead(period_start) OVER w AS next_start
	  FROM periods WINDOW w AS (PARTITION BY s ORDER BY n)) p;
SELECT count(*) = 4 * (SELECT count(*) FROM periods) AS four_instants_a_period,
	count(*) FILTER (WHERE NOT (id >= lower_bound AND id < upper_bound)) AS outside_their_period
FROM periods,
	LATERAL (SELECT uuidv7_generate_at(t) AS id
			 FROM unnest(ARRAY[period_start, period_start + interval '1 microsecond',
							   period_start + 0.5 * (period_end - period_start),
							   period_end - interval '1 microsecond']) AS t) g;

-- the periods start at from + k * step: months and days keep
-- the local time of day, except where that time does not exist that day (a
-- daylight-saving gap), where PostgreSQL reads it with the offset in force
-- before the change; a local day the zone skips gives no period of its own
CREATE TEMP TABLE expected_starts AS
SELECT s, t AS period_start, row_number() OVER (PARTITION BY s ORDER BY t) AS n
FROM (SELECT DISTINCT s, pg_temp.plus_in_zone(from_ts, k * step, zone) AS t
	  FROM spans, generate_series(0, 39) k) e;
SELECT count(*) AS starts_elsewhere
FROM periods p FULL JOIN expected_starts e USING (s, n)
WHERE p.period_start IS DISTINCT FROM e.period_start;
SELECT from_ts, period_start, period_end
FROM periods WHERE zone = 'Pacific/Apia' AND step = '1 day' AND n <= 3 ORDER BY n;
-- so days and months from local midnight start each period at the first
-- instant of a local day, which is 01:00 where midnight is skipped
SELECT count(*) AS local_days_not_at_their_first_instant
FROM periods
WHERE step IN ('1 day', '1 month') AND (from_ts AT TIME ZONE zone)::time = '00:00'
	AND period_start <> date_trunc('day', period_start AT TIME ZONE zone) AT TIME ZONE zone;
SELECT to_char(period_start AT TIME ZONE zone, 'YYYY-MM-DD HH24:MI') AS asuncion_october_2023
FROM periods WHERE zone = 'America/Asuncion' AND step = '1 month' AND n = 3;

-- the last periods a UUIDv7 can carry: 40 milliseconds up to its last one
SELECT count(*) AS last_periods, (array_agg(upper_bound ORDER BY period_start DESC))[1] AS last_upper_bound
FROM uuidv7_partition_bounds('10889-08-02 05:31:50.615+00', '10889-08-02 05:31:50.655+00', '1 millisecond');

-- DDL for a migration
CREATE SCHEMA "Sales Data";
CREATE TABLE "Sales Data"."Order Items" (id uuid7 PRIMARY KEY DEFAULT uuidv7_generate(), qty int)
	PARTITION BY RANGE (id);
SELECT ddl FROM uuidv7_partition_ddl('"Sales Data"."Order Items"', '2025-01-01', '2025-03-01', '1 month');
SELECT partition_name FROM uuidv7_partition_ddl('"Sales Data"."Order Items"', '2025-01-01', '2025-01-03', '1 day');
SELECT partition_name FROM uuidv7_partition_ddl('"Sales Data"."Order Items"', '2025-01-01 22:00', '2025-01-02 01:00', '1 hour');
SELECT partition_name FROM uuidv7_partition_ddl('"Sales Data"."Order Items"', '2025-01-01', '2025-01-01 00:31', '15 minutes');
SELECT partition_name FROM uuidv7_partition_ddl('"Sales Data"."Order Items"', '2025-01-01', '2027-01-01', '1 year');
-- the hour that repeats when clocks fall back: the first one is _dst
SELECT partition_name FROM uuidv7_partition_ddl('"Sales Data"."Order Items"', '2025-10-26 00:00+00', '2025-10-26 03:00+00', '1 hour', 'Europe/Berlin');

-- the statements run as they are, and then creating the partitions again is a no-op
SELECT ddl FROM uuidv7_partition_ddl('"Sales Data"."Order Items"', '2025-01-01', '2025-03-01', '1 month') \gexec
SELECT * FROM uuidv7_create_partitions('"Sales Data"."Order Items"', '2025-01-01', '2025-03-01', '1 month');
-- a longer span creates only what is missing
SELECT * FROM uuidv7_create_partitions('"Sales Data"."Order Items"', '2025-01-01', '2025-06-01', '1 month');
SELECT * FROM uuidv7_create_partitions('"Sales Data"."Order Items"', '2025-01-01', '2025-06-01', '1 month');
INSERT INTO "Sales Data"."Order Items" (id, qty)
SELECT uuidv7_generate_at('2025-01-01'::timestamptz + g * interval '1 hour'), g FROM generate_series(0, 3623) g;
SELECT tableoid::regclass, count(*) FROM "Sales Data"."Order Items" GROUP BY 1 ORDER BY 1;
-- a hand-made partition that overlaps a period is named in the error, with
-- the periods of both in words; nothing of the span is created
CREATE TABLE "Sales Data".hand_made PARTITION OF "Sales Data"."Order Items"
	FOR VALUES FROM (uuidv7_min('2025-07-15')) TO (uuidv7_min('2025-07-20'));
SELECT * FROM uuidv7_create_partitions('"Sales Data"."Order Items"', '2025-06-01', '2025-09-01', '1 month');
\echo :LAST_ERROR_SQLSTATE
SELECT to_regclass('"Sales Data"."Order Items_p2025_06"') IS NULL AS nothing_created;
-- one from MINVALUE, whose bounds stand for no period, is named by its bounds
CREATE TABLE early_overlap (id uuid) PARTITION BY RANGE (id);
CREATE TABLE early_overlap_old PARTITION OF early_overlap
	FOR VALUES FROM (MINVALUE) TO (uuidv7_min('2025-01-10 00:00+00'));
SELECT * FROM uuidv7_create_partitions('early_overlap', '2025-01-01', '2025-02-01', '1 month', 'UTC');
\echo :LAST_ERROR_SQLSTATE
DROP TABLE early_overlap;
-- a table by the name of a period's partition, with other bounds
CREATE TABLE "Sales Data"."Order Items_p2025_10" (id uuid7, qty int);
SELECT * FROM uuidv7_create_partitions('"Sales Data"."Order Items"', '2025-10-01', '2025-11-01', '1 month');
\echo :LAST_ERROR_SQLSTATE

-- the partitions of a parent with the periods their bounds stand for, in
-- order (times from the bounds, not the names: the hand-made partition has
-- its own), then a DEFAULT partition last
CREATE TABLE "Sales Data"."Order Items default" PARTITION OF "Sales Data"."Order Items" DEFAULT;
SELECT * FROM uuidv7_partitions('"Sales Data"."Order Items"');
-- the listing is the catalog's: one row for each partition, none twice
SELECT (SELECT count(*) FROM uuidv7_partitions('"Sales Data"."Order Items"')) =
	(SELECT count(*) FROM pg_inherits WHERE inhparent = '"Sales Data"."Order Items"'::regclass) AS every_partition_once;
-- open-ended bounds and bounds that are not UUIDv7 give no time; a plain uuid
-- key; a partition partitioned in turn is listed by its bounds in the parent
CREATE TABLE open_ended (id uuid PRIMARY KEY) PARTITION BY RANGE (id);
CREATE TABLE open_ended_before PARTITION OF open_ended FOR VALUES FROM (MINVALUE) TO (uuidv7_min('2025-01-01'));
CREATE TABLE open_ended_2025 PARTITION OF open_ended FOR VALUES FROM (uuidv7_min('2025-01-01')) TO (uuidv7_min('2026-01-01'))
	PARTITION BY RANGE (id);
SELECT count(*) AS sub_partitions FROM uuidv7_create_partitions('open_ended_2025', '2025-01-01', '2026-01-01', '3 months', 'UTC');
CREATE TABLE open_ended_v4 PARTITION OF open_ended
	FOR VALUES FROM (uuidv7_min('2026-01-01')) TO ('ffffffff-ffff-4fff-bfff-ffffffffffff');
CREATE TABLE open_ended_after PARTITION OF open_ended
	FOR VALUES FROM ('ffffffff-ffff-4fff-bfff-ffffffffffff') TO (MAXVALUE);
SELECT * FROM uuidv7_partitions('open_ended');
SELECT partition, period_start, period_end FROM uuidv7_partitions('open_ended_2025');
SELECT count(*) AS no_rows_for_null FROM uuidv7_partitions(NULL);
SELECT count(*) FROM uuidv7_partitions('"Sales Data"."Order Items_p2025_01"');
\echo :LAST_ERROR_SQLSTATE
-- a parent with no partition yet, with only its DEFAULT partition, and with
-- gaps between its periods; a table dropped since its name was looked up
CREATE TABLE gappy (id uuid7) PARTITION BY RANGE (id);
SELECT count(*) AS no_partitions FROM uuidv7_partitions('gappy');
CREATE TABLE gappy_default PARTITION OF gappy DEFAULT;
SELECT * FROM uuidv7_partitions('gappy');
CREATE TABLE gappy_may PARTITION OF gappy FOR VALUES FROM (uuidv7_min('2025-05-01')) TO (MAXVALUE);
CREATE TABLE gappy_jan PARTITION OF gappy FOR VALUES FROM (uuidv7_min('2025-01-01')) TO (uuidv7_min('2025-02-01'));
CREATE TABLE gappy_mar PARTITION OF gappy FOR VALUES FROM (uuidv7_min('2025-03-01')) TO (uuidv7_min('2025-04-01'));
SELECT partition, period_start, period_end FROM uuidv7_partitions('gappy');
CREATE TABLE dropped (id uuid) PARTITION BY RANGE (id);
SELECT 'dropped'::regclass::oid AS dropped_oid \gset
DROP TABLE dropped;
\set VERBOSITY sqlstate
SELECT count(*) FROM uuidv7_partitions(:dropped_oid);
\set VERBOSITY default
-- the listing agrees, partition by partition and in order, with the bounds
-- the catalog deparses (every parent above)
SELECT t.parent,
	(SELECT array_agg(p.partition || ' ' || coalesce(p.lower_bound::text, '-') || ' ' || coalesce(p.upper_bound::text, '-'))
	 FROM uuidv7_partitions(t.parent) p) =
	(SELECT array_agg(d.child || ' ' || coalesce(d.m[1], '-') || ' ' || coalesce(d.m[2], '-')
					  ORDER BY d.m IS NULL, d.m[1]::uuid NULLS FIRST, d.m[2]::uuid)
	 FROM (SELECT i.inhrelid::regclass AS child,
				  regexp_match(pg_get_expr(c.relpartbound, c.oid),
							   '^FOR VALUES FROM \((?:''([0-9a-f-]{36})''|MINVALUE)\) TO \((?:''([0-9a-f-]{36})''|MAXVALUE)\)$') AS m
		   FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
		   WHERE i.inhparent = t.parent) d) AS as_deparsed
FROM unnest(ARRAY['"Sales Data"."Order Items"', 'open_ended', 'open_ended_2025', 'gappy']::regclass[]) AS t(parent)
ORDER BY 1;
DROP TABLE gappy;

-- rows that arrive before their period's partition wait in the DEFAULT
-- partition; creating the period moves them in, in the same transaction, and
-- loses none: the DEFAULT partition keeps only rows of periods still missing
CREATE TABLE "Early Rows" (id uuid PRIMARY KEY CHECK (uuidv7_domain_check(id)), "Qty" int NOT NULL,
	at timestamptz GENERATED ALWAYS AS (uuidv7_timestamp(id)) STORED,
	"%1$s note" text NOT NULL DEFAULT 'a % in a name is no format placeholder') PARTITION BY RANGE (id);
CREATE INDEX "Early Rows qty" ON "Early Rows" ("Qty");
CREATE TABLE "Early Rows default" PARTITION OF "Early Rows" DEFAULT;
INSERT INTO "Early Rows" (id, "Qty")
SELECT uuidv7_generate_at('2025-01-01 00:00+00'::timestamptz + g * interval '97 minutes'), g FROM generate_series(0, 2999) g;
CREATE TEMP TABLE early_before AS SELECT id, "Qty", at, "%1$s note" FROM "Early Rows";
SELECT * FROM uuidv7_create_partitions('"Early Rows"', '2025-01-01', '2025-04-01', '1 month', 'UTC');
SELECT * FROM uuidv7_create_partitions('"Early Rows"', '2025-01-01', '2025-04-01', '1 month', 'UTC');
SELECT tableoid::regclass AS partition, count(*), min(at), max(at) FROM "Early Rows" GROUP BY 1 ORDER BY 2 DESC, 1;
SELECT (SELECT count(*) FROM early_before) AS rows_before, count(*) AS rows_after,
	NOT EXISTS ((SELECT id, "Qty", at, "%1$s note" FROM "Early Rows" EXCEPT TABLE early_before)
				UNION ALL (TABLE early_before EXCEPT SELECT id, "Qty", at, "%1$s note" FROM "Early Rows")) AS same_rows,
	count(*) FILTER (WHERE tableoid = '"Early Rows default"'::regclass AND at < '2025-04-01') AS left_in_default
FROM "Early Rows";
-- the moved-in partition is a partition like any other: the parent's
-- indexes, no constraint of ours left behind (NOT NULL constraints, which
-- PostgreSQL 18 records here too, left out), and a v4 id still refused
SELECT indexdef FROM pg_indexes WHERE tablename = 'Early Rows_p2025_02' ORDER BY 1;
SELECT conname FROM pg_constraint WHERE conrelid = '"Early Rows_p2025_02"'::regclass AND contype <> 'n' ORDER BY 1;
INSERT INTO "Early Rows" (id, "Qty") VALUES ('017f22e2-79b0-4cc3-98c4-dc0c0c07398f', 1);
\echo :LAST_ERROR_SQLSTATE
DROP TABLE "Early Rows";

-- retiring old periods: every partition whose whole range ends at or before
-- the cut is dropped, or detached and kept as a plain table with its rows
-- (one from MINVALUE too, by its upper bound); the period that straddles the
-- cut, the DEFAULT partition and partitions whose upper bound is MAXVALUE or
-- not a UUIDv7 are kept; a second call finds nothing more to do
INSERT INTO "Sales Data"."Order Items" (id, qty) VALUES (uuidv7_generate_at('2031-01-01'), -1);
SELECT count(*) AS rows_before FROM "Sales Data"."Order Items";
SELECT * FROM uuidv7_drop_partitions('"Sales Data"."Order Items"', '2025-02-15');
SELECT * FROM uuidv7_drop_partitions('"Sales Data"."Order Items"', '2025-04-01', detach_only => true);
SELECT * FROM uuidv7_drop_partitions('"Sales Data"."Order Items"', '2025-04-01', detach_only => true);
SELECT partition, period_start, period_end FROM uuidv7_partitions('"Sales Data"."Order Items"');
SELECT count(*) AS rows_after, (SELECT count(*) FROM "Sales Data"."Order Items_p2025_02") AS detached_february,
	(SELECT relispartition FROM pg_class WHERE oid = '"Sales Data"."Order Items_p2025_02"'::regclass) AS still_a_partition,
	(SELECT count(*) FROM "Sales Data"."Order Items default") AS in_default
FROM "Sales Data"."Order Items";
SELECT * FROM uuidv7_drop_partitions('open_ended', 'infinity');
\echo :LAST_ERROR_SQLSTATE
SELECT * FROM uuidv7_drop_partitions('open_ended', '2030-01-01');
SELECT partition FROM uuidv7_partitions('open_ended');
SELECT count(*) AS no_rows_for_null FROM uuidv7_drop_partitions('open_ended', NULL);
SELECT * FROM uuidv7_drop_partitions('"Sales Data"."Order Items_p2025_02"', '2030-01-01');
\echo :LAST_ERROR_SQLSTATE
DROP TABLE open_ended;

-- upkeep leaves the caller's transaction as it found it: the lock_timeout
-- of its short tries for locks (20 ms) is not the caller's after the call,
-- in the same transaction, whether the caller set one or left the default
SET lock_timeout = 0;
CREATE TABLE upkeep_tx (id uuid7 PRIMARY KEY) PARTITION BY RANGE (id);
BEGIN;
SET LOCAL lock_timeout = '5s';
SELECT count(*) AS created FROM uuidv7_create_partitions('upkeep_tx', '2025-01-01', '2025-03-01', '1 month', 'UTC');
SHOW lock_timeout;
SELECT count(*) AS dropped FROM uuidv7_drop_partitions('upkeep_tx', '2025-02-01');
SHOW lock_timeout;
COMMIT;
BEGIN;
SELECT count(*) AS created FROM uuidv7_create_partitions('upkeep_tx', '2025-03-01', '2025-04-01', '1 month', 'UTC');
SHOW lock_timeout;
COMMIT;
DROP TABLE upkeep_tx;

-- parents that cannot hold UUIDv7 range partitions
CREATE TABLE plain (id uuid);
CREATE TABLE by_list (id uuid) PARTITION BY LIST (id);
CREATE TABLE by_bigint (id bigint) PARTITION BY RANGE (id);
CREATE TABLE by_two (id uuid, k int) PARTITION BY RANGE (id, k);
CREATE TABLE by_expression (id uuid) PARTITION BY RANGE ((uuidv7_timestamp(id)));
SELECT * FROM uuidv7_partition_ddl('plain', '2025-01-01', '2025-02-01', '1 month');
\echo :LAST_ERROR_SQLSTATE
SELECT * FROM uuidv7_partition_ddl('by_list', '2025-01-01', '2025-02-01', '1 month');
SELECT * FROM uuidv7_partition_ddl('by_bigint', '2025-01-01', '2025-02-01', '1 month');
SELECT * FROM uuidv7_partition_ddl('by_two', '2025-01-01', '2025-02-01', '1 month');
SELECT * FROM uuidv7_create_partitions('by_expression', '2025-01-01', '2025-02-01', '1 month');
\echo :LAST_ERROR_SQLSTATE
-- the refusal's context, as psql shows it by default, names no SQL of the
-- extension's, only its functions
\set SHOW_CONTEXT errors
SELECT * FROM uuidv7_create_partitions('plain', '2025-01-01', '2025-02-01', '1 month');
SELECT * FROM uuidv7_drop_partitions('plain', '2025-01-01');
SELECT * FROM uuidv7_partition_ddl('plain', '2025-01-01', '2025-02-01', '1 month');
\set SHOW_CONTEXT never
DROP TABLE plain, by_list, by_bigint, by_two, by_expression;

-- a DEFAULT partition that a foreign key references itself: a row leaving
-- it would break the key or (ON DELETE CASCADE) empty the table that holds
-- it; refused (0A000) where rows of the period wait, and nothing changes;
-- a period with none is made
CREATE TABLE fd (id uuid PRIMARY KEY) PARTITION BY RANGE (id);
CREATE TABLE fd_default PARTITION OF fd DEFAULT;
INSERT INTO fd SELECT uuidv7_min('2025-03-02 00:00+00'::timestamptz + g * interval '1 day') FROM generate_series(0, 2) g;
CREATE TABLE fd_child (fd_id uuid REFERENCES fd_default ON DELETE CASCADE);
INSERT INTO fd_child SELECT id FROM fd;
SELECT * FROM uuidv7_create_partitions('fd', '2025-03-01', '2025-04-01', '1 month', 'UTC');
\echo :LAST_ERROR_SQLSTATE
SELECT (SELECT count(*) FROM fd_default) AS waiting, (SELECT count(*) FROM fd_child) AS children,
	to_regclass('fd_p2025_03') AS made;
SELECT partition_name, moved FROM uuidv7_create_partitions('fd', '2025-05-01', '2025-06-01', '1 month', 'UTC');
DROP TABLE fd_child, fd;

-- a long parent name does not fit the partition name
CREATE TABLE a_table_with_a_name_that_is_very_long_indeed_sixty_chars_long (id uuid) PARTITION BY RANGE (id);
SELECT * FROM uuidv7_partition_ddl('a_table_with_a_name_that_is_very_long_indeed_sixty_chars_long', '2025-01-01', '2025-02-01', '1 month');
\echo :LAST_ERROR_SQLSTATE
DROP TABLE a_table_with_a_name_that_is_very_long_indeed_sixty_chars_long;

-- pruning: 36 monthly partitions, a one-day query touches one
CREATE TABLE events (id uuid7 PRIMARY KEY DEFAULT uuidv7_generate(), v int) PARTITION BY RANGE (id);
SELECT count(*) AS created FROM uuidv7_create_partitions('events', '2024-01-01', '2027-01-01', '1 month') WHERE created;
INSERT INTO events SELECT uuidv7_generate_at('2024-01-01'::timestamptz + g * interval '7 hours'), g
FROM generate_series(0, 3700) g;
ANALYZE events;
EXPLAIN (COSTS OFF)
SELECT count(*) FROM events WHERE id >= uuidv7_min('2025-06-10') AND id < uuidv7_min('2025-06-11');
PREPARE one_day(timestamptz, timestamptz) AS
SELECT count(*) FROM events WHERE id >= uuidv7_min($1) AND id < uuidv7_min($2);
SET plan_cache_mode = force_generic_plan;
-- (an index scan in both editions, whose bound functions differ in cost)
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) EXECUTE one_day('2025-06-10', '2025-06-11');
SET enable_seqscan = on;
EXECUTE one_day('2025-06-10', '2025-06-11');
SET plan_cache_mode = auto;
DEALLOCATE one_day;
DROP TABLE events;

-- pg_partman encoder and decoder: IMMUTABLE, NULL-safe, valid v7 bits, exact
-- round trip on boundaries
SELECT uuidv7_partman_encoder('2025-01-01') AS encoded,
	uuidv7_partman_decoder(uuidv7_partman_encoder('2025-01-01')::text) AS decoded,
	uuidv7_partman_encoder('2025-01-01')::uuid7 IS NOT NULL AS valid_v7,
	uuidv7_partman_encoder(NULL) IS NULL AS encoder_null,
	uuidv7_partman_decoder(NULL) IS NULL AS decoder_null,
	uuidv7_partman_decoder('017f22e2-79b0-4cc3-98c4-dc0c0c07398f') IS NULL AS decoder_v4_null;
SELECT count(*) AS round_trip_failures
FROM uuidv7_partition_bounds('2020-01-01', '2030-01-01', '1 day') b
WHERE uuidv7_partman_decoder(uuidv7_partman_encoder(period_start)::text) <> period_start;
SELECT p.oid::regprocedure, p.provolatile, p.proisstrict
FROM pg_proc p WHERE p.proname LIKE 'uuidv7_partman%' ORDER BY p.oid::regprocedure::text COLLATE "C";

DROP SCHEMA "Sales Data" CASCADE;

-- refuse_late_rows moves the DEFAULT partition's check with the oldest
-- partition, whatever the key column's name holds (before: a name holding a
-- bound of that form was read as the check's, which then stayed behind)
CREATE TABLE "odd key" ("k >= '018e96f4-a800-7000-8000-000000000000'::uuid" uuid7 NOT NULL)
	PARTITION BY RANGE ("k >= '018e96f4-a800-7000-8000-000000000000'::uuid");
CREATE TABLE "odd key default" PARTITION OF "odd key" DEFAULT;
SELECT count(*) FROM uuidv7_create_partitions('"odd key"', '2024-01-01 00:00+00', '2024-05-01 00:00+00', '1 month', 'UTC');
SELECT partition, action FROM uuidv7_drop_partitions('"odd key"', '2024-02-01 00:00+00', refuse_late_rows => true);
SELECT partition, action FROM uuidv7_drop_partitions('"odd key"', '2024-04-01 00:00+00', refuse_late_rows => true);
SELECT partition, action FROM uuidv7_drop_partitions('"odd key"', '2024-04-01 00:00+00', refuse_late_rows => true);
\set VERBOSITY terse
INSERT INTO "odd key" VALUES (uuidv7_min('2024-02-15 00:00+00'));
\set VERBOSITY default
DROP TABLE "odd key";
-- a DEFAULT partition whose own partition has a check of that name: the
-- conflict is named as PostgreSQL names it (42710), nothing retired
CREATE TABLE taken (id uuid NOT NULL) PARTITION BY RANGE (id);
SELECT count(*) FROM uuidv7_create_partitions('taken', '2024-01-01 00:00+00', '2024-03-01 00:00+00', '1 month', 'UTC');
CREATE TABLE taken_default PARTITION OF taken DEFAULT PARTITION BY RANGE (id);
CREATE TABLE taken_default_rest (id uuid NOT NULL,
	CONSTRAINT uuidv7_retired CHECK (id >= '00000000-0000-7000-8000-000000000000'::uuid));
ALTER TABLE taken_default ATTACH PARTITION taken_default_rest DEFAULT;
\set VERBOSITY terse
SELECT partition, action FROM uuidv7_drop_partitions('taken', '2024-02-01 00:00+00', refuse_late_rows => true);
\set VERBOSITY default
SELECT count(*) AS partitions FROM uuidv7_partitions('taken');
DROP TABLE taken;
