-- test/data/app.sql: the application database that the dump, restore and upgrade
-- tests carry across: the uuid7 domain, defaults, a generated column, monthly
-- partitions on the key, expression and BRIN indexes, a view using the
-- time operators of uuidv7, and uuidv7_time_ops beside them.
SET client_min_messages = warning;
CREATE EXTENSION uuidv7;
CREATE EXTENSION uuidv7_time_ops;
CREATE TABLE orders (
	id uuid7 PRIMARY KEY DEFAULT uuidv7_generate(),
	created_at timestamptz GENERATED ALWAYS AS (uuidv7_timestamp(id)) STORED,
	customer text NOT NULL,
	total numeric(10, 2)
) PARTITION BY RANGE (id);
SELECT count(*) FROM uuidv7_create_partitions('orders', '2025-01-01', '2025-07-01', '1 month', 'UTC');
CREATE INDEX orders_customer_idx ON orders (customer);
-- a table whose grid only its record tells (days of Havana, whose clocks
-- move at midnight: its partitions' bounds fit neither UTC's days nor a
-- session's other zone)
CREATE TABLE shifts (id uuid7 PRIMARY KEY) PARTITION BY RANGE (id);
SELECT count(*) FROM uuidv7_create_partitions('shifts', '2026-03-06 12:00-05', '2026-03-08 12:00-04', '1 day', 'America/Havana');
-- a table dropped since: its record is not dumped (a restore refuses it)
CREATE TABLE gone (id uuid7 PRIMARY KEY) PARTITION BY RANGE (id);
SELECT count(*) FROM uuidv7_create_partitions('gone', '2025-01-01', '2025-02-01', '1 month', 'UTC');
DROP TABLE gone;
INSERT INTO orders (id, customer, total)
SELECT uuidv7_generate_at('2025-01-01 00:00:00+00'::timestamptz + g * interval '3 minutes'), 'c' || g % 97, g % 1000
FROM generate_series(0, 80000) g;
CREATE TABLE events (id uuid7 NOT NULL DEFAULT uuidv7_generate(), kind text);
INSERT INTO events (kind) SELECT 'k' || g % 5 FROM generate_series(1, 20000) g;
CREATE INDEX events_brin ON events USING brin (id);
CREATE INDEX events_time_idx ON events (uuidv7_timestamp(id));
CREATE INDEX events_suffix_idx ON events (right(uuidv7_to_base32_grouped(id), 9));
CREATE VIEW recent_orders AS
	SELECT * FROM orders WHERE id >= '2025-06-01 00:00:00+00'::timestamptz;
VACUUM ANALYZE;
