#!/usr/bin/env bash
# test/shell/citus.sh: uuidv7 on a Citus cluster, a coordinator and two workers
# (a third joins later), each a throwaway cluster on its own socket.
#
# The Citus release that serves the major is built once from the vendored
# source (test/vendor, checked by its sha256; CITUS_TARBALL names another
# copy), staged into /var/cache/uuidv7 and copied into the server's
# directories: 13.2.2 on PostgreSQL 15 to 17, 14.0.1 on 18 (Citus 14 dropped
# 15 and added 18).  No Citus serves 13 or 19: there the test is skipped
# (77).  The same checks hold on both releases:
#
# - CREATE, ALTER EXTENSION ... UPDATE and DROP of uuidv7 on the coordinator
#   reach the workers, and a worker added later gets the extensions;
# - the tenant pattern: (tenant_id, id uuid7) range-partitioned by id and
#   distributed by tenant_id; partitions made by uuidv7_create_partitions
#   before and after distribution are distributed; rows inserted one by one
#   and by INSERT ... SELECT are all there, ids unique, counts per period as
#   inserted; a tenant's time range, in the uuidv7_min form and with the time
#   operators, is one task scanning one partition; uuidv7_partitions,
#   uuidv7_drop_partitions and the rescue of rows from a DEFAULT partition
#   work on it; a multi-shard time-range aggregate gives the single-node
#   answer; a policy on it runs on the coordinator (CALL
#   uuidv7_run_maintenance()), its new periods distributed, its old one
#   dropped, each run recorded, and no worker holds a policy;
# - a table distributed by its key, a plain uuid with the v7 CHECK: lookups,
#   updates and deletes by literal and by parameter are one task and correct,
#   a version 4 id is refused (23514);
# - partitions made inside a transaction block; a volatile call such as
#   uuidv7_generate() in an UPDATE is refused by Citus (0A000), routed or not;
# - Citus's create_time_partitions and drop_old_time_partitions manage a
#   tenant-distributed table keyed by plain uuid through the casts of
#   uuidv7_time_ops, and refuse a uuid7 column;
# - what Citus does with a distribution column typed uuid7 (the README warns
#   against it): a lookup by a uuid literal finds nothing and an INSERT of a
#   literal fails with XX000.  UPDATE and DELETE by a literal crash the
#   backend in this Citus and are not run; uuidv7_doctor() flags that table
#   and no other.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
find_pg_config

case $PG_MAJOR in
	15 | 16 | 17) CITUS_VERSION=13.2.2 CITUS_SHA256=dd2453caec20a830e5e63f1def5c5a98cb6f57ae510407cdcd800916fcdab430 ;;
	18) CITUS_VERSION=14.0.1 CITUS_SHA256=acfa9a77cd84a8e1edab26cca4a71355f39c910c01586da89560e0240d4b05ba ;;
	*)
		echo "no Citus release supports PostgreSQL $PG_MAJOR (13.2.2: 15 to 17, 14.0.1: 16 to 18): skipped"
		exit 77
		;;
esac
CITUS_TARBALL=${CITUS_TARBALL:-$TOP/test/vendor/citus-$CITUS_VERSION.tar.gz}
echo "Citus $CITUS_VERSION on PostgreSQL $PG_MAJOR"
if [ "$(sha256sum <"$CITUS_TARBALL" | cut -d' ' -f1)" != "$CITUS_SHA256" ]; then
	echo "$CITUS_TARBALL is not Citus $CITUS_VERSION's source (sha256 differs)" >&2
	exit 1
fi

work=$(mktemp -d /tmp/uuidv7-citus.XXXXXX)
chmod 755 "$work"
at_exit 'rm -rf "$work"'

