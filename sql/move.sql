-- uuidv7_attach_period (C edition), as uuidv7_create_partitions calls it:
-- the rows of a period that waited in the DEFAULT partition move into the
-- period's table as they are, every column, wide values and all, whatever
-- the DEFAULT partition's own column order and dropped columns; the tables'
-- indexes answer for them after; constraints and foreign keys come out as
-- PostgreSQL's own partitions have them; what it refuses

SELECT count(set_config(name, boot_val, false)) > 0 AS settings_pinned FROM pg_settings
WHERE name ~ '^enable_' OR name IN ('client_min_messages', 'extra_float_digits', 'jit',
	'max_parallel_workers_per_gather', 'plan_cache_mode', 'default_statistics_target', 'effective_cache_size',
	'random_page_cost', 'seq_page_cost', 'cpu_tuple_cost', 'cpu_index_tuple_cost', 'cpu_operator_cost',
	'parallel_setup_cost', 'parallel_tuple_cost', 'min_parallel_table_scan_size', 'min_parallel_index_scan_size');
SET TimeZone = 'UTC';
SET DateStyle = 'ISO';
\set VERBOSITY terse

CREATE TABLE moves (id uuid7 PRIMARY KEY, note text, n int, at timestamptz GENERATED ALWAYS AS (uuidv7_timestamp(id)) STORED)
PARTITION BY RANGE (id);
CREATE INDEX ON moves (n);
-- a DEFAULT partition made apart, with its columns in another order and a
-- dropped one, as an older schema leaves it
CREATE TABLE moves_default (gone int, n int, note text, id uuid7 NOT NULL,
							at timestamptz GENERATED ALWAYS AS (uuidv7_timestamp(id)) STORED);
ALTER TABLE moves_default DROP COLUMN gone;
ALTER TABLE moves ATTACH PARTITION moves_default DEFAULT;
SELECT count(*) FROM uuidv7_create_partitions('moves', '2025-01-01', '2025-02-01', '1 month', 'UTC');
-- rows of February and March wait in DEFAULT: some with values kept out of
-- line (TOAST), some deleted and updated since
INSERT INTO moves (id, note, n)
SELECT uuidv7_min('2025-02-01 00:00+00'::timestamptz + g * interval '7 hours'),
	CASE WHEN g % 10 = 0 THEN repeat(md5(g::text), 400) ELSE 'row ' || g END, g
FROM generate_series(0, 199) g;
DELETE FROM moves WHERE n % 7 = 0;
UPDATE moves SET note = note || ' updated' WHERE n % 5 = 0;
CREATE TEMP TABLE before AS SELECT id, note, n, at FROM moves;
SELECT partition_name, created, moved FROM uuidv7_create_partitions('moves', '2025-02-01', '2025-03-01', '1 month', 'UTC');
-- every row where its key says, with every value as it was
SELECT tableoid::regclass AS partition, count(*) FROM moves GROUP BY 1 ORDER BY tableoid::regclass::text COLLATE "C";
SELECT count(*) AS differing FROM (
	(SELECT id, note, n, at FROM moves EXCEPT ALL SELECT * FROM before)
	UNION ALL (SELECT * FROM before EXCEPT ALL SELECT id, note, n, at FROM moves)) d;
-- the moved rows through the period's indexes, the others through DEFAULT's
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT n FROM moves WHERE id = uuidv7_min('2025-02-01 07:00+00');
SELECT n FROM moves WHERE id = uuidv7_min('2025-02-01 07:00+00');
SELECT count(*), sum(n) FROM moves WHERE n BETWEEN 1 AND 400;
SELECT count(*), sum(n) FROM before WHERE n BETWEEN 1 AND 400;
RESET enable_seqscan;
RESET enable_bitmapscan;
-- the period's table may hold transaction ids as old as DEFAULT's
SELECT age(p.relfrozenxid) >= age(d.relfrozenxid) AS horizon_kept
FROM pg_class p, pg_class d WHERE p.oid = 'moves_p2025_02'::regclass AND d.oid = 'moves_default'::regclass;
-- a period with nothing waiting rewrites nothing: DEFAULT keeps its file
SELECT pg_relation_filenode('moves_default') AS default_file \gset
SELECT partition_name, moved FROM uuidv7_create_partitions('moves', '2025-05-01', '2025-06-01', '1 month', 'UTC');
SELECT pg_relation_filenode('moves_default') = :default_file AS same_file;

