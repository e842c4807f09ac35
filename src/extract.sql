-- extraction
--
-- LEAKPROOF, as core's uuid_extract_timestamp(): they raise no error for
-- any input (a UUID that is not version 7 gives NULL), so the planner may
-- use an index on them under row-level security.

CREATE FUNCTION uuidv7_timestamp(id pg_catalog.uuid) RETURNS pg_catalog.timestamptz
AS 'MODULE_PATHNAME', 'uuidv7_timestamp'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

COMMENT ON FUNCTION uuidv7_timestamp(pg_catalog.uuid) IS
'time embedded in a UUID version 7, to the millisecond; NULL for any other UUID';

CREATE FUNCTION uuidv7_unix_ms(id pg_catalog.uuid) RETURNS pg_catalog.int8
AS 'MODULE_PATHNAME', 'uuidv7_unix_ms'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

COMMENT ON FUNCTION uuidv7_unix_ms(pg_catalog.uuid) IS
'milliseconds since the Unix epoch embedded in a UUID version 7; NULL for any other UUID';
