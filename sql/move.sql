-- uuidv7_move_waiting_rows (C edition): the rows of a period that waited
-- in the DEFAULT partition move into the period's table as they are, every
-- column, wide values and all, whatever the DEFAULT partition's own column
-- order and dropped columns; the tables' indexes answer for them after; what
-- it refuses

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

-- what it refuses: tables not locked by the caller, a target that is not
-- new and empty, a column that is not a uuid, a role that owns neither
CREATE TABLE not_new (LIKE moves);
SELECT uuidv7_move_waiting_rows('moves_default', 'not_new', 'id', uuidv7_min('2025-03-01'), uuidv7_min('2025-04-01'));
\echo :LAST_ERROR_SQLSTATE
BEGIN;
LOCK moves_default, not_new IN ACCESS EXCLUSIVE MODE;
SELECT uuidv7_move_waiting_rows('moves_default', 'not_new', 'id', uuidv7_min('2025-03-01'), uuidv7_min('2025-04-01'));
\echo :LAST_ERROR_SQLSTATE
ROLLBACK;
BEGIN;
CREATE TABLE fresh (LIKE moves);
LOCK moves_default IN ACCESS EXCLUSIVE MODE;
SELECT uuidv7_move_waiting_rows('moves_default', 'fresh', 'note', uuidv7_min('2025-03-01'), uuidv7_min('2025-04-01'));
\echo :LAST_ERROR_SQLSTATE
ROLLBACK;
BEGIN;
CREATE TABLE fresh (LIKE moves);
LOCK moves_default IN ACCESS EXCLUSIVE MODE;
SELECT uuidv7_move_waiting_rows('moves_default', 'moves_default', 'id', uuidv7_min('2025-03-01'), uuidv7_min('2025-04-01'));
\echo :LAST_ERROR_SQLSTATE
ROLLBACK;
CREATE ROLE regress_move_stranger;
GRANT ALL ON moves, moves_default TO regress_move_stranger;
BEGIN;
SET LOCAL ROLE regress_move_stranger;
CREATE TEMP TABLE theirs (LIKE moves);
LOCK moves_default IN ACCESS EXCLUSIVE MODE;
SELECT uuidv7_move_waiting_rows('moves_default', 'theirs', 'id', uuidv7_min('2025-03-01'), uuidv7_min('2025-04-01'));
\echo :LAST_ERROR_SQLSTATE
ROLLBACK;
DROP OWNED BY regress_move_stranger;
DROP ROLE regress_move_stranger;
SELECT count(*) AS rows_still_there FROM moves;
DROP TABLE moves, not_new;
