-- extraction
--
-- LEAKPROOF, as core's uuid_extract_timestamp(): they raise no error for
-- any input (a UUID that is not version 7 gives NULL), so the planner may
-- use an index on them under row-level security.  (Only a superuser may
-- declare it: the SQL edition does where one installs it.)

CREATE FUNCTION uuidv7_timestamp(id pg_catalog.uuid) RETURNS pg_catalog.timestamptz
--#if c
AS 'MODULE_PATHNAME', 'uuidv7_timestamp'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
--#else
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $function$
SELECT @extschema@.uuidv7_unix_us_to_timestamptz(@extschema@.uuidv7_unix_ms($1) OPERATOR(pg_catalog.*) 1000)
$function$;
--#endif

COMMENT ON FUNCTION uuidv7_timestamp(pg_catalog.uuid) IS
'time embedded in a UUID version 7, to the millisecond; NULL for any other UUID';

CREATE FUNCTION uuidv7_unix_ms(id pg_catalog.uuid) RETURNS pg_catalog.int8
--#if c
AS 'MODULE_PATHNAME', 'uuidv7_unix_ms'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
--#else
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $function$
SELECT CASE WHEN pg_catalog.substr($1::pg_catalog.text, 15, 1) OPERATOR(pg_catalog.=) '7'
			AND pg_catalog.substr($1::pg_catalog.text, 20, 1) OPERATOR(pg_catalog.=) ANY ('{8,9,a,b}'::pg_catalog.text[])
	   THEN ('x' OPERATOR(pg_catalog.||) pg_catalog.substr($1::pg_catalog.text, 1, 8)
			 OPERATOR(pg_catalog.||) pg_catalog.substr($1::pg_catalog.text, 10, 4))::pg_catalog.bit(48)::pg_catalog.int8
	   END
$function$;
--#endif

COMMENT ON FUNCTION uuidv7_unix_ms(pg_catalog.uuid) IS
'milliseconds since the Unix epoch embedded in a UUID version 7; NULL for any other UUID';
--#if sql

DO $leakproof$
BEGIN
	IF (SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname OPERATOR(pg_catalog.=) CURRENT_USER) THEN
		ALTER FUNCTION @extschema@.uuidv7_timestamp(pg_catalog.uuid) LEAKPROOF;
		ALTER FUNCTION @extschema@.uuidv7_unix_ms(pg_catalog.uuid) LEAKPROOF;
	END IF;
END
$leakproof$;
--#endif
