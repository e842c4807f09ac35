-- bounds: exact values, exactness against every kind of id, tiling

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

-- the wall of edges: exact values
SELECT t, uuidv7_min(t::timestamptz), uuidv7_max(t::timestamptz)
FROM (VALUES
	('1970-01-01 00:00:00+00'),			-- the epoch
	('1970-01-01 00:00:00.000001+00'),	-- inside the first millisecond
	('1970-01-01 00:00:00.000999+00'),
	('1970-01-01 00:00:00.001+00'),
	('2025-01-01 00:00:00+00'),
	('2025-01-01 00:00:00.0005+00'),		-- half a millisecond later
	('2025-01-01 01:00:00+01'),			-- the same instant written in another zone
	('10889-08-02 05:31:50.655+00')		-- the last millisecond of 48 bits
) AS v(t);

-- inside the last millisecond only the upper bound exists
SELECT uuidv7_max('10889-08-02 05:31:50.655999+00');

SELECT uuidv7_min(NULL) IS NULL AS min_null, uuidv7_max(NULL) IS NULL AS max_null;

-- the bounds are valid version 7 UUIDs: they pass the domain
SELECT uuidv7_min('2025-01-01')::uuid7 IS NOT NULL AS min_is_uuid7,
	uuidv7_max('2025-01-01')::uuid7 IS NOT NULL AS max_is_uuid7;

-- round trips
SELECT uuidv7_timestamp(uuidv7_min('2025-03-04 05:06:07.089+00')) AS min_round_trip,
	uuidv7_timestamp(uuidv7_max('2025-03-04 05:06:07.089+00')) AS max_round_trip,
	uuidv7_timestamp(uuidv7_min('2025-03-04 05:06:07.0891+00')) AS min_rounds_up,
	uuidv7_timestamp(uuidv7_max('2025-03-04 05:06:07.0891+00')) AS max_rounds_down;

-- random inputs come from a fixed seed: every run checks the same values
SELECT setseed(0.7);
SELECT count(*) AS round_trip_mismatches
FROM (SELECT date_trunc('milliseconds', timestamptz '1970-01-01 00:00:00+00'
			 + random() * (timestamptz '10889-08-02 05:31:50.655+00' - timestamptz '1970-01-01 00:00:00+00')) AS t
	  FROM generate_series(1, 10000)) s
WHERE uuidv7_timestamp(uuidv7_min(t)) <> t OR uuidv7_timestamp(uuidv7_max(t)) <> t;

-- at a whole millisecond the bounds enclose that millisecond's UUIDs; at a
-- fraction of one no UUID has that exact time, so min(t) > max(t)
SELECT uuidv7_min('2025-01-01 00:00:00+00') < uuidv7_max('2025-01-01 00:00:00+00') AS whole_ms,
	uuidv7_min('2025-01-01 00:00:00.0001+00') > uuidv7_max('2025-01-01 00:00:00.0001+00') AS fraction;

-- exactness: for ids around each instant (at, just before and after it, and
-- with the smallest and largest random bits of neighbouring milliseconds),
--   id >= uuidv7_min(t)  <=>  uuidv7_timestamp(id) >= t
--   id <= uuidv7_max(t)  <=>  uuidv7_timestamp(id) <= t
CREATE TEMP TABLE instants AS
SELECT timestamptz '1970-01-01 00:00:00.002+00'
	+ random() * (timestamptz '10889-08-02 05:31:50.650+00' - timestamptz '1970-01-01 00:00:00.002+00') AS t
FROM generate_series(1, 300)
UNION ALL
SELECT date_trunc('milliseconds', timestamptz '2025-01-01 00:00:00+00' + random() * interval '10 years')
FROM generate_series(1, 300)
UNION ALL
VALUES (timestamptz '1970-01-01 00:00:00+00'), ('1970-01-01 00:00:00.0005+00'), ('2024-02-29 23:59:59.9999+00'),
	('10889-08-02 05:31:50.655+00'), ('10889-08-02 05:31:50.6549+00');

