-- uuidv7_time_ops in BRIN's multi-minmax operator class for uuid,
-- uuid_minmax_multi_ops, which PostgreSQL has from version 14 on.  On 13 the
-- class does not exist and the extension adds nothing for it: the status
-- has no row for it and the index cannot be built (expected/
-- time_ops_brin_multi_1.out).

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
CREATE EXTENSION uuidv7_time_ops;
-- (its operators, in their own schema beside uuidv7's: those are the ones
-- in the multi-minmax family)
SET search_path = uuidv7_time_ops, public;
SELECT * FROM uuidv7_time_ops_status() WHERE family = 'uuid_minmax_multi_ops';

-- two hundred thousand time-ordered rows, one a second; a one-hour range
-- reads only the 128-block range that holds it
CREATE TABLE events (id uuid7 NOT NULL, v int);
INSERT INTO events
SELECT uuidv7_generate_at('2025-01-01 00:00:00+00'::timestamptz + g * interval '1 second'), g
FROM generate_series(0, 199999) g;
CREATE INDEX events_brin_multi ON events USING brin (id uuid_minmax_multi_ops);
VACUUM ANALYZE events;
EXPLAIN (COSTS OFF)
SELECT count(*) FROM events WHERE id >= '2025-01-01 12:00:00+00'::timestamptz AND id < '2025-01-01 13:00:00+00'::timestamptz;
CREATE FUNCTION pg_temp.heap_blocks_read(q text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
	plan json;
BEGIN
	EXECUTE 'EXPLAIN (ANALYZE, FORMAT JSON, TIMING OFF) ' || q INTO plan;
	RETURN (plan -> 0 -> 'Plan' ->> 'Exact Heap Blocks')::bigint + (plan -> 0 -> 'Plan' ->> 'Lossy Heap Blocks')::bigint;
END
$$;
SELECT count(*) AS rows, pg_temp.heap_blocks_read($$SELECT v FROM events
	WHERE id >= '2025-01-01 12:00:00+00'::timestamptz AND id < '2025-01-01 13:00:00+00'::timestamptz$$) AS heap_blocks_read,
	pg_relation_size('events') / current_setting('block_size')::int AS table_blocks
FROM events WHERE id >= '2025-01-01 12:00:00+00'::timestamptz AND id < '2025-01-01 13:00:00+00'::timestamptz;

DROP TABLE events;
DROP EXTENSION uuidv7_time_ops;
RESET search_path;
