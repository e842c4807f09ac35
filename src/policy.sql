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
			error pg_catalog.text
		);
		CREATE INDEX uuidv7_maintenance_history_parent
			ON @extschema@.uuidv7_maintenance_history (parent_oid, started_at);
		COMMENT ON TABLE @extschema@.uuidv7_maintenance_history IS
		'each maintenance run of a partitioned table''s policy: when, how long, periods created and retired, rows moved, the error if any';
		-- (each row checked as the records are: by the role that may alter
		-- the table, of the table's OID, at a time past; read through the
		-- views, which show the tables the reader may read)
		CREATE TRIGGER uuidv7_maintenance_history_check
			BEFORE INSERT OR UPDATE OR DELETE ON @extschema@.uuidv7_maintenance_history
			FOR EACH ROW EXECUTE FUNCTION uuidv7_internal.uuidv7_partition_config_check();
		GRANT INSERT, DELETE ON @extschema@.uuidv7_maintenance_history TO PUBLIC;
		GRANT SELECT (parent_oid, started_at) ON @extschema@.uuidv7_maintenance_history TO PUBLIC;
	END IF;
END
$uuidv7_maintenance_history$;

-- Give a table its policy, change it, or remove it (both ahead and keep
-- NULL), in one call; a table without a grid is given one (its step and
-- zone), as its first periods would record it.
CREATE FUNCTION uuidv7_set_partition_policy(parent pg_catalog.regclass,
											ahead pg_catalog.interval DEFAULT NULL,
											keep pg_catalog.interval DEFAULT NULL,
											retire pg_catalog.text DEFAULT 'drop',
											refuse_late_rows pg_catalog.bool DEFAULT false,
											step pg_catalog.interval DEFAULT NULL,
											zone pg_catalog.text DEFAULT NULL)
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
BEGIN
	IF parent IS NULL OR given_retire IS NULL OR given_refuse IS NULL THEN
		RAISE EXCEPTION 'the table, retire and refuse_late_rows of a partition policy must not be null'
			USING ERRCODE = 'null_value_not_allowed';
	END IF;
	IF given_retire NOT IN ('drop', 'detach') THEN
		RAISE EXCEPTION 'retire must be "drop" or "detach"'
			USING ERRCODE = 'invalid_parameter_value', DETAIL = format('It is "%s".', given_retire);
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
	UPDATE @extschema@.uuidv7_partition_config c
	SET ahead = given_ahead, keep = given_keep, retire = given_retire, refuse_late_rows = given_refuse
	WHERE c.parent_oid = parent;
END
$function$;

COMMENT ON FUNCTION uuidv7_set_partition_policy(pg_catalog.regclass, pg_catalog.interval, pg_catalog.interval, pg_catalog.text, pg_catalog.bool, pg_catalog.interval, pg_catalog.text) IS
'give a partitioned table its policy (periods made ahead of now, retired after keep), change it, or remove it with both NULL';

-- One table's maintenance, by its policy, recorded in the history: the
-- periods up to ahead of now made (a hundred at most), those that end keep
-- before now retired; an error is recorded, not raised (the next table's
-- turn comes).  Returns the history's row.  Run as the table's owner
-- (uuidv7_maintain_as_owner).
CREATE FUNCTION uuidv7_internal.uuidv7_maintain(parent pg_catalog.regclass, lock_wait pg_catalog.interval,
												OUT created pg_catalog.int4, OUT retired pg_catalog.int4,
												OUT moved pg_catalog.int8, OUT error_code pg_catalog.text,
												OUT error_message pg_catalog.text)
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	checked record;
	policy record;
	grid record;
	upto timestamptz;
	started timestamptz := clock_timestamp();
