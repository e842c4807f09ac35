-- adversarial input: every SQL function of uuidv7 over UUIDs of every version
-- and variant, times around every limit, huge and negative intervals and
-- hostile text; each call gives a value, a documented NULL or an error with
-- the expected SQLSTATE, and never takes the server down

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

-- the outcome of one statement: 'value', 'null' or the SQLSTATE of its error
CREATE FUNCTION pg_temp.outcome(statement text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	result text;
BEGIN
	EXECUTE statement INTO result;
	RETURN CASE WHEN result IS NULL THEN 'null' ELSE 'value' END;
EXCEPTION WHEN OTHERS THEN
	RETURN SQLSTATE;
END
$$;

-- 2048 UUIDs: pseudo-random bytes with each of the 16 versions and each of
-- the 4 two-bit variant patterns, plus nil, max and the v7 extremes.
-- (uuid_extract_timestamp is core's on PostgreSQL 17, which reads only
-- version 1: the compat test puts it through the same UUIDs.)
CREATE TEMP TABLE uuids AS
SELECT g % 16 AS version, (g / 16) % 4 AS variant,
	encode(set_byte(set_byte(b, 6, (get_byte(b, 6) & 15) | ((g % 16) << 4)),
					8, (get_byte(b, 8) & 63) | (((g / 16) % 4) << 6)), 'hex')::uuid AS u
FROM generate_series(0, 2047) g, LATERAL (SELECT decode(md5(g::text), 'hex') AS b) r
UNION ALL VALUES (0, 0, '00000000-0000-0000-0000-000000000000'::uuid), (15, 3, 'ffffffff-ffff-ffff-ffff-ffffffffffff'),
	(7, 2, '00000000-0000-7000-8000-000000000000'), (7, 2, 'ffffffff-ffff-7fff-bfff-ffffffffffff');

SELECT f, outcome, count(*)
FROM uuids, LATERAL (VALUES
	('uuidv7_timestamp', pg_temp.outcome(format('SELECT uuidv7_timestamp(%L::uuid)', u))),
	('uuidv7_unix_ms', pg_temp.outcome(format('SELECT uuidv7_unix_ms(%L::uuid)', u))),
	('uuid_extract_version', pg_temp.outcome(format('SELECT uuid_extract_version(%L::uuid)', u))),
	('uuidv7_to_base32', pg_temp.outcome(format('SELECT uuidv7_to_base32(%L::uuid)', u))),
	('uuidv7_to_base32_grouped', pg_temp.outcome(format('SELECT uuidv7_to_base32_grouped(%L::uuid)', u))),
	('cast to uuid7', pg_temp.outcome(format('SELECT %L::uuid7', u)))) AS o(f, outcome)
GROUP BY 1, 2 ORDER BY f COLLATE "C", outcome COLLATE "C";

-- and the values are right: a time exactly for RFC variant version 7, the
-- version for the RFC variant, a lossless text form for every UUID
SELECT count(*) FILTER (WHERE (uuidv7_timestamp(u) IS NOT NULL) <> (version = 7 AND variant = 2)) AS wrong_v7_detection,
	count(*) FILTER (WHERE uuidv7_unix_ms(u) <> ('x' || substr(replace(u::text, '-', ''), 1, 12))::bit(48)::bigint) AS wrong_ms,
	count(*) FILTER (WHERE uuid_extract_version(u) IS DISTINCT FROM CASE WHEN variant = 2 THEN version END) AS wrong_version,
	count(*) FILTER (WHERE uuidv7_from_base32(uuidv7_to_base32(u)) <> u) AS base32_not_lossless
FROM uuids;

-- times around every limit
CREATE TEMP TABLE instants (t timestamptz);
INSERT INTO instants VALUES ('-infinity'), ('infinity'), ('4713-11-24 00:00:00+00 BC'),
	('294276-12-31 23:59:59.999999+00'), ('1969-12-31 23:59:59.999+00'), ('1969-12-31 23:59:59.999999+00'),
	('1970-01-01 00:00:00+00'), ('1970-01-01 00:00:00.000001+00'), ('2000-01-01 00:00:00+00'),
	('10889-08-02 05:31:50.654999+00'), ('10889-08-02 05:31:50.655+00'), ('10889-08-02 05:31:50.655001+00'),
	('10889-08-02 05:31:50.655999+00'), ('10889-08-02 05:31:50.656+00'), ('10889-08-02 05:31:51+00');
SELECT t, pg_temp.outcome(format('SELECT uuidv7_min(%L)', t)) AS min,
	pg_temp.outcome(format('SELECT uuidv7_max(%L)', t)) AS max,
	pg_temp.outcome(format('SELECT uuidv7_generate_at(%L)', t)) AS generate_at,
	pg_temp.outcome(format('SELECT uuidv7_partman_encoder(%L)', t)) AS encoder,
	pg_temp.outcome(format('SELECT count(*) FROM uuidv7_partition_bounds(%L, %L::timestamptz + interval ''1 day'', ''1 hour'', ''UTC'')', t, t)) AS bounds
FROM instants ORDER BY t;

-- intervals: huge, negative, tiny, of every unit
SELECT i, pg_temp.outcome(format('SELECT uuidv7_generate(%L::interval)', i)) AS generate
FROM unnest(ARRAY['0', '1 microsecond', '-1 microsecond', '-56 years', '-57 years', '8000 years', '8900 years',
				  '178000000 years', '-178000000 years', '2147483647 days', '-2147483648 days',
				  '2147483647 months', '-2147483648 months', '106751991 days 04:00:54.775807',
				  '-106751991 days -04:00:54.775808', '1 month -31 days']) AS i;

-- partition steps and zones, hostile or absurd
SELECT step, zone, pg_temp.outcome(format(
	'SELECT count(*) FROM (SELECT * FROM uuidv7_partition_bounds(''2025-01-01'', ''2025-02-01'', %L, %L) LIMIT 5) b',
	step, zone)) AS bounds
FROM unnest(ARRAY['0', '-1 month', '1 microsecond', '999 microseconds', '1 millisecond', '1 second',
				  '1 month -30 days', '2147483647 months', '1 day']) AS step,
	unnest(ARRAY['UTC', 'Europe/Berlin', '', 'no/such_zone', '+03', 'EST5EDT', repeat('x', 100)]) AS zone
WHERE zone = 'UTC' OR step = '1 day'
ORDER BY step COLLATE "C", zone COLLATE "C";

-- text that is not base32: every length, non-ASCII, control characters
SELECT f, outcome, count(*)
FROM (SELECT substr(repeat(md5(g::text), 2), 1, g % 40) AS s FROM generate_series(0, 399) g
	  UNION ALL VALUES (''), ('-'), (repeat('-', 100)), (E'\t01FWHE4YDGFK1SHH6W1G60EECF'), ('01FWHE4YDGFK1SHH6W1G60EEC€'),
		(repeat('Z', 26)), (repeat('7', 26)), (repeat('z', 27)), (repeat('0', 1000))) AS t(s),
	LATERAL (VALUES ('uuidv7_from_base32', pg_temp.outcome(format('SELECT uuidv7_from_base32(%L)', s))),
					('uuidv7_partman_decoder', pg_temp.outcome(format('SELECT uuidv7_partman_decoder(%L)', s)))) AS o(f, outcome)
GROUP BY 1, 2 ORDER BY f COLLATE "C", outcome COLLATE "C";

-- NULL everywhere gives NULL
SELECT uuidv7_timestamp(NULL) IS NULL AND uuidv7_unix_ms(NULL) IS NULL AND uuidv7_min(NULL) IS NULL
	AND uuidv7_max(NULL) IS NULL AND uuidv7_generate(NULL) IS NULL AND uuidv7_generate_at(NULL) IS NULL
	AND uuidv7_to_base32(NULL) IS NULL AND uuidv7_to_base32_grouped(NULL) IS NULL AND uuidv7_from_base32(NULL) IS NULL
	AND uuidv7_partman_encoder(NULL) IS NULL AND uuidv7_partman_decoder(NULL) IS NULL
	AND uuidv7_domain_check(NULL) IS NULL AND NULL::uuid7 IS NULL AS all_null;
SELECT count(*) AS rows FROM uuidv7_partition_bounds(NULL, '2025-01-01', '1 day');
SELECT count(*) AS rows FROM uuidv7_partition_bounds('2025-01-01', '2025-02-01', '1 day', NULL);
