\echo Use "CREATE EXTENSION uuidv7_time_ops" to load this file. \quit

-- Comparison of uuid keys with timestamptz, registered in PostgreSQL's own
-- operator families for uuid (btree uuid_ops, BRIN uuid_minmax_ops and
-- uuid_minmax_multi_ops), so that "id >= t" uses uuid indexes and prunes
-- uuid range partitions.  An instant on a whole millisecond equals the
-- smallest UUIDv7 of that millisecond; any other instant stands just below
-- the smallest UUIDv7 of the next millisecond (see src/operators.c).  There
-- is no = operator: "id >= t AND id < t2" is the form to use.
--
-- Dropping this extension drops the operators and with them every family
-- member that refers to them, leaving core's families as they were.

-- comparison functions
--
-- LEAKPROOF, as core's uuid comparisons: they are total over both types
-- (instants beyond what a UUIDv7 holds stand below or above every UUID) and
-- raise no error, so that under row-level security the planner may still
-- use them as index conditions.  (Where a C symbol ends in _0_3 the answers
-- changed in 0.3.0: 0.2.0's symbol of the same name still answers the old
-- way for installs not yet updated.)

CREATE FUNCTION uuidv7_lt_timestamptz(pg_catalog.uuid, pg_catalog.timestamptz) RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'uuidv7_lt_timestamptz'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION uuidv7_lt_timestamptz(pg_catalog.uuid, pg_catalog.timestamptz) IS
'implementation of uuid < timestamptz: the UUIDv7 is of an earlier time';

CREATE FUNCTION uuidv7_le_timestamptz(pg_catalog.uuid, pg_catalog.timestamptz) RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'uuidv7_le_timestamptz'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION uuidv7_le_timestamptz(pg_catalog.uuid, pg_catalog.timestamptz) IS
'implementation of uuid <= timestamptz: as <, and also the smallest UUIDv7 of a time on a whole millisecond';

CREATE FUNCTION uuidv7_ge_timestamptz(pg_catalog.uuid, pg_catalog.timestamptz) RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'uuidv7_ge_timestamptz'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION uuidv7_ge_timestamptz(pg_catalog.uuid, pg_catalog.timestamptz) IS
'implementation of uuid >= timestamptz: the UUIDv7 is of the same or a later time';

CREATE FUNCTION uuidv7_gt_timestamptz(pg_catalog.uuid, pg_catalog.timestamptz) RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'uuidv7_gt_timestamptz'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION uuidv7_gt_timestamptz(pg_catalog.uuid, pg_catalog.timestamptz) IS
'implementation of uuid > timestamptz: as >=, but not the smallest UUIDv7 of a time on a whole millisecond';

CREATE FUNCTION timestamptz_lt_uuidv7(pg_catalog.timestamptz, pg_catalog.uuid) RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'timestamptz_lt_uuidv7_0_3'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION timestamptz_lt_uuidv7(pg_catalog.timestamptz, pg_catalog.uuid) IS
'implementation of timestamptz < uuid: the commutator of uuid > timestamptz';

CREATE FUNCTION timestamptz_le_uuidv7(pg_catalog.timestamptz, pg_catalog.uuid) RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'timestamptz_le_uuidv7'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION timestamptz_le_uuidv7(pg_catalog.timestamptz, pg_catalog.uuid) IS
'implementation of timestamptz <= uuid: earlier than or the same time as the UUIDv7';

CREATE FUNCTION timestamptz_gt_uuidv7(pg_catalog.timestamptz, pg_catalog.uuid) RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'timestamptz_gt_uuidv7'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION timestamptz_gt_uuidv7(pg_catalog.timestamptz, pg_catalog.uuid) IS
'implementation of timestamptz > uuid: the UUIDv7 is of an earlier time';

CREATE FUNCTION timestamptz_ge_uuidv7(pg_catalog.timestamptz, pg_catalog.uuid) RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'timestamptz_ge_uuidv7'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION timestamptz_ge_uuidv7(pg_catalog.timestamptz, pg_catalog.uuid) IS
'implementation of timestamptz >= uuid: the commutator of uuid <= timestamptz';

-- btree support

CREATE FUNCTION uuidv7_cmp_timestamptz(pg_catalog.uuid, pg_catalog.timestamptz) RETURNS pg_catalog.int4
AS 'MODULE_PATHNAME', 'uuidv7_cmp_timestamptz_0_3'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION uuidv7_cmp_timestamptz(pg_catalog.uuid, pg_catalog.timestamptz) IS
'btree comparison of a uuid with an instant: 0 only for the smallest UUIDv7 of an instant on a whole millisecond';

CREATE FUNCTION timestamptz_cmp_uuidv7(pg_catalog.timestamptz, pg_catalog.uuid) RETURNS pg_catalog.int4
AS 'MODULE_PATHNAME', 'timestamptz_cmp_uuidv7_0_3'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION timestamptz_cmp_uuidv7(pg_catalog.timestamptz, pg_catalog.uuid) IS
'btree comparison of an instant with a uuid: 0 only for an instant on a whole millisecond and its smallest UUIDv7';

