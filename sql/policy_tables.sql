-- policies on the tables users bring: an adopted table, a table with
-- partitions of its own making, a table others reference by foreign key, a
-- table given a policy before its first insert, and one whose maintenance
-- was down (a hole in its grid, rows waiting in DEFAULT)
SET client_min_messages = warning;
\set SHOW_CONTEXT never
SET DateStyle = 'ISO, YMD';
SET IntervalStyle = 'postgres';
SET TimeZone = 'UTC';
-- (the periods below are counted from now(), hour by hour in places, in
-- statements apart: each section begins after an hour that ends within a
-- minute, so that none turns while it runs; the whole file may take longer,
-- every statement JIT-compiled)
CREATE PROCEDURE pg_temp.clear_of_turn() LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_sleep(extract(epoch FROM t - clock_timestamp()))
	FROM date_trunc('hour', clock_timestamp() + interval '1 minute') AS t WHERE t > clock_timestamp();
END $$;

-- the days of a table's partitions, counted from today (0 is today's)
CREATE FUNCTION pg_temp.days(t regclass) RETURNS text LANGUAGE sql AS $$
	SELECT string_agg(CASE WHEN p.period_start IS NULL THEN 'default'
						   ELSE round(extract(epoch FROM p.period_start - date_trunc('day', now())) / 86400)
								|| CASE WHEN p.period_end - p.period_start > interval '1 day'
										THEN '..' || round(extract(epoch FROM p.period_end - date_trunc('day', now())) / 86400) - 1
										ELSE '' END END,
					  ' ' ORDER BY p.lower_bound NULLS LAST)
	FROM uuidv7_partitions(t) p
$$;
-- the gaps between a table's partitions
CREATE FUNCTION pg_temp.gaps(t regclass) RETURNS bigint LANGUAGE sql AS $$
	SELECT count(*) FROM (SELECT p.lower_bound, lag(p.upper_bound) OVER (ORDER BY p.lower_bound) AS previous_end
						  FROM uuidv7_partitions(t) p WHERE p.lower_bound IS NOT NULL) p
	WHERE p.lower_bound <> p.previous_end
$$;

-- 1. An adopted table given a policy: maintenance goes on from the
-- adopted partition, and never overlaps it
CALL pg_temp.clear_of_turn();
CREATE TABLE legacy (id uuid7 PRIMARY KEY DEFAULT uuidv7_generate(), v int);
INSERT INTO legacy (id, v) SELECT uuidv7_generate_at(now() - i * interval '1 day'), i FROM generate_series(0, 3) i;
CALL uuidv7_adopt_table('legacy', '1 day', 'UTC');
SELECT uuidv7_set_partition_policy('legacy', ahead => '7 days', keep => '30 days');
SELECT pg_temp.days('legacy');
CALL uuidv7_run_maintenance();
SELECT parent, created, retired, sqlstate, error FROM uuidv7_maintenance_runs WHERE parent = 'public.legacy' ORDER BY started_at;
SELECT pg_temp.days('legacy');

-- 2. Partitions made by hand, of several periods each, and one attached
-- again, beside the table's daily grid: the periods they hold are skipped;
-- one whose whole range is older than keep is retired, as an adopted one is
CALL pg_temp.clear_of_turn();
CREATE TABLE handmade (id uuid7 PRIMARY KEY, v int) PARTITION BY RANGE (id);
SELECT count(*) FROM uuidv7_create_partitions('handmade', now() - interval '1 day', now(), '1 day', 'UTC');
CREATE TABLE handmade_old PARTITION OF handmade
	FOR VALUES FROM (uuidv7_min(date_trunc('day', now()) - interval '60 days')) TO (uuidv7_min(date_trunc('day', now()) - interval '40 days'));
CREATE TABLE handmade_mid PARTITION OF handmade
	FOR VALUES FROM (uuidv7_min(date_trunc('day', now()) - interval '40 days')) TO (uuidv7_min(date_trunc('day', now()) - interval '1 day'));
