-- time_predicates: the C edition's time comparisons as the planner sees
-- them.  Their support function turns each into comparisons of uuids (the
-- same answers as the functions give when called), and a lower bound
-- relative to now() gets a constant one that prunes partitions at plan
-- time: also in a plan kept and run again in later transactions, after a
-- change of TimeZone, for intervals of any sign, and under row-level
-- security as a role that is not the table's owner.

-- the settings its output depends on, whatever the server's: the planner's,
-- parallelism, JIT and the client's at their built-in defaults
SELECT count(set_config(name, boot_val, false)) > 0 AS settings_pinned FROM pg_settings
WHERE name ~ '^enable_' OR name IN ('client_min_messages', 'extra_float_digits', 'jit',
	'max_parallel_workers_per_gather', 'plan_cache_mode', 'default_statistics_target', 'effective_cache_size',
	'random_page_cost', 'seq_page_cost', 'cpu_tuple_cost', 'cpu_index_tuple_cost', 'cpu_operator_cost',
	'parallel_setup_cost', 'parallel_tuple_cost', 'min_parallel_table_scan_size', 'min_parallel_index_scan_size');
\set SHOW_CONTEXT never
SET client_min_messages = warning;
SET TimeZone = 'UTC';
SET DateStyle = 'ISO';
SET IntervalStyle = 'postgres';
-- (random keys and instants, the same on every run)
SELECT setseed(0.35);
-- (the library loaded, so that its planner hook serves the bounds form in
-- this session: shared_preload_libraries does it for every session)
SELECT uuidv7_min(now()) IS NOT NULL AS loaded;

-- the planner support, with the comments of every object
SELECT p.oid::regprocedure AS function, p.proleakproof AS leakproof, p.prosupport::regproc AS support,
	obj_description(p.oid, 'pg_proc') IS NOT NULL AS commented
FROM pg_proc p
WHERE p.proname IN ('uuidv7_time_lt', 'uuidv7_time_le', 'uuidv7_time_ge', 'uuidv7_time_gt', 'uuidv7_time_support',
					'uuidv7_first_not_before', 'uuidv7_last_before', 'uuidv7_last_not_after')
ORDER BY p.oid::regprocedure::text COLLATE "C";

-- 1. The same answers three ways: rewritten with the instant a constant,
-- rewritten with the instant a column (the expression form, as for a
-- parameter), and not rewritten at all (a volatile instant: the C function
-- answers).  Keys and instants at the edges and at random around them.
CREATE TABLE keys (id uuid);
INSERT INTO keys VALUES (NULL), ('00000000-0000-0000-0000-000000000000'), ('00000000-0000-7000-8000-000000000000'),
	('01941f29-7c00-7000-8000-000000000000'), ('01941f29-7c00-6fff-ffff-ffffffffffff'),
	('01941f29-7c00-7000-7fff-ffffffffffff'), ('01941f29-7c00-7abc-9def-0123456789ab'),
	('01941f29-7c01-7000-8000-000000000000'), ('01941f29-7c00-4abc-9def-0123456789ab'),
	('ffffffff-ffff-7000-8000-000000000000'), ('ffffffff-ffff-ffff-ffff-ffffffffffff');
INSERT INTO keys SELECT uuidv7_generate_at('2025-01-01 00:00+00'::timestamptz + (random() * 4000 - 2000)::int * interval '1 us')
FROM generate_series(1, 40);
CREATE TABLE instants (t timestamptz);
INSERT INTO instants VALUES (NULL), ('-infinity'), ('1969-12-31 23:59:59.999999+00'), ('1970-01-01 00:00:00+00'),
	('1970-01-01 00:00:00.000001+00'), ('2025-01-01 00:00:00+00'), ('2025-01-01 00:00:00.0005+00'),
	('2025-01-01 00:00:00.001+00'), ('2024-12-31 23:59:59.999999+00'), ('10889-08-02 05:31:50.654999+00'),
	('10889-08-02 05:31:50.655+00'), ('10889-08-02 05:31:50.655001+00'), ('10889-08-02 05:31:50.656+00'),
	('infinity');
INSERT INTO instants SELECT '2025-01-01 00:00+00'::timestamptz + (random() * 4000 - 2000)::int * interval '1 us'
FROM generate_series(1, 20);
CREATE FUNCTION public.regress_volatile(t timestamptz) RETURNS timestamptz LANGUAGE plpgsql VOLATILE
AS 'BEGIN RETURN t; END';

