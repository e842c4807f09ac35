-- comparison: uuid keys against timestamptz with <, <=, >=, > both ways, in
-- either edition: the answers at the edges, one consistent order, NULLs, and
-- the index, partition pruning and row-level security through inlining

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
SET TimeZone = 'UTC';
SET DateStyle = 'ISO';
-- (random keys and instants, the same on every run)
SELECT setseed(0.7) IS NULL AS seeded;

-- a wall of keys against a wall of instants: for each pair, id < t, id <= t,
-- id >= t, id > t, then t < id, t <= id, t >= id, t > id
CREATE TEMP TABLE keys (id uuid, what text);
INSERT INTO keys VALUES
	('00000000-0000-0000-0000-000000000000', 'nil'),
	('00000000-0000-7000-8000-000000000000', 'first of 1970'),
	('01941f29-7c00-7000-8000-000000000000', 'first of 2025-01-01 00:00:00.000'),
	('01941f29-7c00-7abc-9def-0123456789ab', 'later in that millisecond'),
	('01941f29-7c01-7000-8000-000000000000', 'first of the next millisecond'),
	('01941f29-7c00-4abc-9def-0123456789ab', 'a version 4 between'),
	('ffffffff-ffff-7000-8000-000000000000', 'first of the last millisecond'),
	('ffffffff-ffff-ffff-ffff-ffffffffffff', 'max');
CREATE TEMP TABLE instants (t timestamptz, what text);
INSERT INTO instants VALUES
	('-infinity', '-infinity'),
	('1969-12-31 23:59:59.999999+00', 'just before 1970'),
	('1970-01-01 00:00:00+00', '1970'),
	('2025-01-01 00:00:00+00', '2025, whole ms'),
	('2025-01-01 00:00:00.0005+00', '2025, half a ms on'),
	('10889-08-02 05:31:50.655+00', 'last ms'),
	('10889-08-02 05:31:50.655001+00', 'within the last ms'),
	('infinity', 'infinity');
SELECT k.what AS key, i.what AS instant,
	concat_ws(' ', (id < t)::text, (id <= t)::text, (id >= t)::text, (id > t)::text) AS "< <= >= >",
	concat_ws(' ', (t < id)::text, (t <= id)::text, (t >= id)::text, (t > id)::text) AS "reversed"
FROM keys k, instants i
ORDER BY k.id, i.t;

-- one order: each pair answers exactly one of <, and = by both <= and >=, or
-- >; the reversed operators are the commutators; for version 7 keys the
-- answer is that of their time
SELECT count(*) AS pairs,
	count(*) FILTER (WHERE (id < t)::int + (id <= t AND id >= t)::int + (id > t)::int <> 1) AS not_one_answer,
	count(*) FILTER (WHERE (id < t) <> (t > id) OR (id <= t) <> (t >= id)
						   OR (id >= t) <> (t <= id) OR (id > t) <> (t < id)) AS not_commuting,
	count(*) FILTER (WHERE (id < t) = (id >= t) OR (id <= t) = (id > t)) AS not_negating,
	count(*) FILTER (WHERE uuidv7_timestamp(id) IS NOT NULL
						   AND ((id >= t) <> (uuidv7_timestamp(id) >= t) OR (id < t) <> (uuidv7_timestamp(id) < t))) AS not_by_time
FROM (SELECT uuidv7_generate_at('2025-01-01 00:00+00'::timestamptz + (random() * 100000)::int * interval '1 ms') AS id
	  FROM generate_series(1, 300)
	  UNION ALL SELECT id FROM keys) k,
	(SELECT '2025-01-01 00:00+00'::timestamptz + (random() * 100000000)::int * interval '1 us' AS t
	 FROM generate_series(1, 20)
	 UNION ALL SELECT t FROM instants) i;

-- NULL in, NULL out, whatever the other side
SELECT count(*) FILTER (WHERE r IS NOT NULL) AS not_null
FROM instants i,
	LATERAL (VALUES (NULL::uuid < t), (NULL::uuid <= t), (NULL::uuid >= t), (NULL::uuid > t),
					(t < NULL::uuid), (t <= NULL::uuid), (t >= NULL::uuid), (t > NULL::uuid),
					('01941f29-7c00-7000-8000-000000000000'::uuid < NULL::timestamptz),
					('01941f29-7c00-7000-8000-000000000000'::uuid >= NULL::timestamptz),
					(NULL::timestamptz <= '01941f29-7c00-7000-8000-000000000000'::uuid)) AS v(r);

-- the planner inlines them: a whole day is exactly its partition, and an
-- hour one partition of ten through its primary key, given as constants
-- either way round or as the parameters of a generic plan (pruned at
-- executor start)
CREATE TABLE events (id uuid7 PRIMARY KEY, tenant text NOT NULL) PARTITION BY RANGE (id);
SELECT count(*) AS partitions FROM uuidv7_create_partitions('events', '2025-01-01 00:00+00', '2025-01-11 00:00+00', '1 day', 'UTC');
INSERT INTO events SELECT uuidv7_generate_at('2025-01-01 00:00+00'::timestamptz + g * interval '1 minute'),
	CASE WHEN g % 2 = 0 THEN 'acme' ELSE 'globex' END
