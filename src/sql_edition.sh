#!/bin/sh
# src/sql_edition.sh: the three ways in of the SQL edition, from its install
# and update scripts (assembled from src/ by make sql-edition):
#
#   sh src/sql_edition.sh VERSION COMMENT OUTDIR SCRIPT [UPDATE_SCRIPT ...]
#
#   OUTDIR/uuidv7_pg_tle.sql  pg_tle: psql it as a role with pgtle_admin,
#                             then CREATE EXTENSION uuidv7, or ALTER
#                             EXTENSION uuidv7 UPDATE where it is older
#   OUTDIR/uuidv7_plain.sql   no extension: creates the objects in the first
#                             schema of search_path, in one transaction;
#                             run again to upgrade
# (the file-based extension is the scripts themselves beside
# OUTDIR/uuidv7.control)
set -eu
version=$1 comment=$2 out=$3 script=$4
shift 4

# every tag the scripts themselves use as a dollar quote differs from these
for tag in '$_pgtle_$' '$_pgtle_install$' '$uuidv7_plain$' '$uuidv7_script$'; do
	if grep -qF "$tag" "$script" "$@"; then
		echo "a script uses $tag" >&2
		exit 1
	fi
done

# The pg_tle script registers this version (the extension, or one more of
# its versions where an earlier one is registered) and every update path,
# then makes this version the default; run again, it changes nothing.
{
	echo "-- uuidv7 $version, SQL edition, for pg_tle (Trusted Language Extensions)."
	echo "-- Run it as a role with pgtle_admin, then: CREATE EXTENSION uuidv7;"
	echo "-- (or, where an earlier version is in use: ALTER EXTENSION uuidv7 UPDATE;)"
	echo "DO \$_pgtle_install\$"
	echo "DECLARE"
	echo "	script text := \$_pgtle_\$"
	sed 1d "$script"
	echo "\$_pgtle_\$;"
	echo "BEGIN"
	echo "	-- (first what must be there, in this same statement: the extension"
	echo "	-- pg_tle in this database, whose schema no other can be, and its"
	echo "	-- schema usable by the role, as a member of pgtle_admin)"
	echo "	IF NOT EXISTS (SELECT FROM pg_catalog.pg_extension WHERE extname OPERATOR(pg_catalog.=) 'pg_tle') THEN"
	echo "		RAISE EXCEPTION 'pg_tle is not installed in database \"%\"', pg_catalog.current_database()"
	echo "			USING ERRCODE = 'object_not_in_prerequisite_state',"
	echo "				  HINT = 'A superuser or the provider (on Amazon RDS and Aurora, a member of rds_superuser) runs CREATE EXTENSION pg_tle in each database that installs extensions through it, and grants pgtle_admin to the role that runs this script.';"
	echo "	ELSIF NOT pg_catalog.has_schema_privilege('pgtle', 'USAGE') THEN"
	echo "		RAISE EXCEPTION 'role \"%\" may not use pg_tle', current_user"
	echo "			USING ERRCODE = 'insufficient_privilege',"
	echo "				  HINT = 'A superuser or the provider runs GRANT pgtle_admin TO the role that runs this script (a role that inherits it).';"
	echo "	END IF;"
	echo "	IF NOT EXISTS (SELECT FROM pgtle.available_extensions() WHERE name = 'uuidv7') THEN"
	echo "		PERFORM pgtle.install_extension('uuidv7', '$version', '$comment', script);"
	echo "	ELSIF NOT EXISTS (SELECT FROM pgtle.available_extension_versions()"
	echo "					  WHERE name = 'uuidv7' AND version = '$version') THEN"
	echo "		PERFORM pgtle.install_extension_version_sql('uuidv7', '$version', script);"
	echo "	END IF;"
	for update in "$@"; do
		from_to=$(basename "$update" .sql | sed 's/^uuidv7--//')
		from=${from_to%%--*} to=${from_to#*--}
		echo "	PERFORM pgtle.uninstall_update_path_if_exists('uuidv7', '$from', '$to');"
		echo "	PERFORM pgtle.install_update_path('uuidv7', '$from', '$to', \$_pgtle_\$"
		sed 1d "$update"
		echo "\$_pgtle_\$);"
	done
	echo "	PERFORM pgtle.set_default_version('uuidv7', '$version');"
	echo "END"
	echo "\$_pgtle_install\$;"
} >"$out/uuidv7_pg_tle.sql"

# Outside CREATE EXTENSION, a second run must replace what the first made:
# CREATE OR REPLACE for functions and procedures, the domain only if missing;
# the helpers in the same schema (a role that owns a schema only, and two
# installs in two schemas, need no schema of the database's)
# (the compatibility names and aggregates skip what exists, with a WARNING).
{
	echo "-- uuidv7 $version, SQL edition, as a plain script: creates its objects in the"
	echo "-- first schema of search_path (best one of its own), in one transaction."
	echo "-- Run it again to upgrade."
	echo "DO \$uuidv7_plain\$"
	echo "BEGIN"
	echo "	IF pg_catalog.current_schema() IS NULL THEN"
	echo "		RAISE EXCEPTION 'no schema has been selected to create in'"
	echo "			USING ERRCODE = 'invalid_schema_name', HINT = 'Set search_path to the schema for uuidv7.';"
	echo "	END IF;"
	echo "	-- (as CREATE EXTENSION does: a function may call one created after it)"
	echo "	PERFORM pg_catalog.set_config('check_function_bodies', 'false', true);"
	echo "	EXECUTE pg_catalog.replace(\$uuidv7_script\$"
	sed -e 1d \
		-e 's/^\([[:space:]]*\)CREATE FUNCTION /\1CREATE OR REPLACE FUNCTION /' \
		-e 's/^\([[:space:]]*\)CREATE PROCEDURE /\1CREATE OR REPLACE PROCEDURE /' \
		-e '/^DO \$uuidv7_internal_schema\$/,/^\$uuidv7_internal_schema\$;/d' \
		-e 's/uuidv7_internal\./@extschema@./g' \
		-e '/^CREATE DOMAIN uuid7 /,/;$/{
			s/^CREATE DOMAIN uuid7 /DO $domain$ BEGIN IF pg_catalog.to_regtype('"'"'@extschema@.uuid7'"'"') IS NULL THEN CREATE DOMAIN @extschema@.uuid7 /
			s/;$/; END IF; END $domain$;/
		}' "$script"
	echo "\$uuidv7_script\$, '@extschema@', pg_catalog.quote_ident(pg_catalog.current_schema()));"
	echo "END"
	echo "\$uuidv7_plain\$;"
} >"$out/uuidv7_plain.sql"