# install_citus: Citus built for the server of PG_CONFIG, once, staged in the
# cache (keyed by the server's version and place) and copied into place
install_citus() {
	local key stage src curl=--without-libcurl
	# Citus takes HAVE_LIBCURL from the server's pg_config.h too: where the
	# server has it (Debian's 18, for OAuth), Citus's code uses libcurl and
	# must be linked with it (its statistics collection is turned off below)
	grep -q '^#define HAVE_LIBCURL 1' "$("$PG_CONFIG" --includedir-server)/pg_config.h" && curl=--with-libcurl
	key="citus-$CITUS_VERSION-$("$PG_CONFIG" --version | tr -c 'A-Za-z0-9.\n' '-')$(md5sum <<<"$PG_CONFIG" | cut -c1-8)$curl"
	stage=$PG_CACHE/$key
	if [ ! -f "$stage.done" ]; then
		echo "== building Citus $CITUS_VERSION for $("$PG_CONFIG" --version)"
		apt_install libkrb5-dev liblz4-dev libzstd-dev libicu-dev libcurl4-openssl-dev
		mkdir -p "$work/citus"
		tar -xzf "$CITUS_TARBALL" -C "$work/citus"
		src=$work/citus/citus-$CITUS_VERSION
		# 15.20's headers declare have_createdb_privilege(), which Citus 13
		# copies as a static function for 15 (see test/vendor/README.md;
		# Citus 14 has no such copy)
		sed -i 's/^have_createdb_privilege(void)$/citus_compat_have_createdb_privilege(void)/' \
			"$src/src/include/pg_version_compat.h"
		(cd "$src" && ./configure $curl PG_CONFIG="$PG_CONFIG" >"$work/configure.log" 2>&1 &&
			make -s -j"$(nproc)" with_llvm=no >"$work/make.log" 2>&1 &&
			rm -rf "$stage.tmp" && make -s install with_llvm=no DESTDIR="$stage.tmp" >"$work/install.log" 2>&1) ||
			{ tail -n 40 "$work"/*.log; return 1; }
		rm -rf "$stage"
		mv "$stage.tmp" "$stage"
		touch "$stage.done"
	fi
	as_root cp -a "$stage/." /
}
mkdir -p "$PG_CACHE"
install_citus

# three nodes; Citus reaches each over its socket
declare -A dir port
for node in coordinator worker1 worker2 worker3; do
	cluster_start "uuidv7-citus-$node" "shared_preload_libraries = 'citus'" "max_connections = 100" \
		"citus.node_conninfo = 'sslmode=disable'" "max_worker_processes = 16" \
		"citus.enable_statistics_collection = off"
	dir[$node]=$CLUSTER_DIR
	port[$node]=$PGPORT
	"$PG_BINDIR/psql" -X -q -v ON_ERROR_STOP=1 -c "CREATE EXTENSION citus" >/dev/null
done
export PGHOST=${dir[coordinator]} PGPORT=${port[coordinator]}
coord() { "$PG_BINDIR/psql" -X -q -At -v ON_ERROR_STOP=1 "$@"; }
coord >/dev/null <<SQL
SELECT citus_set_coordinator_host('${dir[coordinator]}', ${port[coordinator]});
SELECT citus_add_node('${dir[worker1]}', ${port[worker1]});
SELECT citus_add_node('${dir[worker2]}', ${port[worker2]});
SQL
on_workers() { # the distinct answers of the workers to a query
	coord -c "SELECT string_agg(DISTINCT result, ',') FROM run_command_on_workers(\$\$$1\$\$)"
}
out=$work/out.txt
: >"$out"

# the extension's life reaches the workers
coord -c "SET client_min_messages = warning; CREATE EXTENSION uuidv7 VERSION '0.2.0'"
echo "workers after create: $(on_workers "SELECT extversion FROM pg_extension WHERE extname = 'uuidv7'")" >>"$out"
coord -c "ALTER EXTENSION uuidv7 UPDATE"
echo "workers after update: $(on_workers "SELECT extversion FROM pg_extension WHERE extname = 'uuidv7'")" >>"$out"
coord -c "DROP EXTENSION uuidv7"
echo "workers after drop: $(on_workers "SELECT count(*) FROM pg_extension WHERE extname = 'uuidv7'")" >>"$out"
coord -c "SET client_min_messages = warning; CREATE EXTENSION uuidv7; CREATE EXTENSION uuidv7_time_ops"
echo "workers after create again: $(on_workers "SELECT string_agg(extname || ' ' || extversion, ' ' ORDER BY extname) FROM pg_extension WHERE extname LIKE 'uuidv7%'")" >>"$out"

# the tenant pattern
coord >>"$out" <<'SQL'
SET client_min_messages = warning;
SET TimeZone = 'UTC';
CREATE TABLE events (
	tenant_id int NOT NULL,
	id uuid7 NOT NULL DEFAULT uuidv7_generate(),
	payload int,
	PRIMARY KEY (tenant_id, id)
) PARTITION BY RANGE (id);
SELECT 'partitions before distribution: ' || count(*) FROM uuidv7_create_partitions('events', '2025-01-01', '2025-04-01', '1 month', 'UTC');
SELECT 'distributed: ' || create_distributed_table('events', 'tenant_id')::text;
SELECT 'partitions after distribution: ' || count(*) FROM uuidv7_create_partitions('events', '2025-04-01', '2025-06-01', '1 month', 'UTC');
SELECT 'partitions distributed: ' || count(*) FROM uuidv7_partitions('events') p
	JOIN pg_dist_partition d ON d.logicalrelid = p.partition;
-- rows one by one, and by INSERT ... SELECT: 20 tenants, five months, one row an hour
INSERT INTO events (tenant_id, id, payload) VALUES (1, uuidv7_generate_at('2025-01-15 12:00:00+00'), -1);
INSERT INTO events (tenant_id, id, payload) VALUES (2, uuidv7_generate_at('2025-05-15 12:00:00+00'), -1);
INSERT INTO events (tenant_id, id, payload)
SELECT t, uuidv7_generate_at(timestamptz '2025-01-01 00:00:00+00' + h * interval '1 hour'), h
FROM generate_series(1, 20) t, generate_series(0, 3623) h;
SELECT 'rows: ' || count(*) || ' distinct ids: ' || count(DISTINCT id) FROM events;
SELECT 'rows per month: ' || string_agg(n::text, ' ' ORDER BY m) FROM (
	SELECT date_trunc('month', uuidv7_timestamp(id)) AS m, count(*) AS n FROM events GROUP BY 1) s;
-- (a row's tableoid is its shard's on a worker: each partition is asked)
CREATE TEMP TABLE outside (n bigint);
DO $$
DECLARE
	p record;
	n bigint;
BEGIN
	FOR p IN SELECT * FROM uuidv7_partitions('events') LOOP
		EXECUTE format('SELECT count(*) FROM %s WHERE uuidv7_timestamp(id) < %L OR uuidv7_timestamp(id) >= %L',
					   p.partition, p.period_start, p.period_end) INTO n;
		INSERT INTO outside VALUES (n);
	END LOOP;
END
$$;
SELECT 'rows outside their period: ' || sum(n) || ' in ' || count(*) || ' partitions' FROM outside;
SQL
# a tenant's day is one task reading one partition, in both forms
for form in "id >= uuidv7_min('2025-02-10 00:00+00') AND id < uuidv7_min('2025-02-11 00:00+00')" \
	"id >= '2025-02-10 00:00+00'::timestamptz AND id < '2025-02-11 00:00+00'::timestamptz"; do
	plan=$(coord -c "SET citus.explain_all_tasks = on; EXPLAIN (COSTS OFF) SELECT count(*) FROM events WHERE tenant_id = 7 AND $form")
	tasks=$(sed -nE 's/.*Task Count: ([0-9]+).*/\1/p' <<<"$plan")
	# (shards are named <partition>_<shard id>)
	tables=$(grep -oE 'events_p[0-9]{4}_[0-9]{2}' <<<"$plan" | sort -u | tr '\n' ' ')
	echo "tenant day ($([[ $form == *uuidv7_min* ]] && echo min || echo ops)): $tasks task, ${tables% }" >>"$out"
done
coord >>"$out" <<'SQL'
SET TimeZone = 'UTC';
SELECT 'tenant day rows: ' || count(*) FROM events
WHERE tenant_id = 7 AND id >= '2025-02-10 00:00+00'::timestamptz AND id < '2025-02-11 00:00+00'::timestamptz;
-- a multi-shard aggregate over a time range, against the same rows on one node
CREATE TABLE events_local AS SELECT * FROM events;
SELECT 'aggregate equal: ' || ((SELECT sum(payload) FILTER (WHERE tenant_id % 3 = 0) || '/' || count(*) FROM events
								 WHERE id >= '2025-02-03 05:00+00'::timestamptz AND id < '2025-04-17 00:00+00'::timestamptz)
							  = (SELECT sum(payload) FILTER (WHERE tenant_id % 3 = 0) || '/' || count(*) FROM events_local
								 WHERE uuidv7_timestamp(id) >= '2025-02-03 05:00+00' AND uuidv7_timestamp(id) < '2025-04-17 00:00+00'));
-- retention on the distributed table
SELECT 'dropped: ' || string_agg(partition, ' ') FROM uuidv7_drop_partitions('events', '2025-02-01 00:00+00');
SELECT 'partitions left: ' || count(*) FROM uuidv7_partitions('events');
SQL

# a worker added later gets the extensions
coord -c "SELECT citus_add_node('${dir[worker3]}', ${port[worker3]})" >/dev/null
echo "worker added later: $(PGHOST=${dir[worker3]} PGPORT=${port[worker3]} "$PG_BINDIR/psql" -X -At \
	-c "SELECT string_agg(extname || ' ' || extversion, ' ' ORDER BY extname) FROM pg_extension WHERE extname LIKE 'uuidv7%'")" >>"$out"

# distributed by the key itself, the recommended way: plain uuid + the CHECK
coord >>"$out" <<'SQL'
SET client_min_messages = warning;
CREATE TABLE items (id uuid PRIMARY KEY DEFAULT uuidv7_generate() CHECK (uuidv7_domain_check(id)), n int);
SELECT 'items distributed: ' || create_distributed_table('items', 'id')::text;
INSERT INTO items (id, n) VALUES ('01941f29-7c00-7abc-8def-0123456789ab', 1);
INSERT INTO items (n) SELECT g FROM generate_series(1, 1000) g;
SELECT 'items literal lookup: ' || count(*) FROM items WHERE id = '01941f29-7c00-7abc-8def-0123456789ab';
PREPARE item(uuid) AS SELECT count(*) AS found FROM items WHERE id = $1;
EXECUTE item('01941f29-7c00-7abc-8def-0123456789ab') \gset
\echo items parameter lookup: :found
UPDATE items SET n = 2 WHERE id = '01941f29-7c00-7abc-8def-0123456789ab';
SELECT 'items update: ' || n FROM items WHERE id = '01941f29-7c00-7abc-8def-0123456789ab';
PREPARE upd(uuid, int) AS UPDATE items SET n = $2 WHERE id = $1;
EXECUTE upd('01941f29-7c00-7abc-8def-0123456789ab', 3);
SELECT 'items update by parameter: ' || n FROM items WHERE id = '01941f29-7c00-7abc-8def-0123456789ab';
PREPARE del(uuid) AS DELETE FROM items WHERE id = $1;
EXECUTE del('01941f29-7c00-7abc-8def-0123456789ab');
SELECT 'items delete: ' || count(*) FROM items WHERE id = '01941f29-7c00-7abc-8def-0123456789ab';
INSERT INTO items (id, n) VALUES ('01941f29-7c00-7abc-8def-0123456789ac', 4);
DELETE FROM items WHERE id = '01941f29-7c00-7abc-8def-0123456789ac';
SELECT 'items delete by literal: ' || count(*) FROM items WHERE id = '01941f29-7c00-7abc-8def-0123456789ac';
SELECT 'items rows: ' || count(*) FROM items;
SQL
plan=$(coord -c "EXPLAIN (COSTS OFF) SELECT * FROM items WHERE id = '01941f29-7c00-7abc-8def-0123456789ab'")
echo "items lookup tasks: $(sed -nE 's/.*Task Count: ([0-9]+).*/\1/p' <<<"$plan")" >>"$out"
plan=$(coord -c "PREPARE p(uuid) AS SELECT * FROM items WHERE id = \$1; EXPLAIN (COSTS OFF) EXECUTE p('01941f29-7c00-7abc-8def-0123456789ab')")
echo "items parameter tasks: $(sed -nE 's/.*Task Count: ([0-9]+).*/\1/p' <<<"$plan")" >>"$out"
plan=$(coord -c "EXPLAIN (COSTS OFF) DELETE FROM items WHERE id = '01941f29-7c00-7abc-8def-0123456789ab'")
echo "items delete tasks: $(sed -nE 's/.*Task Count: ([0-9]+).*/\1/p' <<<"$plan")" >>"$out"
err=$(coord -c "INSERT INTO items (id, n) VALUES (gen_random_uuid(), 0)" 2>&1 || true)
echo "items v4: $(grep -oE 'violates check constraint|not a version 7 UUID' <<<"$err" | head -n 1)" >>"$out"

# volatile functions on the cluster: defaults and uuidv7_generate_at() are
# evaluated on the coordinator for routed inserts (checked above); partition
# creation inside a transaction block; a volatile call in an UPDATE
coord >>"$out" 2>&1 <<'SQL' || true
SET client_min_messages = warning;
BEGIN;
SELECT 'created in a transaction block: ' || count(*) FROM uuidv7_create_partitions('events', '2025-06-01', '2025-08-01', '1 month', 'UTC');
INSERT INTO events (tenant_id, id, payload) VALUES (3, uuidv7_generate_at('2025-07-04 00:00+00'), 0);
COMMIT;
SELECT 'rows in July: ' || count(*) FROM events WHERE id >= '2025-07-01 00:00+00'::timestamptz;
\set ON_ERROR_STOP off
UPDATE events SET payload = uuidv7_unix_ms(uuidv7_generate()) % 1000 WHERE tenant_id = 3 AND id >= '2025-07-01 00:00+00'::timestamptz;
\echo volatile in a routed UPDATE: :LAST_ERROR_SQLSTATE
UPDATE events SET payload = uuidv7_unix_ms(uuidv7_generate()) % 1000 WHERE id >= '2025-07-01 00:00+00'::timestamptz;
\echo volatile in a multi-shard UPDATE: :LAST_ERROR_SQLSTATE
SQL

# the DEFAULT rescue on a distributed table
coord >>"$out" 2>&1 <<'SQL' || true
SET client_min_messages = warning;
CREATE TABLE events_default PARTITION OF events DEFAULT;
INSERT INTO events (tenant_id, id, payload) SELECT t, uuidv7_generate_at('2025-09-10 00:00+00'), 9 FROM generate_series(1, 20) t;
\set ON_ERROR_STOP off
SELECT 'rescue: ' || string_agg(partition_name || ' moved ' || moved, ', ') FROM uuidv7_create_partitions('events', '2025-09-01', '2025-10-01', '1 month', 'UTC');
\echo rescue error: :LAST_ERROR_SQLSTATE
SELECT 'rescued rows: ' || count(*) FROM events WHERE id >= '2025-09-01 00:00+00'::timestamptz AND id < '2025-10-01 00:00+00'::timestamptz;
SELECT 'left in default: ' || count(*) FROM events_default;
SELECT 'rescued partition distributed: ' || count(*) FROM pg_dist_partition WHERE logicalrelid = 'events_p2025_09'::regclass;
SQL

# a policy on a distributed table, run on the coordinator: the periods
# ahead, and those of the three months kept since the old one, made when
# the policy is given and distributed, the old one dropped by the run, each
# run recorded; the workers hold no policy (their shards are not
# partitioned tables of the config)
coord >>"$out" 2>&1 <<'SQL' || true
SET client_min_messages = warning;
-- (UTC, the zone of the table's grid: the months checked below are counted
-- from now() in the session's zone, as UTC months)
SET TimeZone = 'UTC';
CREATE TABLE kept (tenant_id int NOT NULL, id uuid7 NOT NULL DEFAULT uuidv7_generate(), PRIMARY KEY (tenant_id, id))
	PARTITION BY RANGE (id);
SELECT create_distributed_table('kept', 'tenant_id') IS NULL AS kept_distributed \gset
-- (the months below follow the UTC month of now(), in statements and runs
-- that commit apart: begin after a month that ends within two minutes)
DO $$ BEGIN PERFORM pg_sleep(extract(epoch FROM b - clock_timestamp()) + 0.1) FROM (SELECT date_trunc('month', clock_timestamp() + interval '2 min', 'UTC') AS b) s WHERE b > clock_timestamp(); END $$;
SELECT (date_trunc('month', now() AT TIME ZONE 'UTC') - interval '6 months') AT TIME ZONE 'UTC' AS old_month \gset
SELECT count(*) AS old_made FROM uuidv7_create_partitions('kept', :'old_month', :'old_month'::timestamptz + interval '1 day', '1 month', 'UTC') \gset
INSERT INTO kept (tenant_id, id) SELECT t, uuidv7_generate_at(:'old_month'::timestamptz + interval '1 hour') FROM generate_series(1, 10) t;
SELECT uuidv7_set_partition_policy('kept', ahead => '2 months', keep => '3 months') IS NULL AS kept_policy \gset
\set ON_ERROR_STOP off
CALL uuidv7_run_maintenance();
\echo policy run: :LAST_ERROR_SQLSTATE
CALL uuidv7_run_maintenance();
SELECT 'policy runs: ' || string_agg(format('%s created %s retired %s error %s', parent, created, retired, coalesce(sqlstate, 'none')), '; ' ORDER BY started_at)
FROM uuidv7_maintenance_runs;
SELECT 'policy partitions: ' || count(*) || ' distributed ' || count(d.logicalrelid) || ' from three months back ' ||
	bool_and(p.period_start >= (date_trunc('month', now() AT TIME ZONE 'UTC') - interval '3 months') AT TIME ZONE 'UTC')
FROM uuidv7_partitions('kept') p LEFT JOIN pg_dist_partition d ON d.logicalrelid = p.partition::regclass;
INSERT INTO kept (tenant_id) SELECT t FROM generate_series(1, 10) t;
SELECT 'policy rows: ' || count(*) FROM kept;
SQL
echo "policy on workers: $(on_workers "SELECT count(*) FROM uuidv7_partition_policies")" >>"$out"

# Citus's own partition management through the casts of uuidv7_time_ops,
# on a tenant-distributed table keyed by plain uuid with the CHECK; a uuid7
# column it refuses
coord >>"$out" 2>&1 <<'SQL' || true
SET client_min_messages = warning;
SET TimeZone = 'UTC';
CREATE TABLE visits (
	tenant_id int NOT NULL,
	id uuid NOT NULL DEFAULT uuidv7_generate() CHECK (uuidv7_domain_check(id)),
	PRIMARY KEY (tenant_id, id)
) PARTITION BY RANGE (id);
SELECT create_distributed_table('visits', 'tenant_id') IS NULL AS visits_distributed \gset
-- (this month, taken once: it cannot turn between the statements)
SELECT date_trunc('month', now()) AS month \gset
SELECT 'citus create_time_partitions: ' || create_time_partitions('visits', '1 month',
	:'month'::timestamptz + interval '3 months', :'month'::timestamptz - interval '3 months');
SELECT 'citus partitions: ' || count(*) || ' on month starts ' || bool_and(period_start = date_trunc('month', period_start)
	AND period_end = period_start + interval '1 month') FROM uuidv7_partitions('visits');
INSERT INTO visits (tenant_id) SELECT g FROM generate_series(1, 10) g;
INSERT INTO visits (tenant_id, id) VALUES (1, uuidv7_generate_at(:'month'::timestamptz - interval '2 months'));
CALL drop_old_time_partitions('visits', :'month'::timestamptz - interval '1 month');
SELECT 'citus partitions after drop_old_time_partitions: ' || count(*) || ', first last month '
	|| (min(period_start) = :'month'::timestamptz - interval '1 month') FROM uuidv7_partitions('visits');
SELECT 'visits rows: ' || count(*) FROM visits;
CREATE TABLE visits7 (tenant_id int NOT NULL, id uuid7 NOT NULL, PRIMARY KEY (tenant_id, id)) PARTITION BY RANGE (id);
SELECT create_distributed_table('visits7', 'tenant_id') IS NULL AS visits7_distributed \gset
\set ON_ERROR_STOP off
SELECT create_time_partitions('visits7', '1 month', now() + interval '1 month');
\echo citus create_time_partitions on uuid7: :LAST_ERROR_SQLSTATE
SQL

# the pattern the README warns against: a distribution column typed uuid7
coord >>"$out" 2>&1 <<'SQL' || true
SET client_min_messages = warning;
CREATE TABLE keyed7 (id uuid7 PRIMARY KEY, n int);
SELECT 'keyed7 distributed: ' || create_distributed_table('keyed7', 'id')::text;
INSERT INTO keyed7 SELECT uuidv7_generate(), g FROM generate_series(1, 100) g;
INSERT INTO keyed7 SELECT '01941f29-7c00-7abc-8def-0123456789ab', 0;
SELECT 'keyed7 rows by cast: ' || count(*) FROM keyed7 WHERE id = '01941f29-7c00-7abc-8def-0123456789ab'::uuid7;
SELECT 'keyed7 rows by uuid literal: ' || count(*) FROM keyed7 WHERE id = '01941f29-7c00-7abc-8def-0123456789ab';
SELECT 'doctor: ' || string_agg(severity || ' ' || object, ', ' ORDER BY object) FROM uuidv7_doctor()
WHERE problem LIKE '%distributed by column%';
\set ON_ERROR_STOP off
INSERT INTO keyed7 VALUES ('01941f29-7c00-7abc-8def-0123456789ac', 1);
\echo keyed7 insert of a literal: :LAST_ERROR_SQLSTATE
SQL
cat "$out"

value() { sed -n "s/^$1: //p" "$out"; }
[ "$(value "workers after create")" = 0.2.0 ] &&
	[ "$(value "workers after update")" = 0.3.0 ] &&
	[ "$(value "workers after drop")" = 0 ] &&
	[ "$(value "workers after create again")" = "uuidv7 0.3.0 uuidv7_time_ops 0.3.0" ] &&
	[ "$(value "partitions before distribution")" = 3 ] &&
	[ "$(value "partitions after distribution")" = 2 ] &&
	[ "$(value "partitions distributed")" = 5 ] &&
	[ "$(value rows)" = "72482 distinct ids: 72482" ] &&
	[ "$(value "rows outside their period")" = "0 in 5 partitions" ] &&
	[ "$(value "tenant day (min)")" = "1 task, events_p2025_02" ] &&
	[ "$(value "tenant day (ops)")" = "1 task, events_p2025_02" ] &&
	[ "$(value "tenant day rows")" = 24 ] &&
	[ "$(value "aggregate equal")" = true ] &&
	[ "$(value dropped)" = "public.events_p2025_01" ] &&
	[ "$(value "partitions left")" = 4 ] &&
	[ "$(value "worker added later")" = "uuidv7 0.3.0 uuidv7_time_ops 0.3.0" ] &&
	[ "$(value "items literal lookup")" = 1 ] &&
	[ "$(value "items parameter lookup")" = 1 ] &&
	[ "$(value "items update")" = 2 ] &&
	[ "$(value "items update by parameter")" = 3 ] &&
	[ "$(value "items delete")" = 0 ] &&
	[ "$(value "items delete by literal")" = 0 ] &&
	[ "$(value "items rows")" = 1000 ] &&
	[ "$(value "items lookup tasks")" = 1 ] &&
	[ "$(value "items parameter tasks")" = 1 ] &&
	[ "$(value "items delete tasks")" = 1 ] &&
	[ -n "$(value "items v4")" ] &&
	[ "$(value "created in a transaction block")" = 2 ] &&
	[ "$(value "rows in July")" = 1 ] &&
	[ "$(value "volatile in a routed UPDATE")" = 0A000 ] &&
	[ "$(value "volatile in a multi-shard UPDATE")" = 0A000 ] &&
	[ "$(value rescue)" = "public.events_p2025_09 moved 20" ] &&
	[ "$(value "rescued rows")" = 20 ] &&
	[ "$(value "left in default")" = 0 ] &&
	[ "$(value "rescued partition distributed")" = 1 ] &&
	[ "$(value "policy run")" = 00000 ] &&
	[ "$(value "policy runs")" = "public.kept created 6 retired 0 error none; public.kept created 0 retired 1 error none; public.kept created 0 retired 0 error none" ] &&
	[ "$(value "policy partitions")" = "6 distributed 6 from three months back true" ] &&
	[ "$(value "policy rows")" = 10 ] &&
	[ "$(value "policy on workers")" = 0 ] &&
	[ "$(value "citus create_time_partitions")" = true ] &&
	[ "$(value "citus partitions")" = "6 on month starts true" ] &&
	[ "$(value "citus partitions after drop_old_time_partitions")" = "4, first last month true" ] &&
	[ "$(value "visits rows")" = 10 ] &&
	[ "$(value "citus create_time_partitions on uuid7")" = P0001 ] &&
	[ "$(value "keyed7 rows by cast")" = 1 ] &&
	[ "$(value "keyed7 rows by uuid literal")" = 0 ] &&
	[ "$(value "keyed7 insert of a literal")" = XX000 ] &&
	[ "$(value doctor)" = "error public.keyed7" ]
