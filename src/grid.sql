-- partition grids: what a partitioned table's periods are, remembered

-- A grid is a step, a time zone and an anchor, the instant periods are
-- counted from: period k starts at the anchor plus k steps, counted as
-- uuidv7_partition_bounds counts them (months, then days, on the zone's
-- local calendar, then the time).  A table's grid is recorded in
-- uuidv7_partition_config, kept by pg_dump, restore and pg_upgrade; a table
-- without a record has its grid read from its partitions' bounds.

-- The start of period k of a grid.
CREATE FUNCTION uuidv7_internal.uuidv7_grid_start(anchor pg_catalog.timestamptz, step pg_catalog.interval,
												  zone pg_catalog.text, k pg_catalog.int8)
RETURNS pg_catalog.timestamptz
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	months int8 := extract(year FROM step) * 12 + extract(month FROM step);
	days int8 := extract(day FROM step);
	t timestamptz := anchor;
BEGIN
	IF months <> 0 THEN
		t := ((t AT TIME ZONE zone) + make_interval(months => (months * k)::int)) AT TIME ZONE zone;
	END IF;
	IF days <> 0 THEN
		t := ((t AT TIME ZONE zone) + make_interval(days => (days * k)::int)) AT TIME ZONE zone;
	END IF;
	RETURN t + (step - make_interval(months => months::int, days => days::int)) * k;
END
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_grid_start(pg_catalog.timestamptz, pg_catalog.interval, pg_catalog.text, pg_catalog.int8) IS
'the start of period k of the grid of a step in a time zone counted from an anchor';

-- The number of the period of a grid that holds ts: the last whose start
-- is at or before it (periods of local days a zone skips are empty, and
-- never hold it).
CREATE FUNCTION uuidv7_internal.uuidv7_grid_index(anchor pg_catalog.timestamptz, step pg_catalog.interval,
												  zone pg_catalog.text, ts pg_catalog.timestamptz)
RETURNS pg_catalog.int8
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	months int8 := extract(year FROM step) * 12 + extract(month FROM step);
	-- (a mean Gregorian month: the guess is off by a period or two at most)
	average numeric := months * 2629746 + extract(epoch FROM step - make_interval(months => months::int));
	k int8;
	tries int := 0;
BEGIN
	IF step <= interval '0' OR average <= 0 THEN
		RAISE EXCEPTION 'step must be a positive interval'
			USING ERRCODE = 'invalid_parameter_value', DETAIL = format('The step is "%s".', step);
	END IF;
	k := floor(extract(epoch FROM ts - anchor) / average);
	LOOP
		IF uuidv7_internal.uuidv7_grid_start(anchor, step, zone, k) > ts THEN
			k := k - 1;
		ELSIF uuidv7_internal.uuidv7_grid_start(anchor, step, zone, k + 1) <= ts THEN
			k := k + 1;
		ELSE
			RETURN k;
		END IF;
		tries := tries + 1;
		IF tries > 1000 THEN
			RAISE EXCEPTION 'step must be a positive interval'
				USING ERRCODE = 'invalid_parameter_value', DETAIL = format('The step "%s" does not move forward in time.', step);
		END IF;
	END LOOP;
END
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_grid_index(pg_catalog.timestamptz, pg_catalog.interval, pg_catalog.text, pg_catalog.timestamptz) IS
'the number of the period of a grid that holds a time';

-- The periods of a grid that meet [from_ts, upto_ts), with their exact
-- UUIDv7 partition bounds: a from_ts inside a period means that period.
CREATE FUNCTION uuidv7_internal.uuidv7_grid_periods(anchor pg_catalog.timestamptz, step pg_catalog.interval,
													zone pg_catalog.text,
													from_ts pg_catalog.timestamptz, upto_ts pg_catalog.timestamptz,
													OUT period_start pg_catalog.timestamptz,
													OUT period_end pg_catalog.timestamptz,
													OUT lower_bound pg_catalog.uuid,
													OUT upper_bound pg_catalog.uuid)
RETURNS SETOF record
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	k int8;
	periods int := 0;
BEGIN
	PERFORM from_ts AT TIME ZONE zone;
	-- the span's edges must be times a UUIDv7 can carry
	PERFORM @extschema@.uuidv7_min(from_ts), @extschema@.uuidv7_min(upto_ts);
	k := uuidv7_internal.uuidv7_grid_index(anchor, step, zone, from_ts);
	period_end := uuidv7_internal.uuidv7_grid_start(anchor, step, zone, k);
	WHILE period_end < upto_ts LOOP
		period_start := period_end;
		k := k + 1;
		period_end := uuidv7_internal.uuidv7_grid_start(anchor, step, zone, k);
		IF period_end < period_start THEN
			RAISE EXCEPTION 'step must be a positive interval'
				USING ERRCODE = 'invalid_parameter_value',
					  DETAIL = format('The period starting at %s would end at %s.', period_start, period_end);
		END IF;
		-- (the empty periods of local days that the zone skips are skipped)
		CONTINUE WHEN period_end = period_start;
		periods := periods + 1;
		IF periods > 1000000 THEN
			RAISE EXCEPTION 'too many partition periods'
				USING ERRCODE = 'program_limit_exceeded',
					  DETAIL = 'A span is cut into at most 1000000 periods.',
					  HINT = 'Use a longer step or a shorter span.';
		END IF;
		lower_bound := @extschema@.uuidv7_min(period_start);
		upper_bound := @extschema@.uuidv7_min(period_end);
		IF lower_bound = upper_bound THEN
			RAISE EXCEPTION 'step must be at least one millisecond'
				USING ERRCODE = 'invalid_parameter_value',
					  DETAIL = format('The period from %s to %s holds no millisecond of a UUIDv7.', period_start, period_end);
		END IF;
		RETURN NEXT;
	END LOOP;
