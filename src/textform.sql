-- text forms
--
-- Every UUID has a base32 form: the two encoders raise no error and are
-- LEAKPROOF.  The decoder raises on text that is not base32 of 128 bits.

CREATE FUNCTION uuidv7_to_base32(id pg_catalog.uuid) RETURNS pg_catalog.text
AS 'MODULE_PATHNAME', 'uuidv7_to_base32'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

COMMENT ON FUNCTION uuidv7_to_base32(pg_catalog.uuid) IS
'26-character Crockford base32 of any UUID (the ULID text form), sorting bytewise as the UUID';

CREATE FUNCTION uuidv7_to_base32_grouped(id pg_catalog.uuid) RETURNS pg_catalog.text
AS 'MODULE_PATHNAME', 'uuidv7_to_base32_grouped'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

COMMENT ON FUNCTION uuidv7_to_base32_grouped(pg_catalog.uuid) IS
'lower-case Crockford base32 of any UUID in hyphenated groups of four from the right, for people to read';

CREATE FUNCTION uuidv7_from_base32(base32 pg_catalog.text) RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'uuidv7_from_base32'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuidv7_from_base32(pg_catalog.text) IS
'UUID of Crockford base32 text, upper or lower case, hyphens ignored, I and L read as 1 and O as 0';
