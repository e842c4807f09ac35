-- upgrade: installing the oldest release of each extension and walking
-- every upgrade script, one release at a time, gives exactly the objects of
-- a fresh install of the current version

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
SET client_min_messages = warning;
SET TimeZone = 'UTC';
SET DateStyle = 'ISO';

-- each member object of an extension with what defines it and its comment
CREATE FUNCTION pg_temp.extension_objects(ext name)
RETURNS TABLE (object text, definition text, comment text)
LANGUAGE sql AS $$
	SELECT pg_describe_object(d.classid, d.objid, 0),
		CASE WHEN d.classid = 'pg_proc'::regclass THEN
			(SELECT concat_ws(' | ', pg_get_function_result(p.oid), pg_get_function_arguments(p.oid),
							  p.provolatile, p.proisstrict, p.proparallel, p.proleakproof, p.prosecdef,
							  p.proconfig::text, p.prosrc, p.probin, p.prosupport::regproc)
			 FROM pg_proc p WHERE p.oid = d.objid)
		WHEN d.classid = 'pg_type'::regclass THEN
			(SELECT concat_ws(' | ', format_type(t.typbasetype, t.typtypmod), t.typnotnull,
							  (SELECT string_agg(c.conname || ' ' || pg_get_constraintdef(c.oid), ', ' ORDER BY c.conname)
							   FROM pg_constraint c WHERE c.contypid = t.oid))
			 FROM pg_type t WHERE t.oid = d.objid)
		WHEN d.classid = 'pg_operator'::regclass THEN
			(SELECT concat_ws(' | ', o.oprcode::regprocedure, o.oprcom::regoperator, o.oprnegate::regoperator,
							  o.oprrest, o.oprjoin)
			 FROM pg_operator o WHERE o.oid = d.objid)
		END,
		obj_description(d.objid, d.classid::regclass::name)
	FROM pg_depend d
	WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
		AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = ext)
$$;
-- core's names (created on some servers only), the domain's array type and the
-- row and array types of the extension's tables and views
-- (members from PostgreSQL 17 on) are compared but not counted
CREATE FUNCTION pg_temp.counted(object text) RETURNS boolean LANGUAGE sql AS $$
	SELECT object !~ '^function (uuidv7|uuid_extract_timestamp|uuid_extract_version)\(' AND object <> 'type uuid7[]'
		AND object !~ '^type uuidv7_(partition_config|maintenance_history|partition_policies|maintenance_runs|progress|partition_metrics)(\[\])?$'
$$;

CREATE EXTENSION uuidv7_time_ops;
SELECT extname, extversion AS fresh_version FROM pg_extension WHERE extname LIKE 'uuidv7%' ORDER BY 1;
CREATE TEMP TABLE fresh AS
SELECT ext, o.* FROM unnest(ARRAY['uuidv7', 'uuidv7_time_ops']::name[]) ext, pg_temp.extension_objects(ext) o;

-- every released version can be reached from the oldest
SELECT 'uuidv7' AS extension, source, target, path FROM pg_extension_update_paths('uuidv7')
WHERE source = '0.1.0' AND path IS NOT NULL
UNION ALL
SELECT 'uuidv7_time_ops', source, target, path FROM pg_extension_update_paths('uuidv7_time_ops')
WHERE source = '0.2.0' AND path IS NOT NULL
ORDER BY 1, 3;

-- the oldest releases, then one step at a time (uuidv7_time_ops 0.2.0 came
-- with uuidv7 0.2.0)
DROP EXTENSION uuidv7_time_ops;
DROP EXTENSION uuidv7 CASCADE;
CREATE EXTENSION uuidv7 VERSION '0.1.0';
ALTER EXTENSION uuidv7 UPDATE TO '0.2.0';
CREATE EXTENSION uuidv7_time_ops VERSION '0.2.0';

-- uuidv7_time_ops 0.2.0 under this library, not yet updated, answers as
-- 0.2.0 did (no time equals a uuid; its <= is < and its > is >=), through
-- an index as without one
CREATE TABLE upgrade_keys (id uuid PRIMARY KEY);
INSERT INTO upgrade_keys
SELECT uuidv7_generate_at('2025-01-01 00:00+00'::timestamptz + g * interval '1 minute') FROM generate_series(0, 2999) g
UNION ALL SELECT uuidv7_min('2025-01-02 00:00+00');
ANALYZE upgrade_keys;
CREATE TEMP TABLE answers (version text, cmp int, le bool, gt bool, ts_lt bool, ts_ge bool,
						   le_rows_by_index bigint, le_rows_by_seqscan bigint);
CREATE FUNCTION pg_temp.answers(version text) RETURNS SETOF answers LANGUAGE plpgsql AS $$
DECLARE
	t timestamptz := '2025-01-02 00:00+00';
	by_index bigint;
	by_seqscan bigint;
BEGIN
	SET LOCAL enable_seqscan = off;
	SET LOCAL enable_bitmapscan = off;
	SELECT count(*) INTO by_index FROM upgrade_keys WHERE id <= t;
	SET LOCAL enable_seqscan = on;
	SET LOCAL enable_indexscan = off;
	SET LOCAL enable_indexonlyscan = off;
	SELECT count(*) INTO by_seqscan FROM upgrade_keys WHERE id <= t;
	RETURN QUERY SELECT version, uuidv7_cmp_timestamptz(uuidv7_min(t), t), uuidv7_min(t) <= t, uuidv7_min(t) > t,
		t < uuidv7_min(t), t >= uuidv7_min(t), by_index, by_seqscan;
