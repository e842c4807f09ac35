#!/usr/bin/env bash
# test/once/sanitize.sh: the pg_regress suites and the isolation specs, and
# the public ids' TAP test (test/t/008_public_id.pl), under AddressSanitizer
# and UndefinedBehaviorSanitizer, on a server with assertions enabled.  A
# PostgreSQL 15 built with ASan and --enable-cassert from Debian's source
# (test/lib.sh pg_server, cached like the other servers: about four minutes
# on two cores, once), the extension built with ASan and UBSan against it,
# and every suite run in a cluster of that server.  Any report, and any
# failed assertion (core's, such as a table opened without its lock),
# aborts the backend, which fails a suite; the sanitizers' logs must stay
# empty.
#
# (Preloading the ASan runtime into Debian's own postgres binary is no way
# round the build: it deadlocks in bindtextdomain() before it starts.)
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
ensure_build_deps

work=$(mktemp -d /tmp/uuidv7-sanitize.XXXXXX)
chmod 755 "$work"
mkdir -m 777 "$work/reports"
at_exit 'rm -rf "$work"'

# the server's programs allocate without freeing at exit: no leak reports,
# from the build on (pg_server runs the built pg_config)
export ASAN_OPTIONS=detect_leaks=0
pg_server 15 asan-cassert

sanitize="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
# and from here on every report goes to the reports directory
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:log_path=$work/reports/asan
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:log_path=$work/reports/ubsan

echo "== with ASan and UBSan"
mkdir "$work/ext"
build_copy_and_install "$work/ext" PG_CFLAGS="-Wall -Wextra -Werror $sanitize" PG_LDFLAGS="$sanitize"

# the library really is instrumented
module="$("$PG_CONFIG" --pkglibdir)/uuidv7.so"
symbols=$(nm -D "$module")
grep -q __asan_report <<<"$symbols" && grep -q __ubsan_handle <<<"$symbols" ||
	{ echo "uuidv7.so is not instrumented" >&2; exit 1; }

cluster_start uuidv7-sanitize
[ "$(psql_q 'SHOW debug_assertions')" = on ] || { echo "the server has no assertions enabled" >&2; exit 1; }
status=0
make -C "$work/ext" -s installcheck TAP_TESTS= ||
	{ status=1; head -100 "$work/ext/regression.diffs" || true; }
# and the public ids, which need a preloaded library (clusters of their
# own): their TAP test, on the framework of the machine's own 15 (the ASan
# build has none), with the ASan build's programs first on PATH, as PGXS
# runs prove
echo "== public ids (test/t/008_public_id.pl) with ASan and UBSan"
ensure_build_deps libipc-run-perl python3-nacl python3-cryptography libssl-dev
framework=/usr/lib/postgresql/15/lib/pgxs/src/test/perl
chown -R "$PG_OS_USER" "$work/ext"
(cd "$work/ext" && as_pg_user env TESTDIR="$work/ext" PATH="$PG_BINDIR:$PATH" \
	PG_REGRESS="$(dirname "$("$PG_CONFIG" --pgxs)")/../test/regress/pg_regress" \
	prove --norc -I "$framework" -I test/perl test/t/008_public_id.pl) >"$work/public_id.log" 2>&1 ||
	{ status=1; tail -n 40 "$work/public_id.log"; tail -n 60 "$work/ext/tmp_check/log/regress_log_008_public_id" 2>/dev/null; }
grep -E '^Files=|^Result:' "$work/public_id.log"
# (a test skipped for want of what it needs counts as failed here)
if grep -q 'skipped' "$work/public_id.log"; then
	grep 'skipped' "$work/public_id.log"
	status=1
fi
if [ -n "$(ls "$work/reports")" ] ||
	grep -E "AddressSanitizer|runtime error|was terminated by signal|TRAP: " "$CLUSTER_DIR/server.log"; then
	echo "sanitizer reports:"
	cat "$work"/reports/* 2>/dev/null | head -80
	status=1
fi
[ $status -eq 0 ] && echo "== every suite and the public ids passed under ASan and UBSan, assertions on, no reports"
exit $status