-- (the eight comparisons of one pair, written with the instant as given)
CREATE FUNCTION pg_temp.eight(instant text) RETURNS text LANGUAGE sql AS $$
SELECT format($q$concat_ws(' ', coalesce((id < %1$s)::text, '-'), coalesce((id <= %1$s)::text, '-'),
	coalesce((id >= %1$s)::text, '-'), coalesce((id > %1$s)::text, '-'), coalesce((%1$s < id)::text, '-'),
	coalesce((%1$s <= id)::text, '-'), coalesce((%1$s >= id)::text, '-'), coalesce((%1$s > id)::text, '-'))$q$,
	instant)
$$;
CREATE FUNCTION pg_temp.by_constants() RETURNS TABLE (id uuid, t timestamptz, answers text) LANGUAGE plpgsql AS $$
DECLARE
	instant timestamptz;
BEGIN
	FOR instant IN SELECT i.t FROM instants i LOOP
		RETURN QUERY EXECUTE format('SELECT id, %L::timestamptz, %s FROM keys', instant,
									pg_temp.eight(format('%L::timestamptz', instant)));
	END LOOP;
END
$$;
CREATE FUNCTION pg_temp.by_columns() RETURNS TABLE (id uuid, t timestamptz, answers text) LANGUAGE plpgsql AS $$
BEGIN
	RETURN QUERY EXECUTE format('SELECT id, t, %s FROM keys, instants', pg_temp.eight('t'));
END
$$;
CREATE FUNCTION pg_temp.by_calls() RETURNS TABLE (id uuid, t timestamptz, answers text) LANGUAGE plpgsql AS $$
BEGIN
	RETURN QUERY EXECUTE format('SELECT id, t, %s FROM keys, instants', pg_temp.eight('public.regress_volatile(t)'));
END
$$;
-- (the three ways are planned as said: uuid comparisons with a constant,
-- with the bounds of a column, and the call itself)
EXPLAIN (VERBOSE, COSTS OFF) SELECT id >= '2025-01-01 00:00:00.0005+00'::timestamptz, id > '2025-01-01 00:00+00'::timestamptz FROM keys;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id >= t, t > id FROM keys, instants;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id >= public.regress_volatile(t) FROM keys, instants;
SELECT count(*) AS pairs,
	count(*) FILTER (WHERE c.answers IS DISTINCT FROM v.answers) AS constants_differ,
	count(*) FILTER (WHERE p.answers IS DISTINCT FROM v.answers) AS columns_differ
FROM pg_temp.by_calls() v
	JOIN pg_temp.by_constants() c ON c.id IS NOT DISTINCT FROM v.id AND c.t IS NOT DISTINCT FROM v.t
	JOIN pg_temp.by_columns() p ON p.id IS NOT DISTINCT FROM v.id AND p.t IS NOT DISTINCT FROM v.t;
-- and each answer is the time's where the key is a UUIDv7
SELECT count(*) FILTER (WHERE (id >= t) IS DISTINCT FROM (uuidv7_timestamp(id) >= t)
						   OR (id < t) IS DISTINCT FROM (uuidv7_timestamp(id) < t)) AS not_by_time
FROM keys, instants WHERE uuidv7_timestamp(id) IS NOT NULL AND t IS NOT NULL;

-- 2. Plan-time pruning of lower bounds relative to now(), on a table of
-- daily partitions around today (whatever day the suite runs)
CREATE TABLE recent (id uuid7 PRIMARY KEY, v int) PARTITION BY RANGE (id);
SELECT count(*) AS partitions FROM uuidv7_create_partitions('recent', now() - interval '40 days', now() + interval '3 days',
															  '1 day', 'UTC');
INSERT INTO recent SELECT uuidv7_generate_at(now() - interval '40 days' + g * interval '10 minutes'), g
FROM generate_series(0, 42 * 144) g;
ANALYZE recent;

-- (of a query's plan: the partitions it was planned with, those left after
-- pruning at executor start (what EXPLAIN shows), whether every scan uses
-- the key's index, and whether the partitions planned, and those left, are
-- exactly those the bound keeps)
CREATE FUNCTION pg_temp.pruning(query text, bound uuid, OUT at_plan_time int, OUT at_start int,
								 OUT every_scan_by_key bool, OUT plan_time_exact bool, OUT start_exact bool)
