#!/usr/bin/env bash
# test/t_public_id.sh: public ids (uuidv7_to_public, uuidv7_from_public,
# uuidv7_from_public_all) on this major:
#
#   - src/ff1.c against NIST's nine FF1 samples (with and without 128-bit
#     integers) and src/siphash.c against python3-nacl, built without the
#     server; the independent implementation (test/public_id_reference.py)
#     against the same NIST samples;
#   - in a cluster with uuidv7 preloaded: each scheme's public ids of 2,000
#     fixed v7s equal the independent implementation's, exactly; two million
#     generated ids per scheme round-trip, come out as distinct version 4
#     UUIDs, the same from parallel workers; FF1 flips on average 61 of 122
#     bits for a flipped input bit, and no output bit follows any input bit
#     more often than chance (uuidv47, which shows 74 bits, fails this); a new key
#     changes every public id, and the old ones are read back through
#     uuidv7_from_public_all during the rotation;
#   - the keys: no role without superuser, a pg_monitor member among them,
#     reads them (SHOW, current_setting, pg_settings, pg_file_settings) or
#     stores them (ALTER ROLE / DATABASE SET, SET); errors and the server log
#     (with every statement logged, through a reload) never hold them;
#   - lookups by public id use the primary key, for a role under row-level
#     security too; bad input gets 22023;
#   - without preloading, the functions refuse with an error that says so;
#   - built without OpenSSL (make WITHOUT_OPENSSL=1, into a copy of the
#     server), ff1 is refused with 0A000, never replaced; uuidv47 works.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
find_pg_config
ensure_build_deps python3-nacl python3-cryptography libssl-dev

work=$(mktemp -d /tmp/uuidv7-public-id.XXXXXX)
chmod 755 "$work"
trap 'cluster_stop_all; rm -rf "$work"' EXIT
status=0
check() { # check WHAT GOT WANT
	if [ "$2" = "$3" ]; then
		echo "ok: $1"
	else
		echo "FAILED: $1"
		echo "  got:  $2"
		echo "  want: $3"
		status=1
	fi
}
reference() { /usr/bin/python3 "$TOP/test/public_id_reference.py" "$@"; }
# SQL from stdin: stopping at the first error, or going on with errors in the output
sql() { "$PG_BINDIR/psql" -X -q -At -v ON_ERROR_STOP=1 "$@"; }
sql_errors() { "$PG_BINDIR/psql" -X -q -At "$@" 2>&1; }

# test keys (not secrets): a key set's hex must never show in any output
KEY1=8d2f61c07a3be4195f0a6c27d3e8b41a
KEY2=0f1e2d3c4b5a69788796a5b4c3d2e1f0
leaks() { grep -ciE "$KEY1|$KEY2" || true; }

echo "== FF1 against NIST's samples, SipHash-2-4 against python3-nacl"
for variant in "" -DFF1_WITHOUT_INT128; do
	gcc -std=gnu99 -Wall -Wextra -Werror -DFRONTEND -DUUIDV7_USE_OPENSSL $variant -isystem "$("$PG_CONFIG" --includedir-server)" \
		-isystem "$("$PG_CONFIG" --includedir)/internal" -o "$work/vectors" "$TOP/test/unit/vectors.c" \
		"$TOP/src/ff1.c" "$TOP/src/siphash.c" -lcrypto
	echo "src/ff1.c ${variant:-(with 128-bit integers)}:"
	"$work/vectors" ff1 || status=1
done
reference nist || status=1
"$work/vectors" siphash >"$work/siphash-c.txt"
/usr/bin/python3 -c '
import nacl.hash
key = bytes(range(16))
for n in range(64):
    print(nacl.hash.siphash24(bytes(range(n)), key=key).decode())' >"$work/siphash-nacl.txt"
check "SipHash-2-4 of the reference's 64 messages equals libsodium's (python3-nacl)" \
	"$(md5sum <"$work/siphash-c.txt")" "$(md5sum <"$work/siphash-nacl.txt")"

