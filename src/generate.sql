-- generation
--
-- The SQL edition generates on PostgreSQL 18 and later with core's
-- uuidv7(), which increases within a session as ours does; below 18 from
-- the clock to the microsecond and gen_random_uuid()'s random bits, so that
-- two values of one session in the same microsecond come in no set order.
-- (PL/pgSQL, whose simple expressions get the SQL of uuidv7_unix_us and
-- uuidv7_pack inlined: each argument a variable, used as often as needed.)

--#if c
CREATE FUNCTION uuidv7_generate() RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'uuidv7_generate'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
--#else
DO $generate$
BEGIN
	IF pg_catalog.to_regprocedure('pg_catalog.uuidv7()') IS NOT NULL THEN
		CREATE FUNCTION @extschema@.uuidv7_generate() RETURNS pg_catalog.uuid
		LANGUAGE sql VOLATILE STRICT PARALLEL SAFE
		AS 'SELECT pg_catalog.uuidv7()';
	ELSE
		CREATE FUNCTION @extschema@.uuidv7_generate() RETURNS pg_catalog.uuid
		LANGUAGE plpgsql VOLATILE STRICT PARALLEL SAFE
		SET search_path = pg_catalog, pg_temp
		AS $function$
		DECLARE
			now_ts timestamptz := clock_timestamp();
			unix_us int8 := @extschema@.uuidv7_unix_us(now_ts);
		BEGIN
			RETURN @extschema@.uuidv7_pack(unix_us, gen_random_uuid());
		END
		$function$;
	END IF;
END
$generate$;
--#endif

COMMENT ON FUNCTION uuidv7_generate() IS
'generate an RFC 9562 UUID version 7 for now, greater than any generated before in this session';

CREATE FUNCTION uuidv7_generate(shift pg_catalog.interval) RETURNS pg_catalog.uuid
--#if c
AS 'MODULE_PATHNAME', 'uuidv7_generate_interval'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
--#else
LANGUAGE plpgsql VOLATILE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	shifted timestamptz := clock_timestamp() + shift;
	unix_us int8 := @extschema@.uuidv7_unix_us(shifted);
BEGIN
	RETURN @extschema@.uuidv7_pack(unix_us, gen_random_uuid());
END
$function$;
--#endif

COMMENT ON FUNCTION uuidv7_generate(pg_catalog.interval) IS
'generate an RFC 9562 UUID version 7 for now plus an interval, greater than any generated before with the same interval in this session';

CREATE FUNCTION uuidv7_generate_at(ts pg_catalog.timestamptz) RETURNS pg_catalog.uuid
--#if c
AS 'MODULE_PATHNAME', 'uuidv7_generate_at'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
--#else
LANGUAGE plpgsql VOLATILE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	unix_us int8 := @extschema@.uuidv7_unix_us(ts);
BEGIN
	RETURN @extschema@.uuidv7_pack(unix_us, gen_random_uuid());
END
$function$;
--#endif

COMMENT ON FUNCTION uuidv7_generate_at(pg_catalog.timestamptz) IS
'generate an RFC 9562 UUID version 7 for the given time, with fresh random bits';
