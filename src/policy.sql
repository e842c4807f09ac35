-- policies: tables that keep themselves

-- A table's policy, in uuidv7_partition_config beside its grid: its periods
-- made `ahead` of now, and those that end `keep` before now retired
-- (dropped, or detached and kept), the DEFAULT partition refusing rows of
-- retired periods if asked.  uuidv7_run_maintenance() runs every policy, a
-- table at a time, and records each run in uuidv7_maintenance_history.

-- The history of maintenance, a row a table a run: what it created,
-- retired and moved, or the error that stopped it.  Not dumped (it is the
-- server's, not the data's); kept 30 days.
DO $uuidv7_maintenance_history$
BEGIN
	IF pg_catalog.to_regclass('@extschema@.uuidv7_maintenance_history') IS NULL THEN
		CREATE TABLE @extschema@.uuidv7_maintenance_history (
			parent_schema pg_catalog.name NOT NULL,
			parent_name pg_catalog.name NOT NULL,
			parent_oid pg_catalog.oid NOT NULL,
			started_at pg_catalog.timestamptz NOT NULL,
			duration pg_catalog.interval NOT NULL,
			created pg_catalog.int4 NOT NULL DEFAULT 0,
			retired pg_catalog.int4 NOT NULL DEFAULT 0,
			moved pg_catalog.int8 NOT NULL DEFAULT 0,
			sqlstate pg_catalog.text,
			error pg_catalog.text,
			-- (the tables made and retired, by name; retirement runs in a
			-- transaction of its own, and records its own error and a hint)
			created_partitions pg_catalog.text[] NOT NULL DEFAULT '{}',
			retired_partitions pg_catalog.text[] NOT NULL DEFAULT '{}',
			retire_sqlstate pg_catalog.text,
			retire_error pg_catalog.text,
			hint pg_catalog.text
		);
		CREATE INDEX uuidv7_maintenance_history_parent
			ON @extschema@.uuidv7_maintenance_history (parent_oid, started_at);
		COMMENT ON TABLE @extschema@.uuidv7_maintenance_history IS
		'each maintenance run of a partitioned table''s policy: when, how long, the periods created and retired, rows moved, the errors of creating and of retiring if any';
		-- (each row checked as the records are: by the role that may alter
		-- the table, of the table's OID, at a time past; read through the
		-- views, which show the tables the reader may read)
		CREATE TRIGGER uuidv7_maintenance_history_check
			BEFORE INSERT OR UPDATE OR DELETE ON @extschema@.uuidv7_maintenance_history
			FOR EACH ROW EXECUTE FUNCTION uuidv7_internal.uuidv7_partition_config_check();
		GRANT INSERT, DELETE ON @extschema@.uuidv7_maintenance_history TO PUBLIC;
		GRANT UPDATE (duration, retired, retired_partitions, retire_sqlstate, retire_error, hint)
			ON @extschema@.uuidv7_maintenance_history TO PUBLIC;
		GRANT SELECT (parent_oid, started_at) ON @extschema@.uuidv7_maintenance_history TO PUBLIC;
	END IF;
END
$uuidv7_maintenance_history$;

-- Give a table its policy, change it, or remove it (both ahead and keep
-- NULL), in one call; a table without a grid is given one (its step and
-- zone), as its first periods would record it.  The periods the policy asks
-- for now are made before it returns (a NOTICE names them), by
-- maintenance's own step, as the table's owner.
CREATE FUNCTION uuidv7_set_partition_policy(parent pg_catalog.regclass,
											ahead pg_catalog.interval DEFAULT NULL,
											keep pg_catalog.interval DEFAULT NULL,
											retire pg_catalog.text DEFAULT 'drop',
											refuse_late_rows pg_catalog.bool DEFAULT false,
											step pg_catalog.interval DEFAULT NULL,
											zone pg_catalog.text DEFAULT NULL,
											archive pg_catalog.text DEFAULT NULL)
RETURNS void
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	checked record;
	grid record;
	given_ahead interval := $2;
	given_keep interval := $3;
	given_retire text := $4;
	given_refuse bool := $5;
	made record;
	into_schema name;
	into_name name;
BEGIN
	IF parent IS NULL OR given_retire IS NULL OR given_refuse IS NULL THEN
		RAISE EXCEPTION 'the table, retire and refuse_late_rows of a partition policy must not be null'
			USING ERRCODE = 'null_value_not_allowed';
	END IF;
	IF given_retire NOT IN ('drop', 'detach', 'archive') THEN
		RAISE EXCEPTION 'retire must be "drop", "detach" or "archive"'
			USING ERRCODE = 'invalid_parameter_value', DETAIL = format('It is "%s".', given_retire);
	END IF;
	IF archive IS NOT NULL AND given_retire <> 'archive' THEN
		RAISE EXCEPTION 'an archive is given only where retire is "archive"'
			USING ERRCODE = 'invalid_parameter_value', DETAIL = format('retire is "%s".', given_retire);
	END IF;
	IF step <= interval '0' OR uuidv7_internal.uuidv7_has_negative_part(step) THEN
		RAISE EXCEPTION 'step must be a positive interval'
			USING ERRCODE = 'invalid_parameter_value', DETAIL = format('The step is "%s".', step);
	END IF;
	IF given_ahead <= interval '0' OR given_keep <= interval '0'
		OR uuidv7_internal.uuidv7_has_negative_part(given_ahead) OR uuidv7_internal.uuidv7_has_negative_part(given_keep) THEN
		RAISE EXCEPTION 'ahead and keep must be positive intervals'
			USING ERRCODE = 'invalid_parameter_value',
				  DETAIL = 'No part of either (months, days, time) may be negative.';
	END IF;
	checked := uuidv7_internal.uuidv7_partitioned_parent(parent);
	PERFORM uuidv7_internal.uuidv7_must_own(parent);
	grid := uuidv7_internal.uuidv7_call_grid(parent, step, zone, now(), now());
	IF grid.source = 'given' THEN
		-- (partitions whose grid cannot be read: the step and zone given are
		-- recorded only if they follow them, 22023 otherwise)
		PERFORM @extschema@.uuidv7_set_partition_grid(parent, grid.step, grid.zone);
	ELSIF grid.source <> 'recorded' THEN
		PERFORM uuidv7_internal.uuidv7_record_grid(parent, grid.step, grid.zone, grid.anchor);
	END IF;
	IF given_retire = 'archive' THEN
		SELECT a.archive_schema, a.archive_name INTO into_schema, into_name
		FROM uuidv7_internal.uuidv7_archive_name(parent, archive) a;
		-- (one there already must be fit to take the periods)
		PERFORM uuidv7_internal.uuidv7_archive_table(parent, into_schema, into_name, false);
	END IF;
	UPDATE @extschema@.uuidv7_partition_config c
	SET ahead = given_ahead, keep = given_keep, retire = given_retire, refuse_late_rows = given_refuse,
		archive_schema = into_schema, archive_name = into_name
	WHERE c.parent_oid = parent;
	-- (the periods it asks for now made at once, by maintenance's own step,
	-- as the table's owner, and recorded as a run: a new table's first
	-- insert finds its partition; an error is raised, and nothing is kept)
	IF given_ahead IS NULL AND given_keep IS NOT NULL
		AND NOT EXISTS (SELECT FROM @extschema@.uuidv7_partitions(parent) p WHERE p.period_start IS NOT NULL) THEN
		RAISE NOTICE 'uuidv7_set_partition_policy: %: a policy without ahead makes no periods, and the table has none', parent
			USING HINT = 'Give it ahead, or make its periods with uuidv7_create_partitions: its rows have no partition until then.';
	END IF;
	IF given_ahead IS NOT NULL THEN
		made := uuidv7_internal.uuidv7_maintain_as_owner(parent, interval '1 minute', 'create', clock_timestamp());
		-- (a period that could not be made keeps neither the policy nor the
		-- others from being: told, as a run tells it, and recorded)
		IF made.error_message IS NOT NULL THEN
			RAISE WARNING 'uuidv7_set_partition_policy: %: %', parent, made.error_message
				USING DETAIL = format('SQLSTATE %s; the policy is set, the other periods are made, uuidv7_maintenance_runs has it, and the next run tries again.',
									  made.error_code);
		END IF;
		IF cardinality(made.partitions) > 0 THEN
			RAISE NOTICE 'uuidv7_set_partition_policy: %: made %', parent, array_to_string(made.partitions, ', ');
		END IF;
	END IF;
