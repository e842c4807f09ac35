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
--
-- LEAKPROOF, as core's uuid_extract_timestamp(): they raise no error for
-- any input (a UUID that is not version 7 gives NULL), so the planner may
-- use an index on them under row-level security.

CREATE FUNCTION uuidv7_timestamp(id pg_catalog.uuid) RETURNS pg_catalog.timestamptz
AS 'MODULE_PATHNAME', 'uuidv7_timestamp'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

COMMENT ON FUNCTION uuidv7_timestamp(pg_catalog.uuid) IS
'time embedded in a UUID version 7, to the millisecond; NULL for any other UUID';

CREATE FUNCTION uuidv7_unix_ms(id pg_catalog.uuid) RETURNS pg_catalog.int8
AS 'MODULE_PATHNAME', 'uuidv7_unix_ms'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

COMMENT ON FUNCTION uuidv7_unix_ms(pg_catalog.uuid) IS
'milliseconds since the Unix epoch embedded in a UUID version 7; NULL for any other UUID';

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

-- domain
--
-- Not LEAKPROOF: its error for a UUID of another version shows the value.

CREATE FUNCTION uuidv7_domain_check(id pg_catalog.uuid) RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'uuidv7_domain_check'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuidv7_domain_check(pg_catalog.uuid) IS
'check of the uuid7 domain: true for a UUID version 7, a check_violation error for any other UUID';

CREATE DOMAIN uuid7 AS pg_catalog.uuid
	CONSTRAINT uuid7_check CHECK (@extschema@.uuidv7_domain_check(VALUE));

COMMENT ON DOMAIN uuid7 IS
'uuid that accepts only RFC 9562 UUIDs of version 7';

-- the transition (and combine) functions of min(uuid) and max(uuid) below
CREATE FUNCTION uuidv7_uuid_smaller(pg_catalog.uuid, pg_catalog.uuid) RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'uuidv7_uuid_smaller'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

COMMENT ON FUNCTION uuidv7_uuid_smaller(pg_catalog.uuid, pg_catalog.uuid) IS
'the smaller of two UUIDs in uuid''s order (the state function of min(uuid))';

CREATE FUNCTION uuidv7_uuid_larger(pg_catalog.uuid, pg_catalog.uuid) RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'uuidv7_uuid_larger'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

COMMENT ON FUNCTION uuidv7_uuid_larger(pg_catalog.uuid, pg_catalog.uuid) IS
'the larger of two UUIDs in uuid''s order (the state function of max(uuid))';

