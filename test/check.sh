#!/usr/bin/env bash
# test/check.sh: the whole test suite, from a fresh machine.
#
# Installs what building needs, builds uuidv7 with warnings as errors,
# installs it, starts a throwaway cluster, runs the pg_regress suites and
# every test/t_*.sh script against it, fuzzes the base32 parser
# (test/fuzz/run.sh, FUZZ_SECONDS), compiles the sources against the headers
# of PostgreSQL 13, 15, 17 and 18 (test/compile-versions.sh), checks the
# layout with pgindent (test/pgindent.sh), runs the suites
# again with the extension under sanitizers (test/sanitize.sh) and the server
# under valgrind (test/valgrind.sh), then stops and removes the clusters.
# Exits non-zero on any failure.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

ensure_build_deps
build_and_install
cluster_start uuidv7-check

status=0
echo "== pg_regress suites"
if ! make -C "$TOP" -s installcheck; then
	status=1
	cat "$TOP/regression.diffs" 2>/dev/null | head -200 || true
fi

for script in "$TOP"/test/t_*.sh "$TOP"/test/fuzz/run.sh "$TOP"/test/compile-versions.sh "$TOP"/test/pgindent.sh \
	"$TOP"/test/sanitize.sh "$TOP"/test/valgrind.sh; do
	echo "== $(basename "$script")"
	if ! bash "$script"; then
		echo "FAILED: $(basename "$script")"
		status=1
	fi
done

[ $status -eq 0 ] && echo "== all tests passed" || echo "== some tests FAILED"
exit $status