cluster_start uuidv7-public-id "shared_preload_libraries = 'uuidv7'" "uuidv7.public_id_keys = '$KEY1'" \
	"log_statement = 'all'"
log=$CLUSTER_DIR/server.log
psql_q "CREATE EXTENSION uuidv7"

echo "== each scheme against the independent implementation, on 2,000 fixed ids"
# fixed ids: every edge of the variable bits, then seeded random ones
/usr/bin/python3 - >"$work/ids.txt" <<'PY'
import random, uuid
random.seed(20261124)
def v7(ms, a, b):
    return uuid.UUID(int=(ms << 80) | (7 << 76) | (a << 64) | (2 << 62) | b)
ids = [v7(0, 0, 0), v7((1 << 48) - 1, 0xFFF, (1 << 62) - 1), v7(1, 0, 0), v7(0, 0, 1), v7(0, 1, 0)]
ids += [v7(random.getrandbits(48), random.getrandbits(12), random.getrandbits(62)) for _ in range(1995)]
print("\n".join(str(i) for i in ids))
PY
psql_q "CREATE TABLE fixed (n serial, id uuid)"
as_pg_user "$PG_BINDIR/psql" -X -q -v ON_ERROR_STOP=1 -c "\\copy fixed (id) FROM '$work/ids.txt'"
for scheme in ff1 uuidv47; do
	got=$(sql <<<"SET uuidv7.public_id_scheme = $scheme; SELECT uuidv7_to_public(id) FROM fixed ORDER BY n")
	want=$(reference "$scheme" "$KEY1" <"$work/ids.txt")
	check "$scheme: the public ids of the 2,000 fixed ids equal the reference's" "$(md5sum <<<"$got")" "$(md5sum <<<"$want")"
	back=$(sql <<<"SET uuidv7.public_id_scheme = $scheme; SELECT count(*) FILTER (WHERE uuidv7_from_public(uuidv7_to_public(id)) = id) FROM fixed")
	check "$scheme: and back" "$back" 2000
done

echo "== two million generated ids per scheme"
for scheme in ff1 uuidv47; do
	got=$(sql <<<"SET uuidv7.public_id_scheme = $scheme;
		SELECT count(*), count(DISTINCT p), count(*) FILTER (WHERE uuidv7_from_public(p) = id),
			count(*) FILTER (WHERE substr(p::text, 15, 1) = '4' AND substr(p::text, 20, 1) IN ('8', '9', 'a', 'b'))
		FROM (SELECT id, uuidv7_to_public(id) AS p FROM (SELECT uuidv7_generate() AS id FROM generate_series(1, 2000000)) g) s" |
		tr '|' ' ')
	check "$scheme: 2,000,000 ids: distinct public ids, all round-trip, all version 4 of the RFC variant" \
		"$got" "2000000 2000000 2000000 2000000"
done

echo "== in parallel workers, the same public ids"
parallel=$(sql <<'SQL'
CREATE TABLE many AS SELECT uuidv7_generate() AS id FROM generate_series(1, 200000);
ANALYZE many;
SET uuidv7.public_id_scheme = ff1;
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
EXPLAIN (COSTS OFF) SELECT sum(hashtext(uuidv7_to_public(id)::text)), count(*) FILTER (WHERE uuidv7_from_public(uuidv7_to_public(id)) = id) FROM many;
SELECT 'parallel ' || sum(hashtext(uuidv7_to_public(id)::text)) || ' ' || count(*) FILTER (WHERE uuidv7_from_public(uuidv7_to_public(id)) = id) FROM many;
SET max_parallel_workers_per_gather = 0;
SELECT 'serial ' || sum(hashtext(uuidv7_to_public(id)::text)) || ' ' || count(*) FILTER (WHERE uuidv7_from_public(uuidv7_to_public(id)) = id) FROM many;
SQL
)
check "a parallel plan (workers making public ids) gives the serial plan's public ids, all round-tripping" \
	"$(grep -c 'Partial Aggregate' <<<"$parallel") $(sed -n 's/^parallel //p' <<<"$parallel") 200000" \
	"1 $(sed -n 's/^serial //p' <<<"$parallel") $(sed -n 's/^serial [-0-9]* //p' <<<"$parallel")"

