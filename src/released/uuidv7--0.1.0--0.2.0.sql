\echo Use "ALTER EXTENSION uuidv7 UPDATE TO '0.2.0'" to load this file. \quit

-- partitioning

CREATE FUNCTION uuidv7_partition_bounds(from_ts pg_catalog.timestamptz, upto_ts pg_catalog.timestamptz,
										step pg_catalog.interval,
										OUT period_start pg_catalog.timestamptz,
										OUT period_end pg_catalog.timestamptz,
										OUT lower_bound pg_catalog.uuid,
										OUT upper_bound pg_catalog.uuid)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'uuidv7_partition_bounds'
LANGUAGE C STABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuidv7_partition_bounds(pg_catalog.timestamptz, pg_catalog.timestamptz, pg_catalog.interval) IS
'periods of [from_ts, upto_ts), months and days by the session''s time zone, with their exact UUIDv7 partition bounds';

CREATE FUNCTION uuidv7_partition_bounds(from_ts pg_catalog.timestamptz, upto_ts pg_catalog.timestamptz,
										step pg_catalog.interval, zone pg_catalog.text,
										OUT period_start pg_catalog.timestamptz,
										OUT period_end pg_catalog.timestamptz,
										OUT lower_bound pg_catalog.uuid,
										OUT upper_bound pg_catalog.uuid)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'uuidv7_partition_bounds'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuidv7_partition_bounds(pg_catalog.timestamptz, pg_catalog.timestamptz, pg_catalog.interval, pg_catalog.text) IS
'periods of [from_ts, upto_ts), months and days by the given time zone, with their exact UUIDv7 partition bounds';

-- The DDL of the partitions of a span.  Names are the parent's with the
-- period start in the zone, as precise as the step: _p2025 (years),
-- _p2025_01 (months), _p2025_01_15 (days), _p2025_01_15_13 (hours),
-- _p2025_01_15_1330 (minutes), _p2025_01_15_133005 (seconds); the first of two
-- periods that start at the same local time when clocks fall back gets _dst.
CREATE FUNCTION uuidv7_partition_ddl(parent pg_catalog.regclass, from_ts pg_catalog.timestamptz,
									 upto_ts pg_catalog.timestamptz, step pg_catalog.interval,
									 zone pg_catalog.text DEFAULT pg_catalog.current_setting('TimeZone'),
									 OUT partition_name pg_catalog.text,
									 OUT lower_bound pg_catalog.uuid,
									 OUT upper_bound pg_catalog.uuid,
									 OUT ddl pg_catalog.text)
RETURNS SETOF record
LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	parent_schema name;
	parent_name name;
	key_type oid;
	months int := extract(year FROM step) * 12 + extract(month FROM step);
	days int := extract(day FROM step);
	seconds numeric := extract(epoch FROM step - make_interval(months => months, days => days));
	name_format text;
	local_start timestamp;
	child_name text;
	period record;
BEGIN
	SELECT n.nspname, c.relname, a.atttypid
	INTO parent_schema, parent_name, key_type
	FROM pg_class c
		JOIN pg_namespace n ON n.oid = c.relnamespace
		LEFT JOIN pg_partitioned_table p ON p.partrelid = c.oid
			AND p.partstrat = 'r' AND p.partnatts = 1 AND p.partattrs[0] <> 0
		LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = p.partattrs[0]
	WHERE c.oid = parent;

	-- a domain over uuid (uuid7) counts as uuid
	WHILE key_type IS NOT NULL AND key_type <> 'pg_catalog.uuid'::regtype LOOP
		SELECT nullif(typbasetype, 0) INTO key_type FROM pg_type WHERE oid = key_type;
	END LOOP;
	IF key_type IS NULL THEN
		RAISE EXCEPTION 'table "%" is not range-partitioned on a single uuid column', parent
			USING ERRCODE = 'wrong_object_type',
				  HINT = 'Partition it with PARTITION BY RANGE (id) on a uuid or uuid7 column.';
	END IF;

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
		SELECT * FROM @extschema@.uuidv7_partition_bounds(from_ts, upto_ts, step, zone)
	LOOP
		local_start := period.period_start AT TIME ZONE zone;
		child_name := parent_name || '_p' || to_char(local_start, name_format);
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

