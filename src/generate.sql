-- generation

CREATE FUNCTION uuidv7_generate() RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'uuidv7_generate'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuidv7_generate() IS
'generate an RFC 9562 UUID version 7 for now, greater than any generated before in this session';

CREATE FUNCTION uuidv7_generate(shift pg_catalog.interval) RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'uuidv7_generate_interval'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuidv7_generate(pg_catalog.interval) IS
'generate an RFC 9562 UUID version 7 for now plus an interval, greater than any generated before with the same interval in this session';

CREATE FUNCTION uuidv7_generate_at(ts pg_catalog.timestamptz) RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'uuidv7_generate_at'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuidv7_generate_at(pg_catalog.timestamptz) IS
'generate an RFC 9562 UUID version 7 for the given time, with fresh random bits';
