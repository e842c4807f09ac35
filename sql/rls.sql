-- row-level security, as hosted platforms run queries: a role that is not
-- a superuser reads a table under a policy.  The planner uses an index
-- condition ahead of a policy only if its operators and functions are
-- LEAKPROOF; each form of a time-range query keeps its index and returns
-- exactly the rows the policy allows.

-- the settings its output depends on, whatever the server's: the planner's,
-- parallelism, JIT and the client's at their built-in defaults
SELECT count(set_config(name, boot_val, false)) > 0 AS settings_pinned FROM pg_settings
WHERE name ~ '^enable_' OR name IN ('client_min_messages', 'extra_float_digits', 'jit',
	'max_parallel_workers_per_gather', 'plan_cache_mode', 'default_statistics_target', 'effective_cache_size',
	'random_page_cost', 'seq_page_cost', 'cpu_tuple_cost', 'cpu_index_tuple_cost', 'cpu_operator_cost',
	'parallel_setup_cost', 'parallel_tuple_cost', 'min_parallel_table_scan_size', 'min_parallel_index_scan_size');
-- (errors without the PL/pgSQL or SQL lines that raised them, which differ
-- between the C and SQL editions)
\set SHOW_CONTEXT never
SET client_min_messages = warning;
SET TimeZone = 'UTC';
CREATE EXTENSION uuidv7_time_ops;

CREATE ROLE regress_uuidv7_tenant;
CREATE TABLE events (id uuid7 PRIMARY KEY DEFAULT uuidv7_generate(), tenant text NOT NULL, v int);
CREATE INDEX events_time ON events (uuidv7_timestamp(id));
-- three tenants, one row every 10 seconds for 11 days
INSERT INTO events
SELECT uuidv7_generate_at('2025-01-01 00:00+00'::timestamptz + g * interval '10 seconds'),
	(ARRAY['acme', 'globex', 'initech'])[1 + g % 3], g
FROM generate_series(0, 99999) g;
ANALYZE events;
ALTER TABLE events ENABLE ROW LEVEL SECURITY;
CREATE POLICY own_rows ON events FOR SELECT TO regress_uuidv7_tenant
	USING (tenant = current_setting('app.tenant'));
GRANT SELECT ON events TO regress_uuidv7_tenant;

-- the scans of a query's plan: the index each one uses, or Seq Scan
CREATE FUNCTION pg_temp.scans(query text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	line text;
	scans text[] := '{}';
BEGIN
	FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || query LOOP
		IF line ~ 'Seq Scan' THEN
			scans := scans || 'Seq Scan'::text;
		ELSIF line ~ '(Index Scan|Index Only Scan) using|Bitmap Index Scan on' THEN
			scans := scans || substring(line FROM '(?:using|on) (\S+)');
		END IF;
	END LOOP;
	RETURN array_to_string(scans, ', ');
END
$$;
CREATE TEMP TABLE forms (form text, predicate text);
INSERT INTO forms VALUES
	('bounds', $$id >= uuidv7_min('2025-01-05 10:00+00') AND id < uuidv7_min('2025-01-05 11:00+00')$$),
	('time operators', $$id >= '2025-01-05 10:00+00'::timestamptz AND id < '2025-01-05 11:00+00'::timestamptz$$),
	-- (uuidv7_time_ops's C operators, in their own schema beside uuidv7's)
	('time operators of uuidv7_time_ops', $$id OPERATOR(uuidv7_time_ops.>=) '2025-01-05 10:00+00'::timestamptz
		AND id OPERATOR(uuidv7_time_ops.<) '2025-01-05 11:00+00'::timestamptz$$),
	('extracted time', $$uuidv7_timestamp(id) >= '2025-01-05 10:00+00' AND uuidv7_timestamp(id) < '2025-01-05 11:00+00'$$);
GRANT SELECT ON forms TO regress_uuidv7_tenant;
-- the rows the policy allows, counted by the table's owner
SELECT count(*) AS acme_rows_that_hour FROM events
WHERE tenant = 'acme' AND uuidv7_timestamp(id) >= '2025-01-05 10:00+00' AND uuidv7_timestamp(id) < '2025-01-05 11:00+00'
\gset

SET ROLE regress_uuidv7_tenant;
SET app.tenant = 'acme';
SELECT rolsuper, rolbypassrls FROM pg_roles WHERE rolname = current_user;
SELECT form, pg_temp.scans(format('SELECT * FROM events WHERE %s', predicate)) AS scans
FROM forms ORDER BY form;
CREATE TEMP TABLE seen (form text, rows bigint, other_tenants bigint);
DO $$
DECLARE
	f record;
	n bigint;
	others bigint;
BEGIN
	FOR f IN SELECT * FROM forms LOOP
		EXECUTE format('SELECT count(*), count(*) FILTER (WHERE tenant <> ''acme'') FROM events WHERE %s',
					   f.predicate) INTO n, others;
		INSERT INTO seen VALUES (f.form, n, others);
	END LOOP;
END
$$;
SELECT form, rows = :acme_rows_that_hour AS the_rows_the_policy_allows, rows, other_tenants
FROM seen ORDER BY form;
RESET ROLE;

-- the check can fail: without LEAKPROOF the planner must apply the policy
-- first, and the same queries lose their index, but for those through
-- uuidv7's operators, inlined into comparisons of uuids (LEAKPROOF in core)
ALTER FUNCTION uuidv7_ge_timestamptz(uuid, timestamptz) NOT LEAKPROOF;
ALTER FUNCTION uuidv7_lt_timestamptz(uuid, timestamptz) NOT LEAKPROOF;
ALTER FUNCTION uuidv7_timestamp(uuid) NOT LEAKPROOF;
SET ROLE regress_uuidv7_tenant;
SELECT form, pg_temp.scans(format('SELECT * FROM events WHERE %s', predicate)) AS scans_without_leakproof
FROM forms ORDER BY form;
RESET ROLE;
ALTER FUNCTION uuidv7_ge_timestamptz(uuid, timestamptz) LEAKPROOF;
ALTER FUNCTION uuidv7_lt_timestamptz(uuid, timestamptz) LEAKPROOF;
ALTER FUNCTION uuidv7_timestamp(uuid) LEAKPROOF;

DROP TABLE events, forms, seen;
DROP ROLE regress_uuidv7_tenant;
DROP EXTENSION uuidv7_time_ops;
