-- compatibility with core: what the extension creates, and core's semantics
-- for the functions it provides on servers that lack them.
-- The results below are those of PostgreSQL 18, and of every server from 13
-- to 16 where the extension provides the functions (expected/compat.out).
-- PostgreSQL 17's own uuid_extract_timestamp() reads only version 1 and
-- returns NULL for version 7 (expected/compat_1.out): on 17, use
-- uuidv7_timestamp() for the time of a UUIDv7.

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

-- each of core's names is served by core or by the extension, never both
SELECT sig,
	(pg_catalog.to_regprocedure('pg_catalog.' || sig) IS NOT NULL)
	<> (pg_catalog.to_regprocedure('public.' || sig) IS NOT NULL) AS exactly_one_provider
FROM unnest(ARRAY['uuidv7()', 'uuidv7(interval)', 'uuid_extract_timestamp(uuid)',
				  'uuid_extract_version(uuid)']) AS sig;

-- what the extension owns: every function with its volatility, strictness
-- and parallel safety, and a comment on every object (core's names left out,
-- as they exist on some servers only; so are the domain's array type and
-- the row types of the tables and views, which PostgreSQL 17 and later
-- record as members and earlier versions do not)
SELECT pg_describe_object(classid, objid, 0) AS object,
	p.provolatile AS volatility, p.proisstrict AS strict, p.proparallel AS parallel,
	obj_description(objid, classid::regclass::name) IS NOT NULL AS commented
FROM pg_depend d LEFT JOIN pg_proc p ON d.classid = 'pg_proc'::regclass AND p.oid = d.objid
WHERE d.refclassid = 'pg_extension'::regclass
	AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'uuidv7')
	AND d.deptype = 'e'
	AND coalesce(p.proname NOT IN ('uuidv7', 'uuid_extract_timestamp', 'uuid_extract_version'), true)
	-- (and the C edition's planner support, which the SQL edition has not:
	-- time_predicates shows it)
	AND coalesce(p.prorettype <> 'internal'::regtype, true)
	-- (the SQL edition's own helpers, listed in its test)
	AND coalesce(obj_description(objid, classid::regclass::name) NOT LIKE '%(SQL edition)', true)
	AND NOT EXISTS (SELECT FROM pg_type t
					WHERE d.classid = 'pg_type'::regclass AND t.oid = d.objid
						AND (t.typcategory = 'A' OR t.typrelid <> 0))
ORDER BY pg_describe_object(classid, objid, 0) COLLATE "C";
-- the extension's schema holds its API alone (as \df shows it): its helpers
-- are in uuidv7_internal, which every role may use, as the functions that
-- call them run as their caller
SELECT n.nspname AS schema, count(*) AS functions
FROM pg_depend d JOIN pg_proc p ON p.oid = d.objid JOIN pg_namespace n ON n.oid = p.pronamespace
WHERE d.classid = 'pg_proc'::regclass AND d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
	AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'uuidv7')
	AND p.proname IN ('uuidv7_lock_for_upkeep', 'uuidv7_copy_waiting_rows', 'uuidv7_attach_period',
					  'uuidv7_attach_period_decodable', 'uuidv7_forbid_transaction_block', 'uuidv7_adopt_check',
					  'uuidv7_adopt_span', 'uuidv7_adopt_swap', 'uuidv7_partitioned_parent')
GROUP BY 1 ORDER BY 1;
SELECT has_schema_privilege('public', 'uuidv7_internal', 'USAGE') AS every_role_may_use_it,
	'uuidv7_internal' = ANY (current_schemas(true)) AS in_the_search_path;

-- who reads the times below: PostgreSQL 17's core, whose
-- uuid_extract_timestamp() reads version 1 only (expected/compat_1.out), or
-- the extension or 18's core, which read versions 1 and 7
-- (expected/compat.out); so that the NULLs of 17's output are never taken
-- for a right answer of the extension's on another server
SELECT pg_catalog.current_setting('server_version_num')::int / 10000 = 17 AS core_reads_version_1_only;

-- uuidv7() and uuidv7(interval) resolve without ambiguity
SELECT uuid_extract_version(uuidv7()) AS v7,
	uuid_extract_version(uuidv7('-1 hour')) AS v7_shifted,
	uuid_extract_timestamp(uuidv7('-1 hour')) < now() - interval '59 minutes' AS shifted_back;

-- uuid_extract_timestamp: RFC 9562 test vectors of versions 1 and 7
SELECT uuid_extract_timestamp('c232ab00-9414-11ec-b3c8-9f6bdeced846') AS v1,
	uuid_extract_timestamp('017f22e2-79b0-7cc3-98c4-dc0c0c07398f') AS v7,
	uuid_extract_timestamp('017f22e2-79b0-4cc3-98c4-dc0c0c07398f') AS v4,
	uuid_extract_timestamp('017f22e2-79b0-7cc3-c8c4-dc0c0c07398f') AS microsoft_variant,
	uuid_extract_timestamp(NULL) AS null_in;

-- uuid_extract_version: any version of the RFC variant, NULL for others
SELECT u, uuid_extract_version(u::uuid)
FROM (VALUES ('c232ab00-9414-11ec-b3c8-9f6bdeced846'),
			 ('017f22e2-79b0-4cc3-98c4-dc0c0c07398f'),
			 ('017f22e2-79b0-7cc3-98c4-dc0c0c07398f'),
			 ('017f22e2-79b0-fcc3-98c4-dc0c0c07398f'),
			 ('00000000-0000-0000-0000-000000000000'),
			 ('ffffffff-ffff-ffff-ffff-ffffffffffff'),
			 ('017f22e2-79b0-7cc3-08c4-dc0c0c07398f')) AS v(u);

-- over UUIDs of every version and variant: a time exactly for the RFC
-- variant's versions 1 and 7, a version exactly for the RFC variant
CREATE TEMP TABLE uuids AS
SELECT g % 16 AS version, (g / 16) % 4 AS variant,
	encode(set_byte(set_byte(b, 6, (get_byte(b, 6) & 15) | ((g % 16) << 4)),
					8, (get_byte(b, 8) & 63) | (((g / 16) % 4) << 6)), 'hex')::uuid AS u
FROM generate_series(0, 2047) g, LATERAL (SELECT decode(md5(g::text), 'hex') AS b) r;
SELECT version, count(*) FILTER (WHERE uuid_extract_timestamp(u) IS NOT NULL) AS with_time,
	count(*) FILTER (WHERE uuid_extract_version(u) = version) AS with_version,
	count(*) AS uuids
FROM uuids WHERE variant = 2 AND version IN (1, 4, 7, 8) GROUP BY version ORDER BY version;
SELECT count(*) FILTER (WHERE uuid_extract_timestamp(u) IS NOT NULL) AS other_variants_with_time,
	count(*) FILTER (WHERE uuid_extract_version(u) IS NOT NULL) AS other_variants_with_version
FROM uuids WHERE variant <> 2;
