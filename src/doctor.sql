-- health check

-- The time of the oldest row waiting in a table's DEFAULT partition, or
-- NULL (no DEFAULT, no row, a key that is not a v7, or one the caller may
-- not read).
CREATE FUNCTION uuidv7_internal.uuidv7_oldest_default_row(parent pg_catalog.regclass)
RETURNS pg_catalog.timestamptz
LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	oldest uuid;
	d record;
BEGIN
	SELECT pt.partdefid::regclass AS default_partition, a.attname AS key_column INTO d
	FROM pg_partitioned_table pt
		JOIN pg_attribute a ON a.attrelid = pt.partrelid AND a.attnum = pt.partattrs[0]
	WHERE pt.partrelid = parent AND pt.partdefid <> 0 AND has_table_privilege(pt.partdefid, 'SELECT');
	IF NOT FOUND THEN
		RETURN NULL;
	END IF;
	-- (uuid has no min() before PostgreSQL 19: the first by its index)
	EXECUTE format('SELECT %I FROM %s ORDER BY %I LIMIT 1', d.key_column, d.default_partition, d.key_column)
		INTO oldest;
	RETURN @extschema@.uuidv7_timestamp(oldest);
END
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_oldest_default_row(pg_catalog.regclass) IS
'the time of the oldest row waiting in a partitioned table''s DEFAULT partition, or NULL (used by the doctor''s fixes)';

