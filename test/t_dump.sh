#!/usr/bin/env bash
# test/t_dump.sh: the application database of test/app.sql dumped with pg_dump
# in custom format and as plain SQL, and restored into a fresh cluster: the
# schema dumps again identically, every table holds the same rows, and
# everything still works.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
find_pg_config

work=$(mktemp -d /tmp/uuidv7-dump.XXXXXX)
chmod 777 "$work"
cluster_start uuidv7-dump-source
trap 'rm -rf "$work"; cluster_stop_all' EXIT
app_create
as_pg_user "$PG_BINDIR/pg_dump" -d app -Fc -f "$work/app.dump"
as_pg_user "$PG_BINDIR/pg_dump" -d app -f "$work/app.sql"
app_schema "$PGHOST" "$PGPORT" app >"$work/source-schema.sql"
app_digests "$PGHOST" "$PGPORT" app >"$work/source-data.txt"

cluster_start uuidv7-dump-target
trap 'rm -rf "$work"; cluster_stop_all' EXIT
psql_q "CREATE DATABASE from_custom"
psql_q "CREATE DATABASE from_plain"
as_pg_user "$PG_BINDIR/pg_restore" -d from_custom --exit-on-error "$work/app.dump"
"$PG_BINDIR/psql" -X -q -v ON_ERROR_STOP=1 -d from_plain -f "$work/app.sql" >/dev/null

status=0
for db in from_custom from_plain; do
	app_schema "$PGHOST" "$PGPORT" "$db" >"$work/$db-schema.sql"
	app_digests "$PGHOST" "$PGPORT" "$db" >"$work/$db-data.txt"
	works=$(app_works "$db")
	if diff -q "$work/source-schema.sql" "$work/$db-schema.sql" >/dev/null &&
		diff -q "$work/source-data.txt" "$work/$db-data.txt" >/dev/null && [ "$works" = "0 t 2 t" ]; then
		echo "$db: identical schema, identical data ($(head -n 1 "$work/$db-data.txt")...), working"
	else
		echo "$db: differs"
		diff "$work/source-schema.sql" "$work/$db-schema.sql" | head -20 || true
		diff "$work/source-data.txt" "$work/$db-data.txt" || true
		echo "checks: $works"
		status=1
	fi
done
exit $status
