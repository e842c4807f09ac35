\echo Use "CREATE EXTENSION uuidv7_time_ops" to load this file. \quit

-- Comparison of uuid keys with timestamptz, registered in PostgreSQL's own
-- operator families for uuid (btree uuid_ops, BRIN uuid_minmax_ops and
-- uuid_minmax_multi_ops), so that "id >= t" uses uuid indexes and prunes
-- uuid range partitions.  An instant stands just below the smallest UUIDv7 of
-- its first millisecond at or after it (see src/operators.c): no UUID equals
-- an instant, "<=" means "<" and ">" means ">=".
--
-- Dropping this extension drops the operators and with them every family
-- member that refers to them, leaving core's families as they were.

-- comparison functions (the C functions serve both operators of each pair)

CREATE FUNCTION uuidv7_lt_timestamptz(pg_catalog.uuid, pg_catalog.timestamptz) RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'uuidv7_lt_timestamptz'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuidv7_lt_timestamptz(pg_catalog.uuid, pg_catalog.timestamptz) IS
'implementation of uuid < timestamptz: the UUIDv7 is of an earlier time';

CREATE FUNCTION uuidv7_le_timestamptz(pg_catalog.uuid, pg_catalog.timestamptz) RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'uuidv7_lt_timestamptz'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuidv7_le_timestamptz(pg_catalog.uuid, pg_catalog.timestamptz) IS
'implementation of uuid <= timestamptz: the same as <, as no UUID equals an instant';

CREATE FUNCTION uuidv7_ge_timestamptz(pg_catalog.uuid, pg_catalog.timestamptz) RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'uuidv7_ge_timestamptz'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuidv7_ge_timestamptz(pg_catalog.uuid, pg_catalog.timestamptz) IS
'implementation of uuid >= timestamptz: the UUIDv7 is of the same or a later time';

CREATE FUNCTION uuidv7_gt_timestamptz(pg_catalog.uuid, pg_catalog.timestamptz) RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'uuidv7_ge_timestamptz'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuidv7_gt_timestamptz(pg_catalog.uuid, pg_catalog.timestamptz) IS
'implementation of uuid > timestamptz: the same as >=, as no UUID equals an instant';

CREATE FUNCTION timestamptz_lt_uuidv7(pg_catalog.timestamptz, pg_catalog.uuid) RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'timestamptz_lt_uuidv7'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION timestamptz_lt_uuidv7(pg_catalog.timestamptz, pg_catalog.uuid) IS
'implementation of timestamptz < uuid: the UUIDv7 is of the same or a later time';

CREATE FUNCTION timestamptz_le_uuidv7(pg_catalog.timestamptz, pg_catalog.uuid) RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'timestamptz_lt_uuidv7'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION timestamptz_le_uuidv7(pg_catalog.timestamptz, pg_catalog.uuid) IS
'implementation of timestamptz <= uuid: the same as <, as no UUID equals an instant';

CREATE FUNCTION timestamptz_gt_uuidv7(pg_catalog.timestamptz, pg_catalog.uuid) RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'timestamptz_gt_uuidv7'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION timestamptz_gt_uuidv7(pg_catalog.timestamptz, pg_catalog.uuid) IS
'implementation of timestamptz > uuid: the UUIDv7 is of an earlier time';

CREATE FUNCTION timestamptz_ge_uuidv7(pg_catalog.timestamptz, pg_catalog.uuid) RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'timestamptz_gt_uuidv7'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION timestamptz_ge_uuidv7(pg_catalog.timestamptz, pg_catalog.uuid) IS
'implementation of timestamptz >= uuid: the same as >, as no UUID equals an instant';

-- btree support

CREATE FUNCTION uuidv7_cmp_timestamptz(pg_catalog.uuid, pg_catalog.timestamptz) RETURNS pg_catalog.int4
AS 'MODULE_PATHNAME', 'uuidv7_cmp_timestamptz'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuidv7_cmp_timestamptz(pg_catalog.uuid, pg_catalog.timestamptz) IS
'btree comparison of a uuid with an instant: -1 or 1, never 0';

CREATE FUNCTION timestamptz_cmp_uuidv7(pg_catalog.timestamptz, pg_catalog.uuid) RETURNS pg_catalog.int4
AS 'MODULE_PATHNAME', 'timestamptz_cmp_uuidv7'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION timestamptz_cmp_uuidv7(pg_catalog.timestamptz, pg_catalog.uuid) IS
'btree comparison of an instant with a uuid: -1 or 1, never 0';

-- STABLE as core's in_range for timestamptz: day and month offsets follow TimeZone
CREATE FUNCTION uuidv7_in_range(val pg_catalog.uuid, base pg_catalog.uuid, "offset" pg_catalog.interval,
								sub pg_catalog.bool, less pg_catalog.bool) RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'uuidv7_in_range'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuidv7_in_range(pg_catalog.uuid, pg_catalog.uuid, pg_catalog.interval, pg_catalog.bool, pg_catalog.bool) IS
