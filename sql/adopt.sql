-- uuidv7_adopt_table: a live table keyed by UUIDv7 becomes a partitioned
-- table of the same name, its rows untouched, and the partition tooling works
-- on the result

-- the settings its output depends on, whatever the server's: the planner's,
-- parallelism, JIT and the client's at their built-in defaults
SELECT count(set_config(name, boot_val, false)) > 0 AS settings_pinned FROM pg_settings
WHERE name ~ '^enable_' OR name IN ('client_min_messages', 'extra_float_digits', 'jit',
	'max_parallel_workers_per_gather', 'plan_cache_mode', 'default_statistics_target', 'effective_cache_size',
	'random_page_cost', 'seq_page_cost', 'cpu_tuple_cost', 'cpu_index_tuple_cost', 'cpu_operator_cost',
	'parallel_setup_cost', 'parallel_tuple_cost', 'min_parallel_table_scan_size', 'min_parallel_index_scan_size');
SET TimeZone = 'UTC';
-- (the months below are counted from now(), in statements apart: begin
-- after a day that ends within a minute, so that none turns meanwhile)
DO $$ BEGIN PERFORM pg_sleep(extract(epoch FROM t - clock_timestamp())) FROM date_trunc('day', clock_timestamp() + interval '1 minute', 'UTC') AS t WHERE t > clock_timestamp(); END $$;
SET DateStyle = 'ISO';
\set SHOW_CONTEXT never
-- (adoption's NOTICEs say how far it is, with times of now: not shown here;
-- test/t/007_upkeep_load.pl reads them)
SET client_min_messages = warning;

CREATE ROLE "regress_adopt Reader";
-- (so that a role without superuser running the suite may become it)
GRANT "regress_adopt Reader" TO CURRENT_USER;
CREATE SCHEMA "Shop Data";
CREATE TABLE "Shop Data"."Live Orders" (
	id uuid7 PRIMARY KEY DEFAULT uuidv7_generate(),
	customer int NOT NULL,
	total numeric(10, 2) CHECK (total >= 0),
	created_at timestamptz GENERATED ALWAYS AS (uuidv7_timestamp(id)) STORED
);
CREATE INDEX ON "Shop Data"."Live Orders" (customer);
COMMENT ON TABLE "Shop Data"."Live Orders" IS 'orders, live';
COMMENT ON COLUMN "Shop Data"."Live Orders".customer IS 'who ordered';
GRANT USAGE ON SCHEMA "Shop Data" TO "regress_adopt Reader";
GRANT SELECT ON "Shop Data"."Live Orders" TO "regress_adopt Reader";
GRANT UPDATE (total) ON "Shop Data"."Live Orders" TO "regress_adopt Reader";
ALTER TABLE "Shop Data"."Live Orders" ENABLE ROW LEVEL SECURITY;
CREATE POLICY "small customers" ON "Shop Data"."Live Orders" FOR SELECT TO "regress_adopt Reader" USING (customer < 50);
-- three months of rows up to now
INSERT INTO "Shop Data"."Live Orders" (id, customer, total)
SELECT uuidv7_generate_at(now() - g * interval '43 minutes'), g % 100, g FROM generate_series(0, 3000) g;
CREATE TEMP TABLE before AS
SELECT pg_relation_filenode('"Shop Data"."Live Orders"') AS table_file,
	pg_relation_filenode('"Shop Data"."Live Orders_pkey"') AS key_file,
	(SELECT count(*) FROM "Shop Data"."Live Orders") AS row_count,
	(SELECT sum(total) FROM "Shop Data"."Live Orders") AS total,
	(SELECT min(created_at) FROM "Shop Data"."Live Orders") AS oldest;

CALL uuidv7_adopt_table('"Shop Data"."Live Orders"', '1 month', 'UTC');

