-- min(uuid) and max(uuid)
--
-- No release up to 19 has them (PostgreSQL's development branch after 19
-- added them): created where pg_catalog lacks them, answered from a btree
-- index on the column as core's min() and max() are.

-- the transition (and combine) functions of min(uuid) and max(uuid) below
CREATE FUNCTION uuidv7_uuid_smaller(pg_catalog.uuid, pg_catalog.uuid) RETURNS pg_catalog.uuid
--#if c
AS 'MODULE_PATHNAME', 'uuidv7_uuid_smaller'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
--#else
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $function$
SELECT CASE WHEN $2 OPERATOR(pg_catalog.<) $1 THEN $2 ELSE $1 END
$function$;
--#endif

COMMENT ON FUNCTION uuidv7_uuid_smaller(pg_catalog.uuid, pg_catalog.uuid) IS
'the smaller of two UUIDs in uuid''s order (the state function of min(uuid))';

CREATE FUNCTION uuidv7_uuid_larger(pg_catalog.uuid, pg_catalog.uuid) RETURNS pg_catalog.uuid
--#if c
AS 'MODULE_PATHNAME', 'uuidv7_uuid_larger'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
--#else
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $function$
SELECT CASE WHEN $2 OPERATOR(pg_catalog.>) $1 THEN $2 ELSE $1 END
$function$;
--#endif

COMMENT ON FUNCTION uuidv7_uuid_larger(pg_catalog.uuid, pg_catalog.uuid) IS
'the larger of two UUIDs in uuid''s order (the state function of max(uuid))';
--#if sql

DO $leakproof$
BEGIN
	IF (SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname OPERATOR(pg_catalog.=) CURRENT_USER) THEN
		ALTER FUNCTION @extschema@.uuidv7_uuid_smaller(pg_catalog.uuid, pg_catalog.uuid) LEAKPROOF;
		ALTER FUNCTION @extschema@.uuidv7_uuid_larger(pg_catalog.uuid, pg_catalog.uuid) LEAKPROOF;
	END IF;
END
$leakproof$;
--#endif

-- min(uuid) and max(uuid) where the server has none; an aggregate of the
-- user's by that name is left alone, with a WARNING
DO $minmax$
DECLARE
	sig text;
BEGIN
	FOREACH sig IN ARRAY ARRAY['min(pg_catalog.uuid)', 'max(pg_catalog.uuid)']
	LOOP
		CONTINUE WHEN pg_catalog.to_regprocedure('pg_catalog.' OPERATOR(pg_catalog.||) sig) IS NOT NULL;
		IF pg_catalog.to_regprocedure('@extschema@.' OPERATOR(pg_catalog.||) sig) IS NOT NULL THEN
			RAISE WARNING 'function %.% already exists, skipping its compatibility version',
				'@extschema@', sig;
			CONTINUE;
		END IF;

		CASE sig
		WHEN 'min(pg_catalog.uuid)' THEN
			CREATE AGGREGATE @extschema@.min(pg_catalog.uuid) (
				SFUNC = @extschema@.uuidv7_uuid_smaller, STYPE = pg_catalog.uuid,
				COMBINEFUNC = @extschema@.uuidv7_uuid_smaller,
				SORTOP = OPERATOR(pg_catalog.<), PARALLEL = SAFE);
			COMMENT ON AGGREGATE @extschema@.min(pg_catalog.uuid) IS
			'the smallest UUID, the oldest of UUIDv7 keys (answered from a btree index on the column)';
		WHEN 'max(pg_catalog.uuid)' THEN
			CREATE AGGREGATE @extschema@.max(pg_catalog.uuid) (
				SFUNC = @extschema@.uuidv7_uuid_larger, STYPE = pg_catalog.uuid,
				COMBINEFUNC = @extschema@.uuidv7_uuid_larger,
				SORTOP = OPERATOR(pg_catalog.>), PARALLEL = SAFE);
			COMMENT ON AGGREGATE @extschema@.max(pg_catalog.uuid) IS
			'the largest UUID, the newest of UUIDv7 keys (answered from a btree index on the column)';
		END CASE;
	END LOOP;
END
$minmax$;
