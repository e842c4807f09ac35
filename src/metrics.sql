-- metrics: each partitioned table's health in numbers, for monitoring

-- How many rows wait in a DEFAULT partition, cheaply: counted where the
-- count is cheap and right (a table of at most 8 MB, which the caller may
-- read whole: its schema and itself granted, no row-level security hiding
-- rows from it), by a scan that
-- stops at the 10,001st row; else the planner's estimate (at least 10,001
-- where the count stopped there), and whether it is one.  NULL where
-- neither is known (a partition never analyzed the caller may not count).
CREATE FUNCTION uuidv7_internal.uuidv7_default_rows(default_partition pg_catalog.regclass,
													OUT default_rows pg_catalog.int8,
													OUT estimated pg_catalog.bool)
LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	d record;
BEGIN
	SELECT c.relkind, c.reltuples, c.relnamespace INTO d FROM pg_class c WHERE c.oid = default_partition;
	IF d.relkind IN ('r', 'p') AND has_table_privilege(default_partition, 'SELECT')
	   AND has_schema_privilege(d.relnamespace, 'USAGE')
	   AND NOT row_security_active(default_partition)
	   AND (d.relkind = 'p' OR pg_relation_size(default_partition) <= 8 * 1024 * 1024) THEN
		EXECUTE format('SELECT count(*) FROM (SELECT FROM %s LIMIT 10001) r', default_partition) INTO default_rows;
		estimated := default_rows > 10000;
		IF NOT estimated THEN
			RETURN;
		END IF;
	END IF;
	-- (reltuples is -1 before a first ANALYZE, from PostgreSQL 14 on)
	default_rows := CASE WHEN d.reltuples >= 0 THEN greatest(d.reltuples::int8, coalesce(default_rows, 0))
						 ELSE default_rows END;
	estimated := default_rows IS NOT NULL;
END
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_default_rows(pg_catalog.regclass) IS
'the rows waiting in a DEFAULT partition: counted up to 10,000 where that is cheap and the caller sees every row, else estimated from the planner''s statistics (NULL where neither is known); used by uuidv7_partition_metrics';

-- One table's figures for uuidv7_partition_metrics.  A lock that another
-- transaction's DDL holds is waited for 100 ms at most, and the figures are
-- NULL then (the next scrape has them): a scrape never queues the
-- application behind it.  A table dropped meanwhile has no row.  The time
-- to the last period's end is NULL for a table whose bounds are not
-- UUIDv7s and that has no grid (partitioned by ranges of uuids, not time).
-- The periods past keep are counted back on the grid's calendar (zone), as
-- the policy counts them; NULL where that cannot be counted (a zone the
-- server no longer knows, a keep beyond the range of time).
CREATE FUNCTION uuidv7_internal.uuidv7_table_metrics(parent pg_catalog.regclass, default_partition pg_catalog.oid,
													 keep pg_catalog.interval, zone pg_catalog.text,
													 has_grid pg_catalog.bool,
													 OUT partitions pg_catalog.int8,
													 OUT seconds_until_last_period_ends pg_catalog.float8,
													 OUT default_rows pg_catalog.int8,
													 OUT default_rows_estimated pg_catalog.bool,
													 OUT periods_past_keep pg_catalog.int8)
RETURNS SETOF record
LANGUAGE plpgsql STABLE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
SET lock_timeout = '100ms'
AS $function$
DECLARE
	last_end timestamptz;
	open_ended boolean;
	keep_cut timestamptz;
	cut_known boolean := true;
BEGIN
	BEGIN
		keep_cut := uuidv7_internal.uuidv7_grid_start(now(), keep, zone, -1);
	EXCEPTION
		WHEN datetime_field_overflow OR invalid_parameter_value THEN
			cut_known := false;
	END;
	BEGIN
		SELECT count(*) FILTER (WHERE b.period_start IS NOT NULL OR b.period_end IS NOT NULL),
			max(b.period_end), coalesce(bool_or(b.upper_bound IS NULL AND b.period_start IS NOT NULL), false),
			count(*) FILTER (WHERE b.period_end <= keep_cut)
		INTO partitions, last_end, open_ended, periods_past_keep
		FROM @extschema@.uuidv7_partitions(parent) b
		WHERE b.partition <> default_partition;
		IF NOT cut_known THEN
			periods_past_keep := NULL;
		END IF;
		seconds_until_last_period_ends := CASE WHEN open_ended THEN 'Infinity'::float8
											   WHEN last_end IS NOT NULL THEN date_part('epoch', last_end - now())
											   WHEN has_grid THEN '-Infinity'::float8 END;
		IF default_partition <> 0 THEN
			SELECT r.default_rows, r.estimated INTO default_rows, default_rows_estimated
			FROM uuidv7_internal.uuidv7_default_rows(default_partition::regclass) r;
		END IF;
	EXCEPTION
		WHEN lock_not_available THEN
			partitions := NULL;
			seconds_until_last_period_ends := NULL;
			default_rows := NULL;
			default_rows_estimated := NULL;
			periods_past_keep := NULL;
		WHEN undefined_table THEN
			RETURN;
	END;
	RETURN NEXT;
