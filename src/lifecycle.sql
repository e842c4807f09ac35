-- upkeep: periods created ahead (their waiting rows moved in) and retired

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
