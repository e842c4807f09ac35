-- metrics: each partitioned table's health in numbers, for monitoring

-- How many rows wait in a DEFAULT partition, cheaply: counted where there
-- are at most 10,000 (a scan that stops at the 10,001st row), else the
-- planner's estimate (at least 10,001), and whether it is one.  A caller
-- who may not read the partition gets the estimate alone.
CREATE FUNCTION uuidv7_internal.uuidv7_default_rows(default_partition pg_catalog.regclass,
													OUT default_rows pg_catalog.int8,
													OUT estimated pg_catalog.bool)
LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $function$
BEGIN
	IF has_table_privilege(default_partition, 'SELECT') THEN
		EXECUTE format('SELECT count(*) FROM (SELECT FROM %s LIMIT 10001) r', default_partition) INTO default_rows;
		estimated := default_rows > 10000;
		IF NOT estimated THEN
			RETURN;
		END IF;
	END IF;
	SELECT greatest(c.reltuples::int8, coalesce(default_rows, 0)), true INTO default_rows, estimated
	FROM pg_class c WHERE c.oid = default_partition;
END
$function$;

COMMENT ON FUNCTION uuidv7_internal.uuidv7_default_rows(pg_catalog.regclass) IS
'the rows waiting in a DEFAULT partition: counted up to 10,000, estimated from the planner''s statistics past that or where the caller may not read it (used by uuidv7_partition_metrics)';

-- Each partitioned table on a uuid key that the calling role may read, in
-- numbers a monitoring system can alert on (docs/monitoring.md): how long
-- until its last period ends, the rows waiting in DEFAULT, its partitions
-- and those past its policy's keep, and its maintenance.  An archive of a
-- policy, which holds past periods only, is left out.
DO $uuidv7_metrics_view$
BEGIN
	CREATE OR REPLACE VIEW @extschema@.uuidv7_partition_metrics WITH (security_barrier) AS
		SELECT pg_catalog.format('%I.%I', pt.nspname, pt.relname) AS parent,
			s.partitions,
			CASE WHEN s.open_ended THEN 'Infinity'::pg_catalog.float8
				 WHEN s.last_end IS NULL THEN '-Infinity'::pg_catalog.float8
				 ELSE pg_catalog.date_part('epoch', s.last_end OPERATOR(pg_catalog.-) pg_catalog.now()) END
				AS seconds_until_last_period_ends,
			d.default_rows, d.estimated AS default_rows_estimated,
			s.past_keep AS periods_past_keep,
			pg_catalog.date_part('epoch', pg_catalog.now() OPERATOR(pg_catalog.-) ok.started_at) AS seconds_since_last_success,
			l.failed AS last_run_failed
		-- (the tables first, apart: no listing is asked of another table)
		FROM (SELECT pt.partdefid, c.oid, c.relname, n.nspname
			  FROM pg_catalog.pg_partitioned_table pt
				  JOIN pg_catalog.pg_class c ON c.oid OPERATOR(pg_catalog.=) pt.partrelid
				  JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) c.relnamespace
				  JOIN pg_catalog.pg_attribute a ON a.attrelid OPERATOR(pg_catalog.=) pt.partrelid
					  AND a.attnum OPERATOR(pg_catalog.=) pt.partattrs[0]
				  JOIN pg_catalog.pg_type ty ON ty.oid OPERATOR(pg_catalog.=) a.atttypid
			  WHERE pt.partstrat OPERATOR(pg_catalog.=) 'r' AND pt.partnatts OPERATOR(pg_catalog.=) 1
				  AND (ty.oid OPERATOR(pg_catalog.=) 'pg_catalog.uuid'::pg_catalog.regtype
					   OR ty.typbasetype OPERATOR(pg_catalog.=) 'pg_catalog.uuid'::pg_catalog.regtype)
				  AND NOT c.relispartition
				  AND NOT EXISTS (SELECT FROM @extschema@.uuidv7_partition_config r
								  WHERE r.archive_schema OPERATOR(pg_catalog.=) n.nspname
									  AND r.archive_name OPERATOR(pg_catalog.=) c.relname)
				  AND pg_catalog.has_table_privilege(c.oid, 'SELECT')
			  OFFSET 0) pt
			LEFT JOIN @extschema@.uuidv7_partition_config p ON p.parent_oid OPERATOR(pg_catalog.=) pt.oid
			CROSS JOIN LATERAL (
				SELECT pg_catalog.count(*) AS partitions,
					pg_catalog.max(b.period_end) AS last_end,
					coalesce(pg_catalog.bool_or(b.upper_bound IS NULL), false) AS open_ended,
					pg_catalog.count(*) FILTER (WHERE b.period_end OPERATOR(pg_catalog.<=)
												(pg_catalog.now() OPERATOR(pg_catalog.-) p.keep)) AS past_keep
				FROM @extschema@.uuidv7_partitions(pt.oid) b
				WHERE b.partition OPERATOR(pg_catalog.<>) pt.partdefid) s
			LEFT JOIN LATERAL uuidv7_internal.uuidv7_default_rows(pt.partdefid::pg_catalog.regclass) d
				ON pt.partdefid OPERATOR(pg_catalog.<>) 0
			LEFT JOIN LATERAL (SELECT h.started_at FROM @extschema@.uuidv7_maintenance_history h
							   WHERE h.parent_oid OPERATOR(pg_catalog.=) pt.oid AND h.sqlstate IS NULL
								   AND h.retire_sqlstate IS NULL
							   ORDER BY h.started_at DESC LIMIT 1) ok ON true
			LEFT JOIN LATERAL (SELECT h.sqlstate IS NOT NULL OR h.retire_sqlstate IS NOT NULL AS failed
							   FROM @extschema@.uuidv7_maintenance_history h
							   WHERE h.parent_oid OPERATOR(pg_catalog.=) pt.oid
							   ORDER BY h.started_at DESC LIMIT 1) l ON true;
	COMMENT ON VIEW @extschema@.uuidv7_partition_metrics IS
	'each table partitioned on a uuid key that the calling role may read, in numbers: its partitions, the seconds until its last period ends (Infinity: open-ended; -Infinity: no period), the rows waiting in DEFAULT (counted, or estimated past 10,000), its periods past the policy''s keep, the seconds since its last successful maintenance run and whether the last run failed';
	GRANT SELECT ON @extschema@.uuidv7_partition_metrics TO PUBLIC;
END
$uuidv7_metrics_view$;