-- STABLE as core's in_range for timestamptz: day and month offsets follow
-- TimeZone; not LEAKPROOF: a UUID of another version raises an error
CREATE FUNCTION uuidv7_in_range(val pg_catalog.uuid, base pg_catalog.uuid, "offset" pg_catalog.interval,
								sub pg_catalog.bool, less pg_catalog.bool) RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'uuidv7_in_range'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuidv7_in_range(pg_catalog.uuid, pg_catalog.uuid, pg_catalog.interval, pg_catalog.bool, pg_catalog.bool) IS
'in_range support for RANGE window frames with an interval offset over ORDER BY a UUIDv7 key, by embedded time';

-- operators
--
-- In the extension's schema, unless uuidv7 (0.3.0 and later) has made its
-- own there: those are SQL that the planner inlines into comparisons of
-- uuids, and answer as these do.  Then these go into a schema of their own,
-- uuidv7_time_ops (a member of the extension, dropped with it), so that the
-- families' members are this extension's and go with it; queries keep
-- calling uuidv7's unless that schema comes first in search_path.

DO $operators$
DECLARE
	target name := '@extschema@';
	op record;
BEGIN
	IF EXISTS (SELECT FROM pg_catalog.pg_operator o
			   WHERE o.oprnamespace OPERATOR(pg_catalog.=) '@extschema@'::pg_catalog.regnamespace
				   AND o.oprname OPERATOR(pg_catalog.=) ANY ('{<,<=,>=,>}'::pg_catalog.name[])
				   AND o.oprleft OPERATOR(pg_catalog.=) ANY ('{uuid,timestamptz}'::pg_catalog.regtype[])
				   AND o.oprright OPERATOR(pg_catalog.=) ANY ('{uuid,timestamptz}'::pg_catalog.regtype[])
				   AND o.oprleft OPERATOR(pg_catalog.<>) o.oprright) THEN
		target := 'uuidv7_time_ops';
		CREATE SCHEMA uuidv7_time_ops;
		COMMENT ON SCHEMA uuidv7_time_ops IS
		'the operators of uuidv7_time_ops, where uuidv7''s own time comparisons take their names in the extension''s schema';
		GRANT USAGE ON SCHEMA uuidv7_time_ops TO PUBLIC;
	END IF;
	FOR op IN
		SELECT * FROM (VALUES
			('<', 'pg_catalog.uuid', 'pg_catalog.timestamptz', 'uuidv7_lt_timestamptz', '>', '>=', 'lt',
			 'UUIDv7 of an earlier time than'),
			('<=', 'pg_catalog.uuid', 'pg_catalog.timestamptz', 'uuidv7_le_timestamptz', '>=', '>', 'le',
			 'UUIDv7 of an earlier time than, or the first UUIDv7 of a time on a whole millisecond'),
			('>=', 'pg_catalog.uuid', 'pg_catalog.timestamptz', 'uuidv7_ge_timestamptz', '<=', '<', 'ge',
			 'UUIDv7 of the same or a later time than'),
			('>', 'pg_catalog.uuid', 'pg_catalog.timestamptz', 'uuidv7_gt_timestamptz', '<', '<=', 'gt',
			 'UUIDv7 of the same or a later time than, but not the first UUIDv7 of a time on a whole millisecond'),
			('<', 'pg_catalog.timestamptz', 'pg_catalog.uuid', 'timestamptz_lt_uuidv7', '>', '>=', 'lt',
			 'earlier than or the same time as the UUIDv7, but not a time on a whole millisecond against its first UUIDv7'),
			('<=', 'pg_catalog.timestamptz', 'pg_catalog.uuid', 'timestamptz_le_uuidv7', '>=', '>', 'le',
			 'earlier than or the same time as the UUIDv7'),
			('>=', 'pg_catalog.timestamptz', 'pg_catalog.uuid', 'timestamptz_ge_uuidv7', '<=', '<', 'ge',
			 'later than the time of the UUIDv7, or a time on a whole millisecond against its first UUIDv7'),
			('>', 'pg_catalog.timestamptz', 'pg_catalog.uuid', 'timestamptz_gt_uuidv7', '<', '<=', 'gt',
			 'later than the time of the UUIDv7')
		) AS v(name, lefttype, righttype, func, commutator, negator, estimator, description)
	LOOP
		EXECUTE pg_catalog.format(
			'CREATE OPERATOR %I.%s (LEFTARG = %s, RIGHTARG = %s, FUNCTION = @extschema@.%I, '
			'COMMUTATOR = OPERATOR(%I.%s), NEGATOR = OPERATOR(%I.%s), '
			'RESTRICT = pg_catalog.scalar%ssel, JOIN = pg_catalog.scalar%sjoinsel)',
			target, op.name, op.lefttype, op.righttype, op.func, target, op.commutator, target, op.negator,
			op.estimator, op.estimator);
		EXECUTE pg_catalog.format('COMMENT ON OPERATOR %I.%s (%s, %s) IS %L',
								  target, op.name, op.lefttype, op.righttype, op.description);
	END LOOP;
END
$operators$;

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

-- operator family membership