SELECT count(*) AS pairs,
	count(*) FILTER (WHERE (id >= uuidv7_min(t)) <> (uuidv7_timestamp(id) >= t)) AS min_mismatches,
	count(*) FILTER (WHERE (id <= uuidv7_max(t)) <> (uuidv7_timestamp(id) <= t)) AS max_mismatches
FROM instants,
	LATERAL (SELECT t + d * interval '1 microsecond' AS near
			 FROM unnest(ARRAY[-1001, -1000, -999, -500, -1, 0, 1, 500, 999, 1000, 1001]) AS d) n,
	LATERAL (SELECT uuidv7_generate_at(near) AS id
			 UNION ALL SELECT uuidv7_min(date_trunc('milliseconds', near))
			 UNION ALL SELECT uuidv7_max(near)) i
WHERE near BETWEEN '1970-01-01 00:00:00+00' AND '10889-08-02 05:31:50.655+00';

-- tiling: partitions bounded by uuidv7_min of consecutive instants leave no
-- gap and overlap nowhere; every id lands in the partition of its time.
-- Instants need not be whole milliseconds.
CREATE TABLE tiled (id uuid7 NOT NULL) PARTITION BY RANGE (id);
CREATE TABLE tiled_a PARTITION OF tiled
	FOR VALUES FROM (uuidv7_min('2025-01-01 00:00:00+00')) TO (uuidv7_min('2025-01-02 00:00:00+00'));
CREATE TABLE tiled_b PARTITION OF tiled
	FOR VALUES FROM (uuidv7_min('2025-01-02 00:00:00+00')) TO (uuidv7_min('2025-01-02 12:00:00.0005+00'));
CREATE TABLE tiled_c PARTITION OF tiled
	FOR VALUES FROM (uuidv7_min('2025-01-02 12:00:00.0005+00')) TO (uuidv7_min('2025-01-03 00:00:00+00'));

-- a partition that overlaps by one millisecond is refused (the error caught
-- and shown without its position in the statement, which PostgreSQL 13
-- does not report)
DO $$
BEGIN
	CREATE TABLE tiled_overlap PARTITION OF tiled
		FOR VALUES FROM (uuidv7_min('2025-01-02 23:59:59.999+00')) TO (uuidv7_min('2025-01-04 00:00:00+00'));
EXCEPTION WHEN OTHERS THEN
	RAISE NOTICE '%: %', SQLSTATE, SQLERRM;
END
$$;

INSERT INTO tiled
SELECT id
FROM (SELECT ts + d * interval '1 microsecond' AS t
	  FROM unnest(ARRAY[timestamptz '2025-01-01 00:00:00+00', '2025-01-02 00:00:00+00',
						'2025-01-02 12:00:00.0005+00', '2025-01-03 00:00:00+00']) AS ts,
		  unnest(ARRAY[-1000, -501, -500, -499, -1, 0, 1, 499, 500, 501, 1000]) AS d) s,
	LATERAL (SELECT uuidv7_generate_at(t) AS id
			 UNION ALL SELECT uuidv7_min(t)
			 UNION ALL SELECT uuidv7_max(t)) i
WHERE t >= '2025-01-01 00:00:00+00' AND t < '2025-01-03 00:00:00+00'
	AND id >= uuidv7_min('2025-01-01 00:00:00+00') AND id < uuidv7_min('2025-01-03 00:00:00+00');

SELECT tableoid::regclass AS partition, count(*),
	min(uuidv7_timestamp(id)) AS first, max(uuidv7_timestamp(id)) AS last
FROM tiled GROUP BY 1 ORDER BY 1;

-- ids just outside the whole range have no partition
INSERT INTO tiled VALUES (uuidv7_max('2024-12-31 23:59:59.999+00'));
INSERT INTO tiled VALUES (uuidv7_min('2025-01-03 00:00:00+00'));
DROP TABLE tiled;