END
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_table_metrics(pg_catalog.regclass, pg_catalog.oid, pg_catalog.interval, pg_catalog.text, pg_catalog.bool) IS
'one table''s figures for uuidv7_partition_metrics: its partitions with UUIDv7 bounds, the seconds until the last ends, the rows waiting in DEFAULT, the periods past keep; NULL where a lock is not had within 100 ms, no row for a table dropped meanwhile';

-- Each partitioned table on a uuid key that the calling role may read, in
-- numbers a monitoring system can alert on (docs/monitoring.md): how long
-- until its last period ends, the rows waiting in DEFAULT, its partitions
-- and those past its policy's keep, and its maintenance.  Left out: an
-- archive of a policy, which holds past periods only, and the temporary
-- tables of other sessions, which no session but theirs may read.
DO $uuidv7_metrics_view$
BEGIN
	CREATE OR REPLACE VIEW @extschema@.uuidv7_partition_metrics WITH (security_barrier) AS
		SELECT pg_catalog.format('%I.%I', t.nspname, t.relname) AS parent,
			m.partitions, m.seconds_until_last_period_ends, m.default_rows, m.default_rows_estimated,
			m.periods_past_keep,
			pg_catalog.date_part('epoch', pg_catalog.now() OPERATOR(pg_catalog.-) ok.started_at) AS seconds_since_last_success,
			l.failed AS last_run_failed
		-- (the tables first, apart: no figure is asked of another table)
		FROM (SELECT pt.partdefid, c.oid, c.relname, n.nspname, p.keep, p.zone, p.parent_oid IS NOT NULL AS has_grid
			  FROM pg_catalog.pg_partitioned_table pt
				  JOIN pg_catalog.pg_class c ON c.oid OPERATOR(pg_catalog.=) pt.partrelid
				  JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) c.relnamespace
				  JOIN pg_catalog.pg_attribute a ON a.attrelid OPERATOR(pg_catalog.=) pt.partrelid
					  AND a.attnum OPERATOR(pg_catalog.=) pt.partattrs[0]
				  LEFT JOIN @extschema@.uuidv7_partition_config p ON p.parent_oid OPERATOR(pg_catalog.=) c.oid
			  WHERE pt.partstrat OPERATOR(pg_catalog.=) 'r' AND pt.partnatts OPERATOR(pg_catalog.=) 1
				  AND uuidv7_internal.uuidv7_is_uuid_type(a.atttypid)
				  AND NOT c.relispartition
				  AND NOT pg_catalog.pg_is_other_temp_schema(c.relnamespace)
				  AND NOT EXISTS (SELECT FROM @extschema@.uuidv7_partition_config r
								  WHERE r.archive_schema OPERATOR(pg_catalog.=) n.nspname
									  AND r.archive_name OPERATOR(pg_catalog.=) c.relname)
				  AND pg_catalog.has_schema_privilege(c.relnamespace, 'USAGE')
				  AND pg_catalog.has_table_privilege(c.oid, 'SELECT')
			  OFFSET 0) t
			CROSS JOIN LATERAL uuidv7_internal.uuidv7_table_metrics(t.oid::pg_catalog.regclass, t.partdefid, t.keep,
																	t.zone, t.has_grid) m
			LEFT JOIN LATERAL (SELECT h.started_at FROM @extschema@.uuidv7_maintenance_history h
							   WHERE h.parent_oid OPERATOR(pg_catalog.=) t.oid AND h.sqlstate IS NULL
								   AND h.retire_sqlstate IS NULL
							   ORDER BY h.started_at DESC LIMIT 1) ok ON true
			LEFT JOIN LATERAL (SELECT h.sqlstate IS NOT NULL OR h.retire_sqlstate IS NOT NULL AS failed
							   FROM @extschema@.uuidv7_maintenance_history h
							   WHERE h.parent_oid OPERATOR(pg_catalog.=) t.oid
							   ORDER BY h.started_at DESC LIMIT 1) l ON true;
	COMMENT ON VIEW @extschema@.uuidv7_partition_metrics IS
	'each table partitioned on a uuid key that the calling role may read, in numbers: its partitions with UUIDv7 bounds, the seconds until its last period ends (Infinity: open-ended; -Infinity: a grid but no period; NULL: not partitioned by time), the rows waiting in DEFAULT (counted, or estimated past 10,000), its periods past the policy''s keep, the seconds since its last successful maintenance run and whether the last run failed; figures NULL where a lock was not had within 100 ms';
	GRANT SELECT ON @extschema@.uuidv7_partition_metrics TO PUBLIC;
END
$uuidv7_metrics_view$;
