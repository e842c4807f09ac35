#!/usr/bin/env bash
# test/suite.sh: the whole suite on one server, the one of PG_CONFIG.
#
# Builds uuidv7 for that server in a copy of the tree (so that several majors
# can be tested at once; EXT_DIR names a copy already built), installs it,
# runs the pg_regress suites and isolation specs in a throwaway cluster, the
# TAP tests (test/t), then every test/shell script.
# A script that does not apply to this major exits 77 and counts as skipped.
# Prints one line per check, "RESULT <major> <check> ok|FAILED|skipped", and
# exits non-zero if any failed.
#
#   OLD_PG_CONFIG   the server 006_pgupgrade upgrades from (default: this one)
#   SKIP_CHECKS     test/shell scripts not to run (check.sh runs them elsewhere)
#   TIER_CHECKS     the checks the tier runs on this major (check.sh's
#                   tier_checks; default: all)
#   CHECKS          the checks to run, by name: regress (the pg_regress suites
#                   and isolation specs), test/shell scripts, test/t files
#                   (regress docs 001_concurrency; default: all; the names
#                   of test/once scripts are taken and left to check.sh)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
find_pg_config

checks_read || exit 2

if [ -z "${EXT_DIR:-}" ]; then
	EXT_DIR=$(mktemp -d "/tmp/uuidv7-ext-$PG_MAJOR.XXXXXX")
	at_exit 'rm -rf "$EXT_DIR"'
	build_copy_and_install "$EXT_DIR"
fi

# named CHECK: whether the tier runs it here and CHECKS names it (all are,
# where either is empty)
named() {
	{ [ -z "${TIER_CHECKS:-}" ] || grep -qw -- "$1" <<<"$TIER_CHECKS"; } &&
		{ [ -z "${CHECKS:-}" ] || grep -qw -- "$1" <<<"$CHECKS"; }
}

status=0
result() { # result CHECK EXIT_CODE
	local verdict=FAILED
	case $2 in 0) verdict=ok ;; 77) verdict=skipped ;; *) status=1 ;; esac
	echo "RESULT $PG_MAJOR $1 $verdict"
}

# regress CHECK: the pg_regress suites and the isolation specs on the
# running cluster, a result for each test by name and one for them all (the
# specs run apart, so that a failed suite does not keep them from running)
regress() {
	local check=$1 rc=0
	make -C "$EXT_DIR" -s installcheck TAP_TESTS= ISOLATION= 2>&1 | tee "$EXT_DIR/installcheck.log" || rc=$?
	make -C "$EXT_DIR" -s installcheck TAP_TESTS= REGRESS= 2>&1 | tee -a "$EXT_DIR/installcheck.log" || rc=$?
	[ $rc -eq 0 ] || cat "$EXT_DIR/regression.diffs" "$EXT_DIR/output_iso/regression.diffs" 2>/dev/null | head -300 || true
	# each test by name: "test x ... ok" before PostgreSQL 16, "ok 1 - x" after
	sed -nE 's/^test ([a-z_0-9]+) +\.\.\. +(ok|FAILED).*/\1 \2/p; s/^(not ok|ok) +[0-9]+ +- +([a-z_0-9]+) .*/\2 \1/p' \
		"$EXT_DIR/installcheck.log" | sed 's/ not ok$/ FAILED/' |
		while read -r name verdict; do echo "RESULT $PG_MAJOR $check/$name $verdict"; done
	result "$check" $rc
}

# The pg_regress suites on a cluster set unlike the suite's own, as a
# packager's or a user's server may be: another locale, time zone and date
# style, no parallel workers, JIT for every query where the server has it,
# costs and planner methods changed, notices hidden.  Each test sets what its
# output depends on, so nothing may differ.
if [ -n "${OTHER_SETTINGS:-}" ] && named regress; then
	echo "== PostgreSQL $PG_MAJOR: pg_regress suites under other settings"
	jit=off
	[ -f "$("$PG_CONFIG" --pkglibdir)/llvmjit.so" ] && jit=on
	ensure_locale en_US.UTF-8
	INITDB_OPTS="--locale=en_US.UTF-8 --encoding=UTF8" cluster_start "uuidv7-pg$PG_MAJOR-other" \
		"TimeZone = 'America/Sao_Paulo'" "DateStyle = 'SQL, DMY'" "IntervalStyle = 'sql_standard'" \
		"extra_float_digits = 3" "client_min_messages = warning" \
		"max_parallel_workers_per_gather = 0" "jit = $jit" "jit_above_cost = 0" \
		"random_page_cost = 1.1" "enable_seqscan = off" "enable_hashagg = off" \
		"plan_cache_mode = force_generic_plan" "default_statistics_target = 1000"
	regress regress_settings
	cluster_stop