END
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_grid_periods(pg_catalog.timestamptz, pg_catalog.interval, pg_catalog.text, pg_catalog.timestamptz, pg_catalog.timestamptz) IS
'the periods of a grid that meet a span of time, from the one that holds its start, with their exact UUIDv7 partition bounds';

-- Where a table given its first periods counts them from: periods of a step
-- that fits the calendar start on its boundaries in the zone.  Steps of
-- months (and years, and quarters) count from a January the 1st, of days
-- (and weeks) from a Monday's midnight, of a time alone from the midnight
-- of the day from_ts falls on (they are lengths of time, unmoved by clock
-- changes: hours on the hour, quarter hours on the quarter).
CREATE FUNCTION uuidv7_internal.uuidv7_calendar_anchor(step pg_catalog.interval, zone pg_catalog.text,
													   from_ts pg_catalog.timestamptz)
RETURNS pg_catalog.timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $function$
	SELECT CASE
		WHEN extract(year FROM step) <> 0 OR extract(month FROM step) <> 0
			THEN timestamp '2000-01-01 00:00' AT TIME ZONE zone
		WHEN extract(day FROM step) <> 0
			THEN timestamp '2000-01-03 00:00' AT TIME ZONE zone
		ELSE date_trunc('day', from_ts AT TIME ZONE zone) AT TIME ZONE zone
	END
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_calendar_anchor(pg_catalog.interval, pg_catalog.text, pg_catalog.timestamptz) IS
'the instant a new table''s periods of a step are counted from, on the calendar of a time zone';

-- Whether an instant is a boundary of the calendar grid of a step in a
-- zone: a month's first at midnight for months, a midnight for days, a
-- multiple of the step from midnight for a time.
CREATE FUNCTION uuidv7_internal.uuidv7_on_calendar(ts pg_catalog.timestamptz, step pg_catalog.interval,
												   zone pg_catalog.text)
RETURNS pg_catalog.bool
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $function$
	SELECT uuidv7_internal.uuidv7_grid_start(a.anchor, step, zone,
											 uuidv7_internal.uuidv7_grid_index(a.anchor, step, zone, ts)) = ts
	FROM (SELECT uuidv7_internal.uuidv7_calendar_anchor(step, zone, ts) AS anchor) a
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_on_calendar(pg_catalog.timestamptz, pg_catalog.interval, pg_catalog.text) IS
'whether a time starts a period of the calendar''s grid of a step in a time zone';

-- Whether an interval has a negative part (months, days or time): such a
-- one may compare as positive (a year counts 360 days there) and still move
-- a time back: now() - '-1 year 361 days' is after now.
CREATE FUNCTION uuidv7_internal.uuidv7_has_negative_part(value pg_catalog.interval)
RETURNS pg_catalog.bool
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $function$
	SELECT m < 0 OR d < 0 OR value - make_interval(months => m::int, days => d::int) < interval '0'
	FROM (SELECT extract(year FROM value) * 12 + extract(month FROM value) AS m, extract(day FROM value) AS d) parts
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_has_negative_part(pg_catalog.interval) IS
'whether an interval has a negative part (months, days or time)';

