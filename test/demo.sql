-- The main job: a table keyed and range-partitioned by month on a UUIDv7
-- primary key, with no created_at column.
\set ON_ERROR_STOP on
\pset footer off
SET TimeZone = 'UTC';

CREATE EXTENSION uuidv7;

CREATE TABLE orders (
	id uuid7 PRIMARY KEY DEFAULT uuidv7_generate(),
	customer text NOT NULL,
	amount numeric(10, 2) NOT NULL
) PARTITION BY RANGE (id);

-- one partition per month, from three months ago to next month; bounds are
-- the smallest UUIDv7 of each month's first instant, so they tile exactly
DO $$
DECLARE
	m timestamptz;
BEGIN
	FOR m IN SELECT generate_series(date_trunc('month', now()) - interval '3 months',
									date_trunc('month', now()) + interval '1 month',
									interval '1 month')
	LOOP
		EXECUTE format('CREATE TABLE %I PARTITION OF orders FOR VALUES FROM (%L) TO (%L)',
					   'orders_' || to_char(m, 'YYYY_MM'),
					   uuidv7_min(m), uuidv7_min(m + interval '1 month'));
	END LOOP;
END
$$;

\d+ orders

-- backfill three months of history: ids made at the time of each old order
INSERT INTO orders (id, customer, amount)
SELECT uuidv7_generate_at(date_trunc('month', now()) - interval '3 months' + g * interval '9 minutes'),
	'customer ' || g % 100, (g % 500) + 0.99
FROM generate_series(1, 30000) g
WHERE date_trunc('month', now()) - interval '3 months' + g * interval '9 minutes' < now();

-- live rows take the default
INSERT INTO orders (customer, amount) VALUES ('alice', 42.00), ('bob', 17.50)
RETURNING id, uuidv7_timestamp(id) AS created_at;

ANALYZE orders;

SELECT tableoid::regclass AS partition, count(*),
	min(uuidv7_timestamp(id)) AS first_order, max(uuidv7_timestamp(id)) AS last_order
FROM orders GROUP BY 1 ORDER BY 1;

-- one day of last month: the bounds of constant times fold to constants at
-- plan time, so the planner prunes to one partition and uses its index.
-- (Write both times as literals: timestamptz + interval depends on TimeZone,
-- so it is only STABLE and would leave pruning to the executor.)
\set day `date -u -d "$(date -u +%Y-%m-01) -1 month +9 days" +%F`
\set next_day `date -u -d "$(date -u +%Y-%m-01) -1 month +10 days" +%F`
EXPLAIN (COSTS OFF)
SELECT count(*), sum(amount) FROM orders
WHERE id >= uuidv7_min(:'day') AND id < uuidv7_min(:'next_day');

SELECT count(*), sum(amount) FROM orders
WHERE id >= uuidv7_min(:'day') AND id < uuidv7_min(:'next_day');

-- the time of each order, read back from its key
SELECT id, uuidv7_timestamp(id) AS created_at, customer, amount
FROM orders
WHERE id >= uuidv7_min(:'day') AND id < uuidv7_min(:'next_day')
ORDER BY id LIMIT 5;