END
$function$;

COMMENT ON FUNCTION uuidv7_set_partition_policy(pg_catalog.regclass, pg_catalog.interval, pg_catalog.interval, pg_catalog.text, pg_catalog.bool, pg_catalog.interval, pg_catalog.text, pg_catalog.text) IS
'give a partitioned table its policy (periods made ahead of now, retired after keep), change it, or remove it with both NULL; makes the periods it asks for now';

-- The runs of adjacent periods among periods given by their starts and
-- ends (in any order), each as the start of its first period and the end of
-- its last, in order of time.
CREATE FUNCTION uuidv7_internal.uuidv7_period_runs(starts pg_catalog.timestamptz[], ends pg_catalog.timestamptz[],
												   OUT from_ts pg_catalog.timestamptz,
												   OUT upto_ts pg_catalog.timestamptz)
RETURNS SETOF record
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $function$
BEGIN
	RETURN QUERY
		SELECT min(r.s), max(r.e)
		FROM (SELECT p.s, p.e, sum(CASE WHEN p.s = p.prev_e THEN 0 ELSE 1 END) OVER (ORDER BY p.s) AS run
			  FROM (SELECT u.s, u.e, lag(u.e) OVER (ORDER BY u.s) AS prev_e
					FROM unnest(starts, ends) AS u(s, e)) p) r
		GROUP BY r.run
		ORDER BY min(r.s);
END
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_period_runs(pg_catalog.timestamptz[], pg_catalog.timestamptz[]) IS
'the runs of adjacent periods among periods given by their starts and ends, each from its first period''s start to its last one''s end, in order of time (used by uuidv7_periods_to_make)';

-- The periods a policy makes, on the table's grid: those of now to ahead,
-- and, within keep, those of a hole between partitions or after the last,
-- and those from the oldest row that waits in the DEFAULT partition on
-- (without a keep, the holes between partitions and after the last).  A period any part of which a partition holds (adopted, made
-- by hand, attached again) is left out: the table goes on from the
-- partitions it has.  At most 100 a call, the nearest to now first, so that
-- a long outage of maintenance is caught up over a few runs.  Returns their
-- spans, runs of adjacent periods in order of time, to be made by
-- uuidv7_create_partitions.  The caller holds upkeep's turn on the table.
CREATE FUNCTION uuidv7_internal.uuidv7_periods_to_make(parent pg_catalog.regclass, ahead pg_catalog.interval,
													   keep pg_catalog.interval,
													   OUT from_ts pg_catalog.timestamptz,
													   OUT upto_ts pg_catalog.timestamptz)