BEGIN
	checked := uuidv7_internal.uuidv7_partitioned_parent(parent);
	-- (a renamed table's record takes its name, which pg_dump keeps)
	PERFORM uuidv7_internal.uuidv7_rename_record(parent);
	SELECT c.* INTO policy FROM @extschema@.uuidv7_partition_config c WHERE c.parent_oid = parent;
	created := 0;
	retired := 0;
	moved := 0;
	BEGIN
		IF policy.ahead IS NOT NULL THEN
			-- (at most 100 periods a run, each run's locks a few hundred: a
			-- long way ahead is reached over a few runs)
			grid := uuidv7_internal.uuidv7_call_grid(parent, NULL, NULL, now(), now() + policy.ahead);
			upto := least(now() + policy.ahead,
						  uuidv7_internal.uuidv7_grid_start(grid.anchor, grid.step, grid.zone,
															uuidv7_internal.uuidv7_grid_index(grid.anchor, grid.step, grid.zone, now()) + 100));
			SELECT count(*) FILTER (WHERE p.created), coalesce(sum(p.moved), 0) INTO created, moved
			FROM @extschema@.uuidv7_create_partitions(parent, now(), upto, lock_wait => lock_wait) p;
		END IF;
		-- (never a cut after now, whatever the record says)
		IF policy.keep IS NOT NULL AND now() - policy.keep < now() THEN
			SELECT count(*) FILTER (WHERE d.action IN ('dropped', 'detached')) INTO retired
			FROM @extschema@.uuidv7_drop_partitions(parent, now() - policy.keep, policy.retire = 'detach',
													policy.refuse_late_rows, lock_wait) d;
		END IF;
	-- (also a cancel, by a user or a timeout, or a failed assertion, which
	-- OTHERS leaves out: as autovacuum's, a cancel stops this table's run,
	-- and the next table's comes; a table's code raising one stops no other)
	EXCEPTION WHEN OTHERS OR query_canceled OR assert_failure THEN
		GET STACKED DIAGNOSTICS error_code = RETURNED_SQLSTATE, error_message = MESSAGE_TEXT;
		created := 0;
		retired := 0;
		moved := 0;
	END;
	-- (recorded under the table's name now: its code may have renamed it;
	-- nothing where it dropped it)
	INSERT INTO @extschema@.uuidv7_maintenance_history AS h
		(parent_schema, parent_name, parent_oid, started_at, duration, created, retired, moved, sqlstate, error)
	SELECT n.nspname, c.relname, parent, started, clock_timestamp() - started,
		created, retired, moved, error_code, error_message
	FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
	WHERE c.oid = parent;
	-- (30 days of its runs kept, and none of a table that is no more)
	DELETE FROM @extschema@.uuidv7_maintenance_history h
	WHERE h.started_at < now() - interval '30 days'
		AND (h.parent_oid = parent OR NOT EXISTS (SELECT FROM pg_class c WHERE c.oid = h.parent_oid));
END
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_maintain(pg_catalog.regclass, pg_catalog.interval) IS
'one table''s maintenance by its policy, recorded in uuidv7_maintenance_history; an error is recorded, not raised';

-- A table's maintenance as its owner, whoever calls it: its triggers and
-- the functions of its defaults and constraints run with the owner's rights,
-- never the caller's (a superuser's, a scheduler's).  The C edition runs it
-- as a security-restricted operation under the owner's id, as autovacuum
-- does (no SET ROLE back); the SQL edition, which cannot, maintains only the
-- tables of the calling role itself.  NULL for a table dropped since.
CREATE FUNCTION uuidv7_internal.uuidv7_maintain_as_owner(parent pg_catalog.regclass, lock_wait pg_catalog.interval,
														 OUT created pg_catalog.int4, OUT retired pg_catalog.int4,
														 OUT moved pg_catalog.int8, OUT error_code pg_catalog.text,
														 OUT error_message pg_catalog.text)
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
	r := uuidv7_internal.uuidv7_maintain(parent, lock_wait);
	created := r.created;
	retired := r.retired;
	moved := r.moved;
	error_code := r.error_code;
	error_message := r.error_message;
END
$function$;
--#endif

COMMENT ON FUNCTION uuidv7_internal.uuidv7_maintain_as_owner(pg_catalog.regclass, pg_catalog.interval) IS
'one table''s maintenance by its policy, as the table''s owner; NULL for a table dropped since';

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
-- alter, each in a transaction of its own (its locks taken in upkeep's
-- short tries, lock_wait at most), in the order of their names; a NOTICE a
-- table.  Idempotent, and safe beside another run (upkeep takes turns on
-- each table).  What the background worker runs, and a scheduler can.
CREATE PROCEDURE uuidv7_run_maintenance(lock_wait pg_catalog.interval DEFAULT '1 minute')
LANGUAGE plpgsql
AS $procedure$
DECLARE
	t record;
	r record;
	escaped_code text;
	escaped_message text;
BEGIN
	-- (before anything else: the caller's search_path must not choose the
	-- functions and operators this calls)
	PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
	PERFORM uuidv7_internal.uuidv7_forbid_transaction_block('uuidv7_run_maintenance');
	IF lock_wait IS NULL THEN
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
		PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
		PERFORM uuidv7_internal.uuidv7_progress_step('uuidv7_run_maintenance', t.parent,
													 pg_catalog.format('table %s of %s', t.k, t.tables));
		-- (what escapes a table's run, its record refused, the owner's
		-- rights lost since the list was read, is told, and the next table's
		-- run comes)
		escaped_code := NULL;
		BEGIN
			r := uuidv7_internal.uuidv7_maintain_as_owner(t.parent, lock_wait);
		EXCEPTION WHEN OTHERS OR query_canceled OR assert_failure THEN
			GET STACKED DIAGNOSTICS escaped_code = RETURNED_SQLSTATE, escaped_message = MESSAGE_TEXT;
		END;
		IF escaped_code IS NOT NULL THEN
			RAISE WARNING 'uuidv7_run_maintenance: %: %', t.parent, escaped_message
				USING DETAIL = format('SQLSTATE %s; the run was not recorded, and the next run tries again.', escaped_code);
		ELSIF r IS NULL THEN
			-- (dropped since it was listed)
			NULL;
		ELSIF r.error_message IS NULL THEN
			RAISE NOTICE 'uuidv7_run_maintenance: %: % created, % retired, % rows moved', t.parent, r.created, r.retired, r.moved;
		ELSE
			RAISE WARNING 'uuidv7_run_maintenance: %: %', t.parent, r.error_message
				USING DETAIL = format('SQLSTATE %s; uuidv7_maintenance_runs has it, and the next run tries again.', r.error_code);
		END IF;
		COMMIT;
	END LOOP;
END
$procedure$;

COMMENT ON PROCEDURE uuidv7_run_maintenance(pg_catalog.interval) IS
'run the policy of every partitioned table that has one and that the calling role may alter, each in a transaction of its own, recording each run';

-- The policies, with each table's last run, and the recent history of
-- maintenance, newest first: of the tables the calling role may read
-- (security barriers: a function of the caller's in a condition sees no
-- row of another table first).
DO $uuidv7_policy_views$
BEGIN
	CREATE OR REPLACE VIEW @extschema@.uuidv7_partition_policies WITH (security_barrier) AS
		SELECT pg_catalog.format('%I.%I', n.nspname, c.relname) AS parent,
			p.step, p.zone, p.ahead, p.keep, p.retire, p.refuse_late_rows,
			l.started_at AS last_run, CASE WHEN l.started_at IS NOT NULL THEN l.sqlstate IS NULL END AS last_run_ok,
			l.error AS last_error
		FROM @extschema@.uuidv7_partition_config p
			JOIN pg_catalog.pg_class c ON c.oid OPERATOR(pg_catalog.=) p.parent_oid
			JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) c.relnamespace
			LEFT JOIN LATERAL (SELECT h.started_at, h.sqlstate, h.error
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
			h.started_at, h.duration, h.created, h.retired, h.moved, h.sqlstate, h.error
		FROM @extschema@.uuidv7_maintenance_history h
			JOIN pg_catalog.pg_class c ON c.oid OPERATOR(pg_catalog.=) h.parent_oid
			JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) c.relnamespace
		WHERE pg_catalog.has_table_privilege(c.oid, 'SELECT')
		ORDER BY h.started_at DESC, n.nspname, c.relname;
	COMMENT ON VIEW @extschema@.uuidv7_maintenance_runs IS
	'each maintenance run of the last 30 days of the tables the calling role may read, newest first: the table, when and how long, periods created and retired, rows moved, the error if any';
	GRANT SELECT ON @extschema@.uuidv7_maintenance_runs TO PUBLIC;
END
$uuidv7_policy_views$;
