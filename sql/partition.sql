-- partitioning: period bounds that tile, DDL for migrations, creating the
-- missing partitions, pruning, and the pg_partman encoder and decoder
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
FROM pg_proc p WHERE p.proname = 'uuidv7_partition_bounds' ORDER BY 1::text;

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

-- tiling, property test: random spans, steps and zones (month ends, leap
-- days, daylight-saving changes); no gap, no overlap, every instant of a
-- period maps into its bounds.  Spans start at whole milliseconds, as real
-- partition sets do (a boundary inside a millisecond rounds up to the next
-- one, as uuidv7_min() does, so that millisecond's ids go to the later period)
CREATE TEMP TABLE spans AS
SELECT s, date_trunc('milliseconds', timestamptz '2020-01-01 00:00+00' + random() * interval '8 years') AS from_ts,
	(ARRAY['1 month', '1 day', '1 hour', '1 week', '3 months', '1 year', '2 days 12 hours', '45 minutes'])[1 + (s % 8)]::interval AS step,
	(ARRAY['UTC', 'Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kathmandu'])[1 + (s % 5)] AS zone
FROM generate_series(1, 200) s;
CREATE TEMP TABLE periods AS
SELECT s, zone, step, b.*, row_number() OVER (PARTITION BY s ORDER BY period_start) AS n
FROM spans, LATERAL uuidv7_partition_bounds(from_ts, from_ts + 40 * step, step, zone) b;
SELECT count(DISTINCT s) AS spans, count(*) >= 200 * 40 AS at_least_40_periods_each,
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

-- calendar periods: starts at local midnight of the first of the month
SELECT count(*) AS months_not_at_local_midnight
FROM periods WHERE step = '1 month'
	AND to_char(period_start AT TIME ZONE zone, 'HH24:MI') <> to_char(
		(SELECT min(period_start) FROM periods p2 WHERE p2.s = periods.s) AT TIME ZONE zone, 'HH24:MI');

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
-- a hand-made partition that overlaps a period is named in the error
CREATE TABLE "Sales Data".hand_made PARTITION OF "Sales Data"."Order Items"
	FOR VALUES FROM (uuidv7_min('2025-07-15')) TO (uuidv7_min('2025-07-20'));
SELECT * FROM uuidv7_create_partitions('"Sales Data"."Order Items"', '2025-06-01', '2025-09-01', '1 month');
\echo :LAST_ERROR_SQLSTATE
-- a table by the name of a period's partition, with other bounds
CREATE TABLE "Sales Data"."Order Items_p2025_10" (id uuid7, qty int);
SELECT * FROM uuidv7_create_partitions('"Sales Data"."Order Items"', '2025-10-01', '2025-11-01', '1 month');
\echo :LAST_ERROR_SQLSTATE

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
DROP TABLE plain, by_list, by_bigint, by_two, by_expression;

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
EXPLAIN (COSTS OFF) EXECUTE one_day('2025-06-10', '2025-06-11');
EXECUTE one_day('2025-06-10', '2025-06-11');
RESET plan_cache_mode;
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
FROM pg_proc p WHERE p.proname LIKE 'uuidv7_partman%' ORDER BY 1::text;

DROP SCHEMA "Sales Data" CASCADE;
