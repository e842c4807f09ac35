-- compatibility with PostgreSQL 17 and 18
--
-- On a server that lacks one of core's UUID functions, create it with core's
-- semantics (those of PostgreSQL 18), so that a schema written for 18 runs
-- unchanged (LEAKPROOF as core's extraction functions are).  On a server
-- that has it, create nothing by that name: ours would be shadowed by
-- pg_catalog's or make calls ambiguous.  A function of that signature the
-- user already has in our schema is left alone, with a WARNING (an extension
-- script's NOTICEs never reach the client).

DO $compat$
DECLARE
	sig text;
BEGIN
	FOREACH sig IN ARRAY ARRAY['uuidv7()', 'uuidv7(pg_catalog.interval)',
							   'uuid_extract_timestamp(pg_catalog.uuid)',
							   'uuid_extract_version(pg_catalog.uuid)']
	LOOP
		CONTINUE WHEN pg_catalog.to_regprocedure('pg_catalog.' OPERATOR(pg_catalog.||) sig) IS NOT NULL;
		IF pg_catalog.to_regprocedure('@extschema@.' OPERATOR(pg_catalog.||) sig) IS NOT NULL THEN
			RAISE WARNING 'function %.% already exists, skipping its compatibility version',
				'@extschema@', sig;
			CONTINUE;
		END IF;

		CASE sig
		WHEN 'uuidv7()' THEN
			CREATE FUNCTION @extschema@.uuidv7() RETURNS pg_catalog.uuid
			AS 'MODULE_PATHNAME', 'uuidv7_generate'
			LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
			COMMENT ON FUNCTION @extschema@.uuidv7() IS
			'generate a UUID version 7 (compatibility version of the function of PostgreSQL 18)';
		WHEN 'uuidv7(pg_catalog.interval)' THEN
			CREATE FUNCTION @extschema@.uuidv7(shift pg_catalog.interval) RETURNS pg_catalog.uuid
			AS 'MODULE_PATHNAME', 'uuidv7_generate_interval'
			LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
			COMMENT ON FUNCTION @extschema@.uuidv7(pg_catalog.interval) IS
			'generate a UUID version 7 for now plus an interval (compatibility version of the function of PostgreSQL 18)';
		WHEN 'uuid_extract_timestamp(pg_catalog.uuid)' THEN
			CREATE FUNCTION @extschema@.uuid_extract_timestamp(pg_catalog.uuid) RETURNS pg_catalog.timestamptz
			AS 'MODULE_PATHNAME', 'uuidv7_compat_extract_timestamp'
			LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
			COMMENT ON FUNCTION @extschema@.uuid_extract_timestamp(pg_catalog.uuid) IS
			'extract the time of a UUID version 1 or 7 (compatibility version of the function of PostgreSQL 18)';
		WHEN 'uuid_extract_version(pg_catalog.uuid)' THEN
			CREATE FUNCTION @extschema@.uuid_extract_version(pg_catalog.uuid) RETURNS pg_catalog.int2
			AS 'MODULE_PATHNAME', 'uuidv7_compat_extract_version'
			LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
			COMMENT ON FUNCTION @extschema@.uuid_extract_version(pg_catalog.uuid) IS
			'extract the version of an RFC 9562 UUID (compatibility version of the function of PostgreSQL 17)';
		END CASE;
	END LOOP;
END
$compat$;
