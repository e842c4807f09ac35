-- uuidv7_time_ops: uuid keys compared with times in btree and BRIN indexes,
-- partition pruning and RANGE window frames; opt-in, removable, repairable

-- the settings its output depends on, whatever the server's: the planner's,
-- parallelism, JIT and the client's at their built-in defaults
SELECT count(set_config(name, boot_val, false)) > 0 AS settings_pinned FROM pg_settings
WHERE name ~ '^enable_' OR name IN ('client_min_messages', 'extra_float_digits', 'jit',
	'max_parallel_workers_per_gather', 'plan_cache_mode', 'default_statistics_target', 'effective_cache_size',
	'random_page_cost', 'seq_page_cost', 'cpu_tuple_cost', 'cpu_index_tuple_cost', 'cpu_operator_cost',
	'parallel_setup_cost', 'parallel_tuple_cost', 'min_parallel_table_scan_size', 'min_parallel_index_scan_size');
SET TimeZone = 'UTC';
SET DateStyle = 'ISO';
\set SHOW_CONTEXT never

CREATE TEMP TABLE core_amop AS
SELECT amopfamily, amoplefttype, amoprighttype, amopstrategy, amopopr, amopmethod FROM pg_amop;
CREATE TEMP TABLE core_amproc AS
SELECT amprocfamily, amproclefttype, amprocrighttype, amprocnum, amproc FROM pg_amproc;

-- without this extension, uuidv7's own operators answer (SQL, inlined into
-- a comparison of uuids: test comparison)
SELECT o.oprcode AS "uuid < timestamptz" FROM pg_operator o
WHERE o.oprname = '<' AND o.oprleft = 'uuid'::regtype AND o.oprright = 'timestamptz'::regtype;

-- only a superuser can add to PostgreSQL's own operator families: the
-- extension is not trusted
SELECT name, trusted, superuser FROM pg_available_extension_versions v
WHERE name LIKE 'uuidv7%'
	AND version = (SELECT default_version FROM pg_available_extensions a WHERE a.name = v.name)
ORDER BY name COLLATE "C";
CREATE ROLE regress_uuidv7_owner;
SET ROLE regress_uuidv7_owner;
CREATE EXTENSION uuidv7_time_ops;
\echo :LAST_ERROR_SQLSTATE
RESET ROLE;
DROP ROLE regress_uuidv7_owner;

CREATE EXTENSION uuidv7_time_ops;
-- uuidv7's operators hold the names in public, so this extension's went into
-- a schema of their own, uuidv7_time_ops, which comes first from here on so
-- that the queries below use them
SELECT n.nspname, count(*) AS operators FROM pg_operator o JOIN pg_namespace n ON n.oid = o.oprnamespace
WHERE (o.oprleft, o.oprright) IN (('uuid'::regtype, 'timestamptz'::regtype), ('timestamptz'::regtype, 'uuid'::regtype))
GROUP BY n.nspname ORDER BY n.nspname COLLATE "C";
SET search_path = uuidv7_time_ops, public;
-- (BRIN's multi-minmax class, which PostgreSQL has from 14 on, has a test of
-- its own: time_ops_brin_multi)
SELECT * FROM uuidv7_time_ops_status() WHERE family <> 'uuid_minmax_multi_ops';

-- what each operator means, at a whole millisecond and inside one: an
-- instant on a whole millisecond takes the place of the first UUIDv7 of its
-- millisecond (so <= and > differ from < and >= for that UUID alone); any
-- other instant stands just below the first UUIDv7 of the next millisecond
SELECT t, label,
	id < t AS "<", id <= t AS "<=", id >= t AS ">=", id > t AS ">"
FROM (VALUES (timestamptz '2025-01-01 00:00:00+00'), ('2025-01-01 00:00:00.0005+00')) AS i(t),
	(VALUES ('last UUID of the millisecond before', uuidv7_max('2024-12-31 23:59:59.999+00')),
			('first UUID of the millisecond', uuidv7_min('2025-01-01 00:00:00+00')),
			('last UUID of the millisecond', uuidv7_max('2025-01-01 00:00:00+00')),
			('first UUID of the millisecond after', uuidv7_min('2025-01-01 00:00:00.001+00'))) AS u(label, id)
