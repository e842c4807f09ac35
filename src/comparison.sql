-- time comparisons: uuid against timestamptz with <, <=, >= and >, both ways
--
-- Each is one comparison of uuids with a bound of the instant, which a btree
-- or BRIN index on a uuid column serves and by which partitions on a uuid
-- key are pruned, with no operator family touched: any role may create
-- them, in either edition, and under row-level security they keep the index
-- (uuid's own comparisons are LEAKPROOF).  The SQL edition's functions are
-- those comparisons, which the planner inlines; the C edition's are
-- LEAKPROOF C functions (src/operators.c) whose support function
-- (src/comparison.c) returns the same comparisons when the planner
-- simplifies them, parsing nothing (a planner hook adds to a query's lower
-- bound relative to now() a constant one: src/plantime.c).  They answer as uuidv7_time_ops's C
-- operators: an instant on a whole millisecond equals the smallest UUIDv7 of
-- that millisecond, any other instant stands just below the smallest UUIDv7
-- of the next one, instants before 1970 just below the smallest UUIDv7 of
-- 1970, and instants after the last millisecond 48 bits hold above every
-- UUID (no error for any instant):
--
--   id < t    id <= uuidv7_last_before(t)
--   id <= t   id <= uuidv7_last_not_after(t)
--   id > t    id > uuidv7_last_not_after(t)
--   id >= t   id >= uuidv7_first_not_before(t), the lower bound of t's
--             partition, so that a range prunes to exactly its partitions;
--             false for every UUID after the year 10889, which no UUID is
--             above (so this one is not STRICT: the planner inlines a STRICT
--             function only if its SQL is strict, and an AND is not)

-- the bounds

CREATE FUNCTION uuidv7_first_not_before(ts pg_catalog.timestamptz) RETURNS pg_catalog.uuid
--#if c
AS 'MODULE_PATHNAME', 'uuidv7_first_not_before'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
--#else
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $function$
SELECT @extschema@.uuidv7_min(LEAST(GREATEST($1, '1970-01-01 00:00:00+00'::pg_catalog.timestamptz),
									'10889-08-02 05:31:50.655+00'::pg_catalog.timestamptz))
$function$;
--#endif

COMMENT ON FUNCTION uuidv7_first_not_before(pg_catalog.timestamptz) IS
'smallest UUID that the time comparisons place at or after an instant up to 10889-08-02 05:31:50.655 UTC (uuidv7_min of the instant, or of 1970 for an earlier one)';

CREATE FUNCTION uuidv7_last_before(ts pg_catalog.timestamptz) RETURNS pg_catalog.uuid
--#if c
AS 'MODULE_PATHNAME', 'uuidv7_last_before'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
--#else
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $function$
SELECT CASE WHEN $1 OPERATOR(pg_catalog.>) '10889-08-02 05:31:50.655+00'::pg_catalog.timestamptz
			THEN 'ffffffff-ffff-ffff-ffff-ffffffffffff'::pg_catalog.uuid
			-- the UUID just below xxxxxxxx-xxxx-7000-8000-000000000000
			ELSE (pg_catalog.left(@extschema@.uuidv7_first_not_before($1)::pg_catalog.text, 19)
				  OPERATOR(pg_catalog.||) '7fff-ffffffffffff')::pg_catalog.uuid
	   END
$function$;
--#endif

COMMENT ON FUNCTION uuidv7_last_before(pg_catalog.timestamptz) IS
'largest UUID that the time comparisons place before an instant';

CREATE FUNCTION uuidv7_last_not_after(ts pg_catalog.timestamptz) RETURNS pg_catalog.uuid
--#if c
AS 'MODULE_PATHNAME', 'uuidv7_last_not_after'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
--#else
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $function$
SELECT CASE WHEN $1 OPERATOR(pg_catalog.>) '10889-08-02 05:31:50.655+00'::pg_catalog.timestamptz
			THEN 'ffffffff-ffff-ffff-ffff-ffffffffffff'::pg_catalog.uuid
			-- an instant on a whole millisecond equals its first UUIDv7
			WHEN @extschema@.uuidv7_timestamp(@extschema@.uuidv7_first_not_before($1)) OPERATOR(pg_catalog.=) $1
			THEN @extschema@.uuidv7_first_not_before($1)
			ELSE @extschema@.uuidv7_last_before($1)
	   END
$function$;
--#endif

COMMENT ON FUNCTION uuidv7_last_not_after(pg_catalog.timestamptz) IS
'largest UUID that the time comparisons place at or before an instant';

-- the comparisons
--#if c

-- (the C edition's: each turned by its support function, when planned, into
-- the comparison of uuids its SQL edition is written as; src/comparison.c)
CREATE FUNCTION uuidv7_internal.uuidv7_time_support(req pg_catalog.internal) RETURNS pg_catalog.internal
AS 'MODULE_PATHNAME', 'uuidv7_time_support'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_time_support(pg_catalog.internal) IS
'planner support of the time comparisons: each becomes the comparison of uuids its SQL edition is written as';
--#endif

CREATE FUNCTION uuidv7_time_lt(id pg_catalog.uuid, ts pg_catalog.timestamptz) RETURNS pg_catalog.bool
--#if c
AS 'MODULE_PATHNAME', 'uuidv7_lt_timestamptz'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF SUPPORT uuidv7_internal.uuidv7_time_support;
--#else
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $function$ SELECT $1 OPERATOR(pg_catalog.<=) @extschema@.uuidv7_last_before($2) $function$;
--#endif

COMMENT ON FUNCTION uuidv7_time_lt(pg_catalog.uuid, pg_catalog.timestamptz) IS
'implementation of uuid < timestamptz: the UUIDv7 is of an earlier time';

CREATE FUNCTION uuidv7_time_le(id pg_catalog.uuid, ts pg_catalog.timestamptz) RETURNS pg_catalog.bool
--#if c
AS 'MODULE_PATHNAME', 'uuidv7_le_timestamptz'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF SUPPORT uuidv7_internal.uuidv7_time_support;
--#else
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $function$ SELECT $1 OPERATOR(pg_catalog.<=) @extschema@.uuidv7_last_not_after($2) $function$;
--#endif

COMMENT ON FUNCTION uuidv7_time_le(pg_catalog.uuid, pg_catalog.timestamptz) IS
'implementation of uuid <= timestamptz: as <, and also the smallest UUIDv7 of a time on a whole millisecond';

CREATE FUNCTION uuidv7_time_ge(id pg_catalog.uuid, ts pg_catalog.timestamptz) RETURNS pg_catalog.bool
--#if c
AS 'MODULE_PATHNAME', 'uuidv7_ge_timestamptz'
LANGUAGE C IMMUTABLE PARALLEL SAFE LEAKPROOF SUPPORT uuidv7_internal.uuidv7_time_support;
--#else
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $function$
SELECT $1 OPERATOR(pg_catalog.>=) @extschema@.uuidv7_first_not_before($2)
	AND ($2 OPERATOR(pg_catalog.<=) '10889-08-02 05:31:50.655+00'::pg_catalog.timestamptz OR $1 IS NULL)
$function$;
--#endif

COMMENT ON FUNCTION uuidv7_time_ge(pg_catalog.uuid, pg_catalog.timestamptz) IS
'implementation of uuid >= timestamptz: the UUIDv7 is of the same or a later time';

CREATE FUNCTION uuidv7_time_gt(id pg_catalog.uuid, ts pg_catalog.timestamptz) RETURNS pg_catalog.bool
--#if c
AS 'MODULE_PATHNAME', 'uuidv7_gt_timestamptz'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF SUPPORT uuidv7_internal.uuidv7_time_support;
--#else
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $function$ SELECT $1 OPERATOR(pg_catalog.>) @extschema@.uuidv7_last_not_after($2) $function$;
--#endif

COMMENT ON FUNCTION uuidv7_time_gt(pg_catalog.uuid, pg_catalog.timestamptz) IS
'implementation of uuid > timestamptz: as >=, but not the smallest UUIDv7 of a time on a whole millisecond';

CREATE FUNCTION uuidv7_time_lt(ts pg_catalog.timestamptz, id pg_catalog.uuid) RETURNS pg_catalog.bool
--#if c
AS 'MODULE_PATHNAME', 'timestamptz_lt_uuidv7_0_3'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF SUPPORT uuidv7_internal.uuidv7_time_support;
--#else
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $function$ SELECT $2 OPERATOR(pg_catalog.>) @extschema@.uuidv7_last_not_after($1) $function$;
--#endif

COMMENT ON FUNCTION uuidv7_time_lt(pg_catalog.timestamptz, pg_catalog.uuid) IS
'implementation of timestamptz < uuid: the commutator of uuid > timestamptz';

CREATE FUNCTION uuidv7_time_le(ts pg_catalog.timestamptz, id pg_catalog.uuid) RETURNS pg_catalog.bool
--#if c
AS 'MODULE_PATHNAME', 'timestamptz_le_uuidv7'
LANGUAGE C IMMUTABLE PARALLEL SAFE LEAKPROOF SUPPORT uuidv7_internal.uuidv7_time_support;
--#else
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $function$
SELECT $2 OPERATOR(pg_catalog.>=) @extschema@.uuidv7_first_not_before($1)
	AND ($1 OPERATOR(pg_catalog.<=) '10889-08-02 05:31:50.655+00'::pg_catalog.timestamptz OR $2 IS NULL)
$function$;
--#endif

COMMENT ON FUNCTION uuidv7_time_le(pg_catalog.timestamptz, pg_catalog.uuid) IS
'implementation of timestamptz <= uuid: the commutator of uuid >= timestamptz';

CREATE FUNCTION uuidv7_time_ge(ts pg_catalog.timestamptz, id pg_catalog.uuid) RETURNS pg_catalog.bool
--#if c
AS 'MODULE_PATHNAME', 'timestamptz_ge_uuidv7'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF SUPPORT uuidv7_internal.uuidv7_time_support;
--#else
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $function$ SELECT $2 OPERATOR(pg_catalog.<=) @extschema@.uuidv7_last_not_after($1) $function$;
--#endif

COMMENT ON FUNCTION uuidv7_time_ge(pg_catalog.timestamptz, pg_catalog.uuid) IS
'implementation of timestamptz >= uuid: the commutator of uuid <= timestamptz';

CREATE FUNCTION uuidv7_time_gt(ts pg_catalog.timestamptz, id pg_catalog.uuid) RETURNS pg_catalog.bool
--#if c
AS 'MODULE_PATHNAME', 'timestamptz_gt_uuidv7'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF SUPPORT uuidv7_internal.uuidv7_time_support;
--#else
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $function$ SELECT $2 OPERATOR(pg_catalog.<=) @extschema@.uuidv7_last_before($1) $function$;
--#endif

COMMENT ON FUNCTION uuidv7_time_gt(pg_catalog.timestamptz, pg_catalog.uuid) IS
'implementation of timestamptz > uuid: the commutator of uuid < timestamptz';

-- The operators, where the schema has none of these: those of
-- uuidv7_time_ops 0.2.0, made before this version, answer the same and stay
-- (views and rules refer to them), as do ours from an earlier run of the
-- plain script; anyone else's are left alone, with a WARNING.
DO $time_operators$
DECLARE
	existing text;
	foreign_ones boolean;
BEGIN
	SELECT pg_catalog.string_agg(o.oid::pg_catalog.regoperator::pg_catalog.text, ', ' ORDER BY o.oid),
		pg_catalog.bool_or(o.oprcode::pg_catalog.regprocedure::pg_catalog.text !~ '^(uuidv7_time_(lt|le|ge|gt)|(uuidv7_(lt|le|ge|gt)_timestamptz)|(timestamptz_(lt|le|ge|gt)_uuidv7))[(]')
	INTO existing, foreign_ones
	FROM pg_catalog.pg_operator o
	WHERE o.oprnamespace OPERATOR(pg_catalog.=) '@extschema@'::pg_catalog.regnamespace
		AND o.oprname OPERATOR(pg_catalog.=) ANY ('{<,<=,>=,>}'::pg_catalog.name[])
		AND ((o.oprleft OPERATOR(pg_catalog.=) 'pg_catalog.uuid'::pg_catalog.regtype
			  AND o.oprright OPERATOR(pg_catalog.=) 'pg_catalog.timestamptz'::pg_catalog.regtype)
			 OR (o.oprleft OPERATOR(pg_catalog.=) 'pg_catalog.timestamptz'::pg_catalog.regtype
				 AND o.oprright OPERATOR(pg_catalog.=) 'pg_catalog.uuid'::pg_catalog.regtype));
	IF existing IS NOT NULL THEN
		IF foreign_ones THEN
			RAISE WARNING 'operators % already exist, skipping the time comparisons of uuidv7', existing;
		END IF;
		RETURN;
	END IF;

	CREATE OPERATOR @extschema@.< (
		LEFTARG = pg_catalog.uuid, RIGHTARG = pg_catalog.timestamptz, FUNCTION = @extschema@.uuidv7_time_lt,
		COMMUTATOR = >, NEGATOR = >=, RESTRICT = pg_catalog.scalarltsel, JOIN = pg_catalog.scalarltjoinsel);
	CREATE OPERATOR @extschema@.<= (
		LEFTARG = pg_catalog.uuid, RIGHTARG = pg_catalog.timestamptz, FUNCTION = @extschema@.uuidv7_time_le,
		COMMUTATOR = >=, NEGATOR = >, RESTRICT = pg_catalog.scalarlesel, JOIN = pg_catalog.scalarlejoinsel);
	CREATE OPERATOR @extschema@.>= (
		LEFTARG = pg_catalog.uuid, RIGHTARG = pg_catalog.timestamptz, FUNCTION = @extschema@.uuidv7_time_ge,
		COMMUTATOR = <=, NEGATOR = <, RESTRICT = pg_catalog.scalargesel, JOIN = pg_catalog.scalargejoinsel);
	CREATE OPERATOR @extschema@.> (
		LEFTARG = pg_catalog.uuid, RIGHTARG = pg_catalog.timestamptz, FUNCTION = @extschema@.uuidv7_time_gt,
		COMMUTATOR = <, NEGATOR = <=, RESTRICT = pg_catalog.scalargtsel, JOIN = pg_catalog.scalargtjoinsel);
	CREATE OPERATOR @extschema@.< (
		LEFTARG = pg_catalog.timestamptz, RIGHTARG = pg_catalog.uuid, FUNCTION = @extschema@.uuidv7_time_lt,
		COMMUTATOR = >, NEGATOR = >=, RESTRICT = pg_catalog.scalarltsel, JOIN = pg_catalog.scalarltjoinsel);
	CREATE OPERATOR @extschema@.<= (
		LEFTARG = pg_catalog.timestamptz, RIGHTARG = pg_catalog.uuid, FUNCTION = @extschema@.uuidv7_time_le,
		COMMUTATOR = >=, NEGATOR = >, RESTRICT = pg_catalog.scalarlesel, JOIN = pg_catalog.scalarlejoinsel);
	CREATE OPERATOR @extschema@.>= (
		LEFTARG = pg_catalog.timestamptz, RIGHTARG = pg_catalog.uuid, FUNCTION = @extschema@.uuidv7_time_ge,
		COMMUTATOR = <=, NEGATOR = <, RESTRICT = pg_catalog.scalargesel, JOIN = pg_catalog.scalargejoinsel);
	CREATE OPERATOR @extschema@.> (
		LEFTARG = pg_catalog.timestamptz, RIGHTARG = pg_catalog.uuid, FUNCTION = @extschema@.uuidv7_time_gt,
		COMMUTATOR = <, NEGATOR = <=, RESTRICT = pg_catalog.scalargtsel, JOIN = pg_catalog.scalargtjoinsel);

	COMMENT ON OPERATOR @extschema@.< (pg_catalog.uuid, pg_catalog.timestamptz) IS
	'UUIDv7 of an earlier time than';
	COMMENT ON OPERATOR @extschema@.<= (pg_catalog.uuid, pg_catalog.timestamptz) IS
	'UUIDv7 of an earlier time than, or the first UUIDv7 of a time on a whole millisecond';
	COMMENT ON OPERATOR @extschema@.>= (pg_catalog.uuid, pg_catalog.timestamptz) IS
	'UUIDv7 of the same or a later time than';
	COMMENT ON OPERATOR @extschema@.> (pg_catalog.uuid, pg_catalog.timestamptz) IS
	'UUIDv7 of the same or a later time than, but not the first UUIDv7 of a time on a whole millisecond';
	COMMENT ON OPERATOR @extschema@.< (pg_catalog.timestamptz, pg_catalog.uuid) IS
	'earlier than or the same time as the UUIDv7, but not a time on a whole millisecond against its first UUIDv7';
	COMMENT ON OPERATOR @extschema@.<= (pg_catalog.timestamptz, pg_catalog.uuid) IS
	'earlier than or the same time as the UUIDv7';
	COMMENT ON OPERATOR @extschema@.>= (pg_catalog.timestamptz, pg_catalog.uuid) IS
	'later than the time of the UUIDv7, or a time on a whole millisecond against its first UUIDv7';
	COMMENT ON OPERATOR @extschema@.> (pg_catalog.timestamptz, pg_catalog.uuid) IS
	'later than the time of the UUIDv7';
END
$time_operators$;
