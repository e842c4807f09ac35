-- bounds
--
-- Not LEAKPROOF: a time outside what a UUIDv7 holds raises an error.

CREATE FUNCTION uuidv7_min(ts pg_catalog.timestamptz) RETURNS pg_catalog.uuid
--#if c
AS 'MODULE_PATHNAME', 'uuidv7_min'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--#else
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	unix_ms int8 := (@extschema@.uuidv7_unix_us(ts) + 999) / 1000;
BEGIN
	-- within the last millisecond, rounding up leaves the 48 bits
	IF unix_ms > 281474976710655 THEN
		PERFORM @extschema@.uuidv7_report_out_of_range(ts);
	END IF;
	RETURN (lpad(to_hex(unix_ms), 12, '0') || '70008000000000000000')::uuid;
END
$function$;
--#endif

COMMENT ON FUNCTION uuidv7_min(pg_catalog.timestamptz) IS
'smallest UUID version 7 whose time is at or after the given time: id >= uuidv7_min(t) exactly when uuidv7_timestamp(id) >= t';

CREATE FUNCTION uuidv7_max(ts pg_catalog.timestamptz) RETURNS pg_catalog.uuid
--#if c
AS 'MODULE_PATHNAME', 'uuidv7_max'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--#else
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $function$
SELECT (pg_catalog.lpad(pg_catalog.to_hex(@extschema@.uuidv7_unix_us($1) OPERATOR(pg_catalog./) 1000), 12, '0')
		OPERATOR(pg_catalog.||) '7fffbfffffffffffffff')::pg_catalog.uuid
$function$;
--#endif

COMMENT ON FUNCTION uuidv7_max(pg_catalog.timestamptz) IS
'largest UUID version 7 whose time is at or before the given time: id <= uuidv7_max(t) exactly when uuidv7_timestamp(id) <= t';