-- compatibility with PostgreSQL 17 and 18, and min() and max() for uuid
--
-- On a server that lacks one of core's UUID functions, create it with core's
-- semantics (those of PostgreSQL 18), so that a schema written for 18 runs
-- unchanged (LEAKPROOF as core's extraction functions are).  Likewise the
-- aggregates min(uuid) and max(uuid), which no release up to 19 has and
-- PostgreSQL's development branch after 19 added.  On a server
-- that has it, create nothing by that name: ours
-- would be shadowed by pg_catalog's or make calls ambiguous.  A function of
-- that signature the user already has in our schema is left alone, with a
-- WARNING (an extension script's NOTICEs never reach the client).

DO $compat$
DECLARE
	sig text;
BEGIN
	FOREACH sig IN ARRAY ARRAY['uuidv7()', 'uuidv7(pg_catalog.interval)',
							   'uuid_extract_timestamp(pg_catalog.uuid)',
							   'uuid_extract_version(pg_catalog.uuid)',
							   'min(pg_catalog.uuid)', 'max(pg_catalog.uuid)']
	LOOP
		CONTINUE WHEN pg_catalog.to_regprocedure('pg_catalog.' OPERATOR(pg_catalog.||) sig) IS NOT NULL;
		IF pg_catalog.to_regprocedure('@extschema@.' OPERATOR(pg_catalog.||) sig) IS NOT NULL THEN
			RAISE WARNING 'function %.% already exists, skipping its compatibility version',
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
			LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
			COMMENT ON FUNCTION @extschema@.uuid_extract_timestamp(pg_catalog.uuid) IS
			'extract the time of a UUID version 1 or 7 (compatibility version of the function of PostgreSQL 18)';
		WHEN 'uuid_extract_version(pg_catalog.uuid)' THEN
			CREATE FUNCTION @extschema@.uuid_extract_version(pg_catalog.uuid) RETURNS pg_catalog.int2
			AS 'MODULE_PATHNAME', 'uuidv7_compat_extract_version'
			LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
			COMMENT ON FUNCTION @extschema@.uuid_extract_version(pg_catalog.uuid) IS
			'extract the version of an RFC 9562 UUID (compatibility version of the function of PostgreSQL 17)';
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
$compat$;
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

-- The schema and name of a table range-partitioned on a single uuid column
-- (a domain over uuid such as uuid7 counts), or error 42809: the check every
-- partition function makes of its parent.
CREATE FUNCTION uuidv7_partitioned_parent(parent pg_catalog.regclass,
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

	WHILE key_type IS NOT NULL AND key_type <> 'pg_catalog.uuid'::regtype LOOP
		SELECT nullif(typbasetype, 0) INTO key_type FROM pg_type WHERE oid = key_type;
	END LOOP;
	IF key_type IS NULL THEN
		RAISE EXCEPTION 'table "%" is not range-partitioned on a single uuid column', parent_name
			USING ERRCODE = 'wrong_object_type',
				  HINT = 'Partition it with PARTITION BY RANGE (id) on a uuid or uuid7 column.';
	END IF;
END
$function$;

COMMENT ON FUNCTION uuidv7_partitioned_parent(pg_catalog.regclass) IS
'schema and name of a table range-partitioned on a single uuid or uuid7 column; error 42809 for any other table';

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
	months int := extract(year FROM step) * 12 + extract(month FROM step);
	days int := extract(day FROM step);
	seconds numeric := extract(epoch FROM step - make_interval(months => months, days => days));
	name_format text;
	local_start timestamp;
	child_name text;
	period record;
BEGIN
	SELECT * INTO parent_schema, parent_name FROM @extschema@.uuidv7_partitioned_parent(parent);

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

-- Take locks on tables for upkeep, each in its mode, in short tries: a
-- lock request that waits holds back every later request that conflicts
-- with it, so a creator that waited for a long-running writer or reader
-- would stall all the sessions queued behind it.  Each try takes all the
-- locks in order and waits at most 50 ms (or the caller's lock_timeout, if
-- shorter); a try that times out gives back what it took, lets the queue
-- move, and tries again.  The caller's statement_timeout bounds the whole.
-- NULL tables are skipped.
CREATE FUNCTION uuidv7_lock_for_upkeep(tables pg_catalog.regclass[], lock_modes pg_catalog.text[])
RETURNS void
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	caller_timeout text := current_setting('lock_timeout');
	try_timeout text := CASE WHEN caller_timeout::interval = interval '0' OR caller_timeout::interval > interval '50 ms'
							 THEN '50ms' ELSE caller_timeout END;
	statement text;
BEGIN
	IF cardinality(tables) <> cardinality(lock_modes) OR EXISTS (
		SELECT FROM unnest(lock_modes) AS m
		WHERE m IS NULL OR m NOT IN ('SHARE UPDATE EXCLUSIVE', 'SHARE', 'SHARE ROW EXCLUSIVE', 'EXCLUSIVE', 'ACCESS EXCLUSIVE')) THEN
		RAISE EXCEPTION 'invalid lock modes for upkeep: %', lock_modes
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'Give one of SHARE UPDATE EXCLUSIVE, SHARE, SHARE ROW EXCLUSIVE, EXCLUSIVE or ACCESS EXCLUSIVE for each table.';
	END IF;
	SELECT string_agg(format('LOCK TABLE ONLY %s IN %s MODE', t, m), '; ' ORDER BY o)
	INTO statement FROM unnest(tables, lock_modes) WITH ORDINALITY AS u(t, m, o) WHERE t IS NOT NULL;
	IF statement IS NULL THEN
		RETURN;
	END IF;
	LOOP
		BEGIN
			PERFORM set_config('lock_timeout', try_timeout, true);
			EXECUTE statement;
			PERFORM set_config('lock_timeout', caller_timeout, true);
			RETURN;
		EXCEPTION WHEN lock_not_available THEN
			PERFORM pg_sleep(0.01);
		END;
	END LOOP;
END
$function$;

COMMENT ON FUNCTION uuidv7_lock_for_upkeep(pg_catalog.regclass[], pg_catalog.text[]) IS
'lock tables, each in its mode, for partition upkeep, in short tries that never hold back the sessions queued behind for long (used by uuidv7_create_partitions and uuidv7_drop_partitions)';

-- Create the partitions of a span that do not exist yet.  A partition with
-- exactly a period's bounds counts as existing whatever its name.
--
-- Rows of a new period that wait in the DEFAULT partition (ids made by
-- clients, backfills, a scheduler that fell behind) would make a plain
-- CREATE TABLE ... PARTITION OF fail.  They are moved in the same
-- transaction, as pg_partman's partition_data does: the period's table is
-- made standalone, with a CHECK of its bounds, the rows are moved out of the
-- DEFAULT partition into it in one statement, and it is attached; the CHECK
-- spares ATTACH a scan of the rows and PostgreSQL builds the parent's
-- indexes on it once, after the rows are in.  "moved" counts them.
--
-- While the application writes, rows of a new period keep arriving in the
-- DEFAULT partition after the move, and ATTACH would find them there.  So
-- the bulk of the rows is moved first, beside the writers; then writers
-- are held back (SHARE ROW EXCLUSIVE on the parent, so readers of other
-- partitions go on; ACCESS EXCLUSIVE on the DEFAULT partition, which ATTACH
-- takes anyway to scan it) for the moment it takes to move the few rows that
-- arrived meanwhile and attach.  Held back, not failed: an INSERT that waited
-- on the parent is routed afresh once the partition is attached.  Those locks
-- are taken in short tries (uuidv7_lock_for_upkeep), so that waiting for a
-- long writer never holds back the writers queued behind it.
--
-- Upkeep of one parent takes turns (creators, retention): each takes SHARE
-- UPDATE EXCLUSIVE on the parent, which conflicts with itself but not with
-- reads or writes, and which only a role with rights on the table can take,
-- and only then decides what exists (at READ COMMITTED each statement sees
-- what committed before it began), so that schedulers with overlapping spans
-- both succeed and each period is made once.
CREATE FUNCTION uuidv7_create_partitions(parent pg_catalog.regclass, from_ts pg_catalog.timestamptz,
										 upto_ts pg_catalog.timestamptz, step pg_catalog.interval,
										 zone pg_catalog.text DEFAULT pg_catalog.current_setting('TimeZone'),
										 OUT partition_name pg_catalog.text,
										 OUT created pg_catalog.bool,
										 OUT moved pg_catalog.int8)
RETURNS SETOF record
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	part record;
	default_partition regclass;
	names regclass[];
	los uuid[];
	his uuid[];
	n int;
	k int := 1;
	key_column name;
	stored_columns text;
	move_from text;
	move_into text;
	-- what is reported, period by period, and the periods still to attach
	out_name text[] := '{}';
	out_created bool[] := '{}';
	out_moved int8[] := '{}';
	pending int[] := '{}';
	pending_lo uuid[] := '{}';
	pending_hi uuid[] := '{}';
	slot int;
	more int8;
BEGIN
	EXECUTE format('LOCK TABLE ONLY %s IN SHARE UPDATE EXCLUSIVE MODE', parent);

	SELECT i.inhrelid::regclass INTO default_partition
	FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
	WHERE i.inhparent = parent AND pg_get_expr(c.relpartbound, c.oid) = 'DEFAULT';
	IF default_partition IS NOT NULL THEN
		SELECT a.attname INTO key_column
		FROM pg_partitioned_table p
			JOIN pg_attribute a ON a.attrelid = p.partrelid AND a.attnum = p.partattrs[0]
		WHERE p.partrelid = parent;
		-- generated columns are computed again as the rows arrive
		SELECT string_agg(quote_ident(a.attname), ', ' ORDER BY a.attnum) INTO stored_columns
		FROM pg_attribute a
		WHERE a.attrelid = parent AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = '';
		-- moving a period's rows (bounds $1 and $2) into a table is
		-- move_from || the table || move_into
		move_from := format('WITH rows AS (DELETE FROM %s WHERE %I >= $1 AND %I < $2 RETURNING %s) INSERT INTO ',
							default_partition, key_column, key_column, stored_columns);
		move_into := format(' (%s) SELECT %s FROM rows', stored_columns, stored_columns);
	END IF;

	-- The partitions there are, read once, in order of their bounds.  The
	-- periods come in order too, and partitions never overlap, so one walk
	-- finds for each period the partition with its bounds, or the first one
	-- that reaches into it: k skips those that end before the period starts.
	SELECT array_agg(p.partition ORDER BY p.lower_bound NULLS FIRST),
		array_agg(p.lower_bound ORDER BY p.lower_bound NULLS FIRST),
		array_agg(p.upper_bound ORDER BY p.lower_bound NULLS FIRST)
	INTO names, los, his
	FROM @extschema@.uuidv7_partitions(parent) p
	WHERE p.partition IS DISTINCT FROM default_partition;
	n := coalesce(array_length(names, 1), 0);

	FOR part IN
		SELECT * FROM @extschema@.uuidv7_partition_ddl(parent, from_ts, upto_ts, step, zone)
	LOOP
		WHILE k <= n AND his[k] IS NOT NULL AND his[k] <= part.lower_bound LOOP
			k := k + 1;
		END LOOP;
		moved := 0;
		IF k <= n AND los[k] = part.lower_bound AND his[k] = part.upper_bound THEN
			out_name := out_name || names[k]::text;
			out_created := out_created || false;
			out_moved := out_moved || 0::int8;
			CONTINUE;
		ELSIF to_regclass(part.partition_name) IS NOT NULL THEN
			RAISE EXCEPTION 'relation % already exists and is not the partition of % for the period from % to %',
				part.partition_name, parent,
				@extschema@.uuidv7_timestamp(part.lower_bound), @extschema@.uuidv7_timestamp(part.upper_bound)
				USING ERRCODE = 'duplicate_table',
					  DETAIL = format('The period''s bounds are %s and %s.', part.lower_bound, part.upper_bound);
		END IF;

		-- PostgreSQL would refuse an overlap too, but name only the tables
		IF k <= n AND (los[k] IS NULL OR los[k] < part.upper_bound) THEN
			RAISE EXCEPTION 'partition % of % for the period from % to % would overlap partition %',
				part.partition_name, parent,
				@extschema@.uuidv7_timestamp(part.lower_bound), @extschema@.uuidv7_timestamp(part.upper_bound),
				names[k]
				USING ERRCODE = 'invalid_object_definition',
					  DETAIL = CASE WHEN @extschema@.uuidv7_timestamp(los[k]) IS NOT NULL
										 AND @extschema@.uuidv7_timestamp(his[k]) IS NOT NULL
						  THEN format('Partition %s holds the period from %s to %s.', names[k],
									  @extschema@.uuidv7_timestamp(los[k]), @extschema@.uuidv7_timestamp(his[k]))
						  ELSE format('Partition %s has the bounds %s to %s.', names[k],
									  coalesce(los[k]::text, 'MINVALUE'), coalesce(his[k]::text, 'MAXVALUE'))
						  END;
		END IF;

		out_name := out_name || part.partition_name;
		out_created := out_created || true;
		IF default_partition IS NULL THEN
			EXECUTE part.ddl;
			out_moved := out_moved || 0::int8;
		ELSE
			-- the period's table, standalone, and the rows that wait for it
			EXECUTE format('CREATE TABLE %s (LIKE %s INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING GENERATED'
						   ' INCLUDING STORAGE INCLUDING COMMENTS)', part.partition_name, parent);
			EXECUTE format('ALTER TABLE %s ADD CONSTRAINT uuidv7_period CHECK (%I IS NOT NULL AND %I >= %L AND %I < %L)',
						   part.partition_name, key_column, key_column, part.lower_bound, key_column, part.upper_bound);
			EXECUTE move_from || part.partition_name || move_into USING part.lower_bound, part.upper_bound;
			GET DIAGNOSTICS more = ROW_COUNT;
			out_moved := out_moved || more;
			pending := pending || array_length(out_name, 1);
			pending_lo := pending_lo || part.lower_bound;
			pending_hi := pending_hi || part.upper_bound;
		END IF;
	END LOOP;

	IF array_length(pending, 1) > 0 THEN
		PERFORM @extschema@.uuidv7_lock_for_upkeep(ARRAY[parent, default_partition],
												   ARRAY['SHARE ROW EXCLUSIVE', 'ACCESS EXCLUSIVE']);
		FOR j IN 1..array_length(pending, 1) LOOP
			slot := pending[j];
			-- the rows that arrived since the move: no writer adds more now
			EXECUTE move_from || out_name[slot] || move_into USING pending_lo[j], pending_hi[j];
			GET DIAGNOSTICS more = ROW_COUNT;
			out_moved[slot] := out_moved[slot] + more;
			EXECUTE format('ALTER TABLE %s ATTACH PARTITION %s FOR VALUES FROM (%L) TO (%L)',
						   parent, out_name[slot], pending_lo[j], pending_hi[j]);
			EXECUTE format('ALTER TABLE %s DROP CONSTRAINT uuidv7_period', out_name[slot]);
		END LOOP;
	END IF;

	FOR slot IN 1..coalesce(array_length(out_name, 1), 0) LOOP
		partition_name := out_name[slot];
		created := out_created[slot];
		moved := out_moved[slot];
		RETURN NEXT;
	END LOOP;
END
$function$;

COMMENT ON FUNCTION uuidv7_create_partitions(pg_catalog.regclass, pg_catalog.timestamptz, pg_catalog.timestamptz, pg_catalog.interval, pg_catalog.text) IS
'create the missing partitions of a span of time of a table range-partitioned on a UUIDv7 key, moving in the rows of their periods that wait in the DEFAULT partition; existing ones are skipped';

-- The partitions of a table range-partitioned on a uuid key, each with the
-- period of time its bounds stand for, read from the bounds themselves (not
-- from names): NULL where a bound is MINVALUE or MAXVALUE or not a UUIDv7,
-- and for the DEFAULT partition, which comes last.  A partition that is
-- itself partitioned is listed by its bounds in this parent.
CREATE FUNCTION uuidv7_partitions(parent pg_catalog.regclass,
								  OUT partition pg_catalog.regclass,
								  OUT period_start pg_catalog.timestamptz,
								  OUT period_end pg_catalog.timestamptz,
								  OUT lower_bound pg_catalog.uuid,
								  OUT upper_bound pg_catalog.uuid)
RETURNS SETOF record
LANGUAGE sql STABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $function$
	SELECT b.child, @extschema@.uuidv7_timestamp(b.lo), @extschema@.uuidv7_timestamp(b.hi), b.lo, b.hi
	FROM @extschema@.uuidv7_partitioned_parent(parent) AS checked,
		LATERAL (SELECT i.inhrelid::regclass AS child, m[1]::uuid AS lo, m[2]::uuid AS hi,
					 c.relpartbound IS NOT NULL AND pg_get_expr(c.relpartbound, c.oid) = 'DEFAULT' AS is_default
				 FROM pg_inherits i
					 JOIN pg_class c ON c.oid = i.inhrelid,
					 LATERAL regexp_match(pg_get_expr(c.relpartbound, c.oid),
										  '^FOR VALUES FROM \((?:''([0-9a-f-]{36})''|MINVALUE)\) TO \((?:''([0-9a-f-]{36})''|MAXVALUE)\)$') AS m
				 WHERE i.inhparent = parent) AS b
	ORDER BY b.is_default, b.lo NULLS FIRST, b.hi
$function$;

COMMENT ON FUNCTION uuidv7_partitions(pg_catalog.regclass) IS
'partitions of a table range-partitioned on a uuid key, with the period of time and the uuid bounds of each, in order';

-- Retire old periods: drop, or detach and keep as plain tables, the
-- partitions whose whole range ends at or before older_than (their upper
-- bound is a UUIDv7 at or below uuidv7_min(older_than)); never the DEFAULT
-- partition, one with a MAXVALUE or non-UUIDv7 upper bound, or one that
-- straddles older_than.  Idempotent; takes turns with uuidv7_create_partitions
-- on the same lock of the parent.  (DETACH ... CONCURRENTLY cannot run inside a
-- function: run it by hand on the names uuidv7_partitions gives.)
CREATE FUNCTION uuidv7_drop_partitions(parent pg_catalog.regclass, older_than pg_catalog.timestamptz,
									   detach_only pg_catalog.bool DEFAULT false,
									   OUT partition pg_catalog.text,
									   OUT action pg_catalog.text)
RETURNS SETOF record
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	cut uuid := @extschema@.uuidv7_min(older_than);
	old record;
BEGIN
	EXECUTE format('LOCK TABLE ONLY %s IN SHARE UPDATE EXCLUSIVE MODE', parent);
	IF EXISTS (SELECT FROM @extschema@.uuidv7_partitions(parent) p
			   WHERE p.period_end IS NOT NULL AND p.upper_bound <= cut) THEN
		-- DETACH and DROP take ACCESS EXCLUSIVE on the parent: taken in
		-- short tries, so that waiting never holds back the queue behind it
		PERFORM @extschema@.uuidv7_lock_for_upkeep(ARRAY[parent], ARRAY['ACCESS EXCLUSIVE']);
	END IF;
	FOR old IN
		SELECT p.partition AS child FROM @extschema@.uuidv7_partitions(parent) p
		WHERE p.period_end IS NOT NULL AND p.upper_bound <= cut
	LOOP
		partition := old.child::text;
		IF detach_only THEN
			EXECUTE format('ALTER TABLE %s DETACH PARTITION %s', parent, old.child);
			action := 'detached';
		ELSE
			EXECUTE format('DROP TABLE %s', old.child);
			action := 'dropped';
		END IF;
		RETURN NEXT;
	END LOOP;
END
$function$;

COMMENT ON FUNCTION uuidv7_drop_partitions(pg_catalog.regclass, pg_catalog.timestamptz, pg_catalog.bool) IS
'drop, or detach and keep, the partitions of a table partitioned on a UUIDv7 key whose whole range ends at or before a time';

-- Raise 25001 inside a transaction block, with a hint, for the procedures
-- that commit between their steps (their own COMMIT would fail there with a
-- message that does not say what to do)
CREATE FUNCTION uuidv7_forbid_transaction_block(procedure_name pg_catalog.text) RETURNS void
AS 'MODULE_PATHNAME', 'uuidv7_forbid_transaction_block'
LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;

COMMENT ON FUNCTION uuidv7_forbid_transaction_block(pg_catalog.text) IS
'raise 25001 if called inside a transaction block (used by the procedures that commit between their steps)';

-- Turn a live table keyed by UUIDv7 into a table range-partitioned on that
-- key, of the same name, without rewriting its rows: the table itself
-- becomes the partition of the periods its rows fall in, up to the end of
-- the current one, and the next periods are made ahead.  A procedure, so
-- that it commits between its steps: the scans (keys that are not version 7,
-- the CHECK of the v7 rule for a plain uuid key, the CHECK of the bounds that
-- spares ATTACH a scan) run under SHARE UPDATE EXCLUSIVE, beside reads and
-- writes, and ACCESS EXCLUSIVE is held only for the catalog swap: rename the
-- table and its indexes, create the partitioned table of the old name LIKE
-- it, attach the old one, carry over owner, grants, comment, row security and
-- policies.  (No SET clause: a procedure with one cannot commit; each
-- transaction sets its own search_path.)
CREATE PROCEDURE uuidv7_adopt_table(tbl pg_catalog.regclass, step pg_catalog.interval,
									zone pg_catalog.text DEFAULT pg_catalog.current_setting('TimeZone'),
									periods_ahead pg_catalog.int4 DEFAULT 3)
LANGUAGE plpgsql
AS $procedure$
DECLARE
	schema_name name;
	table_name name;
	kept_name text;
	relkind "char";
	key_column name;
	key_type oid;
	plain_uuid boolean;
	rule_check text;
	bounds_check text := 'uuidv7_adopt_bounds';
	not_v7 bigint;
	oldest timestamptz;
	newest timestamptz;
	months int;
	days int;
	seconds numeric;
	anchor timestamptz;
	lower_bound uuid;
	upper_bound uuid;
	upper_time timestamptz;
	parent regclass;
	kept regclass;
	idx record;
	acl record;
	pol record;
BEGIN
	-- (before anything else: the caller's search_path must not choose the
	-- functions and operators this calls)
	PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
	PERFORM @extschema@.uuidv7_forbid_transaction_block('uuidv7_adopt_table');
	IF tbl IS NULL OR step IS NULL OR zone IS NULL OR periods_ahead IS NULL THEN
		RAISE EXCEPTION 'uuidv7_adopt_table() takes no NULL argument'
			USING ERRCODE = 'null_value_not_allowed';
	END IF;
	IF periods_ahead < 0 THEN
		RAISE EXCEPTION 'periods_ahead must not be negative' USING ERRCODE = 'invalid_parameter_value';
	END IF;
	-- the step and zone are checked before anything changes
	PERFORM @extschema@.uuidv7_partition_bounds(now(), now() + step, step, zone);
	months := extract(year FROM step) * 12 + extract(month FROM step);
	days := extract(day FROM step);
	seconds := extract(epoch FROM step - make_interval(months => months, days => days));

	SELECT n.nspname, c.relname, c.relkind INTO schema_name, table_name, relkind
	FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = tbl;
	IF relkind <> 'r' OR EXISTS (SELECT FROM pg_inherits WHERE inhrelid = tbl OR inhparent = tbl) THEN
		RAISE EXCEPTION 'table "%" is not a plain table', table_name
			USING ERRCODE = 'wrong_object_type',
				  DETAIL = 'Only a table that is neither partitioned nor a partition nor in an inheritance tree can be adopted.';
	END IF;
	SELECT a.attname, a.atttypid INTO key_column, key_type
	FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
	WHERE i.indrelid = tbl AND i.indisprimary AND i.indnatts = 1;
	plain_uuid := key_type = 'pg_catalog.uuid'::regtype;
	WHILE key_type IS NOT NULL AND key_type <> 'pg_catalog.uuid'::regtype LOOP
		SELECT nullif(typbasetype, 0) INTO key_type FROM pg_type WHERE oid = key_type;
	END LOOP;
	IF key_type IS NULL THEN
		RAISE EXCEPTION 'table "%" has no primary key of a single uuid column', table_name
			USING ERRCODE = 'wrong_object_type';
	END IF;
	IF EXISTS (SELECT FROM pg_attribute WHERE attrelid = tbl AND attidentity <> '' AND NOT attisdropped) THEN
		RAISE EXCEPTION 'table "%" has an identity column', table_name
			USING ERRCODE = 'feature_not_supported',
				  HINT = 'Turn it into a column with a sequence default (ALTER COLUMN ... DROP IDENTITY, then SET DEFAULT nextval(...)) first.';
	END IF;
	kept_name := table_name || '_adopted';
	IF octet_length(kept_name) > 63 OR to_regclass(format('%I.%I', schema_name, kept_name)) IS NOT NULL THEN
		RAISE EXCEPTION 'cannot name the adopted table "%"', kept_name
			USING ERRCODE = 'duplicate_table',
				  DETAIL = 'The name is taken or longer than 63 bytes.';
	END IF;

	-- every key must be a UUIDv7: a plain uuid key is scanned (ACCESS SHARE)
	-- and then keeps the rule as a validated CHECK; a uuid7 key has it
	rule_check := left(table_name, 50) || '_uuidv7_key';
	IF plain_uuid THEN
		EXECUTE format('SELECT count(*) FROM %s WHERE @extschema@.uuidv7_timestamp(%I) IS NULL', tbl, key_column)
			INTO not_v7;
		IF not_v7 > 0 THEN
			RAISE EXCEPTION 'table "%" has % keys that are not version 7 UUIDs', table_name, not_v7
				USING ERRCODE = 'check_violation',
					  HINT = format('List them with SELECT %I FROM %s WHERE uuidv7_timestamp(%I) IS NULL; a time-partitioned table cannot hold them (see "From bigserial or version 4 keys" in the README).',
									key_column, tbl, key_column);
		END IF;
		COMMIT;
		PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
		IF NOT EXISTS (SELECT FROM pg_constraint WHERE conrelid = tbl AND conname = rule_check) THEN
			EXECUTE format('ALTER TABLE %s ADD CONSTRAINT %I CHECK (@extschema@.uuidv7_timestamp(%I) IS NOT NULL) NOT VALID',
						   tbl, rule_check, key_column);
			COMMIT;
			PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
		END IF;
		EXECUTE format('ALTER TABLE %s VALIDATE CONSTRAINT %I', tbl, rule_check);
		COMMIT;
		PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
	END IF;

	-- the periods the rows fall in, counted from the start of the oldest
	-- row's year, quarter, month, week, day, hour or minute, up to the end of
	-- the period of now (or of the newest row, if later)
	EXECUTE format('SELECT @extschema@.uuidv7_timestamp((SELECT %1$I FROM %2$s ORDER BY %1$I LIMIT 1)), '
				   '@extschema@.uuidv7_timestamp((SELECT %1$I FROM %2$s ORDER BY %1$I DESC LIMIT 1))', key_column, tbl)
		INTO oldest, newest;
	anchor := date_trunc(CASE
							 WHEN months > 0 AND months % 12 = 0 AND days = 0 AND seconds = 0 THEN 'year'
							 WHEN months > 0 AND months % 3 = 0 AND days = 0 AND seconds = 0 THEN 'quarter'
							 WHEN months > 0 THEN 'month'
							 WHEN days > 0 AND days % 7 = 0 AND seconds = 0 THEN 'week'
							 WHEN days > 0 OR seconds >= 3600 THEN 'day'
							 WHEN seconds >= 60 THEN 'hour'
							 ELSE 'minute'
						 END, least(coalesce(oldest, now()), now()), zone);
	SELECT b.lower_bound INTO lower_bound
	FROM @extschema@.uuidv7_partition_bounds(anchor, anchor + step, step, zone) b;
	SELECT b.upper_bound, b.period_end INTO upper_bound, upper_time
	FROM @extschema@.uuidv7_partition_bounds(anchor, greatest(now(), newest) + interval '1 microsecond', step, zone) b
	ORDER BY b.period_start DESC LIMIT 1;

	-- the bounds as a CHECK, validated beside reads and writes, so that
	-- ATTACH need not scan under its lock
	IF NOT EXISTS (SELECT FROM pg_constraint WHERE conrelid = tbl AND conname = bounds_check) THEN
		EXECUTE format('ALTER TABLE %s ADD CONSTRAINT %I CHECK (%I >= %L AND %I < %L) NOT VALID',
					   tbl, bounds_check, key_column, lower_bound, key_column, upper_bound);
		COMMIT;
		PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
	END IF;
	EXECUTE format('ALTER TABLE %s VALIDATE CONSTRAINT %I', tbl, bounds_check);
	COMMIT;
	PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);

	-- the swap, under ACCESS EXCLUSIVE until the commit
	EXECUTE format('LOCK TABLE %s IN ACCESS EXCLUSIVE MODE', tbl);
	EXECUTE format('ALTER TABLE %s RENAME TO %I', tbl, kept_name);
	kept := tbl;
	-- its indexes' names go with it, so that the parent's take the old ones
	FOR idx IN SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = kept LOOP
		EXECUTE format('ALTER INDEX %I.%I RENAME TO %I', schema_name, idx.relname,
					   left(CASE WHEN starts_with(idx.relname, table_name || '_')
								 THEN kept_name || substr(idx.relname, length(table_name) + 1)
								 ELSE idx.relname || '_adopted' END, 63));
	END LOOP;
	EXECUTE format('CREATE TABLE %I.%I (LIKE %s INCLUDING ALL) PARTITION BY RANGE (%I)',
				   schema_name, table_name, kept, key_column);
	parent := format('%I.%I', schema_name, table_name)::regclass;
	EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', parent, bounds_check);
	EXECUTE format('ALTER TABLE %s ATTACH PARTITION %s FOR VALUES FROM (%L) TO (%L)',
				   parent, kept, lower_bound, upper_bound);
	EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', kept, bounds_check);

	EXECUTE format('ALTER TABLE %s OWNER TO %I', parent, (SELECT pg_get_userbyid(relowner) FROM pg_class WHERE oid = kept));
	EXECUTE format('COMMENT ON TABLE %s IS %L', parent, obj_description(kept, 'pg_class'));
	FOR acl IN
		SELECT a.grantee, a.privilege_type, a.is_grantable
		FROM pg_class c, LATERAL aclexplode(c.relacl) a WHERE c.oid = kept
	LOOP
		EXECUTE format('GRANT %s ON %s TO %s%s', acl.privilege_type, parent,
					   CASE WHEN acl.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(pg_get_userbyid(acl.grantee)) END,
					   CASE WHEN acl.is_grantable THEN ' WITH GRANT OPTION' ELSE '' END);
	END LOOP;
	FOR acl IN
		SELECT t.attname, a.grantee, a.privilege_type, a.is_grantable
		FROM pg_attribute t, LATERAL aclexplode(t.attacl) a WHERE t.attrelid = kept AND t.attnum > 0
	LOOP
		EXECUTE format('GRANT %s (%I) ON %s TO %s%s', acl.privilege_type, acl.attname, parent,
					   CASE WHEN acl.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(pg_get_userbyid(acl.grantee)) END,
					   CASE WHEN acl.is_grantable THEN ' WITH GRANT OPTION' ELSE '' END);
	END LOOP;
	IF (SELECT relrowsecurity FROM pg_class WHERE oid = kept) THEN
		EXECUTE format('ALTER TABLE %s ENABLE ROW LEVEL SECURITY', parent);
	END IF;
	IF (SELECT relforcerowsecurity FROM pg_class WHERE oid = kept) THEN
		EXECUTE format('ALTER TABLE %s FORCE ROW LEVEL SECURITY', parent);
	END IF;
	FOR pol IN SELECT * FROM pg_policy WHERE polrelid = kept LOOP
		EXECUTE format('CREATE POLICY %I ON %s AS %s FOR %s TO %s%s%s', pol.polname, parent,
					   CASE WHEN pol.polpermissive THEN 'PERMISSIVE' ELSE 'RESTRICTIVE' END,
					   CASE pol.polcmd WHEN 'r' THEN 'SELECT' WHEN 'a' THEN 'INSERT' WHEN 'w' THEN 'UPDATE'
									   WHEN 'd' THEN 'DELETE' ELSE 'ALL' END,
					   (SELECT string_agg(CASE WHEN r = 0 THEN 'PUBLIC' ELSE quote_ident(pg_get_userbyid(r)) END, ', ')
						FROM unnest(pol.polroles) r),
					   ' USING (' || pg_get_expr(pol.polqual, pol.polrelid) || ')',
					   ' WITH CHECK (' || pg_get_expr(pol.polwithcheck, pol.polrelid) || ')');
	END LOOP;
	COMMIT;
	PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);

	-- the next periods, ahead of the rows that will need them
	IF periods_ahead > 0 THEN
		PERFORM count(*) FROM @extschema@.uuidv7_create_partitions(parent, upper_time, upper_time + step * periods_ahead, step, zone);
	END IF;
END
$procedure$;

COMMENT ON PROCEDURE uuidv7_adopt_table(pg_catalog.regclass, pg_catalog.interval, pg_catalog.text, pg_catalog.int4) IS
'turn a table keyed by UUIDv7 into a table of the same name range-partitioned on that key, without rewriting its rows: it becomes the partition of its periods, and the next ones are made';

-- A health check of what the extension is used for, on what the calling
-- role may read: each finding with how bad it is, what it is about, what is
-- wrong and how to fix it.  Read-only.
CREATE FUNCTION uuidv7_doctor(OUT severity pg_catalog.text, OUT object pg_catalog.text,
							  OUT problem pg_catalog.text, OUT fix pg_catalog.text)
RETURNS SETOF record
LANGUAGE plpgsql STABLE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	t record;
	has_rows boolean;
	time_ops_schema name;
BEGIN
	-- partitioned tables on a uuid key whose partitions end within a week
	-- (rows after that go to the DEFAULT partition, or fail)
	FOR t IN
		SELECT p.parent, max(l.period_end) AS last_end,
			(array_agg(l.period_end - l.period_start ORDER BY l.lower_bound DESC)
				FILTER (WHERE l.period_end IS NOT NULL))[1] AS last_step,
			coalesce(bool_or(l.upper_bound IS NULL AND l.lower_bound IS NOT NULL), false) AS open_ended
		FROM (SELECT c.oid::regclass AS parent
			  FROM pg_class c JOIN pg_partitioned_table pt ON pt.partrelid = c.oid
				  JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = pt.partattrs[0]
				  JOIN pg_type ty ON ty.oid = a.atttypid
			  WHERE pt.partstrat = 'r' AND pt.partnatts = 1
				  AND (ty.oid = 'pg_catalog.uuid'::regtype OR ty.typbasetype = 'pg_catalog.uuid'::regtype)
				  AND NOT c.relispartition
				  AND has_table_privilege(c.oid, 'SELECT, INSERT')) p
			LEFT JOIN LATERAL @extschema@.uuidv7_partitions(p.parent) l ON true
		GROUP BY p.parent
	LOOP
		IF NOT t.open_ended AND (t.last_end IS NULL OR t.last_end < now() + interval '7 days') THEN
			severity := 'warning';
			object := t.parent::text;
			IF t.last_end IS NULL THEN
				problem := 'it has no partition with UUIDv7 bounds';
				fix := format('SELECT * FROM uuidv7_create_partitions(%L, date_trunc(''day'', now()), now() + interval ''1 month'', ''1 day'');',
							  t.parent::text);
			ELSE
				-- on from where they end, by the length of the last period
				-- (calendar months and years, and days across a clock change,
				-- by their names)
				problem := format('its partitions end at %s', t.last_end);
				fix := format('SELECT * FROM uuidv7_create_partitions(%L, %L, now() + interval ''1 month'', %L);',
							  t.parent::text, t.last_end,
							  CASE WHEN t.last_step BETWEEN interval '28 days' AND interval '31 days' THEN '1 month'
								   WHEN t.last_step BETWEEN interval '89 days' AND interval '92 days' THEN '3 months'
								   WHEN t.last_step BETWEEN interval '365 days' AND interval '366 days' THEN '1 year'
								   WHEN t.last_step BETWEEN interval '23 hours' AND interval '25 hours' THEN '1 day'
								   ELSE t.last_step::text END);
			END IF;
			RETURN NEXT;
		END IF;
	END LOOP;

	-- DEFAULT partitions of such tables that hold rows
	FOR t IN
		SELECT i.inhparent::regclass AS parent, i.inhrelid::regclass AS default_partition
		FROM pg_inherits i
			JOIN pg_class c ON c.oid = i.inhrelid
			JOIN pg_partitioned_table pt ON pt.partrelid = i.inhparent
			JOIN pg_attribute a ON a.attrelid = i.inhparent AND a.attnum = pt.partattrs[0]
			JOIN pg_type ty ON ty.oid = a.atttypid
		WHERE pg_get_expr(c.relpartbound, c.oid) = 'DEFAULT' AND pt.partstrat = 'r' AND pt.partnatts = 1
			AND (ty.oid = 'pg_catalog.uuid'::regtype OR ty.typbasetype = 'pg_catalog.uuid'::regtype)
			AND has_table_privilege(c.oid, 'SELECT')
	LOOP
		EXECUTE format('SELECT EXISTS (SELECT 1 FROM %s)', t.default_partition) INTO has_rows;
		IF has_rows THEN
			severity := 'warning';
			object := t.default_partition::text;
			problem := 'the DEFAULT partition holds rows whose period has no partition';
			fix := format('create their periods with uuidv7_create_partitions(%L, ...), which moves the rows in', t.parent::text);
			RETURN NEXT;
		END IF;
	END LOOP;

	-- tables of a million rows or more keyed by a uuid whose histogram keeps
	-- the default number of buckets: PostgreSQL cannot interpolate inside a
	-- bucket of uuids, so a time range narrower than one bucket is
	-- estimated at one row (BENCHMARKS.md section 12)
	IF current_setting('default_statistics_target')::int < 1000 THEN
		FOR t IN
			SELECT c.oid::regclass AS tbl, a.attname, c.relkind = 'p' AS partitioned,
				CASE c.relkind WHEN 'p' THEN (SELECT max(pc.reltuples) FROM pg_partition_tree(c.oid) pt
											   JOIN pg_class pc ON pc.oid = pt.relid WHERE pt.isleaf)
					 ELSE c.reltuples END AS rows
			FROM pg_index i
				JOIN pg_class c ON c.oid = i.indrelid
				JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = i.indkey[0]
				JOIN pg_type ty ON ty.oid = a.atttypid
			WHERE i.indisprimary AND i.indnatts = 1 AND NOT c.relispartition
				AND (ty.oid = 'pg_catalog.uuid'::regtype OR ty.typbasetype = 'pg_catalog.uuid'::regtype)
				AND coalesce(a.attstattarget, -1) < 0
				AND has_table_privilege(c.oid, 'SELECT')
		LOOP
			CONTINUE WHEN t.rows IS NULL OR t.rows < 1000000;
			severity := 'notice';
			object := t.tbl::text;
			problem := format('%s rows%s and %s histogram buckets on its key: the planner estimates a time range narrower than a bucket (about %s rows) at 1 row or at a whole bucket',
							  t.rows::bigint, CASE WHEN t.partitioned THEN ' in its largest partition' ELSE '' END,
							  current_setting('default_statistics_target'),
							  (t.rows / current_setting('default_statistics_target')::int)::bigint);
			fix := format('ALTER TABLE %s ALTER COLUMN %I SET STATISTICS 10000; ANALYZE %s;', t.tbl, t.attname, t.tbl);
			RETURN NEXT;
		END LOOP;
	END IF;

	-- uuidv7_time_ops members that pg_upgrade dropped
	SELECT n.nspname INTO time_ops_schema
	FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'uuidv7_time_ops';
	IF time_ops_schema IS NOT NULL THEN
		FOR t IN EXECUTE format('SELECT * FROM %I.uuidv7_time_ops_status() WHERE NOT present', time_ops_schema) LOOP
			severity := 'error';
			object := format('%s %s: %s', t.access_method, t.family, t.member);
			problem := 'uuidv7_time_ops is missing from PostgreSQL''s operator family: queries by time stop using indexes and pruning';
			fix := format('SELECT * FROM %I.uuidv7_time_ops_repair();', time_ops_schema);
			RETURN NEXT;
		END LOOP;
	END IF;

	-- Citus tables distributed by a column of a domain over uuid such as uuid7
	IF to_regclass('pg_catalog.pg_dist_partition') IS NOT NULL THEN
		FOR t IN EXECUTE
			'SELECT d.logicalrelid::regclass AS tbl, a.attname, a.atttypid::regtype AS typ
			 FROM pg_catalog.pg_dist_partition d
				 JOIN pg_catalog.pg_attribute a ON a.attrelid = d.logicalrelid
					 AND a.attname = pg_catalog.column_to_column_name(d.logicalrelid, d.partkey)
				 JOIN pg_catalog.pg_type ty ON ty.oid = a.atttypid
			 WHERE d.partkey IS NOT NULL AND ty.typbasetype = ''pg_catalog.uuid''::pg_catalog.regtype
				 AND pg_catalog.has_table_privilege(d.logicalrelid, ''SELECT'')'
		LOOP
			severity := 'error';
			object := t.tbl::text;
			problem := format('it is distributed by column %I of type %s: Citus finds no rows by a uuid literal or parameter, and UPDATE or DELETE by one can crash the coordinator',
							  t.attname, t.typ);
			fix := format('distribute it by a tenant column, or make %I a plain uuid with CHECK (uuidv7_domain_check(%I)) (undistribute_table, ALTER COLUMN ... TYPE uuid, create_distributed_table)',
						  t.attname, t.attname);
			RETURN NEXT;
		END LOOP;
	END IF;
END
$function$;

COMMENT ON FUNCTION uuidv7_doctor() IS
'problems with what uuidv7 is used for, on what the calling role may read: partitions about to run out, rows waiting in DEFAULT, uuidv7_time_ops members missing, a Citus distribution column typed uuid7';

-- pg_partman 5.x: p_time_encoder and p_time_decoder of create_parent()
-- (not LEAKPROOF: a time out of range, or text that is no UUID, raises)

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
--
-- Every UUID has a base32 form: the two encoders raise no error and are
-- LEAKPROOF.  The decoder raises on text that is not base32 of 128 bits.

CREATE FUNCTION uuidv7_to_base32(id pg_catalog.uuid) RETURNS pg_catalog.text
AS 'MODULE_PATHNAME', 'uuidv7_to_base32'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

COMMENT ON FUNCTION uuidv7_to_base32(pg_catalog.uuid) IS
'26-character Crockford base32 of any UUID (the ULID text form), sorting bytewise as the UUID';

CREATE FUNCTION uuidv7_to_base32_grouped(id pg_catalog.uuid) RETURNS pg_catalog.text
AS 'MODULE_PATHNAME', 'uuidv7_to_base32_grouped'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

COMMENT ON FUNCTION uuidv7_to_base32_grouped(pg_catalog.uuid) IS
'lower-case Crockford base32 of any UUID in hyphenated groups of four from the right, for people to read';

CREATE FUNCTION uuidv7_from_base32(base32 pg_catalog.text) RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'uuidv7_from_base32'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION uuidv7_from_base32(pg_catalog.text) IS
'UUID of Crockford base32 text, upper or lower case, hyphens ignored, I and L read as 1 and O as 0';
