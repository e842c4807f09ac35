#!/usr/bin/env bash
# test/t_pgupgrade.sh: pg_upgrade of a cluster holding the application
# database of test/app.sql, from the server of OLD_PG_CONFIG (the previous
# major the suite tests; default: the same server) to the server of
# PG_CONFIG.  Every row survives, the schema is the one a dump of the old
# cluster restored into the new server gives (both are printed by the new
# server: views, for one, are printed differently from PostgreSQL 16 on),
# and everything works, by the checks of test/t/004_dump.pl.  The time operators
# of uuidv7 keep their index through it (the planner inlines them into
# comparisons of uuids); those of uuidv7_time_ops survive too, but pg_upgrade
# drops their membership in core's operator families, which
# uuidv7_time_ops_status() reports and uuidv7_time_ops_repair() restores;
# dropping that extension then leaves none of it behind.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
find_pg_config
new_bindir=$PG_BINDIR
old_bindir=$("${OLD_PG_CONFIG:-$PG_CONFIG}" --bindir)
old_version=$("$old_bindir/postgres" --version | sed -E 's/^[^0-9]*([0-9][^ ]*).*/\1/')
echo "pg_upgrade from PostgreSQL $old_version to $("$new_bindir/postgres" --version | sed -E 's/^[^0-9]*([0-9][^ ]*).*/\1/')"

q() { "$PG_BINDIR/psql" -X -q -At -v ON_ERROR_STOP=1 -d app -c "$1"; }

work=$(mktemp -d /tmp/uuidv7-upgrade.XXXXXX)
chmod 777 "$work"
PG_BINDIR=$old_bindir
cluster_start uuidv7-upgrade-old
at_exit 'rm -rf "$work"'
old=$CLUSTER_DIR old_port=$PGPORT
app_create
plan_query="EXPLAIN (COSTS OFF) SELECT count(*) FROM orders
	WHERE id OPERATOR(uuidv7_time_ops.>=) '2025-02-10 00:00:00+00'::timestamptz
		AND id OPERATOR(uuidv7_time_ops.<) '2025-02-11 00:00:00+00'::timestamptz"
inlined_query="EXPLAIN (COSTS OFF) SELECT count(*) FROM orders
	WHERE id >= '2025-02-10 00:00:00+00'::timestamptz AND id < '2025-02-11 00:00:00+00'::timestamptz"
as_pg_user "$new_bindir/pg_dump" -d app -Fc -f "$work/app.dump"
app_digests "$PGHOST" "$PGPORT" app >"$work/before-data.txt"
before_plan=$(q "$plan_query")
before_inlined=$(q "$inlined_query")
checksums=$(q "SHOW data_checksums")
as_pg_user "$old_bindir/pg_ctl" -D "$old/data" -m fast -w stop >/dev/null

# the new cluster's data checksums must match the old one's; initdb turns
# them on by default from PostgreSQL 18 (its help read whole, not through a
# pipe into grep -q, which may end initdb with SIGPIPE and pipefail the test)
PG_BINDIR=$new_bindir
initdb_help=$("$new_bindir/initdb" --help)
if [ "$checksums" = on ]; then
	INITDB_OPTS=--data-checksums
elif grep -q -- --no-data-checksums <<<"$initdb_help"; then
	INITDB_OPTS=--no-data-checksums
fi
cluster_init uuidv7-upgrade-new
new=$CLUSTER_DIR
(cd "$new" && as_pg_user "$new_bindir/pg_upgrade" -b "$old_bindir" -B "$new_bindir" -U "$PGUSER" \
	-d "$old/data" -D "$new/data" -p "$old_port" -P "$PGPORT" -s "$new" >"$new/pg_upgrade.log" 2>&1) ||
	{ tail -n 30 "$new/pg_upgrade.log"; tail -n 20 "$new"/data/pg_upgrade_output.d/*/log/*.log; exit 1; }
cluster_run

missing=$(q "SELECT count(*) FROM uuidv7_time_ops_status() WHERE NOT present")
lost_plan=$(q "$plan_query")
# pg_upgrade carries no planner statistics over: gather them as it advises
q "VACUUM ANALYZE"
# (uuidv7's operators, before the repair)
inlined_plan=$(q "$inlined_query")
repaired=$(q "SELECT count(*) FROM uuidv7_time_ops_repair()")
repaired_plan=$(q "$plan_query")
app_schema "$PGHOST" "$PGPORT" app >"$work/after-schema.sql"
app_digests "$PGHOST" "$PGPORT" app >"$work/after-data.txt"
psql_q "CREATE DATABASE restored"
as_pg_user "$new_bindir/pg_restore" -d restored --exit-on-error "$work/app.dump"
app_schema "$PGHOST" "$PGPORT" restored >"$work/restored-schema.sql"
works=$(app_works app)
# removing the extension also removes the members the repair added
q "DROP VIEW recent_orders; DROP EXTENSION uuidv7_time_ops"
left_over=$(q "SELECT (SELECT count(*) FROM pg_amop WHERE 'timestamptz'::regtype IN (amoplefttype, amoprighttype)
		AND 'uuid'::regtype IN (amoplefttype, amoprighttype))
	+ (SELECT count(*) FROM pg_amproc WHERE amproclefttype = 'uuid'::regtype
		AND amprocrighttype IN ('timestamptz'::regtype, 'interval'::regtype))")

same_schema=$(diff -q "$work/restored-schema.sql" "$work/after-schema.sql" >/dev/null && echo yes || echo no)
[ "$same_schema" = yes ] || diff "$work/restored-schema.sql" "$work/after-schema.sql" | head -40
same_data=$(diff -q "$work/before-data.txt" "$work/after-data.txt" >/dev/null && echo yes || echo no)
echo "same schema as a dump restored: $same_schema, same rows: $same_data ($(head -n 1 "$work/after-data.txt")...), working: $works"
echo "family members missing after pg_upgrade: $missing; added by repair: $repaired; left after DROP EXTENSION: $left_over"
echo "plan before:"; echo "$before_plan"
echo "plan after pg_upgrade:"; echo "$lost_plan"
echo "plan after repair:"; echo "$repaired_plan"
echo "uuidv7's operators after pg_upgrade, before any repair (the same as before it):"; echo "$inlined_plan"
[ "$same_schema" = yes ] && [ "$same_data" = yes ] && [ "$works" = "0 t 2 t" ] &&
	[ "$missing" -gt 0 ] && [ "$repaired" = "$missing" ] && [ "$left_over" = 0 ] &&
	grep -q "Index Only Scan using orders_p2025_02_pkey" <<<"$before_plan" &&
	! grep -q "Index" <<<"$lost_plan" && [ "$repaired_plan" = "$before_plan" ] &&
	grep -q "Index Only Scan using orders_p2025_02_pkey" <<<"$inlined_plan" && [ "$inlined_plan" = "$before_inlined" ]
