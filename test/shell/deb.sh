#!/usr/bin/env bash
# test/shell/deb.sh: the Debian packages, as the PostgreSQL apt repository
# builds them (debian/, pg_buildext), for the machine's own PostgreSQL.
#
# - dpkg-buildpackage builds postgresql-NN-uuidv7 from a copy of the tree
#   (with nocheck: the tests its build would run, pg_buildext installcheck
#   with the server's default settings, are those debian/tests runs below
#   against the installed package);
# - lintian finds no error in the result;
# - the package is installed on a Debian root of the machine's suite that
#   has never seen the source tree (its server is Debian's own), where both
#   extensions are created and the regression suites run against the
#   installed files, as debian/tests (autopkgtest) runs them: as a user
#   that is not root, with the test's dependencies installed, so that the
#   TAP tests run too (in the default tier one of them, 001_concurrency,
#   which loads the package's library at start too: the suite runs every
#   TAP test on this server already; all in the full tier).
#
# Runs on the machine's own server.  In the Debian root that runs another
# major (test/lib.sh in_root), that major's package is built there with its
# tests (pg_regress suites on pg_virtualenv's cluster, as packagers run
# them) and checked by lintian; it is not installed there, where the suite
# has installed uuidv7 from the tree.  Elsewhere (a server built from
# source) it is skipped (exit 77).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
find_pg_config

if [ "$PG_CONFIG" != "/usr/lib/postgresql/$PG_MAJOR/bin/pg_config" ]; then
	echo "the packages are built for Debian's PostgreSQL: skipped on $PG_MAJOR, built from source"
	exit 77
fi
apt_install dpkg-dev debhelper postgresql-server-dev-all lintian
# in a root, its own major (19 is in no suite's list of supported ones)
[ -z "${UUIDV7_IN_ROOT:-}" ] || export PG_SUPPORTED_VERSIONS=$PG_MAJOR

work=$(mktemp -d /tmp/uuidv7-deb.XXXXXX)
chmod 755 "$work"
at_exit 'rm -rf "$work"'
mkdir "$work/uuidv7"
tree_copy "$work/uuidv7"

# the build: one package per supported major (the machine's; in a root,
# its own), with its tests in a root, where nothing tests the package after
# (-d: the build dependencies are there, postgresql-all's pull of every
# supported major's headers is not needed)
build_options=${DEB_BUILD_OPTIONS:-}
[ -n "${UUIDV7_IN_ROOT:-}" ] || build_options="${build_options:+$build_options }nocheck"
(cd "$work/uuidv7" && pg_buildext updatecontrol >/dev/null &&
	DEB_BUILD_OPTIONS=$build_options dpkg-buildpackage -us -uc -b -d >"$work/build.log" 2>&1) ||
	{ tail -n 60 "$work/build.log"; exit 1; }
grep -E '^ *All [0-9]+ tests passed|^# All [0-9]+ tests passed|dpkg-deb: building' "$work/build.log"
for deb in "$work"/postgresql-*-uuidv7_*.deb; do
	echo "built $(basename "$deb"): $(dpkg-deb -c "$deb" | grep -c 'extension/uuidv7')" \
		"extension files, depends on $(dpkg-deb -f "$deb" Depends)"
done
deb=$(ls "$work"/postgresql-"$PG_MAJOR"-uuidv7_*.deb)

# lintian: no error (an initial upload that closes no bug is what a
# package outside Debian is)
rc=0
lintian --fail-on error --suppress-tags initial-upload-closes-no-bugs "$work"/*.changes >"$work/lintian.txt" 2>&1 || rc=$?
grep -v '^running with root privileges' "$work/lintian.txt" || true
[ $rc -eq 0 ] || { echo "lintian found errors"; exit 1; }

if [ -n "${UUIDV7_IN_ROOT:-}" ]; then
	exit 0
fi

# a server that has never seen the source tree: Debian's own, in a root of
# the machine's suite; the package installed there, then the suites of the
# source tree against it, as autopkgtest runs debian/tests
suite=$(. /etc/os-release && echo "$VERSION_CODENAME")
root=$(debian_root "$suite-deb-$PG_MAJOR" "$suite" "" "postgresql-$PG_MAJOR" postgresql-server-dev-all make locales \
	libipc-run-perl libfaketime)
deps=$(sed -n 's/^Depends: *//p' "$TOP/debian/tests/control" | tr ',' '\n' | grep -v '^ *@ *$' | xargs)
chmod -R a+rX "$work"
# the default tier's one TAP test (make reads MAKEFLAGS's definition as
# one of its command line's, over the Makefile's)
prove_tests=
[ "${UUIDV7_TIER:-default}" = full ] || prove_tests=MAKEFLAGS=PROVE_TESTS=test/t/001_concurrency.pl
# (autopkgtest's environment: none of the suite's settings, such as the
# server 006_pgupgrade upgrades from, which is not the package's)
UUIDV7_ROOT=$root in_root - env -u OLD_PG_CONFIG -u PGHOST -u PGPORT -u PGUSER -u PGDATABASE \
	-u HARNESS_OPTIONS -u HARNESS_TIMER -u LOAD_SECONDS -u PROVE_TESTS -u MAKEFLAGS $prove_tests sh -c "
	set -e
	# (a run that failed or was stopped before the purge below left its
	# package, of this very version, which apt-get would keep)
	dpkg --purge 'postgresql-$PG_MAJOR-uuidv7' >/dev/null 2>&1
	apt-get install -y -qq '$deb' $deps >/dev/null
	dpkg -S /usr/share/postgresql/$PG_MAJOR/extension/uuidv7.control /usr/lib/postgresql/$PG_MAJOR/lib/uuidv7.so
	cd '$work/uuidv7'
	pg_virtualenv -v $PG_MAJOR psql -X -q -At -v ON_ERROR_STOP=1 -c 'CREATE EXTENSION uuidv7' \
		-c 'CREATE EXTENSION uuidv7_time_ops' \
		-c \"SELECT 'created: ' || string_agg(extname || ' ' || extversion, ', ' ORDER BY extname) FROM pg_extension WHERE extname LIKE 'uuidv7%'\"
	chown -R postgres .
	runuser -u postgres -- debian/tests/installcheck
	apt-get purge -y -qq 'postgresql-$PG_MAJOR-uuidv7' >/dev/null
" >"$work/installed.log" 2>&1 || {
	# (what failed: the tests' own lines and diffs, not the server's log)
	grep -vE '^[0-9]{4}-[0-9]{2}-[0-9]{2} |^	' "$work/installed.log" | tail -n 120
	exit 1
}
grep -E '^postgresql-|^created: |tests passed|^test/t/|^Result: ' "$work/installed.log"
# (the TAP tests ran, each passed)
grep -q '^Result: PASS' "$work/installed.log" && ! grep -q 'TAP tests (test/t) skipped' "$work/installed.log" ||
	{ echo "the installed package's TAP tests did not run and pass"; exit 1; }
