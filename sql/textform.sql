-- text forms: Crockford base32 (ULID text) and the grouped form, for any UUID

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

-- exact values (worked out independently of the extension)
SELECT u, uuidv7_to_base32(u::uuid), uuidv7_to_base32_grouped(u::uuid)
FROM (VALUES ('00000000-0000-0000-0000-000000000000'),	-- nil
			 ('ffffffff-ffff-ffff-ffff-ffffffffffff'),	-- max
			 ('017f22e2-79b0-7cc3-98c4-dc0c0c07398f'),	-- RFC 9562 version 7 vector
			 ('01941f29-7c00-7fff-bfff-ffffffffffff'),	-- version 7, all random bits set
			 ('c232ab00-9414-11ec-b3c8-9f6bdeced846')	-- version 1
	) AS v(u);

-- the ULID specification's example, and how it is written back
SELECT uuidv7_from_base32('01ARZ3NDEKTSV4RRFFQ69G5FAV') AS ulid_example,
	uuidv7_to_base32(uuidv7_from_base32('01ARZ3NDEKTSV4RRFFQ69G5FAV')) AS written_back;

-- accepted spellings: lower case, hyphens anywhere, I and L for 1, O for 0
SELECT uuidv7_from_base32(s) AS decoded, s AS spelling
FROM (VALUES ('01FWHE4YDGFK1SHH6W1G60EECF'),
			 ('01fwhe4ydgfk1shh6w1g60eecf'),
			 ('01-fwhe-4ydg-fk1s-hh6w-1g60-eecf'),
			 ('O1FWHE4YDGFKISHH6W1G6OEECF'),
			 ('o1fwhe4ydgfklshh6w1g6oeecf'),
			 ('-01FWHE4YDG--FK1SHH6W1G60EECF-')) AS v(s);

-- refusals, each 22P02, saying what is wrong and where
SELECT uuidv7_from_base32('01FWHE4YDGFK1SHH6W1G60EEC');		-- 25 digits
\echo :LAST_ERROR_SQLSTATE
SELECT uuidv7_from_base32('01FWHE4YDGFK1SHH6W1G60EECFF');		-- 27 digits
SELECT uuidv7_from_base32('');
SELECT uuidv7_from_base32('----');
SELECT uuidv7_from_base32('01FWHE4YDGFK1SHH6W1G60EECU');		-- U is not a digit
\echo :LAST_ERROR_SQLSTATE
SELECT uuidv7_from_base32('01FWHE4YDG FK1SHH6W1G60EECF');		-- a space
SELECT uuidv7_from_base32('01FWHE4YDGFK1SHH6W1G60EEC*');
SELECT uuidv7_from_base32('01-fwhé-4ydg-fk1s-hh6w-1g60-eecf');	-- a character beyond ASCII
SELECT uuidv7_from_base32('017f22e2-79b0-7cc3-98c4-dc0c0c07398f');	-- the hex form is not base32
SELECT uuidv7_from_base32('8ZZZZZZZZZZZZZZZZZZZZZZZZZ');		-- beyond 128 bits
\echo :LAST_ERROR_SQLSTATE
SELECT uuidv7_from_base32('ZZZZZZZZZZZZZZZZZZZZZZZZZZ');
SELECT uuidv7_from_base32(NULL) IS NULL AS null_in,
	uuidv7_to_base32(NULL) IS NULL AS null_out,
	uuidv7_to_base32_grouped(NULL) IS NULL AS null_grouped;

-- round trips over random UUIDs of every kind and random edge values, and
-- the order of the text (bytewise) is the order of the UUIDs.  The random
-- bytes come from a fixed seed, so that every run checks the same values:
-- any 128 bits, and the same with the version and variant of a UUIDv7
SELECT setseed(0.9);
CREATE TEMP TABLE samples AS
SELECT md5(random()::text)::uuid AS u FROM generate_series(1, 5000)
UNION ALL SELECT overlay(overlay(md5(random()::text) PLACING '7' FROM 13)
						 PLACING substr('89ab', 1 + g % 4, 1) FROM 17)::uuid