-- The doctor's check of partitions running out: partitioned tables on a
-- uuid key whose partitions end within a week, or before their policy's
-- reach (rows after that go to the DEFAULT partition, or fail).
CREATE FUNCTION uuidv7_internal.uuidv7_doctor_partitions_ahead()
RETURNS TABLE (severity pg_catalog.text, object pg_catalog.text, problem pg_catalog.text, fix pg_catalog.text)
LANGUAGE plpgsql STABLE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
-- (its fix's times and steps read the same in any session)
SET DateStyle = 'ISO, YMD'
SET IntervalStyle = 'postgres'
AS $function$
DECLARE
	t record;
	grid record;
	oldest timestamptz;
BEGIN
	FOR t IN
		SELECT p.parent, max(l.period_end) AS last_end,
			(array_agg(l.period_end - l.period_start ORDER BY l.lower_bound DESC)
				FILTER (WHERE l.period_start IS NOT NULL AND l.period_end IS NOT NULL))[1] AS last_step,
			coalesce(bool_or(l.upper_bound IS NULL AND l.lower_bound IS NOT NULL), false) AS open_ended
		FROM (SELECT c.oid::regclass AS parent
			  FROM pg_class c JOIN pg_partitioned_table pt ON pt.partrelid = c.oid
				  JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = pt.partattrs[0]
				  JOIN pg_type ty ON ty.oid = a.atttypid
			  WHERE pt.partstrat = 'r' AND pt.partnatts = 1
				  AND uuidv7_internal.uuidv7_is_uuid_type(ty.oid)
				  AND NOT c.relispartition
				  AND has_table_privilege(c.oid, 'SELECT, INSERT')
				  -- (an archive of a policy holds past periods only)
				  AND NOT EXISTS (SELECT FROM @extschema@.uuidv7_partition_config r
								  JOIN pg_namespace an ON an.nspname = r.archive_schema
								  WHERE an.oid = c.relnamespace AND r.archive_name = c.relname)) p
			LEFT JOIN LATERAL @extschema@.uuidv7_partitions(p.parent) l ON true
		GROUP BY p.parent
	LOOP
		-- (a table with a policy: within the reach of its policy)
		IF NOT t.open_ended AND (t.last_end IS NULL
								 -- (a week, or its ahead if shorter, counted on
								 -- its grid's calendar as the policy counts it)
								 OR t.last_end < coalesce((SELECT uuidv7_internal.uuidv7_grid_start(
															   now(), least(c.ahead, interval '7 days'), c.zone, 1)
														   FROM @extschema@.uuidv7_partition_config c
														   WHERE c.parent_oid = t.parent),
														  now() + interval '7 days')) THEN
			severity := 'warning';
			object := t.parent::text;
			IF t.last_end IS NULL THEN
				problem := 'it has no partition with UUIDv7 bounds';
				-- (from the oldest row waiting in DEFAULT, if it is older than
				-- now: the periods made take every row in)
				oldest := uuidv7_internal.uuidv7_oldest_default_row(t.parent);
				-- (on its recorded grid if it has one, else in days, in this
				-- session's zone named)
				-- (a record is its table's by OID, also under a former name)
				fix := CASE WHEN EXISTS (SELECT FROM @extschema@.uuidv7_partition_config c
										 WHERE c.parent_oid = t.parent)
						   THEN format('SELECT * FROM uuidv7_create_partitions(%L, %s, now() + interval ''1 month'');',
									   t.parent::text, CASE WHEN oldest < now() THEN quote_literal(oldest) ELSE 'now()' END)
						   ELSE format('SELECT * FROM uuidv7_create_partitions(%L, %s, now() + interval ''1 month'', ''1 day'', %L);',
									   t.parent::text,
									   CASE WHEN oldest < now() THEN quote_literal(date_trunc('day', oldest))
											ELSE 'date_trunc(''day'', now())' END,
									   current_setting('TimeZone')) END;
			ELSE
				-- on from where they end, on the table's grid, named in full:
				-- the fix makes the same periods from any session
				problem := format('its partitions end at %s', t.last_end);
				grid := NULL;
				BEGIN
					SELECT g.step, g.zone, NULL::text AS problem INTO grid
					FROM uuidv7_internal.uuidv7_table_grid(t.parent, NULL, NULL, now(), now()) g;
				EXCEPTION WHEN object_not_in_prerequisite_state THEN
					SELECT NULL::interval AS step, NULL::text AS zone, r.problem INTO grid
					FROM uuidv7_internal.uuidv7_read_grid(t.parent, NULL) r;
				END;
				IF grid.problem IS NULL THEN
					fix := format('SELECT * FROM uuidv7_create_partitions(%L, %L, now() + interval ''1 month'', %L, %L);',
								  t.parent::text, t.last_end, grid.step, grid.zone);
				ELSE
					problem := format('%s, and its partition grid cannot be read: %s', problem, grid.problem);
					fix := format('record its grid with SELECT uuidv7_set_partition_grid(%L, <step>, <time zone>);, then SELECT * FROM uuidv7_create_partitions(%L, %L, now() + interval ''1 month'');',
								  t.parent::text, t.parent::text, t.last_end);
				END IF;
			END IF;
			RETURN NEXT;
		END IF;
	END LOOP;
END
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_doctor_partitions_ahead() IS
'uuidv7_doctor''s check of partitions running out: tables partitioned on a uuid key whose partitions end within a week or before their policy''s reach, with the call that makes the next ones';

-- The doctor's check of DEFAULT partitions that hold rows: rows older
-- than the oldest partition are of periods retired (or never made), which
-- retention would drop again if they were made; the others wait for their
-- periods, and how they would move in is said where it matters.
CREATE FUNCTION uuidv7_internal.uuidv7_doctor_default_rows()
RETURNS TABLE (severity pg_catalog.text, object pg_catalog.text, problem pg_catalog.text, fix pg_catalog.text)
LANGUAGE plpgsql STABLE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
-- (its fix's times and steps read the same in any session)
SET DateStyle = 'ISO, YMD'
SET IntervalStyle = 'postgres'
AS $function$
DECLARE
	t record;
	has_rows boolean;
	late_rows bigint;
	late_key uuid;
	retires boolean;
BEGIN
	FOR t IN
		SELECT pt.partrelid::regclass AS parent, pt.partdefid::regclass AS default_partition, a.attname AS key_column,
			(SELECT p.lower_bound FROM @extschema@.uuidv7_partitions(pt.partrelid) p
			 WHERE p.partition <> pt.partdefid ORDER BY p.lower_bound NULLS FIRST LIMIT 1) AS oldest
		FROM pg_partitioned_table pt
			JOIN pg_class c ON c.oid = pt.partdefid
			JOIN pg_attribute a ON a.attrelid = pt.partrelid AND a.attnum = pt.partattrs[0]
			JOIN pg_type ty ON ty.oid = a.atttypid
		WHERE pt.partstrat = 'r' AND pt.partnatts = 1
			AND uuidv7_internal.uuidv7_is_uuid_type(ty.oid)
			AND has_table_privilege(c.oid, 'SELECT')
	LOOP
		IF t.oldest IS NOT NULL THEN
			-- (uuid has no min() before PostgreSQL 19: the first by its order)
			EXECUTE format('SELECT count(*), (array_agg(%I ORDER BY %I))[1] FROM %s WHERE %I < $1',
						   t.key_column, t.key_column, t.default_partition, t.key_column)
				INTO late_rows, late_key USING t.oldest;
			retires := EXISTS (SELECT FROM @extschema@.uuidv7_partition_config c
							   WHERE c.parent_oid = t.parent AND c.keep IS NOT NULL);
			IF late_rows > 0 THEN
				severity := 'warning';
				object := t.default_partition::text;
				problem := format('the DEFAULT partition holds %s rows older than the oldest partition (%s): rows of periods %s',
								  late_rows, @extschema@.uuidv7_timestamp(t.oldest), CASE WHEN retires THEN 'its policy retired' ELSE 'retired or never made' END);
				fix := format('archive or delete them (rows of %s with %I < %L), and have retention refuse later ones: uuidv7_drop_partitions(%L, ..., refuse_late_rows => true); creating their periods again would only have retention drop them',
							  t.default_partition, t.key_column, t.oldest, t.parent::text);
				-- (without a policy that retires, they may be rows that came
				-- early, before any partition was made: their call first)
				IF NOT retires AND @extschema@.uuidv7_timestamp(late_key) IS NOT NULL THEN
					fix := format('if their periods were never made, make them: SELECT * FROM uuidv7_create_partitions(%L, %L, %L); if retention dropped them, %s',
								  t.parent::text, @extschema@.uuidv7_timestamp(late_key), @extschema@.uuidv7_timestamp(t.oldest), fix);
				END IF;
				RETURN NEXT;
			END IF;
		END IF;
		EXECUTE format('SELECT EXISTS (SELECT 1 FROM %s WHERE %I >= $1 OR $1 IS NULL)', t.default_partition, t.key_column)
			INTO has_rows USING t.oldest;
		IF has_rows THEN
			severity := 'warning';
			object := t.default_partition::text;
			problem := 'the DEFAULT partition holds rows whose period has no partition';
			fix := format('create their periods with uuidv7_create_partitions(%L, ...), which moves the rows in', t.parent::text);
			RETURN NEXT;
			-- how they would move: by DELETE and INSERT where logical decoding
			-- may read the move (a logical slot of this database: said here),
			-- in the SQL edition, and from a DEFAULT that is not a heap table;
			-- not at all where foreign keys reference the table
			IF EXISTS (SELECT FROM pg_replication_slots s WHERE s.slot_type = 'logical' AND s.database = current_database())
				OR (SELECT l.lanname <> 'c'
					FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
					WHERE p.oid = 'uuidv7_internal.uuidv7_attach_period(pg_catalog.regclass, pg_catalog.regclass, pg_catalog.uuid, pg_catalog.uuid)'::regprocedure)
				OR (SELECT c.relkind <> 'r' FROM pg_class c WHERE c.oid = t.default_partition) THEN
				IF EXISTS (SELECT FROM pg_constraint c WHERE c.contype = 'f' AND c.confrelid = t.parent) THEN
					severity := 'error';
					problem := format('their periods cannot be made: the rows would move by DELETE and INSERT (%s), which the foreign keys that reference %s would act on',
									  CASE WHEN EXISTS (SELECT FROM pg_replication_slots s WHERE s.slot_type = 'logical' AND s.database = current_database())
										   THEN 'so that this database''s logical replication slots decode the move'
										   ELSE 'the SQL edition, or a DEFAULT partition that is itself partitioned' END,
									  t.parent);
					fix := format('move them out of %s yourself (into a table of your own), create their periods, then insert them back into %s',
								  t.default_partition, t.parent);
				ELSIF EXISTS (SELECT FROM pg_replication_slots s WHERE s.slot_type = 'logical' AND s.database = current_database()) THEN
					severity := 'notice';
					problem := format('its rows will move by DELETE and INSERT, which subscribers and change-data capture see: a REPEATABLE READ or SERIALIZABLE transaction begun before the move does not find them by their key, and the DELETE and INSERT triggers of %s fire for them',
									  t.parent);
					fix := format('make periods ahead (uuidv7_create_partitions(%L, now(), now() + interval ''3 months'', ...)), so that rows seldom wait in DEFAULT',
								  t.parent::text);
				ELSE
					-- (the SQL edition's way, said in docs/partitioning.md)
					CONTINUE;
				END IF;
				RETURN NEXT;
			END IF;
		END IF;
	END LOOP;
END
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_doctor_default_rows() IS
'uuidv7_doctor''s check of DEFAULT partitions that hold rows: late rows of retired periods, rows waiting for their periods, and how they would move in (by DELETE and INSERT, or not at all where foreign keys reference the table)';

-- The doctor's check of plain tables whose adoption stopped after their
-- bounds were set: they refuse rows from the end of their bounds on.
CREATE FUNCTION uuidv7_internal.uuidv7_doctor_stopped_adoptions()
RETURNS TABLE (severity pg_catalog.text, object pg_catalog.text, problem pg_catalog.text, fix pg_catalog.text)
LANGUAGE plpgsql STABLE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
-- (its fix's times and steps read the same in any session)
SET DateStyle = 'ISO, YMD'
SET IntervalStyle = 'postgres'
AS $function$
DECLARE
	t record;
BEGIN
	FOR t IN
		SELECT c.conrelid::regclass AS tbl,
			(regexp_match(pg_get_constraintdef(c.oid), '''([0-9a-f-]{36})''.*''([0-9a-f-]{36})'''))[2]::uuid AS upper_bound
		FROM pg_constraint c JOIN pg_class r ON r.oid = c.conrelid
		WHERE c.conname = 'uuidv7_adopt_bounds' AND r.relkind = 'r' AND has_table_privilege(r.oid, 'SELECT')
	LOOP
		severity := 'error';
		object := t.tbl::text;
		problem := format('its adoption by uuidv7_adopt_table stopped before the swap: it refuses rows from %s on',
						  @extschema@.uuidv7_timestamp(t.upper_bound));
		fix := format('CALL uuidv7_adopt_table(%L, ...) again, with the same step, to finish it', t.tbl::text);
		RETURN NEXT;
	END LOOP;
END
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_doctor_stopped_adoptions() IS
'uuidv7_doctor''s check of tables whose adoption by uuidv7_adopt_table stopped before the swap, which refuse rows from the end of their bounds on';

-- The doctor's check of foreign keys to a table partitioned on a uuid key
-- left NOT VALID (an adoption stopped before it validated those it
-- re-made): new rows are checked, the rows from before are not yet.
CREATE FUNCTION uuidv7_internal.uuidv7_doctor_not_valid_keys()
RETURNS TABLE (severity pg_catalog.text, object pg_catalog.text, problem pg_catalog.text, fix pg_catalog.text)
LANGUAGE plpgsql STABLE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
-- (its fix's times and steps read the same in any session)
SET DateStyle = 'ISO, YMD'
SET IntervalStyle = 'postgres'
AS $function$
DECLARE
	t record;
BEGIN
	FOR t IN
		SELECT c.conrelid::regclass AS holder, c.conname, c.confrelid::regclass AS referenced
		FROM pg_constraint c
			JOIN pg_partitioned_table pt ON pt.partrelid = c.confrelid
			JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = pt.partattrs[0]
			JOIN pg_type ty ON ty.oid = a.atttypid
		WHERE c.contype = 'f' AND NOT c.convalidated AND c.conparentid = 0 AND pt.partstrat = 'r'
			AND uuidv7_internal.uuidv7_is_uuid_type(ty.oid)
			AND has_table_privilege(c.conrelid, 'SELECT')
		ORDER BY 1, 2
	LOOP
		severity := 'notice';
		object := t.holder::text;
		problem := format('its foreign key %I to %s is NOT VALID: the rows written before it was made are not checked (validating it scans them, beside reads and writes)',
						  t.conname, t.referenced);
		fix := format('ALTER TABLE %s VALIDATE CONSTRAINT %I;', t.holder, t.conname);
		RETURN NEXT;
	END LOOP;
END
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_doctor_not_valid_keys() IS
'uuidv7_doctor''s check of foreign keys to a table partitioned on a uuid key left NOT VALID, with the statement that validates each';

-- The doctor's check of statistics: tables of a million rows or more keyed
-- by a uuid whose histogram keeps the default number of buckets:
-- PostgreSQL cannot interpolate inside a bucket of uuids, so a time range
-- narrower than one bucket is estimated at one row (BENCHMARKS.md section
-- 12).
CREATE FUNCTION uuidv7_internal.uuidv7_doctor_statistics()
RETURNS TABLE (severity pg_catalog.text, object pg_catalog.text, problem pg_catalog.text, fix pg_catalog.text)
LANGUAGE plpgsql STABLE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
-- (its fix's times and steps read the same in any session)
SET DateStyle = 'ISO, YMD'
SET IntervalStyle = 'postgres'
AS $function$
DECLARE
	t record;
BEGIN
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
				AND uuidv7_internal.uuidv7_is_uuid_type(ty.oid)
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
END
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_doctor_statistics() IS
'uuidv7_doctor''s check of tables of a million rows or more keyed by a uuid whose histogram keeps the default number of buckets, too few for the planner to estimate narrow time ranges';

-- The doctor's check of uuidv7_time_ops: its members that pg_upgrade
-- dropped from PostgreSQL's operator families.
CREATE FUNCTION uuidv7_internal.uuidv7_doctor_time_ops()
RETURNS TABLE (severity pg_catalog.text, object pg_catalog.text, problem pg_catalog.text, fix pg_catalog.text)
LANGUAGE plpgsql STABLE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
-- (its fix's times and steps read the same in any session)
SET DateStyle = 'ISO, YMD'
SET IntervalStyle = 'postgres'
AS $function$
DECLARE
	t record;
	time_ops_schema name;
BEGIN
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
END
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_doctor_time_ops() IS
'uuidv7_doctor''s check of uuidv7_time_ops members missing from PostgreSQL''s operator families (as pg_upgrade leaves them), with the call that repairs them';

-- The doctor's check of public ids: a key file refused or without this
-- database's keys, an ff1 scheme without OpenSSL, keys being rotated (by
-- fingerprint, never the keys; only for those who may see that).
CREATE FUNCTION uuidv7_internal.uuidv7_doctor_public_ids()
RETURNS TABLE (severity pg_catalog.text, object pg_catalog.text, problem pg_catalog.text, fix pg_catalog.text)
LANGUAGE plpgsql STABLE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
-- (its fix's times and steps read the same in any session)
SET DateStyle = 'ISO, YMD'
SET IntervalStyle = 'postgres'
AS $function$
DECLARE
	t record;
BEGIN
	IF (SELECT r.rolsuper FROM pg_roles r WHERE r.rolname = current_user)
		OR pg_has_role(current_user, 'pg_read_all_settings', 'USAGE') THEN
		SELECT * INTO t FROM @extschema@.uuidv7_public_id_state();
		IF t.refused IS NOT NULL THEN
			severity := 'error';
			object := 'uuidv7.public_id_key_file';
			problem := format('the key file %s was refused (%s); the keys in use: %s', t.key_file,
							  t.refused, CASE WHEN cardinality(t.fingerprints) = 0 THEN 'none'
										 ELSE 'fingerprints ' || array_to_string(t.fingerprints, ',') END);
			fix := 'correct the file (its permissions: owned by the server''s OS user with mode 0600, or by root with 0640), then SELECT pg_reload_conf();';
			RETURN NEXT;
		ELSIF t.key_file <> '' AND NOT t.preloaded THEN
			severity := 'error';
			object := 'uuidv7.public_id_key_file';
			problem := format('a key file is set (%s) but uuidv7 is not in shared_preload_libraries: the server does not read it, and the public-id functions refuse',
							  t.key_file);
			fix := 'add uuidv7 to shared_preload_libraries (ALTER SYSTEM, keeping what it lists) and restart the server';
			RETURN NEXT;
		ELSIF t.key_file <> '' AND cardinality(t.fingerprints) = 0 THEN
			severity := 'warning';
			object := 'uuidv7.public_id_key_file';
			problem := format('the key file %s has no key for database %s, nor a line for *: the public-id functions refuse here',
							  t.key_file, current_database());
			fix := format('add a line "%s KEY" (KEY from openssl rand -hex 16) to the file, then SELECT pg_reload_conf();',
						  current_database());
			RETURN NEXT;
		END IF;
		IF cardinality(t.fingerprints) > 0 AND t.scheme = 'ff1' AND NOT t.ff1_available THEN
			severity := 'error';
			object := 'uuidv7.public_id_scheme';
			problem := 'the scheme is ff1, but uuidv7 was built without OpenSSL: the public-id functions refuse';
			fix := 'build uuidv7 against a PostgreSQL built with OpenSSL, or (losing what ff1 hides) SET uuidv7.public_id_scheme = uuidv47';
			RETURN NEXT;
		END IF;
		IF cardinality(t.fingerprints) > 1 THEN
			severity := 'notice';
			object := 'uuidv7.public_id_key_file';
			problem := format('%s keys for this database (fingerprints %s): new public ids use the first; ids made under the others are read only through uuidv7_from_public_all()',
							  cardinality(t.fingerprints), array_to_string(t.fingerprints, ','));
			fix := 'once no public id made under an older key is in use, remove its line from the key file and reload';
			RETURN NEXT;
		END IF;
	END IF;
END
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_doctor_public_ids() IS
'uuidv7_doctor''s check of public ids, for superusers and pg_read_all_settings members: a key file refused, unread or without this database''s keys, the ff1 scheme without OpenSSL, keys being rotated';

-- The doctor's check of policies: a run that failed, or none for twice the
-- worker's interval where the worker maintains this database, for more
-- than a day where it does not (a scheduler runs it, daily at least).
CREATE FUNCTION uuidv7_internal.uuidv7_doctor_policies()
RETURNS TABLE (severity pg_catalog.text, object pg_catalog.text, problem pg_catalog.text, fix pg_catalog.text)
LANGUAGE plpgsql STABLE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
-- (its fix's times and steps read the same in any session)
SET DateStyle = 'ISO, YMD'
SET IntervalStyle = 'postgres'
AS $function$
DECLARE
	t record;
	worker_every interval := uuidv7_internal.uuidv7_worker_interval();
BEGIN
	FOR t IN
		SELECT p.parent, p.last_run, p.last_run_ok, p.last_error, h.sqlstate, h.hint
		FROM @extschema@.uuidv7_partition_policies p
			LEFT JOIN LATERAL (SELECT r.sqlstate, r.hint FROM @extschema@.uuidv7_maintenance_runs r
							   WHERE r.parent = p.parent ORDER BY r.started_at DESC LIMIT 1) h ON true
		ORDER BY p.parent
	LOOP
		IF t.last_run IS NOT NULL AND NOT t.last_run_ok THEN
			severity := 'error';
			object := t.parent;
			problem := format('its last maintenance run, at %s, failed: %s (SQLSTATE %s)', t.last_run, t.last_error, t.sqlstate);
			-- (a period that rows of another table reference: the query
			-- that lists those rows)
			fix := coalesce(t.hint, 'fix what the error says, then CALL uuidv7_run_maintenance(); (SELECT * FROM uuidv7_maintenance_runs shows each run)');
			RETURN NEXT;
		ELSIF t.last_run IS NULL OR t.last_run < now() - coalesce(2 * worker_every, interval '25 hours') THEN
			severity := 'warning';
			object := t.parent;
			problem := CASE WHEN t.last_run IS NULL THEN 'it has a policy, but no maintenance run yet'
							ELSE format('it has a policy, but no maintenance run since %s', t.last_run) END;
			IF worker_every IS NULL THEN
				fix := 'run CALL uuidv7_run_maintenance(); from a scheduler, daily at least (docs/partitioning.md, "Keeping it ahead")';
			ELSE
				problem := problem || format(' (the maintenance worker runs here every %s)', worker_every);
				-- (never a GRANT that would make the worker's role a superuser)
				SELECT CASE
						   WHEN w.oid IS NULL THEN format('create the role uuidv7.maintenance_role names (%I), or name another and reload', n.name)
						   WHEN NOT w.rolcanlogin THEN format('the role uuidv7.maintenance_role names cannot log in, which the worker needs: ALTER ROLE %I LOGIN', n.name)
						   WHEN pg_has_role(w.oid, o.oid, 'USAGE') THEN 'see the server log for the warnings of the uuidv7 maintenance worker'
						   WHEN EXISTS (SELECT FROM pg_roles s WHERE s.rolsuper AND pg_has_role(o.oid, s.oid, 'MEMBER'))
							   THEN format('the worker does not take a superuser''s rights: give the table an owner that is no superuser and that %I is a member of (ALTER TABLE %s OWNER TO ...), or run CALL uuidv7_run_maintenance(); as a superuser from a scheduler',
										   n.name, t.parent)
						   ELSE format('give uuidv7.maintenance_role the rights of the table''s owner, as a superuser or a role with ADMIN OPTION on %I: GRANT %I TO %I', o.rolname, o.rolname, n.name)
					   END INTO fix
				FROM pg_class c JOIN pg_roles o ON o.oid = c.relowner,
					(SELECT current_setting('uuidv7.maintenance_role') AS name) n
					LEFT JOIN pg_roles w ON w.rolname = n.name
				WHERE c.oid = t.parent::regclass;
			END IF;
			RETURN NEXT;
		END IF;
	END LOOP;
END
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_doctor_policies() IS
'uuidv7_doctor''s check of partition policies: a maintenance run that failed, or none for too long, with what to fix (the worker''s role, its rights, a scheduler)';

-- The doctor's check of the databases the worker is told to maintain that
-- do not exist (it reads the list as PostgreSQL reads one of names:
-- unquoted ones in lower case).  The SQL edition has no worker: none.
CREATE FUNCTION uuidv7_internal.uuidv7_doctor_worker_databases()
RETURNS TABLE (severity pg_catalog.text, object pg_catalog.text, problem pg_catalog.text, fix pg_catalog.text)
LANGUAGE plpgsql STABLE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
-- (its fix's times and steps read the same in any session)
SET DateStyle = 'ISO, YMD'
SET IntervalStyle = 'postgres'
AS $function$
DECLARE
	t record;
BEGIN
--#if c
	IF current_setting('uuidv7.maintenance_role', true) <> '' THEN
		FOR t IN
			SELECT d.name
			FROM unnest(string_to_array(current_setting('uuidv7.maintenance_databases'), ',')) WITH ORDINALITY AS l(item, k),
				LATERAL (SELECT (parse_ident(btrim(l.item), false))[1] AS name) d
			WHERE btrim(l.item) <> '' AND NOT EXISTS (SELECT FROM pg_database b WHERE b.datname = d.name)
			ORDER BY l.k
		LOOP
			severity := 'warning';
			object := 'uuidv7.maintenance_databases';
			problem := format('it names database %I, which does not exist: the maintenance worker runs nothing there', t.name);
			fix := 'name the database as pg_database has it (quoted where it has capitals), or create it, then reload';
			RETURN NEXT;
		END LOOP;
	END IF;
--#else
	-- (the SQL edition has no worker)
	RETURN;
--#endif
END
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_doctor_worker_databases() IS
'uuidv7_doctor''s check of the databases uuidv7.maintenance_databases names that do not exist (none in the SQL edition, which has no worker)';

-- The doctor's check of periods retired for an archive and not attached
-- to it yet.
CREATE FUNCTION uuidv7_internal.uuidv7_doctor_archive_pending()
RETURNS TABLE (severity pg_catalog.text, object pg_catalog.text, problem pg_catalog.text, fix pg_catalog.text)
LANGUAGE plpgsql STABLE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
-- (its fix's times and steps read the same in any session)
SET DateStyle = 'ISO, YMD'
SET IntervalStyle = 'postgres'
AS $function$
DECLARE
	t record;
BEGIN
	FOR t IN
		SELECT c.oid::regclass AS tbl, obj_description(k.oid, 'pg_constraint') AS archive
		FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid
		WHERE k.conname = 'uuidv7_archive_pending' AND c.relkind = 'r' AND NOT c.relispartition
			AND has_table_privilege(c.oid, 'SELECT')
		ORDER BY 1
	LOOP
		severity := 'warning';
		object := t.tbl::text;
		problem := format('it was retired for archive %s, and is not attached to it yet', t.archive);
		fix := format('SELECT * FROM uuidv7_archive_partitions(%L); (its action says why one stays out)', t.archive);
		RETURN NEXT;
	END LOOP;
END
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_doctor_archive_pending() IS
'uuidv7_doctor''s check of periods retired for an archive and not attached to it yet, with the call that attaches them';

-- The doctor's check of grids: the tables partitioned on a uuid key whose
-- grid cannot be read from their partitions, nor is recorded.
CREATE FUNCTION uuidv7_internal.uuidv7_doctor_grids()
RETURNS TABLE (severity pg_catalog.text, object pg_catalog.text, problem pg_catalog.text, fix pg_catalog.text)
LANGUAGE plpgsql STABLE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
-- (its fix's times and steps read the same in any session)
SET DateStyle = 'ISO, YMD'
SET IntervalStyle = 'postgres'
AS $function$
DECLARE
	t record;
BEGIN
	FOR t IN
		SELECT c.oid::regclass AS parent, g.problem
		FROM pg_class c JOIN pg_partitioned_table pt ON pt.partrelid = c.oid
			JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = pt.partattrs[0]
			JOIN pg_type ty ON ty.oid = a.atttypid,
			LATERAL uuidv7_internal.uuidv7_read_grid(c.oid, NULL) g
		WHERE pt.partstrat = 'r' AND pt.partnatts = 1 AND NOT c.relispartition
			AND uuidv7_internal.uuidv7_is_uuid_type(ty.oid)
			AND has_table_privilege(c.oid, 'SELECT')
			-- (a record is its table's by OID, also under a former name)
			AND NOT EXISTS (SELECT FROM @extschema@.uuidv7_partition_config r WHERE r.parent_oid = c.oid)
			AND g.problem IS NOT NULL
		ORDER BY 1
	LOOP
		severity := 'notice';
		object := t.parent::text;
		problem := format('its partition grid cannot be read: %s', t.problem);
		fix := format('give the step and the time zone to each partition call of %s, or record a grid its partitions follow: SELECT uuidv7_set_partition_grid(%L, <step>, <time zone>, <a period''s start>);',
					  t.parent::text, t.parent::text);
		RETURN NEXT;
	END LOOP;
END
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_doctor_grids() IS
'uuidv7_doctor''s check of tables partitioned on a uuid key whose partition grid cannot be read from their partitions nor is recorded, with how to record one';

-- The doctor's check of Citus tables distributed by a column of a domain
-- over uuid such as uuid7.
CREATE FUNCTION uuidv7_internal.uuidv7_doctor_citus()
RETURNS TABLE (severity pg_catalog.text, object pg_catalog.text, problem pg_catalog.text, fix pg_catalog.text)
LANGUAGE plpgsql STABLE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
-- (its fix's times and steps read the same in any session)
SET DateStyle = 'ISO, YMD'
SET IntervalStyle = 'postgres'
AS $function$
DECLARE
	t record;
BEGIN
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

COMMENT ON FUNCTION uuidv7_internal.uuidv7_doctor_citus() IS
'uuidv7_doctor''s check of Citus tables distributed by a column of a domain over uuid such as uuid7, which Citus cannot find rows of by a uuid';

-- A health check of what the extension is used for, on what the calling
-- role may read: each finding with how bad it is, what it is about, what is
-- wrong and how to fix it.  Read-only.
CREATE FUNCTION uuidv7_doctor(OUT severity pg_catalog.text, OUT object pg_catalog.text,
							  OUT problem pg_catalog.text, OUT fix pg_catalog.text)
RETURNS SETOF record
LANGUAGE sql STABLE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
-- (the fixes' times and steps read the same in any session)
SET DateStyle = 'ISO, YMD'
SET IntervalStyle = 'postgres'
-- (each check's rows in the order it finds them, the checks in this
-- order: the arms of a UNION ALL are read one after another)
AS $function$
SELECT * FROM uuidv7_internal.uuidv7_doctor_partitions_ahead()
UNION ALL SELECT * FROM uuidv7_internal.uuidv7_doctor_default_rows()
UNION ALL SELECT * FROM uuidv7_internal.uuidv7_doctor_stopped_adoptions()
UNION ALL SELECT * FROM uuidv7_internal.uuidv7_doctor_not_valid_keys()
UNION ALL SELECT * FROM uuidv7_internal.uuidv7_doctor_statistics()
UNION ALL SELECT * FROM uuidv7_internal.uuidv7_doctor_time_ops()
UNION ALL SELECT * FROM uuidv7_internal.uuidv7_doctor_public_ids()
UNION ALL SELECT * FROM uuidv7_internal.uuidv7_doctor_policies()
UNION ALL SELECT * FROM uuidv7_internal.uuidv7_doctor_worker_databases()
UNION ALL SELECT * FROM uuidv7_internal.uuidv7_doctor_archive_pending()
UNION ALL SELECT * FROM uuidv7_internal.uuidv7_doctor_grids()
UNION ALL SELECT * FROM uuidv7_internal.uuidv7_doctor_citus();
$function$;

COMMENT ON FUNCTION uuidv7_doctor() IS
'problems with what uuidv7 is used for, on what the calling role may read: partitions about to run out, policies whose maintenance failed or has not run, grids that cannot be read, rows waiting in DEFAULT (and how they will move) or late rows of retired periods, adoptions stopped before their swap or before validating the foreign keys they re-made, uuidv7_time_ops members missing, a Citus distribution column typed uuid7, a public-id key file refused or without this database''s keys, keys being rotated';
