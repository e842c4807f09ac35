# test/lib.sh: shared by the scripts that build uuidv7 and run it in a
# throwaway PostgreSQL cluster.  Source it; it defines functions only.
#
#   ensure_build_deps [pkg...]  install what building needs, plus extra Debian packages
#   build_and_install           make (warnings are errors) and make install
#   cluster_start [name [conf...]]
#                               initdb and start a cluster on a private socket,
#                               with extra postgresql.conf lines and the
#                               environment in CLUSTER_ENV (VAR=value ...);
#                               sets PGHOST, PGPORT, PGUSER, PGDATABASE, CLUSTER_DIR
#   cluster_init [name [conf...]], cluster_run
#                               the two halves of cluster_start
#   cluster_stop                stop it and remove its directory (also on exit)
#   as_pg_user cmd...           run a command as the cluster's OS user
#   psql_q sql                  run SQL, print bare results, stop on the first error
#   app_create, app_schema, app_digests, app_works
#                               the application database of test/app.sql

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

apt_updated=
apt_install() {
	if [ -z "$apt_updated" ]; then
		as_root apt-get update -qq
		apt_updated=1
	fi
	as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

ensure_build_deps() {
	local want=("$@")

	find_pg_config
	command -v make >/dev/null || want+=(make)
	command -v gcc >/dev/null || want+=(gcc)
	[ -f "$("$PG_CONFIG" --includedir-server)/postgres.h" ] || want+=("postgresql-server-dev-$PG_MAJOR")
	local missing=()
	for pkg in "${want[@]}"; do
		dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
	done
	if [ ${#missing[@]} -gt 0 ]; then
		echo "== installing ${missing[*]}"
		apt_install "${missing[@]}"
	fi
}

build_and_install() {
	echo "== building uuidv7 against PostgreSQL $PG_MAJOR"
	make -C "$TOP" -s clean
	make -C "$TOP" -s WERROR=1
	as_root make -C "$TOP" -s install
}

# the OS user that owns throwaway clusters: initdb refuses root
if [ "$(id -u)" -eq 0 ]; then PG_OS_USER=postgres; else PG_OS_USER=$(id -un); fi

as_pg_user() {
	if [ "$(id -u)" -eq 0 ]; then runuser -u "$PG_OS_USER" -- "$@"; else "$@"; fi
}

# fetch_pg_source DIR: download the upstream source of the installed server's
# major version from Debian into DIR, with apt's own tools and a private
# configuration (the machine's apt sources are not changed; apt checks the
# tarball against the signed index); prints the tarball's path
fetch_pg_source() {
	local dir=$1 codename
	codename=$(. /etc/os-release && echo "$VERSION_CODENAME")
	mkdir -p "$dir"/{lists/partial,cache/archives/partial}
	touch "$dir/status"
	echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian $codename main" \
		>"$dir/sources.list"
	local apt=(-o Dir::Etc::sourcelist="$dir/sources.list" -o Dir::Etc::sourceparts=-
		-o Dir::State::Lists="$dir/lists" -o Dir::State::status="$dir/status"
		-o Dir::Cache="$dir/cache" -o APT::Sandbox::User=root)
	apt-get "${apt[@]}" -qq update
	# the mirror may refuse the Debian packaging files; the tarball is enough
	(cd "$dir" && apt-get "${apt[@]}" -qq source --download-only "postgresql-$PG_MAJOR" >/dev/null 2>&1) || true
	ls "$dir"/postgresql-"$PG_MAJOR"_*.orig.tar.* 2>/dev/null | head -n 1
}

CLUSTER_DIRS=()

# initdb a cluster in a directory of its own, configured but not started
cluster_init() {
	local name=${1:-uuidv7}
	shift || true
	CLUSTER_DIR=$(mktemp -d "/tmp/$name.XXXXXX")
	chmod 755 "$CLUSTER_DIR"
	[ "$(id -u)" -eq 0 ] && chown "$PG_OS_USER" "$CLUSTER_DIR"
	CLUSTER_DIRS+=("$CLUSTER_DIR")
	trap cluster_stop_all EXIT

	as_pg_user "$PG_BINDIR/initdb" -D "$CLUSTER_DIR/data" -U postgres -A trust \
		--no-sync >"$CLUSTER_DIR/initdb.log" 2>&1 ||
		{ cat "$CLUSTER_DIR/initdb.log"; exit 1; }
	# the socket lives in the cluster's own directory and TCP is off, so the
	# port only names the socket and cannot clash with another server's
	export PGHOST=$CLUSTER_DIR PGPORT=$((50000 + RANDOM % 10000)) PGUSER=postgres
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

# the application database of test/app.sql: create it in database "app" of
# the cluster in PGHOST; print its schema; print a digest of its rows and the
# checks that must hold of them
app_create() {
	psql_q "CREATE DATABASE app"
	"$PG_BINDIR/psql" -X -q -v ON_ERROR_STOP=1 -d app -f "$TOP/test/app.sql" >/dev/null
}
# (the \restrict key of pg_dump 15.14+ is random in every dump)
app_schema() { # app_schema HOST PORT DB
	"$PG_BINDIR/pg_dump" -h "$1" -p "$2" -d "$3" --schema-only | grep -Ev '^\\(un)?restrict '
}
app_digests() { # app_digests HOST PORT DB
	"$PG_BINDIR/psql" -X -q -At -h "$1" -p "$2" -d "$3" -v ON_ERROR_STOP=1 -c "
		SELECT 'orders ' || count(*) || ' ' || md5(string_agg(o::text, ',' ORDER BY id)) FROM orders o;
		SELECT 'events ' || count(*) || ' ' || md5(string_agg(e::text, ',' ORDER BY id)) FROM events e;
		SELECT 'recent_orders ' || count(*) FROM recent_orders;
		SELECT 'rows in the partition of their time ' || bool_and(tableoid = (
			SELECT c.oid FROM pg_class c WHERE c.relname = 'orders_p' || to_char(created_at AT TIME ZONE 'UTC', 'YYYY_MM')))
		FROM orders;"
}
# what must still work: the time operators' families complete, a default, the DDL
app_works() { # app_works DB: prints "0 t 2" when it all works
	"$PG_BINDIR/psql" -X -q -At -d "$1" -v ON_ERROR_STOP=1 -c "
		SELECT count(*) FROM uuidv7_time_ops_status() WHERE NOT present;
		INSERT INTO events (kind) VALUES ('later') RETURNING uuidv7_timestamp(id) > now() - interval '1 minute';
		SELECT count(*) FROM uuidv7_partition_ddl('orders', '2025-07-01', '2025-09-01', '1 month', 'UTC');" | tr '\n' ' ' | sed 's/ $//'
}

psql_q() {
	"$PG_BINDIR/psql" -X -q -At -v ON_ERROR_STOP=1 -c "$1"
}
