-- min(uuid) and max(uuid): created where the server has none (no release up
-- to 19 has them), answered from a btree index on the key (an index-only
-- scan under a LIMIT 1), aggregated in parallel through their combine
-- function, on plain uuid and uuid7 columns alike; one of the user's own is
-- left alone with a WARNING.  The plans are checked by what they contain,
-- since each major prints its InitPlans differently.

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

-- which min(uuid) and max(uuid) exist: the extension's, on every major up to 19
SELECT p.oid::regprocedure AS aggregate, e.extname, a.aggsortop::regoperator AS sort_operator,
	a.aggcombinefn::regproc AS combine, p.proparallel
FROM pg_proc p JOIN pg_aggregate a ON a.aggfnoid = p.oid
	LEFT JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
	LEFT JOIN pg_extension e ON e.oid = d.refobjid
WHERE p.proname IN ('min', 'max') AND p.pronargs = 1 AND p.proargtypes[0] = 'uuid'::regtype
ORDER BY p.proname COLLATE "C";

CREATE FUNCTION pg_temp.plan(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
BEGIN
	RETURN QUERY EXECUTE 'EXPLAIN (COSTS OFF) ' || q;
END
$$;

-- 100,000 keys, one a minute from 2025-01-01, in a uuid7 column and a plain
-- uuid one, each with its primary key
CREATE TABLE keyed7 (id uuid7 PRIMARY KEY, v int);
INSERT INTO keyed7 SELECT uuidv7_generate_at('2025-01-01 00:00+00'::timestamptz + g * interval '1 minute'), g
FROM generate_series(0, 99999) g;
CREATE TABLE keyed (id uuid PRIMARY KEY, v int);
INSERT INTO keyed SELECT * FROM keyed7;
VACUUM ANALYZE keyed7;
VACUUM ANALYZE keyed;

-- the oldest and the newest, from the index
SELECT uuidv7_timestamp(min(id)) AS oldest, uuidv7_timestamp(max(id)) AS newest FROM keyed7;
SELECT min(id) = (SELECT id FROM keyed ORDER BY id LIMIT 1) AS min_is_first,
	max(id) = (SELECT id FROM keyed ORDER BY id DESC LIMIT 1) AS max_is_last FROM keyed;
SELECT t, bool_or(line ~ 'Index Only Scan') AS index_only, bool_or(line ~ 'Limit') AS limit_1,
	NOT bool_or(line ~ 'Seq Scan') AS no_seq_scan
FROM unnest(ARRAY['keyed7', 'keyed']) AS t, pg_temp.plan(format('SELECT min(id), max(id) FROM %I', t)) AS line
GROUP BY t ORDER BY t COLLATE "C";
-- the newest of a time range, from the index too
SELECT uuidv7_timestamp(max(id)) AS newest_in_january FROM keyed7
WHERE id >= uuidv7_min('2025-01-01 00:00+00') AND id < uuidv7_min('2025-02-01 00:00+00');
SELECT bool_or(line ~ 'Index Only Scan Backward') AS backward_index_only FROM pg_temp.plan(
	$$SELECT max(id) FROM keyed7 WHERE id >= uuidv7_min('2025-01-01 00:00+00') AND id < uuidv7_min('2025-02-01 00:00+00')$$) AS line;

-- in parallel, partial aggregates combined: the same answers
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SET enable_indexscan = off;
SET enable_indexonlyscan = off;
SET enable_bitmapscan = off;
SELECT bool_or(line ~ 'Partial Aggregate') AS partial, bool_or(line ~ 'Finalize Aggregate') AS finalize
FROM pg_temp.plan('SELECT min(id), max(id) FROM keyed7 WHERE v % 7 = 3') AS line;
SELECT min(id) = (SELECT id FROM keyed7 WHERE v % 7 = 3 ORDER BY id LIMIT 1) AS parallel_min,
	max(id) = (SELECT id FROM keyed7 WHERE v % 7 = 3 ORDER BY id DESC LIMIT 1) AS parallel_max
FROM keyed7 WHERE v % 7 = 3;
SET max_parallel_workers_per_gather = 0;
SET enable_indexscan = on;
SET enable_indexonlyscan = on;
SET enable_bitmapscan = on;

-- NULLs are skipped; no row, or only NULLs, give NULL
SELECT min(u) AS min_of_some, max(u) AS max_of_some
FROM (VALUES (NULL::uuid), ('01941f29-7c00-7abc-8def-0123456789ab'), ('00000000-0000-0000-0000-000000000000'),
	('ffffffff-ffff-ffff-ffff-ffffffffffff'), (NULL)) AS v(u);
SELECT min(u) IS NULL AS min_of_none, max(u) IS NULL AS max_of_none FROM (VALUES (NULL::uuid)) AS v(u);
SELECT min(id) IS NULL AS min_of_empty FROM keyed WHERE false;
DROP TABLE keyed7, keyed;

-- a min(uuid) of the user's own in the extension's schema is left alone,
-- with a WARNING (an extension script's NOTICEs never reach the client), and
-- max(uuid) is still made
SELECT current_database() AS regress_db \gset
CREATE DATABASE regress_uuidv7_minmax;
\c regress_uuidv7_minmax
CREATE FUNCTION public.first_of(uuid, uuid) RETURNS uuid LANGUAGE sql IMMUTABLE AS 'SELECT $1';
CREATE AGGREGATE public.min(uuid) (SFUNC = public.first_of, STYPE = uuid);
CREATE EXTENSION uuidv7;
SELECT p.proname, d.objid IS NOT NULL AS the_extensions
FROM pg_proc p LEFT JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
WHERE p.proname IN ('min', 'max') AND p.pronargs = 1 AND p.proargtypes[0] = 'uuid'::regtype ORDER BY p.proname COLLATE "C";
\c :"regress_db"
DROP DATABASE regress_uuidv7_minmax;