FROM generate_series(1, 5000) g
UNION ALL SELECT encode(decode(md5(g::text), 'hex'), 'hex')::uuid FROM generate_series(1, 5000) g
UNION ALL SELECT uuidv7_max(t) FROM generate_series(timestamptz '1970-01-01', '2100-01-01', interval '97 days') t
UNION ALL SELECT uuidv7_min(t) FROM generate_series(timestamptz '1970-01-01', '2100-01-01', interval '97 days') t
UNION ALL VALUES ('00000000-0000-0000-0000-000000000000'::uuid), ('ffffffff-ffff-ffff-ffff-ffffffffffff'),
	('80000000-0000-0000-0000-000000000000'), ('7fffffff-ffff-ffff-ffff-ffffffffffff'),
	('00000000-0000-0000-0000-000000000001'), ('ffffffff-ffff-7fff-bfff-ffffffffffff');
SELECT count(*) AS samples,
	count(*) FILTER (WHERE uuidv7_from_base32(uuidv7_to_base32(u)) <> u) AS base32_round_trip_failures,
	count(*) FILTER (WHERE uuidv7_from_base32(uuidv7_to_base32_grouped(u)) <> u) AS grouped_round_trip_failures,
	count(*) FILTER (WHERE uuidv7_from_base32(lower(uuidv7_to_base32(u))) <> u) AS lower_case_failures,
	count(*) FILTER (WHERE length(uuidv7_to_base32(u)) <> 26
					 OR uuidv7_to_base32_grouped(u) !~ '^[0-9a-hjkmnp-tv-z]{2}(-[0-9a-hjkmnp-tv-z]{4}){6}$') AS malformed
FROM samples;
SELECT count(*) AS order_mismatches
FROM (SELECT row_number() OVER (ORDER BY u) AS by_uuid,
			 row_number() OVER (ORDER BY uuidv7_to_base32(u) COLLATE "C") AS by_text
	  FROM (SELECT DISTINCT u FROM samples) d) s
WHERE by_uuid <> by_text;

-- exchanging keys with a ULID-keyed system: our keys written as ULID text come
-- back exactly and are valid uuid7 values; a ULID made by a ULID library has
-- random bits where a UUIDv7 has its version and variant, so it converts to a
-- uuid but is not a uuid7 (and has no UUIDv7 time)
CREATE TEMP TABLE ulid_orders (ulid text PRIMARY KEY, total numeric);
INSERT INTO ulid_orders VALUES (uuidv7_to_base32('017f22e2-79b0-7cc3-98c4-dc0c0c07398f'), 10),
	('01JGFJJZ00FZZVZZZZZZZZZZZZ', 20), ('01ARZ3NDEKTSV4RRFFQ69G5FAV', 30);
SELECT ulid, uuidv7_from_base32(ulid) AS id, uuidv7_timestamp(uuidv7_from_base32(ulid)) AS created_at, total
FROM ulid_orders ORDER BY ulid;
SELECT uuidv7_from_base32(ulid)::uuid7 FROM ulid_orders WHERE ulid = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
CREATE TEMP TABLE orders (id uuid7 PRIMARY KEY, total numeric);
INSERT INTO orders SELECT uuidv7_from_base32(ulid), total FROM ulid_orders
WHERE uuidv7_timestamp(uuidv7_from_base32(ulid)) IS NOT NULL;
SELECT uuidv7_to_base32(id) AS ulid, total FROM orders ORDER BY id;

-- a short suffix for people: the last two groups, 40 random bits of a UUIDv7
SELECT right(uuidv7_to_base32_grouped('017f22e2-79b0-7cc3-98c4-dc0c0c07398f'), 9) AS suffix;

-- the same under standard_conforming_strings = off, which reads a backslash
-- in an ordinary string literal as an escape (before: the SQL edition's
-- grouped form was '------'; PostgreSQL 19 has the setting on always)
SELECT EXISTS (SELECT FROM pg_settings WHERE name = 'escape_string_warning') AS nonstandard_strings \gset
\if :nonstandard_strings
SET standard_conforming_strings = off;
SET escape_string_warning = off;
\endif
SELECT uuidv7_to_base32_grouped('01910b3c-8000-7000-8000-000000000000') AS grouped;
RESET ALL;
