--#if sql
-- time: microseconds since the Unix epoch
--
-- The SQL edition's arithmetic on times, as src/time.c and src/uuidv7.h are
-- the C edition's: exact on every major (extract(epoch ...) gives a float8
-- before PostgreSQL 14, which cannot hold microseconds past the year 2255).

-- the one error for a time that a UUIDv7 cannot carry (a function of the
-- time, and of a type, only so that an expression can call it and the
-- planner does not call it ahead of the branch that needs it)
CREATE FUNCTION uuidv7_report_out_of_range(ts pg_catalog.timestamptz) RETURNS pg_catalog.int8
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $function$
BEGIN
	RAISE EXCEPTION 'timestamp out of range for UUID version 7'
		USING ERRCODE = 'datetime_field_overflow',
			  DETAIL = 'UUID version 7 holds times from 1970-01-01 00:00:00 UTC to 10889-08-02 05:31:50.655999 UTC.';
END
$function$;

COMMENT ON FUNCTION uuidv7_report_out_of_range(pg_catalog.timestamptz) IS
'raise the error for a time that a UUID version 7 cannot carry (SQL edition)';

-- microseconds since the Unix epoch of a time a UUIDv7 can carry, from its
-- UTC day and time of day; the error for any other time.  SQL the planner
-- inlines (not STRICT, which would keep it from doing so: NULL gives NULL
-- all the same)
CREATE FUNCTION uuidv7_unix_us(ts pg_catalog.timestamptz) RETURNS pg_catalog.int8
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $function$
SELECT CASE WHEN $1 IS NULL THEN NULL
			WHEN $1 OPERATOR(pg_catalog.>=) '1970-01-01 00:00:00+00'::pg_catalog.timestamptz
				 AND $1 OPERATOR(pg_catalog.<=) '10889-08-02 05:31:50.655999+00'::pg_catalog.timestamptz
			THEN pg_catalog.date_part('epoch', pg_catalog.date_trunc('day', $1 AT TIME ZONE 'UTC'))::pg_catalog.int8
					 OPERATOR(pg_catalog.*) 1000000
				 OPERATOR(pg_catalog.+) (pg_catalog.date_part('epoch', ($1 AT TIME ZONE 'UTC')::pg_catalog.time)
										 OPERATOR(pg_catalog.*) 1000000)::pg_catalog.int8
			ELSE @extschema@.uuidv7_report_out_of_range($1)
	   END
$function$;

COMMENT ON FUNCTION uuidv7_unix_us(pg_catalog.timestamptz) IS
'microseconds since the Unix epoch of a time a UUID version 7 can carry, error 22008 for any other (SQL edition)';

-- the instant of a number of microseconds since the Unix epoch (an
-- interval of hours and microseconds: no day, so no time zone, in it)
CREATE FUNCTION uuidv7_unix_us_to_timestamptz(unix_us pg_catalog.int8) RETURNS pg_catalog.timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $function$
SELECT '1970-01-01 00:00:00+00'::pg_catalog.timestamptz
	OPERATOR(pg_catalog.+) pg_catalog.make_interval(hours => ($1 OPERATOR(pg_catalog./) 3600000000)::pg_catalog.int4)
	OPERATOR(pg_catalog.+) (($1 OPERATOR(pg_catalog.%) 3600000000)::pg_catalog.float8
							OPERATOR(pg_catalog.*) '1 microsecond'::pg_catalog.interval)
$function$;

COMMENT ON FUNCTION uuidv7_unix_us_to_timestamptz(pg_catalog.int8) IS
'the instant a number of microseconds after the Unix epoch (SQL edition)';

-- A UUIDv7 laid out as RFC 9562 section 6.2 method 3 has it, as
-- uuidv7_pack() in C: 48 bits of milliseconds, version 7, the microsecond
-- within the millisecond as a 12-bit fraction, then the variant and 62
-- random bits, taken from a version 4 UUID (gen_random_uuid(), whose last
-- 64 bits are exactly these).
CREATE FUNCTION uuidv7_pack(unix_us pg_catalog.int8, random pg_catalog.uuid) RETURNS pg_catalog.uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $function$
SELECT (pg_catalog.lpad(pg_catalog.to_hex($1 OPERATOR(pg_catalog./) 1000), 12, '0')
	OPERATOR(pg_catalog.||) '7'
	OPERATOR(pg_catalog.||) pg_catalog.lpad(pg_catalog.to_hex(($1 OPERATOR(pg_catalog.%) 1000)
		OPERATOR(pg_catalog.*) 4096 OPERATOR(pg_catalog./) 1000), 3, '0')
	OPERATOR(pg_catalog.||) pg_catalog.right(pg_catalog.replace($2::pg_catalog.text, '-', ''), 16))::pg_catalog.uuid
$function$;

COMMENT ON FUNCTION uuidv7_pack(pg_catalog.int8, pg_catalog.uuid) IS
'the UUID version 7 of a time in microseconds since the Unix epoch, with the variant and random bits of a version 4 UUID (SQL edition)';
--#endif
