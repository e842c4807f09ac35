\echo Use "CREATE EXTENSION uuidv7" to load this file. \quit

-- Every object of core PostgreSQL is named with its schema, so that look-alikes
-- created in the target schema are never picked up while this script runs.

-- (the schema of the extension's helpers: src/update/ says why)
DO $uuidv7_internal_schema$
BEGIN
	CREATE SCHEMA uuidv7_internal;
	COMMENT ON SCHEMA uuidv7_internal IS
	'the helpers of uuidv7''s functions (not its API: they are called by its functions)';
	GRANT USAGE ON SCHEMA uuidv7_internal TO PUBLIC;
END
$uuidv7_internal_schema$;
