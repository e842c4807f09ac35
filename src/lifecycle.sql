-- upkeep: periods created ahead (their waiting rows moved in) and retired

-- Take locks on tables for upkeep, each in its mode, in short tries, and
-- give up after lock_wait.  A lock request that waits holds back every later
-- request that conflicts with it, so upkeep that waited for a long-running
-- writer or reader would stall all the sessions queued behind it.  Each try
-- takes all the locks in order and waits at most 20 ms (or the caller's
-- lock_timeout, if shorter); a try that times out gives back what it took,
-- lets the queue move, and tries again.  Past lock_wait the call fails with
-- 55P03, naming the sessions that held conflicting locks, having taken
-- nothing; the caller's statement_timeout also bounds the whole.  The tries
-- wait less than deadlock_timeout's default, so an application session
-- never waits on upkeep long enough to be the one the deadlock detector
-- cancels.  NULL tables are skipped, and so are those the role may not
-- LOCK (another role's table that a foreign key links to: the DDL takes
-- its lock, as PostgreSQL's own would).
CREATE FUNCTION uuidv7_internal.uuidv7_lock_for_upkeep(tables pg_catalog.regclass[], lock_modes pg_catalog.text[],
									   lock_wait pg_catalog.interval DEFAULT '1 minute')
RETURNS void
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	modes CONSTANT text[] := ARRAY['ACCESS SHARE', 'ROW SHARE', 'ROW EXCLUSIVE', 'SHARE UPDATE EXCLUSIVE',
									'SHARE', 'SHARE ROW EXCLUSIVE', 'EXCLUSIVE', 'ACCESS EXCLUSIVE'];
	-- the modes each mode conflicts with, by their numbers in modes (the
	-- table of the documentation's "Table-Level Lock Modes")
	conflicts CONSTANT int[] := ARRAY[[8, 0, 0, 0, 0, 0, 0, 0], [7, 8, 0, 0, 0, 0, 0, 0],
									  [5, 6, 7, 8, 0, 0, 0, 0], [4, 5, 6, 7, 8, 0, 0, 0],
									  [3, 4, 6, 7, 8, 0, 0, 0], [3, 4, 5, 6, 7, 8, 0, 0],
									  [2, 3, 4, 5, 6, 7, 8, 0], [1, 2, 3, 4, 5, 6, 7, 8]];
	caller_timeout text := current_setting('lock_timeout');
	try_timeout text := CASE WHEN caller_timeout::interval = interval '0' OR caller_timeout::interval > interval '20 ms'
							 THEN '20ms' ELSE caller_timeout END;
	give_up timestamptz;
	statement text;
	holders text;
BEGIN
	IF cardinality(tables) <> cardinality(lock_modes) OR EXISTS (
		SELECT FROM unnest(lock_modes) AS m
		WHERE m IS NULL OR m NOT IN ('SHARE UPDATE EXCLUSIVE', 'SHARE', 'SHARE ROW EXCLUSIVE', 'EXCLUSIVE', 'ACCESS EXCLUSIVE')) THEN
		RAISE EXCEPTION 'invalid lock modes for upkeep: %', lock_modes
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'Give one of SHARE UPDATE EXCLUSIVE, SHARE, SHARE ROW EXCLUSIVE, EXCLUSIVE or ACCESS EXCLUSIVE for each table.';
	END IF;
	IF NOT lock_wait >= interval '0' THEN
		RAISE EXCEPTION 'lock_wait must not be negative'
			USING ERRCODE = 'invalid_parameter_value', DETAIL = format('lock_wait is "%s".', lock_wait);
	END IF;
	give_up := clock_timestamp() + lock_wait;
	-- (a table the role may not LOCK, which needs UPDATE, DELETE or TRUNCATE
	-- on it, is left to the DDL that follows: another role's table that a
	-- foreign key links to, which PostgreSQL's own ALTER TABLE locks without
	-- those rights, and waits for as it would)
	SELECT string_agg(format('LOCK TABLE ONLY %s IN %s MODE', t, m), '; ' ORDER BY o)
	INTO statement FROM unnest(tables, lock_modes) WITH ORDINALITY AS u(t, m, o)
	WHERE t IS NOT NULL AND has_table_privilege(t, 'UPDATE, DELETE, TRUNCATE');
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
			IF clock_timestamp() >= give_up THEN
				SELECT string_agg(format('%s holds %s on %s.',
										 coalesce('Process ' || l.pid, 'A prepared transaction'),
										 l.mode, l.relation::regclass),
								  ' ' ORDER BY l.relation, l.pid, l.mode)
				INTO holders
				FROM unnest(tables, lock_modes) AS u(t, m)
					JOIN pg_locks l ON l.locktype = 'relation' AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
						AND l.relation = u.t AND l.granted AND l.pid IS DISTINCT FROM pg_backend_pid()
				WHERE array_position(modes, upper(regexp_replace(regexp_replace(l.mode, 'Lock$', ''), '([a-z])([A-Z])', E'\\1 \\2', 'g')))
					= ANY (conflicts[array_position(modes, u.m):array_position(modes, u.m)][1:8]);
				PERFORM set_config('lock_timeout', caller_timeout, true);
				RAISE EXCEPTION 'could not lock % for partition upkeep within % ms',
					(SELECT string_agg(t::text, ', ') FROM unnest(tables) t WHERE t IS NOT NULL),
					round(extract(epoch FROM lock_wait) * 1000)
					USING ERRCODE = 'lock_not_available',
						  DETAIL = coalesce(holders, 'The sessions that held conflicting locks have ended.'),
						  HINT = 'Upkeep waits only in short tries, so that the application never waits on it for long. Run it again later, or with a longer lock_wait.';
			END IF;
			PERFORM pg_sleep(0.01);
		END;
	END LOOP;
END
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_lock_for_upkeep(pg_catalog.regclass[], pg_catalog.text[], pg_catalog.interval) IS
'lock tables, each in its mode, for partition upkeep, in short tries that never hold back the sessions queued behind for long, giving up with 55P03 after lock_wait (used by the upkeep functions)';

-- Move the rows of a period that wait in a DEFAULT partition into another
-- table by DELETE and INSERT, in one statement; the number of rows moved.
-- The DELETE fires DEFAULT's triggers; refused where foreign keys reference
-- the table, which it would make act.  Used into a temporary table by
-- uuidv7_attach_period_decodable, and into the period's table, before it is
-- attached, for a table Citus distributes (whose rows only its DML reaches).
CREATE FUNCTION uuidv7_internal.uuidv7_copy_waiting_rows(default_partition pg_catalog.regclass, target pg_catalog.regclass,
										 key_column pg_catalog.name, lower_bound pg_catalog.uuid,
										 upper_bound pg_catalog.uuid)
RETURNS pg_catalog.int8
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	parent regclass := (SELECT i.inhparent FROM pg_inherits i WHERE i.inhrelid = default_partition);
	stored_columns text;
	waiting bool;
	moved int8;
BEGIN
	-- (nothing waiting: nothing to move, and no foreign key to act)
	EXECUTE format('SELECT EXISTS (SELECT 1 FROM %s WHERE %I >= $1 AND %I < $2)', default_partition, key_column, key_column)
		INTO waiting USING lower_bound, upper_bound;
	IF NOT waiting THEN
		RETURN 0;
	END IF;
	-- (keys to the DEFAULT partition itself, which a row leaving it breaks
	-- or, ON DELETE CASCADE, empties, whichever way it moves: as the C
	-- edition says it)
	IF EXISTS (SELECT FROM pg_constraint c
			   WHERE c.contype = 'f' AND c.confrelid = default_partition AND c.conparentid = 0) THEN
		RAISE EXCEPTION 'cannot move rows out of DEFAULT partition "%": foreign keys reference it',
			(SELECT c.relname FROM pg_class c WHERE c.oid = default_partition)
			USING ERRCODE = 'feature_not_supported',
				  DETAIL = 'A row that leaves it would break them, or make them act.',
				  HINT = 'Make the foreign keys reference the partitioned table instead.';
	END IF;
	IF EXISTS (SELECT FROM pg_constraint c WHERE c.contype = 'f' AND c.confrelid = parent) THEN
		RAISE EXCEPTION 'cannot move rows of % out of its DEFAULT partition: foreign keys reference it', parent
			USING ERRCODE = 'feature_not_supported',
				  DETAIL = format('Moving the rows of %s from %s to %s by DELETE and INSERT would make the foreign keys that reference %s act on them.',
								  default_partition, @extschema@.uuidv7_timestamp(lower_bound),
								  @extschema@.uuidv7_timestamp(upper_bound), parent),
				  HINT = 'Move those rows out of the DEFAULT partition yourself, then create the period. (The C edition moves them with no DELETE where no logical replication slot of the database exists.)';
	END IF;
	-- generated columns are computed again as the rows arrive
	SELECT string_agg(quote_ident(a.attname), ', ' ORDER BY a.attnum) INTO stored_columns
	FROM pg_attribute a
	WHERE a.attrelid = default_partition AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = '';
	EXECUTE format('WITH rows AS (DELETE FROM %s WHERE %I >= $1 AND %I < $2 RETURNING %s) INSERT INTO %s (%s) SELECT %s FROM rows',
				   default_partition, key_column, key_column, stored_columns, target, stored_columns, stored_columns)
		USING lower_bound, upper_bound;
	GET DIAGNOSTICS moved = ROW_COUNT;
	RETURN moved;
END
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_copy_waiting_rows(pg_catalog.regclass, pg_catalog.regclass, pg_catalog.name, pg_catalog.uuid, pg_catalog.uuid) IS
'move the rows of a period waiting in a DEFAULT partition into the period''s table by DELETE and INSERT (used by uuidv7_attach_period)';

-- Attach a new period's table, the rows of its period that wait in the
-- DEFAULT partition moved in by DELETE and INSERT that logical decoding
-- sees: deleted from DEFAULT into a table of its own, the table attached,
-- then inserted through the parent, so that a subscriber of a publication
-- (publish_via_partition_root true or false) or a change-data-capture
-- consumer gets the DELETE under DEFAULT and the INSERT under the partition
-- that holds the row from then on, as for PostgreSQL's own row movement.
-- The rows carry this transaction's id, so that a REPEATABLE READ or
-- SERIALIZABLE transaction with an older snapshot does not see them where
-- they are now (docs/partitioning.md, "Rows that arrive early"), and the
-- tables' DELETE and INSERT triggers fire; refused where foreign keys
-- reference the table, which the DELETE would make act.  The number of rows
-- moved.  What the SQL edition moves rows with, and the C edition where a
-- logical replication slot of the database may decode the move, or where
-- DEFAULT is not a heap table (a partitioned one).
CREATE FUNCTION uuidv7_internal.uuidv7_attach_period_decodable(parent pg_catalog.regclass, period_table pg_catalog.regclass,
											   lower_bound pg_catalog.uuid, upper_bound pg_catalog.uuid)
RETURNS pg_catalog.int8
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	default_partition regclass;
	key_column name;
	stored_columns text;
	-- (an unlogged table of the parent's schema, made and dropped in this
	-- transaction, so never seen by another: not a temporary one, which a
	-- security-restricted operation, as maintenance runs, may not make)
	holding text := format('%I.%I', (SELECT n.nspname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
									 WHERE c.oid = parent),
						   'uuidv7_moving_' || period_table::oid);
	waiting bool := false;
	moved int8 := 0;
	arrived int8;
BEGIN
	SELECT nullif(partdefid, 0)::regclass INTO default_partition
	FROM pg_partitioned_table WHERE partrelid = parent;
	IF default_partition IS NOT NULL THEN
		SELECT a.attname INTO key_column
		FROM pg_partitioned_table p
			JOIN pg_attribute a ON a.attrelid = p.partrelid AND a.attnum = p.partattrs[0]
		WHERE p.partrelid = parent;
		EXECUTE format('SELECT EXISTS (SELECT 1 FROM %s WHERE %I >= $1 AND %I < $2)', default_partition, key_column, key_column)
			INTO waiting USING lower_bound, upper_bound;
	END IF;
	IF waiting THEN
		-- generated columns are computed again as the rows arrive
		SELECT string_agg(quote_ident(a.attname), ', ' ORDER BY a.attnum) INTO stored_columns
		FROM pg_attribute a
		WHERE a.attrelid = default_partition AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = '';
		EXECUTE format('CREATE UNLOGGED TABLE %s AS SELECT %s FROM ONLY %s WITH NO DATA',
					   holding, stored_columns, default_partition);
		moved := uuidv7_internal.uuidv7_copy_waiting_rows(default_partition, holding::regclass, key_column,
													   lower_bound, upper_bound);
	END IF;
	EXECUTE format('ALTER TABLE %s ATTACH PARTITION %s FOR VALUES FROM (%L) TO (%L)',
				   parent, period_table, lower_bound, upper_bound);
	IF waiting THEN
		EXECUTE format('INSERT INTO %s (%s) OVERRIDING SYSTEM VALUE SELECT %s FROM %s',
					   parent, stored_columns, stored_columns, holding);
		EXECUTE format('DROP TABLE %s', holding);
		-- every row deleted from DEFAULT arrived (a trigger of the parent that
		-- returns NULL, or a rule, could have kept some away: nothing is lost)
		EXECUTE format('SELECT count(*) FROM ONLY %s', period_table) INTO arrived;
		IF arrived <> moved THEN
			RAISE EXCEPTION 'only % of the % rows moved out of the DEFAULT partition of % arrived in %', arrived, moved, parent, period_table
				USING ERRCODE = 'triggered_data_change_violation',
					  DETAIL = format('A trigger or a rule of %s kept back some of the rows inserted into it; nothing is changed.', parent),
					  HINT = 'Let the trigger or rule pass rows that arrive from the DEFAULT partition, or move them out of it yourself, then create the period.';
		END IF;
	END IF;
	RETURN moved;
END
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_attach_period_decodable(pg_catalog.regclass, pg_catalog.regclass, pg_catalog.uuid, pg_catalog.uuid) IS
'attach a new period''s table, moving in the rows of its period that wait in the DEFAULT partition by DELETE and INSERT that logical decoding sees (used by uuidv7_attach_period)';

-- Attach a new period's table, created empty in this transaction, as the
-- partition of [lower_bound, upper_bound), the rows of the period that wait
-- in the DEFAULT partition moved into it first; the number of rows moved.
-- The caller owns both tables and holds the parent and its DEFAULT
-- partition ACCESS EXCLUSIVE.  In one call, so that no row can leave the
-- partitioned table without arriving in its new partition.
CREATE FUNCTION uuidv7_internal.uuidv7_attach_period(parent pg_catalog.regclass, period_table pg_catalog.regclass,
									 lower_bound pg_catalog.uuid, upper_bound pg_catalog.uuid)
RETURNS pg_catalog.int8
--#if c
-- (A heap DEFAULT's rows move as CLUSTER moves them, every version keeping
-- its header, so that every snapshot, also an older one, sees each row once,
-- where it is now; no trigger fires and no foreign key acts: src/lifecycle.c.
-- Logical decoding does not see such a move: where a logical slot of the
-- database may decode it, they move by uuidv7_attach_period_decodable.)
AS 'MODULE_PATHNAME', 'uuidv7_attach_period'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
--#else
-- (SQL edition: by uuidv7_attach_period_decodable, DELETE and INSERT.)
LANGUAGE sql VOLATILE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $function$
SELECT uuidv7_internal.uuidv7_attach_period_decodable(parent, period_table, lower_bound, upper_bound)
$function$;
--#endif

COMMENT ON FUNCTION uuidv7_internal.uuidv7_attach_period(pg_catalog.regclass, pg_catalog.regclass, pg_catalog.uuid, pg_catalog.uuid) IS
'attach a new period''s table, created empty in this transaction, moving in first the rows of its period that wait in the DEFAULT partition (used by uuidv7_create_partitions; parent and DEFAULT locked ACCESS EXCLUSIVE)';

-- The periods of a span of a table's grid, in order, each with the
-- partition that holds it (existing) or the name of the table to make for
-- it; an error where that name is taken by another table (42P07) or the
-- period would overlap a partition (42P17).  For uuidv7_create_partitions,
-- which holds upkeep's turn on the table.
CREATE FUNCTION uuidv7_internal.uuidv7_plan_span(parent pg_catalog.regclass, anchor pg_catalog.timestamptz,
													step pg_catalog.interval, zone pg_catalog.text,
													from_ts pg_catalog.timestamptz, upto_ts pg_catalog.timestamptz,
													OUT partition_name pg_catalog.text,
													OUT lower_bound pg_catalog.uuid,
													OUT upper_bound pg_catalog.uuid,
													OUT existing pg_catalog.bool)
RETURNS SETOF record
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	parent_schema name;
	parent_name name;
	part record;
	names regclass[];
	los uuid[];
	his uuid[];
	n int;
	k int := 1;
BEGIN
	SELECT n.nspname, c.relname INTO parent_schema, parent_name
	FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = parent;
	-- The partitions there are, read once, in order of their bounds.  The
	-- periods come in order too, and partitions never overlap, so one walk
	-- finds for each period the partition with its bounds, or the first one
	-- that reaches into it: k skips those that end before the period starts.
	SELECT array_agg(p.partition ORDER BY p.lower_bound NULLS FIRST),
		array_agg(p.lower_bound ORDER BY p.lower_bound NULLS FIRST),
		array_agg(p.upper_bound ORDER BY p.lower_bound NULLS FIRST)
	INTO names, los, his
	FROM @extschema@.uuidv7_partitions(parent) p
	-- (a partition without bounds is the DEFAULT one, also one made since a
	-- REPEATABLE READ snapshot, which the C edition lists, as the planner
	-- sees the table, and pg_partitioned_table at the snapshot does not)
	WHERE p.partition IS DISTINCT FROM (SELECT nullif(d.partdefid, 0)::regclass FROM pg_partitioned_table d
										WHERE d.partrelid = parent)
		AND (p.lower_bound IS NOT NULL OR p.upper_bound IS NOT NULL);
	n := coalesce(array_length(names, 1), 0);

	FOR part IN
		SELECT * FROM uuidv7_internal.uuidv7_period_ddl(parent_schema, parent_name, anchor, step, zone, from_ts, upto_ts)
	LOOP
		WHILE k <= n AND his[k] IS NOT NULL AND his[k] <= part.lower_bound LOOP
			k := k + 1;
		END LOOP;
		IF k <= n AND los[k] = part.lower_bound AND his[k] = part.upper_bound THEN
			partition_name := names[k]::text;
			lower_bound := part.lower_bound;
			upper_bound := part.upper_bound;
			existing := true;
			RETURN NEXT;
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
		partition_name := part.partition_name;
		lower_bound := part.lower_bound;
		upper_bound := part.upper_bound;
		existing := false;
		RETURN NEXT;
	END LOOP;
END
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_plan_span(pg_catalog.regclass, pg_catalog.timestamptz, pg_catalog.interval, pg_catalog.text, pg_catalog.timestamptz, pg_catalog.timestamptz) IS
'the periods of a span of a table''s grid, each with the partition that holds it or the name of the table to make (42P07 where that name is taken, 42P17 where it would overlap a partition); used by uuidv7_create_partitions';

-- Make a period's table, standalone, as its partition will be, for
-- uuidv7_create_partitions to attach.
CREATE FUNCTION uuidv7_internal.uuidv7_make_period_table(parent pg_catalog.regclass, period_table pg_catalog.text,
														 key_column pg_catalog.name, lower_bound pg_catalog.uuid,
														 upper_bound pg_catalog.uuid)
RETURNS void
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	con record;
BEGIN
	PERFORM uuidv7_internal.uuidv7_progress_step('uuidv7_create_partitions', parent, format('making %s', period_table));
	-- the period's table, standalone, as the partition will be: indexes
	-- that ATTACH then attaches instead of building, the parent's CHECK
	-- constraints as the parent has them (NOT VALID ones NOT VALID, since
	-- rows that wait in DEFAULT need not satisfy them), and the bounds as
	-- a CHECK that spares ATTACH a scan.  (ATTACH makes the foreign keys:
	-- one made on the standalone table would stay a second, stray one.)
	EXECUTE format('CREATE TABLE %s (LIKE %s INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING GENERATED'
				   ' INCLUDING STORAGE INCLUDING COMMENTS INCLUDING INDEXES)', period_table, parent);
	FOR con IN
		SELECT c.conname, pg_get_constraintdef(c.oid) AS definition
		FROM pg_constraint c
		WHERE c.conrelid = parent AND c.contype = 'c' AND NOT c.convalidated ORDER BY c.conname
	LOOP
		EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', period_table, con.conname);
		EXECUTE format('ALTER TABLE %s ADD CONSTRAINT %I %s', period_table, con.conname, con.definition);
	END LOOP;
	EXECUTE format('ALTER TABLE %s ADD CONSTRAINT uuidv7_period CHECK (%I IS NOT NULL AND %I >= %L AND %I < %L)',
				   period_table, key_column, key_column, lower_bound, key_column, upper_bound);
END
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_make_period_table(pg_catalog.regclass, pg_catalog.text, pg_catalog.name, pg_catalog.uuid, pg_catalog.uuid) IS
'make the table of a period of a partitioned table, standalone, with the parent''s indexes and CHECK constraints and a CHECK of its bounds that spares ATTACH a scan (used by uuidv7_create_partitions)';

-- Attach the tables uuidv7_create_partitions made for its periods (those
-- of tables made), with the parent and its DEFAULT partition locked ACCESS
-- EXCLUSIVE in short tries, moving in first the rows of each period that
-- wait in DEFAULT; the rows each period took (0 for a period not made).
CREATE FUNCTION uuidv7_internal.uuidv7_attach_periods(parent pg_catalog.regclass, default_partition pg_catalog.regclass,
													  key_column pg_catalog.name, tables pg_catalog.text[],
													  made pg_catalog.bool[], los pg_catalog.uuid[],
													  his pg_catalog.uuid[], lock_wait pg_catalog.interval)
RETURNS pg_catalog.int8[]
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	below regclass[];
	related regclass[];
	distributed bool := false;
	moved int8[] := array_fill(0::int8, ARRAY[cardinality(tables)]);
BEGIN
	IF NOT true = ANY (made) THEN
		RETURN moved;
	END IF;
	-- the moment the application waits for: short, and taken in short
	-- tries; readers and writers that arrive meanwhile wait, then plan
	-- with the new partitions.  ATTACH also locks the tables the parent's
	-- foreign keys reference and those whose foreign keys reference it
	-- (SHARE ROW EXCLUSIVE, to make their triggers): taken in the same
	-- tries, so that it never waits for them while the parent is held.
	SELECT coalesce(array_agg(DISTINCT t.rel), '{}') INTO related
	FROM (SELECT c.confrelid AS rel FROM pg_constraint c
		  WHERE c.conrelid = parent AND c.contype = 'f'
		  UNION SELECT c.conrelid FROM pg_constraint c
		  WHERE c.confrelid = parent AND c.contype = 'f' AND c.conparentid = 0) t
	WHERE t.rel <> parent;
	PERFORM uuidv7_internal.uuidv7_progress_step('uuidv7_create_partitions', parent,
												 'waiting for the table and its DEFAULT partition');
	-- (a DEFAULT that is itself partitioned: its partitions too, which
	-- ATTACH locks as it scans them)
	SELECT coalesce(array_agg(t.relid ORDER BY t.level, t.relid), '{}') INTO below
	FROM pg_partition_tree(default_partition) t WHERE t.relid <> default_partition;
	PERFORM uuidv7_internal.uuidv7_lock_for_upkeep(ARRAY[parent, default_partition] || below || related::regclass[],
											   ARRAY['ACCESS EXCLUSIVE', 'ACCESS EXCLUSIVE']
											   || array_fill('ACCESS EXCLUSIVE'::text, ARRAY[cardinality(below)])
											   || array_fill('SHARE ROW EXCLUSIVE'::text, ARRAY[cardinality(related)]),
											   lock_wait);
	-- (a table Citus distributes keeps its rows in its shards, which only
	-- its DML reaches: there they move by DELETE and INSERT)
	IF to_regclass('pg_catalog.pg_dist_partition') IS NOT NULL AND default_partition IS NOT NULL THEN
		EXECUTE 'SELECT EXISTS (SELECT FROM pg_catalog.pg_dist_partition WHERE logicalrelid = $1)'
			INTO distributed USING parent;
	END IF;
	FOR slot IN 1..cardinality(tables) LOOP
		CONTINUE WHEN NOT made[slot];
		PERFORM uuidv7_internal.uuidv7_progress_step('uuidv7_create_partitions', parent,
													 format('attaching %s', tables[slot]));
		IF distributed THEN
			moved[slot] := uuidv7_internal.uuidv7_copy_waiting_rows(default_partition, tables[slot]::regclass,
																	 key_column, los[slot], his[slot]);
			EXECUTE format('ALTER TABLE %s ATTACH PARTITION %s FOR VALUES FROM (%L) TO (%L)',
						   parent, tables[slot], los[slot], his[slot]);
		ELSE
			moved[slot] := uuidv7_internal.uuidv7_attach_period(parent, tables[slot]::regclass,
																 los[slot], his[slot]);
		END IF;
		EXECUTE format('ALTER TABLE %s DROP CONSTRAINT uuidv7_period', tables[slot]);
	END LOOP;
	RETURN moved;
END
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_attach_periods(pg_catalog.regclass, pg_catalog.regclass, pg_catalog.name, pg_catalog.text[], pg_catalog.bool[], pg_catalog.uuid[], pg_catalog.uuid[], pg_catalog.interval) IS
'lock a partitioned table and its DEFAULT partition in short tries and attach the tables made for its periods, moving in the rows of each that wait in DEFAULT; the rows each took (used by uuidv7_create_partitions)';

-- Create the partitions of a span that do not exist yet.  A partition with
-- exactly a period's bounds counts as existing whatever its name.
--
-- The application must not be able to tell that a period was made, also
-- when rows of it wait in the DEFAULT partition (ids made by clients,
-- backfills, a scheduler that fell behind) and must be moved in:
--
-- * Everything that can be made beside readers and writers is made first:
--   each period's table, standalone, with the parent's indexes and a CHECK
--   of its bounds (so that ATTACH attaches the indexes instead of building
--   them, and scans nothing of the new table).
-- * Then the parent and its DEFAULT partition are locked ACCESS EXCLUSIVE,
--   in short tries (uuidv7_lock_for_upkeep, bounded by lock_wait), and the
--   waiting rows are moved and the tables attached, all at once
--   (uuidv7_attach_period: in the C edition with the rows' visibility kept,
--   for every snapshot).  Only a lock
--   on the parent that conflicts with readers makes a query that waited plan
--   again with the new partition: with a weaker one, a reader that planned
--   before the new partition existed would miss the rows that left DEFAULT.
--   Rows are never deleted from DEFAULT before that lock is held: a writer
--   that met such a row would wait on upkeep while holding locks upkeep
--   needs (a deadlock), and one at REPEATABLE READ would find nothing.
--
-- Upkeep of one parent takes turns (creators, retention): each takes SHARE
-- UPDATE EXCLUSIVE on the parent, which conflicts with itself but not with
-- reads or writes, and which only a role with rights on the table can take,
-- and only then decides what exists (at READ COMMITTED each statement sees
-- what committed before it began), so that schedulers with overlapping spans
-- both succeed and each period is made once.
--
-- The periods are those of the table's grid (uuidv7_table_grid), which a
-- table given its first periods here records: every later call follows it,
-- whatever the caller's TimeZone.
CREATE FUNCTION uuidv7_create_partitions(parent pg_catalog.regclass, from_ts pg_catalog.timestamptz,
										 upto_ts pg_catalog.timestamptz, step pg_catalog.interval DEFAULT NULL,
										 zone pg_catalog.text DEFAULT NULL,
										 lock_wait pg_catalog.interval DEFAULT '1 minute',
										 OUT partition_name pg_catalog.text,
										 OUT created pg_catalog.bool,
										 OUT moved pg_catalog.int8)
RETURNS SETOF record
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	checked record;
	default_partition regclass;
	key_column name;
	grid record;
	-- the periods of the span, in order (uuidv7_plan_span): each one's
	-- table, whether it is made here (where no partition holds the period
	-- yet), its bounds, and the rows it took from the DEFAULT partition
	-- (uuidv7_attach_periods)
	tables text[];
	made bool[];
	los uuid[];
	his uuid[];
	moved_rows int8[];
	n int;
	-- (the steps, each a function of its own: the periods planned under
	-- upkeep's turn, each one's table made standalone beside readers and
	-- writers (uuidv7_make_period_table), then all attached at once under
	-- the locks that the application waits for, in short tries
	-- (uuidv7_attach_periods))
BEGIN
	-- (as a STRICT function would: step and zone may be NULL)
	IF parent IS NULL OR from_ts IS NULL OR upto_ts IS NULL OR lock_wait IS NULL THEN
		RETURN;
	END IF;
	-- (this check is line 31 of the body, which the CONTEXT of its error
	-- names, as expected/partition.out shows: the lines above it keep their
	-- number)
	-- the parent checked first, by an assignment (an error names no SQL of ours)
	checked := uuidv7_internal.uuidv7_partitioned_parent(parent);
	PERFORM uuidv7_internal.uuidv7_progress_step('uuidv7_create_partitions', parent, 'waiting for upkeep''s turn on the table');
	PERFORM uuidv7_internal.uuidv7_lock_for_upkeep(ARRAY[parent], ARRAY['SHARE UPDATE EXCLUSIVE'], lock_wait);

	-- the table's grid, read under the lock, recorded the first time (by a
	-- role that may: one with no right to make partitions makes none)
	grid := uuidv7_internal.uuidv7_call_grid(parent, step, zone, from_ts, upto_ts);
	IF grid.source NOT IN ('recorded', 'given') THEN
		PERFORM uuidv7_internal.uuidv7_record_grid(parent, grid.step, grid.zone, grid.anchor);
	END IF;

	SELECT nullif(partdefid, 0)::regclass INTO default_partition
	FROM pg_partitioned_table WHERE partrelid = parent;
	-- (the C edition lists the partitions as the planner sees the table,
	-- which may hold a DEFAULT partition made since a REPEATABLE READ
	-- snapshot: the partition without bounds)
	IF default_partition IS NULL THEN
		SELECT p.partition INTO default_partition FROM @extschema@.uuidv7_partitions(parent) p
		WHERE p.lower_bound IS NULL AND p.upper_bound IS NULL;
	END IF;
	SELECT a.attname INTO key_column
	FROM pg_partitioned_table p
		JOIN pg_attribute a ON a.attrelid = p.partrelid AND a.attnum = p.partattrs[0]
	WHERE p.partrelid = parent;

	SELECT coalesce(array_agg(p.partition_name ORDER BY p.k), '{}'), coalesce(array_agg(NOT p.existing ORDER BY p.k), '{}'),
		coalesce(array_agg(p.lower_bound ORDER BY p.k), '{}'), coalesce(array_agg(p.upper_bound ORDER BY p.k), '{}')
	INTO tables, made, los, his
	FROM uuidv7_internal.uuidv7_plan_span(parent, grid.anchor, grid.step, grid.zone, from_ts, upto_ts)
		WITH ORDINALITY AS p(partition_name, lower_bound, upper_bound, existing, k);
	n := cardinality(tables);
	FOR i IN 1 .. n LOOP
		CONTINUE WHEN NOT made[i];
		PERFORM uuidv7_internal.uuidv7_make_period_table(parent, tables[i], key_column, los[i], his[i]);
	END LOOP;
	moved_rows := uuidv7_internal.uuidv7_attach_periods(parent, default_partition, key_column, tables, made, los, his, lock_wait);

	FOR slot IN 1 .. n LOOP
		partition_name := tables[slot];
		created := made[slot];
		moved := moved_rows[slot];
		RETURN NEXT;
	END LOOP;
END
$function$;

COMMENT ON FUNCTION uuidv7_create_partitions(pg_catalog.regclass, pg_catalog.timestamptz, pg_catalog.timestamptz, pg_catalog.interval, pg_catalog.text, pg_catalog.interval) IS
'create the missing partitions of a span of time of a table range-partitioned on a UUIDv7 key, moving in the rows of their periods that wait in the DEFAULT partition; existing ones are skipped; waits for locks at most lock_wait';


-- Why rows of other tables hold a period in its table: the first foreign key,
-- as its user made it (the constraint on the partitioned table itself, of
-- no parent constraint, never the clone PostgreSQL keeps for each
-- partition), with rows that reference the
-- partition's period, and the query that lists those rows.  A key whose
-- table the caller may not read is named without its query.  NULL where no
-- foreign key references the table.
CREATE FUNCTION uuidv7_internal.uuidv7_referencing_rows(parent pg_catalog.regclass, period_table pg_catalog.regclass,
														OUT message pg_catalog.text, OUT query pg_catalog.text)
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	bounds record;
	fk record;
	referenced bool;
BEGIN
	SELECT p.lower_bound, p.upper_bound INTO bounds
	FROM @extschema@.uuidv7_partitions(parent) p WHERE p.partition = period_table;
	FOR fk IN
		SELECT c.conname, c.conrelid::regclass AS referencing,
			(SELECT string_agg(format('%I >= %L AND %I < %L', a.attname, bounds.lower_bound, a.attname, bounds.upper_bound), ' AND ')
			 FROM unnest(c.conkey, c.confkey) AS k(conkey, confkey)
				 JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.conkey
			 WHERE k.confkey = pt.partattrs[0]) AS condition
		FROM pg_constraint c JOIN pg_partitioned_table pt ON pt.partrelid = c.confrelid
		WHERE c.confrelid = parent AND c.contype = 'f' AND c.conparentid = 0
		ORDER BY c.conrelid::regclass::text, c.conname
	LOOP
		message := format('rows of %s reference it (foreign key %I)', fk.referencing, fk.conname);
		CONTINUE WHEN fk.condition IS NULL OR bounds.lower_bound IS NULL OR bounds.upper_bound IS NULL;
		query := format('SELECT * FROM %s WHERE %s', fk.referencing, fk.condition);
		BEGIN
			EXECUTE format('SELECT EXISTS (%s)', query) INTO referenced;
		EXCEPTION WHEN insufficient_privilege THEN
			query := NULL;
			RETURN;
		END;
		IF referenced THEN
			RETURN;
		END IF;
		query := NULL;
	END LOOP;
END
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_referencing_rows(pg_catalog.regclass, pg_catalog.regclass) IS
'the foreign key, as its user made it, whose rows reference a partition''s period, and the query that lists them (used by uuidv7_drop_partitions)';

-- The archive of uuidv7_drop_partitions checked (the caller owns it, and it
-- is partitioned as the table is: uuidv7_archive_table), and what the
-- periods retired for it need: its schema, its name (schema-qualified, as
-- each period's CHECK uuidv7_archive_pending is commented), and the
-- table's key.
CREATE FUNCTION uuidv7_internal.uuidv7_archive_target(parent pg_catalog.regclass, archive pg_catalog.regclass,
													  OUT archive_schema pg_catalog.name, OUT archive_name pg_catalog.text,
													  OUT archive_key pg_catalog.name)
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $function$
BEGIN
	PERFORM uuidv7_internal.uuidv7_must_own(archive);
	SELECT n.nspname, format('%I.%I', n.nspname, c.relname) INTO archive_schema, archive_name
	FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = archive;
	PERFORM uuidv7_internal.uuidv7_archive_table(parent, archive_schema,
												 (SELECT c.relname FROM pg_class c WHERE c.oid = archive), false);
	SELECT a.attname INTO archive_key
	FROM pg_partitioned_table p JOIN pg_attribute a ON a.attrelid = p.partrelid AND a.attnum = p.partattrs[0]
	WHERE p.partrelid = parent;
END
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_archive_target(pg_catalog.regclass, pg_catalog.regclass) IS
'the archive of uuidv7_drop_partitions checked, and its schema, its qualified name and the table''s key, for the periods retired for it';

-- Retire one period of uuidv7_drop_partitions, on its own: detach its table
-- (PostgreSQL's own check that no row of another table references it),
-- then drop it, or keep it detached, or, with an archive (archive_name,
-- archive_schema: the archive's; archive_key: the key of both), move it
-- into the archive's schema where that is not the parent's, marked with a
-- CHECK uuidv7_archive_pending of its bounds, NOT VALID, commented with the
-- archive's name.  A period that cannot leave is kept, and action says so:
-- 'kept (SQLSTATE): why'.  Returns the table as named after and what was
-- done.
CREATE FUNCTION uuidv7_internal.uuidv7_retire_period(parent pg_catalog.regclass, period_table pg_catalog.regclass,
													 lower_bound pg_catalog.uuid, upper_bound pg_catalog.uuid,
													 detach_only pg_catalog.bool, parent_schema pg_catalog.name,
													 archive_schema pg_catalog.name, archive_name pg_catalog.text,
													 archive_key pg_catalog.name,
													 OUT partition pg_catalog.text, OUT action pg_catalog.text)
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	old regclass := period_table;
	taken text;
	refs record;
BEGIN
	partition := old::text;
	PERFORM uuidv7_internal.uuidv7_progress_step('uuidv7_drop_partitions', parent,
												 format(CASE WHEN detach_only THEN 'detaching %s' ELSE 'dropping %s' END, old));
	BEGIN
		EXECUTE format('ALTER TABLE %s DETACH PARTITION %s', parent, old);
		IF archive_name IS NOT NULL THEN
			-- (into the archive's schema, with a CHECK of its bounds that
			-- uuidv7_archive_partitions validates, beside the table's
			-- readers and writers, and that then spares ATTACH its scan;
			-- the archive it waits for named on it)
			IF archive_schema <> parent_schema THEN
				EXECUTE format('ALTER TABLE %s SET SCHEMA %I', old, archive_schema);
			END IF;
			EXECUTE format('ALTER TABLE %s ADD CONSTRAINT uuidv7_archive_pending CHECK (%s %I < %L::uuid) NOT VALID',
						   old::oid::regclass,
						   CASE WHEN lower_bound IS NOT NULL
							   THEN format('%I >= %L::uuid AND', archive_key, lower_bound) ELSE '' END,
						   archive_key, upper_bound);
			EXECUTE format('COMMENT ON CONSTRAINT uuidv7_archive_pending ON %s IS %L', old::oid::regclass, archive_name);
			partition := old::oid::regclass::text;
			action := 'detached for the archive';
		ELSIF NOT detach_only THEN
			EXECUTE format('DROP TABLE %s', old);
			action := 'dropped';
		ELSE
			action := 'detached';
		END IF;
	-- (kept, each with its SQLSTATE and why: rows of another table
	-- reference it; a view or a function of the user's depends on it,
	-- in PostgreSQL's words but never its advice to CASCADE; or the
	-- referencing table is one the role may not read)
	EXCEPTION
		WHEN foreign_key_violation THEN
			refs := uuidv7_internal.uuidv7_referencing_rows(parent, old);
			action := 'kept (23503): ' || coalesce(refs.message, 'rows of another table reference it');
		WHEN dependent_objects_still_exist OR insufficient_privilege THEN
			GET STACKED DIAGNOSTICS taken = MESSAGE_TEXT;
			action := format('kept (%s): %s', SQLSTATE, taken);
	END;
END
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_retire_period(pg_catalog.regclass, pg_catalog.regclass, pg_catalog.uuid, pg_catalog.uuid, pg_catalog.bool, pg_catalog.name, pg_catalog.name, pg_catalog.text, pg_catalog.name) IS
'one period retired by uuidv7_drop_partitions: detached, then dropped, kept, or readied for an archive; or kept where it cannot leave, with the SQLSTATE and why';

-- The CHECK uuidv7_retired of a DEFAULT partition (refuse_late_rows of
-- uuidv7_drop_partitions): keys before oldest, the oldest period left,
-- refused, NOT VALID (the rows already there are not scanned, and stay);
-- the one it had (had_check) replaced.
CREATE FUNCTION uuidv7_internal.uuidv7_refuse_rows_before(default_partition pg_catalog.regclass, key_column pg_catalog.name,
														  oldest pg_catalog.uuid, had_check pg_catalog.bool)
RETURNS void
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	taken text;
BEGIN
	IF had_check THEN
		EXECUTE format('ALTER TABLE %s DROP CONSTRAINT uuidv7_retired', default_partition);
	END IF;
	BEGIN
		EXECUTE format('ALTER TABLE %s ADD CONSTRAINT uuidv7_retired CHECK (%I >= %L::uuid) NOT VALID',
					   default_partition, key_column, oldest);
	EXCEPTION WHEN duplicate_object THEN
		-- (one set since a REPEATABLE READ snapshot, which does not show
		-- it; else the name is taken below, and that error stands)
		GET STACKED DIAGNOSTICS taken = MESSAGE_TEXT;
		BEGIN
			EXECUTE format('ALTER TABLE %s DROP CONSTRAINT uuidv7_retired,'
						   ' ADD CONSTRAINT uuidv7_retired CHECK (%I >= %L::uuid) NOT VALID',
						   default_partition, key_column, oldest);
		EXCEPTION WHEN undefined_object THEN
			RAISE EXCEPTION USING ERRCODE = 'duplicate_object', MESSAGE = taken;
		END;
	END;
END
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_refuse_rows_before(pg_catalog.regclass, pg_catalog.name, pg_catalog.uuid, pg_catalog.bool) IS
'the CHECK uuidv7_retired of a DEFAULT partition that refuses keys before the oldest period left, NOT VALID, replacing the one it had (used by uuidv7_drop_partitions)';

-- Retire old periods: drop, or detach and keep as plain tables, the
-- partitions whose whole range ends at or before older_than (their upper
-- bound is a UUIDv7 at or below uuidv7_min(older_than)); never the DEFAULT
-- partition, one with a MAXVALUE or non-UUIDv7 upper bound, or one that
-- straddles older_than.  Idempotent; takes turns with uuidv7_create_partitions
-- on the same lock of the parent.  (DETACH ... CONCURRENTLY cannot run inside a
-- function, and PostgreSQL refuses it on a table with a DEFAULT partition.)
--
-- A period is detached first, then dropped: DETACH is PostgreSQL's own
-- check that no row of another table references it (a DROP would meet the
-- foreign key's clone on the partition even where none does).  A period
-- that rows still reference is kept, each on its own, and reported as
-- kept (23503), with the foreign key as its user made it, and so is one
-- that other objects (a view) depend on (2BP01), or whose referencing
-- table the role may not read (42501); the others are retired.
--
-- With an archive (a table partitioned as this one is, of its owner), the
-- periods are detached for it, moved into its schema and marked with a
-- CHECK of their bounds, NOT VALID, named uuidv7_archive_pending and
-- commented with the archive's name: uuidv7_archive_partitions, in a
-- transaction of its own, attaches them.
--
-- Rows of a retired period that arrive later (a late client, a replay)
-- would land in the DEFAULT partition.  With refuse_late_rows, the DEFAULT
-- partition gets a CHECK, uuidv7_retired, that refuses keys before the
-- oldest partition left (23514, naming the constraint), replaced at each
-- call; rows already there are left for the user (uuidv7_doctor names them).
CREATE FUNCTION uuidv7_drop_partitions(parent pg_catalog.regclass, older_than pg_catalog.timestamptz,
									   detach_only pg_catalog.bool DEFAULT false,
									   refuse_late_rows pg_catalog.bool DEFAULT false,
									   lock_wait pg_catalog.interval DEFAULT '1 minute',
									   archive pg_catalog.regclass DEFAULT NULL,
									   OUT partition pg_catalog.text,
									   OUT action pg_catalog.text)
RETURNS SETOF record
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	below regclass[];
	checked record;
	cut uuid := @extschema@.uuidv7_min(older_than);
	old regclass;
	retired regclass[];
	retired_upper uuid[];
	default_partition regclass;
	key_column name;
	oldest uuid;
	current_check text;
	recheck bool := false;
	referencing regclass[];
	retired_lower uuid[];
	archive_schema name;
	archive_name text;
	archive_key name;
BEGIN
	-- (as a STRICT function would: archive may be NULL)
	IF parent IS NULL OR older_than IS NULL OR detach_only IS NULL OR refuse_late_rows IS NULL OR lock_wait IS NULL THEN
		RETURN;
	END IF;
	-- (this check is line 27 of the body, which the CONTEXT of its error
	-- names, as expected/partition.out shows)
	-- the parent checked first, by an assignment (an error names no SQL of ours)
	checked := uuidv7_internal.uuidv7_partitioned_parent(parent);
	IF archive IS NOT NULL THEN
		SELECT * INTO archive_schema, archive_name, archive_key FROM uuidv7_internal.uuidv7_archive_target(parent, archive);
	END IF;
	PERFORM uuidv7_internal.uuidv7_progress_step('uuidv7_drop_partitions', parent, 'waiting for upkeep''s turn on the table');
	PERFORM uuidv7_internal.uuidv7_lock_for_upkeep(ARRAY[parent], ARRAY['SHARE UPDATE EXCLUSIVE'], lock_wait);
	SELECT nullif(partdefid, 0)::regclass INTO default_partition
	FROM pg_partitioned_table WHERE partrelid = parent;
	IF refuse_late_rows AND default_partition IS NOT NULL THEN
		SELECT a.attname INTO key_column
		FROM pg_partitioned_table p
			JOIN pg_attribute a ON a.attrelid = p.partrelid AND a.attnum = p.partattrs[0]
		WHERE p.partrelid = parent;
		-- the oldest partition that stays: rows before it are late
		SELECT p.lower_bound INTO oldest
		FROM @extschema@.uuidv7_partitions(parent) p
		WHERE p.partition <> default_partition AND NOT (p.period_end IS NOT NULL AND p.upper_bound <= cut)
		ORDER BY p.lower_bound NULLS FIRST LIMIT 1;
		SELECT pg_get_constraintdef(c.oid) INTO current_check
		FROM pg_constraint c WHERE c.conrelid = default_partition AND c.conname = 'uuidv7_retired';
		-- (made again only where its bound changes: compared by the bound,
		-- as PostgreSQL deparses the key with a cast where it is of a domain)
		recheck := oldest IS NOT NULL
			AND substring(current_check FROM '>= ''([0-9a-f-]+)''::uuid[)]+( NOT VALID)?$')::uuid IS DISTINCT FROM oldest;
	END IF;

	-- (read once, under the lock, which keeps partitions from being
	-- attached or detached until the end of the transaction; each is checked
	-- again below, once locked)
	SELECT coalesce(array_agg(p.partition ORDER BY p.lower_bound NULLS FIRST), '{}'),
		coalesce(array_agg(p.upper_bound ORDER BY p.lower_bound NULLS FIRST), '{}'),
		coalesce(array_agg(p.lower_bound ORDER BY p.lower_bound NULLS FIRST), '{}')
	INTO retired, retired_upper, retired_lower
	FROM @extschema@.uuidv7_partitions(parent) p
	WHERE p.period_end IS NOT NULL AND p.upper_bound <= cut;
	-- (the partitions of a retired period or of DEFAULT that are themselves
	-- partitioned: DROP and DETACH lock theirs as well)
	SELECT coalesce(array_agg(t.relid ORDER BY t.level, t.relid), '{}') INTO below
	FROM unnest(retired || CASE WHEN recheck THEN ARRAY[default_partition] END) r,
		LATERAL pg_partition_tree(r) t
	WHERE t.relid <> r;
	-- (the tables whose foreign keys reference the retired periods, through
	-- PostgreSQL's clones: DETACH checks their rows and removes the clones,
	-- under ACCESS EXCLUSIVE, as DROP would; and those the table's own
	-- foreign keys reference, whose triggers DETACH and DROP change)
	SELECT coalesce(array_agg(DISTINCT t.rel), '{}') INTO referencing
	FROM (SELECT c.conrelid AS rel FROM pg_constraint c WHERE c.contype = 'f' AND c.confrelid = ANY (retired)
		  UNION SELECT c.confrelid FROM pg_constraint c WHERE c.contype = 'f' AND c.conrelid = parent) t
	WHERE t.rel <> parent AND NOT t.rel = ANY (retired || below);
	IF cardinality(retired) > 0 OR recheck THEN
		-- DETACH and DROP take ACCESS EXCLUSIVE on the parent and on the
		-- partition: taken in short tries, all at once, so that waiting never
		-- holds back the queue behind, nor holds the parent while it waits
		-- for a session that reads a partition by its name
		PERFORM uuidv7_internal.uuidv7_progress_step('uuidv7_drop_partitions', parent,
													 'waiting for the table and the partitions it retires');
		PERFORM uuidv7_internal.uuidv7_lock_for_upkeep(
			ARRAY[parent, CASE WHEN recheck THEN default_partition END] || retired || below || referencing,
			array_fill('ACCESS EXCLUSIVE'::text, ARRAY[2 + cardinality(retired) + cardinality(below) + cardinality(referencing)]),
			lock_wait);
	END IF;
	FOR i IN 1 .. cardinality(retired) LOOP
		old := retired[i];
		-- (still a partition of the table, of the bound listed: the snapshot
		-- of a REPEATABLE READ transaction, which the SQL edition's listing
		-- reads, may predate the lock and show one detached since, or moved to
		-- another table, which is no longer this table's to retire; its
		-- ancestors and its partition constraint are read from the catalog as
		-- it is now.  One whose DETACH CONCURRENTLY is pending has no
		-- ancestors: it is left to the one detaching it.)
		-- (the operator named by PostgreSQL where the key's operator class
		-- has its own: OPERATOR(schema.<))
		CONTINUE WHEN NOT EXISTS (SELECT FROM pg_partition_ancestors(old) a WHERE a.relid = parent)
			OR NOT EXISTS (SELECT FROM pg_get_partition_constraintdef(old) AS d(def)
						   WHERE strpos(d.def, format('< %L::', retired_upper[i])) > 0
							   OR strpos(d.def, format('.<) %L::', retired_upper[i])) > 0);
		-- (each period on its own: one that cannot leave is kept, and the
		-- others go)
		SELECT r.partition, r.action INTO partition, action
		FROM uuidv7_internal.uuidv7_retire_period(parent, old, retired_lower[i], retired_upper[i], detach_only,
												  checked.parent_schema, archive_schema, archive_name, archive_key) r;
		RETURN NEXT;
	END LOOP;
	IF recheck THEN
		PERFORM uuidv7_internal.uuidv7_refuse_rows_before(default_partition, key_column, oldest, current_check IS NOT NULL);
		partition := default_partition::text;
		action := 'refuses rows before ' || @extschema@.uuidv7_timestamp(oldest);
		RETURN NEXT;
	END IF;
END
$function$;

COMMENT ON FUNCTION uuidv7_drop_partitions(pg_catalog.regclass, pg_catalog.timestamptz, pg_catalog.bool, pg_catalog.bool, pg_catalog.interval, pg_catalog.regclass) IS
'drop, or detach and keep (for an archive, into its schema), the partitions of a table partitioned on a UUIDv7 key whose whole range ends at or before a time, each on its own, keeping those that rows of other tables reference; with refuse_late_rows, the DEFAULT partition refuses rows of retired periods; waits for locks at most lock_wait';

-- Attach to an archive the periods retired for it (uuidv7_drop_partitions
-- with an archive): each with its bounds, its CHECK uuidv7_archive_pending
-- validated first (a read of the period under SHARE UPDATE EXCLUSIVE, which
-- holds up no one: the period is no longer its table's), so that ATTACH
-- scans nothing, then dropped.  Each on its own: one that cannot be
-- attached (its bounds taken in the archive, its columns no longer the
-- archive's) is kept waiting, with the reason.  Takes only SHARE UPDATE
-- EXCLUSIVE on the archive, so its readers and writers go on.
CREATE FUNCTION uuidv7_archive_partitions(archive pg_catalog.regclass,
										  lock_wait pg_catalog.interval DEFAULT '1 minute',
										  OUT partition pg_catalog.text,
										  OUT action pg_catalog.text)
RETURNS SETOF record
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	checked record;
	waiting record;
	bounds text[];
BEGIN
	checked := uuidv7_internal.uuidv7_partitioned_parent(archive);
	PERFORM uuidv7_internal.uuidv7_must_own(archive);
	FOR waiting IN
		SELECT c.oid::regclass AS tbl, pg_get_constraintdef(k.oid) AS def
		FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid
		WHERE k.conname = 'uuidv7_archive_pending' AND c.relkind = 'r' AND NOT c.relispartition
			AND obj_description(k.oid, 'pg_constraint') = format('%I.%I', checked.parent_schema, checked.parent_name)
		ORDER BY c.oid::regclass::text
	LOOP
		partition := waiting.tbl::text;
		SELECT array_agg(m[1]) INTO bounds FROM regexp_matches(waiting.def, '''([0-9a-f-]{36})''', 'g') AS m;
		BEGIN
			PERFORM uuidv7_internal.uuidv7_progress_step('uuidv7_archive_partitions', archive, format('validating %s', waiting.tbl));
			PERFORM uuidv7_internal.uuidv7_lock_for_upkeep(ARRAY[archive, waiting.tbl],
														   ARRAY['SHARE UPDATE EXCLUSIVE', 'SHARE UPDATE EXCLUSIVE'], lock_wait);
			EXECUTE format('ALTER TABLE %s VALIDATE CONSTRAINT uuidv7_archive_pending', waiting.tbl);
			PERFORM uuidv7_internal.uuidv7_progress_step('uuidv7_archive_partitions', archive, format('attaching %s', waiting.tbl));
			PERFORM uuidv7_internal.uuidv7_lock_for_upkeep(ARRAY[archive, waiting.tbl],
														   ARRAY['SHARE UPDATE EXCLUSIVE', 'ACCESS EXCLUSIVE'], lock_wait);
			EXECUTE format('ALTER TABLE %s ATTACH PARTITION %s FOR VALUES FROM (%s) TO (%L)', archive, waiting.tbl,
						   CASE WHEN cardinality(bounds) = 2 THEN quote_literal(bounds[1]) ELSE 'MINVALUE' END,
						   bounds[cardinality(bounds)]);
			EXECUTE format('ALTER TABLE %s DROP CONSTRAINT uuidv7_archive_pending', waiting.tbl);
			action := 'attached';
		EXCEPTION WHEN OTHERS THEN
			action := format('kept (%s): %s', SQLSTATE, SQLERRM);
		END;
		RETURN NEXT;
	END LOOP;
END
$function$;

COMMENT ON FUNCTION uuidv7_archive_partitions(pg_catalog.regclass, pg_catalog.interval) IS
'attach to an archive, with their bounds and no scan under an exclusive lock, the periods retired for it by uuidv7_drop_partitions; one that cannot be attached is kept waiting, with the reason';
