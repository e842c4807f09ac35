-- domain
--
-- Not LEAKPROOF: its error for a UUID of another version shows the value.

CREATE FUNCTION uuidv7_domain_check(id pg_catalog.uuid) RETURNS pg_catalog.bool
--#if c
AS 'MODULE_PATHNAME', 'uuidv7_domain_check'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--#else
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	printed text := id::text;
BEGIN
	IF @extschema@.uuidv7_unix_ms(id) IS NOT NULL THEN
		RETURN true;
	END IF;
	RAISE EXCEPTION 'value for domain uuid7 violates check constraint "uuid7_check"'
		USING ERRCODE = 'check_violation',
			  DETAIL = CASE WHEN substr(printed, 20, 1) IN ('8', '9', 'a', 'b')
						   THEN format('"%s" is not a version 7 UUID: its version is %s.',
									   printed, ('x' || substr(printed, 15, 1))::bit(4)::int)
						   ELSE format('"%s" is not a version 7 UUID: it is not of the RFC 9562 variant.', printed)
						   END;
END
$function$;
--#endif

COMMENT ON FUNCTION uuidv7_domain_check(pg_catalog.uuid) IS
'check of the uuid7 domain: true for a UUID version 7, a check_violation error for any other UUID';

CREATE DOMAIN uuid7 AS pg_catalog.uuid
	CONSTRAINT uuid7_check CHECK (@extschema@.uuidv7_domain_check(VALUE));

COMMENT ON DOMAIN uuid7 IS
'uuid that accepts only RFC 9562 UUIDs of version 7';
