-- state: this session's generator (src/state.c), C edition only: strictly
-- increasing values in generation order, also with a shift, and where their
-- random bits come from

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

-- a burst of 100000 values in one statement, in the order generated
CREATE TEMP TABLE burst AS
SELECT n, id
FROM (SELECT array_agg(uuidv7_generate()) AS ids FROM generate_series(1, 100000)) a,
	unnest(ids) WITH ORDINALITY AS u(id, n);

-- strictly increasing in generation order, even when thousands share a
-- millisecond (faster than the clock ticks)
SELECT count(*) FILTER (WHERE id <= prev) AS not_increasing,
	max(per_ms) > 1 AS several_per_ms
FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev,
			 count(*) OVER (PARTITION BY pg_temp.unix_ms(id)) AS per_ms
	  FROM burst) s;

-- successive statements continue the same increasing sequence
SELECT uuidv7_generate() AS a \gset
SELECT uuidv7_generate() > :'a'::uuid AS next_statement_greater;

-- a burst with one same shift is strictly increasing too, also when values
-- without a shift are generated in between
SELECT count(*) FILTER (WHERE id <= prev) AS not_increasing,
	count(DISTINCT id) AS distinct_ids
FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev
	  FROM (SELECT array_agg(uuidv7_generate('-1 hour') ORDER BY g) AS ids,
				   count(uuidv7_generate()) AS unshifted
			FROM generate_series(1, 20000) g) a,
		unnest(ids) WITH ORDINALITY AS u(id, n)) s;

-- with the random pool turned off every value draws from the secure source
SET uuidv7.random_pool = off;
SELECT count(DISTINCT id) AS distinct_ids,
	bool_and(pg_temp.version_nibble(id) = '7' AND pg_temp.variant_ok(id)) AS layout_ok
FROM (SELECT uuidv7_generate() AS id FROM generate_series(1, 1000)) s;
RESET uuidv7.random_pool;

-- only a superuser may change where random bits come from
CREATE ROLE regress_uuidv7_user;
SET ROLE regress_uuidv7_user;
SET uuidv7.random_pool = off;
\echo :LAST_ERROR_SQLSTATE
RESET ROLE;
DROP ROLE regress_uuidv7_user;
