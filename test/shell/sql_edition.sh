#!/usr/bin/env bash
# test/shell/sql_edition.sh: the SQL edition on this major, on a copy of the
# server that holds no file of the C edition (test/lib.sh server_copy):
#
#   - as files (make -C sql-edition install, no compiler): the pg_regress
#     suites both editions share (REGRESS_SQL_EDITION), run by a role without
#     superuser that creates the (trusted) extension in its own database, and
#     the test of look-alikes planted in the schema (security), which needs a
#     superuser to set up;
#   - a database using it, dumped and restored onto this major's server with
#     the C edition: the schema dumps again identically, the rows are the
#     same, and the C edition serves it; and its dump from there restored
#     onto the SQL edition again;
#   - the plain script, run twice by a role without superuser into a schema
#     of its own: the same functions as the extension, and a table
#     partitioned by time lives through it;
#   - the examples of README.md and docs/ (test/shell/docs.sh), but for what
#     needs the C edition;
#   - through pg_tle (built from test/vendor/, 13 to 18): a role with
#     pgtle_admin and no superuser installs the extension (its script run
#     twice), which the suites then run on; and a next version, made from
#     these sources as a release makes one, is registered beside it and
#     reached by ALTER EXTENSION UPDATE, with the rows unchanged and the
#     objects of a fresh install.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
find_pg_config
C_PG_CONFIG=$PG_CONFIG

work=$(mktemp -d /tmp/uuidv7-sqled.XXXXXX)
chmod 755 "$work"
at_exit 'rm -rf "$work"'
status=0

# the SQL edition, assembled from the sources out of the tree
edition=$work/edition
sql_edition_build "$work"

# pg_tle, built once per server into the cache, staged by its paths
TLE_VERSION=1.5.2
TLE_SHA256=8fb28f2a79d452ebd244a072f5eee7570894abca3112fbb27df033f78003480f
tle_stage=
case $PG_MAJOR in
	13 | 14 | 15 | 16 | 17 | 18)
		tarball=$TOP/test/vendor/pg_tle-$TLE_VERSION.tar.gz
		if [ "$(sha256sum <"$tarball" | cut -d' ' -f1)" != "$TLE_SHA256" ]; then
			echo "$tarball is not pg_tle $TLE_VERSION's source (sha256 differs)" >&2
			exit 1
		fi
		tle_stage=$PG_CACHE/pg_tle-$TLE_VERSION-$("$PG_CONFIG" --version | tr -c 'A-Za-z0-9.\n' '-')$(md5sum <<<"$PG_CONFIG" | cut -c1-8)
		if [ ! -f "$tle_stage.done" ]; then
			echo "== building pg_tle $TLE_VERSION for $("$PG_CONFIG" --version)"
			# (the server's headers include GSSAPI's, Debian's 15 and 17 at least)
			ensure_build_deps libkrb5-dev flex bison
			mkdir -p "$work/tle" "$PG_CACHE"
			tar -xzf "$tarball" -C "$work/tle"
			(cd "$work/tle/pg_tle-$TLE_VERSION" && make -s with_llvm=no >"$work/tle.log" 2>&1 &&
				rm -rf "$tle_stage.tmp" && make -s install with_llvm=no DESTDIR="$tle_stage.tmp" >>"$work/tle.log" 2>&1) ||
				{ tail -n 40 "$work/tle.log"; exit 1; }
			rm -rf "$tle_stage"
			mv "$tle_stage.tmp" "$tle_stage"
			touch "$tle_stage.done"
		fi
		;;
esac

# the server without the C edition, the SQL edition installed as files
PG_CONFIG=$(server_copy "$work/server")
find_pg_config
make -s -C "$edition" install >/dev/null
[ -n "$tle_stage" ] && cp -a "$tle_stage/." "$work/server/"
if ls "$("$PG_CONFIG" --pkglibdir)" | grep -q uuidv7; then
	echo "the copy of the server holds a library of uuidv7" >&2
	exit 1
fi
echo "PostgreSQL $PG_MAJOR without the C edition: $(ls "$("$PG_CONFIG" --sharedir)/extension" | grep '^uuidv7' | tr '\n' ' ')"

cluster_start uuidv7-sqled ${tle_stage:+"shared_preload_libraries = 'pg_tle'"}
sqled_host=$PGHOST sqled_port=$PGPORT

psql_q "CREATE ROLE regress_sql_edition LOGIN CREATEDB CREATEROLE"
echo "== the suites, as a role without superuser, on the extension installed as files"
regress_database regress_sql_edition regress_sql_edition
as_role regress_sql_edition regress_sql_edition <<<"CREATE EXTENSION uuidv7"
sql_edition_regress regress_sql_edition regress_sql_edition "$work/regress-files" || status=1
echo "== public ids: the SQL edition does not make them, and says why"
public=$(as_role regress_sql_edition regress_sql_edition -v VERBOSITY=verbose -v ON_ERROR_STOP=0 \
	<<<"SELECT uuidv7_to_public(uuidv7_generate()); SELECT uuidv7_from_public(gen_random_uuid());" 2>&1 |
	grep -E '^(ERROR|DETAIL)' | sort | uniq -c | sed 's/^ *//')
