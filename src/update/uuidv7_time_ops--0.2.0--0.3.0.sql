\echo Use "ALTER EXTENSION uuidv7_time_ops UPDATE TO '0.3.0'" to load this file. \quit

-- LEAKPROOF, as core's uuid comparisons: the comparison functions behind the
-- operators and the btree support raise no error for any input, so that
-- under row-level security the planner may still use them as index
-- conditions

ALTER FUNCTION @extschema@.uuidv7_lt_timestamptz(pg_catalog.uuid, pg_catalog.timestamptz) LEAKPROOF;
ALTER FUNCTION @extschema@.uuidv7_le_timestamptz(pg_catalog.uuid, pg_catalog.timestamptz) LEAKPROOF;
ALTER FUNCTION @extschema@.uuidv7_ge_timestamptz(pg_catalog.uuid, pg_catalog.timestamptz) LEAKPROOF;
ALTER FUNCTION @extschema@.uuidv7_gt_timestamptz(pg_catalog.uuid, pg_catalog.timestamptz) LEAKPROOF;
ALTER FUNCTION @extschema@.timestamptz_lt_uuidv7(pg_catalog.timestamptz, pg_catalog.uuid) LEAKPROOF;
ALTER FUNCTION @extschema@.timestamptz_le_uuidv7(pg_catalog.timestamptz, pg_catalog.uuid) LEAKPROOF;
ALTER FUNCTION @extschema@.timestamptz_gt_uuidv7(pg_catalog.timestamptz, pg_catalog.uuid) LEAKPROOF;
ALTER FUNCTION @extschema@.timestamptz_ge_uuidv7(pg_catalog.timestamptz, pg_catalog.uuid) LEAKPROOF;
ALTER FUNCTION @extschema@.uuidv7_cmp_timestamptz(pg_catalog.uuid, pg_catalog.timestamptz) LEAKPROOF;
ALTER FUNCTION @extschema@.timestamptz_cmp_uuidv7(pg_catalog.timestamptz, pg_catalog.uuid) LEAKPROOF;

-- Time on a whole millisecond equals the smallest UUIDv7 of that millisecond
-- (it stood just below it), so that "id >= t" prunes the partition that ends
-- at t: the comparison support, <= and > (and their commutators) move to the
-- C functions of that order.  The functions are this extension's own, and
-- only where their code lives changes; indexes hold uuids only and need no
-- rebuild.

CREATE OR REPLACE FUNCTION @extschema@.uuidv7_le_timestamptz(pg_catalog.uuid, pg_catalog.timestamptz) RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'uuidv7_le_timestamptz'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION @extschema@.uuidv7_le_timestamptz(pg_catalog.uuid, pg_catalog.timestamptz) IS
'implementation of uuid <= timestamptz: as <, and also the smallest UUIDv7 of a time on a whole millisecond';

CREATE OR REPLACE FUNCTION @extschema@.uuidv7_gt_timestamptz(pg_catalog.uuid, pg_catalog.timestamptz) RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'uuidv7_gt_timestamptz'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION @extschema@.uuidv7_gt_timestamptz(pg_catalog.uuid, pg_catalog.timestamptz) IS
'implementation of uuid > timestamptz: as >=, but not the smallest UUIDv7 of a time on a whole millisecond';

CREATE OR REPLACE FUNCTION @extschema@.timestamptz_lt_uuidv7(pg_catalog.timestamptz, pg_catalog.uuid) RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'timestamptz_lt_uuidv7_0_3'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION @extschema@.timestamptz_lt_uuidv7(pg_catalog.timestamptz, pg_catalog.uuid) IS
'implementation of timestamptz < uuid: the commutator of uuid > timestamptz';

CREATE OR REPLACE FUNCTION @extschema@.timestamptz_le_uuidv7(pg_catalog.timestamptz, pg_catalog.uuid) RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'timestamptz_le_uuidv7'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION @extschema@.timestamptz_le_uuidv7(pg_catalog.timestamptz, pg_catalog.uuid) IS
'implementation of timestamptz <= uuid: earlier than or the same time as the UUIDv7';

CREATE OR REPLACE FUNCTION @extschema@.timestamptz_ge_uuidv7(pg_catalog.timestamptz, pg_catalog.uuid) RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'timestamptz_ge_uuidv7'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION @extschema@.timestamptz_ge_uuidv7(pg_catalog.timestamptz, pg_catalog.uuid) IS
'implementation of timestamptz >= uuid: the commutator of uuid <= timestamptz';

