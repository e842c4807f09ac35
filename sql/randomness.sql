-- randomness: a million values from the pooled secure source; the 62 random
-- bits never repeat, each bit is set about half the time, and consecutive
-- values share about half their bits (bounds of six standard deviations)

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
CREATE TEMP TABLE tails AS
SELECT n, ('x' || substr(replace(id::text, '-', ''), 17))::bit(64)::bigint & x'3fffffffffffffff'::bigint AS b
FROM (SELECT array_agg(uuidv7_generate()) AS ids FROM generate_series(1, 1000000)) a,
	unnest(ids) WITH ORDINALITY AS u(id, n);

SELECT count(*) AS values, count(DISTINCT b) AS distinct_tails FROM tails;

-- bit k set in close to 500000 of the million: 6 sd = 3000
CREATE FUNCTION pg_temp.bit_counts() RETURNS SETOF bigint LANGUAGE plpgsql AS $$
DECLARE
	counts bigint[];
BEGIN
	EXECUTE 'SELECT ARRAY[' ||
		(SELECT string_agg(format('sum((b >> %s) & 1)', k), ', ') FROM generate_series(0, 61) k) ||
		'] FROM tails' INTO counts;
	RETURN QUERY SELECT unnest(counts);
END
$$;
SELECT count(*) AS bit_positions,
	count(*) FILTER (WHERE c NOT BETWEEN 500000 - 3000 AND 500000 + 3000) AS out_of_bounds
FROM pg_temp.bit_counts() AS c;

-- consecutive tails differ in 31 of 62 bits on average (sd of the mean 0.004)
SELECT abs(avg(length(replace((b # prev)::bit(64)::text, '0', ''))) - 31) < 0.05 AS half_the_bits_change
FROM (SELECT b, lag(b) OVER (ORDER BY n) AS prev FROM tails) s WHERE prev IS NOT NULL;

-- the same for values drawn one secure call at a time
SET uuidv7.random_pool = off;
SELECT count(DISTINCT substr(id::text, 20)) AS distinct_tails_without_pool
FROM (SELECT uuidv7_generate() AS id FROM generate_series(1, 100000)) s;
RESET uuidv7.random_pool;