-- the parent's NOT VALID CHECK stays NOT VALID on the new partition (rows
-- that waited need not satisfy it), so that no query leaves them out
CREATE TABLE nv (id uuid PRIMARY KEY, v int) PARTITION BY RANGE (id);
CREATE TABLE nv_default PARTITION OF nv DEFAULT;
INSERT INTO nv SELECT uuidv7_min('2025-03-01 00:00+00'::timestamptz + g * interval '1 hour'), -g FROM generate_series(1, 10) g;
ALTER TABLE nv ADD CONSTRAINT v_positive CHECK (v > 0) NOT VALID;
SELECT partition_name, moved FROM uuidv7_create_partitions('nv', '2025-03-01', '2025-04-01', '1 month', 'UTC');
SELECT conrelid::regclass, convalidated FROM pg_constraint WHERE conname = 'v_positive' ORDER BY conrelid::regclass::text COLLATE "C";
SELECT count(*) AS negative FROM nv WHERE v < 0;
DROP TABLE nv;

-- a foreign key of the table to itself: ATTACH makes the new partition's,
-- as for a partition made by CREATE TABLE ... PARTITION OF, and rows of the
-- new period may reference rows of any period
CREATE TABLE sr (id uuid PRIMARY KEY, parent_id uuid REFERENCES sr ON DELETE CASCADE, n int) PARTITION BY RANGE (id);
CREATE TABLE sr_default PARTITION OF sr DEFAULT;
SELECT count(*) FROM uuidv7_create_partitions('sr', '2025-01-01', '2025-02-01', '1 month', 'UTC');
INSERT INTO sr VALUES (uuidv7_min('2025-01-01 00:00+00'), NULL, 1), (uuidv7_min('2025-03-01 00:00+00'), NULL, 2);
SELECT partition_name, moved FROM uuidv7_create_partitions('sr', '2025-03-01', '2025-04-01', '1 month', 'UTC');
INSERT INTO sr VALUES (uuidv7_min('2025-03-05 00:00+00'), uuidv7_min('2025-01-01 00:00+00'), 3),
	(uuidv7_min('2025-03-06 00:00+00'), uuidv7_min('2025-03-01 00:00+00'), 4);
SELECT count(*) AS stray_foreign_keys FROM pg_constraint
WHERE contype = 'f' AND conparentid = 0 AND conrelid IN (SELECT partition FROM uuidv7_partitions('sr'));
-- and a cascade through it does what it does on a twin whose partitions
-- CREATE TABLE ... PARTITION OF made (PostgreSQL 13 does not cascade across
-- the partitions of a table referencing itself, in either)
CREATE TABLE tw (id uuid PRIMARY KEY, parent_id uuid REFERENCES tw ON DELETE CASCADE, n int) PARTITION BY RANGE (id);
CREATE TABLE tw_default PARTITION OF tw DEFAULT;
SELECT ddl FROM uuidv7_partition_ddl('tw', '2025-01-01', '2025-02-01', '1 month', 'UTC') \gexec
SELECT ddl FROM uuidv7_partition_ddl('tw', '2025-03-01', '2025-04-01', '1 month', 'UTC') \gexec
INSERT INTO tw SELECT * FROM sr;
DELETE FROM sr WHERE n = 1;
DELETE FROM tw WHERE n = 1;
SELECT (SELECT array_agg(n ORDER BY n) FROM sr) = (SELECT array_agg(n ORDER BY n) FROM tw) AS same_as_partition_of,
	(SELECT count(*) FROM sr WHERE n IN (2, 4)) AS others_kept;
