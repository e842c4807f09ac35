#!/usr/bin/env bash
# test/shell/migration_tools.sh: the migrations of docs/migrating.md ("In a migration tool")
# as they stand, through two real tools: Alembic (Debian's python3-alembic,
# on psycopg2) and node-pg-migrate (from npm).  For each, in a database of
# its own holding a live table "orders" keyed by uuid7:
#
# - first the adoption migration without its switch: the tool's transaction
#   makes uuidv7_adopt_table stop with 25001, and nothing changes (both
#   tools run the pending migrations in one transaction by default);
# - then both migrations of docs/migrating.md: a partitioned table with its first
#   periods in a transactional migration, and the adoption of "orders" in a
#   non-transactional one.  Checked: the tool succeeds, "events" has its
#   DEFAULT partition and four monthly ones, "orders" is partitioned and
#   keeps every row.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
find_pg_config

/usr/bin/python3 -c 'import alembic, psycopg2' 2>/dev/null || apt_install python3-alembic python3-psycopg2
command -v npm >/dev/null || apt_install nodejs npm

work=$(mktemp -d /tmp/uuidv7-migration-tools.XXXXXX)
chmod 755 "$work"
at_exit 'rm -rf "$work"'
(cd "$work" && npm install --silent --no-audit --no-fund node-pg-migrate@7 pg@8 >/dev/null)

# readme_block NAME: docs/migrating.md's code block marked for this test as NAME
readme_block() {
	awk -v name="$1" '$0 == "<!-- test/shell/migration_tools.sh runs this block: " name " -->" { marked = 1; next }
		marked && /^```[a-z]+$/ { inside = 1; next }
		inside && /^```$/ { exit }
		inside { print }' "$TOP/docs/migrating.md"
}

cluster_start uuidv7-migration-tools
q() { "$PG_BINDIR/psql" -X -q -At -v ON_ERROR_STOP=1 -d "$1" -c "$2"; }
new_database() { # new_database DB: uuidv7 and a live orders table of 1,000 rows
	psql_q "CREATE DATABASE $1"
	q "$1" "SET client_min_messages = warning; CREATE EXTENSION uuidv7"
	q "$1" "CREATE TABLE orders (id uuid7 PRIMARY KEY DEFAULT uuidv7_generate(), total int)"
	q "$1" "INSERT INTO orders SELECT uuidv7_generate_at(now() - g * interval '1 hour'), g FROM generate_series(1, 1000) g"
}
outcome() { # outcome DB: what the migrations left
	q "$1" "SELECT (SELECT relkind::text FROM pg_class WHERE oid = 'orders'::regclass) || ' ' || (SELECT count(*) FROM orders)
		|| ' ' || CASE WHEN to_regclass('events') IS NULL THEN 'none'
			ELSE (SELECT count(*) FILTER (WHERE period_start IS NOT NULL) || '+' || count(*) FILTER (WHERE period_start IS NULL)
				  FROM uuidv7_partitions(to_regclass('events'))) END"
}
# tool_runs LABEL DB RUN ADOPTION BLOCK: the tool's run (shell function RUN)
# with the adoption migration in file ADOPTION written without its switch,
# then as the page's BLOCK writes it; prints both outcomes (relkind and
# rows of orders, then events' periods + its DEFAULT) and fails unless the
# first stopped with 25001 having changed nothing and the second did it all
tool_runs() {
	local label=$1 db=$2 run=$3 adoption=$4 block=$5 plain plain_left rc=0 left
	plain=$("$run" 2>&1 | grep -oE 'cannot run inside a transaction block' | head -n 1) || true
	plain_left=$(outcome "$db")
	readme_block "$block" >"$adoption"
	"$run" >"$work/$db.log" 2>&1 || { rc=$?; tail -n 20 "$work/$db.log"; }
	left=$(outcome "$db")
	echo "$label, adoption without its switch: '$plain', left: $plain_left"
	echo "$label, the page's migrations: exit $rc, left: $left"
	[ "$plain" = "cannot run inside a transaction block" ] && [ "$plain_left" = "r 1000 none" ] &&
		[ "$rc" = 0 ] && [ "$left" = "p 1000 4+1" ]
}
user=$(/usr/bin/python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1]))' "$PGUSER")

# Alembic
new_database alembic_app
mkdir "$work/alembic"
# (through its API: bullseye's Alembic 1.4 has no python3 -m alembic)
(cd "$work/alembic" && /usr/bin/python3 -c 'from alembic import command
from alembic.config import Config
command.init(Config("alembic.ini"), "migrations")' >/dev/null)
readme_block "alembic 0001_events.py" >"$work/alembic/migrations/versions/0001_events.py"
cat >"$work/alembic/migrations/versions/0002_adopt_orders.py" <<'PY'
revision = "0002_adopt_orders"
down_revision = "0001_events"

from alembic import op


def upgrade():
    op.execute("CALL uuidv7_adopt_table('orders', '1 month', 'UTC')")
PY
alembic_upgrade() {
	(cd "$work/alembic" && /usr/bin/python3 - "postgresql+psycopg2://$user@/alembic_app?host=$PGHOST&port=$PGPORT" <<'PY'
import sys
from alembic import command
from alembic.config import Config
cfg = Config()
cfg.set_main_option("script_location", "migrations")
cfg.set_main_option("sqlalchemy.url", sys.argv[1].replace("%", "%%"))
command.upgrade(cfg, "head")
PY
	)
}
failed=0
tool_runs Alembic alembic_app alembic_upgrade "$work/alembic/migrations/versions/0002_adopt_orders.py" \
	"alembic 0002_adopt_orders.py" || failed=1

# node-pg-migrate
new_database npm_app
mkdir "$work/migrations"
readme_block "node-pg-migrate 1700000000001_events.js" >"$work/migrations/1700000000001_events.js"
cat >"$work/migrations/1700000000002_adopt_orders.js" <<'JS'
exports.up = (pgm) => {
  pgm.sql("CALL uuidv7_adopt_table('orders', '1 month', 'UTC')");
};
JS
npm_up() {
	(cd "$work" && DATABASE_URL="postgres://$user@/npm_app?host=$PGHOST&port=$PGPORT" \
		./node_modules/.bin/node-pg-migrate up -m migrations)
}
tool_runs node-pg-migrate npm_app npm_up "$work/migrations/1700000000002_adopt_orders.js" \
	"node-pg-migrate 1700000000002_adopt_orders.js" || failed=1
[ "$failed" = 0 ]