ORDER BY t, id;
\set VERBOSITY terse
SELECT uuidv7_min('2025-01-01') = '2025-01-01'::timestamptz;
\echo :LAST_ERROR_SQLSTATE
\set VERBOSITY default

-- property test: random ids near random instants (whole and inside
-- milliseconds, at and beyond the edges of what a UUIDv7 holds); the
-- instants come from a fixed seed, so that every run checks the same ones
SELECT setseed(0.11);
CREATE TEMP TABLE instants AS
SELECT t FROM (
	SELECT timestamptz '1970-01-01 00:00:00.002+00'
		+ random() * (timestamptz '10889-08-02 05:31:50.650+00' - timestamptz '1970-01-01 00:00:00.002+00') AS t
	FROM generate_series(1, 200)
	UNION ALL
	SELECT date_trunc('milliseconds', timestamptz '2025-01-01 00:00:00+00' + random() * interval '10 years')
	FROM generate_series(1, 200)) r
UNION ALL
VALUES (timestamptz '1970-01-01 00:00:00+00'), ('1970-01-01 00:00:00.0005+00'), ('1969-12-31 23:59:59+00'),
	('-infinity'), ('infinity'), ('10889-08-02 05:31:50.655+00'), ('10889-08-02 05:31:50.6551+00'),
	('10889-08-02 05:31:50.656+00'), ('294276-01-01 00:00:00+00');
CREATE TEMP TABLE pairs AS
SELECT t, id
FROM instants,
	LATERAL (SELECT least(greatest(t, '1970-01-01 00:00:00.002+00'), '10889-08-02 05:31:50.65+00')
					+ d * interval '1 microsecond' AS near
			 FROM unnest(ARRAY[-1001, -1000, -999, -500, -1, 0, 1, 500, 999, 1000, 1001]) AS d) n,
	LATERAL (SELECT uuidv7_generate_at(near) AS id
			 UNION ALL SELECT uuidv7_min(date_trunc('milliseconds', near))
			 UNION ALL SELECT uuidv7_max(near)) i;
SELECT count(*) AS pairs,
	count(*) FILTER (WHERE (id < t) IS DISTINCT FROM (uuidv7_timestamp(id) < t)) AS lt_wrong,
	count(*) FILTER (WHERE (id >= t) IS DISTINCT FROM (uuidv7_timestamp(id) >= t)) AS ge_wrong,
	count(*) FILTER (WHERE (id <= t) IS DISTINCT FROM (id < t OR same)
					 OR (id > t) IS DISTINCT FROM (id >= t AND NOT same)) AS le_gt_wrong,
	count(*) FILTER (WHERE (t > id) IS DISTINCT FROM (id < t) OR (t <= id) IS DISTINCT FROM (id >= t)
					 OR (t >= id) IS DISTINCT FROM (id <= t) OR (t < id) IS DISTINCT FROM (id > t)) AS commutators_wrong,
	count(*) FILTER (WHERE (id < t) = (id >= t) OR (id <= t) = (id > t)) AS negators_wrong,
	count(*) FILTER (WHERE uuidv7_cmp_timestamptz(id, t) <> CASE WHEN id < t THEN -1 WHEN id > t THEN 1 ELSE 0 END
					 OR timestamptz_cmp_uuidv7(t, id) <> -uuidv7_cmp_timestamptz(id, t)) AS cmp_wrong,
	count(*) FILTER (WHERE same) AS equal_pairs
FROM (SELECT t, id,
			 -- equal exactly when t is on a whole millisecond a UUIDv7 holds and
			 -- id is the first UUID of that millisecond
			 coalesce(t = date_trunc('milliseconds', t) AND t BETWEEN '1970-01-01 00:00:00+00' AND '10889-08-02 05:31:50.655+00'
					  AND id = uuidv7_min(t), false) AS same
	  FROM pairs) p;