'in_range support for RANGE window frames with an interval offset over ORDER BY a UUIDv7 key, by embedded time';

-- operators

CREATE OPERATOR < (
	LEFTARG = pg_catalog.uuid, RIGHTARG = pg_catalog.timestamptz,
	FUNCTION = uuidv7_lt_timestamptz,
	COMMUTATOR = >, NEGATOR = >=,
	RESTRICT = pg_catalog.scalarltsel, JOIN = pg_catalog.scalarltjoinsel
);
COMMENT ON OPERATOR < (pg_catalog.uuid, pg_catalog.timestamptz) IS 'UUIDv7 of an earlier time than';

CREATE OPERATOR <= (
	LEFTARG = pg_catalog.uuid, RIGHTARG = pg_catalog.timestamptz,
	FUNCTION = uuidv7_le_timestamptz,
	COMMUTATOR = >=, NEGATOR = >,
	RESTRICT = pg_catalog.scalarlesel, JOIN = pg_catalog.scalarlejoinsel
);
COMMENT ON OPERATOR <= (pg_catalog.uuid, pg_catalog.timestamptz) IS 'UUIDv7 of an earlier time than (as <)';

CREATE OPERATOR >= (
	LEFTARG = pg_catalog.uuid, RIGHTARG = pg_catalog.timestamptz,
	FUNCTION = uuidv7_ge_timestamptz,
	COMMUTATOR = <=, NEGATOR = <,
	RESTRICT = pg_catalog.scalargesel, JOIN = pg_catalog.scalargejoinsel
);
COMMENT ON OPERATOR >= (pg_catalog.uuid, pg_catalog.timestamptz) IS 'UUIDv7 of the same or a later time than';

CREATE OPERATOR > (
	LEFTARG = pg_catalog.uuid, RIGHTARG = pg_catalog.timestamptz,
	FUNCTION = uuidv7_gt_timestamptz,
	COMMUTATOR = <, NEGATOR = <=,
	RESTRICT = pg_catalog.scalargtsel, JOIN = pg_catalog.scalargtjoinsel
);
COMMENT ON OPERATOR > (pg_catalog.uuid, pg_catalog.timestamptz) IS 'UUIDv7 of the same or a later time than (as >=)';

CREATE OPERATOR < (
	LEFTARG = pg_catalog.timestamptz, RIGHTARG = pg_catalog.uuid,
	FUNCTION = timestamptz_lt_uuidv7,
	COMMUTATOR = >, NEGATOR = >=,
	RESTRICT = pg_catalog.scalarltsel, JOIN = pg_catalog.scalarltjoinsel
);
COMMENT ON OPERATOR < (pg_catalog.timestamptz, pg_catalog.uuid) IS 'earlier than or the same time as the UUIDv7';

CREATE OPERATOR <= (
	LEFTARG = pg_catalog.timestamptz, RIGHTARG = pg_catalog.uuid,
	FUNCTION = timestamptz_le_uuidv7,
	COMMUTATOR = >=, NEGATOR = >,
	RESTRICT = pg_catalog.scalarlesel, JOIN = pg_catalog.scalarlejoinsel
);
COMMENT ON OPERATOR <= (pg_catalog.timestamptz, pg_catalog.uuid) IS 'earlier than or the same time as the UUIDv7 (as <)';

CREATE OPERATOR >= (
	LEFTARG = pg_catalog.timestamptz, RIGHTARG = pg_catalog.uuid,
	FUNCTION = timestamptz_ge_uuidv7,
	COMMUTATOR = <=, NEGATOR = <,
	RESTRICT = pg_catalog.scalargesel, JOIN = pg_catalog.scalargejoinsel
);
COMMENT ON OPERATOR >= (pg_catalog.timestamptz, pg_catalog.uuid) IS 'later than the time of the UUIDv7 (as >)';

CREATE OPERATOR > (
	LEFTARG = pg_catalog.timestamptz, RIGHTARG = pg_catalog.uuid,
	FUNCTION = timestamptz_gt_uuidv7,
	COMMUTATOR = <, NEGATOR = <=,
	RESTRICT = pg_catalog.scalargtsel, JOIN = pg_catalog.scalargtjoinsel
);
COMMENT ON OPERATOR > (pg_catalog.timestamptz, pg_catalog.uuid) IS 'later than the time of the UUIDv7';

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
			format('OPERATOR %s @extschema@.%s (%s, %s)', o.strategy, o.name, t.l, t.r)
		FROM families f
			CROSS JOIN operators o
			JOIN (VALUES ('uuid', 'timestamptz'), ('timestamptz', 'uuid')) AS t(l, r)
				ON f.access_method = 'btree' OR t.l = 'uuid'
			JOIN pg_operator op ON op.oprname = o.name AND op.oprleft = t.l::regtype
				AND op.oprright = t.r::regtype AND op.oprnamespace = '@extschema@'::regnamespace
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