LANGUAGE plpgsql AS $$
DECLARE
	line text;
	by_key int := 0;
	kept int := (SELECT count(*) FROM uuidv7_partitions('recent') WHERE upper_bound > bound);
BEGIN
	at_plan_time := 0;
	at_start := 0;
	FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || query LOOP
		IF line ~ 'Scan.* on recent_' THEN
			at_start := at_start + 1;
			by_key := by_key + (line ~ 'Index.*recent_\S*_pkey')::int;
		ELSIF line ~ 'Subplans Removed' THEN
			at_plan_time := substring(line FROM '\d+')::int;
		END IF;
	END LOOP;
	at_plan_time := at_plan_time + at_start;
	every_scan_by_key := at_start = by_key;
	plan_time_exact := at_plan_time = kept;
	start_exact := at_start = kept;
END
$$;
-- (index scans wherever they serve, so that each partition shows which)
SET enable_seqscan = off;
SET enable_bitmapscan = off;

-- "the last hour", each way of writing it: the partitions from the one of
-- an hour ago on, at plan time, and none left to prune at executor start
SELECT form, p.every_scan_by_key, p.plan_time_exact, p.start_exact
FROM (VALUES ('id >= now() - interval ''1 hour'''),
			 ('id > now() - interval ''1 hour'''),
			 ('now() - interval ''1 hour'' <= id'),
			 ('now() - interval ''1 hour'' < id'),
			 ('id >= current_timestamp - interval ''60 minutes'''),
			 ('id >= transaction_timestamp() + interval ''-3600 seconds'''),
			 ('id >= interval ''-1 hour'' + now()'),
			 ('id >= now() - interval ''30 minutes'' - interval ''30 minutes'''),
			 ('id >= uuidv7_min(now() - interval ''1 hour'')'),
			 ('uuidv7_min(now() - interval ''1 hour'') <= id'),
			 ('id > uuidv7_min(now() - interval ''1 hour'')'),
			 ('id >= uuidv7_first_not_before(now() - interval ''1 hour'')'),
			 ('id >= now() - interval ''1 hour'' AND id < now() + interval ''1 day''')) AS f(form),
	pg_temp.pruning('SELECT count(*) FROM recent WHERE ' || form, uuidv7_min(now() - interval '1 hour')) AS p
