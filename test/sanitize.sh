#!/usr/bin/env bash
# test/sanitize.sh: the pg_regress suites under AddressSanitizer and
# UndefinedBehaviorSanitizer.  The installed server's upstream source (from
# Debian, like test/valgrind.sh) is built with ASan into a private prefix
# (about four minutes on two cores), the extension with ASan and UBSan against
# it, and every suite runs in a cluster of that server.  Any report aborts the
# backend, which fails a suite; the sanitizers' logs must stay empty.
#
# (Preloading the ASan runtime into Debian's own postgres binary is no way
# round the build: it deadlocks in bindtextdomain() before it starts.)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
ensure_build_deps perl

work=$(mktemp -d /tmp/uuidv7-sanitize.XXXXXX)
chmod 755 "$work"
mkdir -m 777 "$work/reports"
trap 'rm -rf "$work"' EXIT
tarball=$(fetch_pg_source "$work/apt")
[ -n "$tarball" ] || { echo "could not download PostgreSQL's source" >&2; exit 1; }

asan="-fsanitize=address -fno-omit-frame-pointer"
sanitize="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
# server and tools allocate without freeing at exit: no leak reports
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:log_path=$work/reports/asan
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:log_path=$work/reports/ubsan

echo "== building PostgreSQL $(basename "$tarball" | sed 's/.*_\(.*\)\.orig.*/\1/') with ASan"
tar -xf "$tarball" -C "$work"
srcdir=$(ls -d "$work"/postgresql-*/ | head -n 1)
(cd "$srcdir" && ./configure --prefix="$work/pg" --without-readline --without-zlib --without-icu \
	--without-llvm --enable-debug CFLAGS="-O1 -g $asan" LDFLAGS="$asan" >"$work/configure.log" 2>&1 &&
	make -s -j"$(nproc)" >"$work/make.log" 2>&1 && make -s install >"$work/install.log" 2>&1) ||
	{ tail -n 30 "$work"/*.log; exit 1; }

echo "== building uuidv7 with ASan and UBSan"
mkdir "$work/ext"
(cd "$TOP" && git ls-files -z | xargs -0 cp --parents -t "$work/ext")
make -C "$work/ext" -s PG_CONFIG="$work/pg/bin/pg_config" PG_CFLAGS="-Wall -Wextra -Werror $sanitize" \
	PG_LDFLAGS="$sanitize" install

# the library really is instrumented
module="$("$work/pg/bin/pg_config" --pkglibdir)/uuidv7.so"
symbols=$(nm -D "$module")
grep -q __asan_report <<<"$symbols" && grep -q __ubsan_handle <<<"$symbols" ||
	{ echo "uuidv7.so is not instrumented" >&2; exit 1; }

PG_BINDIR=$work/pg/bin
cluster_start uuidv7-sanitize
trap 'cluster_stop_all; rm -rf "$work"' EXIT
status=0
make -C "$work/ext" -s PG_CONFIG="$work/pg/bin/pg_config" installcheck ||
	{ status=1; head -100 "$work/ext/regression.diffs" || true; }
if [ -n "$(ls "$work/reports")" ] ||
	grep -E "AddressSanitizer|runtime error|was terminated by signal" "$CLUSTER_DIR/server.log"; then
	echo "sanitizer reports:"
	cat "$work"/reports/* 2>/dev/null | head -80
	status=1
fi
[ $status -eq 0 ] && echo "== every suite passed under ASan and UBSan, no reports"
exit $status