-- the same order as the bounds: "id >= t" is "id >= uuidv7_min(t)"
SELECT count(*) FILTER (WHERE (id >= t) IS DISTINCT FROM (id >= uuidv7_min(t))) AS differs_from_bounds
FROM pairs WHERE t BETWEEN '1970-01-01' AND '10889-08-02 05:31:50.655+00';

-- property test: the operator family is one total order over uuids and
-- times together, as btree and the planner need.  Values of both types (v7
-- and other uuids, the first UUIDv7 of a millisecond and its neighbours,
-- times on and inside milliseconds, before 1970, at the last millisecond,
-- infinities), compared every way: uuid with uuid by core's uuid_cmp, time
-- with time by core's timestamptz_cmp, across by these operators.  Every
-- comparison must be antisymmetric and every chain a <= b <= c must give
-- a <= c (equal only if both links are); each = pairs one time with one uuid.
SELECT setseed(0.37);
CREATE TEMP TABLE order_times AS
SELECT DISTINCT t FROM (
	SELECT date_trunc('milliseconds', timestamptz '2025-01-01 00:00:00+00' + random() * interval '1 day') AS t
	FROM generate_series(1, 12)
	UNION ALL
	SELECT timestamptz '2025-01-01 00:00:00+00' + random() * interval '1 day' FROM generate_series(1, 12)
	UNION ALL
	VALUES (timestamptz '2025-06-01 00:00:00+00'), ('2025-06-01 00:00:00.0001+00'), ('2025-06-01 00:00:00.0009+00'),
		('2025-06-01 00:00:00.001+00'), ('2025-05-31 23:59:59.9999+00'),
		('1970-01-01 00:00:00+00'), ('1970-01-01 00:00:00.0005+00'), ('1969-12-31 23:59:59.999+00'),
		('1900-01-01 00:00:00+00'), ('-infinity'), ('infinity'),
		('10889-08-02 05:31:50.655+00'), ('10889-08-02 05:31:50.6551+00'), ('10889-08-02 05:31:50.656+00')) v;
CREATE TEMP TABLE order_uuids AS
SELECT DISTINCT u FROM (
	-- the first UUIDv7 of each time's millisecond and of the next, their
	-- neighbours (the one just below is not version 7), ids inside them
	SELECT b.u FROM order_times o,
		LATERAL (SELECT uuidv7_min(date_trunc('milliseconds', o.t)) AS first_ms, uuidv7_min(o.t) AS first_after
				 WHERE o.t BETWEEN '1970-01-01' AND '10889-08-02 05:31:50.655+00') f,
		LATERAL (VALUES (f.first_ms), (f.first_after),
						(overlay(f.first_ms::text PLACING '7fff-ffffffffffff' FROM 20)::uuid),
						(overlay(f.first_ms::text PLACING '8000-000000000001' FROM 20)::uuid),
						(uuidv7_max(o.t))) AS b(u)
	UNION ALL
	-- any uuids, of any version, and the extremes
	SELECT md5(random()::text)::uuid FROM generate_series(1, 8)
	UNION ALL
	VALUES ('00000000-0000-0000-0000-000000000000'::uuid), ('00000000-0000-7000-8000-000000000000'),
		('ffffffff-ffff-ffff-ffff-ffffffffffff'), ('ffffffff-ffff-7fff-bfff-ffffffffffff')) v;
CREATE TEMP TABLE order_values AS
SELECT row_number() OVER () AS n, u, t FROM (
	SELECT u, NULL::timestamptz AS t FROM order_uuids
	UNION ALL SELECT NULL, t FROM order_times) v;