DROP TABLE sr, tw;

-- a DEFAULT partition that is itself partitioned: its rows move by DELETE
-- and INSERT (uuidv7_copy_waiting_rows)
CREATE TABLE pd (id uuid NOT NULL, k int NOT NULL) PARTITION BY RANGE (id);
CREATE TABLE pd_default PARTITION OF pd DEFAULT PARTITION BY LIST (k);
CREATE TABLE pd_default_1 PARTITION OF pd_default FOR VALUES IN (1);
INSERT INTO pd VALUES (uuidv7_min('2025-03-02 00:00+00'), 1), (uuidv7_min('2025-05-02 00:00+00'), 1);
SELECT partition_name, moved FROM uuidv7_create_partitions('pd', '2025-03-01', '2025-04-01', '1 month', 'UTC');
SELECT tableoid::regclass AS partition, count(*) FROM pd GROUP BY 1 ORDER BY tableoid::regclass::text COLLATE "C";
DROP TABLE pd;

-- what it refuses: a parent that is not partitioned on a uuid, tables not
-- locked by the caller, a target that is not new and empty, a role that
-- owns neither
CREATE TABLE not_new (LIKE moves);
BEGIN;
CREATE TABLE fresh (LIKE moves);
LOCK moves_default, fresh IN ACCESS EXCLUSIVE MODE;
SELECT uuidv7_internal.uuidv7_attach_period('moves_default', 'fresh', uuidv7_min('2025-03-01'), uuidv7_min('2025-04-01'));
\echo :LAST_ERROR_SQLSTATE
ROLLBACK;
SELECT uuidv7_internal.uuidv7_attach_period('moves', 'not_new', uuidv7_min('2025-03-01'), uuidv7_min('2025-04-01'));
\echo :LAST_ERROR_SQLSTATE
BEGIN;
LOCK moves, moves_default, not_new IN ACCESS EXCLUSIVE MODE;
SELECT uuidv7_internal.uuidv7_attach_period('moves', 'not_new', uuidv7_min('2025-03-01'), uuidv7_min('2025-04-01'));
\echo :LAST_ERROR_SQLSTATE
ROLLBACK;
CREATE ROLE regress_move_stranger;
GRANT ALL ON moves, moves_default TO regress_move_stranger;
BEGIN;
SET LOCAL ROLE regress_move_stranger;
CREATE TEMP TABLE theirs (LIKE moves);
LOCK moves, moves_default IN ACCESS EXCLUSIVE MODE;
SELECT uuidv7_internal.uuidv7_attach_period('moves', 'theirs', uuidv7_min('2025-03-01'), uuidv7_min('2025-04-01'));
\echo :LAST_ERROR_SQLSTATE
ROLLBACK;
DROP OWNED BY regress_move_stranger;
DROP ROLE regress_move_stranger;
SELECT count(*) AS rows_still_there FROM moves;

