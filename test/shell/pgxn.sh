#!/usr/bin/env bash
# test/shell/pgxn.sh: the PGXN distribution installs the way PGXN's users
# install it.  The zip "make dist" makes (in a clone, from what is
# committed) goes to Debian's pgxnclient: "pgxn install" builds and installs
# it from the file into a copy of the server (test/lib.sh server_copy, with
# the server's headers, so that what is tested is what PGXN installed, and
# the server the suite installed into is left alone); a cluster of that
# copy creates the extension at META.json's version; then "pgxn check" runs
# make installcheck from the unpacked distribution against that cluster
# (the pg_regress suites and isolation specs; the TAP tests say they are
# skipped, pgxn running as root).  test/shell/meta.sh checks META.json and
# the zip's layout.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
find_pg_config
ensure_packages pgxnclient

work=$(mktemp -d /tmp/uuidv7-pgxn.XXXXXX)
chmod 755 "$work"
at_exit 'rm -rf "$work"'
git clone -q "$TOP" "$work/clone"
make -C "$work/clone" -s dist >/dev/null
zip=$(ls "$work"/clone/uuidv7-*.zip)
version=$(/usr/bin/python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["version"])' "$work/clone/META.json")

# the copy of the server, with the headers a build needs (and the library
# directory pgxn checks it may write to)
includedir=$("$PG_CONFIG" --includedir)
libdir=$("$PG_CONFIG" --libdir)
PG_CONFIG=$(server_copy "$work/server")
(cd / && cp -a --parents "${includedir#/}" "$work/server/")
mkdir -p "$work/server$libdir"
find_pg_config
[ ! -e "$("$PG_CONFIG" --pkglibdir)/uuidv7.so" ] || { echo "pgxn: the copy of the server has uuidv7 already"; exit 1; }

pgxn install --yes --nosudo --make make --pg_config "$PG_CONFIG" "$zip" >"$work/install.log" 2>&1 ||
	{ tail -n 30 "$work/install.log"; exit 1; }
cluster_start uuidv7-pgxn
installed=$(psql_q "CREATE EXTENSION uuidv7; SELECT extversion FROM pg_extension WHERE extname = 'uuidv7'")
[ "$installed" = "$version" ] || { echo "pgxn: installed $installed, META.json says $version"; exit 1; }
echo "pgxn: installed uuidv7 $installed from $(basename "$zip")"
pgxn check --yes --make make --pg_config "$PG_CONFIG" -h "$PGHOST" -p "$PGPORT" -U "$PGUSER" "$zip" >"$work/check.log" 2>&1 ||
	{ tail -n 40 "$work/check.log"; find / -path '*uuidv7*' -name regression.diffs -newer "$zip" -exec head -n 60 {} + 2>/dev/null; exit 1; }
grep -E 'tests passed|TAP tests' "$work/check.log"
