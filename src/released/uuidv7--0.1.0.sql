\echo Use "CREATE EXTENSION uuidv7" to load this file. \quit

-- Every object of core PostgreSQL is named with its schema, so that look-alikes
-- created in the target schema are never picked up while this script runs.

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

-- extraction

CREATE FUNCTION uuidv7_timestamp(id pg_catalog.uuid) RETURNS pg_catalog.timestamptz
AS 'MODULE_PATHNAME', 'uuidv7_timestamp'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuidv7_timestamp(pg_catalog.uuid) IS
'time embedded in a UUID version 7, to the millisecond; NULL for any other UUID';

CREATE FUNCTION uuidv7_unix_ms(id pg_catalog.uuid) RETURNS pg_catalog.int8
AS 'MODULE_PATHNAME', 'uuidv7_unix_ms'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuidv7_unix_ms(pg_catalog.uuid) IS
'milliseconds since the Unix epoch embedded in a UUID version 7; NULL for any other UUID';

-- bounds

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

-- domain

CREATE FUNCTION uuidv7_domain_check(id pg_catalog.uuid) RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'uuidv7_domain_check'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuidv7_domain_check(pg_catalog.uuid) IS
'check of the uuid7 domain: true for a UUID version 7, a check_violation error for any other UUID';

CREATE DOMAIN uuid7 AS pg_catalog.uuid
	CONSTRAINT uuid7_check CHECK (@extschema@.uuidv7_domain_check(VALUE));

COMMENT ON DOMAIN uuid7 IS
'uuid that accepts only RFC 9562 UUIDs of version 7';

-- compatibility with PostgreSQL 17 and 18
--
-- On a server that lacks one of core's UUID functions, create it with core's
-- semantics (those of PostgreSQL 18), so that a schema written for 18 runs
-- unchanged.  On a server that has it, create nothing by that name: ours
-- would be shadowed by pg_catalog's or make calls ambiguous.  A function of
-- that signature the user already has in our schema is left alone.

DO $compat$
DECLARE
	sig text;
BEGIN
	FOREACH sig IN ARRAY ARRAY['uuidv7()', 'uuidv7(pg_catalog.interval)',
							   'uuid_extract_timestamp(pg_catalog.uuid)',
							   'uuid_extract_version(pg_catalog.uuid)']
	LOOP
		CONTINUE WHEN pg_catalog.to_regprocedure('pg_catalog.' OPERATOR(pg_catalog.||) sig) IS NOT NULL;
		IF pg_catalog.to_regprocedure('@extschema@.' OPERATOR(pg_catalog.||) sig) IS NOT NULL THEN
			RAISE NOTICE 'function %.% already exists, skipping its compatibility version',
				'@extschema@', sig;
			CONTINUE;
		END IF;

		CASE sig
		WHEN 'uuidv7()' THEN
			CREATE FUNCTION @extschema@.uuidv7() RETURNS pg_catalog.uuid
			AS 'MODULE_PATHNAME', 'uuidv7_generate'
			LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
			COMMENT ON FUNCTION @extschema@.uuidv7() IS
			'generate a UUID version 7 (compatibility version of the function of PostgreSQL 18)';
		WHEN 'uuidv7(pg_catalog.interval)' THEN
			CREATE FUNCTION @extschema@.uuidv7(shift pg_catalog.interval) RETURNS pg_catalog.uuid
			AS 'MODULE_PATHNAME', 'uuidv7_generate_interval'
			LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
			COMMENT ON FUNCTION @extschema@.uuidv7(pg_catalog.interval) IS
			'generate a UUID version 7 for now plus an interval (compatibility version of the function of PostgreSQL 18)';
		WHEN 'uuid_extract_timestamp(pg_catalog.uuid)' THEN
			CREATE FUNCTION @extschema@.uuid_extract_timestamp(pg_catalog.uuid) RETURNS pg_catalog.timestamptz
			AS 'MODULE_PATHNAME', 'uuidv7_compat_extract_timestamp'
			LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
			COMMENT ON FUNCTION @extschema@.uuid_extract_timestamp(pg_catalog.uuid) IS
			'extract the time of a UUID version 1 or 7 (compatibility version of the function of PostgreSQL 18)';
		WHEN 'uuid_extract_version(pg_catalog.uuid)' THEN
			CREATE FUNCTION @extschema@.uuid_extract_version(pg_catalog.uuid) RETURNS pg_catalog.int2
			AS 'MODULE_PATHNAME', 'uuidv7_compat_extract_version'
			LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
			COMMENT ON FUNCTION @extschema@.uuid_extract_version(pg_catalog.uuid) IS
			'extract the version of an RFC 9562 UUID (compatibility version of the function of PostgreSQL 17)';
		END CASE;
	END LOOP;
END
$compat$;
