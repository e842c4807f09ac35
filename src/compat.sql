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
--#if c
			AS 'MODULE_PATHNAME', 'uuidv7_generate'
			LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
--#else
			LANGUAGE sql VOLATILE STRICT PARALLEL SAFE
			AS 'SELECT @extschema@.uuidv7_generate()';
--#endif
			COMMENT ON FUNCTION @extschema@.uuidv7() IS
			'generate a UUID version 7 (compatibility version of the function of PostgreSQL 18)';
		WHEN 'uuidv7(pg_catalog.interval)' THEN
			CREATE FUNCTION @extschema@.uuidv7(shift pg_catalog.interval) RETURNS pg_catalog.uuid
--#if c
			AS 'MODULE_PATHNAME', 'uuidv7_generate_interval'
			LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
--#else
			LANGUAGE sql VOLATILE STRICT PARALLEL SAFE
			AS 'SELECT @extschema@.uuidv7_generate($1)';
--#endif
			COMMENT ON FUNCTION @extschema@.uuidv7(pg_catalog.interval) IS
			'generate a UUID version 7 for now plus an interval (compatibility version of the function of PostgreSQL 18)';
		WHEN 'uuid_extract_timestamp(pg_catalog.uuid)' THEN
			CREATE FUNCTION @extschema@.uuid_extract_timestamp(pg_catalog.uuid) RETURNS pg_catalog.timestamptz
--#if c
			AS 'MODULE_PATHNAME', 'uuidv7_compat_extract_timestamp'
			LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
--#else
			-- version 1 counts 100 ns ticks from 1582-10-15, 12219292800 s
			-- before the Unix epoch, in time_hi, time_mid, time_low order
			LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
			AS $function$
			SELECT CASE pg_catalog.substr($1::pg_catalog.text, 15, 1)
				WHEN '7' THEN @extschema@.uuidv7_timestamp($1)
				WHEN '1' THEN @extschema@.uuidv7_unix_us_to_timestamptz(
					('x' OPERATOR(pg_catalog.||) pg_catalog.lpad(pg_catalog.substr($1::pg_catalog.text, 16, 3)
						OPERATOR(pg_catalog.||) pg_catalog.substr($1::pg_catalog.text, 10, 4)
						OPERATOR(pg_catalog.||) pg_catalog.substr($1::pg_catalog.text, 1, 8), 16, '0'))::pg_catalog.bit(64)::pg_catalog.int8
					OPERATOR(pg_catalog./) 10 OPERATOR(pg_catalog.-) 12219292800000000)
				END
			WHERE pg_catalog.substr($1::pg_catalog.text, 20, 1) OPERATOR(pg_catalog.=) ANY ('{8,9,a,b}'::pg_catalog.text[])
			$function$;
--#endif
--#if sql
			IF (SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname OPERATOR(pg_catalog.=) CURRENT_USER) THEN
				ALTER FUNCTION @extschema@.uuid_extract_timestamp(pg_catalog.uuid) LEAKPROOF;
			END IF;
--#endif
			COMMENT ON FUNCTION @extschema@.uuid_extract_timestamp(pg_catalog.uuid) IS
			'extract the time of a UUID version 1 or 7 (compatibility version of the function of PostgreSQL 18)';
		WHEN 'uuid_extract_version(pg_catalog.uuid)' THEN
			CREATE FUNCTION @extschema@.uuid_extract_version(pg_catalog.uuid) RETURNS pg_catalog.int2
--#if c
			AS 'MODULE_PATHNAME', 'uuidv7_compat_extract_version'
			LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
--#else
			LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
			AS $function$
			SELECT ('x' OPERATOR(pg_catalog.||) pg_catalog.substr($1::pg_catalog.text, 15, 1))::pg_catalog.bit(4)::pg_catalog.int4::pg_catalog.int2
			WHERE pg_catalog.substr($1::pg_catalog.text, 20, 1) OPERATOR(pg_catalog.=) ANY ('{8,9,a,b}'::pg_catalog.text[])
			$function$;
			IF (SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname OPERATOR(pg_catalog.=) CURRENT_USER) THEN
				ALTER FUNCTION @extschema@.uuid_extract_version(pg_catalog.uuid) LEAKPROOF;
			END IF;
--#endif
			COMMENT ON FUNCTION @extschema@.uuid_extract_version(pg_catalog.uuid) IS
			'extract the version of an RFC 9562 UUID (compatibility version of the function of PostgreSQL 17)';
		END CASE;
	END LOOP;
END
$compat$;
