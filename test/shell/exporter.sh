#!/usr/bin/env bash
# test/shell/exporter.sh: docs/monitoring/queries.yaml in Debian's
# prometheus-postgres-exporter, as docs/monitoring.md sets it up.  A cluster
# with two tables partitioned on a uuid7 key: orders, healthy (its periods a
# month ahead, an empty DEFAULT partition, a policy that ran), and events,
# run out (its last period, the day of three days ago, has ended, five rows
# waiting in its DEFAULT partition, no policy).  The exporter connects as a
# role of its own (pg_monitor, and SELECT on the tables and their DEFAULT
# partitions), with its default metrics off and the queries file added;
# /metrics, scraped over HTTP, must hold each of the file's metrics for each
# table, with the labels datname, parent and server, and the value each
# table has (exact where it is fixed, within bounds where it is a time).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
find_pg_config
ensure_packages prometheus-postgres-exporter curl

work=$(mktemp -d /tmp/uuidv7-exporter.XXXXXX)
chmod 755 "$work"
at_exit 'rm -rf "$work"'

cluster_start uuidv7-exporter
psql_q "CREATE DATABASE app" >/dev/null
"$PG_BINDIR/psql" -X -q -d app -v ON_ERROR_STOP=1 >/dev/null <<'SQL'
SET client_min_messages = warning;
SET TimeZone = 'UTC';
CREATE EXTENSION uuidv7;
CREATE TABLE orders (id uuid7 PRIMARY KEY DEFAULT uuidv7_generate(), total int) PARTITION BY RANGE (id);
CREATE TABLE orders_default PARTITION OF orders DEFAULT;
SELECT uuidv7_set_partition_policy('orders', ahead => '1 month', keep => '1 year', step => '1 day', zone => 'UTC');
INSERT INTO orders (total) SELECT g FROM generate_series(1, 10) g;
CREATE TABLE events (id uuid7 PRIMARY KEY DEFAULT uuidv7_generate()) PARTITION BY RANGE (id);
CREATE TABLE events_default PARTITION OF events DEFAULT;
-- (the days from nine to three days ago, counted from one now() in UTC as
-- its periods are: the last ends two to three days before that now, well
-- inside the scrape's bounds even where a day begins before the scrape)
SELECT count(*) FROM uuidv7_create_partitions('events', now() - interval '9 days', now() - interval '3 days', '1 day', 'UTC');
INSERT INTO events SELECT FROM generate_series(1, 5);
-- the exporter's role, as docs/monitoring.md makes it
CREATE ROLE uuidv7_exporter LOGIN;
GRANT pg_monitor TO uuidv7_exporter;
GRANT SELECT ON orders, orders_default, events, events_default TO uuidv7_exporter;
SQL
orders_partitions=$(PGDATABASE=app psql_q "SELECT count(*) FROM uuidv7_partitions('orders') WHERE partition <> 'orders_default'::regclass")
[ "$orders_partitions" -gt 28 ] || { echo "orders has $orders_partitions partitions"; exit 1; }

# the exporter, on a port of its own on the loopback
port=$((20000 + RANDOM % 10000))
DATA_SOURCE_NAME="host=$PGHOST port=$PGPORT user=uuidv7_exporter dbname=app sslmode=disable" \
	prometheus-postgres-exporter --disable-default-metrics --disable-settings-metrics \
	--extend.query-path="$TOP/docs/monitoring/queries.yaml" --web.listen-address="127.0.0.1:$port" \
	>"$work/exporter.log" 2>&1 &
exporter=$!
at_exit "kill $exporter 2>/dev/null || true"
for _ in $(seq 100); do
	curl -sf "http://127.0.0.1:$port/metrics" >"$work/metrics" 2>/dev/null && grep -q '^uuidv7_' "$work/metrics" && break
	sleep 0.2
done

/usr/bin/python3 - "$work/metrics" "$PGHOST:$PGPORT" "$orders_partitions" <<'PY' || { cat "$work/exporter.log"; exit 1; }
import math, re, sys

metrics, server, orders_partitions = sys.argv[1], sys.argv[2], int(sys.argv[3])
series = {}
for line in open(metrics):
    m = re.fullmatch(r'(uuidv7_\w+)\{([^}]*)\} (\S+)\n', line)
    if m:
        labels = dict(re.findall(r'(\w+)="([^"]*)"', m.group(2)))
        series[(m.group(1), labels.get("parent"))] = (labels, float(m.group(3)))

day = 86400
nan = math.isnan
expected = {
    # name: (orders, events), each a value or a test of one
    "uuidv7_partitions": (orders_partitions, 7),
    "uuidv7_seconds_until_last_period_ends": (lambda v: 27 * day < v < 33 * day, lambda v: -4 * day < v < -2 * day),
    "uuidv7_default_rows": (0, 5),
    "uuidv7_default_rows_estimated": (0, 0),
    "uuidv7_periods_past_keep": (0, 0),
    "uuidv7_seconds_since_last_success": (lambda v: 0 <= v < 600, nan),
    "uuidv7_last_run_failed": (0, nan),
}
problems = []
for name, values in expected.items():
    for parent, want in zip(("public.orders", "public.events"), values):
        if (name, parent) not in series:
            problems.append(f"no {name} for {parent}")
            continue
        labels, value = series[(name, parent)]
        if labels != {"datname": "app", "parent": parent, "server": server}:
            problems.append(f"{name} for {parent}: labels {labels}")
        if not (want(value) if callable(want) else value == want):
            problems.append(f"{name} for {parent}: {value}")
extra = sorted({k for k in series} - {(n, p) for n in expected for p in ("public.orders", "public.events")})
if extra:
    problems.append(f"series not expected: {extra}")
for p in problems:
    print("exporter:", p)
print(f"exporter: {len(series)} series of uuidv7, {len(problems)} problems")
sys.exit(1 if problems else 0)
PY
