#!/usr/bin/env bash
# test/once/valgrind.sh: the pg_regress suites with the server under valgrind's
# memcheck, with PostgreSQL's own suppression file (from the source of the
# installed server, fetched with apt into a private directory).  Fails on any
# error that valgrind reports in a stack through uuidv7.so.
#
# Origins of uninitialised values are not tracked (memcheck reports the same
# errors without them, at a lower cost); VALGRIND_TRACK_ORIGINS=yes
# tracks them, for reading a report.
#
# VALGRIND_SUITES: the suites to run (default: all but the six whose
# millions of rows or calls would take an hour under valgrind: randomness,
# time_ops, and doctor, comparison, policy_tables and metrics, whose rows and
# calls go through SQL more than through C of ours (policy_tables' and
# metrics' C is that of partition, grid and adopt, which run); those run
# with VALGRIND_SUITES=all).  The default tier (UUIDV7_TIER) leaves out five
# more, the slowest under valgrind, to keep within its 20 minutes: generate
# and planner (100,000 rows each; state, extract and bounds reach the same
# C), rls and move (the planner's support and moving rows, which partition
# and time_ops_brin_multi reach), and time_predicates (the plan-time bounds
# of plantime.c, whose only valgrind run is then the full tier's, beside its
# sanitizers).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
ensure_build_deps valgrind

work=$(mktemp -d /tmp/uuidv7-valgrind.XXXXXX)
chmod 777 "$work"
at_exit 'rm -rf "$work"'

# PostgreSQL's suppressions, from the source of the installed server
tarball=$(fetch_pg_source "$work/apt") || { echo "could not download PostgreSQL's source" >&2; exit 1; }
tar -xf "$tarball" -C "$work" --wildcards '*/src/tools/valgrind.supp'
supp=$(ls "$work"/postgresql-*/src/tools/valgrind.supp)
cp "$supp" "$work/valgrind.supp"
chmod 644 "$work/valgrind.supp"

# the extension built from this tree and installed into a copy of the
# server (test/lib.sh server_copy): the run relies on nothing a suite left
# installed, and installs nothing under a suite that runs beside it
copy=$(server_copy "$work/server")
mkdir "$work/ext"
build_copy_and_install "$work/ext" DESTDIR="$work/server" >/dev/null
PG_CONFIG=$copy
find_pg_config

cluster_init uuidv7-valgrind
mkdir -p "$work/logs" && chmod 777 "$work/logs"
# the postmaster under valgrind, children traced: every backend is checked;
# source files by their full paths (uuidv7.so has debug information, so its
# frames name its source files, not the library)
as_pg_user valgrind --quiet --trace-children=yes --track-origins="${VALGRIND_TRACK_ORIGINS:-no}" --read-var-info=no \
	--fullpath-after= \
	--leak-check=no --num-callers=30 --suppressions="$work/valgrind.supp" \
	--log-file="$work/logs/%p.log" \
	"$PG_BINDIR/postgres" -D "$CLUSTER_DIR/data" >"$CLUSTER_DIR/server.log" 2>&1 &
for _ in $(seq 1 120); do
	"$PG_BINDIR/pg_isready" -q && break
	sleep 1
done

left_out='randomness\|time_ops\|doctor\|comparison\|policy_tables\|metrics'
# (the default tier leaves out five more, the slowest here: 345 of 647 s)
[ "${UUIDV7_TIER:-default}" = full ] || left_out+='\|generate\|planner\|rls\|move\|time_predicates'
suites=${VALGRIND_SUITES:-$(sed -n 's/^REGRESS = //p' "$TOP/Makefile" | tr ' ' '\n' | grep -vx "$left_out" | tr '\n' ' ')}
[ "$suites" = all ] && suites=$(sed -n 's/^REGRESS = //p' "$TOP/Makefile")
echo "== suites under valgrind: $suites"
status=0
make -C "$work/ext" -s installcheck PG_CONFIG="$PG_CONFIG" REGRESS="$suites" ISOLATION= TAP_TESTS= || { status=1; head -60 "$work/ext/regression.diffs" || true; }
as_pg_user "$PG_BINDIR/pg_ctl" -D "$CLUSTER_DIR/data" -m fast -w stop >/dev/null || true

# errors valgrind saw, and those with uuidv7 in their stack (a frame in one
# of its source files, or in uuidv7.so where a frame has no source line): a
# report is a block of lines between blank "==pid== " lines
ours_pattern="uuidv7\\.so|$work/ext/src/"
report_blocks() {
	awk '/^==[0-9]+== $/ {if (block != "") print block; block = ""; next}
		/^==[0-9]+== / {block = block $0 "\\n"}
		END {if (block != "") print block}' "$work"/logs/*.log
}
errors=$(report_blocks | grep -c 'Invalid\|uninitialised\|Conditional jump\|Syscall param\|Mismatched\|overlap' || true)
# (the frames below core's planner are not ours: uuidv7's planner hook calls
# it for every query planned, so that any report in the planner would name
# the hook; a frame of ours above it, the support function's, still counts)
ours_blocks() {
	report_blocks | grep 'Invalid\|uninitialised\|Conditional jump\|Syscall param\|Mismatched\|overlap' |
		sed -E 's/(\\n==[0-9]+== +by 0x[0-9A-F]+: standard_planner ).*/\1/' | grep -E "$ours_pattern" || true
}
ours=$(ours_blocks | grep -c . || true)
echo "valgrind: $errors errors in all, $ours in stacks through uuidv7 ($(ls "$work"/logs | wc -l) processes checked)"
if [ "$errors" -gt 0 ]; then
	echo "the others, by kind and the first function of their stack:"
	report_blocks | grep 'Invalid\|uninitialised\|Conditional jump\|Syscall param\|Mismatched\|overlap' |
		sed -E 's/^==[0-9]+== ([^\\]*)\\n==[0-9]+== +at 0x[0-9A-F]+: ([^ ]+).*/  \1 in \2/' | sort | uniq -c
fi
if [ "$ours" -gt 0 ]; then
	ours_blocks | head -5 | sed 's/\\n/\n/g'
	echo "(VALGRIND_TRACK_ORIGINS=yes says where uninitialised values come from)"

	status=1
fi
exit $status
