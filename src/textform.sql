-- text forms
--
-- Every UUID has a base32 form: the two encoders raise no error and are
-- LEAKPROOF.  The decoder raises on text that is not base32 of 128 bits.

CREATE FUNCTION uuidv7_to_base32(id pg_catalog.uuid) RETURNS pg_catalog.text
--#if c
AS 'MODULE_PATHNAME', 'uuidv7_to_base32'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
--#else
-- (the 128 bits behind two zero bits make 26 digits of 5 bits)
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $function$
SELECT pg_catalog.string_agg(pg_catalog.substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ',
											   pg_catalog.substring(b.bits, d OPERATOR(pg_catalog.*) 5 OPERATOR(pg_catalog.+) 1, 5)::pg_catalog.int4
											   OPERATOR(pg_catalog.+) 1, 1), '' ORDER BY d)
FROM (SELECT B'00' OPERATOR(pg_catalog.||) ('x' OPERATOR(pg_catalog.||) pg_catalog.replace($1::pg_catalog.text, '-', ''))::pg_catalog.bit(128) AS bits) AS b,
	pg_catalog.generate_series(0, 25) AS d
$function$;
--#endif

COMMENT ON FUNCTION uuidv7_to_base32(pg_catalog.uuid) IS
'26-character Crockford base32 of any UUID (the ULID text form), sorting bytewise as the UUID';

CREATE FUNCTION uuidv7_to_base32_grouped(id pg_catalog.uuid) RETURNS pg_catalog.text
--#if c
AS 'MODULE_PATHNAME', 'uuidv7_to_base32_grouped'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
--#else
-- (26 digits: a group of two, then six of four)
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $function$
SELECT pg_catalog.regexp_replace(pg_catalog.lower(@extschema@.uuidv7_to_base32($1)),
								 '^(..)(....)(....)(....)(....)(....)(....)$', E'\\1-\\2-\\3-\\4-\\5-\\6-\\7')
$function$;
--#endif

COMMENT ON FUNCTION uuidv7_to_base32_grouped(pg_catalog.uuid) IS
'lower-case Crockford base32 of any UUID in hyphenated groups of four from the right, for people to read';

CREATE FUNCTION uuidv7_from_base32(base32 pg_catalog.text) RETURNS pg_catalog.uuid
--#if c
AS 'MODULE_PATHNAME', 'uuidv7_from_base32'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--#else
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	bits varbit := B'';
	digits int := 0;
	c text;
	value int;
BEGIN
	FOR i IN 1..length(base32) LOOP
		c := substr(base32, i, 1);
		CONTINUE WHEN c = '-';
		-- I and L read as 1, O as 0, either case; U is no digit
		value := CASE WHEN ascii(c) < 128
					  THEN strpos('0123456789ABCDEFGHJKMNPQRSTVWXYZ', upper(translate(c, 'IiLlOo', '111100'))) - 1
					  ELSE -1 END;
		IF value < 0 THEN
			RAISE EXCEPTION 'invalid base32 UUID: "%"', base32
				USING ERRCODE = 'invalid_text_representation',
					  DETAIL = format('Character "%s" at position %s is not a Crockford base32 digit.', c, i);
		END IF;
		digits := digits + 1;
		-- past 26 digits only the count matters
		IF digits <= 26 THEN
			bits := bits || value::bit(5);
		END IF;
	END LOOP;
	IF digits <> 26 THEN
		RAISE EXCEPTION 'invalid base32 UUID: "%"', base32
			USING ERRCODE = 'invalid_text_representation',
				  DETAIL = format('It has %s base32 digits; a UUID has 26.', digits);
	END IF;
	-- 26 digits hold 130 bits; the top two must be zero
	IF substring(bits, 1, 2) <> B'00' THEN
		RAISE EXCEPTION 'invalid base32 UUID: "%"', base32
			USING ERRCODE = 'invalid_text_representation',
				  DETAIL = 'Its value exceeds 128 bits: the first of its 26 digits must be 0 to 7.';
	END IF;
	RETURN (lpad(to_hex(substring(bits, 3, 64)::bit(64)::int8), 16, '0')
			|| lpad(to_hex(substring(bits, 67, 64)::bit(64)::int8), 16, '0'))::uuid;
END
$function$;
--#endif

COMMENT ON FUNCTION uuidv7_from_base32(pg_catalog.text) IS
'UUID of Crockford base32 text, upper or lower case, hyphens ignored, I and L read as 1 and O as 0';
--#if sql

DO $leakproof$
BEGIN
	IF (SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname OPERATOR(pg_catalog.=) CURRENT_USER) THEN
		ALTER FUNCTION @extschema@.uuidv7_to_base32(pg_catalog.uuid) LEAKPROOF;
		ALTER FUNCTION @extschema@.uuidv7_to_base32_grouped(pg_catalog.uuid) LEAKPROOF;
	END IF;
END
$leakproof$;
--#endif
