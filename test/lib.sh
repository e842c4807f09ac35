# test/lib.sh: shared by the scripts that build uuidv7 and run it in a
# throwaway PostgreSQL cluster.  Source it; it defines functions only.
#
#   ensure_packages pkg...      install the Debian packages missing
#   ensure_build_deps [pkg...]  install what building needs, plus extra Debian packages
#   ensure_locale name          generate a locale the system lacks
#   build_and_install           make (warnings are errors) and make install
#   tree_copy dir               the tree's files, committed or not, copied into dir
#   build_copy_and_install dir [make args...]
#                               the same in a copy of the tree
#   debian_apt dir suite..., debian_orig_tarball dir source
#                               Debian's packages through a private apt
#                               configuration that reads the machine's mirror
#   pg_server major             a server of that major built from Debian's source, cached
#   use_pg_major major          the machine's own server of that major, or pg_server's
#   cluster_start [name [conf...]]
#                               initdb and start a cluster on a private socket,
#                               with extra postgresql.conf lines and the
#                               environment in CLUSTER_ENV (VAR=value ...);
#                               sets PGHOST, PGPORT, PGUSER, PGDATABASE, CLUSTER_DIR
#   cluster_init [name [conf...]], cluster_run
#                               (INITDB_OPTS: more options for initdb)
#                               the two halves of cluster_start
#   cluster_stop                stop it and remove its directory (also on exit)
#   as_pg_user cmd...           run a command as the cluster's OS user
#   tap_installcheck tree log tests [make args...]
#                               TAP tests of a copy of the tree, as that user
#   psql_q sql                  run SQL, print bare results, stop on the first error
#   server_copy dir             a copy of the server without uuidv7, for the SQL edition
#   regress_database, sql_edition_regress, as_role
#                               the SQL edition's suites, run by a role without superuser
#                               (test/once/embedded.sh)
#   create_bench_ms             bench_ms(statement): its milliseconds, for test/bench
#   upkeep_writer_script        pgbench script of writers of every month, for upkeep

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# the newest installed server's pg_config, unless PG_CONFIG says otherwise
find_pg_config() {
	if [ -z "${PG_CONFIG:-}" ]; then
		PG_CONFIG=$(ls -v /usr/lib/postgresql/*/bin/pg_config 2>/dev/null | tail -n 1)
		[ -n "$PG_CONFIG" ] || PG_CONFIG=$(command -v pg_config || true)
	fi
	if [ -z "$PG_CONFIG" ]; then
		echo "no PostgreSQL server found: install postgresql-NN first" >&2
		exit 1
	fi
	export PG_CONFIG
	PG_BINDIR=$("$PG_CONFIG" --bindir)
	PG_MAJOR=$("$PG_CONFIG" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')
}

# run a command as root, directly or through sudo
as_root() {
	if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# (tests of two majors run at once: apt takes turns on a lock of ours rather
# than failing on its own)
apt_updated=
apt_update() {
	if [ -z "$apt_updated" ]; then
		as_root flock /run/lock/uuidv7-apt apt-get update -qq || return 1
		apt_updated=1
	fi
}
apt_install() {
	apt_update
	as_root flock /run/lock/uuidv7-apt env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

# ensure_packages PKG...: the Debian packages that are not installed, installed
ensure_packages() {
	local missing=() pkg
	for pkg in "$@"; do
		dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
	done
	if [ ${#missing[@]} -gt 0 ]; then
		echo "== installing ${missing[*]}"
		apt_install "${missing[@]}"
	fi
}

ensure_build_deps() {
	local want=("$@")

	find_pg_config
	command -v make >/dev/null || want+=(make)
	command -v gcc >/dev/null || want+=(gcc)
	[ -f "$("$PG_CONFIG" --includedir-server)/postgres.h" ] || want+=("postgresql-server-dev-$PG_MAJOR")
	ensure_packages "${want[@]}"
}

build_and_install() {
	echo "== building uuidv7 against PostgreSQL $PG_MAJOR"
	make -C "$TOP" -s clean
	make -C "$TOP" -s WERROR=1
	as_root make -C "$TOP" -s install
}

# ensure_locale NAME: the locale NAME (such as en_US.UTF-8) generated where
# the system lacks it (the Debian roots make theirs; a machine may have
# only C and C.UTF-8)
ensure_locale() {
	local name=$1 lang=${1%%.*} charmap=${1#*.}
	locale -a 2>/dev/null | grep -qix "$lang.${charmap//-/}" && return 0
	ensure_packages locales
	as_root localedef -i "$lang" -c -f "$charmap" -A /usr/share/locale/locale.alias "$name"
}

# tree_copy DIR: the files of the tree that git tracks or would track (the
# working copy's, committed or not), copied into DIR, which exists
tree_copy() {
	(cd "$TOP" && git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$1")
}

# build_copy_and_install DIR [MAKE_ARGS...]: build uuidv7 for the server of
# PG_CONFIG in a copy of the tree in DIR (warnings are errors) and install
# it there, so that builds for several servers do not share object files
build_copy_and_install() {
	local dir=$1
	shift
	tree_copy "$dir"
	echo "== building uuidv7 against PostgreSQL $PG_MAJOR ($("$PG_CONFIG" --version))"
	make -C "$dir" -s WERROR=1 "$@"
	as_root make -C "$dir" -s install "$@" >/dev/null
}

# the OS user that owns throwaway clusters: initdb refuses root
if [ "$(id -u)" -eq 0 ]; then PG_OS_USER=postgres; else PG_OS_USER=$(id -un); fi

as_pg_user() {
	if [ "$(id -u)" -eq 0 ]; then runuser -u "$PG_OS_USER" -- "$@"; else "$@"; fi
}

# tap_installcheck TREE LOG TESTS [MAKE_ARGS...]: the TAP tests TESTS (files
# of test/t) of the copy of the tree in TREE, run by make installcheck as
# the OS user of clusters (initdb refuses root), which is given TREE, their
# temporary files in TREE/tmp; make's output in LOG, a file of root's
# outside TREE.  Returns make's status, or 77 where the server's test
# framework is missing (make says that it skipped them).  (make exports
# its command line's variables to the tests: UUIDV7_SQL_EDITION_DIR=...)
tap_installcheck() {
	local tree=$1 log=$2 tests=$3 rc=0
	shift 3
	mkdir -p "$tree/tmp"
	chown -R "$PG_OS_USER" "$tree"
	as_pg_user env -u HARNESS_TIMER -u HARNESS_OPTIONS TMPDIR="$tree/tmp" make -C "$tree" -s installcheck \
		REGRESS= ISOLATION= PROVE_TESTS="$tests" "$@" >"$log" 2>&1 || rc=$?
	! grep -q '^TAP tests (test/t) skipped' "$log" || return 77
	return $rc
}

# debian_mirror: the Debian mirror this machine's own apt configuration
# reads from (deb822 .sources files first, then the one-line sources.list),
# so that no script names a host of its own
debian_mirror() {
	local mirror
	mirror=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '
		/^[[:space:]]*$/ { if (uri != "" && suites ~ /(^| )[a-z]+( |$)/) { print uri; exit } uri = ""; suites = ""; next }
		/^URIs:/ { uri = $2 }
		/^Suites:/ { $1 = ""; suites = $0 }
		END { if (uri != "" && suites ~ /(^| )[a-z]+( |$)/) print uri }' | head -n 1)
	[ -n "$mirror" ] || mirror=$(sed -nE 's/^deb[[:space:]]+(\[[^]]*\][[:space:]]+)?([a-z]+:[^[:space:]]+)[[:space:]]+[a-z]+[[:space:]].*/\2/p' \
		/etc/apt/sources.list 2>/dev/null | grep -v security | head -n 1)
	[ -n "$mirror" ] || { echo "no Debian mirror in this machine's apt configuration" >&2; return 1; }
	echo "${mirror%/}"
}

# debian_apt DIR SUITE...: a private apt configuration in DIR for binary and
# source packages of the given Debian suites from the machine's own mirror
# (the machine's apt sources and package state are not changed; apt checks
# every download against the signed index).  Sets APT_OPTS, the options that
# point apt-get and apt-cache at it, and updates its lists.
debian_apt() {
	local dir=$1 suite mirror
	shift
	mirror=$(debian_mirror)
	mkdir -p "$dir"/{lists/partial,cache/archives/partial}
	touch "$dir/status"
	for suite in "$@"; do
		echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $suite main"
		echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $suite main"
	done >"$dir/sources.list"
	APT_OPTS=(-o Dir::Etc::sourcelist="$dir/sources.list" -o Dir::Etc::sourceparts=-
		-o Dir::State::Lists="$dir/lists" -o Dir::State::status="$dir/status"
		-o Dir::Cache="$dir/cache" -o APT::Sandbox::User=root)
	apt-get "${APT_OPTS[@]}" -qq update
}

# debian_orig_tarball DIR SOURCE: download the upstream tarball of a source
# package through the configuration debian_apt made; prints its path
debian_orig_tarball() {
	local dir=$1 source=$2
	# the mirror may refuse the Debian packaging files; the tarball is enough
	(cd "$dir" && apt-get "${APT_OPTS[@]}" -qq source --download-only "$source" >/dev/null 2>&1) || true
	local tarball
	tarball=$(ls "$dir"/"${source}"_*.orig.tar.* 2>/dev/null | grep -v '\.asc$' | head -n 1) || true
	[ -n "$tarball" ] && echo "$tarball"
}

# The PostgreSQL releases this project was last tested with, and their
# upstream tarballs' sha256, for when a suite's index names a release its
# mirror does not serve yet (trixie's index has named 17.12 while the pool
# held only 17.11's files)
declare -A PG_KNOWN_RELEASE=(
	[13]="13.16 c9cbbb6129f02328204828066bb3785c00a85c8ca8fd329c2a8a53c1f5cd8865"
	[15]="15.18 11df0df97fe3ea4ba9a791faaf39cee1d2fe571e78885b5b55d8517d27c323b4"
	[17]="17.11 dd27f2b3c59e73ed14aa3324901242bf69a032a6347805f274e6260322d42979"
	[18]="18.6 555610c24d53e4316da5b7d3fc25c279d96856d5e0e23ee308c328c5fa881d9f"
)

# pg_known_tarball DIR MAJOR: the upstream tarball of MAJOR's known release
# (above) from the mirror's pool, checked by its sha256; prints its path
pg_known_tarball() {
	local dir=$1 major=$2 version sha file
	[ -n "${PG_KNOWN_RELEASE[$major]:-}" ] || return 1
	read -r version sha <<<"${PG_KNOWN_RELEASE[$major]}"
	file=postgresql-${major}_$version.orig.tar.bz2
	/usr/lib/apt/apt-helper download-file "$(debian_mirror)/pool/main/p/postgresql-$major/$file" \
		"$dir/$file" "SHA256:$sha" >/dev/null 2>&1 || return 1
	echo "$dir/$file"
}

# pg_orig_tarball DIR MAJOR: PostgreSQL MAJOR's upstream tarball through the
# apt configuration debian_apt made in DIR, else its known release's
pg_orig_tarball() {
	debian_orig_tarball "$1" "postgresql-$2" || pg_known_tarball "$1" "$2"
}

# fetch_pg_source DIR: the upstream source tarball of the server's major
# version (PG_MAJOR), from Debian's stable suite; prints its path
fetch_pg_source() {
	debian_apt "$1" "$(. /etc/os-release && echo "$VERSION_CODENAME")"
	pg_orig_tarball "$1" "$PG_MAJOR"
}

# The Debian suite that serves each PostgreSQL major's source, for the
# servers pg_server builds
pg_suite() {
	case $1 in
		13) echo bullseye ;;
		15) echo bookworm ;;
		17) echo trixie ;;
		18) echo sid ;;
		19) echo experimental ;;
		*) (. /etc/os-release && echo "$VERSION_CODENAME") ;;
	esac
}

