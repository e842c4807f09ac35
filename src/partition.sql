-- partitioning

CREATE FUNCTION uuidv7_partition_bounds(from_ts pg_catalog.timestamptz, upto_ts pg_catalog.timestamptz,
										step pg_catalog.interval,
										OUT period_start pg_catalog.timestamptz,
										OUT period_end pg_catalog.timestamptz,
										OUT lower_bound pg_catalog.uuid,
										OUT upper_bound pg_catalog.uuid)
RETURNS SETOF record
--#if c
AS 'MODULE_PATHNAME', 'uuidv7_partition_bounds'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
--#else
LANGUAGE sql STABLE STRICT PARALLEL SAFE
AS $function$
SELECT * FROM @extschema@.uuidv7_partition_bounds($1, $2, $3, pg_catalog.current_setting('TimeZone'))
$function$;
--#endif

COMMENT ON FUNCTION uuidv7_partition_bounds(pg_catalog.timestamptz, pg_catalog.timestamptz, pg_catalog.interval) IS
'periods of [from_ts, upto_ts), months and days by the session''s time zone, with their exact UUIDv7 partition bounds';

CREATE FUNCTION uuidv7_partition_bounds(from_ts pg_catalog.timestamptz, upto_ts pg_catalog.timestamptz,
										step pg_catalog.interval, zone pg_catalog.text,
										OUT period_start pg_catalog.timestamptz,
										OUT period_end pg_catalog.timestamptz,
										OUT lower_bound pg_catalog.uuid,
										OUT upper_bound pg_catalog.uuid)
RETURNS SETOF record
--#if c
AS 'MODULE_PATHNAME', 'uuidv7_partition_bounds'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--#else
-- (the periods of the grid counted from from_ts: src/grid.sql)
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $function$
SELECT * FROM uuidv7_internal.uuidv7_grid_periods(from_ts, step, zone, from_ts, upto_ts)
$function$;
--#endif

COMMENT ON FUNCTION uuidv7_partition_bounds(pg_catalog.timestamptz, pg_catalog.timestamptz, pg_catalog.interval, pg_catalog.text) IS
'periods of [from_ts, upto_ts), months and days by the given time zone, with their exact UUIDv7 partition bounds';

