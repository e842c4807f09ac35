-- planner: constant bounds fold at plan time, so time-range queries on a uuid
-- key use its index and prune partitions; index and seq scans agree

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

-- 100 days of rows, one every 86.4 seconds
CREATE TABLE readings (id uuid7 PRIMARY KEY, v int);
INSERT INTO readings
SELECT uuidv7_generate_at('2025-01-01 00:00:00+00'::timestamptz + g * interval '86.4 seconds'), g
FROM generate_series(0, 99999) g;
ANALYZE readings;

-- the bound functions are folded into uuid constants
EXPLAIN (COSTS OFF)
SELECT count(*) FROM readings
WHERE id >= uuidv7_min('2025-02-01 00:00:00+00') AND id < uuidv7_min('2025-02-02 00:00:00+00');

SELECT count(*), sum(v) FROM readings
WHERE id >= uuidv7_min('2025-02-01 00:00:00+00') AND id < uuidv7_min('2025-02-02 00:00:00+00');

-- the same rows by index and by sequential scan, and by the extracted time
CREATE TEMP TABLE by_index AS SELECT id FROM readings
WHERE id >= uuidv7_min('2025-02-01 00:00:00+00') AND id <= uuidv7_max('2025-02-14 12:34:56.789+00');
SET enable_indexscan = off;
SET enable_bitmapscan = off;
SET enable_indexonlyscan = off;
EXPLAIN (COSTS OFF)
SELECT id FROM readings
WHERE id >= uuidv7_min('2025-02-01 00:00:00+00') AND id <= uuidv7_max('2025-02-14 12:34:56.789+00');
CREATE TEMP TABLE by_seqscan AS SELECT id FROM readings
WHERE id >= uuidv7_min('2025-02-01 00:00:00+00') AND id <= uuidv7_max('2025-02-14 12:34:56.789+00');
CREATE TEMP TABLE by_time AS SELECT id FROM readings
WHERE uuidv7_timestamp(id) >= '2025-02-01 00:00:00+00' AND uuidv7_timestamp(id) <= '2025-02-14 12:34:56.789+00';
SET enable_indexscan = on;
SET enable_bitmapscan = on;
SET enable_indexonlyscan = on;
SELECT (SELECT count(*) FROM by_index) AS rows,
	NOT EXISTS ((TABLE by_index EXCEPT TABLE by_seqscan) UNION ALL (TABLE by_seqscan EXCEPT TABLE by_index)) AS index_equals_seqscan,
	NOT EXISTS ((TABLE by_index EXCEPT TABLE by_time) UNION ALL (TABLE by_time EXCEPT TABLE by_index)) AS index_equals_time_filter;

-- an expression index on the extracted time, for a plain uuid column
CREATE TABLE logs (id uuid, v int);
INSERT INTO logs SELECT id, v FROM readings;
CREATE INDEX logs_time_idx ON logs (uuidv7_timestamp(id));
ANALYZE logs;
-- (the SQL edition's plan shows uuidv7_timestamp's SQL, which the planner
-- inlines: expected/planner_1.out)
EXPLAIN (COSTS OFF)
SELECT count(*) FROM logs
WHERE uuidv7_timestamp(id) >= '2025-03-01 00:00:00+00' AND uuidv7_timestamp(id) < '2025-03-01 06:00:00+00';
SELECT count(*) FROM logs
WHERE uuidv7_timestamp(id) >= '2025-03-01 00:00:00+00' AND uuidv7_timestamp(id) < '2025-03-01 06:00:00+00';

-- a table range-partitioned by month on its own key
CREATE TABLE metrics (id uuid7 PRIMARY KEY DEFAULT uuidv7_generate(), v int)
	PARTITION BY RANGE (id);
CREATE TABLE metrics_2025_01 PARTITION OF metrics
	FOR VALUES FROM (uuidv7_min('2025-01-01 00:00:00+00')) TO (uuidv7_min('2025-02-01 00:00:00+00'));
CREATE TABLE metrics_2025_02 PARTITION OF metrics
	FOR VALUES FROM (uuidv7_min('2025-02-01 00:00:00+00')) TO (uuidv7_min('2025-03-01 00:00:00+00'));
CREATE TABLE metrics_2025_03 PARTITION OF metrics
	FOR VALUES FROM (uuidv7_min('2025-03-01 00:00:00+00')) TO (uuidv7_min('2025-04-01 00:00:00+00'));
CREATE TABLE metrics_2025_04 PARTITION OF metrics
	FOR VALUES FROM (uuidv7_min('2025-04-01 00:00:00+00')) TO (uuidv7_min('2025-05-01 00:00:00+00'));
INSERT INTO metrics SELECT id, v FROM readings;
ANALYZE metrics;

SELECT tableoid::regclass AS partition, count(*),
	min(uuidv7_timestamp(id)) AS first, max(uuidv7_timestamp(id)) AS last
FROM metrics GROUP BY 1 ORDER BY 1;

-- plan-time pruning: one partition, through its primary-key index
EXPLAIN (COSTS OFF)
SELECT count(*) FROM metrics
WHERE id >= uuidv7_min('2025-02-10 00:00:00+00') AND id < uuidv7_min('2025-02-11 00:00:00+00');

-- execution-time pruning with parameters in a generic plan
PREPARE one_day(timestamptz, timestamptz) AS
SELECT count(*) FROM metrics WHERE id >= uuidv7_min($1) AND id < uuidv7_min($2);
SET plan_cache_mode = force_generic_plan;
EXPLAIN (COSTS OFF) EXECUTE one_day('2025-02-10 00:00:00+00', '2025-02-11 00:00:00+00');
EXECUTE one_day('2025-02-10 00:00:00+00', '2025-02-11 00:00:00+00');
SET plan_cache_mode = auto;
DEALLOCATE one_day;

DROP TABLE readings, logs, metrics;