echo "== FF1 hides every bit"
# each of 2,000 ids with each of its 122 variable bits flipped in turn
/usr/bin/python3 - "$work/ids.txt" >"$work/flipped.txt" <<'PY'
import sys, uuid
positions = [p for p in range(128) if not (76 <= p < 80 or 62 <= p < 64)]
for line in open(sys.argv[1]):
    x = uuid.UUID(line.strip()).int
    for p in positions:
        print(uuid.UUID(int=x ^ (1 << p)))
PY
psql_q "CREATE TABLE flipped (n serial, id uuid)"
as_pg_user "$PG_BINDIR/psql" -X -q -v ON_ERROR_STOP=1 -c "\\copy flipped (id) FROM '$work/flipped.txt'"
cat >"$work/bits.py" <<'PY'
import sys, uuid
def bits(u):  # the 122 variable bits of a version 4 or 7 UUID
    x = uuid.UUID(u.strip()).int
    return ((x >> 80) << 74) | (((x >> 64) & 0xFFF) << 62) | (x & ((1 << 62) - 1))
ids, public, flipped = ([bits(l) for l in open(f) if l.strip()] for f in sys.argv[1:4])
changed = [bin(public[k // 122] ^ f).count("1") for k, f in enumerate(flipped)]
mean = sum(changed) / len(changed)
# per pair of input bit i and output bit j: how often they are equal, over the ids
n = len(ids)
col_in = [sum(((x >> i) & 1) << k for k, x in enumerate(ids)) for i in range(122)]
col_out = [sum(((y >> j) & 1) << k for k, y in enumerate(public)) for j in range(122)]
worst = max(abs((n - bin(a ^ b).count("1")) / n - 0.5) for a in col_in for b in col_out)
# (the inputs are fixed: the figures are too; 57% is 6.3 standard deviations
# from 50% for 2,000 ids, where the largest of 14,884 chance pairs is near 4)
ok = 60.5 < mean < 61.5 and worst < 0.07
print(f"flipping one of 122 input bits changes {mean:.2f} output bits on average ({len(changed)} flips; "
      f"chance: 61); the input/output bit pair most often equal is so in {100 * (0.5 + worst):.1f}% of "
      f"{n} ids (chance: 50%; limit: 57%)")
sys.exit(0 if ok else 1)
PY
for scheme in ff1 uuidv47; do
	sql <<<"SET uuidv7.public_id_scheme = $scheme; SELECT uuidv7_to_public(id) FROM fixed ORDER BY n" >"$work/public.txt"
	sql <<<"SET uuidv7.public_id_scheme = $scheme; SELECT uuidv7_to_public(id) FROM flipped ORDER BY n" >"$work/public-flipped.txt"
	hidden=0
	result=$(/usr/bin/python3 "$work/bits.py" "$work/ids.txt" "$work/public.txt" "$work/public-flipped.txt") || hidden=$?
	if [ $scheme = ff1 ]; then
		check "ff1: every bit hidden: $result" $hidden 0
	else
		# the check tells a scheme that shows bits: uuidv47 sends 74 as they are
		check "uuidv47, for contrast, fails that check: $result" $hidden 1
	fi
done

echo "== the keys are read by no one and shown to no one"
psql_q "CREATE ROLE regress_app LOGIN; CREATE ROLE regress_monitor LOGIN; GRANT pg_monitor TO regress_monitor"
for role in regress_app regress_monitor; do
	out=$(PGUSER=$role sql_errors <<'SQL'
SHOW uuidv7.public_id_keys;
SELECT 'current_setting: ' || current_setting('uuidv7.public_id_keys');
SELECT 'pg_settings rows: ' || count(*) FROM pg_settings WHERE name = 'uuidv7.public_id_keys';
SELECT 'pg_file_settings rows: ' || count(*) FROM pg_file_settings WHERE name = 'uuidv7.public_id_keys';
SET uuidv7.public_id_keys = '0f1e2d3c4b5a69788796a5b4c3d2e1f0';
SET uuidv7.public_id_scheme = uuidv47;
SELECT 'scheme: ' || current_setting('uuidv7.public_id_scheme');
SQL
)
	echo "$out" | sed "s/^/    $role: /"
	check "$role: reads no key (SHOW, current_setting, pg_settings, pg_file_settings) and sets neither setting" \
		"$(leaks <<<"$out") $(grep -cE '^(pg_settings rows: 0|scheme: ff1)$' <<<"$out") $(grep -c '^pg_file_settings rows' <<<"$out")" "0 2 0"
done
shown=$(PGUSER=regress_monitor sql <<<"SHOW uuidv7.public_id_keys")
check "pg_monitor sees a fingerprint" "$(grep -cE '^fingerprints [0-9a-f]{8}$' <<<"$shown")" 1
stored=$(sql_errors <<SQL
ALTER ROLE regress_app SET uuidv7.public_id_keys = '$KEY2';
ALTER DATABASE postgres SET uuidv7.public_id_keys = '$KEY2';
SELECT 'pg_db_role_setting rows: ' || count(*) FROM pg_db_role_setting WHERE array_to_string(setconfig, ',') LIKE '%public_id_keys%';
SQL
)
echo "$stored" | sed 's/^/    superuser: /'
check "ALTER ROLE / DATABASE SET are refused and store no key" \
	"$(leaks <<<"$stored") $(grep -c '^ERROR' <<<"$stored") $(tail -n 1 <<<"$stored")" "0 2 pg_db_role_setting rows: 0"
refused=$(sql_errors <<<"ALTER SYSTEM SET uuidv7.public_id_keys = '$KEY2, 12345'")
echo "$refused" | sed 's/^/    superuser: /'
check "a malformed value is refused, saying which key, without showing any" \
	"$(leaks <<<"$refused") $(grep -c 'key 2 is not 32 hexadecimal digits' <<<"$refused")" "0 1"

echo "== a new key, the old one second: every public id changes, the old ones still read"
sql <<<"SET uuidv7.public_id_scheme = ff1; CREATE TABLE before AS SELECT n, uuidv7_to_public(id) AS p FROM fixed"
old_shown=$(psql_q "SHOW uuidv7.public_id_keys")
psql_q "ALTER SYSTEM SET uuidv7.public_id_keys = '$KEY2,$KEY1'"
psql_q "SELECT pg_reload_conf()" >/dev/null
for _ in $(seq 50); do
	[ "$(psql_q "SHOW uuidv7.public_id_keys")" != "$old_shown" ] && break
	sleep 0.1
done
rotated=$(sql <<<"SET uuidv7.public_id_scheme = ff1;
	SELECT count(*) FILTER (WHERE uuidv7_to_public(f.id) = b.p),
		   count(*) FILTER (WHERE uuidv7_from_public(uuidv7_to_public(f.id)) = f.id),
		   count(*) FILTER (WHERE (uuidv7_from_public_all(b.p))[2] = f.id),
		   count(*) FILTER (WHERE f.id = ANY (uuidv7_from_public_all(b.p)))
	FROM fixed f JOIN before b USING (n)" | tr '|' ' ')
check "after the reload: 0 of 2,000 public ids unchanged, all new ones round-trip, all old ones read back under the second key" \
	"$rotated" "0 2000 2000 2000"
check "SHOW gives two fingerprints" "$(psql_q "SHOW uuidv7.public_id_keys" | grep -cE '^fingerprints [0-9a-f]{8},[0-9a-f]{8}$')" 1

doctor=$(PGUSER=regress_app sql <<<"SELECT severity || ' ' || object || ': ' || problem FROM uuidv7_doctor() WHERE object LIKE 'uuidv7.public_id%'")
check "uuidv7_doctor() tells of the rotation by fingerprints" \
	"$(leaks <<<"$doctor") $(grep -cE '^notice uuidv7.public_id_keys: 2 keys \(fingerprints [0-9a-f]{8},[0-9a-f]{8}\)' <<<"$doctor")" "0 1"

echo "== lookups by public id are index scans, under row-level security too"
sql <<<"CREATE TABLE orders (id uuid7 PRIMARY KEY DEFAULT uuidv7_generate(), owner name NOT NULL DEFAULT current_user, total int);
	INSERT INTO orders (total) SELECT g FROM generate_series(1, 20000) g;
	ALTER TABLE orders ENABLE ROW LEVEL SECURITY;
	CREATE POLICY own ON orders USING (owner = current_user);
	GRANT SELECT ON orders TO regress_app;
	UPDATE orders SET owner = 'regress_app' WHERE total % 2 = 0;
	ANALYZE orders"
wanted=$(psql_q "SELECT uuidv7_to_public(id) FROM orders WHERE total = 4242")
for who in "$PGUSER" regress_app; do
	plan=$(PGUSER=$who sql <<SQL
SET plan_cache_mode = force_generic_plan;
PREPARE by_public(uuid) AS SELECT total FROM orders WHERE id = uuidv7_from_public(\$1);
EXPLAIN (COSTS OFF) EXECUTE by_public('$wanted');
EXECUTE by_public('$wanted');
SQL
)
	check "$who: WHERE id = uuidv7_from_public(\$1) (generic plan) is an index scan and finds the row" \
		"$(grep -c 'Index Scan using orders_pkey' <<<"$plan") $(tail -n 1 <<<"$plan")" "1 4242"
done

echo "== bad input"
errors=$(sql_errors -v VERBOSITY=verbose <<'SQL' | grep -E '^(ERROR|DETAIL|t$)' || true
SELECT uuidv7_to_public('8d2f61c0-7a3b-4419-9f0a-6c27d3e8b41a');
SELECT uuidv7_to_public('8d2f61c0-7a3b-7419-cf0a-6c27d3e8b41a');
SELECT uuidv7_from_public('01936b2e-1e85-7000-8000-000000000000');
SELECT uuidv7_from_public_all('01936b2e-1e85-4000-0000-000000000000');
SELECT uuidv7_to_public(NULL) IS NULL;
SQL
)
want_errors='ERROR:  22023: only a version 7 UUID has a public id
DETAIL:  "8d2f61c0-7a3b-4419-9f0a-6c27d3e8b41a" is of version 4.
ERROR:  22023: only a version 7 UUID has a public id
DETAIL:  "8d2f61c0-7a3b-7419-cf0a-6c27d3e8b41a" is not of the RFC 9562 variant.
ERROR:  22023: a public id is a version 4 UUID
DETAIL:  "01936b2e-1e85-7000-8000-000000000000" is of version 7.
ERROR:  22023: a public id is a version 4 UUID
DETAIL:  "01936b2e-1e85-4000-0000-000000000000" is not of the RFC 9562 variant.
t'
check "errors (22023, the value and its version), NULL for NULL" "$errors" "$want_errors"

echo "== a malformed value in postgresql.conf: refused on reload, the keys in use kept, the doctor says which key"
echo "uuidv7.public_id_keys = '$KEY1,0123'" >>"$CLUSTER_DIR/data/postgresql.conf"
psql_q "ALTER SYSTEM RESET uuidv7.public_id_keys"
psql_q "SELECT pg_reload_conf()" >/dev/null
for _ in $(seq 50); do
	[ "$(psql_q "SELECT refused IS NOT NULL FROM uuidv7_public_id_state()")" = t ] && break
	sleep 0.1
done
refused=$(sql <<<"SET uuidv7.public_id_scheme = ff1;
	SELECT count(*) FROM fixed f JOIN before b USING (n) WHERE uuidv7_to_public(f.id) = b.p;
	SELECT severity || ' ' || object || ': ' || problem FROM uuidv7_doctor() WHERE object LIKE 'uuidv7.public_id%' ORDER BY 1;")
echo "$refused" | sed 's/^/    /'
check "the keys in use are kept (2,000 public ids unchanged) and the doctor names the bad key, not its value" \
	"$(leaks <<<"$refused") $(head -n 1 <<<"$refused") $(grep -c '^error uuidv7.public_id_keys: the value in the configuration files was refused (key 2 is not 32 hexadecimal digits)' <<<"$refused")" \
	"0 0 1"
check "the server log, with every statement logged and a reload, holds no key" "$(leaks <"$log")" 0
grep -E 'public_id_keys' "$log" | sed 's/^[^]]*] *//; s/^/    log: /' | sort -u | head -n 8

echo "== without preloading"
cluster_start uuidv7-public-id-late "uuidv7.public_id_keys = '$KEY1'"
late=$(sql_errors <<<"CREATE EXTENSION uuidv7; SELECT uuidv7_to_public(uuidv7_generate());")
late=$late$'\n'$(sql_errors <<<"SELECT severity || ' ' || object || ': ' || problem FROM uuidv7_doctor() WHERE object LIKE 'uuidv7.public_id%'")
echo "$late" | sed 's/^/    /'
check "not preloaded: the functions refuse, saying why, and so does the doctor" \
	"$(grep -c 'ERROR:  public ids need uuidv7 in shared_preload_libraries' <<<"$late") $(grep -c '^error uuidv7.public_id_keys: keys are set (fingerprints [0-9a-f]*) but uuidv7 is not in shared_preload_libraries' <<<"$late") $(leaks <<<"$late")" "1 1 0"

echo "== built without OpenSSL: ff1 refused, never replaced; uuidv47 works"
cluster_stop
nossl_config=$(server_copy "$work/nossl-server")
mkdir "$work/nossl-build"
build_copy_and_install "$work/nossl-build" WITHOUT_OPENSSL=1 DESTDIR="$work/nossl-server" >/dev/null
PG_CONFIG=$nossl_config
find_pg_config
cluster_start uuidv7-public-id-nossl "shared_preload_libraries = 'uuidv7'" "uuidv7.public_id_keys = '$KEY1'"
nossl=$(sql_errors -v VERBOSITY=verbose <<SQL | grep -E '^(ERROR|[0-9a-f]{8}-|error)' | sed 's/ (.*//'
CREATE EXTENSION uuidv7;
SELECT uuidv7_to_public('$(head -n 1 "$work/ids.txt")');
SET uuidv7.public_id_scheme = uuidv47;
SELECT uuidv7_to_public('$(head -n 1 "$work/ids.txt")');
RESET uuidv7.public_id_scheme;
SELECT severity || ' ' || object || ': ' || problem FROM uuidv7_doctor() WHERE object LIKE 'uuidv7.public_id%';
SQL
)
echo "$nossl" | sed 's/^/    /'
check "without OpenSSL: ff1 is 0A000, uuidv47 gives the reference's public id, the doctor says why" "$nossl" \
	"ERROR:  0A000: public id scheme \"ff1\" is not available
$(head -n 1 "$work/ids.txt" | reference uuidv47 "$KEY1")
error uuidv7.public_id_scheme: the scheme is ff1, but uuidv7 was built without OpenSSL: the public-id functions refuse"
exit $status