CREATE TEMP TABLE order_cmp AS
SELECT a.n AS a, b.n AS b,
	CASE WHEN a.u IS NOT NULL AND b.u IS NOT NULL THEN sign(uuid_cmp(a.u, b.u))
		 WHEN a.t IS NOT NULL AND b.t IS NOT NULL THEN sign(timestamptz_cmp(a.t, b.t))
		 WHEN a.u IS NOT NULL THEN CASE WHEN a.u < b.t THEN -1 WHEN a.u > b.t THEN 1 ELSE 0 END
		 ELSE CASE WHEN a.t < b.u THEN -1 WHEN a.t > b.u THEN 1 ELSE 0 END
	END AS c,
	-- the other operators and the support function say the same
	CASE WHEN a.u IS NOT NULL AND b.t IS NOT NULL THEN
		(a.u <= b.t) = (uuidv7_cmp_timestamptz(a.u, b.t) <= 0) AND (a.u >= b.t) = (uuidv7_cmp_timestamptz(a.u, b.t) >= 0)
		AND (a.u < b.t) = (uuidv7_cmp_timestamptz(a.u, b.t) < 0) AND (a.u > b.t) = (uuidv7_cmp_timestamptz(a.u, b.t) > 0)
		 WHEN a.t IS NOT NULL AND b.u IS NOT NULL THEN
		(a.t <= b.u) = (timestamptz_cmp_uuidv7(a.t, b.u) <= 0) AND (a.t >= b.u) = (timestamptz_cmp_uuidv7(a.t, b.u) >= 0)
		AND (a.t < b.u) = (timestamptz_cmp_uuidv7(a.t, b.u) < 0) AND (a.t > b.u) = (timestamptz_cmp_uuidv7(a.t, b.u) > 0)
		 ELSE true
	END AS operators_agree
FROM order_values a, order_values b;
SELECT (SELECT count(*) FROM order_uuids) AS uuids, (SELECT count(*) FROM order_times) AS times,
	(SELECT count(*) FROM order_cmp WHERE NOT operators_agree) AS operators_disagree,
	(SELECT count(*) FROM order_cmp x JOIN order_cmp y ON y.a = x.b AND y.b = x.a WHERE x.c <> -y.c) AS not_antisymmetric,
	(SELECT count(*) FROM order_cmp ab JOIN order_cmp bc ON bc.a = ab.b JOIN order_cmp ac ON ac.a = ab.a AND ac.b = bc.b
	 WHERE ab.c <= 0 AND bc.c <= 0 AND ac.c <> least(ab.c, bc.c)) AS not_transitive,
	(SELECT count(*) FROM order_cmp x JOIN order_values a ON a.n = x.a JOIN order_values b ON b.n = x.b
	 WHERE x.c = 0 AND a.u IS NOT NULL AND b.t IS NOT NULL) AS equal_pairs,
	(SELECT count(*) FROM (SELECT x.a FROM order_cmp x JOIN order_values a ON a.n = x.a JOIN order_values b ON b.n = x.b
						   WHERE x.c = 0 AND x.a <> x.b GROUP BY x.a HAVING count(*) > 1) m) AS equal_to_several;

-- btree: a uuid7 primary key answers time ranges through its index
CREATE TABLE readings (id uuid7 PRIMARY KEY, v int);
INSERT INTO readings
SELECT uuidv7_generate_at('2025-01-01 00:00:00+00'::timestamptz + g * interval '86.4 seconds'), g
FROM generate_series(0, 99999) g;
ANALYZE readings;
EXPLAIN (COSTS OFF)
SELECT count(*) FROM readings
WHERE id >= '2025-02-01 00:00:00+00'::timestamptz AND id < '2025-02-02 00:00:00+00'::timestamptz;
EXPLAIN (COSTS OFF)
SELECT count(*) FROM readings WHERE '2025-02-01 12:00:00+00'::timestamptz > id;
CREATE TEMP TABLE by_index AS SELECT id FROM readings
WHERE id >= '2025-02-01 00:00:00.0004+00'::timestamptz AND id <= '2025-02-14 12:34:56.789+00'::timestamptz;
SET enable_indexscan = off;
SET enable_bitmapscan = off;
SET enable_indexonlyscan = off;
CREATE TEMP TABLE by_seqscan AS SELECT id FROM readings
WHERE id >= '2025-02-01 00:00:00.0004+00'::timestamptz AND id <= '2025-02-14 12:34:56.789+00'::timestamptz;
SET enable_indexscan = on;
SET enable_bitmapscan = on;
SET enable_indexonlyscan = on;
CREATE TEMP TABLE by_time AS SELECT id FROM readings
WHERE uuidv7_timestamp(id) >= '2025-02-01 00:00:00.0004+00' AND uuidv7_timestamp(id) < '2025-02-14 12:34:56.789+00';
SELECT (SELECT count(*) FROM by_index) AS rows,
	NOT EXISTS ((TABLE by_index EXCEPT TABLE by_seqscan) UNION ALL (TABLE by_seqscan EXCEPT TABLE by_index)) AS index_equals_seqscan,
	NOT EXISTS ((TABLE by_index EXCEPT TABLE by_time) UNION ALL (TABLE by_time EXCEPT TABLE by_index)) AS index_equals_time_filter;