-- Whether a type is uuid or a domain over it at any depth (uuid7, and a
-- domain of the user's over uuid7): what a table's key must be for the
-- partition functions, the doctor and the metrics.
CREATE FUNCTION uuidv7_internal.uuidv7_is_uuid_type(typ pg_catalog.oid)
RETURNS pg_catalog.bool
LANGUAGE sql STABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $function$
	WITH RECURSIVE base(oid) AS (
		SELECT typ
		UNION ALL
		SELECT t.typbasetype FROM pg_type t JOIN base b ON t.oid = b.oid WHERE t.typtype = 'd')
	SELECT EXISTS (SELECT FROM base WHERE oid = 'pg_catalog.uuid'::regtype)
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_is_uuid_type(pg_catalog.oid) IS
'whether a type is uuid or a domain over uuid at any depth (uuid7, a domain over uuid7)';

-- The schema and name of a table range-partitioned on a single uuid column
-- (a domain over uuid such as uuid7 counts), or error 42809: the check every
-- partition function makes of its parent.
CREATE FUNCTION uuidv7_internal.uuidv7_partitioned_parent(parent pg_catalog.regclass,
										  OUT parent_schema pg_catalog.name,
										  OUT parent_name pg_catalog.name)
LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	key_type oid;
BEGIN
	SELECT n.nspname, c.relname, a.atttypid
	INTO parent_schema, parent_name, key_type
	FROM pg_class c
		JOIN pg_namespace n ON n.oid = c.relnamespace
		LEFT JOIN pg_partitioned_table p ON p.partrelid = c.oid
			AND p.partstrat = 'r' AND p.partnatts = 1 AND p.partattrs[0] <> 0
		LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = p.partattrs[0]
	WHERE c.oid = parent;
	IF NOT FOUND THEN
		RAISE EXCEPTION 'relation with OID % does not exist', parent::oid
			USING ERRCODE = 'undefined_table';
	END IF;

	IF key_type IS NULL OR NOT uuidv7_internal.uuidv7_is_uuid_type(key_type) THEN
		RAISE EXCEPTION 'table "%" is not range-partitioned on a single uuid column', parent_name
			USING ERRCODE = 'wrong_object_type',
				  HINT = 'Partition it with PARTITION BY RANGE (id) on a uuid or uuid7 column.';
	END IF;
END
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_partitioned_parent(pg_catalog.regclass) IS
'schema and name of a table range-partitioned on a single uuid or uuid7 column; error 42809 for any other table';

-- The DDL of the partitions of the periods of a grid that meet a span.
-- Names are the parent's with the period start in the zone, as precise as
-- the step: _p2025 (years), _p2025_01 (months), _p2025_01_15 (days),
-- _p2025_01_15_13 (hours), _p2025_01_15_1330 (minutes), _p2025_01_15_133005
-- (seconds); the first of two periods that start at the same local time
-- when clocks fall back gets _dst.
CREATE FUNCTION uuidv7_internal.uuidv7_period_ddl(parent_schema pg_catalog.name, parent_name pg_catalog.name,
												  anchor pg_catalog.timestamptz, step pg_catalog.interval,
												  zone pg_catalog.text,
												  from_ts pg_catalog.timestamptz, upto_ts pg_catalog.timestamptz,
												  OUT partition_name pg_catalog.text,
												  OUT lower_bound pg_catalog.uuid,
												  OUT upper_bound pg_catalog.uuid,
												  OUT ddl pg_catalog.text)
RETURNS SETOF record
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	months int := extract(year FROM step) * 12 + extract(month FROM step);
	days int := extract(day FROM step);
	seconds numeric := extract(epoch FROM step - make_interval(months => months, days => days));
	name_format text;
	local_start timestamp;
	child_name text;
	period record;
BEGIN
	name_format := CASE
		WHEN seconds = 0 AND days = 0 AND months % 12 = 0 THEN 'YYYY'
		WHEN seconds = 0 AND days = 0 THEN 'YYYY_MM'
		WHEN seconds = 0 THEN 'YYYY_MM_DD'
		WHEN seconds % 3600 = 0 THEN 'YYYY_MM_DD_HH24'
		WHEN seconds % 60 = 0 THEN 'YYYY_MM_DD_HH24MI'
		WHEN seconds % 1 = 0 THEN 'YYYY_MM_DD_HH24MISS'
		ELSE 'YYYY_MM_DD_HH24MISS_MS'
	END;

	FOR period IN
		SELECT * FROM uuidv7_internal.uuidv7_grid_periods(anchor, step, zone, from_ts, upto_ts)
	LOOP
		local_start := period.period_start AT TIME ZONE zone;
		-- (hours that a clock change of half an hour moves off the hour are
		-- named with their minutes: two would have one name)
		child_name := parent_name || '_p' || to_char(local_start, CASE WHEN name_format = 'YYYY_MM_DD_HH24'
																		AND extract(minute FROM local_start) <> 0
																	   THEN 'YYYY_MM_DD_HH24MI' ELSE name_format END);
		IF (local_start AT TIME ZONE zone) <> period.period_start THEN
			child_name := child_name || '_dst';
		END IF;
		IF octet_length(child_name) > 63 THEN
			RAISE EXCEPTION 'partition name "%" is longer than 63 bytes', child_name
				USING ERRCODE = 'name_too_long',
					  HINT = 'Rename the parent table to a shorter name, or create the partitions from uuidv7_partition_bounds() with names of your own.';
		END IF;
		partition_name := format('%I.%I', parent_schema, child_name);
		lower_bound := period.lower_bound;
		upper_bound := period.upper_bound;
		ddl := format('CREATE TABLE %s PARTITION OF %I.%I FOR VALUES FROM (%L) TO (%L);',
					  partition_name, parent_schema, parent_name, lower_bound, upper_bound);
		RETURN NEXT;
	END LOOP;
END
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_period_ddl(pg_catalog.name, pg_catalog.name, pg_catalog.timestamptz, pg_catalog.interval, pg_catalog.text, pg_catalog.timestamptz, pg_catalog.timestamptz) IS
'names, bounds and CREATE TABLE ... PARTITION OF statements of the periods of a grid that meet a span of time';

-- The DDL of the partitions of a span, on the table's grid (see
-- uuidv7_table_grid): a from_ts inside a period means that period.  The
-- step and zone may be left out where the table has a grid; given, they
-- must agree with it.
CREATE FUNCTION uuidv7_partition_ddl(parent pg_catalog.regclass, from_ts pg_catalog.timestamptz,
									 upto_ts pg_catalog.timestamptz, step pg_catalog.interval DEFAULT NULL,
									 zone pg_catalog.text DEFAULT NULL,
									 OUT partition_name pg_catalog.text,
									 OUT lower_bound pg_catalog.uuid,
									 OUT upper_bound pg_catalog.uuid,
									 OUT ddl pg_catalog.text)
RETURNS SETOF record
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	checked record;
	grid record;