-- the name is a partitioned table now; the rows are where they were: the
-- same files, nothing rewritten or rebuilt
SELECT c.relkind AS kind, pg_get_partkeydef(c.oid) AS partition_key
FROM pg_class c WHERE c.oid = '"Shop Data"."Live Orders"'::regclass;
SELECT pg_relation_filenode('"Shop Data"."Live Orders_adopted"') = table_file AS same_table_file,
	pg_relation_filenode('"Shop Data"."Live Orders_adopted_pkey"') = key_file AS same_key_file,
	(SELECT count(*) FROM "Shop Data"."Live Orders") = row_count AS same_count,
	(SELECT sum(total) FROM "Shop Data"."Live Orders") = total AS same_total
FROM before;
-- the adopted table covers its months up to the end of the next one (a
-- month of slack, so that a table whose adoption stopped after its bounds
-- were set keeps taking rows), and three more are made ahead
SELECT p.partition, p.period_start = date_trunc('month', b.oldest) AS from_oldest_month,
	p.period_end - p.period_start > interval '27 days' AS at_least_a_month,
	p.period_end = date_trunc('month', now()) + interval '2 months' AS to_end_of_next_month
FROM uuidv7_partitions('"Shop Data"."Live Orders"') p, before b WHERE p.partition::text LIKE '%adopted%';
SELECT count(*) AS months_ahead FROM uuidv7_partitions('"Shop Data"."Live Orders"')
WHERE period_start >= date_trunc('month', now()) + interval '2 months';
-- indexes, defaults, checks, generated columns, comments, grants, row
-- security and policies carried over
SELECT indexrelid::regclass AS parent_index, indisprimary FROM pg_index
WHERE indrelid = '"Shop Data"."Live Orders"'::regclass ORDER BY indexrelid::regclass::text COLLATE "C";
SELECT obj_description('"Shop Data"."Live Orders"'::regclass, 'pg_class') AS comment,
	col_description('"Shop Data"."Live Orders"'::regclass, 2) AS customer_comment;
SELECT has_table_privilege('regress_adopt Reader', '"Shop Data"."Live Orders"', 'SELECT') AS can_select,
	has_column_privilege('regress_adopt Reader', '"Shop Data"."Live Orders"', 'total', 'UPDATE') AS can_update_total,
	has_column_privilege('regress_adopt Reader', '"Shop Data"."Live Orders"', 'customer', 'UPDATE') AS can_update_customer;
SELECT relrowsecurity FROM pg_class WHERE oid = '"Shop Data"."Live Orders"'::regclass;
SELECT polname, pg_get_expr(polqual, polrelid) FROM pg_policy WHERE polrelid = '"Shop Data"."Live Orders"'::regclass;
-- inserts through the old name keep working, into this month's partition,
-- with the default, the generated column and the checks
INSERT INTO "Shop Data"."Live Orders" (customer, total) VALUES (7, 1.50)
RETURNING tableoid::regclass, created_at > now() - interval '1 minute' AS generated;
\set VERBOSITY terse
INSERT INTO "Shop Data"."Live Orders" (customer, total) VALUES (7, -1);
\echo :LAST_ERROR_SQLSTATE
INSERT INTO "Shop Data"."Live Orders" (id, customer, total) VALUES (gen_random_uuid(), 7, 1);
\echo :LAST_ERROR_SQLSTATE
\set VERBOSITY default
-- a row of next month goes to the adopted table, one of the month after to
-- that month's partition
INSERT INTO "Shop Data"."Live Orders" (id, customer, total)
VALUES (uuidv7_generate_at(date_trunc('month', now()) + interval '1 month 1 day'), 8, 2),
	(uuidv7_generate_at(date_trunc('month', now()) + interval '2 months 1 day'), 8, 2)
RETURNING tableoid::regclass = '"Shop Data"."Live Orders_adopted"'::regclass AS in_adopted,
	tableoid::regclass = (SELECT partition FROM uuidv7_partitions('"Shop Data"."Live Orders"')
						  WHERE period_start = date_trunc('month', now()) + interval '2 months') AS in_its_month;