COMMENT ON FUNCTION uuidv7_partition_ddl(pg_catalog.regclass, pg_catalog.timestamptz, pg_catalog.timestamptz, pg_catalog.interval, pg_catalog.text) IS
'CREATE TABLE ... PARTITION OF statements, with literal UUIDv7 bounds, for the partitions of a span of time';

-- Create the partitions of a span that do not exist yet.  A partition with
-- exactly a period's bounds counts as existing whatever its name.
CREATE FUNCTION uuidv7_create_partitions(parent pg_catalog.regclass, from_ts pg_catalog.timestamptz,
										 upto_ts pg_catalog.timestamptz, step pg_catalog.interval,
										 zone pg_catalog.text DEFAULT pg_catalog.current_setting('TimeZone'),
										 OUT partition_name pg_catalog.text,
										 OUT created pg_catalog.bool)
RETURNS SETOF record
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	part record;
	existing regclass;
BEGIN
	FOR part IN
		SELECT * FROM @extschema@.uuidv7_partition_ddl(parent, from_ts, upto_ts, step, zone)
	LOOP
		SELECT i.inhrelid::regclass INTO existing
		FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
		WHERE i.inhparent = parent
			AND pg_get_expr(c.relpartbound, c.oid) =
				format('FOR VALUES FROM (%L) TO (%L)', part.lower_bound, part.upper_bound);
		IF existing IS NOT NULL THEN
			partition_name := existing::text;
			created := false;
		ELSIF to_regclass(part.partition_name) IS NOT NULL THEN
			RAISE EXCEPTION 'relation % already exists and is not the partition of % from % to %',
				part.partition_name, parent, part.lower_bound, part.upper_bound
				USING ERRCODE = 'duplicate_table';
		ELSE
			EXECUTE part.ddl;
			partition_name := part.partition_name;
			created := true;
		END IF;
		RETURN NEXT;
	END LOOP;
END
$function$;

COMMENT ON FUNCTION uuidv7_create_partitions(pg_catalog.regclass, pg_catalog.timestamptz, pg_catalog.timestamptz, pg_catalog.interval, pg_catalog.text) IS
'create the missing partitions of a span of time of a table range-partitioned on a UUIDv7 key; existing ones are skipped';

-- pg_partman 5.x: p_time_encoder and p_time_decoder of create_parent()

CREATE FUNCTION uuidv7_partman_encoder(ts pg_catalog.timestamptz) RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'uuidv7_min'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuidv7_partman_encoder(pg_catalog.timestamptz) IS
'pg_partman time encoder for a UUIDv7 control column: the smallest UUIDv7 of a partition boundary (same as uuidv7_min)';

CREATE FUNCTION uuidv7_partman_decoder(id pg_catalog.text) RETURNS pg_catalog.timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT @extschema@.uuidv7_timestamp($1::pg_catalog.uuid) $$;

COMMENT ON FUNCTION uuidv7_partman_decoder(pg_catalog.text) IS
'pg_partman time decoder for a UUIDv7 control column: the time of a UUIDv7 given as text (NULL for other UUIDs)';

-- text forms

CREATE FUNCTION uuidv7_to_base32(id pg_catalog.uuid) RETURNS pg_catalog.text
AS 'MODULE_PATHNAME', 'uuidv7_to_base32'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuidv7_to_base32(pg_catalog.uuid) IS
'26-character Crockford base32 of any UUID (the ULID text form), sorting bytewise as the UUID';

CREATE FUNCTION uuidv7_to_base32_grouped(id pg_catalog.uuid) RETURNS pg_catalog.text
AS 'MODULE_PATHNAME', 'uuidv7_to_base32_grouped'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuidv7_to_base32_grouped(pg_catalog.uuid) IS
'lower-case Crockford base32 of any UUID in hyphenated groups of four from the right, for people to read';

CREATE FUNCTION uuidv7_from_base32(base32 pg_catalog.text) RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'uuidv7_from_base32'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuidv7_from_base32(pg_catalog.text) IS
'UUID of Crockford base32 text, upper or lower case, hyphens ignored, I and L read as 1 and O as 0';
