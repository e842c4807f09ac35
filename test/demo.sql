-- The main job: the life of a table keyed and range-partitioned by month on
-- its UUIDv7 primary key, with no created_at column.  Partitions are made
-- ahead by the extension, a row that came early is rescued from the DEFAULT
-- partition, old months are retired, and a day is queried by time.
\set ON_ERROR_STOP on
\pset footer off
SET TimeZone = 'UTC';
SET client_min_messages = warning;

CREATE EXTENSION uuidv7;
-- compare keys with times directly (a superuser opts in, per database)
CREATE EXTENSION uuidv7_time_ops;

\echo
\echo '== A table partitioned on its key, with a DEFAULT partition for rows no month is made for yet'
CREATE TABLE orders (
	id uuid7 PRIMARY KEY DEFAULT uuidv7_generate(),
	customer text NOT NULL,
	amount numeric(10, 2) NOT NULL
) PARTITION BY RANGE (id);
CREATE TABLE orders_default PARTITION OF orders DEFAULT;

-- one instant stands for now throughout, so that the months counted below
-- do not change if the month turns while the demo runs
SELECT now() AS now \gset

\echo
\echo '== A month each, from a year ago to next month, as a migration or a scheduler makes them'
SELECT * FROM uuidv7_create_partitions('orders', date_trunc('month', :'now'::timestamptz - interval '12 months'),
									   :'now'::timestamptz + interval '1 month', '1 month', 'UTC');

\echo
\echo '== A year of orders backfilled with ids made at their own times; new orders take the default'
INSERT INTO orders (id, customer, amount)
SELECT uuidv7_generate_at(t), 'customer ' || g % 100, (g % 500) + 0.99
FROM generate_series(date_trunc('month', :'now'::timestamptz - interval '12 months'), :'now'::timestamptz,
					 interval '17 minutes')
	WITH ORDINALITY AS s(t, g);
INSERT INTO orders (customer, amount) VALUES ('alice', 42.00), ('bob', 17.50)
RETURNING id, uuidv7_timestamp(id) AS created_at, tableoid::regclass AS partition;

\echo
\echo '== A client with a clock of its own made an id three months ahead: it waits in the DEFAULT partition'
INSERT INTO orders (id, customer, amount)
VALUES (uuidv7_generate_at(:'now'::timestamptz + interval '3 months'), 'carol', 5.00)
RETURNING id, uuidv7_timestamp(id) AS created_at, tableoid::regclass AS partition;

\echo
\echo '== The scheduler makes the next months; the early row moves into its month'
SELECT * FROM uuidv7_create_partitions('orders', date_trunc('month', :'now'::timestamptz),
									   :'now'::timestamptz + interval '4 months', '1 month', 'UTC');

\echo
\echo '== Retention: the months that ended over six months ago are detached, kept as tables to archive'
SELECT * FROM uuidv7_drop_partitions('orders', :'now'::timestamptz - interval '6 months', detach_only => true);

\echo
\echo '== The partitions, with the months their bounds stand for'
SELECT p.partition, p.period_start, p.period_end,
	(SELECT count(*) FROM orders o WHERE o.tableoid = p.partition) AS orders
FROM uuidv7_partitions('orders') p;

ANALYZE orders;

-- one day of last month; constant times, so the planner prunes to one
-- partition at plan time and uses its index
\set day `date -u -d "$(date -u +%Y-%m-01) -1 month +9 days" +%F`
\set next_day `date -u -d "$(date -u +%Y-%m-01) -1 month +10 days" +%F`
\echo
\echo '== One day of last month, by time: one partition, through its primary key'
EXPLAIN (COSTS OFF)
SELECT count(*), sum(amount) FROM orders
WHERE id >= :'day'::timestamptz AND id < :'next_day'::timestamptz;

SELECT count(*), sum(amount) FROM orders
WHERE id >= :'day'::timestamptz AND id < :'next_day'::timestamptz;

\echo
\echo '== Ids as people read and type them, and their times read back from the key'
SELECT uuidv7_to_base32(id) AS base32, uuidv7_to_base32_grouped(id) AS grouped,
	uuidv7_timestamp(id) AS created_at, customer, amount
FROM orders
WHERE id >= :'day'::timestamptz AND id < :'next_day'::timestamptz
ORDER BY id LIMIT 3;

SELECT id, uuidv7_from_base32(uuidv7_to_base32_grouped(id)) = id AS round_trip
FROM orders WHERE customer = 'carol';