ORDER BY form COLLATE "C";
-- the plan of each form: the condition as written, and the constant (whose
-- value depends on the day the suite runs)
CREATE FUNCTION pg_temp.plan_lines(query text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
	line text;
BEGIN
	FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || query LOOP
		RETURN NEXT line;
	END LOOP;
END
$$;
CREATE FUNCTION pg_temp.first_scan(query text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
	line text;
	seen bool := false;
BEGIN
	FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || query LOOP
		CONTINUE WHEN seen AND line ~ 'Scan|Cond|Filter';
		IF line ~ 'Index Cond' THEN
			seen := true;
		END IF;
		RETURN NEXT regexp_replace(regexp_replace(btrim(line), '''[0-9a-f-]{36}''::uuid', '<constant>', 'g'),
								   'recent_p\d{4}_\d\d_\d\d', 'recent_p<day>', 'g');
	END LOOP;
END
$$;
SELECT * FROM pg_temp.first_scan('SELECT count(*) FROM recent WHERE id >= now() - interval ''1 hour''');
SELECT * FROM pg_temp.first_scan('SELECT count(*) FROM recent WHERE id >= uuidv7_min(now() - interval ''1 hour'')');
-- the constant is the smallest UUIDv7 of the hour's start, as of now()
CREATE FUNCTION pg_temp.constants(query text) RETURNS SETOF uuid LANGUAGE sql AS $$
SELECT DISTINCT m[1]::uuid FROM pg_temp.plan_lines(query) AS p, regexp_matches(p, '''([0-9a-f-]{36})''::uuid', 'g') AS m
$$;
SELECT array_agg(c) = ARRAY[uuidv7_min(now() - interval '1 hour')] AS constant_is_the_bound
FROM pg_temp.constants('SELECT count(*) FROM recent WHERE id > now() - interval ''1 hour''') AS c;

-- with days or months, the constant keeps the margin any later run's time
-- zone may need (at most 14 days, plus the shortest month): still far from
-- every partition, and the rest pruned at executor start
SELECT form, p.at_plan_time < 43 AS pruned_at_plan_time,
	p.at_plan_time - (SELECT count(*) FROM uuidv7_partitions('recent') WHERE upper_bound > b.bound) BETWEEN 1 AND 18 AS within_margin,
	p.start_exact
FROM (VALUES ('id >= now() - interval ''1 day''', now() - interval '1 day'),
			 ('id >= now() - interval ''1 day 2 hours''', now() - interval '1 day 2 hours'),
			 ('id >= now() - interval ''7 days''', now() - interval '7 days'),
			 ('id >= now() + interval ''1 day''', now() + interval '1 day'),
			 ('id >= uuidv7_min(now() - interval ''3 days'')', now() - interval '3 days')) AS f(form, t),
	LATERAL (SELECT uuidv7_min(t) AS bound) b,
	LATERAL pg_temp.pruning('SELECT count(*) FROM recent WHERE ' || form, b.bound) AS p
ORDER BY form COLLATE "C";

-- left alone: upper bounds, volatile times, and intervals that are not
-- constants (every partition planned, pruned at executor start)
SELECT form, p.at_plan_time, p.at_start < p.at_plan_time AS pruned_at_start
FROM (VALUES ('id < now() - interval ''39 days'''),
			 ('id <= uuidv7_max(now() - interval ''39 days'')'),
			 ('id >= clock_timestamp() - interval ''1 hour'''),
			 ('id >= now() - (SELECT interval ''1 hour'')'),
			 ('id >= now() - make_interval(hours => v)')) AS f(form),
	LATERAL pg_temp.pruning('SELECT count(*) FROM recent WHERE ' || form, NULL) AS p
ORDER BY form COLLATE "C";

-- 3. The same rows as the time of each key gives (uuidv7_timestamp(id),
-- which neither the support function nor the planner hook touches), over a
-- grid of intervals of either sign and of every unit, each form as a fresh
-- plan and as a generic plan made in an earlier transaction
CREATE FUNCTION pg_temp.grid_differences() RETURNS TABLE (queries int, differing int) LANGUAGE plpgsql AS $$
DECLARE
	span text;
	form text[];
	answer bigint;
	expected bigint;
BEGIN
	queries := 0;
	differing := 0;
	FOR span IN SELECT s FROM unnest(ARRAY['1 hour', '-1 hour', '90 minutes', '2 days', '-2 days', '1 day 7 hours',
										   '13 days -5 hours', '1 mon', '-1 mon', '1 mon -20 days', '39 days 23 hours',
										   '41 days', '0', '00:00:00.000001']) AS s LOOP
		FOREACH form SLICE 1 IN ARRAY ARRAY[
			['id >= now() - interval %L', 'uuidv7_timestamp(id) >= now() - interval %L'],
			['id > now() - interval %L', 'uuidv7_timestamp(id) >= now() - interval %L'],
			['now() - interval %L <= id', 'uuidv7_timestamp(id) >= now() - interval %L'],
			['id >= uuidv7_min(now() - interval %L)', 'uuidv7_timestamp(id) >= now() - interval %L'],
			['id >= now() - interval %1$L AND id < now() - interval %1$L + interval ''5 hours''',
			 'uuidv7_timestamp(id) >= now() - interval %1$L AND uuidv7_timestamp(id) < now() - interval %1$L + interval ''5 hours'''],
			['id >= current_timestamp + interval %L', 'uuidv7_timestamp(id) >= current_timestamp + interval %L']] LOOP
			EXECUTE format('SELECT count(*) FROM recent WHERE ' || form[1], span) INTO answer;
			EXECUTE format('SELECT count(*) FROM recent WHERE ' || form[2], span) INTO expected;
			queries := queries + 1;
			differing := differing + (answer <> expected)::int;
		END LOOP;
	END LOOP;
	RETURN NEXT;
END
$$;
SELECT * FROM pg_temp.grid_differences();

-- 4. A plan kept and run again in later transactions sees what they add:
-- rows of the next hour, and of the next days' partitions
SET plan_cache_mode = force_generic_plan;
PREPARE last_hour AS SELECT count(*) FROM recent WHERE id >= now() - interval '1 hour';
PREPARE last_hour_bounds AS SELECT count(*) FROM recent WHERE id >= uuidv7_min(now() - interval '1 hour');
SELECT now() AS first_now \gset
EXECUTE last_hour \gset first_
EXECUTE last_hour_bounds \gset first_bounds_
INSERT INTO recent SELECT uuidv7_generate_at(now() + g * interval '20 minutes'), -g FROM generate_series(1, 7) g;
INSERT INTO recent SELECT uuidv7_generate_at(now() + interval '2 days' + g * interval '1 minute'), -g FROM generate_series(1, 5) g;
-- (rows of two hours ago, which the range leaves out)
INSERT INTO recent SELECT uuidv7_generate_at(now() - interval '2 hours' + g * interval '1 second'), -g FROM generate_series(1, 3) g;
EXECUTE last_hour \gset later_
EXECUTE last_hour_bounds \gset later_bounds_
SELECT now() > :'first_now'::timestamptz AS later_transaction,
	:later_count - :first_count AS rows_seen, :later_bounds_count - :first_bounds_count AS rows_seen_by_bounds_form;
-- the plan kept is the generic one with its constant
SELECT * FROM pg_temp.first_scan('EXECUTE last_hour');

-- 5. A change of TimeZone between two runs of one plan: days and months
-- are counted on the session's clock, which moves the instant, and the
-- constant allows for it.  In this zone (standard time 100 hours behind
-- UTC, summer time 100 hours ahead) a span that crosses a change of the
-- clock ends 200 hours off where UTC puts its end.
CREATE TABLE older (id uuid7 PRIMARY KEY) PARTITION BY RANGE (id);
SELECT count(*) > 30 AS partitions FROM uuidv7_create_partitions('older', now() - interval '240 days', now() + interval '7 days', '7 days', 'UTC');
INSERT INTO older SELECT uuidv7_generate_at(now() - interval '240 days' + g * interval '3 hours') FROM generate_series(0, 240 * 8) g;
ANALYZE older;
CREATE FUNCTION pg_temp.older_runs(zone text, OUT half_year bool, OUT days_back bool, OUT bounds_form bool)
LANGUAGE plpgsql AS $$
DECLARE
	answer bigint;
BEGIN
	PERFORM set_config('TimeZone', zone, true);
	EXECUTE 'EXECUTE half_year' INTO answer;
	half_year := answer = (SELECT count(*) FROM older WHERE uuidv7_timestamp(id) >= now() - interval '6 months');
	EXECUTE 'EXECUTE days_back' INTO answer;
	days_back := answer = (SELECT count(*) FROM older WHERE uuidv7_timestamp(id) >= now() - interval '190 days');
	EXECUTE 'EXECUTE bounds_form' INTO answer;
	bounds_form := answer = (SELECT count(*) FROM older WHERE uuidv7_timestamp(id) >= now() - interval '190 days');
END
$$;
PREPARE half_year AS SELECT count(*) FROM older WHERE id >= now() - interval '6 months';
PREPARE days_back AS SELECT count(*) FROM older WHERE id > now() - interval '190 days';
PREPARE bounds_form AS SELECT count(*) FROM older WHERE id >= uuidv7_min(now() - interval '190 days');
-- planned in UTC, run there, then in that zone, in later transactions
SELECT 'UTC' AS zone, * FROM pg_temp.older_runs('UTC');
SELECT 'AAA+100BBB-100' AS zone, * FROM pg_temp.older_runs('AAA+100BBB-100,M3.2.0,M11.1.0');
-- planned in that zone, run in UTC
DEALLOCATE ALL;
SET TimeZone = 'AAA+100BBB-100,M3.2.0,M11.1.0';
PREPARE half_year AS SELECT count(*) FROM older WHERE id >= now() - interval '6 months';
PREPARE days_back AS SELECT count(*) FROM older WHERE id > now() - interval '190 days';
PREPARE bounds_form AS SELECT count(*) FROM older WHERE id >= uuidv7_min(now() - interval '190 days');
SELECT 'AAA+100BBB-100' AS zone, * FROM pg_temp.older_runs('AAA+100BBB-100,M3.2.0,M11.1.0');
SELECT 'UTC' AS zone, * FROM pg_temp.older_runs('UTC');
SET TimeZone = 'UTC';
SET plan_cache_mode = auto;
DEALLOCATE ALL;

-- 7. What the constant must not reach, and what must be evaluated once
-- (a) CHECK constraints relative to now(): PostgreSQL would take a constant
-- there for a fact about every row (ATTACH would skip its scan, constraint
-- exclusion would drop rows); the exact rewrite keeps them mutable
CREATE TABLE staged (id uuid NOT NULL, v int, CHECK (id >= now() - interval '1 hour'));
INSERT INTO staged VALUES (uuidv7_min(now() - interval '1 hour'), 1);
CREATE TABLE later_parent (id uuid NOT NULL, v int) PARTITION BY RANGE (id);
SELECT pg_sleep(0.01);
SELECT uuidv7_min(now() - interval '1 hour') AS later_lower \gset
-- (error: the row is below the partition's bound)
ALTER TABLE later_parent ATTACH PARTITION staged FOR VALUES FROM (:'later_lower') TO (MAXVALUE);
DROP TABLE later_parent, staged;
CREATE TABLE listed (id uuid, v int, CHECK (id >= now() - interval '1 hour')) PARTITION BY LIST (v);
CREATE TABLE listed_1 PARTITION OF listed FOR VALUES IN (1);
INSERT INTO listed VALUES (uuidv7_min(now() - interval '1 hour'), 1);
SELECT pg_sleep(0.01);
SELECT id AS listed_id FROM listed \gset
SET constraint_exclusion = on;
SELECT count(*) AS found_by_key FROM listed WHERE id = :'listed_id';
RESET constraint_exclusion;
DROP TABLE listed;
-- (b) a time or a key with a subquery is evaluated once
SELECT q.form, count(*) FILTER (WHERE p ~ '^\s*InitPlan') AS subqueries_planned,
	count(*) FILTER (WHERE p ~ 'uuidv7_(first_not_before|last_before)') AS conditions_with_a_bound
FROM (VALUES ('id >= (SELECT max(t) FROM instants WHERE t < ''infinity'')', 'SELECT count(*) FROM keys WHERE '),
			 ('(SELECT max(id) FROM keys) >= now() - interval ''1 hour''', 'SELECT count(*) FROM instants WHERE t IS NULL AND ')) AS q(form, query),
	LATERAL pg_temp.plan_lines(q.query || q.form) AS p
GROUP BY q.form ORDER BY q.form COLLATE "C";
-- (c) a comparison that raises an error raises it still: no constant that
-- would leave no partition to scan (a timestamp out of range in a step, an
-- instant uuidv7_min() refuses)
SELECT count(*) FROM recent WHERE id >= uuidv7_min(now() + interval '8880 years');
SELECT count(*) FROM recent WHERE id >= now() + interval '300000 years' - interval '268000 years';
-- (d) the support function serves its own functions only: put on another
-- function, it leaves it alone
CREATE FUNCTION public.uuidv7_time_ge(a int8, b int8) RETURNS bool LANGUAGE sql IMMUTABLE AS 'SELECT a >= b';
ALTER FUNCTION public.uuidv7_time_ge(int8, int8) SUPPORT uuidv7_internal.uuidv7_time_support;
SELECT g, public.uuidv7_time_ge(g, 2) FROM generate_series(1, 3) g ORDER BY g;
DROP FUNCTION public.uuidv7_time_ge(int8, int8);
-- (e) an interval of months and days, counted in two conversions, in the
-- zone of 5 and in one whose offsets are the largest PostgreSQL takes
CREATE FUNCTION pg_temp.mixed_differences(zone text) RETURNS TABLE (queries int, differing int) LANGUAGE plpgsql AS $$
DECLARE
	span text;
	answer bigint;
	expected bigint;
BEGIN
	PERFORM set_config('TimeZone', zone, true);
	queries := 0;
	differing := 0;
	FOR span IN SELECT s FROM unnest(ARRAY['1 mon 10 days', '2 mons 20 days', '1 mon -25 days', '-1 mon 25 days',
										   '-1 mon -10 days', '1 year 1 day', '6 mons', '200 days']) AS s LOOP
		EXECUTE format('SELECT count(*) FROM older WHERE id >= now() - interval %L', span) INTO answer;
		EXECUTE format('SELECT count(*) FROM older WHERE uuidv7_timestamp(id) >= now() - interval %L', span) INTO expected;
		queries := queries + 1;
		differing := differing + (answer <> expected)::int;
		EXECUTE format('SELECT count(*) FROM older WHERE id >= now() + interval %L - interval ''200 days''', span) INTO answer;
		EXECUTE format('SELECT count(*) FROM older WHERE uuidv7_timestamp(id) >= now() + interval %L - interval ''200 days''', span) INTO expected;
		queries := queries + 1;
		differing := differing + (answer <> expected)::int;
	END LOOP;
	RETURN NEXT;
END
$$;
SELECT * FROM pg_temp.mixed_differences('AAA+100BBB-100,M3.2.0,M11.1.0');
SELECT * FROM pg_temp.mixed_differences('AAA+167BBB-167,J339,J95');
SELECT * FROM pg_temp.mixed_differences('Pacific/Apia');

-- and a zone where the two conversions of "1 mon 10 days" ahead each move
-- the instant by most of a margin (found for the day the suite runs)
CREATE TABLE ahead (id uuid);
INSERT INTO ahead SELECT uuidv7_generate_at(now() + g * interval '1 hour') FROM generate_series(0, 50 * 24) g;
-- (a zone in which the span ahead of now lasts least: its daylight saving
-- time, 334 hours ahead of its standard time, begins within it; the days
-- from today on are tried first, where such zones are found)
CREATE FUNCTION pg_temp.far_zone(span interval) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	today int := extract(doy FROM now())::int;
	st int;
	zone text;
BEGIN
	FOR len IN 30..330 BY 30 LOOP
		FOR k IN 0..364 LOOP
			st := (today + k - 1) % 365 + 1;
			zone := format('AAA+167BBB-167,J%s,J%s', st, (st + len - 1) % 365 + 1);
			PERFORM set_config('TimeZone', zone, true);
			IF extract(epoch FROM (now() + span) - now()) < 38 * 86400 - 336 * 3600 THEN
				RETURN zone;
			END IF;
		END LOOP;
	END LOOP;
	RETURN 'UTC';
END
$$;
SELECT pg_temp.far_zone('1 mon 10 days') AS far_zone \gset
SET TimeZone = :'far_zone';
SELECT current_setting('TimeZone') <> 'UTC' AS zone_found,
	(SELECT count(*) FROM ahead WHERE id >= now() + interval '1 mon 10 days')
	= (SELECT count(*) FROM ahead WHERE uuidv7_timestamp(id) >= now() + interval '1 mon 10 days') AS exact,
	(SELECT count(*) FROM ahead WHERE id >= uuidv7_min(now() + interval '1 mon 10 days'))
	= (SELECT count(*) FROM ahead WHERE uuidv7_timestamp(id) >= now() + interval '1 mon 10 days') AS bounds_form_exact;
SET TimeZone = 'UTC';
DROP TABLE ahead;

-- 6. Under row-level security, as a role that is neither superuser nor
-- owner: the same plan-time pruning and the key's index ahead of the policy
CREATE ROLE regress_time_predicates_reader;
GRANT regress_time_predicates_reader TO CURRENT_USER;
GRANT SELECT ON recent TO regress_time_predicates_reader;
ALTER TABLE recent ENABLE ROW LEVEL SECURITY;
CREATE POLICY even_rows ON recent FOR SELECT TO regress_time_predicates_reader USING (v % 2 = 0);
SET ROLE regress_time_predicates_reader;
SELECT form, p.every_scan_by_key, p.plan_time_exact, p.start_exact
FROM (VALUES ('id >= now() - interval ''1 hour'''),
			 ('id >= uuidv7_min(now() - interval ''1 hour'')'),
			 ('id >= now() - interval ''1 hour'' AND id < now() + interval ''1 day''')) AS f(form),
	pg_temp.pruning('SELECT count(*) FROM recent WHERE ' || form, uuidv7_min(now() - interval '1 hour')) AS p
ORDER BY form COLLATE "C";
SELECT (SELECT count(*) FROM recent WHERE id >= now() - interval '1 day')
	= (SELECT count(*) FROM recent WHERE uuidv7_timestamp(id) >= now() - interval '1 day') AS policy_rows_exact,
	(SELECT count(*) FROM recent WHERE id >= now() - interval '1 day')
	= (SELECT count(*) FROM recent WHERE uuidv7_timestamp(id) >= now() - interval '1 day' AND v % 2 = 0) AS policy_applied;
RESET ROLE;
DROP POLICY even_rows ON recent;
REVOKE ALL ON recent FROM regress_time_predicates_reader;
DROP ROLE regress_time_predicates_reader;

RESET enable_seqscan;
RESET enable_bitmapscan;
DROP TABLE recent, older, keys, instants;
DROP FUNCTION public.regress_volatile(timestamptz);