DO $$
BEGIN
	EXECUTE format('ALTER TABLE handmade DETACH PARTITION handmade_p%s', to_char(now(), 'YYYY_MM_DD'));
	EXECUTE format('ALTER TABLE handmade ATTACH PARTITION handmade_p%s FOR VALUES FROM (%L) TO (%L)', to_char(now(), 'YYYY_MM_DD'),
				   uuidv7_min(date_trunc('day', now())), uuidv7_min(date_trunc('day', now()) + interval '1 day'));
END
$$;
SELECT uuidv7_set_partition_policy('handmade', ahead => '4 days', keep => '30 days');
CALL uuidv7_run_maintenance();
SELECT pg_temp.days('handmade');
SELECT parent, created, retired, retired_partitions, sqlstate FROM uuidv7_maintenance_runs WHERE parent = 'public.handmade' ORDER BY started_at;

-- 3. A table that another references by foreign key: the periods no row
-- references are retired, the referenced one is kept and named by the
-- foreign key as it was made, with the query that lists its rows; making
-- periods ahead goes on
CALL pg_temp.clear_of_turn();
CREATE TABLE orders (id uuid7 PRIMARY KEY, v int) PARTITION BY RANGE (id);
CREATE TABLE orders_default PARTITION OF orders DEFAULT;
SELECT count(*) FROM uuidv7_create_partitions('orders', now() - interval '40 days', now(), '1 day', 'UTC');
CREATE TABLE order_lines (line int PRIMARY KEY, order_id uuid7 NOT NULL CONSTRAINT order_lines_of_order REFERENCES orders (id), n int);
INSERT INTO orders VALUES (uuidv7_generate_at(date_trunc('day', now()) - interval '35 days' + interval '1 hour'), 1),
						  (uuidv7_generate_at(date_trunc('day', now()) - interval '34 days' + interval '1 hour'), 2);
INSERT INTO order_lines SELECT 1, id, 1 FROM orders WHERE v = 1;
SELECT uuidv7_set_partition_policy('orders', ahead => '3 days', keep => '30 days');
SET client_min_messages = error;
CALL uuidv7_run_maintenance();
SET client_min_messages = warning;
SELECT created, retired, cardinality(retired_partitions) AS named, sqlstate,
	error = format('partition public.orders_p%s is kept (23503): rows of public.order_lines reference it (foreign key order_lines_of_order)',
				   to_char(now() - interval '35 days', 'YYYY_MM_DD')) AS error_named,
	hint = format('SELECT * FROM public.order_lines WHERE order_id >= %L AND order_id < %L lists them; once no row references its period, the next run retires it.',
				  uuidv7_min(date_trunc('day', now()) - interval '35 days'), uuidv7_min(date_trunc('day', now()) - interval '34 days')) AS hint_lists
FROM uuidv7_maintenance_runs WHERE parent = 'public.orders' ORDER BY started_at DESC LIMIT 1;
SELECT pg_temp.days('orders');
SELECT count(*) AS rows_kept FROM orders;
-- the doctor's fix is the query that lists the rows
SELECT severity, problem LIKE '%is kept (23503): rows of public.order_lines reference it (foreign key order_lines_of_order) (SQLSTATE 23503)' AS named,
	fix LIKE 'SELECT * FROM public.order_lines WHERE order_id >= % lists them; %' AS fix_lists