-- the period's table made before a savepoint, the call after it: rolled
-- back to the savepoint, rows written into the table's file would outlive
-- the call (duplicates of DEFAULT's in a scan, none through the index);
-- refused, here and from a PL/pgSQL block whose EXCEPTION clause makes the
-- savepoint, and nothing changes
BEGIN;
CREATE TABLE early (LIKE moves INCLUDING ALL);
LOCK moves, moves_default, early IN ACCESS EXCLUSIVE MODE;
SAVEPOINT s;
SELECT uuidv7_internal.uuidv7_attach_period('moves', 'early', uuidv7_min('2025-03-01'), uuidv7_min('2025-04-01'));
\echo :LAST_ERROR_SQLSTATE
ROLLBACK TO SAVEPOINT s;
SELECT count(*) AS in_early FROM early;
SELECT count(*) AS seq, count(*) FILTER (WHERE uuidv7_timestamp(id) >= '2025-03-01') AS march FROM moves_default;
DO $$
BEGIN
	BEGIN
		PERFORM uuidv7_internal.uuidv7_attach_period('moves', 'early', uuidv7_min('2025-03-01'), uuidv7_min('2025-04-01'));
		RAISE EXCEPTION 'after the move';
	EXCEPTION WHEN others THEN
		RAISE NOTICE 'caught: %', SQLERRM;
	END;
END
$$;
SELECT count(*) AS in_early FROM early;
ROLLBACK;
SELECT count(*) AS rows_still_there FROM moves;
-- the period made inside a savepoint, as uuidv7_create_partitions makes it,
-- then rolled back to it: DEFAULT holds every row, as its scans and its
-- index both say, and no table is left
BEGIN;
SAVEPOINT before_period;
SELECT partition_name, moved FROM uuidv7_create_partitions('moves', '2025-03-01', '2025-04-01', '1 month', 'UTC');
ROLLBACK TO SAVEPOINT before_period;
COMMIT;
SELECT to_regclass('moves_p2025_03') AS left_behind;
SELECT count(*) AS seq FROM moves_default;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT count(*) AS by_index FROM moves_default WHERE id >= uuidv7_min('2025-03-01');
RESET enable_seqscan;
RESET enable_bitmapscan;

-- a period's table with constraints of its own that rows waiting in
-- DEFAULT break: NOT NULL, CHECK, UNIQUE; each refused with its SQLSTATE,
-- as an INSERT would be, and nothing moves
SET client_min_messages = warning;
BEGIN;
CREATE TABLE strict_nn (LIKE moves INCLUDING ALL);
ALTER TABLE strict_nn ALTER COLUMN note SET NOT NULL;
UPDATE moves SET note = NULL WHERE n = 171;
LOCK moves, moves_default, strict_nn IN ACCESS EXCLUSIVE MODE;
SELECT uuidv7_internal.uuidv7_attach_period('moves', 'strict_nn', uuidv7_min('2025-03-01'), uuidv7_min('2025-04-01'));
\echo :LAST_ERROR_SQLSTATE
ROLLBACK;
BEGIN;
CREATE TABLE strict_ck (LIKE moves INCLUDING ALL, CONSTRAINT small_n CHECK (n < 150));
LOCK moves, moves_default, strict_ck IN ACCESS EXCLUSIVE MODE;
SELECT uuidv7_internal.uuidv7_attach_period('moves', 'strict_ck', uuidv7_min('2025-03-01'), uuidv7_min('2025-04-01'));
\echo :LAST_ERROR_SQLSTATE
ROLLBACK;
BEGIN;
CREATE TABLE strict_uq (LIKE moves INCLUDING ALL, CONSTRAINT one_n_per_day UNIQUE (id, n));
CREATE UNIQUE INDEX strict_uq_at ON strict_uq ((n % 3));
LOCK moves, moves_default, strict_uq IN ACCESS EXCLUSIVE MODE;
SELECT uuidv7_internal.uuidv7_attach_period('moves', 'strict_uq', uuidv7_min('2025-03-01'), uuidv7_min('2025-04-01'));
\echo :LAST_ERROR_SQLSTATE
ROLLBACK;
-- a period's table with a foreign key or a trigger of its own, which the
-- moved rows would pass unchecked: refused (ATTACH gives it the parent's)
CREATE TABLE colours (note text PRIMARY KEY);
BEGIN;
CREATE TABLE strict_fk (LIKE moves INCLUDING ALL, CONSTRAINT known_note FOREIGN KEY (note) REFERENCES colours);
LOCK moves, moves_default, strict_fk IN ACCESS EXCLUSIVE MODE;
SELECT uuidv7_internal.uuidv7_attach_period('moves', 'strict_fk', uuidv7_min('2025-03-01'), uuidv7_min('2025-04-01'));
\echo :LAST_ERROR_SQLSTATE
ROLLBACK;
BEGIN;
CREATE TABLE with_trigger (LIKE moves INCLUDING ALL);
CREATE FUNCTION pg_temp.keep() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$;
CREATE TRIGGER keep BEFORE INSERT ON with_trigger FOR EACH ROW EXECUTE FUNCTION pg_temp.keep();
LOCK moves, moves_default, with_trigger IN ACCESS EXCLUSIVE MODE;
SELECT uuidv7_internal.uuidv7_attach_period('moves', 'with_trigger', uuidv7_min('2025-03-01'), uuidv7_min('2025-04-01'));
\echo :LAST_ERROR_SQLSTATE
ROLLBACK;
BEGIN;
CREATE TABLE with_policy (LIKE moves INCLUDING ALL);
ALTER TABLE with_policy ENABLE ROW LEVEL SECURITY;
LOCK moves, moves_default, with_policy IN ACCESS EXCLUSIVE MODE;
SELECT uuidv7_internal.uuidv7_attach_period('moves', 'with_policy', uuidv7_min('2025-03-01'), uuidv7_min('2025-04-01'));
\echo :LAST_ERROR_SQLSTATE
ROLLBACK;
BEGIN;
CREATE TABLE with_rule (LIKE moves INCLUDING ALL);
CREATE RULE nothing AS ON INSERT TO with_rule DO INSTEAD NOTHING;
LOCK moves, moves_default, with_rule IN ACCESS EXCLUSIVE MODE;
SELECT uuidv7_internal.uuidv7_attach_period('moves', 'with_rule', uuidv7_min('2025-03-01'), uuidv7_min('2025-04-01'));
\echo :LAST_ERROR_SQLSTATE
ROLLBACK;
DROP TABLE colours;
RESET client_min_messages;
SELECT count(*) AS rows_still_there, count(*) FILTER (WHERE tableoid = 'moves_default'::regclass) AS waiting FROM moves;
DROP TABLE moves, not_new;

-- (uuidv7_drop_partitions, on a table whose key has an operator class of
-- its own schema: PostgreSQL names its operators in the partitions' bounds,
-- and every period before the cut is retired all the same; before: none)
CREATE SCHEMA own_ops;
CREATE OPERATOR own_ops.< (LEFTARG = uuid, RIGHTARG = uuid, FUNCTION = uuid_lt);
CREATE OPERATOR own_ops.<= (LEFTARG = uuid, RIGHTARG = uuid, FUNCTION = uuid_le);
CREATE OPERATOR own_ops.= (LEFTARG = uuid, RIGHTARG = uuid, FUNCTION = uuid_eq);
CREATE OPERATOR own_ops.>= (LEFTARG = uuid, RIGHTARG = uuid, FUNCTION = uuid_ge);
CREATE OPERATOR own_ops.> (LEFTARG = uuid, RIGHTARG = uuid, FUNCTION = uuid_gt);
CREATE OPERATOR CLASS own_ops.uuid_ops FOR TYPE uuid USING btree AS
	OPERATOR 1 own_ops.<, OPERATOR 2 own_ops.<=, OPERATOR 3 own_ops.=, OPERATOR 4 own_ops.>=, OPERATOR 5 own_ops.>,
	FUNCTION 1 uuid_cmp(uuid, uuid);
CREATE TABLE own_ops_keyed (id uuid NOT NULL) PARTITION BY RANGE (id own_ops.uuid_ops);
SELECT count(*) FROM uuidv7_create_partitions('own_ops_keyed', '2024-01-01 00:00+00', '2024-04-01 00:00+00', '1 month', 'UTC');
SELECT partition, action FROM uuidv7_drop_partitions('own_ops_keyed', '2024-03-01 00:00+00');
DROP TABLE own_ops_keyed;
SET client_min_messages = warning;
DROP SCHEMA own_ops CASCADE;
RESET client_min_messages;
