-- generation: structure of random output, the time it carries, exact layout
-- for a given time (the order of one session's values, which only the C
-- edition promises to the microsecond, is test state)

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

-- bits read straight from the text form, independently of the extension:
-- version nibble, variant nibble, 48-bit milliseconds, 12-bit rand_a
CREATE FUNCTION pg_temp.version_nibble(u uuid) RETURNS text
	LANGUAGE sql IMMUTABLE AS $$ SELECT substr(u::text, 15, 1) $$;
CREATE FUNCTION pg_temp.variant_ok(u uuid) RETURNS boolean
	LANGUAGE sql IMMUTABLE AS $$ SELECT substr(u::text, 20, 1) IN ('8', '9', 'a', 'b') $$;
CREATE FUNCTION pg_temp.unix_ms(u uuid) RETURNS bigint
	LANGUAGE sql IMMUTABLE AS $$ SELECT ('x' || substr(replace(u::text, '-', ''), 1, 12))::bit(48)::bigint $$;
CREATE FUNCTION pg_temp.rand_a(u uuid) RETURNS int
	LANGUAGE sql IMMUTABLE AS $$ SELECT ('x' || substr(u::text, 16, 3))::bit(12)::int $$;
CREATE FUNCTION pg_temp.rand_b(u uuid) RETURNS text
	LANGUAGE sql IMMUTABLE AS $$ SELECT substr(replace(u::text, '-', ''), 17) $$;

-- a burst of 100000 values in one statement, in the order generated, between
-- two readings of the clock
SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint AS before_ms \gset
CREATE TEMP TABLE burst AS
SELECT n, id
FROM (SELECT array_agg(uuidv7_generate()) AS ids FROM generate_series(1, 100000)) a,
	unnest(ids) WITH ORDINALITY AS u(id, n);
SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint AS after_ms \gset

SELECT count(*) AS generated,
	count(DISTINCT id) AS distinct_ids,
	count(*) FILTER (WHERE pg_temp.version_nibble(id) <> '7') AS bad_version,
	count(*) FILTER (WHERE NOT pg_temp.variant_ok(id)) AS bad_variant,
	count(DISTINCT pg_temp.rand_b(id)) AS distinct_rand_b
FROM burst;

-- the time (milliseconds and their fraction) never goes back in generation
-- order, and thousands of values share a millisecond
SELECT count(*) FILTER (WHERE left(id::text, 18) COLLATE "C" < left(prev::text, 18)) AS time_going_back,
	max(per_ms) > 1 AS several_per_ms
FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev,
			 count(*) OVER (PARTITION BY pg_temp.unix_ms(id)) AS per_ms
	  FROM burst) s;

-- the embedded time is the clock's during the burst (values may run ahead of
-- the clock by 1/4096 ms per value at most)
SELECT count(*) FILTER (WHERE pg_temp.unix_ms(id) NOT BETWEEN :before_ms - 1 AND :after_ms + 100000 / 4096 + 1)
	AS off_clock
FROM burst;

-- 62 random bits: every bit position takes both values across the burst
SELECT length(replace((bit_or(b) & ~bit_and(b))::bit(64)::text, '0', '')) AS rand_b_bits_seen_both_ways
FROM (SELECT ('x' || pg_temp.rand_b(id))::bit(64)::bigint & x'3fffffffffffffff'::bigint AS b FROM burst) s;

-- uuidv7_generate_at: exact time and sub-millisecond fraction, fresh random bits
SELECT left(uuidv7_generate_at('2025-01-01 00:00:00+00')::text, 19) AS at_2025,
	left(uuidv7_generate_at('2025-01-01 00:00:00.5005+00')::text, 19) AS at_500_5_us_later,
	left(uuidv7_generate_at('1970-01-01 00:00:00+00')::text, 19) AS at_epoch,
	left(uuidv7_generate_at('10889-08-02 05:31:50.655999+00')::text, 19) AS at_last_us;

SELECT count(DISTINCT id) AS distinct_ids,
	count(DISTINCT left(id::text, 19)) AS distinct_time_prefixes,
	bool_and(pg_temp.variant_ok(id)) AS variant_ok
FROM (SELECT uuidv7_generate_at('2025-06-01 12:00:00.123456+00') AS id
	  FROM generate_series(1, 1000)) s;

-- rand_a is floor(fraction of the millisecond * 4096), for every microsecond
SELECT count(*) AS wrong_rand_a
FROM generate_series(0, 999) AS us,
	LATERAL (SELECT uuidv7_generate_at('2025-01-01 00:00:00+00'::timestamptz
									   + us * interval '1 microsecond') AS id) g
WHERE pg_temp.rand_a(id) <> us * 4096 / 1000
	OR pg_temp.unix_ms(id) <> 1735689600000;

-- uuidv7_generate(interval): the time moves by the interval
SELECT pg_temp.unix_ms(uuidv7_generate('-1 hour'))
	BETWEEN (extract(epoch FROM statement_timestamp() - interval '1 hour') * 1000)::bigint - 1000
	AND (extract(epoch FROM clock_timestamp() - interval '1 hour') * 1000)::bigint + 1000
	AS minus_one_hour,
	pg_temp.unix_ms(uuidv7_generate('1 day 2 hours'))
	BETWEEN (extract(epoch FROM statement_timestamp() + interval '1 day 2 hours') * 1000)::bigint - 1000
	AND (extract(epoch FROM clock_timestamp() + interval '1 day 2 hours') * 1000)::bigint + 1000
	AS plus_26_hours,
	pg_temp.version_nibble(uuidv7_generate('-1 hour')) AS version;

-- generators are volatile: each row gets its own value
SELECT count(DISTINCT uuidv7_generate()) AS now_values,
	count(DISTINCT uuidv7_generate('1 hour')) AS shifted_values,
	count(DISTINCT uuidv7_generate_at('2025-01-01')) AS at_values
FROM generate_series(1, 1000);

-- NULL in, NULL out
SELECT uuidv7_generate(NULL) IS NULL AS shift_null,
	uuidv7_generate_at(NULL) IS NULL AS at_null;