-- Every member this extension adds to core's families, with whether it is
-- there.  pg_upgrade does not carry such members over (its dump has no
-- statement for them): the operators survive but stop using indexes.
CREATE FUNCTION uuidv7_time_ops_status(OUT access_method pg_catalog.name, OUT family pg_catalog.name,
									   OUT member pg_catalog.text, OUT present pg_catalog.bool)
RETURNS SETOF record
LANGUAGE sql STABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
	WITH families (access_method, family) AS (
		SELECT a.amname, f.opfname
		FROM pg_opfamily f JOIN pg_am a ON a.oid = f.opfmethod
		WHERE f.opfnamespace = 'pg_catalog'::regnamespace
			AND (a.amname, f.opfname) IN (('btree', 'uuid_ops'), ('brin', 'uuid_minmax_ops'),
										  ('brin', 'uuid_minmax_multi_ops'))
	),
	operators (strategy, name) AS (
		VALUES (1, '<'), (2, '<='), (4, '>='), (5, '>')
	),
	members (access_method, family, is_operator, number, lefttype, righttype, object, member) AS (
		-- btree: both argument orders; BRIN: the indexed uuid on the left
		SELECT f.access_method, f.family, true, o.strategy, t.l::regtype, t.r::regtype, op.oid,
			format('OPERATOR %s %s.%s (%s, %s)', o.strategy, op.oprnamespace::regnamespace, o.name, t.l, t.r)
		FROM families f
			CROSS JOIN operators o
			JOIN (VALUES ('uuid', 'timestamptz'), ('timestamptz', 'uuid')) AS t(l, r)
				ON f.access_method = 'btree' OR t.l = 'uuid'
			JOIN pg_operator op ON op.oprname = o.name AND op.oprleft = t.l::regtype
				AND op.oprright = t.r::regtype
				-- this extension's operators, in its schema or in uuidv7_time_ops
				AND op.oprcode IN (SELECT p.oid FROM pg_proc p
								   WHERE p.pronamespace = '@extschema@'::regnamespace
									   AND p.proname IN ('uuidv7_lt_timestamptz', 'uuidv7_le_timestamptz',
														 'uuidv7_ge_timestamptz', 'uuidv7_gt_timestamptz',
														 'timestamptz_lt_uuidv7', 'timestamptz_le_uuidv7',
														 'timestamptz_ge_uuidv7', 'timestamptz_gt_uuidv7'))
		UNION ALL
		SELECT 'btree', 'uuid_ops', false, p.number, p.l::regtype, p.r::regtype, p.f::regprocedure,
			format('FUNCTION %s (%s, %s) %s', p.number, p.l, p.r, p.f::regprocedure)
		FROM (VALUES (1, 'uuid', 'timestamptz', '@extschema@.uuidv7_cmp_timestamptz(uuid, timestamptz)'),
					 (1, 'timestamptz', 'uuid', '@extschema@.timestamptz_cmp_uuidv7(timestamptz, uuid)'),
					 (3, 'uuid', 'interval', '@extschema@.uuidv7_in_range(uuid, uuid, interval, bool, bool)'))
			AS p(number, l, r, f)
	)
	SELECT m.access_method, m.family, m.member,
		CASE WHEN m.is_operator THEN EXISTS (
				SELECT FROM pg_amop a
				WHERE a.amopfamily = f.oid AND a.amopstrategy = m.number AND a.amopopr = m.object
					AND a.amoplefttype = m.lefttype AND a.amoprighttype = m.righttype)
			ELSE EXISTS (
				SELECT FROM pg_amproc a
				WHERE a.amprocfamily = f.oid AND a.amprocnum = m.number AND a.amproc = m.object
					AND a.amproclefttype = m.lefttype AND a.amprocrighttype = m.righttype)
		END
	FROM members m
		JOIN pg_am am ON am.amname = m.access_method
		JOIN pg_opfamily f ON f.opfmethod = am.oid AND f.opfname = m.family
			AND f.opfnamespace = 'pg_catalog'::regnamespace
	ORDER BY 1, 2, 3
$$;

COMMENT ON FUNCTION uuidv7_time_ops_status() IS
'each member uuidv7_time_ops adds to PostgreSQL''s operator families for uuid, and whether it is there';

-- Add the members that are missing, and say which.  Run by this script, and
-- after pg_upgrade; needs a superuser, as changing core's families does.
CREATE FUNCTION uuidv7_time_ops_repair() RETURNS SETOF pg_catalog.text
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	m record;
BEGIN
	FOR m IN SELECT * FROM @extschema@.uuidv7_time_ops_status() WHERE NOT present LOOP
		EXECUTE format('ALTER OPERATOR FAMILY pg_catalog.%I USING %I ADD %s',
					   m.family, m.access_method, m.member);
		RETURN NEXT format('%s %s: %s', m.access_method, m.family, m.member);
	END LOOP;
END
$$;

COMMENT ON FUNCTION uuidv7_time_ops_repair() IS
'add the members of PostgreSQL''s operator families for uuid that uuidv7_time_ops needs and that are missing (after pg_upgrade)';

SELECT pg_catalog.count(*) FROM @extschema@.uuidv7_time_ops_repair();