-- the policy applies through the parent
SET ROLE "regress_adopt Reader";
SELECT count(*) > 0 AS sees_rows, bool_and(customer < 50) AS only_small_customers FROM "Shop Data"."Live Orders";
RESET ROLE;
-- called again on the adopted table, it finishes what may be missing: the
-- periods ahead of the adopted table's, here four more, and no more when
-- called once again
CALL uuidv7_adopt_table('"Shop Data"."Live Orders"', '1 month', 'UTC', periods_ahead => 7);
CALL uuidv7_adopt_table('"Shop Data"."Live Orders"', '1 month', 'UTC', periods_ahead => 7);
SELECT count(*) AS months_ahead FROM uuidv7_partitions('"Shop Data"."Live Orders"')
WHERE period_start >= date_trunc('month', now()) + interval '2 months';
-- the lifecycle functions work on it: creation is idempotent, retention
-- keeps the adopted partition until its last month has passed
SELECT count(*) FILTER (WHERE created) AS created FROM uuidv7_create_partitions('"Shop Data"."Live Orders"',
	date_trunc('month', now()) + interval '2 months', now() + interval '11 months', '1 month', 'UTC');
SELECT count(*) AS dropped FROM uuidv7_drop_partitions('"Shop Data"."Live Orders"', now());
SELECT count(*) AS dropped_later FROM uuidv7_drop_partitions('"Shop Data"."Live Orders"',
	date_trunc('month', now()) + interval '2 months');
DROP SCHEMA "Shop Data" CASCADE;

