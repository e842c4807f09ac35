-- bounds
--
-- Not LEAKPROOF: a time outside what a UUIDv7 holds raises an error.

CREATE FUNCTION uuidv7_min(ts pg_catalog.timestamptz) RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'uuidv7_min'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuidv7_min(pg_catalog.timestamptz) IS
'smallest UUID version 7 whose time is at or after the given time: id >= uuidv7_min(t) exactly when uuidv7_timestamp(id) >= t';

CREATE FUNCTION uuidv7_max(ts pg_catalog.timestamptz) RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'uuidv7_max'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuidv7_max(pg_catalog.timestamptz) IS
'largest UUID version 7 whose time is at or before the given time: id <= uuidv7_max(t) exactly when uuidv7_timestamp(id) <= t';