CREATE OR REPLACE FUNCTION @extschema@.uuidv7_cmp_timestamptz(pg_catalog.uuid, pg_catalog.timestamptz) RETURNS pg_catalog.int4
AS 'MODULE_PATHNAME', 'uuidv7_cmp_timestamptz_0_3'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION @extschema@.uuidv7_cmp_timestamptz(pg_catalog.uuid, pg_catalog.timestamptz) IS
'btree comparison of a uuid with an instant: 0 only for the smallest UUIDv7 of an instant on a whole millisecond';

CREATE OR REPLACE FUNCTION @extschema@.timestamptz_cmp_uuidv7(pg_catalog.timestamptz, pg_catalog.uuid) RETURNS pg_catalog.int4
AS 'MODULE_PATHNAME', 'timestamptz_cmp_uuidv7_0_3'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION @extschema@.timestamptz_cmp_uuidv7(pg_catalog.timestamptz, pg_catalog.uuid) IS
'btree comparison of an instant with a uuid: 0 only for an instant on a whole millisecond and its smallest UUIDv7';

-- (the operators found by their functions: uuidv7 0.3.0's update moved them
-- into the schema uuidv7_time_ops where it took their names)
DO $comments$
DECLARE
	op record;
BEGIN
	FOR op IN
		SELECT o.oid::pg_catalog.regoperator AS oper, c.comment
		FROM pg_catalog.pg_operator o
			JOIN (VALUES ('@extschema@.uuidv7_le_timestamptz(pg_catalog.uuid,pg_catalog.timestamptz)',
						  'UUIDv7 of an earlier time than, or the first UUIDv7 of a time on a whole millisecond'),
						 ('@extschema@.uuidv7_gt_timestamptz(pg_catalog.uuid,pg_catalog.timestamptz)',
						  'UUIDv7 of the same or a later time than, but not the first UUIDv7 of a time on a whole millisecond'),
						 ('@extschema@.timestamptz_lt_uuidv7(pg_catalog.timestamptz,pg_catalog.uuid)',
						  'earlier than or the same time as the UUIDv7, but not a time on a whole millisecond against its first UUIDv7'),
						 ('@extschema@.timestamptz_le_uuidv7(pg_catalog.timestamptz,pg_catalog.uuid)',
						  'earlier than or the same time as the UUIDv7'),
						 ('@extschema@.timestamptz_ge_uuidv7(pg_catalog.timestamptz,pg_catalog.uuid)',
						  'later than the time of the UUIDv7, or a time on a whole millisecond against its first UUIDv7'))
				AS c(fn, comment) ON o.oprcode OPERATOR(pg_catalog.=) c.fn::pg_catalog.regprocedure
	LOOP
		EXECUTE pg_catalog.format('COMMENT ON OPERATOR %s IS %L', op.oper, op.comment);
	END LOOP;
END
$comments$;

-- casts between uuid and timestamptz, explicit only (no existing query
-- changes meaning), for tools that need them both ways, such as Citus's
-- create_time_partitions() and drop_old_time_partitions() on a table
-- partitioned by a uuid key: a time becomes the smallest UUIDv7 at or after
-- it (uuidv7_min; error 22008 outside what 48 bits of milliseconds hold), a
-- uuid the time it holds (uuidv7_timestamp; NULL if it is not version 7)

CREATE FUNCTION uuidv7_timestamptz_to_uuid(pg_catalog.timestamptz) RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'uuidv7_min'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuidv7_timestamptz_to_uuid(pg_catalog.timestamptz) IS
'implementation of the cast timestamptz AS uuid: the smallest UUIDv7 at or after the time';

-- LEAKPROOF: it raises no error for any input
CREATE FUNCTION uuidv7_uuid_to_timestamptz(pg_catalog.uuid) RETURNS pg_catalog.timestamptz
AS 'MODULE_PATHNAME', 'uuidv7_timestamp'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION uuidv7_uuid_to_timestamptz(pg_catalog.uuid) IS
'implementation of the cast uuid AS timestamptz: the time of a UUIDv7, NULL for any other UUID';

CREATE CAST (pg_catalog.timestamptz AS pg_catalog.uuid) WITH FUNCTION uuidv7_timestamptz_to_uuid(pg_catalog.timestamptz);
COMMENT ON CAST (pg_catalog.timestamptz AS pg_catalog.uuid) IS
'the smallest UUIDv7 at or after the time (explicit only)';

CREATE CAST (pg_catalog.uuid AS pg_catalog.timestamptz) WITH FUNCTION uuidv7_uuid_to_timestamptz(pg_catalog.uuid);
COMMENT ON CAST (pg_catalog.uuid AS pg_catalog.timestamptz) IS
'the time of a UUIDv7, NULL for any other UUID (explicit only)';

-- the members are found by their functions, wherever the operators are
--#object uuidv7_time_ops_status replace