-- partitions: a time range prunes at plan time, a parameter at execution
CREATE TABLE metrics (id uuid7 PRIMARY KEY, v int) PARTITION BY RANGE (id);
SELECT count(*) AS partitions FROM uuidv7_create_partitions('metrics', '2025-01-01', '2025-05-01', '1 month', 'UTC');
INSERT INTO metrics SELECT id, v FROM readings;
ANALYZE metrics;
EXPLAIN (COSTS OFF)
SELECT count(*) FROM metrics
WHERE id >= '2025-02-10 00:00:00+00'::timestamptz AND id < '2025-02-11 00:00:00+00'::timestamptz;
-- a range that starts where a partition starts scans that partition alone,
-- as the uuidv7_min() form does: the partition before it ends at its
-- upper bound uuidv7_min('2025-02-01'), which the time now equals
EXPLAIN (COSTS OFF)
SELECT count(*) FROM metrics
WHERE id >= '2025-02-01 00:00:00+00'::timestamptz AND id < '2025-03-01 00:00:00+00'::timestamptz;
EXPLAIN (COSTS OFF)
SELECT count(*) FROM metrics
WHERE id >= uuidv7_min('2025-02-01 00:00:00+00') AND id < uuidv7_min('2025-03-01 00:00:00+00');
-- (and one that starts inside a millisecond cannot exclude that millisecond's partition)
EXPLAIN (COSTS OFF)
SELECT count(*) FROM metrics
WHERE id >= '2025-01-31 23:59:59.9995+00'::timestamptz AND id < '2025-03-01 00:00:00+00'::timestamptz;
PREPARE one_day(timestamptz, timestamptz) AS SELECT count(*) FROM metrics WHERE id >= $1 AND id < $2;
SET plan_cache_mode = force_generic_plan;
EXPLAIN (COSTS OFF) EXECUTE one_day('2025-02-10 00:00:00+00', '2025-02-11 00:00:00+00');
EXECUTE one_day('2025-02-10 00:00:00+00', '2025-02-11 00:00:00+00');
EXPLAIN (COSTS OFF) EXECUTE one_day('2025-02-01 00:00:00+00', '2025-03-01 00:00:00+00');
EXECUTE one_day('2025-02-01 00:00:00+00', '2025-03-01 00:00:00+00');
SELECT count(*) FROM metrics WHERE uuidv7_timestamp(id) >= '2025-02-01 00:00:00+00' AND uuidv7_timestamp(id) < '2025-03-01 00:00:00+00';
SET plan_cache_mode = auto;
DEALLOCATE one_day;
DROP TABLE metrics;
-- a plain uuid key with the v7 rule as a CHECK prunes the same way
CREATE TABLE metrics_plain (id uuid PRIMARY KEY CHECK (uuidv7_timestamp(id) IS NOT NULL), v int) PARTITION BY RANGE (id);
SELECT count(*) AS partitions FROM uuidv7_create_partitions('metrics_plain', '2025-01-01', '2025-05-01', '1 month', 'UTC');
INSERT INTO metrics_plain SELECT id, v FROM readings;
ANALYZE metrics_plain;
EXPLAIN (COSTS OFF)
SELECT count(*) FROM metrics_plain
WHERE id >= '2025-02-01 00:00:00+00'::timestamptz AND id < '2025-03-01 00:00:00+00'::timestamptz;
SELECT count(*) FROM metrics_plain
WHERE id >= '2025-02-01 00:00:00+00'::timestamptz AND id < '2025-03-01 00:00:00+00'::timestamptz;
DROP TABLE metrics_plain;

-- RANGE window frames by time over ORDER BY id: the same sums as over a
-- timestamp column (one row every 86.4 seconds, so no two share a millisecond)
CREATE TEMP TABLE frames AS
SELECT id, uuidv7_timestamp(id) AS ts, v FROM readings WHERE id < '2025-01-08'::timestamptz;
SELECT count(*) AS rows,
	count(*) FILTER (WHERE by_id_back <> by_ts_back) AS preceding_mismatches,
	count(*) FILTER (WHERE by_id_ahead <> by_ts_ahead) AS following_mismatches
FROM (SELECT sum(v) OVER (ORDER BY id RANGE BETWEEN interval '1 hour' PRECEDING AND CURRENT ROW) AS by_id_back,
			 sum(v) OVER (ORDER BY ts RANGE BETWEEN interval '1 hour' PRECEDING AND CURRENT ROW) AS by_ts_back,
			 sum(v) OVER (ORDER BY id RANGE BETWEEN interval '10 minutes' FOLLOWING AND interval '1 day' FOLLOWING) AS by_id_ahead,
			 sum(v) OVER (ORDER BY ts RANGE BETWEEN interval '10 minutes' FOLLOWING AND interval '1 day' FOLLOWING) AS by_ts_ahead
	  FROM frames) s;
SELECT ts, v, sum(v) OVER (ORDER BY id RANGE BETWEEN interval '5 minutes' PRECEDING AND CURRENT ROW)
FROM frames ORDER BY id LIMIT 5;
SELECT sum(v) OVER (ORDER BY id RANGE BETWEEN interval '-1 hour' PRECEDING AND CURRENT ROW) FROM frames;
\echo :LAST_ERROR_SQLSTATE
SELECT sum(x) OVER (ORDER BY id RANGE BETWEEN interval '1 hour' PRECEDING AND CURRENT ROW)
FROM (VALUES (uuidv7_min('2025-01-01'), 1), ('017f22e2-79b0-4cc3-98c4-dc0c0c07398f'::uuid, 2)) AS v(id, x);
\echo :LAST_ERROR_SQLSTATE

-- BRIN on a uuid7 column of two million time-ordered rows: tiny next to the
-- btree, and a one-hour range reads only the block ranges that hold it
CREATE TABLE events (id uuid7 NOT NULL, v int);
INSERT INTO events
SELECT uuidv7_generate_at('2025-01-01 00:00:00+00'::timestamptz + g * interval '1 second'), g
FROM generate_series(0, 1999999) g;
CREATE INDEX events_brin ON events USING brin (id);
CREATE INDEX events_btree ON events (id);
VACUUM ANALYZE events;
SELECT pg_relation_size('events_brin') * 100 < pg_relation_size('events_btree') AS brin_under_1_percent_of_btree;
DROP INDEX events_btree;
EXPLAIN (COSTS OFF)
SELECT count(*) FROM events WHERE id >= '2025-01-10 12:00:00+00'::timestamptz AND id < '2025-01-10 13:00:00+00'::timestamptz;
CREATE FUNCTION pg_temp.heap_blocks(q text)
RETURNS TABLE (rows bigint, heap_blocks_read bigint, table_blocks bigint)
LANGUAGE plpgsql AS $$
DECLARE
	plan json;
BEGIN
	EXECUTE 'EXPLAIN (ANALYZE, FORMAT JSON, TIMING OFF) ' || q INTO plan;
	plan := plan -> 0 -> 'Plan';
	-- (PostgreSQL 18 prints row counts with two decimals)
	rows := (plan ->> 'Actual Rows')::numeric;
	heap_blocks_read := (plan ->> 'Exact Heap Blocks')::bigint + (plan ->> 'Lossy Heap Blocks')::bigint;
	table_blocks := pg_relation_size('events') / current_setting('block_size')::int;
	RETURN NEXT;
END
$$;
-- 3600 rows of about 157 a block lie in 23 blocks; BRIN reads the whole
-- 128-block ranges that hold them, here 2 of the table's 100
SELECT * FROM pg_temp.heap_blocks($$SELECT v FROM events
	WHERE id >= '2025-01-10 12:00:00+00'::timestamptz AND id < '2025-01-10 13:00:00+00'::timestamptz$$);
DROP TABLE events;

-- after pg_upgrade the operators remain but their family members do not
-- (test/t/006_pgupgrade.pl does it for real); here the loss is simulated
ALTER OPERATOR FAMILY uuid_ops USING btree DROP OPERATOR 1 (uuid, timestamptz), OPERATOR 4 (uuid, timestamptz);
SELECT member FROM uuidv7_time_ops_status() WHERE NOT present;
EXPLAIN (COSTS OFF)
SELECT count(*) FROM readings
WHERE id >= '2025-02-01 00:00:00+00'::timestamptz AND id < '2025-02-02 00:00:00+00'::timestamptz;
SELECT * FROM uuidv7_time_ops_repair();
SELECT count(*) FILTER (WHERE present) AS present, count(*) FILTER (WHERE NOT present) AS missing
FROM uuidv7_time_ops_status() WHERE family <> 'uuid_minmax_multi_ops';
EXPLAIN (COSTS OFF)
SELECT count(*) FROM readings
WHERE id >= '2025-02-01 00:00:00+00'::timestamptz AND id < '2025-02-02 00:00:00+00'::timestamptz;
SELECT * FROM uuidv7_time_ops_repair();
DROP TABLE readings;

-- explicit casts both ways: a time is the smallest UUIDv7 at or after it,
-- a uuid the time it holds (NULL if it is not version 7); never implicit or
-- in assignment, so nothing that did not cast before changes meaning
SELECT '2025-01-01 00:00:00+00'::timestamptz::uuid AS time_to_uuid,
	'2025-01-01 00:00:00.0005+00'::timestamptz::uuid = uuidv7_min('2025-01-01 00:00:00.0005+00') AS as_uuidv7_min,
	'01941f29-7c00-7abc-8def-0123456789ab'::uuid::timestamptz AS uuid_to_time,
	'67fc5276-43ef-426d-85aa-22ba6a58dd72'::uuid::timestamptz AS v4_time,
	CAST(CAST(timestamptz '2025-06-01 00:00:00+00' AS uuid) AS timestamptz) AS round_trip;
SELECT castsource::regtype, casttarget::regtype, castcontext, castfunc::regproc FROM pg_cast
WHERE (castsource, casttarget) IN (('timestamptz'::regtype, 'uuid'::regtype), ('uuid'::regtype, 'timestamptz'::regtype))
ORDER BY castsource::regtype::text COLLATE "C";
CREATE TEMP TABLE cast_target (u uuid, t timestamptz);
INSERT INTO cast_target (u) VALUES (now());
\echo :LAST_ERROR_SQLSTATE
INSERT INTO cast_target (t) VALUES (uuidv7_generate());
\echo :LAST_ERROR_SQLSTATE
SELECT '1969-12-31 23:59:59+00'::timestamptz::uuid;
\echo :LAST_ERROR_SQLSTATE

-- uuidv7_doctor finds members that pg_upgrade would drop, and the repair
-- puts them back
ALTER OPERATOR FAMILY uuid_ops USING btree DROP OPERATOR 4 (uuid, timestamptz);
SELECT severity, object, fix FROM uuidv7_doctor();
SELECT count(*) AS repaired FROM uuidv7_time_ops_repair();
SELECT count(*) AS findings FROM uuidv7_doctor();

-- uuidv7's SQL operators answer exactly as this extension's: against its
-- btree comparison support, for keys and instants at every edge and at random
SELECT setseed(0.3) IS NULL AS seeded;
SELECT count(*) AS pairs,
	count(*) FILTER (WHERE (id OPERATOR(public.<) t) <> (uuidv7_cmp_timestamptz(id, t) < 0)
						   OR (id OPERATOR(public.<=) t) <> (uuidv7_cmp_timestamptz(id, t) <= 0)
						   OR (id OPERATOR(public.>=) t) <> (uuidv7_cmp_timestamptz(id, t) >= 0)
						   OR (id OPERATOR(public.>) t) <> (uuidv7_cmp_timestamptz(id, t) > 0)
						   OR (t OPERATOR(public.<) id) <> (timestamptz_cmp_uuidv7(t, id) < 0)
						   OR (t OPERATOR(public.<=) id) <> (timestamptz_cmp_uuidv7(t, id) <= 0)
						   OR (t OPERATOR(public.>=) id) <> (timestamptz_cmp_uuidv7(t, id) >= 0)
						   OR (t OPERATOR(public.>) id) <> (timestamptz_cmp_uuidv7(t, id) > 0)) AS disagreements
FROM (SELECT uuidv7_generate_at('2025-01-01 00:00+00'::timestamptz + (random() * 1000)::int * interval '1 ms') AS id
	  FROM generate_series(1, 100)
	  UNION ALL SELECT uuidv7_min('2025-01-01 00:00+00'::timestamptz + g * interval '1 ms') FROM generate_series(0, 200) g
	  UNION ALL SELECT unnest(ARRAY['00000000-0000-0000-0000-000000000000', '00000000-0000-7000-8000-000000000000',
									'00000000-0000-6fff-ffff-ffffffffffff', '01941f29-7c00-4abc-9def-0123456789ab',
									'ffffffff-ffff-7000-8000-000000000000', 'ffffffff-ffff-7fff-bfff-ffffffffffff',
									'ffffffff-ffff-ffff-ffff-ffffffffffff']::uuid[])) k,
	(SELECT '2025-01-01 00:00+00'::timestamptz + (random() * 1000000)::int * interval '1 us' AS t
	 FROM generate_series(1, 40)
	 UNION ALL SELECT '2025-01-01 00:00+00'::timestamptz + g * interval '250 us' FROM generate_series(0, 20) g
	 UNION ALL SELECT unnest(ARRAY['-infinity', '1969-12-31 23:59:59.999999+00', '1970-01-01 00:00:00+00',
								   '1970-01-01 00:00:00.000001+00', '10889-08-02 05:31:50.654999+00',
								   '10889-08-02 05:31:50.655+00', '10889-08-02 05:31:50.655001+00',
								   'infinity']::timestamptz[])) i;

-- removal leaves PostgreSQL's families exactly as they were, and uuidv7's
-- own operators in public
DROP EXTENSION uuidv7_time_ops;
SELECT (SELECT count(*) FROM ((TABLE core_amop EXCEPT
			SELECT amopfamily, amoplefttype, amoprighttype, amopstrategy, amopopr, amopmethod FROM pg_amop)
		UNION ALL (SELECT amopfamily, amoplefttype, amoprighttype, amopstrategy, amopopr, amopmethod FROM pg_amop
			EXCEPT TABLE core_amop)) d) AS amop_differences,
	(SELECT count(*) FROM ((TABLE core_amproc EXCEPT
			SELECT amprocfamily, amproclefttype, amprocrighttype, amprocnum, amproc FROM pg_amproc)
		UNION ALL (SELECT amprocfamily, amproclefttype, amprocrighttype, amprocnum, amproc FROM pg_amproc
			EXCEPT TABLE core_amproc)) d) AS amproc_differences;
SELECT to_regnamespace('uuidv7_time_ops') IS NULL AS schema_gone, count(*) AS operators_left,
	bool_and(oprnamespace = 'public'::regnamespace) AS all_uuidv7s FROM pg_operator
WHERE (oprleft, oprright) IN (('uuid'::regtype, 'timestamptz'::regtype), ('timestamptz'::regtype, 'uuid'::regtype));
RESET search_path;
SELECT count(*) AS casts_left FROM pg_cast
WHERE (castsource, casttarget) IN (('timestamptz'::regtype, 'uuid'::regtype), ('uuid'::regtype, 'timestamptz'::regtype));