FROM uuidv7_doctor() WHERE object = 'public.orders';
-- called straight, the same: kept, and why
SELECT partition ~ '^public\.orders_p\d{4}_\d\d_\d\d$' AS a_period, action FROM uuidv7_drop_partitions('orders', now() - interval '30 days');
-- detached, the same
SELECT uuidv7_set_partition_policy('orders', ahead => '3 days', keep => '30 days', retire => 'detach');
SET client_min_messages = error;
CALL uuidv7_run_maintenance();
SET client_min_messages = warning;
SELECT retired, sqlstate FROM uuidv7_maintenance_runs WHERE parent = 'public.orders' ORDER BY started_at DESC LIMIT 1;
-- once no row references it, it goes
DELETE FROM order_lines;
CALL uuidv7_run_maintenance();
SELECT retired, retired_partitions = ARRAY[format('public.orders_p%s', to_char(now() - interval '35 days', 'YYYY_MM_DD'))] AS named, sqlstate
FROM uuidv7_maintenance_runs WHERE parent = 'public.orders' ORDER BY started_at DESC LIMIT 1;
SELECT pg_temp.days('orders');

-- 4. A failure to retire never undoes or holds back the making of periods:
-- an old period a view depends on is kept (PostgreSQL's message, not its
-- advice to CASCADE), the others retired, and the periods ahead made
CALL pg_temp.clear_of_turn();
CREATE TABLE events (id uuid7 PRIMARY KEY, v int) PARTITION BY RANGE (id);
SELECT count(*) FROM uuidv7_create_partitions('events', now() - interval '33 days', now() - interval '31 days', '1 day', 'UTC');
DO $$ BEGIN EXECUTE format('CREATE VIEW events_watch AS SELECT * FROM events_p%s', to_char(now() - interval '33 days', 'YYYY_MM_DD')); END $$;
SELECT uuidv7_set_partition_policy('events', ahead => '2 days', keep => '30 days');
-- (the day after tomorrow's period, made when the policy was given, gone)
DO $$ BEGIN EXECUTE format('DROP TABLE events_p%s', to_char(now() + interval '2 days', 'YYYY_MM_DD')); END $$;
SELECT pg_temp.days('events');
SET client_min_messages = error;
CALL uuidv7_run_maintenance();
SET client_min_messages = warning;
SELECT created, retired, sqlstate, error LIKE 'partition public.events_p% is kept (2BP01): cannot drop table public.events_p% because other objects depend on it' AS named,
	error LIKE '%CASCADE%' AS cascade_advised
FROM uuidv7_maintenance_runs WHERE parent = 'public.events' ORDER BY started_at DESC LIMIT 1;
SELECT pg_temp.days('events');
DROP VIEW events_watch;

-- 5. A policy acts when it is given: a new table without a DEFAULT
-- partition takes its first insert at once
CALL pg_temp.clear_of_turn();
CREATE TABLE fresh (id uuid7 PRIMARY KEY DEFAULT uuidv7_generate(), v int) PARTITION BY RANGE (id);
SELECT uuidv7_set_partition_policy('fresh', ahead => '2 days', step => '1 day', zone => 'UTC');
INSERT INTO fresh (v) VALUES (1);
SELECT pg_temp.days('fresh');
SELECT created, created_partitions = ARRAY(SELECT format('public.fresh_p%s', to_char(now() + d * interval '1 day', 'YYYY_MM_DD'))
										   FROM generate_series(0, 2) d) AS named
FROM uuidv7_maintenance_runs WHERE parent = 'public.fresh';
-- (a period that cannot be made, its name taken by a table of another
-- kind, is told, and keeps neither the policy nor the other periods from
-- being made; its WARNING names today)
CREATE TABLE taken (id uuid7 PRIMARY KEY) PARTITION BY RANGE (id);
DO $$ BEGIN EXECUTE format('CREATE TABLE taken_p%s (id uuid7)', to_char(now(), 'YYYY_MM_DD')); END $$;
SET client_min_messages = error;
SELECT uuidv7_set_partition_policy('taken', ahead => '2 days', step => '1 day', zone => 'UTC');
SET client_min_messages = warning;
SELECT count(*) AS policies FROM uuidv7_partition_policies WHERE parent = 'public.taken';
SELECT pg_temp.days('taken');
SELECT created, sqlstate, error ~ '^relation public\.taken_p\d{4}_\d\d_\d\d already exists and is not the partition of public\.taken' AS named
FROM uuidv7_maintenance_runs WHERE parent = 'public.taken';
SELECT uuidv7_set_partition_policy('taken');

-- 6. After maintenance was down: the hole in the grid within keep filled,
-- the rows that waited in DEFAULT moved into their periods, also before the
-- first partition (the grid made whole from the oldest of them on); rows
-- older than keep left where they are
CALL pg_temp.clear_of_turn();
CREATE TABLE visits (id uuid7 PRIMARY KEY, v int) PARTITION BY RANGE (id);
CREATE TABLE visits_default PARTITION OF visits DEFAULT;
SELECT count(*) FROM uuidv7_create_partitions('visits', now() - interval '20 days', now() - interval '15 days', '1 day', 'UTC');
INSERT INTO visits SELECT uuidv7_generate_at(date_trunc('day', now()) - d * interval '1 day' + interval '2 hours'), d
FROM unnest(ARRAY[45, 25, 24, 12, 3, 0]) d;
SELECT count(*) AS waiting FROM ONLY visits_default;
SELECT uuidv7_set_partition_policy('visits', ahead => '2 days', keep => '30 days');
SELECT pg_temp.days('visits'), pg_temp.gaps('visits');
SELECT v FROM ONLY visits_default ORDER BY v;
SELECT count(*) = 6 AS none_lost, count(*) FILTER (WHERE tableoid = 'visits_default'::regclass) AS in_default FROM visits;
SELECT created, moved FROM uuidv7_maintenance_runs WHERE parent = 'public.visits';

-- 7. A long outage is caught up over a few runs, a hundred periods a run,
-- the nearest to now first
CALL pg_temp.clear_of_turn();
CREATE TABLE ticks (id uuid7 PRIMARY KEY, v int) PARTITION BY RANGE (id);
SELECT count(*) FROM uuidv7_create_partitions('ticks', date_trunc('hour', now()) - interval '150 hours', date_trunc('hour', now()) - interval '149 hours', '1 hour', 'UTC');
SELECT uuidv7_set_partition_policy('ticks', ahead => '3 hours', keep => '10 days');
SELECT count(*) - count(*) FILTER (WHERE period_end <= now() - interval '149 hours') AS after_first, pg_temp.gaps('ticks') AS gaps
FROM uuidv7_partitions('ticks');
CALL uuidv7_run_maintenance();
SELECT count(*) - 100 AS after_second_less_first, pg_temp.gaps('ticks') AS gaps,
	max(period_end) >= now() + interval '3 hours' AS ahead
FROM uuidv7_partitions('ticks');
SELECT created FROM uuidv7_maintenance_runs WHERE parent = 'public.ticks' ORDER BY started_at;

-- 8. Retired into an archive: a table partitioned the same way, in any
-- schema, owned by the table's owner, named or made on first use; the
-- periods attached with their bounds, their rows all there; the archive
-- is no table that "ends in the past" to the doctor, and may have a keep of
-- its own
CALL pg_temp.clear_of_turn();
CREATE SCHEMA cold;
CREATE TABLE sales (id uuid7 PRIMARY KEY, v int) PARTITION BY RANGE (id);
CREATE INDEX ON sales (v);
SELECT count(*) FROM uuidv7_create_partitions('sales', now() - interval '40 days', now(), '1 day', 'UTC');
INSERT INTO sales SELECT uuidv7_generate_at(date_trunc('day', now()) - d * interval '1 day' + interval '3 hours'), d FROM generate_series(0, 39) d;
SELECT uuidv7_set_partition_policy('sales', ahead => '2 days', keep => '30 days', retire => 'archive', archive => 'cold.sales_old');
SELECT parent, retire, archive FROM uuidv7_partition_policies WHERE parent = 'public.sales';
CALL uuidv7_run_maintenance();
SELECT retired, cardinality(retired_partitions) AS named, sqlstate FROM uuidv7_maintenance_runs WHERE parent = 'public.sales' ORDER BY started_at DESC LIMIT 1;
SELECT pg_temp.days('cold.sales_old') AS archived, (SELECT count(*) FROM cold.sales_old) AS rows_archived,
	(SELECT count(*) FROM sales) AS rows_kept, (SELECT string_agg(DISTINCT n.nspname, ',') FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
		JOIN pg_namespace n ON n.oid = c.relnamespace WHERE i.inhparent = 'cold.sales_old'::regclass) AS their_schema;
-- (its indexes, as the table's, attached, not built again)
SELECT count(*) AS archive_indexes FROM pg_index WHERE indrelid = 'cold.sales_old'::regclass;
SELECT count(*) AS waiting FROM pg_constraint WHERE conname = 'uuidv7_archive_pending';
SELECT count(*) AS findings FROM uuidv7_doctor() WHERE object LIKE 'cold.%';
-- the archive's own keep: its oldest periods dropped there
SELECT uuidv7_set_partition_policy('cold.sales_old', keep => '35 days');
CALL uuidv7_run_maintenance();
SELECT pg_temp.days('cold.sales_old') AS archived;
-- made on first use, <table>_archive beside the table
CREATE TABLE returns (id uuid7 PRIMARY KEY, v int) PARTITION BY RANGE (id);
SELECT count(*) FROM uuidv7_create_partitions('returns', now() - interval '35 days', now(), '1 day', 'UTC');
SELECT uuidv7_set_partition_policy('returns', ahead => '1 day', keep => '33 days', retire => 'archive');
CALL uuidv7_run_maintenance();
SELECT pg_temp.days('returns_archive') AS archived, pg_get_userbyid(relowner) = current_user AS own FROM pg_class WHERE oid = 'returns_archive'::regclass;
-- one that cannot be attached (its period taken in the archive) waits,
-- named by the run and by the doctor, with the call that attaches it
DO $$ BEGIN EXECUTE format('CREATE TABLE cold.squatter PARTITION OF cold.sales_old FOR VALUES FROM (%L) TO (%L)',
						   uuidv7_min(date_trunc('day', now()) - interval '30 days'), uuidv7_min(date_trunc('day', now()) - interval '29 days')); END $$;
SELECT uuidv7_set_partition_policy('sales', ahead => '2 days', keep => '29 days', retire => 'archive', archive => 'cold.sales_old');
SET client_min_messages = error;
CALL uuidv7_run_maintenance();
SET client_min_messages = warning;
SELECT retired, sqlstate, error LIKE 'archiving: table cold.sales_p% waits for archive cold.sales_old: kept (42P17): partition "sales_p%" would overlap partition "squatter"' AS named
FROM uuidv7_maintenance_runs WHERE parent = 'public.sales' ORDER BY started_at DESC LIMIT 1;
SELECT severity, problem, fix FROM uuidv7_doctor() WHERE object LIKE 'cold.sales_p%';
DROP TABLE cold.squatter;
SELECT action FROM uuidv7_archive_partitions('cold.sales_old');
SELECT count(*) AS findings FROM uuidv7_doctor() WHERE object LIKE 'cold.%';
-- bad input
\set VERBOSITY terse
SELECT uuidv7_set_partition_policy('sales', keep => '30 days', archive => 'cold.sales_old');
SELECT uuidv7_set_partition_policy('sales', keep => '30 days', retire => 'archive', archive => 'nowhere.sales_old');
SELECT uuidv7_set_partition_policy('sales', keep => '30 days', retire => 'archive', archive => 'a.b.c');
CREATE TABLE cold.plain (id uuid7 PRIMARY KEY);
SELECT uuidv7_set_partition_policy('sales', keep => '30 days', retire => 'archive', archive => 'cold.plain');
CREATE TABLE cold.by_other (id uuid7 PRIMARY KEY, v int) PARTITION BY RANGE (id);
CREATE ROLE regress_archive_other;
-- (the runner may be a role with CREATEROLE only: it takes the roles on)
GRANT regress_archive_other TO CURRENT_USER;
GRANT CREATE ON SCHEMA cold TO regress_archive_other;
ALTER TABLE cold.by_other OWNER TO regress_archive_other;
SELECT uuidv7_set_partition_policy('sales', keep => '30 days', retire => 'archive', archive => 'cold.by_other');
\set VERBOSITY default
DROP TABLE cold.by_other;
REVOKE CREATE ON SCHEMA cold FROM regress_archive_other;
DROP ROLE regress_archive_other;

-- 9. Tables of other roles that foreign keys link the table to: a lookup
-- table the owner may reference but not lock, and a table of another role
-- that references it; a role without superuser keeps its table all the same
CALL pg_temp.clear_of_turn();
CREATE ROLE regress_pt_app;
CREATE ROLE regress_pt_other;
GRANT regress_pt_app, regress_pt_other TO CURRENT_USER;
-- (before 15 every role may create in public, and a runner that does not
-- own it is told that it granted nothing)
SET client_min_messages = error;
GRANT CREATE ON SCHEMA public TO regress_pt_app, regress_pt_other;
SET client_min_messages = warning;
SET ROLE regress_pt_other;
CREATE TABLE currencies (code text PRIMARY KEY);
INSERT INTO currencies VALUES ('EUR');
GRANT REFERENCES ON currencies TO regress_pt_app;
SET ROLE regress_pt_app;
CREATE TABLE payments (id uuid7 PRIMARY KEY, currency text NOT NULL REFERENCES currencies (code)) PARTITION BY RANGE (id);
SELECT count(*) FROM uuidv7_create_partitions('payments', now() - interval '10 days', now(), '1 day', 'UTC');
INSERT INTO payments VALUES (uuidv7_min(date_trunc('day', now()) - interval '9 days' + interval '1 hour'), 'EUR'),
							(uuidv7_min(date_trunc('day', now()) - interval '8 days' + interval '1 hour'), 'EUR');
GRANT REFERENCES ON payments TO regress_pt_other;
SET ROLE regress_pt_other;
CREATE TABLE payment_notes (payment_id uuid7 REFERENCES payments (id), note text);
INSERT INTO payment_notes VALUES (uuidv7_min(date_trunc('day', now()) - interval '9 days' + interval '1 hour'), 'a note');
SET ROLE regress_pt_app;
SELECT uuidv7_set_partition_policy('payments', ahead => '2 days', keep => '5 days');
SET client_min_messages = error;
CALL uuidv7_run_maintenance();
SET client_min_messages = warning;
-- (a referencing table it may not read: the period is kept, and why)
SELECT created, retired, sqlstate,
	error ~ '^partition public\.payments_p\d{4}_\d\d_\d\d is kept \(42501\): permission denied for table payment_notes(; |$)' AS named, hint
FROM uuidv7_maintenance_runs WHERE parent = 'public.payments' ORDER BY started_at DESC LIMIT 1;
SELECT pg_temp.days('payments');
RESET ROLE;
GRANT SELECT ON payment_notes TO regress_pt_app;
SET ROLE regress_pt_app;
SET client_min_messages = error;
CALL uuidv7_run_maintenance();
SET client_min_messages = warning;
SELECT retired, sqlstate, error ~ '^partition public\.payments_p\d{4}_\d\d_\d\d is kept \(23503\): rows of public\.payment_notes reference it \(foreign key payment_notes_payment_id_fkey\)$' AS named
FROM uuidv7_maintenance_runs WHERE parent = 'public.payments' ORDER BY started_at DESC LIMIT 1;
RESET ROLE;
DROP TABLE payment_notes, payments, currencies;
SET client_min_messages = error;
REVOKE CREATE ON SCHEMA public FROM regress_pt_app, regress_pt_other;
SET client_min_messages = warning;
DROP ROLE regress_pt_app, regress_pt_other;

-- 10. Bounds of a run: an ahead of more than a hundred periods is reached
-- over a few runs (those made are not counted again); a hundred periods
-- retired at most a run, the oldest first; a stray row of long ago in
-- DEFAULT of a table without keep makes no periods back to it; a keep
-- that reaches before 1970 retires nothing and fails nothing
CALL pg_temp.clear_of_turn();
CREATE TABLE far (id uuid7 PRIMARY KEY, v int) PARTITION BY RANGE (id);
SELECT uuidv7_set_partition_policy('far', ahead => '7 days', step => '1 hour', zone => 'UTC');
SELECT count(*) AS first FROM uuidv7_partitions('far');
CALL uuidv7_run_maintenance();
SELECT count(*) > 168 AS all_made, max(period_end) >= now() + interval '7 days' AS reached, pg_temp.gaps('far') AS gaps FROM uuidv7_partitions('far');
CREATE TABLE behind (id uuid7 PRIMARY KEY, v int) PARTITION BY RANGE (id);
SELECT count(*) FROM uuidv7_create_partitions('behind', date_trunc('hour', now()) - interval '160 hours', now(), '1 hour', 'UTC');
SELECT uuidv7_set_partition_policy('behind', ahead => '1 hour', keep => '10 hours');
CALL uuidv7_run_maintenance();
SELECT retired FROM uuidv7_maintenance_runs WHERE parent = 'public.behind' ORDER BY started_at DESC LIMIT 1;
CALL uuidv7_run_maintenance();
SELECT retired FROM uuidv7_maintenance_runs WHERE parent = 'public.behind' ORDER BY started_at DESC LIMIT 1;
SELECT min(period_end) > now() - interval '10 hours' AS kept_only, pg_temp.gaps('behind') AS gaps FROM uuidv7_partitions('behind');
CALL pg_temp.clear_of_turn();
CREATE TABLE stray (id uuid7 PRIMARY KEY, v int) PARTITION BY RANGE (id);
CREATE TABLE stray_default PARTITION OF stray DEFAULT;
INSERT INTO stray VALUES (uuidv7_generate_at('2001-01-01'), 1);
SELECT uuidv7_set_partition_policy('stray', ahead => '2 days', step => '1 day', zone => 'UTC');
CALL uuidv7_run_maintenance();
SELECT pg_temp.days('stray'), (SELECT count(*) FROM ONLY stray_default) AS waiting;
CREATE TABLE ancient (id uuid7 PRIMARY KEY, v int) PARTITION BY RANGE (id);
SELECT count(*) FROM uuidv7_create_partitions('ancient', now() - interval '2 days', now(), '1 day', 'UTC');
SELECT uuidv7_set_partition_policy('ancient', keep => '100 years');
CALL uuidv7_run_maintenance();
SELECT retired, sqlstate FROM uuidv7_maintenance_runs WHERE parent = 'public.ancient';
\set VERBOSITY terse
SELECT uuidv7_set_partition_policy('ancient', ahead => '1 day', step => '0 days');
\set VERBOSITY default
DROP TABLE far, behind, stray, ancient;

DROP TABLE order_lines;
DROP TABLE legacy, handmade, orders, events, fresh, taken, visits, ticks, sales, returns, returns_archive;
DROP SCHEMA cold CASCADE;
DO $$
DECLARE t regclass;
BEGIN
	FOR t IN SELECT c.oid FROM pg_class c
			 WHERE c.relkind = 'r' AND c.relname ~ '^(orders|events|taken)_p' LOOP
		EXECUTE format('DROP TABLE %s', t);
	END LOOP;
END
$$;
DELETE FROM uuidv7_maintenance_history WHERE NOT EXISTS (SELECT FROM pg_class c WHERE c.oid = parent_oid);
DELETE FROM uuidv7_partition_config WHERE NOT EXISTS (SELECT FROM pg_class c WHERE c.oid = parent_oid);
