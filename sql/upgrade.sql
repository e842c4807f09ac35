-- upgrade: installing the oldest release and walking every upgrade script
-- gives exactly the objects of a fresh install of the current version
SET client_min_messages = warning;
SET TimeZone = 'UTC';
SET DateStyle = 'ISO';

CREATE FUNCTION pg_temp.extension_objects()
RETURNS TABLE (object text, definition text, comment text)
LANGUAGE sql AS $$
	SELECT pg_describe_object(d.classid, d.objid, 0),
		CASE WHEN d.classid = 'pg_proc'::regclass THEN
			(SELECT concat_ws(' | ', pg_get_function_result(p.oid), pg_get_function_arguments(p.oid),
							  p.provolatile, p.proisstrict, p.proparallel, p.prosecdef, p.proconfig::text,
							  p.prosrc, p.probin)
			 FROM pg_proc p WHERE p.oid = d.objid)
		WHEN d.classid = 'pg_type'::regclass THEN
			(SELECT concat_ws(' | ', format_type(t.typbasetype, t.typtypmod), t.typnotnull,
							  (SELECT string_agg(c.conname || ' ' || pg_get_constraintdef(c.oid), ', ' ORDER BY c.conname)
							   FROM pg_constraint c WHERE c.contypid = t.oid))
			 FROM pg_type t WHERE t.oid = d.objid)
		END,
		obj_description(d.objid, d.classid::regclass::name)
	FROM pg_depend d
	WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
		AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'uuidv7')
$$;
-- core's names (created on some servers only) and the domain's array type
-- (a member from PostgreSQL 17 on) are compared but not counted
CREATE FUNCTION pg_temp.counted(object text) RETURNS boolean LANGUAGE sql AS $$
	SELECT object !~ '^function (uuidv7|uuid_extract_timestamp|uuid_extract_version)\(' AND object <> 'type uuid7[]'
$$;

SELECT extversion AS fresh_version FROM pg_extension WHERE extname = 'uuidv7';
CREATE TEMP TABLE fresh AS SELECT * FROM pg_temp.extension_objects();

-- every released version can be reached from the oldest
SELECT source, target, path FROM pg_extension_update_paths('uuidv7')
WHERE source = '0.1.0' ORDER BY target;

DROP EXTENSION uuidv7 CASCADE;
CREATE EXTENSION uuidv7 VERSION '0.1.0';
ALTER EXTENSION uuidv7 UPDATE TO '0.2.0';
SELECT extversion AS upgraded_version FROM pg_extension WHERE extname = 'uuidv7';
CREATE TEMP TABLE upgraded AS SELECT * FROM pg_temp.extension_objects();

SELECT 'only in fresh install' AS difference, * FROM (TABLE fresh EXCEPT TABLE upgraded) f
UNION ALL
SELECT 'only after upgrade', * FROM (TABLE upgraded EXCEPT TABLE fresh) u;
SELECT count(*) AS objects_compared FROM fresh WHERE pg_temp.counted(object);

-- the upgraded extension works
SELECT uuidv7_timestamp(lower_bound) AS first_lower
FROM uuidv7_partition_bounds('2025-01-01', '2025-02-01', '1 month', 'UTC');