# Built servers are kept here, outside the checkout, one directory per
# upstream version and flavour, so that a second run reuses them
PG_CACHE=${UUIDV7_PG_CACHE:-/var/cache/uuidv7}
# bump to rebuild every cached server when the recipe below changes
PG_BUILD_RECIPE=4

# install_isolation_tester STAGED_PREFIX: in a built source tree, the
# isolation tester and its driver built and put where PGXS looks for them
# (pgxsdir/src/test/isolation), as Debian's server-dev packages do; a source
# install leaves them out, and PGXS's ISOLATION tests need them
install_isolation_tester() {
	local dir
	# (pg_config answers for where it stands, so the staged copy's answers
	# are in the stage; a sanitized build's leaks at exit are not ours)
	dir=$(ASAN_OPTIONS=detect_leaks=0 "$1/bin/pg_config" --pkglibdir)/pgxs/src/test/isolation
	make -s -C src/test/isolation all &&
		mkdir -p "$dir" &&
		cp src/test/isolation/isolationtester src/test/isolation/pg_isolation_regress "$dir/"
}

# pg_server MAJOR [FLAVOUR [known]]: a PostgreSQL server of that major version
# built from Debian's source package, in PG_CACHE; sets PG_CONFIG, PG_BINDIR
# and PG_MAJOR to it.  FLAVOUR "asan-cassert" builds it with AddressSanitizer
# and assertions enabled (--enable-cassert);
# "known" builds the major's known release (PG_KNOWN_RELEASE) rather than
# the suite's newest.  The
# build takes 3 to 6 minutes on two cores, once; jobs that want the same
# server take turns on a lock, the first building it.
pg_server() {
	local lock rc=0
	mkdir -p "$PG_CACHE"
	exec {lock}>"$PG_CACHE/.lock-pg-$1-${2:-plain}"
	flock "$lock"
	pg_server_locked "$@" || rc=$?
	exec {lock}>&-
	return $rc
}
pg_server_locked() {
	local major=$1 flavour=${2:-plain} release=${3:-} work version= prefix tarball cflags ldflags cassert
	work=$(mktemp -d /tmp/uuidv7-pgsrc.XXXXXX)
	if [ "$release" = known ]; then
		version=${PG_KNOWN_RELEASE[$major]%% *}
	elif debian_apt "$work/apt" "$(pg_suite "$major")" 2>"$work/apt.err"; then
		version=$(apt-cache "${APT_OPTS[@]}" showsrc "postgresql-$major" 2>/dev/null |
			sed -n 's/^Version: \(.*\)/\1/p' | sort -V | tail -n 1 | sed 's/-[^-]*$//; s/^[0-9]*://')
	fi
	if [ -z "$version" ]; then
		# no mirror: the newest build of this major already cached, if any
		version=$(ls "$PG_CACHE" | sed -n "s/^pg-\($major[.~][^-]*\)-$flavour-r$PG_BUILD_RECIPE\$/\1/p" | sort -V | tail -n 1)
		[ -n "$version" ] || { cat "$work/apt.err" >&2; echo "cannot find PostgreSQL $major's source" >&2; rm -rf "$work"; return 1; }
	fi
	prefix=$PG_CACHE/pg-$version-$flavour-r$PG_BUILD_RECIPE
	tarball=
	if [ ! -x "$prefix/bin/postgres" ] && [ "$release" = known ]; then
		tarball=$(pg_known_tarball "$work" "$major") || true
	elif [ ! -x "$prefix/bin/postgres" ]; then
		tarball=$(debian_orig_tarball "$work/apt" "postgresql-$major") || true
	fi
	if [ ! -x "$prefix/bin/postgres" ] && [ -z "$tarball" ] && [ -n "${PG_KNOWN_RELEASE[$major]:-}" ]; then
		# the index's newest is not served: the known release, built or fetched
		version=${PG_KNOWN_RELEASE[$major]%% *}
		prefix=$PG_CACHE/pg-$version-$flavour-r$PG_BUILD_RECIPE
		[ -x "$prefix/bin/postgres" ] || tarball=$(pg_known_tarball "$work" "$major") || true
	fi
	if [ ! -x "$prefix/bin/postgres" ]; then
		[ -n "$tarball" ] || { echo "could not download PostgreSQL $major's source" >&2; rm -rf "$work"; return 1; }
		echo "== building PostgreSQL $version ($flavour) into $prefix"
		# (no server of this major yet: what the build needs, not its headers;
		# PG_CONFIG may name a server this root does not have)
		ensure_packages make gcc libssl-dev zlib1g-dev bison flex perl pkg-config bzip2 lbzip2 libipc-run-perl
		tar -xf "$tarball" -C "$work"
		cflags="-O2 -g"
		ldflags=
		cassert=
		if [ "$flavour" = asan-cassert ]; then
			cflags="-O1 -g -fsanitize=address -fno-omit-frame-pointer"
			ldflags="-fsanitize=address"
			cassert=--enable-cassert
		fi
		# staged with DESTDIR and moved into place when complete, so that an
		# interrupted build is never taken for a cached one (the programs
		# find their libraries by the final prefix, built into them)
		(cd "$work"/postgresql-*/ &&
			./configure --prefix="$prefix" --with-openssl --without-readline --without-icu \
				--without-llvm --enable-debug --enable-tap-tests $cassert CFLAGS="$cflags" LDFLAGS="$ldflags" >"$work/configure.log" 2>&1 &&
			make -s -j"$(nproc)" >"$work/make.log" 2>&1 &&
			make -s install DESTDIR="$work/stage" >"$work/install.log" 2>&1 &&
			make -s -C contrib/amcheck install DESTDIR="$work/stage" >>"$work/install.log" 2>&1 &&
			install_isolation_tester "$work/stage$prefix" >>"$work/install.log" 2>&1) ||
			{ tail -n 40 "$work"/*.log; rm -rf "$work"; return 1; }
		rm -rf "$prefix"
		mv "$work/stage$prefix" "$prefix"
	fi
	rm -rf "$work"
	PG_CONFIG=$prefix/bin/pg_config
	export PG_CONFIG
	find_pg_config
}

# use_pg_major MAJOR: the machine's own server of that major where it has
# one, otherwise pg_server's build; sets PG_CONFIG, PG_BINDIR and PG_MAJOR
use_pg_major() {
	if [ -x "/usr/lib/postgresql/$1/bin/pg_config" ]; then
		PG_CONFIG=/usr/lib/postgresql/$1/bin/pg_config
		find_pg_config
		ensure_build_deps
	else
		pg_server "$1"
	fi
}

# The majors the machine lacks run from Debian's own packages, each in a
# minimal root of the Debian suite that ships it, made once with debootstrap
# from the machine's mirror and cached beside the built servers: 13 from
# bullseye, 17 from trixie, 18 from sid, and 19's release candidate from
# experimental in a sid root.  Each root also holds the major its
# 006_pgupgrade upgrades from (the suite's own, or another suite's packages
# of it where they install beside the root's), the test frameworks of the server's packages (pg_regress, the
# isolation tester, PostgreSQL::Test::Cluster) and IPC::Run for the TAP tests.
# Commands run in it through in_root, in a mount namespace of their own, so
# that the root's mounts end with them and none is ever left behind.
PG_ROOT_RECIPE=4

# pg_root_suite MAJOR: the Debian suite whose root runs a major's server;
# none for the machine's own
pg_root_suite() {
	case $1 in
		13) echo bullseye ;;
		17) echo trixie ;;
		18 | 19) echo sid ;;
	esac
}

# pg_root_previous MAJOR: the major 006_pgupgrade upgrades from in MAJOR's
# root, and the suite its packages come from, or "source" and the release
# pg_server builds in the root where no suite ships a server that will do:
# 13 from itself (bullseye has no other); 17 from bookworm's 15, built, as
# no suite ships a 15 that installs beside trixie's libraries (bookworm's
# needs libssl3, which trixie's libssl3t64 replaces); 18 from 17.11, built,
# as trixie's 17.12 records a pg_attver option on every column that 18.6
# rejects, so that pg_upgrade fails on any table
pg_root_previous() {
	case $1 in
		13) echo "13 bullseye" ;;
		17) echo "15 source" ;;
		18) echo "17 source known" ;;
		19) echo "18 sid" ;;
	esac
}

# pg_root_extra_suites MAJOR: the suites listed beside the root's own: the
# previous major's, and experimental for a major still in release
# candidates; apt takes a package from them only when asked for as
# package/suite, or when the root's suite lacks it
pg_root_extra_suites() {
	local previous suite
	read -r previous suite _ <<<"$(pg_root_previous "$1")"
	[ "$suite" = "$(pg_root_suite "$1")" ] || [ "$suite" = source ] || echo "$suite"
	[ "$1" -lt 19 ] || echo experimental
}

# pg_root_packages MAJOR: the packages its root holds: the server, its
# client (with the test frameworks), its headers and what building uuidv7
# and running the suite there need (a locale other than C among them, for
# the suite under other settings); the previous major, for 006_pgupgrade,
# named plainly: apt takes it from the extra suite where the root's has none,
# and that suite's libraries only where the root's lack them (asked for as
# package/suite, apt would take them all from there); 19's own from
# experimental (with -t experimental apt cannot solve perl)
pg_root_packages() {
	local major=$1 previous suite pin= p
	[ "$major" -lt 19 ] || pin=/experimental
	for p in postgresql-$major postgresql-client-$major postgresql-server-dev-$major libpq5 libpq-dev; do
		echo "$p$pin"
	done
	[ "$major" -lt 18 ] || echo "postgresql-$major-jit$pin"
	read -r previous suite _ <<<"$(pg_root_previous "$major")"
	[ "$previous" = "$major" ] || [ "$suite" = source ] ||
		echo "postgresql-$previous postgresql-client-$previous postgresql-server-dev-$previous"
	echo "gcc make libssl-dev git ca-certificates util-linux procps debian-archive-keyring locales libipc-run-perl libfaketime"
}

# debian_root NAME SUITE EXTRA_SUITES PACKAGES...: the cached minimal root
# of a Debian suite, holding PACKAGES, made if missing; prints its path.  The
# suites of EXTRA_SUITES (space-separated) are listed too, at a priority
# below the root's own (apt takes their packages when asked for as
# package/suite, or when the root's suite has none).
# Staged and renamed into place when complete, so that an interrupted run is
# never taken for a made one.
debian_root() {
	local name=$1 suite=$2 extra=$3 root lock rc=0
	shift 3
	root=$PG_CACHE/root-$name-r$PG_ROOT_RECIPE
	[ ! -f "$root/.complete" ] || { echo "$root"; return 0; }
	# one maker at a time; what an interrupted one left is removed
	mkdir -p "$PG_CACHE"
	exec {lock}>"$PG_CACHE/.lock-root-$name"
	flock "$lock"
	debian_root_make "$root" "$name" "$suite" "$extra" "$@" || rc=$?
	exec {lock}>&-
	[ $rc -eq 0 ] && echo "$root"
}

debian_root_make() {
	local root=$1 name=$2 suite=$3 extra=$4 stage mirror e
	shift 4
	if [ ! -f "$root/.complete" ]; then
		rm -rf "$PG_CACHE/.stage-root-$name".* "$PG_CACHE/.root-$name".*
		mirror=$(debian_mirror) || return 1
		command -v debootstrap >/dev/null || apt_install debootstrap >&2
		stage=$(mktemp -d "$PG_CACHE/.stage-root-$name.XXXXXX")
		chmod 755 "$stage"
		echo "== making a minimal $suite root ($name) in $root" >&2
		debootstrap --variant=minbase "$suite" "$stage" "$mirror" >"$stage.log" 2>&1 ||
			{ tail -n 20 "$stage.log" >&2; rm -rf "$stage" "$stage.log"; return 1; }
		if [ "$suite" = "$(. /etc/os-release && echo "$VERSION_CODENAME")" ]; then
			# the machine's own suite: its own apt sources, updates and
			# security updates included, so that its packages are the machine's
			rm -f "$stage/etc/apt/sources.list"
			cp /etc/apt/sources.list "$stage/etc/apt/" 2>/dev/null || true
			cp /etc/apt/sources.list.d/* "$stage/etc/apt/sources.list.d/" 2>/dev/null || true
		else
			{
				echo "deb $mirror $suite main"
				for e in $extra; do echo "deb $mirror $e main"; done
			} >"$stage/etc/apt/sources.list"
			for e in $extra; do
				printf 'Package: *\nPin: release n=%s\nPin-Priority: 100\n\n' "$e"
			done >"$stage/etc/apt/preferences.d/uuidv7"
		fi
		# the mirror's Release files may be past their Valid-Until date
		echo 'Acquire::Check-Valid-Until "false";' >"$stage/etc/apt/apt.conf.d/99uuidv7"
		UUIDV7_ROOT=$stage in_root - sh -c "apt-get -qq update &&
			DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $* &&
			echo 'en_US.UTF-8 UTF-8' >/etc/locale.gen && locale-gen" \
			>>"$stage.log" 2>&1 || { tail -n 20 "$stage.log" >&2; rm -rf "$stage" "$stage.log"; return 1; }
		rm -rf "$stage"/var/cache/apt/archives/*.deb "$stage.log"
		touch "$stage/.complete"
		mv -T "$stage" "$root"
	fi
}

# pg_root MAJOR: the cached root that runs MAJOR's server (see debian_root)
pg_root() {
	local root
	root=$(pg_root_packaged "$1") && root_isolation_tester "$1" "$root" && echo "$root"
}
# pg_root_packaged MAJOR: the root with its packages, but not yet what is
# built in it (check.sh makes these ahead, as they mostly wait on the network)
pg_root_packaged() {
	local suite
	suite=$(pg_root_suite "$1")
	# shellcheck disable=SC2046
	debian_root "$suite-$1" "$suite" "$(pg_root_extra_suites "$1" | xargs)" $(pg_root_packages "$1")
}

# root_isolation_tester MAJOR ROOT: the isolation tester of MAJOR in ROOT,
# where PGXS looks for it; Debian's packages of 13 leave it out, so it is
# built there once from the same upstream source (the tester alone: the
# server is Debian's)
root_isolation_tester() {
	local major=$1 root=$2 dir work tarball
	dir=/usr/lib/postgresql/$major/lib/pgxs/src/test/isolation
	[ ! -x "$root$dir/pg_isolation_regress" ] || return 0
	echo "== building PostgreSQL $major's isolation tester in its root" >&2
	work=$(mktemp -d /tmp/uuidv7-isolation.XXXXXX)
	chmod 755 "$work"
	debian_apt "$work/apt" "$(pg_root_suite "$major")" &&
		tarball=$(pg_orig_tarball "$work/apt" "$major") && tar -xf "$tarball" -C "$work" &&
		UUIDV7_ROOT=$root in_root - sh -c '
			cd "$1"/postgresql-*/ &&
			./configure --without-readline --without-zlib --without-icu --disable-rpath >../configure.log 2>&1 &&
			make -s -C src/test/isolation >../make.log 2>&1 &&
			install -D -t "$2" src/test/isolation/isolationtester src/test/isolation/pg_isolation_regress' \
			sh "$work" "$dir" ||
		{ tail -n 20 "$work"/*.log >&2; rm -rf "$work"; return 1; }
	rm -rf "$work"
}

# in_root MAJOR CMD...: run a command in MAJOR's root (UUIDV7_ROOT names
# another) as root, with /proc, /dev, /tmp and the checkout mounted at the
# same paths as outside, so that throwaway clusters, logs and copies of the
# tree are shared with the machine, and the machine's certificate store (the
# root trusts what the machine trusts, for npm among others).  The command
# finds the root's path (as the machine sees it) in UUIDV7_IN_ROOT.
in_root() {
	local major=$1 root
	shift
	root=${UUIDV7_ROOT:-$(pg_root "$major")} || return 1
	unshare --mount --propagation private -- sh -c '
		root=$1 top=$2
		shift 2
		mount -t proc proc "$root/proc" && mount --rbind /dev "$root/dev" || exit 1
		# (a root being made gets /proc and /dev alone: its packages write
		# their own certificate store)
		[ -f "$root/.complete" ] || exec chroot "$root" "$@"
		mount --bind /tmp "$root/tmp" &&
			mount --bind -o ro /etc/ssl/certs "$root/etc/ssl/certs" &&
			mkdir -p "$root$top" && mount --bind "$top" "$root$top" &&
			exec chroot "$root" /usr/bin/env -C "$top" UUIDV7_IN_ROOT="$root" "$@"' sh "$root" "$TOP" "$@"
}

# sql_edition_build DIR: the SQL edition's files, assembled from the
# sources out of the tree, in DIR/edition (built in DIR/build)
sql_edition_build() {
	mkdir "$1/build"
	make -s -C "$1/build" -f "$TOP/Makefile" VPATH="$TOP" SQL_EDITION_DIR="$1/edition" sql-edition
}

# checks_read: CHECKS's words, as words (no pattern expanded), back into
# CHECKS; fails, saying why, where it holds blanks only or a name that names
# no check (regress, a file of test/t, a script of test/shell or test/once):
# a mistake, not a pass
checks_read() {
	local checks check
	read -ra checks <<<"${CHECKS:-}"
	if [ -n "${CHECKS:-}" ] && [ ${#checks[@]} -eq 0 ]; then
		echo "CHECKS names no check" >&2
		return 1
	fi
	CHECKS="${checks[*]}"
	for check in "${checks[@]}"; do
		if [ "$check" = 009_sql_edition ]; then
			echo "CHECKS: 009_sql_edition runs in the check sql_edition, on the server it makes" >&2
			return 1
		fi
		if ! [[ $check =~ ^[A-Za-z0-9_-]+$ ]] || ! { [ "$check" = regress ] ||
			[ -f "$TOP/test/t/$check.pl" ] || [ -f "$TOP/test/shell/$check.sh" ] ||
			[ -f "$TOP/test/once/$check.sh" ] || [ -f "$TOP/test/once/$check/run.sh" ]; }; then
			echo "CHECKS: no test named $check" >&2
			return 1
		fi
	done
}

CLUSTER_DIRS=()
# whatever way a script exits, its clusters are stopped and removed, then
# what it asked for with at_exit is done: one trap for all, so that starting
# a cluster never replaces a script's own clean-up
EXIT_ACTIONS=()
at_exit() { EXIT_ACTIONS+=("$1"); }
run_exit_actions() {
	local action
	cluster_stop_all
	for action in "${EXIT_ACTIONS[@]}"; do eval "$action"; done
}
trap run_exit_actions EXIT
# the bootstrap superuser of throwaway clusters; nothing may depend on its
# name (Homebrew and Postgres.app name it after the OS user)
CLUSTER_SUPERUSER=${CLUSTER_SUPERUSER:-postgres}

# initdb a cluster in a directory of its own, configured but not started
cluster_init() {
	local name=${1:-uuidv7}
	shift || true
	CLUSTER_DIR=$(mktemp -d "/tmp/$name.XXXXXX")
	chmod 755 "$CLUSTER_DIR"
	[ "$(id -u)" -eq 0 ] && chown "$PG_OS_USER" "$CLUSTER_DIR"
	CLUSTER_DIRS+=("$CLUSTER_DIR")

	as_pg_user "$PG_BINDIR/initdb" -D "$CLUSTER_DIR/data" -U "$CLUSTER_SUPERUSER" -A trust \
		--no-sync ${INITDB_OPTS:-} >"$CLUSTER_DIR/initdb.log" 2>&1 ||
		{ cat "$CLUSTER_DIR/initdb.log"; exit 1; }
	# the socket lives in the cluster's own directory and TCP is off, so the
	# port only names the socket and cannot clash with another server's
	export PGHOST=$CLUSTER_DIR PGPORT=$((50000 + RANDOM % 10000)) PGUSER=$CLUSTER_SUPERUSER
	export PGDATABASE=postgres
	cat >>"$CLUSTER_DIR/data/postgresql.conf" <<-EOF
		listen_addresses = ''
		unix_socket_directories = '$CLUSTER_DIR'
		port = $PGPORT
		fsync = off
		max_connections = 40
		$(printf '%s\n' "$@")
	EOF
}

# start the cluster in CLUSTER_DIR
cluster_run() {
	as_pg_user env ${CLUSTER_ENV:-} "$PG_BINDIR/pg_ctl" -D "$CLUSTER_DIR/data" \
		-l "$CLUSTER_DIR/server.log" -w start >/dev/null ||
		{ cat "$CLUSTER_DIR/server.log"; exit 1; }
}

cluster_start() {
	cluster_init "$@"
	cluster_run
}

cluster_stop() {
	local dir=${1:-$CLUSTER_DIR}
	[ -n "$dir" ] && [ -d "$dir" ] || return 0
	as_pg_user "$PG_BINDIR/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
	rm -rf "$dir"
}

cluster_stop_all() {
	for dir in "${CLUSTER_DIRS[@]}"; do cluster_stop "$dir"; done
}

# upkeep_writer_script: the pgbench script of an application writing to
# table ev while its partitions are kept, test/data/upkeep_writer.sql (used by
# test/t/007_upkeep_load.pl; test/bench/upkeep.sh times it)
upkeep_writer_script() { cat "$TOP/test/data/upkeep_writer.sql"; }

# create_bench_ms: in the database of PGDATABASE, bench_ms(statement), the
# milliseconds a statement takes, timed inside the server (for test/bench)
create_bench_ms() {
	psql_q "CREATE FUNCTION bench_ms(q text) RETURNS float8 LANGUAGE plpgsql AS \$\$
		DECLARE t0 timestamptz := clock_timestamp();
		BEGIN EXECUTE q; RETURN 1000 * extract(epoch FROM clock_timestamp() - t0); END \$\$"
}

# server_copy DIR: a copy of the server installation of PG_CONFIG in DIR
# (programs, libraries and shared files, each at its own path under DIR),
# without any file of uuidv7; prints the copy's pg_config.  The server finds
# its files relative to its programs, so the copy serves what is installed
# into it and nothing the original has (test/shell/sql_edition.sh: a server
# where no C of uuidv7 exists).
server_copy() {
	local dir=$1 bindir sharedir pkglibdir
	bindir=$("$PG_CONFIG" --bindir)
	sharedir=$("$PG_CONFIG" --sharedir)
	pkglibdir=$("$PG_CONFIG" --pkglibdir)
	mkdir -p "$dir"
	(cd / && cp -a --parents "${bindir#/}" "${sharedir#/}" "${pkglibdir#/}" "$dir/") || return 1
	# (a server that finds its files by absolute path, as Debian's 13 does,
	# would have the copy's installs land in the server itself)
	if [ "$("$dir$bindir/pg_config" --sharedir)" != "$dir$sharedir" ]; then
		echo "the copy of the server in $dir does not find its files beside its binaries" >&2
		return 1
	fi
	rm -rf "$dir$sharedir"/extension/uuidv7* "$dir$pkglibdir"/uuidv7.so "$dir$pkglibdir"/bitcode/uuidv7*
	echo "$dir$bindir/pg_config"
}

# regress_database NAME OWNER: a database for the pg_regress suites, set up
# as pg_regress sets up the one it makes
regress_database() {
	psql_q "CREATE DATABASE $1 OWNER $2"
	for setting in "lc_messages TO 'C'" "lc_monetary TO 'C'" "lc_numeric TO 'C'" "lc_time TO 'C'" \
		"bytea_output TO 'hex'" "timezone_abbreviations TO 'Default'"; do
		psql_q "ALTER DATABASE $1 SET $setting"
	done
}

# sql_edition_regress ROLE DATABASE OUTDIR [TESTS]: the pg_regress suites
# both editions share (REGRESS_SQL_EDITION, or TESTS), then the isolation
# specs (not with TESTS), run by ROLE in DATABASE, where the extension
# exists, on the cluster of PGHOST, with the pg_regress of PG_CONFIG; the
# differences printed if any.  Fails where make fails (a test that failed,
# or a program missing that no test reports) or no test ran.
sql_edition_regress() {
	local rc=0 diffs log=$3/make.log
	mkdir -p "$3/build"
	PGUSER=$1 make -s -C "$3/build" -f "$TOP/Makefile" VPATH="$TOP" installcheck-sql-edition \
		${4:+REGRESS_SQL_EDITION="$4" ISOLATION=} \
		REGRESS_OPTS="--inputdir=$TOP --outputdir=$3 --use-existing --dbname=$2" \
		ISOLATION_OPTS="--inputdir=$TOP --outputdir=$3/isolation --use-existing --dbname=$2" >"$log" 2>&1 || rc=$?
	grep -E '^(test |ok |not ok |# |=+| [0-9A-Za-z])' "$log" || true
	for diffs in "$3/regression.diffs" "$3/isolation/regression.diffs"; do
		[ ! -f "$diffs" ] || head -n 200 "$diffs"
	done
	[ $rc -eq 0 ] || { echo "make installcheck-sql-edition failed:"; tail -n 20 "$log"; }
	grep -qE '^(test |ok |not ok )' "$log" || { echo "make installcheck-sql-edition ran no test"; rc=1; }
	return $rc
}

# as_role ROLE DATABASE [psql options]: SQL on standard input, run as ROLE
as_role() {
	local role=$1 db=$2
	shift 2
	PGUSER=$role "$PG_BINDIR/psql" -X -q -At -v ON_ERROR_STOP=1 -d "$db" "$@"
}

psql_q() {
	"$PG_BINDIR/psql" -X -q -At -v ON_ERROR_STOP=1 -c "$1"
}