-- A record (of uuidv7_partition_config, or of uuidv7_maintenance_history)
-- made or changed by a role that may not alter its table is refused, as
-- ALTER TABLE would be (42501): the grid decides the table's partitions.  A
-- new record is of a partitioned table that exists, whose OID it takes (a
-- restored table's is another), with a step, zone and anchor a grid can
-- have and a policy of no negative part, or a run that started before now
-- (22023).  A record of a table
-- that is no more (dropped since) any role may remove or replace.
CREATE FUNCTION uuidv7_internal.uuidv7_partition_config_check()
RETURNS trigger
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	config boolean := TG_TABLE_NAME = 'uuidv7_partition_config';
	parent oid;
	owner oid;
	now_schema name;
	now_name name;
BEGIN
	IF TG_OP <> 'INSERT' THEN
		-- (the table of the record's OID, under whatever name it has now)
		SELECT c.relowner INTO owner FROM pg_class c WHERE c.oid = OLD.parent_oid AND c.relkind = 'p';
		IF owner IS NOT NULL AND NOT pg_has_role(owner, 'USAGE') THEN
			RAISE EXCEPTION 'must be owner of table %', OLD.parent_oid::regclass
				USING ERRCODE = 'insufficient_privilege';
		END IF;
	END IF;
	IF TG_OP = 'DELETE' THEN
		RETURN OLD;
	ELSIF TG_OP = 'UPDATE' THEN
		-- (a record stays its table's: its OID does not change, and it takes
		-- the names the table has now, renamed or not; one of a table
		-- dropped since may only go)
		IF NEW.parent_oid IS DISTINCT FROM OLD.parent_oid THEN
			RAISE EXCEPTION 'a record of table % cannot be made another table''s', OLD.parent_oid::regclass
				USING ERRCODE = 'invalid_parameter_value', HINT = 'Delete it, and record the other table.';
		END IF;
		SELECT s.nspname, c.relname INTO now_schema, now_name
		FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace
		WHERE c.oid = OLD.parent_oid AND c.relkind = 'p';
		IF NOT FOUND THEN
			RAISE EXCEPTION 'must be owner of table %', format('%I.%I', OLD.parent_schema, OLD.parent_name)
				USING ERRCODE = 'insufficient_privilege', DETAIL = 'The table of the record is no more: delete the record.';
		END IF;
		NEW.parent_schema := now_schema;
		NEW.parent_name := now_name;
	ELSE
		-- (a new record names its table, which gives it its OID: a restored
		-- table's is another than its dump's)
		SELECT c.oid, c.relowner INTO parent, owner
		FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace
		WHERE s.nspname = NEW.parent_schema AND c.relname = NEW.parent_name AND c.relkind = 'p';
		IF owner IS NULL THEN
			RAISE EXCEPTION 'must be owner of table %', format('%I.%I', NEW.parent_schema, NEW.parent_name)
				USING ERRCODE = 'insufficient_privilege', DETAIL = 'No partitioned table of that name exists.';
		ELSIF NOT pg_has_role(owner, 'USAGE') THEN
			RAISE EXCEPTION 'must be owner of table %', format('%I.%I', NEW.parent_schema, NEW.parent_name)
				USING ERRCODE = 'insufficient_privilege';
		END IF;
		NEW.parent_oid := parent;
	END IF;
	IF NOT config THEN
		IF NEW.started_at > clock_timestamp() THEN
			RAISE EXCEPTION 'a maintenance run cannot start after now'
				USING ERRCODE = 'invalid_parameter_value';
		END IF;
		RETURN NEW;
	END IF;
	IF uuidv7_internal.uuidv7_has_negative_part(NEW.step) THEN
		RAISE EXCEPTION 'step must not have a negative part'
			USING ERRCODE = 'invalid_parameter_value', DETAIL = format('The step is "%s".', NEW.step);
	END IF;
	IF uuidv7_internal.uuidv7_has_negative_part(NEW.ahead) OR uuidv7_internal.uuidv7_has_negative_part(NEW.keep) THEN
		RAISE EXCEPTION 'ahead and keep must not have a negative part'
			USING ERRCODE = 'invalid_parameter_value',
				  DETAIL = format('They are "%s" and "%s".', NEW.ahead, NEW.keep);
	END IF;
	IF NOT isfinite(NEW.anchor) THEN
		RAISE EXCEPTION 'anchor must be a finite time'
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	-- (an unknown zone raises 22023 here)
	PERFORM NEW.anchor AT TIME ZONE NEW.zone;
	RETURN NEW;
END
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_partition_config_check() IS
'refuses a record of uuidv7_partition_config or uuidv7_maintenance_history made or changed by a role that may not alter its table, or a grid that cannot be';

-- (a DO block: the plain script, run again, keeps the table and its rows)
--
-- A record names its table, as pg_dump and pg_upgrade keep it, and holds
-- its OID: a record of a table made again under the name of one dropped is
-- not the new table's.  pg_dump keeps the records of the tables that are
-- (restored, each takes its table's new OID).
DO $uuidv7_partition_config$
BEGIN
	IF pg_catalog.to_regclass('@extschema@.uuidv7_partition_config') IS NULL THEN
		CREATE TABLE @extschema@.uuidv7_partition_config (
			parent_schema pg_catalog.name NOT NULL,
			parent_name pg_catalog.name NOT NULL,
			parent_oid pg_catalog.oid NOT NULL,
			step pg_catalog.interval NOT NULL CHECK (step OPERATOR(pg_catalog.>) '0'::pg_catalog.interval),
			zone pg_catalog.text NOT NULL,
			anchor pg_catalog.timestamptz NOT NULL,
			recorded_at pg_catalog.timestamptz NOT NULL DEFAULT pg_catalog.now(),
			-- the policy (src/policy.sql): periods kept ahead and for how long
			ahead pg_catalog.interval CHECK (ahead OPERATOR(pg_catalog.>) '0'::pg_catalog.interval),
			keep pg_catalog.interval CHECK (keep OPERATOR(pg_catalog.>) '0'::pg_catalog.interval),
			retire pg_catalog.text NOT NULL DEFAULT 'drop'
				CHECK (retire OPERATOR(pg_catalog.=) ANY (ARRAY['drop', 'detach', 'archive']::pg_catalog.text[])),
			refuse_late_rows pg_catalog.bool NOT NULL DEFAULT false,
			-- (where retire is 'archive': the table retired periods are
			-- attached to, by name, made on first use)
			archive_schema pg_catalog.name,
			archive_name pg_catalog.name,
			CHECK ((retire OPERATOR(pg_catalog.=) 'archive') OPERATOR(pg_catalog.=)
				   (archive_schema IS NOT NULL AND archive_name IS NOT NULL)),
			-- (by the table's OID: names change, and are only told)
			PRIMARY KEY (parent_oid)
		);
		COMMENT ON TABLE @extschema@.uuidv7_partition_config IS
		'the grid of each partitioned table that uuidv7 keeps (its periods are steps in a time zone counted from an anchor), and its policy: how far ahead periods are made and how long they are kept';
		CREATE TRIGGER uuidv7_partition_config_check
			BEFORE INSERT OR UPDATE OR DELETE ON @extschema@.uuidv7_partition_config
			FOR EACH ROW EXECUTE FUNCTION uuidv7_internal.uuidv7_partition_config_check();
		-- (each row checked by the trigger: the owners of tables keep theirs)
		GRANT SELECT, INSERT, UPDATE, DELETE ON @extschema@.uuidv7_partition_config TO PUBLIC;
	END IF;
	-- (only a script that CREATE EXTENSION runs may mark what pg_dump keeps;
	-- the plain script's table is the user's and dumped as any other)
	IF EXISTS (SELECT FROM pg_catalog.pg_depend d
			   WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass
				   AND d.objid OPERATOR(pg_catalog.=) '@extschema@.uuidv7_partition_config'::pg_catalog.regclass
				   AND d.deptype OPERATOR(pg_catalog.=) 'e') THEN
		PERFORM pg_catalog.pg_extension_config_dump('@extschema@.uuidv7_partition_config',
			'WHERE EXISTS (SELECT FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) c.relnamespace'
			' WHERE c.oid OPERATOR(pg_catalog.=) parent_oid AND c.relname OPERATOR(pg_catalog.=) parent_name'
			' AND n.nspname OPERATOR(pg_catalog.=) parent_schema)');
	END IF;
END
$uuidv7_partition_config$;

-- The first partition with UUIDv7 bounds that is not one period of a grid
-- (the oldest may start anywhere, and end on the grid: an adopted table, or
-- one of rows from before), NULL if all are.
CREATE FUNCTION uuidv7_internal.uuidv7_grid_misfit(parent pg_catalog.regclass, step pg_catalog.interval,
												   zone pg_catalog.text, anchor pg_catalog.timestamptz)
RETURNS pg_catalog.regclass
LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	part record;
	k int8;
BEGIN
	FOR part IN
		SELECT p.*, row_number() OVER (ORDER BY p.lower_bound) AS n FROM @extschema@.uuidv7_partitions(parent) p
		WHERE p.period_start IS NOT NULL AND p.period_end IS NOT NULL ORDER BY p.lower_bound
	LOOP
		IF part.n = 1 THEN
			k := uuidv7_internal.uuidv7_grid_index(anchor, step, zone, part.period_end);
			IF @extschema@.uuidv7_min(uuidv7_internal.uuidv7_grid_start(anchor, step, zone, k)) <> part.upper_bound THEN
				RETURN part.partition;
			END IF;
		ELSE
			-- (the period that holds its start, which is never empty)
			k := uuidv7_internal.uuidv7_grid_index(anchor, step, zone, part.period_start);
			IF @extschema@.uuidv7_min(uuidv7_internal.uuidv7_grid_start(anchor, step, zone, k)) <> part.lower_bound
			   OR @extschema@.uuidv7_min(uuidv7_internal.uuidv7_grid_start(anchor, step, zone, k + 1)) <> part.upper_bound THEN
				RETURN part.partition;
			END IF;
		END IF;
	END LOOP;
	RETURN NULL;
END
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_grid_misfit(pg_catalog.regclass, pg_catalog.interval, pg_catalog.text, pg_catalog.timestamptz) IS
'the first partition of a table that is not one period of a grid, or NULL';

-- The grid a table's partitions follow, read from their bounds, for a table
-- without a record: the step of its last partition, in the zone given, the
-- session's or UTC, in which the periods start at midnight (or, of a time
-- that divides a day, at a multiple of it from midnight) and every partition
-- is one period of the grid counted from the last one.  No row where no
-- partition has UUIDv7 bounds; a problem where no zone fits, or where two
-- that fit make different periods next and neither the partitions' names,
-- nor the caller, nor the calendar tells which.
CREATE FUNCTION uuidv7_internal.uuidv7_read_grid(parent pg_catalog.regclass, zone_hint pg_catalog.text,
												 OUT step pg_catalog.interval, OUT zone pg_catalog.text,
												 OUT anchor pg_catalog.timestamptz, OUT problem pg_catalog.text)
RETURNS SETOF record
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	last_start timestamptz;
	last_end timestamptz;
	z text;
	a timestamp;
	b timestamp;
	candidate interval;
	found_step interval[] := '{}';
	found_zone text[] := '{}';
	tried text[] := '{}';
	chosen_step interval[];
	chosen_zone text[];
	checked record;
	last_partition regclass;
	seconds numeric;
BEGIN
	checked := uuidv7_internal.uuidv7_partitioned_parent(parent);
	SELECT p.partition, p.period_start, p.period_end INTO last_partition, last_start, last_end
	FROM @extschema@.uuidv7_partitions(parent) p
	WHERE p.period_start IS NOT NULL AND p.period_end IS NOT NULL
	ORDER BY p.lower_bound DESC LIMIT 1;
	IF NOT FOUND THEN
		RETURN;
	END IF;
	anchor := last_start;

	FOREACH z IN ARRAY ARRAY[zone_hint, current_setting('TimeZone'), 'UTC'] LOOP
		CONTINUE WHEN z IS NULL OR lower(z) IN (SELECT lower(t) FROM unnest(tried) t);
		tried := tried || z;
		-- the last period's length: whole months where it runs from a day
		-- and time of a month to the same in a later one (or to the end of a
		-- shorter month), whole days where from a time of day to the same,
		-- else a length of time
		a := last_start AT TIME ZONE z;
		b := last_end AT TIME ZONE z;
		IF a::time = b::time AND (extract(day FROM a) = extract(day FROM b)
								  OR extract(day FROM a) > extract(day FROM b)
									 AND extract(month FROM b + interval '1 day') <> extract(month FROM b)) THEN
			candidate := make_interval(months => ((extract(year FROM b) - extract(year FROM a)) * 12
												  + extract(month FROM b) - extract(month FROM a))::int);
		ELSIF a::time = b::time THEN
			candidate := make_interval(days => b::date - a::date);
		ELSE
			candidate := make_interval(secs => extract(epoch FROM last_end - last_start));
		END IF;
		-- periods of months and days start at a midnight of their zone, and
		-- those of a length that divides a day at a multiple of it from one:
		-- a zone in which they do not is not theirs (another's midnights can
		-- fit them between two clock changes)
		seconds := extract(epoch FROM candidate);
		CONTINUE WHEN candidate <= interval '0'
			OR (extract(month FROM candidate) <> 0 OR extract(day FROM candidate) <> 0) AND a::time <> '00:00'
			OR extract(month FROM candidate) = 0 AND extract(day FROM candidate) = 0 AND 86400 % seconds = 0
			   AND extract(epoch FROM a::time)::numeric % seconds <> 0
			OR uuidv7_internal.uuidv7_grid_misfit(parent, candidate, z, anchor) IS NOT NULL;
		found_step := found_step || candidate;
		found_zone := found_zone || z;
	END LOOP;

	-- of several that fit: the zone the partitions' names are in; else the
	-- one the caller named; else one on the calendar's boundaries
	IF cardinality(found_zone) > 1 THEN
		SELECT array_agg(f.z ORDER BY f.i), array_agg(f.s ORDER BY f.i) INTO chosen_zone, chosen_step
		FROM unnest(found_zone, found_step) WITH ORDINALITY f(z, s, i)
		WHERE (SELECT d.partition_name FROM uuidv7_internal.uuidv7_period_ddl(checked.parent_schema, checked.parent_name,
																			  anchor, f.s, f.z, last_start, last_end) d
			   LIMIT 1) = format('%I.%I', checked.parent_schema, (SELECT c.relname FROM pg_class c WHERE c.oid = last_partition));
		IF cardinality(chosen_zone) >= 1 THEN
			found_zone := chosen_zone;
			found_step := chosen_step;
		END IF;
	END IF;
	IF cardinality(found_zone) > 1 AND zone_hint = ANY (found_zone) THEN
		found_step := ARRAY[found_step[array_position(found_zone, zone_hint)]];
		found_zone := ARRAY[zone_hint];
	END IF;
	IF cardinality(found_zone) > 1 THEN
		SELECT array_agg(f.z ORDER BY f.i), array_agg(f.s ORDER BY f.i) INTO chosen_zone, chosen_step
		FROM unnest(found_zone, found_step) WITH ORDINALITY f(z, s, i)
		WHERE uuidv7_internal.uuidv7_on_calendar(anchor, f.s, f.z);
		IF cardinality(chosen_zone) = 1 THEN
			found_zone := chosen_zone;
			found_step := chosen_step;
		END IF;
	END IF;

	IF cardinality(found_zone) = 0 THEN
		problem := format('its partitions follow no step counted from its last partition in the time zones %s',
						  array_to_string(tried, ', '));
	ELSIF cardinality(found_zone) > 1
		  AND EXISTS (SELECT FROM uuidv7_internal.uuidv7_grid_periods(anchor, found_step[1], found_zone[1], last_end, last_end + interval '1 year') x
					  FULL JOIN uuidv7_internal.uuidv7_grid_periods(anchor, found_step[2], found_zone[2], last_end, last_end + interval '1 year') y
						  ON x.lower_bound = y.lower_bound AND x.upper_bound = y.upper_bound
					  WHERE x.lower_bound IS NULL OR y.lower_bound IS NULL) THEN
		problem := format('its partitions fit both %s in the time zone %s and %s in the time zone %s',
						  found_step[1], found_zone[1], found_step[2], found_zone[2]);
	ELSE
		step := found_step[1];
		zone := found_zone[1];
	END IF;
	RETURN NEXT;
END
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_read_grid(pg_catalog.regclass, pg_catalog.text) IS
'the grid a table''s partitions follow, read from their bounds, or why it cannot be read';

-- The grid of a table for a call with a step and zone of its own (either
-- NULL: the table's).  Its source: "recorded" (or "recorded under its
-- former name", renamed since); "read from its partitions" (no record of
-- it: a record of another table of its name before is not its); "new", for a table without partitions, the call's step
-- in its zone (the session's if NULL) counted from the calendar's
-- boundaries; "given", the call's, where the partitions' cannot be read;
-- "none" (a NULL step) where the call gives no step either.  A call whose
-- step or zone makes other periods than the table's grid is refused
-- (22023), naming both; one where the grid cannot be read must name both.
CREATE FUNCTION uuidv7_internal.uuidv7_table_grid(parent pg_catalog.regclass, call_step pg_catalog.interval,
												  call_zone pg_catalog.text, from_ts pg_catalog.timestamptz,
												  upto_ts pg_catalog.timestamptz,
												  OUT step pg_catalog.interval, OUT zone pg_catalog.text,
												  OUT anchor pg_catalog.timestamptz, OUT source pg_catalog.text)
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	checked record;
	recorded record;
	read record;
	span_end timestamptz;
	k int8;
BEGIN
	checked := uuidv7_internal.uuidv7_partitioned_parent(parent);
	-- its record: under its name, or under the name it had (renamed since);
	-- a record of another table of its name before is not its
	SELECT c.step, c.zone, c.anchor, c.parent_name = checked.parent_name AND c.parent_schema = checked.parent_schema
		AS same_name
	INTO recorded
	FROM @extschema@.uuidv7_partition_config c
	WHERE c.parent_oid = parent::oid
	ORDER BY 4 DESC LIMIT 1;
	IF FOUND THEN
		step := recorded.step;
		zone := recorded.zone;
		anchor := recorded.anchor;
		source := CASE WHEN recorded.same_name THEN 'recorded' ELSE 'recorded under its former name' END;
	ELSE
		SELECT * INTO read FROM uuidv7_internal.uuidv7_read_grid(parent, call_zone);
		IF read.step IS NOT NULL THEN
			step := read.step;
			zone := read.zone;
			anchor := read.anchor;
			source := 'read from its partitions';
		ELSIF read.problem IS NOT NULL AND (call_step IS NULL OR call_zone IS NULL) THEN
			RAISE EXCEPTION 'the partition grid of table % cannot be read', parent
				USING ERRCODE = 'object_not_in_prerequisite_state',
					  DETAIL = format('The table has no recorded grid, and %s.', read.problem),
					  HINT = 'Give the step and the time zone, or record them with uuidv7_set_partition_grid().';
		ELSIF call_step IS NULL THEN
			source := 'none';
			RETURN;
		ELSE
			step := call_step;
			zone := coalesce(call_zone, current_setting('TimeZone'));
			anchor := uuidv7_internal.uuidv7_calendar_anchor(step, zone, from_ts);
			source := CASE WHEN read.problem IS NULL THEN 'new' ELSE 'given' END;
			RETURN;
		END IF;
	END IF;

	-- the call agrees if its step and zone are the table's, or make the same
	-- periods, counted from the table's anchor, over the span and a year
	-- more (its clock changes; at most a thousand periods: a zone changes
	-- only the start of a grid of lengths of time, which is the anchor)
	IF coalesce(call_step = step, true) AND coalesce(lower(call_zone) = lower(zone), true) THEN
		RETURN;
	END IF;
	IF call_step IS NOT NULL OR call_zone IS NOT NULL THEN
		k := uuidv7_internal.uuidv7_grid_index(anchor, step, zone, from_ts);
		span_end := greatest(upto_ts, uuidv7_internal.uuidv7_grid_start(anchor, step, zone, k + 3),
							 least(from_ts + interval '1 year', uuidv7_internal.uuidv7_grid_start(anchor, step, zone, k + 1000)));
		IF EXISTS (SELECT FROM uuidv7_internal.uuidv7_grid_periods(anchor, step, zone, from_ts, span_end) x
				   FULL JOIN uuidv7_internal.uuidv7_grid_periods(anchor, coalesce(call_step, step), coalesce(call_zone, zone),
																 from_ts, span_end) y
					   ON x.lower_bound = y.lower_bound AND x.upper_bound = y.upper_bound
				   WHERE x.lower_bound IS NULL OR y.lower_bound IS NULL) THEN
			RAISE EXCEPTION 'step % in time zone % disagrees with the partition grid of table %',
				coalesce(call_step, step), coalesce(call_zone, zone), parent
				USING ERRCODE = 'invalid_parameter_value',
					  DETAIL = format('The table''s periods (%s) are %s in time zone %s, counted from %s.',
									  source, step, zone, anchor),
					  HINT = 'Leave out the step and the time zone: the table''s are used.';
		END IF;
	END IF;
END
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_table_grid(pg_catalog.regclass, pg_catalog.interval, pg_catalog.text, pg_catalog.timestamptz, pg_catalog.timestamptz) IS
'the grid of a table''s periods for a call: recorded, read from its partitions, or the call''s own for a new table; a call that disagrees is refused';

-- The grid of a table for a call that makes or names periods: as
-- uuidv7_table_grid, or 22004 where the table has none and the call gives no
-- step.
CREATE FUNCTION uuidv7_internal.uuidv7_call_grid(parent pg_catalog.regclass, call_step pg_catalog.interval,
												 call_zone pg_catalog.text, from_ts pg_catalog.timestamptz,
												 upto_ts pg_catalog.timestamptz,
												 OUT step pg_catalog.interval, OUT zone pg_catalog.text,
												 OUT anchor pg_catalog.timestamptz, OUT source pg_catalog.text)
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	grid record;
BEGIN
	grid := uuidv7_internal.uuidv7_table_grid(parent, call_step, call_zone, from_ts, upto_ts);
	IF grid.step IS NULL THEN
		RAISE EXCEPTION 'table % has no partition grid', parent
			USING ERRCODE = 'null_value_not_allowed',
				  DETAIL = 'It has no recorded grid and no partitions with UUIDv7 bounds to read one from.',
				  HINT = 'Give the step of its periods (and their time zone).';
	END IF;
	step := grid.step;
	zone := grid.zone;
	anchor := grid.anchor;
	source := grid.source;
END
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_call_grid(pg_catalog.regclass, pg_catalog.interval, pg_catalog.text, pg_catalog.timestamptz, pg_catalog.timestamptz) IS
'the grid of a table''s periods for a call that makes or names them; 22004 where there is none';

-- Refuse (42501) a role that may not alter a table: what it may not do by
-- hand, it may not have done here.
CREATE FUNCTION uuidv7_internal.uuidv7_must_own(parent pg_catalog.regclass)
RETURNS void
LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $function$
BEGIN
	IF NOT pg_has_role((SELECT c.relowner FROM pg_class c WHERE c.oid = parent), 'USAGE') THEN
		RAISE EXCEPTION 'must be owner of table %', parent
			USING ERRCODE = 'insufficient_privilege';
	END IF;
END
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_must_own(pg_catalog.regclass) IS
'raise 42501 unless the calling role may alter the table';

-- The records of tables dropped since are deleted (any role may): a record
-- is its table's by OID, and the OID of a dropped table may come back, long
-- after, as another table's, which must not take its grid and policy.  Run
-- at each record made and each maintenance run.
CREATE FUNCTION uuidv7_internal.uuidv7_forget_dropped()
RETURNS void
LANGUAGE sql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $function$
	DELETE FROM @extschema@.uuidv7_partition_config r
	WHERE NOT EXISTS (SELECT FROM pg_class c WHERE c.oid = r.parent_oid AND c.relkind = 'p')
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_forget_dropped() IS
'delete the records of uuidv7_partition_config whose tables are no more';

-- The record of a table takes the table's name now (it was renamed, or
-- moved to another schema, since): what pg_dump keeps, and what a new table
-- under its former name is recorded apart from.  Nothing for a table
-- without a record, or whose record has its name.
CREATE FUNCTION uuidv7_internal.uuidv7_rename_record(parent pg_catalog.oid)
RETURNS void
LANGUAGE sql VOLATILE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $function$
	UPDATE @extschema@.uuidv7_partition_config r
	SET parent_schema = n.nspname, parent_name = c.relname
	FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
	WHERE r.parent_oid = parent AND c.oid = r.parent_oid
		AND (r.parent_schema, r.parent_name) <> (n.nspname, c.relname)
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_rename_record(pg_catalog.oid) IS
'give the record of a table in uuidv7_partition_config the table''s name now';

-- Record a table's grid, or keep the record up to date: as it was read, or
-- made for its first periods, or for the table now of the record's name
-- (by a role that may alter the table; another does nothing).
CREATE FUNCTION uuidv7_internal.uuidv7_record_grid(parent pg_catalog.regclass, step pg_catalog.interval,
												   zone pg_catalog.text, anchor pg_catalog.timestamptz)
RETURNS void
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	checked record;
BEGIN
	checked := uuidv7_internal.uuidv7_partitioned_parent(parent);
	IF NOT pg_has_role((SELECT c.relowner FROM pg_class c WHERE c.oid = parent), 'USAGE') THEN
		RETURN;
	END IF;
	-- (the records of tables dropped since go, before their OIDs can be
	-- another table's)
	PERFORM uuidv7_internal.uuidv7_forget_dropped();
	BEGIN
		-- (a record of the table under a former name takes its name now,
		-- and keeps its policy)
		INSERT INTO @extschema@.uuidv7_partition_config AS c
			(parent_schema, parent_name, parent_oid, step, zone, anchor)
		VALUES (checked.parent_schema, checked.parent_name, parent, $2, $3, $4)
		ON CONFLICT (parent_oid) DO UPDATE
			SET step = excluded.step, zone = excluded.zone, anchor = excluded.anchor, recorded_at = now()
			WHERE (c.step, c.zone, c.anchor, c.parent_schema, c.parent_name) IS DISTINCT FROM
				  (excluded.step, excluded.zone, excluded.anchor, excluded.parent_schema, excluded.parent_name);
	EXCEPTION WHEN serialization_failure THEN
		-- (a snapshot older than another's record: that one stands)
		NULL;
	END;
END
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_record_grid(pg_catalog.regclass, pg_catalog.interval, pg_catalog.text, pg_catalog.timestamptz) IS
'record the grid of a table''s periods where the calling role may alter the table';

-- A table's grid, as every partition function uses it: recorded, or read
-- from its partitions (no row for a table with neither).
CREATE FUNCTION uuidv7_partition_grid(parent pg_catalog.regclass,
									  OUT step pg_catalog.interval, OUT zone pg_catalog.text,
									  OUT anchor pg_catalog.timestamptz, OUT source pg_catalog.text)
RETURNS SETOF record
LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	grid record;
BEGIN
	-- (an assignment, not a query: an error names no SQL of ours)
	grid := uuidv7_internal.uuidv7_table_grid(parent, NULL, NULL, now(), now());
	IF grid.step IS NOT NULL THEN
		step := grid.step;
		zone := grid.zone;
		anchor := grid.anchor;
		source := grid.source;
		RETURN NEXT;
	END IF;
END
$function$;

COMMENT ON FUNCTION uuidv7_partition_grid(pg_catalog.regclass) IS
'the step, time zone and anchor of a partitioned table''s periods: recorded, or read from its partitions';

-- Record a table's grid (or change it): every partition with UUIDv7 bounds
-- must be one period of it (the oldest may start anywhere), else 22023
-- names the first that is not.  The anchor is by default the start of its
-- last partition, or, for a table without any, the calendar's.
CREATE FUNCTION uuidv7_set_partition_grid(parent pg_catalog.regclass, step pg_catalog.interval,
										  zone pg_catalog.text DEFAULT pg_catalog.current_setting('TimeZone'),
										  anchor pg_catalog.timestamptz DEFAULT NULL)
RETURNS void
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	checked record;
	given_anchor timestamptz := $4;
	misfit regclass;
	period record;
BEGIN
	IF parent IS NULL OR step IS NULL OR zone IS NULL THEN
		RAISE EXCEPTION 'the table, step and time zone of a partition grid must not be null'
			USING ERRCODE = 'null_value_not_allowed';
	END IF;
	checked := uuidv7_internal.uuidv7_partitioned_parent(parent);
	PERFORM uuidv7_internal.uuidv7_must_own(parent);
	-- (the step and zone checked on the periods of a day or so)
	PERFORM uuidv7_internal.uuidv7_grid_periods(now(), step, zone, now(), now() + step);
	IF given_anchor IS NULL THEN
		SELECT p.period_start INTO given_anchor FROM @extschema@.uuidv7_partitions(parent) p
		WHERE p.period_start IS NOT NULL AND p.period_end IS NOT NULL
		ORDER BY p.lower_bound DESC LIMIT 1;
		given_anchor := coalesce(given_anchor, uuidv7_internal.uuidv7_calendar_anchor(step, zone, now()));
	END IF;
	misfit := uuidv7_internal.uuidv7_grid_misfit(parent, step, zone, given_anchor);
	IF misfit IS NOT NULL THEN
		SELECT p.period_start, p.period_end INTO period FROM @extschema@.uuidv7_partitions(parent) p
		WHERE p.partition = misfit;
		RAISE EXCEPTION 'partition % of table % is not a period of step % in time zone % counted from %',
			misfit, parent, step, zone, given_anchor
			USING ERRCODE = 'invalid_parameter_value',
				  DETAIL = format('The partition holds the period from %s to %s.', period.period_start, period.period_end);
	END IF;
	PERFORM uuidv7_internal.uuidv7_record_grid(parent, step, zone, given_anchor);
END
$function$;

COMMENT ON FUNCTION uuidv7_set_partition_grid(pg_catalog.regclass, pg_catalog.interval, pg_catalog.text, pg_catalog.timestamptz) IS
'record the step, time zone and anchor of a partitioned table''s periods, which every later partition call then follows';