FROM generate_series(0, 10 * 1440 - 1) g;
ANALYZE events;
EXPLAIN (COSTS OFF)
SELECT count(*) FROM events WHERE id >= '2025-01-05 00:00+00'::timestamptz AND id < '2025-01-06 00:00+00'::timestamptz;
SELECT count(*) AS one_day FROM events WHERE id >= '2025-01-05 00:00+00'::timestamptz AND id < '2025-01-06 00:00+00'::timestamptz;
EXPLAIN (COSTS OFF)
SELECT count(*) FROM events WHERE id >= '2025-01-05 10:00+00'::timestamptz AND id < '2025-01-05 11:00+00'::timestamptz;
EXPLAIN (COSTS OFF)
SELECT count(*) FROM events WHERE '2025-01-05 10:00+00'::timestamptz <= id AND '2025-01-05 11:00+00'::timestamptz > id;
SELECT count(*) AS one_hour FROM events WHERE '2025-01-05 10:00+00'::timestamptz <= id AND '2025-01-05 11:00+00'::timestamptz > id;
PREPARE one_hour(timestamptz, timestamptz) AS
SELECT count(*) FROM events WHERE id >= $1 AND id < $2;
SET plan_cache_mode = force_generic_plan;
-- (the pruning, the index scan, and its bounds: how the check of the
-- instant against the year 10889 is planned differs by edition and major, a
-- second index condition in the C edition, a filter in the SQL edition or,
-- from PostgreSQL 19 on, which knows a primary key is never NULL, a one-time
-- filter)
CREATE FUNCTION pg_temp.pruning_and_scans(query text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
	line text;
BEGIN
	FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || query LOOP
		IF line ~ 'Index Cond' THEN
			RETURN NEXT format('Index Cond from %s to %s',
							   line ~ '\(id >= uuidv7_first_not_before\(\$1\)\)',
							   line ~ '\(id <= uuidv7_last_before\(\$2\)\)');
		ELSIF line ~ 'Subplans Removed|Scan' THEN
			RETURN NEXT btrim(line);
		END IF;
	END LOOP;
END
$$;
SELECT * FROM pg_temp.pruning_and_scans($$EXECUTE one_hour('2025-01-05 10:00+00', '2025-01-05 11:00+00')$$);
EXECUTE one_hour('2025-01-05 10:00+00', '2025-01-05 11:00+00');
SET plan_cache_mode = auto;
DEALLOCATE one_hour;

-- under row-level security, as a role that is not the owner: the same index
-- and pruning
CREATE ROLE regress_comparison_reader;
-- (so that a role without superuser running the suite may become it)
GRANT regress_comparison_reader TO CURRENT_USER;
GRANT SELECT ON events TO regress_comparison_reader;
ALTER TABLE events ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_acme ON events FOR SELECT TO regress_comparison_reader USING (tenant = 'acme');
SET ROLE regress_comparison_reader;
EXPLAIN (COSTS OFF)
SELECT count(*) FROM events WHERE id >= '2025-01-05 10:00+00'::timestamptz AND id < '2025-01-05 11:00+00'::timestamptz;
SELECT count(*) AS acme_one_hour FROM events WHERE id >= '2025-01-05 10:00+00'::timestamptz AND id < '2025-01-05 11:00+00'::timestamptz;
RESET ROLE;
DROP POLICY tenant_acme ON events;
REVOKE ALL ON events FROM regress_comparison_reader;
DROP ROLE regress_comparison_reader;

-- a BRIN index on a uuid key serves them too
CREATE TABLE log (id uuid NOT NULL, v int);
INSERT INTO log SELECT uuidv7_generate_at('2025-01-01 00:00+00'::timestamptz + g * interval '1 second'), g
FROM generate_series(0, 99999) g;
CREATE INDEX log_brin ON log USING brin (id);
ANALYZE log;
SET enable_seqscan = off;
EXPLAIN (COSTS OFF)
SELECT count(*) FROM log WHERE id >= '2025-01-01 12:00+00'::timestamptz AND id < '2025-01-01 13:00+00'::timestamptz;
SET enable_seqscan = on;
SELECT count(*) AS one_hour FROM log WHERE id >= '2025-01-01 12:00+00'::timestamptz AND id < '2025-01-01 13:00+00'::timestamptz;
DROP TABLE events, log;

-- operators of these names that the schema has already are left alone: a
-- user's own, with a WARNING (an extension script's NOTICEs never reach the
-- client), and none of uuidv7's is made
SELECT current_database() AS regress_db \gset
CREATE DATABASE regress_uuidv7_comparison;
\c regress_uuidv7_comparison
CREATE FUNCTION public.always(uuid, timestamptz) RETURNS boolean LANGUAGE sql IMMUTABLE AS 'SELECT true';
CREATE OPERATOR public.>= (LEFTARG = uuid, RIGHTARG = timestamptz, FUNCTION = public.always);
CREATE EXTENSION uuidv7;
SELECT o.oprname, o.oprcode AS function FROM pg_operator o
WHERE o.oprleft = 'uuid'::regtype AND o.oprright = 'timestamptz'::regtype ORDER BY o.oprname COLLATE "C";
\c :"regress_db"
DROP DATABASE regress_uuidv7_comparison;
