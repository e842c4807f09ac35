#!/usr/bin/env bash
# test/shell/sql_edition.sh: the SQL edition on this major, on a copy of the
# server that holds no file of the C edition (test/lib.sh server_copy), with
# the edition installed into it as files (make -C sql-edition install, no
# compiler) and pg_tle (built from test/vendor/, 13 to 18) staged beside it:
#
#   - the examples of README.md and docs/ (test/shell/docs.sh), but for what
#     needs the C edition;
#   - test/t/009_sql_edition.pl, on PostgreSQL's TAP framework, run by make
#     installcheck for this server with the copy's pg_config
#     (UUIDV7_SQL_EDITION_PG_CONFIG) and the assembled edition
#     (UUIDV7_SQL_EDITION_DIR): the suites as a role without superuser, on the files and through pg_tle; a
#     database moved to the C edition and back; the plain script; an update
#     through pg_tle (what that test says).
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

chown -R "$PG_OS_USER" "$work"

echo "== the documentation's examples, on the SQL edition (test/shell/docs.sh)"
cluster_start uuidv7-sqled
PG_CONFIG=$PG_CONFIG DOCS_EDITION=sql bash "$TOP/test/shell/docs.sh" || status=1
cluster_stop

echo "== test/t/009_sql_edition.pl"
# (in a copy of the tree the OS user of clusters owns, for the server of the
# C edition, whose TAP framework runs it)
mkdir "$work/tree"
tree_copy "$work/tree"
rc=0
tap_installcheck "$work/tree" "$work/tap.log" test/t/009_sql_edition.pl PROVE_FLAGS='--norc -v' \
	PG_CONFIG="$C_PG_CONFIG" UUIDV7_SQL_EDITION_PG_CONFIG="$PG_CONFIG" UUIDV7_SQL_EDITION_DIR="$edition" \
	UUIDV7_SQL_EDITION_TLE="$([ -n "$tle_stage" ] && echo 1 || echo 0)" || rc=$?
grep -E '^(not )?ok |^# |^test/t/|^Result: |^TAP tests' "$work/tap.log" | grep -v '^# Looks like' || true
if [ $rc -eq 77 ]; then
	# (a framework missing is a failure in the whole suite, which installs it)
	[ -n "${UUIDV7_STRICT:-}" ] && exit 1
	exit 77
fi
if [ $rc -ne 0 ] || ! grep -q '^Result: PASS' "$work/tap.log"; then
	tail -n 60 "$work/tree/tmp_check/log/regress_log_009_sql_edition" 2>/dev/null || tail -n 60 "$work/tap.log"
	status=1
fi
exit $status