BEGIN
	IF parent IS NULL OR from_ts IS NULL OR upto_ts IS NULL THEN
		RETURN;
	END IF;
	-- (assignments, not queries: an error names no SQL of ours)
	checked := uuidv7_internal.uuidv7_partitioned_parent(parent);
	grid := uuidv7_internal.uuidv7_call_grid(parent, step, zone, from_ts, upto_ts);
	RETURN QUERY
		SELECT * FROM uuidv7_internal.uuidv7_period_ddl(checked.parent_schema, checked.parent_name,
														grid.anchor, grid.step, grid.zone, from_ts, upto_ts);
END
$function$;

COMMENT ON FUNCTION uuidv7_partition_ddl(pg_catalog.regclass, pg_catalog.timestamptz, pg_catalog.timestamptz, pg_catalog.interval, pg_catalog.text) IS
'CREATE TABLE ... PARTITION OF statements, with literal UUIDv7 bounds, for the partitions of a span of time on the table''s grid';

-- The partitions of a table range-partitioned on a uuid key, each with the
-- period of time its bounds stand for, read from the bounds themselves (not
-- from names): NULL where a bound is MINVALUE or MAXVALUE or not a UUIDv7,
-- and for the DEFAULT partition, which comes last.  A partition that is
-- itself partitioned is listed by its bounds in this parent.  The C edition
-- reads them from the partition descriptor (src/partitions.c), the SQL
-- edition deparses each partition's bound.
CREATE FUNCTION uuidv7_partitions(parent pg_catalog.regclass,
								  OUT partition pg_catalog.regclass,
								  OUT period_start pg_catalog.timestamptz,
								  OUT period_end pg_catalog.timestamptz,
								  OUT lower_bound pg_catalog.uuid,
								  OUT upper_bound pg_catalog.uuid)
RETURNS SETOF record
--#if c
AS 'MODULE_PATHNAME', 'uuidv7_partitions'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
--#else
LANGUAGE sql STABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $function$
	SELECT b.child, @extschema@.uuidv7_timestamp(b.lo), @extschema@.uuidv7_timestamp(b.hi), b.lo, b.hi
	FROM uuidv7_internal.uuidv7_partitioned_parent(parent) AS checked,
		LATERAL (SELECT i.inhrelid::regclass AS child,
					 -- a bound of one uuid column deparses as DEFAULT or as
					 -- FOR VALUES FROM (x) TO (y), each of x and y MINVALUE,
					 -- MAXVALUE or a quoted uuid of 36 characters: cut out by
					 -- position (a regular expression of the same took many
					 -- times as long as the deparsing)
					 CASE WHEN starts_with(e, 'FOR VALUES FROM (''') THEN substr(e, 19, 36)::uuid END AS lo,
					 CASE WHEN e LIKE '%'')' THEN substr(e, length(e) - 37, 36)::uuid END AS hi,
					 coalesce(e = 'DEFAULT', false) AS is_default
				 FROM pg_inherits i
					 JOIN pg_class c ON c.oid = i.inhrelid,
					 LATERAL pg_get_expr(c.relpartbound, c.oid) AS e
				 -- (none where a REPEATABLE READ snapshot still shows a
				 -- partition dropped since)
				 WHERE i.inhparent = parent AND e IS NOT NULL) AS b
	ORDER BY b.is_default, b.lo NULLS FIRST, b.hi
$function$;
--#endif

COMMENT ON FUNCTION uuidv7_partitions(pg_catalog.regclass) IS
'partitions of a table range-partitioned on a uuid key, with the period of time and the uuid bounds of each, in order';
-- pg_partman 5.x: p_time_encoder and p_time_decoder of create_parent()
-- (not LEAKPROOF: a time out of range, or text that is no UUID, raises)

CREATE FUNCTION uuidv7_partman_encoder(ts pg_catalog.timestamptz) RETURNS pg_catalog.uuid
--#if c
AS 'MODULE_PATHNAME', 'uuidv7_min'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--#else
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT @extschema@.uuidv7_min($1) $$;
--#endif

COMMENT ON FUNCTION uuidv7_partman_encoder(pg_catalog.timestamptz) IS
'pg_partman time encoder for a UUIDv7 control column: the smallest UUIDv7 of a partition boundary (same as uuidv7_min)';

CREATE FUNCTION uuidv7_partman_decoder(id pg_catalog.text) RETURNS pg_catalog.timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT @extschema@.uuidv7_timestamp($1::pg_catalog.uuid) $$;

COMMENT ON FUNCTION uuidv7_partman_decoder(pg_catalog.text) IS
'pg_partman time decoder for a UUIDv7 control column: the time of a UUIDv7 given as text (NULL for other UUIDs)';
