-- extraction: exact values for fixed inputs, NULL for what is not version 7

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

-- RFC 9562 appendix A.6 test vector: 2022-02-22 19:22:22 UTC
SELECT uuidv7_timestamp('017f22e2-79b0-7cc3-98c4-dc0c0c07398f') AS rfc_vector,
	uuidv7_unix_ms('017f22e2-79b0-7cc3-98c4-dc0c0c07398f') AS rfc_vector_ms;

-- the wall of edges
SELECT id, uuidv7_timestamp(id::uuid), uuidv7_unix_ms(id::uuid)
FROM (VALUES
	('00000000-0000-7000-8000-000000000000'),	-- the epoch, smallest v7
	('00000000-0000-7fff-bfff-ffffffffffff'),	-- the epoch, largest v7
	('00000000-0001-7000-8000-000000000000'),	-- one millisecond later
	('01941f29-7c00-7000-8000-000000000000'),	-- 2025-01-01
	('01941f29-7c00-7fff-bfff-ffffffffffff'),	-- 2025-01-01, all random bits set
	('ffffffff-ffff-7000-8000-000000000000'),	-- the last millisecond (year 10889)
	('ffffffff-ffff-7fff-bfff-ffffffffffff'),	-- the largest v7
	('00000000-0000-0000-0000-000000000000'),	-- nil: NULL
	('ffffffff-ffff-ffff-ffff-ffffffffffff'),	-- max: NULL
	('017f22e2-79b0-4cc3-98c4-dc0c0c07398f'),	-- version 4: NULL
	('c232ab00-9414-11ec-b3c8-9f6bdeced846'),	-- version 1: NULL
	('017f22e2-79b0-6cc3-98c4-dc0c0c07398f'),	-- version 6: NULL
	('017f22e2-79b0-8cc3-98c4-dc0c0c07398f'),	-- version 8: NULL
	('017f22e2-79b0-7cc3-08c4-dc0c0c07398f'),	-- version 7, NCS variant 0: NULL
	('017f22e2-79b0-7cc3-c8c4-dc0c0c07398f'),	-- version 7, Microsoft variant 110: NULL
	('017f22e2-79b0-7cc3-e8c4-dc0c0c07398f')	-- version 7, reserved variant 111: NULL
) AS v(id);

SELECT uuidv7_timestamp(NULL) IS NULL AS timestamp_null,
	uuidv7_unix_ms(NULL) IS NULL AS unix_ms_null;

-- the extracted time does not depend on the session's time zone
SET TimeZone = 'America/New_York';
SELECT uuidv7_timestamp('017f22e2-79b0-7cc3-98c4-dc0c0c07398f') AS in_new_york;
SET TimeZone = 'UTC';

-- round trip: a generated value carries its time truncated to the millisecond.
-- The instants come from a fixed seed; the expected milliseconds are counted
-- from the truncated time, which extract(epoch) gives exactly as numeric
-- (PostgreSQL 14 on) and as a double (13) alike: 2^48 ms is far below 2^53
SELECT setseed(0.3);
SELECT count(*) AS mismatches
FROM (SELECT timestamptz '1970-01-01 00:00:00+00'
			 + random() * (timestamptz '10889-08-02 05:31:50.655999+00' - timestamptz '1970-01-01 00:00:00+00') AS t
	  FROM generate_series(1, 10000)
	  UNION ALL
	  VALUES (timestamptz '1970-01-01 00:00:00+00'), ('1970-01-01 00:00:00.000999+00'),
			 ('2000-02-29 23:59:59.999999+00'), ('10889-08-02 05:31:50.655999+00')) s
WHERE uuidv7_timestamp(uuidv7_generate_at(t)) <> date_trunc('milliseconds', t)
	OR uuidv7_unix_ms(uuidv7_generate_at(t)) <> round(extract(epoch FROM date_trunc('milliseconds', t)) * 1000);

SELECT uuidv7_timestamp(uuidv7_generate()) BETWEEN statement_timestamp() - interval '1 second'
	AND clock_timestamp() AS generated_now;

-- IMMUTABLE, so usable in a generated column
CREATE TABLE events (
	id uuid7 PRIMARY KEY DEFAULT uuidv7_generate(),
	created_at timestamptz GENERATED ALWAYS AS (uuidv7_timestamp(id)) STORED
);
INSERT INTO events (id) VALUES ('017f22e2-79b0-7cc3-98c4-dc0c0c07398f');
INSERT INTO events DEFAULT VALUES;
SELECT created_at FROM events WHERE id = '017f22e2-79b0-7cc3-98c4-dc0c0c07398f';
SELECT count(*) AS rows_with_time FROM events WHERE created_at IS NOT NULL;
DROP TABLE events;
