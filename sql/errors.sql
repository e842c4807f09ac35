-- errors: every out-of-range input raises 22008, never a wrapped value

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

SELECT uuidv7_min('1969-12-31 23:59:59.999999+00');
\echo :LAST_ERROR_SQLSTATE
SELECT uuidv7_max('1969-12-31 23:59:59.999999+00');
\echo :LAST_ERROR_SQLSTATE
SELECT uuidv7_generate_at('1969-12-31 23:59:59.999999+00');
\echo :LAST_ERROR_SQLSTATE
SELECT uuidv7_min('-infinity');
\echo :LAST_ERROR_SQLSTATE
SELECT uuidv7_max('-infinity');
\echo :LAST_ERROR_SQLSTATE
SELECT uuidv7_generate_at('-infinity');
\echo :LAST_ERROR_SQLSTATE
SELECT uuidv7_min('infinity');
\echo :LAST_ERROR_SQLSTATE
SELECT uuidv7_max('infinity');
\echo :LAST_ERROR_SQLSTATE
SELECT uuidv7_generate_at('infinity');
\echo :LAST_ERROR_SQLSTATE
SELECT uuidv7_min('4713-01-01 00:00:00+00 BC');
\echo :LAST_ERROR_SQLSTATE
SELECT uuidv7_max('294276-12-31 23:59:59.999999+00');
\echo :LAST_ERROR_SQLSTATE
-- past the 48 bits: the first microsecond after the last millisecond
SELECT uuidv7_max('10889-08-02 05:31:50.656+00');
\echo :LAST_ERROR_SQLSTATE
SELECT uuidv7_generate_at('10889-08-02 05:31:50.656+00');
\echo :LAST_ERROR_SQLSTATE
-- inside the last millisecond no UUID is at or after the instant
SELECT uuidv7_min('10889-08-02 05:31:50.655001+00');
\echo :LAST_ERROR_SQLSTATE

-- shifts that leave the range
SELECT uuidv7_generate('-100 years');
\echo :LAST_ERROR_SQLSTATE
SELECT uuidv7_generate('9000 years');
\echo :LAST_ERROR_SQLSTATE
SELECT uuidv7_generate('-2147483647 days');
\echo :LAST_ERROR_SQLSTATE
SELECT uuidv7_generate('2000000 years');
\echo :LAST_ERROR_SQLSTATE
SELECT uuidv7_generate('106751991 days 4 hours');
\echo :LAST_ERROR_SQLSTATE

-- a long but valid shift still works
SELECT uuidv7_timestamp(uuidv7_generate('8000 years')) > '9999-01-01' AS far_future,
	uuidv7_timestamp(uuidv7_generate('-50 years')) < '1980-01-01' AS far_past;

-- the errors leave the session's sequence intact
SELECT uuidv7_generate() AS a \gset
SELECT uuidv7_generate('-100 years');
\echo :LAST_ERROR_SQLSTATE
SELECT uuidv7_generate() > :'a'::uuid AS still_increasing;
