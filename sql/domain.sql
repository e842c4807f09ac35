-- the uuid7 domain: accepts version 7 only, says why it refuses the rest

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

SELECT '017f22e2-79b0-7cc3-98c4-dc0c0c07398f'::uuid7 AS rfc_vector,
	'00000000-0000-7000-8000-000000000000'::uuid7 AS smallest,
	'ffffffff-ffff-7fff-bfff-ffffffffffff'::uuid7 AS largest,
	NULL::uuid7 IS NULL AS null_passes;

-- the wall of refusals, each with SQLSTATE 23514 (check_violation)
SELECT '017f22e2-79b0-4cc3-98c4-dc0c0c07398f'::uuid7;	-- version 4
\echo :LAST_ERROR_SQLSTATE
SELECT 'c232ab00-9414-11ec-b3c8-9f6bdeced846'::uuid7;	-- version 1
SELECT '00000000-0000-0000-0000-000000000000'::uuid7;	-- nil
SELECT 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid7;	-- max
SELECT '017f22e2-79b0-7cc3-08c4-dc0c0c07398f'::uuid7;	-- version 7 nibble, NCS variant
SELECT '017f22e2-79b0-7cc3-c8c4-dc0c0c07398f'::uuid7;	-- version 7 nibble, Microsoft variant
\echo :LAST_ERROR_SQLSTATE
\set VERBOSITY terse
SELECT gen_random_uuid()::uuid7;	-- terse: the detail holds the random value
\set VERBOSITY default
\echo :LAST_ERROR_SQLSTATE

-- a table keyed by it
CREATE TABLE orders (
	id uuid7 PRIMARY KEY DEFAULT uuidv7_generate(),
	note text
);
INSERT INTO orders (note) SELECT 'generated' FROM generate_series(1, 1000);
INSERT INTO orders VALUES (uuidv7_generate_at('2020-05-05 05:05:05+00'), 'backfilled');
INSERT INTO orders VALUES ('017f22e2-79b0-4cc3-98c4-dc0c0c07398f', 'version 4');
\echo :LAST_ERROR_SQLSTATE
\set VERBOSITY terse
UPDATE orders SET id = gen_random_uuid() WHERE note = 'backfilled';
\set VERBOSITY default
\echo :LAST_ERROR_SQLSTATE
SELECT note, count(*) FROM orders GROUP BY note ORDER BY note;

-- the key uses uuid's own btree operator class; drivers see a uuid
SELECT opc.opcname, format_type(t.typbasetype, NULL) AS base_type
FROM pg_index i
	JOIN pg_opclass opc ON opc.oid = i.indclass[0]
	JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
	JOIN pg_type t ON t.oid = a.atttypid
WHERE i.indrelid = 'orders'::regclass;

-- a column of the domain compares with plain uuids and text literals
SELECT count(*) AS found FROM orders
WHERE id >= uuidv7_min('2020-05-05 05:05:05+00') AND id <= uuidv7_max('2020-05-05 05:05:05+00');

-- ALTER TABLE to the domain checks existing rows
CREATE TABLE legacy (id uuid);
INSERT INTO legacy VALUES (uuidv7_generate()), ('017f22e2-79b0-4cc3-98c4-dc0c0c07398f');
ALTER TABLE legacy ALTER COLUMN id TYPE uuid7;
DELETE FROM legacy WHERE uuidv7_timestamp(id) IS NULL;
ALTER TABLE legacy ALTER COLUMN id TYPE uuid7;
SELECT format_type(atttypid, atttypmod) FROM pg_attribute
WHERE attrelid = 'legacy'::regclass AND attname = 'id';

DROP TABLE orders, legacy;

-- the extension's functions return uuid and uuid[], never the domain or its
-- array type, which drivers do not know; an aggregate over a uuid7 column
-- has the domain's array type unless cast
SELECT count(*) AS functions_returning_the_domain
FROM pg_depend d JOIN pg_proc p ON p.oid = d.objid
WHERE d.classid = 'pg_proc'::regclass AND d.deptype = 'e'
	AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'uuidv7')
	AND (p.prorettype IN ('uuid7'::regtype, 'uuid7[]'::regtype)
		 OR p.proallargtypes && ARRAY['uuid7'::regtype::oid, 'uuid7[]'::regtype::oid]);
CREATE TABLE keyed (id uuid7 DEFAULT uuidv7_generate());
INSERT INTO keyed DEFAULT VALUES;
SELECT pg_typeof(array_agg(id)) AS uncast, pg_typeof(array_agg(id::uuid)) AS cast FROM keyed;
DROP TABLE keyed;
