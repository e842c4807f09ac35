-- domain
--
-- Not LEAKPROOF: its error for a UUID of another version shows the value.

CREATE FUNCTION uuidv7_domain_check(id pg_catalog.uuid) RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'uuidv7_domain_check'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuidv7_domain_check(pg_catalog.uuid) IS
'check of the uuid7 domain: true for a UUID version 7, a check_violation error for any other UUID';

CREATE DOMAIN uuid7 AS pg_catalog.uuid
	CONSTRAINT uuid7_check CHECK (@extschema@.uuidv7_domain_check(VALUE));

COMMENT ON DOMAIN uuid7 IS
'uuid that accepts only RFC 9562 UUIDs of version 7';