-- what points at the table follows it: a view (its options kept), a
-- trigger (disabled, it stays so), its own foreign key (the adopted table's
-- attached to the partitioned table's), another table's (re-made, then
-- validated), a publication; a DEFAULT partition takes rows past the last
-- period
CREATE TABLE kinds (kind int PRIMARY KEY);
INSERT INTO kinds VALUES (1), (2);
CREATE TABLE followed (id uuid7 PRIMARY KEY, kind int NOT NULL REFERENCES kinds);
INSERT INTO followed SELECT uuidv7_generate_at(now() - g * interval '1 day'), 1 + g % 2 FROM generate_series(1, 20) g;
CREATE TABLE follower (followed_id uuid REFERENCES followed ON DELETE CASCADE);
INSERT INTO follower SELECT id FROM followed;
CREATE VIEW followed_kinds WITH (security_barrier) AS SELECT kind, count(*) AS n FROM followed GROUP BY kind;
CREATE VIEW followed_only AS SELECT id FROM ONLY followed;
-- (and a view of ONLY another table, whose name begins as this one's)
CREATE TABLE followed_log (kind int);
CREATE TABLE followed_log_old () INHERITS (followed_log);
INSERT INTO followed_log VALUES (1);
INSERT INTO followed_log_old VALUES (1), (2);
CREATE VIEW followed_logged AS SELECT f.id FROM ONLY followed f JOIN ONLY followed_log l USING (kind);
CREATE FUNCTION pg_temp.nothing() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$;
CREATE TRIGGER followed_nothing AFTER UPDATE ON followed FOR EACH ROW EXECUTE FUNCTION pg_temp.nothing();
ALTER TABLE followed DISABLE TRIGGER followed_nothing;
SET client_min_messages = error;
CREATE PUBLICATION followed_pub FOR TABLE followed WITH (publish_via_partition_root = true);
SET client_min_messages = warning;
CALL uuidv7_adopt_table('followed', '1 month', 'UTC', periods_ahead => 1);
SELECT conrelid::regclass AS holder, confrelid::regclass AS referenced, convalidated,
	(SELECT conrelid::regclass FROM pg_constraint p WHERE p.oid = c.conparentid) AS parent_of
FROM pg_constraint c WHERE contype = 'f' AND conrelid::regclass::text NOT LIKE 'followed_p%'
	AND (confrelid = 'kinds'::regclass OR (conrelid = 'follower'::regclass AND conparentid = 0))
ORDER BY conrelid::regclass::text COLLATE "C", confrelid::regclass::text COLLATE "C";
SELECT pg_get_viewdef('followed_kinds') LIKE '%FROM followed%' AS reads_the_partitioned_table,
	(SELECT reloptions FROM pg_class WHERE oid = 'followed_kinds'::regclass) AS options,
	(SELECT sum(n) FROM followed_kinds) AS rows_seen,
	(SELECT count(*) FROM followed_only) AS rows_seen_by_the_view_of_only,
	(SELECT count(*) FROM followed_logged) AS rows_of_only_the_other_table;
SELECT tgrelid::regclass, tgname, tgenabled FROM pg_trigger WHERE tgname = 'followed_nothing' AND tgparentid = 0;
SELECT pubname, prrelid::regclass FROM pg_publication_rel r JOIN pg_publication p ON p.oid = r.prpubid
ORDER BY prrelid::regclass::text COLLATE "C";
INSERT INTO followed VALUES (uuidv7_generate_at(now() + interval '4 years'), 2) RETURNING tableoid::regclass;
INSERT INTO follower SELECT id FROM followed WHERE uuidv7_timestamp(id) > now();
DELETE FROM followed WHERE uuidv7_timestamp(id) > now();
SELECT count(*) AS followers_left, (SELECT count(*) FROM followed) AS followed_left FROM follower;
DROP PUBLICATION followed_pub;
DROP VIEW followed_kinds, followed_only, followed_logged;
DROP TABLE followed_log CASCADE;
DROP TABLE follower, followed, kinds;

-- what cannot follow it is refused before anything changes, each object
-- named: a materialized view, a rule of another table, a foreign key of the
-- table to itself, a CHECK NO INHERIT, what uses its row type (a function,
-- a view's whole-row column), a publication under the partitions' names
CREATE TABLE stuck (id uuid7 PRIMARY KEY, up uuid REFERENCES stuck, n int CHECK (n > 0) NO INHERIT,
	m int CONSTRAINT whole CHECK (num_nonnulls(stuck.*) >= 1));
ALTER TABLE stuck ADD CONSTRAINT m_small CHECK (m < 10) NOT VALID;
ALTER TABLE stuck ENABLE ROW LEVEL SECURITY;
ALTER TABLE stuck FORCE ROW LEVEL SECURITY;
CREATE MATERIALIZED VIEW stuck_count AS SELECT count(*) FROM stuck;
CREATE TABLE stuck_log (id uuid);
CREATE RULE stuck_log_copy AS ON INSERT TO stuck_log DO ALSO SELECT count(*) FROM stuck;
CREATE FUNCTION stuck_label(stuck) RETURNS text LANGUAGE sql AS $$ SELECT $1.id::text $$;
CREATE VIEW stuck_rows AS SELECT s AS r FROM stuck s;
SET client_min_messages = error;
CREATE PUBLICATION stuck_pub FOR TABLE stuck;
SET client_min_messages = warning;
\set VERBOSITY default
CALL uuidv7_adopt_table('stuck', '1 month', 'UTC');
\set VERBOSITY terse
SELECT relkind, (SELECT count(*) FROM pg_constraint WHERE conrelid = 'stuck'::regclass AND contype IN ('c', 'f', 'p')) AS constraints
FROM pg_class WHERE oid = 'stuck'::regclass;
DROP PUBLICATION stuck_pub;
DROP TABLE stuck CASCADE;
DROP TABLE stuck_log;
-- a foreign key of another role's table, which the swap could not drop and
-- make again: refused before anything changes, named with its owner
CREATE ROLE regress_adopt_owner;
CREATE ROLE regress_adopt_neighbour;
-- (so that a role without superuser running the suite may give them tables,
-- in a schema of its own whatever the server's defaults for public)
GRANT regress_adopt_owner, regress_adopt_neighbour TO CURRENT_USER;
CREATE SCHEMA adopt_roles;
GRANT USAGE, CREATE ON SCHEMA adopt_roles TO regress_adopt_owner, regress_adopt_neighbour;
CREATE TABLE adopt_roles.owned (id uuid7 PRIMARY KEY);
CREATE TABLE adopt_roles.neighbour (owned_id uuid REFERENCES adopt_roles.owned);
ALTER TABLE adopt_roles.owned OWNER TO regress_adopt_owner;
ALTER TABLE adopt_roles.neighbour OWNER TO regress_adopt_neighbour;
SET ROLE regress_adopt_owner;
\set VERBOSITY default
CALL uuidv7_adopt_table('adopt_roles.owned', '1 month', 'UTC');
\set VERBOSITY terse
RESET ROLE;
SELECT relkind, (SELECT count(*) FROM pg_constraint WHERE conrelid = 'adopt_roles.owned'::regclass AND contype IN ('c', 'f', 'p')) AS constraints
FROM pg_class WHERE oid = 'adopt_roles.owned'::regclass;
DROP SCHEMA adopt_roles CASCADE;
DROP ROLE regress_adopt_owner, regress_adopt_neighbour;

-- long names of indexes: the adopted table's are renamed within 63 bytes,
-- numbered where a name is taken
CREATE TABLE customer_subscription_billing_events_archive (id uuid7 PRIMARY KEY, created_at timestamptz, status int);
CREATE INDEX ON customer_subscription_billing_events_archive (created_at);
CREATE INDEX ON customer_subscription_billing_events_archive (created_at, status);
INSERT INTO customer_subscription_billing_events_archive SELECT uuidv7_generate_at(now() - g * interval '1 day'), now(), g
FROM generate_series(1, 5) g;
CALL uuidv7_adopt_table('customer_subscription_billing_events_archive', '1 month', 'UTC', periods_ahead => 0);
SELECT c.relname, octet_length(c.relname) AS bytes FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
WHERE i.indrelid = 'customer_subscription_billing_events_archive_adopted'::regclass ORDER BY c.relname COLLATE "C";
DROP TABLE customer_subscription_billing_events_archive;

-- a name of many bytes a character: the names adoption gives are cut
-- between characters at 63 bytes, as PostgreSQL cuts them, so that a call
-- again after a stop finds the CHECK of version 7 the stopped one made
CREATE TABLE "ééééééééééééééééééééééééééé" (id uuid PRIMARY KEY, v int);
INSERT INTO "ééééééééééééééééééééééééééé" SELECT uuidv7_generate_at(now() - g * interval '1 day'), g FROM generate_series(1, 5) g;
ALTER TABLE "ééééééééééééééééééééééééééé" ADD CONSTRAINT "ééééééééééééééééééééééééééé_uuidv7_key"
	CHECK (uuidv7_timestamp(id) IS NOT NULL) NOT VALID;
CALL uuidv7_adopt_table('"ééééééééééééééééééééééééééé"', '1 month', 'UTC', periods_ahead => 0);
SELECT octet_length(conname) <= 63 AS fits, convalidated FROM pg_constraint
WHERE conrelid = '"ééééééééééééééééééééééééééé"'::regclass AND contype = 'c';
SELECT relkind, (SELECT octet_length(relname) FROM pg_class WHERE relname LIKE '%\_default') AS default_name_bytes
FROM pg_class WHERE oid = '"ééééééééééééééééééééééééééé"'::regclass;
DROP TABLE "ééééééééééééééééééééééééééé";

-- a plain uuid key: version 7 keys only, counted, and the rule kept as a
-- validated CHECK that the partitioned table keeps too
CREATE TABLE legacy (id uuid PRIMARY KEY, note text);
INSERT INTO legacy SELECT uuidv7_generate_at(now() - g * interval '1 day'), 'v7' FROM generate_series(1, 10) g;
INSERT INTO legacy VALUES ('67fc5276-43ef-426d-85aa-22ba6a58dd72', 'v4'), ('00000000-0000-0000-0000-000000000000', 'nil');
CALL uuidv7_adopt_table('legacy', '1 week', 'UTC');
\echo :LAST_ERROR_SQLSTATE
SELECT relkind FROM pg_class WHERE oid = 'legacy'::regclass;
DELETE FROM legacy WHERE uuidv7_timestamp(id) IS NULL;
CALL uuidv7_adopt_table('legacy', '1 week', 'UTC', periods_ahead => 1);
SELECT conrelid::regclass, conname, pg_get_constraintdef(oid), convalidated FROM pg_constraint
WHERE conrelid IN ('legacy'::regclass, 'legacy_adopted'::regclass) AND contype = 'c' ORDER BY conrelid::regclass::text COLLATE "C";
SELECT extract(isodow FROM period_start) AS weeks_start_on, count(*) AS partitions
FROM uuidv7_partitions('legacy') GROUP BY 1;
INSERT INTO legacy VALUES ('67fc5276-43ef-426d-85aa-22ba6a58dd72', 'v4');
\echo :LAST_ERROR_SQLSTATE
DROP TABLE legacy;

-- what it refuses
CREATE TABLE no_key (id uuid);
CALL uuidv7_adopt_table('no_key', '1 month');
\echo :LAST_ERROR_SQLSTATE
CREATE TABLE bigint_key (id bigint PRIMARY KEY);
CALL uuidv7_adopt_table('bigint_key', '1 month');
\echo :LAST_ERROR_SQLSTATE
CREATE TABLE with_identity (id uuid7 PRIMARY KEY, n bigint GENERATED ALWAYS AS IDENTITY);
CALL uuidv7_adopt_table('with_identity', '1 month');
\echo :LAST_ERROR_SQLSTATE
CREATE TABLE already (id uuid7 PRIMARY KEY) PARTITION BY RANGE (id);
CALL uuidv7_adopt_table('already', '1 month');
\echo :LAST_ERROR_SQLSTATE
-- what the swap could not take is refused before anything changes (0A000):
-- a unique index without the key, one with a predicate, an exclusion
-- constraint; the table is left as it was
CREATE TABLE unique_without_key (id uuid7 PRIMARY KEY, email text UNIQUE, code text, during tstzrange);
CREATE UNIQUE INDEX unique_code ON unique_without_key (code, id) WHERE code IS NOT NULL;
ALTER TABLE unique_without_key ADD CONSTRAINT no_overlap EXCLUDE USING gist (during WITH &&);
\set VERBOSITY default
CALL uuidv7_adopt_table('unique_without_key', '1 month');
SELECT relkind, (SELECT count(*) FROM pg_constraint WHERE conrelid = 'unique_without_key'::regclass AND contype = 'c') AS checks
FROM pg_class WHERE oid = 'unique_without_key'::regclass;
-- a typed table cannot be a partition
CREATE TYPE adopt_row AS (id uuid7);
CREATE TABLE typed OF adopt_row (PRIMARY KEY (id));
CALL uuidv7_adopt_table('typed', '1 month');
\echo :LAST_ERROR_SQLSTATE
-- a call that stopped after setting the bounds (a cancel, a crash) left
-- them as a CHECK; the table takes rows up to the end of next month, and
-- calling again finishes with the bounds it finds
CREATE TABLE stopped (id uuid7 PRIMARY KEY DEFAULT uuidv7_generate(), v int);
INSERT INTO stopped (id, v) SELECT uuidv7_generate_at(now() - g * interval '1 day'), g FROM generate_series(1, 40) g;
DO $$
BEGIN
	EXECUTE (SELECT format('ALTER TABLE stopped ADD CONSTRAINT uuidv7_adopt_bounds CHECK (id >= %L AND id < %L) NOT VALID',
						   lower_bound, upper_bound)
			 FROM uuidv7_internal.uuidv7_adopt_span('stopped', 'id', '1 month', 'UTC'));
END
$$;
INSERT INTO stopped (id, v) VALUES (uuidv7_generate_at(date_trunc('month', now()) + interval '1 month 27 days'), 0);
-- (called again with another zone, whose months its bounds do not end on:
-- refused, so that the grid it records is the one of its bounds)
-- (terse: its detail names the bounds, which are this month's)
\set VERBOSITY terse
CALL uuidv7_adopt_table('stopped', '1 month', 'Asia/Tokyo');
\echo :LAST_ERROR_SQLSTATE
\set VERBOSITY default
CALL uuidv7_adopt_table('stopped', '1 month', 'UTC');
SELECT count(*) AS row_count, sum(v) AS v_sum FROM stopped;
SELECT partition, period_end = date_trunc('month', now()) + interval '2 months' AS to_end_of_next_month
FROM uuidv7_partitions('stopped') WHERE partition::text = 'stopped_adopted';
SELECT count(*) AS constraints_left FROM pg_constraint WHERE conname = 'uuidv7_adopt_bounds';
DROP TABLE stopped;
CALL uuidv7_adopt_table('with_identity', '-1 month');
\echo :LAST_ERROR_SQLSTATE
CALL uuidv7_adopt_table('with_identity', NULL);
\echo :LAST_ERROR_SQLSTATE
-- the identity refusal's hint, done as it says, lets the adoption through,
-- and the column goes on numbering where it was
INSERT INTO with_identity (id) SELECT uuidv7_generate_at(now() - g * interval '1 day') FROM generate_series(1, 3) g;
DO $$
DECLARE
	hint text;
BEGIN
	PERFORM uuidv7_internal.uuidv7_adopt_check('with_identity');
EXCEPTION WHEN feature_not_supported THEN
	GET STACKED DIAGNOSTICS hint = PG_EXCEPTION_HINT;
	EXECUTE substr(hint, strpos(hint, '): ') + 3);
END
$$;
CALL uuidv7_adopt_table('with_identity', '1 month', 'UTC');
INSERT INTO with_identity (id) VALUES (uuidv7_generate());
SELECT relkind, (SELECT max(n) FROM with_identity) AS last_n FROM pg_class WHERE oid = 'with_identity'::regclass;
-- inside a transaction block, as migration tools run each migration, it
-- cannot commit between its steps: it says so (25001) with a hint before it
-- does anything
CREATE TABLE in_block (id uuid7 PRIMARY KEY);
BEGIN;
\set VERBOSITY default
CALL uuidv7_adopt_table('in_block', '1 month');
\echo :LAST_ERROR_SQLSTATE
ROLLBACK;
SELECT relkind FROM pg_class WHERE oid = 'in_block'::regclass;
-- the partition functions commit nothing: a migration's transaction runs them
CREATE TABLE in_migration (id uuid7 PRIMARY KEY, v int) PARTITION BY RANGE (id);
BEGIN;
SELECT count(*) FILTER (WHERE created) AS created
FROM uuidv7_create_partitions('in_migration', '2025-01-01', '2025-04-01', '1 month', 'UTC');
INSERT INTO in_migration VALUES (uuidv7_generate_at('2025-03-15 00:00+00'), 1);
SELECT count(*) AS dropped FROM uuidv7_drop_partitions('in_migration', '2025-02-01');
COMMIT;
SELECT partition, period_start FROM uuidv7_partitions('in_migration');
DROP TABLE in_migration;
DROP TABLE no_key, bigint_key, with_identity, already, in_block, unique_without_key, typed;
DROP TYPE adopt_row;
DROP ROLE "regress_adopt Reader";