if [ "$public" = "2 DETAIL:  The SQL edition cannot keep their keys from the roles that use them.
2 ERROR:  0A000: public ids need the C edition of uuidv7" ]; then
	echo "$public"
else
	echo "public ids on the SQL edition: $public"
	status=1
fi
echo "== look-alikes planted for its scripts are never called (test security, as the superuser it needs)"
sql_edition_regress "$PGUSER" regress_sql_edition "$work/regress-security" security || status=1
echo "== the documentation's examples, on the SQL edition (test/shell/docs.sh)"
PG_CONFIG=$PG_CONFIG DOCS_EDITION=sql bash "$TOP/test/shell/docs.sh" || status=1

echo "== a database using the SQL edition, restored onto the C edition"
# (an application's table, partitioned by its uuid7 key, with its rows)
app_sql=$(cat <<'SQL'
CREATE TABLE orders (
	id uuid7 PRIMARY KEY DEFAULT uuidv7_generate(),
	created_at timestamptz GENERATED ALWAYS AS (uuidv7_timestamp(id)) STORED,
	customer text NOT NULL
) PARTITION BY RANGE (id);
SELECT count(*) FROM uuidv7_create_partitions('orders', '2025-01-01', '2025-07-01', '1 month', 'UTC');
CREATE TABLE orders_default PARTITION OF orders DEFAULT;
INSERT INTO orders (id, customer)
SELECT uuidv7_generate_at('2025-01-01 00:00:00+00'::timestamptz + g * interval '7 minutes'), 'c' || g % 97
FROM generate_series(0, 40000) g;
INSERT INTO orders (customer) VALUES ('today');
CREATE INDEX orders_time_idx ON orders (uuidv7_timestamp(id));
CREATE INDEX orders_code_idx ON orders (uuidv7_to_base32_grouped(id));
CREATE VIEW march AS SELECT * FROM orders WHERE id >= uuidv7_min('2025-03-01 00:00+00') AND id < uuidv7_min('2025-04-01 00:00+00');
SQL
)
regress_database app regress_sql_edition
as_role regress_sql_edition app >/dev/null <<<"SET client_min_messages = warning; CREATE EXTENSION uuidv7; $app_sql"
digests() { # digests HOST PORT DB
	"$PG_BINDIR/psql" -X -q -At -h "$1" -p "$2" -d "$3" -v ON_ERROR_STOP=1 <<<"
		SELECT 'orders ' || count(*) || ' ' || md5(string_agg(o::text, ',' ORDER BY id)) FROM orders o;
		SELECT 'march ' || count(*) FROM march;
		SELECT 'codes ' || md5(string_agg(uuidv7_to_base32(id), ',' ORDER BY id)) FROM orders;"
}
as_pg_user "$PG_BINDIR/pg_dump" -d app -Fc >"$work/app.dump"
app_schema "$sqled_host" "$sqled_port" app >"$work/sql-schema.txt"
digests "$sqled_host" "$sqled_port" app >"$work/sql-data.txt"

PG_CONFIG=$C_PG_CONFIG
find_pg_config
cluster_start uuidv7-sqled-to-c
psql_q "CREATE ROLE regress_sql_edition LOGIN"
psql_q "CREATE DATABASE app OWNER regress_sql_edition"
as_pg_user "$PG_BINDIR/pg_restore" -d app --exit-on-error <"$work/app.dump"
app_schema "$PGHOST" "$PGPORT" app >"$work/c-schema.txt"
digests "$PGHOST" "$PGPORT" app >"$work/c-data.txt"
served=$(as_role regress_sql_edition app <<'SQL' | tr '\n' ' '
SELECT count(*) FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
WHERE l.lanname = 'c' AND p.proname IN ('uuidv7_generate', 'uuidv7_min', 'uuidv7_timestamp');
INSERT INTO orders (customer) VALUES ('after the move') RETURNING uuidv7_timestamp(id) > now() - interval '1 minute';
SELECT count(*) FROM uuidv7_create_partitions('orders', '2025-01-01', '2025-09-01', '1 month', 'UTC') WHERE created;
SQL
)
if diff "$work/sql-schema.txt" "$work/c-schema.txt" >/dev/null && diff "$work/sql-data.txt" "$work/c-data.txt" &&
	[ "$served" = "4 t 2 " ]; then
	echo "restored: identical schema, identical rows ($(head -n 1 "$work/c-data.txt")), served by the C edition"
else
	echo "the restore onto the C edition differs"
	diff "$work/sql-schema.txt" "$work/c-schema.txt" | head -n 20 || true
	echo "checks: $served (want: 4 t 2)"
	status=1
fi
# and back: the C edition's dump (with the row and partitions it added)
# restored onto the SQL edition
as_pg_user "$PG_BINDIR/pg_dump" -d app -Fc >"$work/app-c.dump"
app_schema "$PGHOST" "$PGPORT" app >"$work/c-schema-after.txt"
digests "$PGHOST" "$PGPORT" app >"$work/c-data-after.txt"
cluster_stop
export PGHOST=$sqled_host PGPORT=$sqled_port
PG_CONFIG=$("$work/server$("$C_PG_CONFIG" --bindir)/pg_config" --bindir)/pg_config
find_pg_config
psql_q "CREATE DATABASE back OWNER regress_sql_edition"
as_pg_user "$PG_BINDIR/pg_restore" -d back --exit-on-error <"$work/app-c.dump"
app_schema "$PGHOST" "$PGPORT" back >"$work/back-schema.txt"
digests "$PGHOST" "$PGPORT" back >"$work/back-data.txt"
back_served=$(as_role regress_sql_edition back <<<"SELECT count(*) FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
	WHERE l.lanname = 'c' AND p.pronamespace = 'public'::regnamespace")
if diff "$work/c-schema-after.txt" "$work/back-schema.txt" >/dev/null && diff "$work/c-data-after.txt" "$work/back-data.txt" &&
	[ "$back_served" = 0 ]; then
	echo "and back onto the SQL edition: identical schema, identical rows ($(head -n 1 "$work/back-data.txt")), no C function"
else
	echo "the restore onto the SQL edition differs (C functions: $back_served)"
	diff "$work/c-schema-after.txt" "$work/back-schema.txt" | head -n 20 || true
	status=1
fi

echo "== the plain script, twice, as a role without superuser"
regress_database plain regress_sql_edition
as_role regress_sql_edition plain <<<"CREATE SCHEMA uv"
for run in 1 2; do
	PGOPTIONS="-c search_path=uv -c client_min_messages=error" as_role regress_sql_edition plain -f "$edition/uuidv7_plain.sql"
done
functions() { # functions DB SCHEMA: the signatures of the functions of a schema
	as_role regress_sql_edition "$1" <<<"SELECT string_agg(s, ' ' ORDER BY s COLLATE \"C\")
		FROM (SELECT p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')' AS s
			  FROM pg_proc p WHERE p.pronamespace = '$2'::regnamespace) f"
}
plain_works=$(PGOPTIONS="-c search_path=uv" as_role regress_sql_edition plain <<'SQL' | tr '\n' ' '
CREATE TABLE ev (id uuid7 PRIMARY KEY DEFAULT uuidv7_generate(), v int) PARTITION BY RANGE (id);
CREATE TABLE ev_default PARTITION OF ev DEFAULT;
INSERT INTO ev SELECT uuidv7_generate_at('2025-01-01 00:00+00'::timestamptz + g * interval '1 hour'), g FROM generate_series(0, 2000) g;
SELECT sum(moved) FROM uuidv7_create_partitions('ev', '2025-01-01', '2025-04-01', '1 month', 'UTC');
SELECT count(*) FROM uuidv7_drop_partitions('ev', '2025-02-01 00:00+00');
EXPLAIN (COSTS OFF) SELECT count(*) FROM ev WHERE id >= uuidv7_min('2025-03-05 00:00+00') AND id < uuidv7_min('2025-03-06 00:00+00');
SQL
)
plain_functions=$(functions plain uv)
extension_functions=$(functions regress_sql_edition public)
if [ "$plain_functions" = "$extension_functions" ] &&
	grep -q "^2001 1 .*ev_p2025_03 " <<<"$plain_works" && ! grep -q "ev_p2025_02" <<<"$plain_works"; then
	echo "plain script, run twice: the extension's $(grep -o '(' <<<"$plain_functions" | wc -l) functions; 2001 rows moved, January retired, one partition scanned"
else
	echo "the plain script differs: $plain_works"
	diff <(tr ' ' '\n' <<<"$plain_functions") <(tr ' ' '\n' <<<"$extension_functions") || true
	status=1
fi

if [ -n "$tle_stage" ]; then
	echo "== through pg_tle, installed by a role with pgtle_admin and without superuser"
	# (pg_tle refuses a name that a control file on the server has)
	make -s -C "$edition" uninstall >/dev/null
	# (in template1, so that the databases the suites make have it too: what
	# pg_tle installs lives in one database)
	psql_q "CREATE ROLE regress_tle_admin LOGIN CREATEDB CREATEROLE"
	"$PG_BINDIR/psql" -X -q -d template1 -v ON_ERROR_STOP=1 -c "CREATE EXTENSION pg_tle" \
		-c "GRANT pgtle_admin TO regress_tle_admin" >/dev/null
	# (run twice: the second run changes nothing)
	for run in 1 2; do
		as_role regress_tle_admin template1 -f "$edition/uuidv7_pg_tle.sql" >/dev/null
	done
	regress_database tle regress_tle_admin
	as_role regress_tle_admin tle <<<"CREATE EXTENSION uuidv7"
	as_role regress_tle_admin tle <<<"SELECT 'pg_tle: ' || extname || ' ' || extversion || ', by ' || extowner::regrole || ', superuser: ' || (SELECT rolsuper FROM pg_roles WHERE oid = extowner) FROM pg_extension WHERE extname = 'uuidv7'"
	sql_edition_regress regress_tle_admin tle "$work/regress-tle" || status=1

	# A next version, made here as a release makes one: the same sources, an
	# update template in src/update/ and the version in uuidv7.control; its
	# pg_tle script registers it beside this one, and ALTER EXTENSION walks
	# the update path it registers.
	version=$(sed -n "s/^default_version = '\(.*\)'/\1/p" "$TOP/uuidv7.control")
	next_version=$version.1
	echo "== through pg_tle, from $version to a next version ($next_version, made here) by ALTER EXTENSION UPDATE"
	mkdir "$work/next-tree"
	cp -a "$TOP/Makefile" "$TOP/src" "$TOP/uuidv7.control" "$TOP/uuidv7_time_ops.control" "$work/next-tree/"
	sed -i "s/^default_version = .*/default_version = '$next_version'/" "$work/next-tree/uuidv7.control"
	printf '%s\n' "\\echo Use \"ALTER EXTENSION uuidv7 UPDATE TO '$next_version'\" to load this file. \\quit" \
		'--#object uuidv7_doctor replace' >"$work/next-tree/src/update/uuidv7--$version--$next_version.sql"
	make -s -C "$work/next-tree" SQL_EDITION_DIR="$work/next" sql-edition
	regress_database tle_update regress_tle_admin
	as_role regress_tle_admin tle_update >/dev/null <<<"SET client_min_messages = warning; CREATE EXTENSION uuidv7; $app_sql"
	digests "$sqled_host" "$sqled_port" tle_update >"$work/update-before.txt"
	as_role regress_tle_admin tle_update -f "$work/next/uuidv7_pg_tle.sql" >/dev/null
	updated=$(as_role regress_tle_admin tle_update <<'SQL' | tr '\n' ' '
ALTER EXTENSION uuidv7 UPDATE;
SELECT extversion FROM pg_extension WHERE extname = 'uuidv7';
INSERT INTO orders (customer) VALUES ('after the update') RETURNING uuidv7_timestamp(id) > now() - interval '1 minute';
DELETE FROM orders WHERE customer = 'after the update';
SQL
)
	digests "$sqled_host" "$sqled_port" tle_update >"$work/update-after.txt"
	# and the extension's objects are those of a fresh install of that version
	regress_database tle_fresh regress_tle_admin
	as_role regress_tle_admin tle_fresh -f "$work/next/uuidv7_pg_tle.sql" >/dev/null
	as_role regress_tle_admin tle_fresh <<<"CREATE EXTENSION uuidv7"
	members() { # members DB: each object of the extension, a function with a digest of its definition
		as_role regress_tle_admin "$1" <<'SQL'
SELECT member FROM (SELECT pg_describe_object(d.classid, d.objid, d.objsubid)
	|| coalesce(' ' || md5(pg_get_functiondef(p.oid)), '')
	|| coalesce(' ' || md5(obj_description(d.objid, d.classid::regclass::name)), '') AS member
FROM pg_depend d
LEFT JOIN pg_proc p ON d.classid = 'pg_proc'::regclass AND p.oid = d.objid AND p.prokind <> 'a'
WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
	AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'uuidv7')) m
ORDER BY member COLLATE "C"
SQL
	}
	members tle_update >"$work/members-updated.txt"
	members tle_fresh >"$work/members-fresh.txt"
	if [ "$updated" = "$next_version t " ] && diff "$work/update-before.txt" "$work/update-after.txt" >/dev/null &&
		diff "$work/members-updated.txt" "$work/members-fresh.txt" >/dev/null; then
		echo "updated to $next_version: the same rows ($(head -n 1 "$work/update-after.txt")), the $(wc -l <"$work/members-fresh.txt") objects of a fresh install"
	else
		echo "the update through pg_tle differs: $updated (want: $next_version t)"
		diff "$work/update-before.txt" "$work/update-after.txt" || true
		diff "$work/members-updated.txt" "$work/members-fresh.txt" | head -n 20 || true
		status=1
	fi
fi
exit $status