END
$$;
INSERT INTO answers SELECT * FROM pg_temp.answers('0.2.0');

ALTER EXTENSION uuidv7 UPDATE TO '0.3.0';
ALTER EXTENSION uuidv7_time_ops UPDATE TO '0.3.0';

-- updated: the time on a whole millisecond equals its first UUIDv7; the
-- index built before needs no rebuild (amcheck finds its order intact and
-- every row in it), and answers as a sequential scan does
INSERT INTO answers SELECT * FROM pg_temp.answers('0.3.0');
SELECT * FROM answers ORDER BY version;
CREATE EXTENSION amcheck;
SELECT bt_index_check('upgrade_keys_pkey', true);
DROP EXTENSION amcheck;
DROP TABLE upgrade_keys;
SELECT extname, extversion AS upgraded_version FROM pg_extension WHERE extname LIKE 'uuidv7%' ORDER BY 1;
CREATE TEMP TABLE upgraded AS
SELECT ext, o.* FROM unnest(ARRAY['uuidv7', 'uuidv7_time_ops']::name[]) ext, pg_temp.extension_objects(ext) o;

-- the same objects: the time comparisons that uuidv7_time_ops 0.2.0 made in
-- the shared schema moved into its own schema uuidv7_time_ops, and uuidv7's
-- own in the shared schema, as a fresh install has them
SELECT 'only in fresh install' AS difference, * FROM (TABLE fresh EXCEPT TABLE upgraded) f
UNION ALL
SELECT 'only after upgrade', * FROM (TABLE upgraded EXCEPT TABLE fresh) u;
SELECT ext, count(*) AS objects_compared,
	count(*) FILTER (WHERE object LIKE 'function %' AND (
		SELECT proleakproof FROM pg_proc WHERE oid = to_regprocedure(substr(object, length('function ') + 1)))) AS leakproof
FROM fresh WHERE pg_temp.counted(object) GROUP BY ext ORDER BY ext;

-- the upgraded extensions work
SELECT uuidv7_timestamp(lower_bound) AS first_lower
FROM uuidv7_partition_bounds('2025-01-01', '2025-02-01', '1 month', 'UTC');
SELECT count(*) FILTER (WHERE NOT present) AS time_ops_members_missing FROM uuidv7_time_ops_status();
SELECT uuidv7_min('2025-01-01') >= '2025-01-01'::timestamptz AS time_ops_work;
-- uuidv7_time_ops is optional: dropped, the time comparisons stay
DROP EXTENSION uuidv7_time_ops;
SELECT uuidv7_min('2025-01-01') >= '2025-01-01'::timestamptz AS compares_without_time_ops;

-- uuidv7 updated while uuidv7_time_ops 0.2.0 stays as it was, a view using
-- its operators: the view keeps working; dropped (the view first, which
-- depends on it), the time comparisons stay, and uuidv7 is as a fresh one
DROP EXTENSION uuidv7;
CREATE EXTENSION uuidv7 VERSION '0.2.0';
CREATE EXTENSION uuidv7_time_ops VERSION '0.2.0';
CREATE TABLE kept_keys (id uuid PRIMARY KEY);
INSERT INTO kept_keys SELECT uuidv7_generate_at('2024-12-31 23:00+00'::timestamptz + g * interval '1 minute') FROM generate_series(0, 119) g;
CREATE VIEW since_2025 AS SELECT id FROM kept_keys WHERE id >= '2025-01-01 00:00+00'::timestamptz;
ALTER EXTENSION uuidv7 UPDATE TO '0.3.0';
SELECT (SELECT count(*) FROM since_2025) AS view_rows, (SELECT extversion FROM pg_extension WHERE extname = 'uuidv7_time_ops') AS time_ops;
DROP VIEW since_2025;
DROP EXTENSION uuidv7_time_ops;
SELECT count(*) AS compares_after_time_ops_dropped FROM kept_keys WHERE id >= '2025-01-01 00:00+00'::timestamptz;
SELECT 'only in fresh install' AS difference, object FROM (SELECT object, definition, comment FROM fresh WHERE ext = 'uuidv7'
	EXCEPT SELECT * FROM pg_temp.extension_objects('uuidv7')) f
UNION ALL
SELECT 'only after upgrade', object FROM (SELECT * FROM pg_temp.extension_objects('uuidv7')
	EXCEPT SELECT object, definition, comment FROM fresh WHERE ext = 'uuidv7') u;

-- from the oldest release, without uuidv7_time_ops, straight to this one
DROP EXTENSION uuidv7;
CREATE EXTENSION uuidv7 VERSION '0.1.0';
ALTER EXTENSION uuidv7 UPDATE TO '0.3.0';
SELECT count(*) AS compares_from_the_oldest FROM kept_keys WHERE id >= '2025-01-01 00:00+00'::timestamptz;
SELECT 'only in fresh install' AS difference, object FROM (SELECT object, definition, comment FROM fresh WHERE ext = 'uuidv7'
	EXCEPT SELECT * FROM pg_temp.extension_objects('uuidv7')) f
UNION ALL
SELECT 'only after upgrade', object FROM (SELECT * FROM pg_temp.extension_objects('uuidv7')
	EXCEPT SELECT object, definition, comment FROM fresh WHERE ext = 'uuidv7') u;
DROP TABLE kept_keys;