fi

# the pg_regress suites, then the scripts, some of which use this cluster
cluster_start "uuidv7-pg$PG_MAJOR"
if named regress; then
	echo "== PostgreSQL $PG_MAJOR: pg_regress suites"
	t0=$(date +%s)
	regress regress
	echo "TIME $PG_MAJOR regress $(($(date +%s) - t0))"
fi

# the TAP tests (test/t), each on clusters of its own, run by make
# installcheck as the OS user of clusters (initdb refuses root), their
# temporary files in the build (removed with it, where a failed test keeps
# them); a result for each, and the end of its log where it failed.  Two at
# a time (TAP_JOBS): they wait on their servers, sleeps and timeouts most of
# the time (138 s alone, 83 s two at a time, on 15)
tap() {
	local rc=0 name verdict tests log
	# (009_sql_edition runs in test/shell/sql_edition.sh, on the server it makes)
	tests=$(cd "$EXT_DIR" && ls test/t/*.pl | grep -v '/009_sql_edition\.pl$')
	tests=$(for t in $tests; do ! named "$(basename "$t" .pl)" || echo "$t"; done)
	[ -n "$tests" ] || return 0
	# (the log is root's, outside the directory the OS user of clusters owns)
	log=$(mktemp /tmp/uuidv7-tap.XXXXXX)
	at_exit "rm -f '$log'"
	tap_installcheck "$EXT_DIR" "$log" "$(echo $tests)" PROVE_FLAGS="--norc -j${TAP_JOBS:-2}" || rc=$?
	cat "$log"
	# (a framework missing is a failure in the whole suite, which installs it)
	if [ $rc -eq 77 ]; then
		result tap "$([ -n "${UUIDV7_STRICT:-}" ] && echo 1 || echo 77)"
		return
	fi
	# a result for each file: prove's line for one that passed or was
	# skipped (a skip is a failure in the whole suite), FAILED for any other (failed,
	# or never run after another bailed out)
	for t in $tests; do
		name=$(basename "$t" .pl)
		verdict=$(sed -nE "s|^(\[[0-9:]+\] )?test/t/$name\.pl \.+ (ok\|skipped).*|\2|p" "$log")
		case $verdict in
			ok) ;;
			skipped) [ -z "${UUIDV7_STRICT:-}" ] || verdict=FAILED ;;
			*) verdict=FAILED ;;
		esac
		echo "RESULT $PG_MAJOR tap/$name $verdict"
		if [ "$verdict" = FAILED ]; then
			status=1
			tail -n 40 "$EXT_DIR/tmp_check/log/regress_log_$name" 2>/dev/null || true
		fi
	done
	if [ $rc -ne 0 ]; then
		echo "RESULT $PG_MAJOR tap FAILED"
		status=1
	fi
}

t0=$(date +%s)
# (what the TAP tests need, 009_sql_edition's through test/shell/sql_edition.sh too)
ensure_build_deps libipc-run-perl libfaketime python3-nacl python3-cryptography libssl-dev
tap
echo "TIME $PG_MAJOR tap $(($(date +%s) - t0))"

for script in "$TOP"/test/shell/*.sh; do
	name=$(basename "$script" .sh)
	named "$name" || continue
	if grep -qw "$name" <<<"${SKIP_CHECKS:-}"; then continue; fi
	echo "== PostgreSQL $PG_MAJOR: $name"
	rc=0
	t0=$(date +%s)
	bash "$script" || rc=$?
	# (how long each took, for keeping the suite within its time)
	echo "TIME $PG_MAJOR $name $(($(date +%s) - t0))"
	result "$name" $rc
done
# (check.sh counts a major whose suite did not get this far as failed)
echo "SUITE END $PG_MAJOR"
exit $status