RETURNS SETOF record
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	most CONSTANT int := 100;
	grid record;
	default_partition regclass;
	key_column name;
	los uuid[];
	his uuid[];
	n int;
	now_bound uuid := @extschema@.uuidv7_min(now());
	-- (ahead and keep counted on the grid's calendar, as its periods are:
	-- the same periods whatever the session's TimeZone)
	ahead_to timestamptz;
	keep_from timestamptz;
	-- (a period that ends after the cut is within keep: it is not retired;
	-- a keep that reaches before 1970 keeps every period a UUIDv7 can have)
	cut uuid;
	-- (the end of the partitions that hold now, one after another)
	held_to uuid;
	starts timestamptz[] := '{}';
	ends timestamptz[] := '{}';
	per record;
	gap record;
	gap_start timestamptz;
	oldest_waiting uuid;
	-- (rows before the period that holds the cut are past keep)
	oldest_kept uuid;
BEGIN
	grid := uuidv7_internal.uuidv7_call_grid(parent, NULL, NULL, now(), now() + coalesce(ahead, interval '0'));
	ahead_to := uuidv7_internal.uuidv7_grid_start(now(), ahead, grid.zone, 1);
	IF keep IS NOT NULL THEN
		keep_from := greatest(uuidv7_internal.uuidv7_grid_start(now(), keep, grid.zone, -1), 'epoch');
		cut := @extschema@.uuidv7_min(keep_from);
	END IF;
	SELECT nullif(p.partdefid, 0)::regclass, a.attname INTO default_partition, key_column
	FROM pg_partitioned_table p
		JOIN pg_attribute a ON a.attrelid = p.partrelid AND a.attnum = p.partattrs[0]
	WHERE p.partrelid = parent;
	-- the partitions there are, in order (NULL: MINVALUE, MAXVALUE)
	SELECT array_agg(p.lower_bound ORDER BY p.lower_bound NULLS FIRST),
		array_agg(p.upper_bound ORDER BY p.lower_bound NULLS FIRST)
	INTO los, his
	FROM @extschema@.uuidv7_partitions(parent) p
	WHERE p.partition IS DISTINCT FROM default_partition
		AND (p.lower_bound IS NOT NULL OR p.upper_bound IS NOT NULL);
	n := coalesce(cardinality(los), 0);
	IF keep IS NOT NULL THEN
		oldest_kept := @extschema@.uuidv7_min(uuidv7_internal.uuidv7_grid_start(
			grid.anchor, grid.step, grid.zone,
			uuidv7_internal.uuidv7_grid_index(grid.anchor, grid.step, grid.zone, keep_from)));
	END IF;

	-- now to ahead, each period that no partition meets: a hundred at most,
	-- counted from where the partitions that hold now end (those made by
	-- earlier runs are not counted again)
	IF ahead IS NOT NULL THEN
		held_to := now_bound;
		FOR i IN 1 .. n LOOP
			IF (los[i] IS NULL OR los[i] <= held_to) AND (his[i] IS NULL OR his[i] > held_to) THEN
				held_to := his[i];
			END IF;
		END LOOP;
		FOR per IN
			SELECT g.* FROM uuidv7_internal.uuidv7_grid_periods(
				grid.anchor, grid.step, grid.zone, greatest(now(), @extschema@.uuidv7_timestamp(held_to)),
				least(ahead_to, uuidv7_internal.uuidv7_grid_start(
					grid.anchor, grid.step, grid.zone,
					uuidv7_internal.uuidv7_grid_index(grid.anchor, grid.step, grid.zone,
													  coalesce(@extschema@.uuidv7_timestamp(held_to), ahead_to)) + most))) g
			WHERE NOT EXISTS (SELECT FROM unnest(los, his) AS p(lo, hi)
							  WHERE (p.lo IS NULL OR p.lo < g.upper_bound) AND (p.hi IS NULL OR p.hi > g.lower_bound))
		LOOP
			starts := starts || per.period_start;
			ends := ends || per.period_end;
		END LOOP;
	END IF;

	-- the past within keep, newest first: the gaps between partitions (and
	-- after the last one) made whole, and the gap before the first one from
	-- the period of its oldest row waiting in DEFAULT
	FOR gap IN
		SELECT g.lo, g.hi, g.first
		FROM (SELECT his[i - 1] AS lo, los[i] AS hi, false AS first FROM generate_series(2, n) i
			  UNION ALL SELECT his[n], NULL, false WHERE n > 0
			  UNION ALL SELECT NULL, CASE WHEN n > 0 THEN los[1] END, true WHERE n = 0 OR los[1] IS NOT NULL) g
		WHERE (g.first OR g.lo IS NOT NULL) AND (g.lo IS NULL OR g.hi IS NULL OR g.lo < g.hi)
			AND (g.lo IS NULL OR g.lo < now_bound) AND (g.hi IS NULL OR cut IS NULL OR g.hi > cut)
		ORDER BY g.lo DESC NULLS LAST
	LOOP
		EXIT WHEN cardinality(starts) >= most;
		gap_start := @extschema@.uuidv7_timestamp(gap.lo);
		-- (before the first partition only within a keep: a table without
		-- one would be filled back to its oldest stray row, a day a period)
		CONTINUE WHEN gap.first AND keep IS NULL;
		IF gap.first AND default_partition IS NOT NULL THEN
			EXECUTE format('SELECT %1$I FROM ONLY %2$s WHERE %1$I >= $1 AND %1$I < $2'
						   ' AND @extschema@.uuidv7_timestamp(%1$I) IS NOT NULL ORDER BY %1$I LIMIT 1',
						   key_column, default_partition)
				INTO oldest_waiting
				USING coalesce(oldest_kept, '00000000-0000-0000-0000-000000000000'::uuid), least(coalesce(gap.hi, now_bound), now_bound);
			gap_start := @extschema@.uuidv7_timestamp(oldest_waiting);
		END IF;
		CONTINUE WHEN gap_start IS NULL;
		FOR per IN
			SELECT g.* FROM uuidv7_internal.uuidv7_grid_periods(
				grid.anchor, grid.step, grid.zone,
				-- (the hundred periods at most that end the gap)
				greatest(gap_start, keep_from,
						 uuidv7_internal.uuidv7_grid_start(grid.anchor, grid.step, grid.zone,
							uuidv7_internal.uuidv7_grid_index(grid.anchor, grid.step, grid.zone,
								least(coalesce(@extschema@.uuidv7_timestamp(gap.hi), now()), now())) - most)),
				least(coalesce(@extschema@.uuidv7_timestamp(gap.hi), now()), now())) g
			WHERE (gap.lo IS NULL OR g.lower_bound >= gap.lo) AND g.upper_bound <= coalesce(gap.hi, now_bound)
				AND g.upper_bound <= now_bound AND (cut IS NULL OR g.upper_bound > cut)
			ORDER BY g.period_start DESC LIMIT most - cardinality(starts)
		LOOP
			starts := starts || per.period_start;
			ends := ends || per.period_end;
		END LOOP;
	END LOOP;

	-- runs of adjacent periods, in order of time
	RETURN QUERY
		SELECT s.from_ts, s.upto_ts FROM uuidv7_internal.uuidv7_period_runs(starts, ends) s ORDER BY s.from_ts;
END
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_periods_to_make(pg_catalog.regclass, pg_catalog.interval, pg_catalog.interval) IS
'the spans of a table''s grid that its policy makes: now to ahead, and within keep the holes between partitions and the periods whose rows wait in DEFAULT, skipping what a partition holds; a hundred periods at most, the nearest to now first';

-- Make the periods of a span of a table's grid, all at once, or where
-- that fails one by one, each on its own: a row for each period made, and
-- one with the error of each that could not be (no partition_name), so that
-- only the period that cannot be made is left out; the locks not had within
-- lock_wait stop it (55P03).
CREATE FUNCTION uuidv7_internal.uuidv7_make_span(parent pg_catalog.regclass, from_ts pg_catalog.timestamptz,
												 upto_ts pg_catalog.timestamptz, lock_wait pg_catalog.interval,
												 OUT partition_name pg_catalog.text,
												 OUT moved pg_catalog.int8,
												 OUT error_code pg_catalog.text,
												 OUT error_message pg_catalog.text)
RETURNS SETOF record
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	grid record;
	per record;
BEGIN
	-- (the rows of create_partitions come once it has made them all: a
	-- span that fails returns none)
	BEGIN
		RETURN QUERY
			SELECT c.partition_name, c.moved, NULL::text, NULL::text
			FROM @extschema@.uuidv7_create_partitions(parent, from_ts, upto_ts, lock_wait => lock_wait) c
			WHERE c.created;
		RETURN;
	EXCEPTION WHEN OTHERS THEN
		GET STACKED DIAGNOSTICS error_code = RETURNED_SQLSTATE, error_message = MESSAGE_TEXT;
	END;
	IF error_code <> '55P03' THEN
		grid := uuidv7_internal.uuidv7_call_grid(parent, NULL, NULL, from_ts, upto_ts);
		FOR per IN SELECT * FROM uuidv7_internal.uuidv7_grid_periods(grid.anchor, grid.step, grid.zone, from_ts, upto_ts) LOOP
			error_code := NULL;
			error_message := NULL;
			BEGIN
				RETURN QUERY
					SELECT c.partition_name, c.moved, NULL::text, NULL::text
					FROM @extschema@.uuidv7_create_partitions(parent, per.period_start, per.period_end, lock_wait => lock_wait) c
					WHERE c.created;
				CONTINUE;
			EXCEPTION WHEN OTHERS THEN
				GET STACKED DIAGNOSTICS error_code = RETURNED_SQLSTATE, error_message = MESSAGE_TEXT;
			END;
			EXIT WHEN error_code = '55P03';
			partition_name := NULL;
			moved := 0;
			RETURN NEXT;
		END LOOP;
	END IF;
	IF error_code = '55P03' THEN
		partition_name := NULL;
		moved := 0;
		RETURN NEXT;
	END IF;
END
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_make_span(pg_catalog.regclass, pg_catalog.timestamptz, pg_catalog.timestamptz, pg_catalog.interval) IS
'make the periods of a span of a table''s grid, all at once or, where that fails, one by one: the periods made, and a row with the error of each that could not be';

-- Make the periods a table's policy asks for now (uuidv7_periods_to_make),
-- once upkeep's turn on the table is taken, each run of adjacent periods on
-- its own (uuidv7_make_span), those from now on first; the locks not had
-- within lock_wait stop them all.
CREATE FUNCTION uuidv7_internal.uuidv7_make_policy_periods(parent pg_catalog.regclass, ahead pg_catalog.interval,
														   keep pg_catalog.interval, lock_wait pg_catalog.interval,
														   OUT partition_name pg_catalog.text,
														   OUT moved pg_catalog.int8,
														   OUT error_code pg_catalog.text,
														   OUT error_message pg_catalog.text)
RETURNS SETOF record
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	span record;
	made record;
BEGIN
	PERFORM uuidv7_internal.uuidv7_lock_for_upkeep(ARRAY[parent], ARRAY['SHARE UPDATE EXCLUSIVE'], lock_wait);
	FOR span IN
		SELECT * FROM uuidv7_internal.uuidv7_periods_to_make(parent, ahead, keep) s
		ORDER BY s.upto_ts > now() DESC, s.from_ts DESC
	LOOP
		FOR made IN SELECT * FROM uuidv7_internal.uuidv7_make_span(parent, span.from_ts, span.upto_ts, lock_wait) LOOP
			partition_name := made.partition_name;
			moved := made.moved;
			error_code := made.error_code;
			error_message := made.error_message;
			RETURN NEXT;
			IF error_code = '55P03' THEN
				RETURN;
			END IF;
		END LOOP;
	END LOOP;
END
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_make_policy_periods(pg_catalog.regclass, pg_catalog.interval, pg_catalog.interval, pg_catalog.interval) IS
'make the periods a table''s policy asks for now, in upkeep''s turn on the table, each run of adjacent periods on its own; the periods made, and a row with the error of each run that could not be made';

-- The archive a policy names: its schema and name, the parent's schema
-- where the name has none, <table>_archive where no name is given; 3F000
-- for a schema that does not exist.
CREATE FUNCTION uuidv7_internal.uuidv7_archive_name(parent pg_catalog.regclass, archive pg_catalog.text,
													OUT archive_schema pg_catalog.name, OUT archive_name pg_catalog.name)
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	parts text[];
BEGIN
	SELECT n.nspname, c.relname INTO archive_schema, archive_name
	FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = parent;
	IF archive IS NULL THEN
		IF octet_length(archive_name || '_archive') > 63 THEN
			RAISE EXCEPTION 'archive name "%" is longer than 63 bytes', archive_name || '_archive'
				USING ERRCODE = 'name_too_long', HINT = 'Give the archive a name of your own.';
		END IF;
		archive_name := archive_name || '_archive';
		RETURN;
	END IF;
	parts := parse_ident(archive);
	IF cardinality(parts) > 2 THEN
		RAISE EXCEPTION 'archive must name a table, with its schema or not'
			USING ERRCODE = 'invalid_parameter_value', DETAIL = format('It is "%s".', archive);
	END IF;
	archive_name := parts[cardinality(parts)];
	IF cardinality(parts) = 2 THEN
		archive_schema := parts[1];
	END IF;
	IF NOT EXISTS (SELECT FROM pg_namespace n WHERE n.nspname = archive_schema) THEN
		RAISE EXCEPTION 'schema "%" does not exist', archive_schema
			USING ERRCODE = 'invalid_schema_name';
	END IF;
END
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_archive_name(pg_catalog.regclass, pg_catalog.text) IS
'the schema and name of the archive a policy names (the parent''s schema where the name has none, <table>_archive where none is given)';

-- The archive of a table's policy: a table partitioned by range on a
-- column of the name and type of the table's key, owned by the table's
-- owner (42809, 42501 otherwise: its periods must stay as safe as they
-- were), made where it is missing and make is true (LIKE the table, with
-- its indexes, which the retired periods have; the table's grid recorded
-- for it), NULL where it is missing and make is false.
CREATE FUNCTION uuidv7_internal.uuidv7_archive_table(parent pg_catalog.regclass, archive_schema pg_catalog.name,
													 archive_name pg_catalog.name, make pg_catalog.bool)
RETURNS pg_catalog.regclass
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	archive regclass := to_regclass(format('%I.%I', archive_schema, archive_name));
	key_column name;
	key_type oid;
	grid record;
BEGIN
	SELECT a.attname, a.atttypid INTO key_column, key_type
	FROM pg_partitioned_table p JOIN pg_attribute a ON a.attrelid = p.partrelid AND a.attnum = p.partattrs[0]
	WHERE p.partrelid = parent;
	IF archive IS NULL THEN
		IF NOT make THEN
			RETURN NULL;
		END IF;
		EXECUTE format('CREATE TABLE %I.%I (LIKE %s INCLUDING COMMENTS INCLUDING GENERATED INCLUDING STORAGE INCLUDING INDEXES)'
					   ' PARTITION BY RANGE (%I)', archive_schema, archive_name, parent, key_column);
		archive := format('%I.%I', archive_schema, archive_name)::regclass;
		grid := uuidv7_internal.uuidv7_call_grid(parent, NULL, NULL, now(), now());
		PERFORM uuidv7_internal.uuidv7_record_grid(archive, grid.step, grid.zone, grid.anchor);
		RETURN archive;
	END IF;
	IF NOT EXISTS (SELECT FROM pg_partitioned_table p
					   JOIN pg_attribute a ON a.attrelid = p.partrelid AND a.attnum = p.partattrs[0]
				   WHERE p.partrelid = archive AND p.partstrat = 'r' AND p.partnatts = 1
					   AND a.attname = key_column AND a.atttypid = key_type) THEN
		RAISE EXCEPTION 'archive % is not partitioned as % is', archive, parent
			USING ERRCODE = 'wrong_object_type',
				  DETAIL = format('An archive is partitioned by range on its column %I, of type %s.', key_column, key_type::regtype),
				  HINT = 'Name another archive, or none: one is made on first use.';
	END IF;
	IF (SELECT c.relowner FROM pg_class c WHERE c.oid = archive) <> (SELECT c.relowner FROM pg_class c WHERE c.oid = parent) THEN
		RAISE EXCEPTION 'archive % must be owned by the owner of table %', archive, parent
			USING ERRCODE = 'insufficient_privilege',
				  DETAIL = 'Retired periods keep their owner, and an archive of another owner would give that owner their rows.';
	END IF;
	RETURN archive;
END
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_archive_table(pg_catalog.regclass, pg_catalog.name, pg_catalog.name, pg_catalog.bool) IS
'the archive of a table''s policy, checked (partitioned as the table is, of its owner), made where missing if asked';

-- A step of uuidv7_maintain recorded in uuidv7_maintenance_history:
-- 'create' starts the run's record (started at run_started), 'retire' adds
-- to it what was retired, 'archive' its error, where it has one; then the
-- runs older than 30 days of this table, and those of a table that is no
-- more, deleted.
CREATE FUNCTION uuidv7_internal.uuidv7_record_maintenance_step(parent pg_catalog.regclass, step_name pg_catalog.text,
															   run_started pg_catalog.timestamptz,
															   created pg_catalog.int4, retired pg_catalog.int4,
															   moved pg_catalog.int8, error_code pg_catalog.text,
															   error_message pg_catalog.text, names pg_catalog.text[],
															   error_hint pg_catalog.text)
RETURNS void
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $function$
BEGIN
	IF step_name = 'create' THEN
		-- (recorded under the table's name now: its code may have renamed
		-- it; nothing where it dropped it)
		INSERT INTO @extschema@.uuidv7_maintenance_history AS h
			(parent_schema, parent_name, parent_oid, started_at, duration, created, retired, moved, sqlstate, error,
			 created_partitions, hint)
		SELECT n.nspname, c.relname, parent, run_started, clock_timestamp() - run_started,
			created, 0, moved, error_code, error_message, names, nullif(error_hint, '')
		FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE c.oid = parent;
	ELSIF step_name = 'archive' THEN
		-- (its error, where it has one, told as retirement's)
		UPDATE @extschema@.uuidv7_maintenance_history h
		SET duration = clock_timestamp() - h.started_at, retire_sqlstate = error_code,
			retire_error = 'archiving: ' || error_message
		WHERE h.parent_oid = parent AND h.started_at = run_started AND error_code IS NOT NULL;
	ELSE
		-- (the columns it sets only: a role may read none of the record)
		UPDATE @extschema@.uuidv7_maintenance_history h
		SET duration = clock_timestamp() - h.started_at, retired = uuidv7_record_maintenance_step.retired,
			retired_partitions = names, retire_sqlstate = error_code, retire_error = error_message
		WHERE h.parent_oid = parent AND h.started_at = run_started;
		IF error_hint <> '' THEN
			UPDATE @extschema@.uuidv7_maintenance_history h SET hint = error_hint
			WHERE h.parent_oid = parent AND h.started_at = run_started;
		END IF;
	END IF;
	-- (30 days of its runs kept, and none of a table that is no more)
	DELETE FROM @extschema@.uuidv7_maintenance_history h
	WHERE h.started_at < now() - interval '30 days'
		AND (h.parent_oid = parent OR NOT EXISTS (SELECT FROM pg_class c WHERE c.oid = h.parent_oid));
END
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_record_maintenance_step(pg_catalog.regclass, pg_catalog.text, pg_catalog.timestamptz, pg_catalog.int4, pg_catalog.int4, pg_catalog.int8, pg_catalog.text, pg_catalog.text, pg_catalog.text[], pg_catalog.text) IS
'a step of uuidv7_maintain recorded in uuidv7_maintenance_history (create starts the run''s record, retire and archive add to it), and the records older than 30 days deleted';

-- One table's maintenance by its policy, in steps that the caller runs in
-- transactions of their own, so that none undoes or holds back another:
-- 'create' makes the periods the policy asks for
-- (uuidv7_make_policy_periods) and records the run in the history, started
-- at run_started; 'retire' retires the periods that end keep before now,
-- each on its own (a period that rows of another table still reference is
-- kept, and named), and adds that to the run's record; 'archive' attaches
-- the periods retired into the policy's archive to it (after the table's
-- own locks are given back: the read that checks their bounds holds up no
-- reader or writer of the table).  An error is recorded, not raised (the
-- next step, and the next table, come).  Run as the table's owner
-- (uuidv7_maintain_as_owner).
CREATE FUNCTION uuidv7_internal.uuidv7_maintain(parent pg_catalog.regclass, lock_wait pg_catalog.interval,
												step_name pg_catalog.text, run_started pg_catalog.timestamptz,
												OUT created pg_catalog.int4, OUT retired pg_catalog.int4,
												OUT moved pg_catalog.int8, OUT error_code pg_catalog.text,
												OUT error_message pg_catalog.text, OUT partitions pg_catalog.text[])
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	checked record;
	policy record;
	names text[] := '{}';
	kept_partition text;
	kept_action text;
	error_hint text;
	archive regclass;
	cut_at timestamptz;
	hundredth timestamptz;
BEGIN
	IF step_name NOT IN ('create', 'retire', 'archive') THEN
		RAISE EXCEPTION 'a maintenance step is "create", "retire" or "archive"'
			USING ERRCODE = 'invalid_parameter_value', DETAIL = format('It is "%s".', step_name);
	END IF;
	checked := uuidv7_internal.uuidv7_partitioned_parent(parent);
	-- (a renamed table's record takes its name, which pg_dump keeps)
	PERFORM uuidv7_internal.uuidv7_rename_record(parent);
	SELECT c.* INTO policy FROM @extschema@.uuidv7_partition_config c WHERE c.parent_oid = parent;
	created := 0;
	retired := 0;
	moved := 0;
	BEGIN
		IF step_name = 'create' AND policy.ahead IS NOT NULL THEN
			SELECT count(m.partition_name), coalesce(sum(m.moved), 0),
				coalesce(array_agg(m.partition_name ORDER BY m.partition_name) FILTER (WHERE m.partition_name IS NOT NULL), '{}'),
				(array_agg(m.error_code) FILTER (WHERE m.error_code IS NOT NULL))[1],
				string_agg(m.error_message, '; ') FILTER (WHERE m.error_code IS NOT NULL)
			INTO created, moved, names, error_code, error_message
			FROM uuidv7_internal.uuidv7_make_policy_periods(parent, policy.ahead, policy.keep, lock_wait) m;
			-- (a period's name taken by another table: what to do with it)
			IF error_code = '42P07' THEN
				error_hint := 'Rename or drop the table the error names, or attach it with the period''s bounds if it holds the period''s rows: the next run makes the period.';
			END IF;
		-- (keep counted back on the grid's calendar, as its periods are;
		-- never a cut after now, whatever the record says)
		ELSIF step_name = 'retire' AND policy.keep IS NOT NULL
			AND (SELECT c < now() AND c > 'epoch' FROM uuidv7_internal.uuidv7_grid_start(now(), policy.keep, policy.zone, -1) AS c) THEN
			IF policy.retire = 'archive' THEN
				archive := uuidv7_internal.uuidv7_archive_table(parent, policy.archive_schema, policy.archive_name, true);
			END IF;
			-- (a hundred periods at most a run, the oldest first, as many
			-- as are made: the locks of a long way behind are taken over a
			-- few runs, never all at once)
			cut_at := uuidv7_internal.uuidv7_grid_start(now(), policy.keep, policy.zone, -1);
			SELECT p.period_end INTO hundredth
			FROM @extschema@.uuidv7_partitions(parent) p
			WHERE p.period_end IS NOT NULL AND p.upper_bound <= @extschema@.uuidv7_min(cut_at)
			ORDER BY p.lower_bound NULLS FIRST OFFSET 99 LIMIT 1;
			cut_at := least(cut_at, hundredth);
			SELECT count(*) FILTER (WHERE d.action IN ('dropped', 'detached', 'detached for the archive')),
				coalesce(array_agg(d.partition ORDER BY d.partition)
						 FILTER (WHERE d.action IN ('dropped', 'detached', 'detached for the archive')), '{}'),
				(array_agg(d.partition ORDER BY d.partition) FILTER (WHERE starts_with(d.action, 'kept')))[1],
				string_agg(format('partition %s is %s', d.partition, d.action), '; ' ORDER BY d.partition)
					FILTER (WHERE starts_with(d.action, 'kept'))
			INTO retired, names, kept_partition, kept_action
			FROM @extschema@.uuidv7_drop_partitions(parent, cut_at, policy.retire = 'detach',
													policy.refuse_late_rows, lock_wait, archive) d;
			-- (the periods kept, each named with why; the run's SQLSTATE the
			-- first one's, and the query that lists the rows that hold it)
			IF kept_partition IS NOT NULL THEN
				error_code := substring(kept_action FROM '^partition .*? is kept \(([0-9A-Z]{5})\)');
				error_message := kept_action;
				error_hint := CASE error_code
					WHEN '23503' THEN (uuidv7_internal.uuidv7_referencing_rows(parent, kept_partition::regclass)).query
						|| ' lists them; once no row references its period, the next run retires it.'
					WHEN '42501' THEN format('DETACH PARTITION reads the rows of the tables whose foreign keys reference %s: give its owner SELECT on them (GRANT SELECT ON ... TO %I).',
											 parent, (SELECT pg_get_userbyid(c.relowner) FROM pg_class c WHERE c.oid = parent))
					END;
			END IF;
		ELSIF step_name = 'archive' AND policy.retire = 'archive' THEN
			archive := uuidv7_internal.uuidv7_archive_table(parent, policy.archive_schema, policy.archive_name, false);
			IF archive IS NOT NULL THEN
				SELECT (array_agg(a.partition ORDER BY a.partition) FILTER (WHERE a.action <> 'attached'))[1],
					(array_agg(a.action ORDER BY a.partition) FILTER (WHERE a.action <> 'attached'))[1]
				INTO kept_partition, kept_action
				FROM @extschema@.uuidv7_archive_partitions(archive, lock_wait) a;
				IF kept_partition IS NOT NULL THEN
					error_code := '55000';
					error_message := format('table %s waits for archive %s: %s', kept_partition, archive, kept_action);
				END IF;
			END IF;
		END IF;
	-- (also a cancel, by a user or a timeout, or a failed assertion, which
	-- OTHERS leaves out: as autovacuum's, a cancel stops this table's run,
	-- and the next table's comes; a table's code raising one stops no other)
		-- (deferred constraint triggers that the step's DDL or moves queued
		-- fire here, where their error is the step's, not at the commit the
		-- caller makes, where it would end the whole run)
		SET CONSTRAINTS ALL IMMEDIATE;
	-- (the error's own hint is not kept: the table's code may have written
	-- it, and the doctor shows a run's hint as its fix)
	EXCEPTION WHEN OTHERS OR query_canceled OR assert_failure THEN
		GET STACKED DIAGNOSTICS error_code = RETURNED_SQLSTATE, error_message = MESSAGE_TEXT;
		error_hint := NULL;
		created := 0;
		retired := 0;
		moved := 0;
		names := '{}';
	END;
	PERFORM uuidv7_internal.uuidv7_record_maintenance_step(parent, step_name, run_started, created, retired, moved,
														   error_code, error_message, names, error_hint);
	partitions := names;
END
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_maintain(pg_catalog.regclass, pg_catalog.interval, pg_catalog.text, pg_catalog.timestamptz) IS
'one step (create or retire) of a table''s maintenance by its policy, recorded in uuidv7_maintenance_history; an error is recorded, not raised';

-- A table's maintenance as its owner, whoever calls it: its triggers and
-- the functions of its defaults and constraints run with the owner's rights,
-- never the caller's (a superuser's, a scheduler's).  The C edition runs it
-- as a security-restricted operation under the owner's id, as autovacuum
-- does (no SET ROLE back); the SQL edition, which cannot, maintains only the
-- tables of the calling role itself.  NULL for a table dropped since.
CREATE FUNCTION uuidv7_internal.uuidv7_maintain_as_owner(parent pg_catalog.regclass, lock_wait pg_catalog.interval,
														 step_name pg_catalog.text, run_started pg_catalog.timestamptz,
														 OUT created pg_catalog.int4, OUT retired pg_catalog.int4,
														 OUT moved pg_catalog.int8, OUT error_code pg_catalog.text,
														 OUT error_message pg_catalog.text, OUT partitions pg_catalog.text[])
--#if c
AS 'MODULE_PATHNAME', 'uuidv7_maintain_as_owner'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
--#else
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	r record;
BEGIN
	IF NOT EXISTS (SELECT FROM pg_class c WHERE c.oid = parent) THEN
		RETURN;
	END IF;
	IF (SELECT c.relowner FROM pg_class c WHERE c.oid = parent) <> (SELECT o.oid FROM pg_roles o WHERE o.rolname = current_user) THEN
		RAISE EXCEPTION 'must be owner of table %', parent
			USING ERRCODE = 'insufficient_privilege',
				  DETAIL = 'The SQL edition maintains a table only as its owner.';
	END IF;
	r := uuidv7_internal.uuidv7_maintain(parent, lock_wait, step_name, run_started);
	created := r.created;
	retired := r.retired;
	moved := r.moved;
	error_code := r.error_code;
	error_message := r.error_message;
	partitions := r.partitions;
END
$function$;
--#endif

COMMENT ON FUNCTION uuidv7_internal.uuidv7_maintain_as_owner(pg_catalog.regclass, pg_catalog.interval, pg_catalog.text, pg_catalog.timestamptz) IS
'one step (create or retire) of a table''s maintenance by its policy, as the table''s owner; NULL for a table dropped since';

-- The tables with a policy that the calling role may alter (in the SQL
-- edition, that it owns), in the order of their names: those
-- uuidv7_run_maintenance() and the worker maintain.
CREATE FUNCTION uuidv7_internal.uuidv7_policy_tables()
RETURNS SETOF pg_catalog.regclass
LANGUAGE sql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $function$
	SELECT c.oid::regclass
	FROM @extschema@.uuidv7_partition_config p
		JOIN pg_class c ON c.oid = p.parent_oid AND c.relkind = 'p'
		JOIN pg_namespace n ON n.oid = c.relnamespace
	WHERE (p.ahead IS NOT NULL OR p.keep IS NOT NULL)
--#if c
		AND pg_has_role(c.relowner, 'USAGE')
--#else
		AND c.relowner = (SELECT o.oid FROM pg_roles o WHERE o.rolname = current_user)
--#endif
	ORDER BY n.nspname, c.relname
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_policy_tables() IS
'the partitioned tables with a policy that the calling role may alter';

-- The worker's interval where it maintains the current database (uuidv7
-- preloaded, uuidv7.maintenance_role set, the database named in
-- uuidv7.maintenance_databases), NULL where it does not (the SQL edition has
-- no worker): how often the doctor expects a policy's table maintained.
CREATE FUNCTION uuidv7_internal.uuidv7_worker_interval()
RETURNS pg_catalog.interval
--#if c
AS 'MODULE_PATHNAME', 'uuidv7_worker_interval'
LANGUAGE C STABLE PARALLEL SAFE;
--#else
LANGUAGE sql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $function$
	SELECT NULL::interval
$function$;
--#endif

COMMENT ON FUNCTION uuidv7_internal.uuidv7_worker_interval() IS
'the maintenance worker''s interval where it maintains the current database, NULL where it does not';

-- Maintenance of every table with a policy that the calling role may
-- alter, each in transactions of its own (its locks taken in upkeep's
-- short tries, lock_wait at most), in the order of their names; a NOTICE a
-- table.  Idempotent, and safe beside another run (upkeep takes turns on
-- each table).  What the background worker runs, and a scheduler can: it
-- ends with an error naming the tables whose run failed, each with its
-- SQLSTATE (55000 its own), after every table's run was committed, so that
-- a scheduler records the call as failed; with warn_only, with a WARNING.
CREATE PROCEDURE uuidv7_run_maintenance(lock_wait pg_catalog.interval DEFAULT '1 minute',
										 warn_only pg_catalog.bool DEFAULT false)
LANGUAGE plpgsql
AS $procedure$
DECLARE
	failed text[] := '{}';
	failed_list text;
	t record;
	r record;
	made_created int4;
	made_moved int8;
	step_name text;
	started timestamptz;
	escaped_code text;
	escaped_message text;
BEGIN
	-- (before anything else: the caller's search_path must not choose the
	-- functions and operators this calls)
	PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
	PERFORM uuidv7_internal.uuidv7_forbid_transaction_block('uuidv7_run_maintenance');
	IF lock_wait IS NULL OR warn_only IS NULL THEN
		RAISE EXCEPTION 'uuidv7_run_maintenance() takes no NULL argument'
			USING ERRCODE = 'null_value_not_allowed';
	END IF;
	IF lock_wait < interval '0' OR uuidv7_internal.uuidv7_has_negative_part(lock_wait) THEN
		RAISE EXCEPTION 'lock_wait must not be negative'
			USING ERRCODE = 'invalid_parameter_value', DETAIL = format('It is "%s".', lock_wait);
	END IF;
	PERFORM uuidv7_internal.uuidv7_forget_dropped();
	COMMIT;
	PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
	FOR t IN SELECT p AS parent, count(*) OVER () AS tables, row_number() OVER () AS k
			 FROM uuidv7_internal.uuidv7_policy_tables() p LOOP
		-- (creating, retiring and archiving each in a transaction of its
		-- own: none undoes or holds back another.  What escapes a step, its record
		-- refused, the owner's rights lost since the list was read, is told,
		-- and the next step's, or table's, run comes)
		started := clock_timestamp();
		FOREACH step_name IN ARRAY ARRAY['create', 'retire', 'archive'] LOOP
			PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
			PERFORM uuidv7_internal.uuidv7_progress_step('uuidv7_run_maintenance', t.parent,
														 pg_catalog.format('table %s of %s', t.k, t.tables));
			escaped_code := NULL;
			r := NULL;
			BEGIN
				r := uuidv7_internal.uuidv7_maintain_as_owner(t.parent, lock_wait, step_name, started);
			EXCEPTION WHEN OTHERS OR query_canceled OR assert_failure THEN
				GET STACKED DIAGNOSTICS escaped_code = RETURNED_SQLSTATE, escaped_message = MESSAGE_TEXT;
			END;
			IF escaped_code IS NOT NULL THEN
				RAISE WARNING 'uuidv7_run_maintenance: %: %', t.parent, escaped_message
					USING DETAIL = format('SQLSTATE %s; the run was not recorded, and the next run tries again.', escaped_code);
				IF NOT pg_catalog.format('%s (%s)', t.parent, escaped_code) = ANY (failed) THEN
					failed := failed || pg_catalog.format('%s (%s)', t.parent, escaped_code);
				END IF;
			ELSIF r IS NULL THEN
				-- (dropped since it was listed)
				EXIT;
			ELSIF r.error_message IS NOT NULL THEN
				RAISE WARNING 'uuidv7_run_maintenance: %: %', t.parent, r.error_message
					USING DETAIL = format('SQLSTATE %s; uuidv7_maintenance_runs has it, and the next run tries again.', r.error_code);
				IF NOT pg_catalog.format('%s (%s)', t.parent, r.error_code) = ANY (failed) THEN
					failed := failed || pg_catalog.format('%s (%s)', t.parent, r.error_code);
				END IF;
			ELSIF step_name = 'create' THEN
				made_created := r.created;
				made_moved := r.moved;
			ELSIF step_name = 'retire' THEN
				RAISE NOTICE 'uuidv7_run_maintenance: %: % created, % retired, % rows moved',
					t.parent, coalesce(made_created, 0), r.retired, coalesce(made_moved, 0);
			END IF;
			COMMIT;
		END LOOP;
		made_created := NULL;
		made_moved := NULL;
	END LOOP;
	-- (every table's run committed: a scheduler, a worker's log, whatever
	-- watches the call, learns of a table that failed; warn_only tells it
	-- as a WARNING alone)
	-- (its SQLSTATE one of its own, whatever the tables' were: a client or
	-- a pool reads a class 40 or 08 code as a rollback or a lost
	-- connection; each table's code is in the message, ten at most)
	IF cardinality(failed) > 0 THEN
		failed_list := array_to_string(failed[1:10], ', ')
			|| CASE WHEN cardinality(failed) > 10 THEN pg_catalog.format(' and %s more', cardinality(failed) - 10) ELSE '' END;
		IF warn_only THEN
			RAISE WARNING 'uuidv7_run_maintenance: the maintenance of % failed', failed_list
				USING HINT = 'uuidv7_maintenance_runs and uuidv7_doctor() say why; the other tables were maintained.';
		ELSE
			RAISE EXCEPTION 'the maintenance of % failed', failed_list
				USING ERRCODE = 'object_not_in_prerequisite_state',
					  DETAIL = 'Every table''s run was committed, the failed ones recorded; the next run tries them again.',
					  HINT = 'uuidv7_maintenance_runs and uuidv7_doctor(), in this database, say why. CALL uuidv7_run_maintenance(warn_only => true) ends with a WARNING instead.';
		END IF;
	END IF;
END
$procedure$;

COMMENT ON PROCEDURE uuidv7_run_maintenance(pg_catalog.interval, pg_catalog.bool) IS
'run the policy of every partitioned table that has one and that the calling role may alter, each in transactions of its own, recording each run; ends with an error naming the tables that failed (a WARNING with warn_only)';

-- The policies, with each table's last run, and the recent history of
-- maintenance, newest first: of the tables the calling role may read
-- (security barriers: a function of the caller's in a condition sees no
-- row of another table first).
DO $uuidv7_policy_views$
BEGIN
	CREATE OR REPLACE VIEW @extschema@.uuidv7_partition_policies WITH (security_barrier) AS
		SELECT pg_catalog.format('%I.%I', n.nspname, c.relname) AS parent,
			p.step, p.zone, p.ahead, p.keep, p.retire, p.refuse_late_rows,
			CASE WHEN p.archive_name IS NOT NULL THEN pg_catalog.format('%I.%I', p.archive_schema, p.archive_name) END AS archive,
			l.started_at AS last_run,
			CASE WHEN l.started_at IS NOT NULL THEN l.sqlstate IS NULL AND l.retire_sqlstate IS NULL END AS last_run_ok,
			coalesce(l.error OPERATOR(pg_catalog.||) coalesce('; retiring: ' OPERATOR(pg_catalog.||) l.retire_error, ''),
					 l.retire_error) AS last_error
		FROM @extschema@.uuidv7_partition_config p
			JOIN pg_catalog.pg_class c ON c.oid OPERATOR(pg_catalog.=) p.parent_oid
			JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) c.relnamespace
			LEFT JOIN LATERAL (SELECT h.started_at, h.sqlstate, h.error, h.retire_sqlstate, h.retire_error
							   FROM @extschema@.uuidv7_maintenance_history h
							   WHERE h.parent_oid OPERATOR(pg_catalog.=) p.parent_oid
							   ORDER BY h.started_at DESC LIMIT 1) l ON true
		WHERE (p.ahead IS NOT NULL OR p.keep IS NOT NULL)
			AND pg_catalog.has_table_privilege(c.oid, 'SELECT');
	COMMENT ON VIEW @extschema@.uuidv7_partition_policies IS
	'the partitioned tables with a policy that the calling role may read: their grid, how far ahead periods are made and how long they are kept, and their last maintenance run';
	GRANT SELECT ON @extschema@.uuidv7_partition_policies TO PUBLIC;

	CREATE OR REPLACE VIEW @extschema@.uuidv7_maintenance_runs WITH (security_barrier) AS
		SELECT pg_catalog.format('%I.%I', n.nspname, c.relname) AS parent,
			h.started_at, h.duration, h.created, h.retired, h.moved,
			coalesce(h.sqlstate, h.retire_sqlstate) AS sqlstate,
			coalesce(h.error OPERATOR(pg_catalog.||) coalesce('; retiring: ' OPERATOR(pg_catalog.||) h.retire_error, ''),
					 h.retire_error) AS error,
			h.hint, h.created_partitions, h.retired_partitions
		FROM @extschema@.uuidv7_maintenance_history h
			JOIN pg_catalog.pg_class c ON c.oid OPERATOR(pg_catalog.=) h.parent_oid
			JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) c.relnamespace
		WHERE pg_catalog.has_table_privilege(c.oid, 'SELECT')
		ORDER BY h.started_at DESC, n.nspname, c.relname;
	COMMENT ON VIEW @extschema@.uuidv7_maintenance_runs IS
	'each maintenance run of the last 30 days of the tables the calling role may read, newest first: the table, when and how long, periods created and retired, rows moved, the error and a hint if any, and the partitions created and retired by name';
	GRANT SELECT ON @extschema@.uuidv7_maintenance_runs TO PUBLIC;
END
$uuidv7_policy_views$;
