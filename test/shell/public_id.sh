#!/usr/bin/env bash
# test/shell/public_id.sh: public ids from a build without OpenSSL (make
# WITHOUT_OPENSSL=1), its library mounted over the installed one for one
# server alone: ff1 is refused with 0A000, never replaced; uuidv47 gives the
# independent implementation's public id (test/unit/public_id_reference.py); the
# doctor says why.  (The rest of public ids is test/t/008_public_id.pl; the
# mount needs root, which TAP tests do not have.)
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
find_pg_config
ensure_build_deps python3-nacl python3-cryptography

work=$(mktemp -d /tmp/uuidv7-public-id.XXXXXX)
chmod 755 "$work"
at_exit 'rm -rf "$work"'
reference() { /usr/bin/python3 "$TOP/test/unit/public_id_reference.py" "$@"; }
sql_errors() { "$PG_BINDIR/psql" -X -q -At "$@" 2>&1; }
# a test key (not a secret)
KEY1=8d2f61c07a3be4195f0a6c27d3e8b41a
write_keys() {
	printf '%s\n' "# keys of public ids" "$@" | as_pg_user tee "$CLUSTER_DIR/data/uuidv7.keys" >/dev/null
	as_pg_user chmod 600 "$CLUSTER_DIR/data/uuidv7.keys"
}
# (sed reads it all: head would end python3 with a broken pipe)
id=$(/usr/bin/python3 "$TOP/test/unit/public_id_bits.py" ids | sed -n 1p)

echo "== built without OpenSSL: ff1 refused, never replaced; uuidv47 works"
mkdir "$work/nossl-build"
build_copy_and_install "$work/nossl-build" WITHOUT_OPENSSL=1 with_llvm=no DESTDIR="$work/nossl-server" >/dev/null
cluster_init uuidv7-public-id-nossl "shared_preload_libraries = 'uuidv7'" "uuidv7.public_id_key_file = 'uuidv7.keys'"
write_keys "* $KEY1"
# the server loads that build in place of the installed one, mounted over it
# in a mount namespace of its own (a copy of the server's files would not
# do: Debian's 13 finds them by absolute path, not beside its binaries); in
# a root, whose namespace in_root already made private, whose / is no mount
pkglibdir=$("$PG_CONFIG" --pkglibdir)
propagation=private
[ -z "${UUIDV7_IN_ROOT:-}" ] || propagation=unchanged
as_root unshare --mount --propagation $propagation sh -c 'mount --bind "$1" "$2" && shift 2 && exec "$@"' sh \
	"$work/nossl-server$pkglibdir/uuidv7.so" "$pkglibdir/uuidv7.so" \
	runuser -u "$PG_OS_USER" -- "$PG_BINDIR/pg_ctl" -D "$CLUSTER_DIR/data" -l "$CLUSTER_DIR/server.log" -w start >/dev/null ||
	{ cat "$CLUSTER_DIR/server.log"; exit 1; }
nossl=$(sql_errors -v VERBOSITY=verbose <<SQL | grep -E '^(ERROR|[0-9a-f]{8}-|error)' | sed 's/ (.*//'
CREATE EXTENSION uuidv7;
SELECT uuidv7_to_public('$id');
SET uuidv7.public_id_scheme = uuidv47;
SELECT uuidv7_to_public('$id');
RESET uuidv7.public_id_scheme;
SELECT severity || ' ' || object || ': ' || problem FROM uuidv7_doctor() WHERE object LIKE 'uuidv7.public_id%';
SQL
)
echo "$nossl" | sed 's/^/    /'
want="ERROR:  0A000: public id scheme \"ff1\" is not available
$(reference uuidv47 "$KEY1" <<<"$id")
error uuidv7.public_id_scheme: the scheme is ff1, but uuidv7 was built without OpenSSL: the public-id functions refuse"
if [ "$nossl" = "$want" ]; then
	echo "ok: without OpenSSL: ff1 is 0A000, uuidv47 gives the reference's public id, the doctor says why"
else
	echo "FAILED: without OpenSSL; want:"
	echo "$want"
	exit 1
fi
