-- progress: how far a long call of upkeep is

-- The step of a call of upkeep on a table (the call's name kept from the
-- transaction's first step), for uuidv7_progress.  The SQL edition has no
-- shared memory to write it in: there its calls tell their steps in
-- NOTICEs alone.
CREATE FUNCTION uuidv7_internal.uuidv7_progress_step(command pg_catalog.text, parent pg_catalog.regclass,
													 phase pg_catalog.text)
RETURNS void
--#if c
AS 'MODULE_PATHNAME', 'uuidv7_progress_step_sql'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
--#else
LANGUAGE sql VOLATILE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $function$
	SELECT
$function$;
--#endif

COMMENT ON FUNCTION uuidv7_internal.uuidv7_progress_step(pg_catalog.text, pg_catalog.regclass, pg_catalog.text) IS
'write the step of a call of upkeep on a table, for uuidv7_progress';

-- The calls of upkeep in progress, of the roles the caller has the
-- privileges of (every one for pg_read_all_stats members); none in the SQL
-- edition, nor in the C edition before PostgreSQL 17 without uuidv7 in
-- shared_preload_libraries.
CREATE FUNCTION uuidv7_internal.uuidv7_progress(OUT pid pg_catalog.int4, OUT datid pg_catalog.oid,
												OUT relid pg_catalog.oid, OUT userid pg_catalog.oid,
												OUT command pg_catalog.text, OUT phase pg_catalog.text,
												OUT blocks_done pg_catalog.int8, OUT blocks_total pg_catalog.int8,
												OUT rows_moved pg_catalog.int8, OUT started_at pg_catalog.timestamptz,
												OUT statement_start pg_catalog.timestamptz)
RETURNS SETOF record
--#if c
AS 'MODULE_PATHNAME', 'uuidv7_progress'
LANGUAGE C VOLATILE PARALLEL SAFE;
--#else
LANGUAGE sql VOLATILE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $function$
	SELECT NULL::int4, NULL::oid, NULL::oid, NULL::oid, NULL::text, NULL::text, NULL::int8, NULL::int8,
		NULL::int8, NULL::timestamptz, NULL::timestamptz
	WHERE false
$function$;
--#endif

COMMENT ON FUNCTION uuidv7_internal.uuidv7_progress() IS
'the calls of upkeep in progress, of the roles the caller has the privileges of';

-- The view, as core's pg_stat_progress_* views show theirs: a row a
-- backend running upkeep, the table named where it is of this database.  A
-- call is in progress while the statement that made it runs, as
-- pg_stat_activity shows it (active, and since the same instant): its
-- slot, emptied at the end of the transaction, is not shown after.
DO $uuidv7_progress_view$
BEGIN
	CREATE OR REPLACE VIEW @extschema@.uuidv7_progress AS
		SELECT p.pid, p.datid, d.datname, p.relid,
			CASE WHEN p.datid OPERATOR(pg_catalog.=) db.oid THEN p.relid::pg_catalog.regclass::pg_catalog.text END AS parent,
			p.command, p.phase, p.blocks_done, p.blocks_total, p.rows_moved, p.started_at
		FROM uuidv7_internal.uuidv7_progress() p
			CROSS JOIN LATERAL pg_catalog.pg_stat_get_activity(p.pid) a
			LEFT JOIN pg_catalog.pg_database d ON d.oid OPERATOR(pg_catalog.=) p.datid
			LEFT JOIN pg_catalog.pg_database db ON db.datname OPERATOR(pg_catalog.=) pg_catalog.current_database()
		WHERE a.state OPERATOR(pg_catalog.=) 'active' AND a.query_start OPERATOR(pg_catalog.=) p.statement_start;
	COMMENT ON VIEW @extschema@.uuidv7_progress IS
	'the calls of upkeep in progress (moving rows out of a DEFAULT partition, an adoption''s scans, a maintenance run), a row a backend: the call, the table, the step, blocks of the DEFAULT partition read and rows moved';
	GRANT SELECT ON @extschema@.uuidv7_progress TO PUBLIC;
END
$uuidv7_progress_view$;
