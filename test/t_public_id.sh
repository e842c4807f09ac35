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
#   - the keys, from a key file the server reads (uuidv7.public_id_key_file):
#     refused, with the keys in use kept and a log line that names the file
#     and the rule, when its permissions are not those of ssl_key_file or a
#     line is malformed; rotated by an edit and a reload; a database's own
#     keys, so that a public id of one database does not decode in another;
#     only superusers and pg_read_all_settings members see fingerprints;
#     after it all, no key's bytes (as hex, either case, or raw) in any file
#     of the data directory but the key file (the log in every format,
#     log_statement = all, log_min_messages = debug5, pg_stat_statements'
#     texts where the server has it), nor in pg_stat_activity,
#     pg_stat_statements, pg_settings, pg_file_settings; a plain role's
#     statement naming public_id_keys is logged as any other;
#   - lookups by public id use the primary key, for a role under row-level
#     security too; bad input gets 22023;
#   - without preloading, the functions refuse with an error that says so;
#   - built without OpenSSL (make WITHOUT_OPENSSL=1, its library mounted
#     over the installed one for the server alone), ff1 is refused with 0A000, never replaced; uuidv47 works.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
find_pg_config
ensure_build_deps python3-nacl python3-cryptography libssl-dev

work=$(mktemp -d /tmp/uuidv7-public-id.XXXXXX)
chmod 755 "$work"
at_exit 'rm -rf "$work"'
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

# test keys (not secrets): a key's hex must never show in any output
KEY1=8d2f61c07a3be4195f0a6c27d3e8b41a
KEY2=0f1e2d3c4b5a69788796a5b4c3d2e1f0
KEY3=5c4d3e2f1a0b99887766554433221100
leaks() { grep -ciE "$KEY1|$KEY2|$KEY3" || true; }
# write_keys LINES...: the key file, as the server's OS user, mode 0600
write_keys() {
	printf '%s\n' "# keys of public ids" "$@" | as_pg_user tee "$CLUSTER_DIR/data/uuidv7.keys" >/dev/null
	as_pg_user chmod 600 "$CLUSTER_DIR/data/uuidv7.keys"
}
# reload, and wait until the server has read the configuration again (the
# postmaster reads the key file then, before any later session starts)
reload() {
	local before
	before=$(psql_q "SELECT pg_conf_load_time()")
	psql_q "SELECT pg_reload_conf()" >/dev/null
	for _ in $(seq 100); do
		[ "$(psql_q "SELECT pg_conf_load_time()")" != "$before" ] && return
		sleep 0.05
	done
}

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

# every log format the server has, every statement, every debug message,
# and pg_stat_statements where the server has it
preload=uuidv7
[ -f "$("$PG_CONFIG" --sharedir)/extension/pg_stat_statements.control" ] && preload="uuidv7,pg_stat_statements"
destinations=stderr,csvlog
[ "$PG_MAJOR" -ge 15 ] && destinations=$destinations,jsonlog
cluster_init uuidv7-public-id "shared_preload_libraries = '$preload'" "uuidv7.public_id_key_file = 'uuidv7.keys'" \
	"log_statement = 'all'" "log_min_messages = debug5" "logging_collector = on" "log_destination = '$destinations'"
write_keys "* $KEY1"
cluster_run
psql_q "CREATE EXTENSION uuidv7"
if [[ $preload == *pg_stat_statements* ]]; then psql_q "CREATE EXTENSION pg_stat_statements"; fi

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

echo "== who sees what of the keys"
psql_q "CREATE ROLE regress_app LOGIN; CREATE ROLE regress_monitor LOGIN; GRANT pg_monitor TO regress_monitor"
for role in regress_app regress_monitor; do
	out=$(PGUSER=$role sql_errors <<'SQL'
SHOW uuidv7.public_id_key_file;
SELECT 'state: ' || fingerprints::text FROM uuidv7_public_id_state();
SELECT 'pg_settings rows: ' || count(*) FROM pg_settings WHERE name = 'uuidv7.public_id_key_file';
SELECT 'doctor: ' || count(*) FROM uuidv7_doctor() WHERE object LIKE 'uuidv7.public_id%';
SELECT 'public id: ' || (uuidv7_to_public(uuidv7_min('2025-01-01')) IS NOT NULL);
SQL
)
	echo "$out" | sed "s/^/    $role: /"
	if [ $role = regress_app ]; then
		check "a plain role: no SHOW, no state, no pg_settings row, nothing from the doctor about keys; encodes" \
			"$(leaks <<<"$out") $(grep -c '^ERROR' <<<"$out") $(grep -cE '^(pg_settings rows: 0|doctor: 0|public id: true)$' <<<"$out")" "0 2 3"
	else
		check "a pg_monitor member (pg_read_all_settings): the file and a fingerprint, never a key" \
			"$(leaks <<<"$out") $(grep -cE '^uuidv7.keys \(fingerprints [0-9a-f]{8}\)$' <<<"$out") $(grep -cE '^state: \{[0-9a-f]{8}\}$' <<<"$out")" "0 1 1"
	fi
done
stored=$(sql_errors <<<"ALTER ROLE regress_app SET uuidv7.public_id_key_file = '/tmp/theirs'; ALTER DATABASE postgres SET uuidv7.public_id_key_file = '/tmp/theirs';")
check "the key file is named only in the configuration files (ALTER ROLE / DATABASE SET refused)" "$(grep -c '^ERROR' <<<"$stored")" 2

echo "== a key file the server refuses: the keys in use kept, the log names the file and the rule"
sql <<<"SET uuidv7.public_id_scheme = ff1; CREATE TABLE before AS SELECT n, uuidv7_to_public(id) AS p FROM fixed"
unchanged() { sql <<<"SET uuidv7.public_id_scheme = ff1; SELECT count(*) FROM fixed f JOIN before b USING (n) WHERE uuidv7_to_public(f.id) = b.p"; }
# (after the rotation below) the public ids made before it that still decode
# under the key that is now second
unchanged_under_first() { sql <<<"SET uuidv7.public_id_scheme = ff1; SELECT count(*) FROM fixed f JOIN before b USING (n) WHERE (uuidv7_from_public_all(b.p))[2] = f.id"; }
as_pg_user chmod 640 "$CLUSTER_DIR/data/uuidv7.keys"
reload
refused=$(sql <<<"SELECT refused FROM uuidv7_public_id_state()")
check "group-readable and owned by the server's user: refused, keys kept ($refused)" \
	"$(unchanged) $(grep -c 'group or world access' <<<"$refused")" "2000 1"
write_keys "* $KEY1" "postgres 0123"
reload
refused=$(sql <<<"SELECT severity || ' ' || object || ': ' || problem FROM uuidv7_doctor() WHERE object LIKE 'uuidv7.public_id%'")
echo "$refused" | sed 's/^/    /'
check "a malformed line: refused, keys kept, the doctor names the line, not its text" \
	"$(leaks <<<"$refused") $(unchanged) $(grep -c '^error uuidv7.public_id_key_file: the key file uuidv7.keys was refused (the key on line 3 is not 32 hexadecimal digits)' <<<"$refused")" "0 2000 1"
sleep 0.5 # (the logging collector writes what the postmaster logged)
logged=$(cat "$CLUSTER_DIR"/data/log/*.log | grep -c 'uuidv7 refused the public id key file "uuidv7.keys"' || true)
check "the postmaster logged each refusal once, naming the file" "$logged" 2

echo "== a new key, the old one second: every public id changes, the old ones still read"
write_keys "* $KEY2" "* $KEY1"
reload
rotated=$(sql <<<"SET uuidv7.public_id_scheme = ff1;
	SELECT count(*) FILTER (WHERE uuidv7_to_public(f.id) = b.p),
		   count(*) FILTER (WHERE uuidv7_from_public(uuidv7_to_public(f.id)) = f.id),
		   count(*) FILTER (WHERE (uuidv7_from_public_all(b.p))[2] = f.id),
		   count(*) FILTER (WHERE f.id = ANY (uuidv7_from_public_all(b.p)))
	FROM fixed f JOIN before b USING (n)" | tr '|' ' ')
check "after the edit and a reload: 0 of 2,000 public ids unchanged, all new ones round-trip, all old ones read back under the second key" \
	"$rotated" "0 2000 2000 2000"
doctor=$(PGUSER=regress_monitor sql <<<"SELECT severity || ' ' || object || ': ' || problem FROM uuidv7_doctor() WHERE object LIKE 'uuidv7.public_id%'")
check "uuidv7_doctor() tells a pg_read_all_settings member of the rotation by fingerprints" \
	"$(leaks <<<"$doctor") $(grep -cE '^notice uuidv7.public_id_key_file: 2 keys for this database \(fingerprints [0-9a-f]{8},[0-9a-f]{8}\)' <<<"$doctor")" "0 1"

echo "== one set of keys for every process: the last reload's"
# an edit without a reload changes nothing, for new sessions and parallel
# workers alike (only the postmaster reads the file, at a reload)
write_keys "* $KEY3"
same=$(sql <<'SQL'
SET uuidv7.public_id_scheme = ff1;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET parallel_leader_participation = off;
SET max_parallel_workers_per_gather = 0;
SELECT sum(hashtext(uuidv7_to_public(id)::text)) FROM many;
SET max_parallel_workers_per_gather = 2;
SELECT sum(hashtext(uuidv7_to_public(id)::text)) FROM many;
SELECT count(*) FROM fixed f JOIN before b USING (n) WHERE (uuidv7_from_public_all(b.p))[2] = f.id;
SQL
)
check "after an edit of the file without a reload, a new session and parallel workers use the keys of the last reload" \
	"$(sed -n 1p <<<"$same") $(sed -n 3p <<<"$same")" "$(sed -n 2p <<<"$same") 2000"
write_keys "* $KEY2" "* $KEY1"
reload
# files refused without harm: empty, a FIFO (never waited on), and a name
# longer than any path, shown and listed in pg_settings
before_start=$(psql_q "SELECT pg_postmaster_start_time()")
as_pg_user sh -c ": > '$CLUSTER_DIR/data/uuidv7.keys'"
reload
check "an empty key file: refused, keys kept" "$(unchanged_under_first) $(sql <<<"SELECT refused FROM uuidv7_public_id_state()")" "2000 it holds no key"
as_pg_user mkfifo "$CLUSTER_DIR/fifo"
psql_q "ALTER SYSTEM SET uuidv7.public_id_key_file = '$CLUSTER_DIR/fifo'"
reload
check "a FIFO: refused at once, keys kept" "$(timeout 10 "$PG_BINDIR/psql" -X -At -c "SELECT refused FROM uuidv7_public_id_state()")" "it is not a regular file"
long=$(printf './%.0s' $(seq 1 900))uuidv7.keys
psql_q "ALTER SYSTEM SET uuidv7.public_id_key_file = '$long'"
reload
shown=$(PGUSER=regress_monitor sql_errors <<<"SHOW uuidv7.public_id_key_file; SELECT count(*) FROM pg_settings; SELECT uuidv7_to_public(uuidv7_min('2025-01-01')) IS NOT NULL")
check "a name of 1,800 characters is shown whole, and nothing breaks" \
	"$(grep -c "^$long (fingerprints [0-9a-f]*,[0-9a-f]*; last reading refused: .*)$" <<<"$shown") $(tail -n 1 <<<"$shown") $(psql_q "SELECT pg_postmaster_start_time()" | grep -c "$before_start")" "1 t 1"
psql_q "ALTER SYSTEM SET uuidv7.public_id_key_file = 'uuidv7.keys'"
write_keys "* $KEY2" "* $KEY1"
reload

echo "== keys scoped to a database"
psql_q "CREATE DATABASE other"
psql_q "CREATE DATABASE third"
write_keys "* $KEY2" "* $KEY1" "other $KEY3"
reload
for db in other third; do PGDATABASE=$db psql_q "CREATE EXTENSION uuidv7"; done
read -r public_id v7 <<<"$(psql_q "SELECT uuidv7_to_public(id) || ' ' || id FROM fixed WHERE n = 1")"
in_other=$(PGDATABASE=other sql <<<"SET uuidv7.public_id_scheme = ff1; SELECT uuidv7_from_public('$public_id') = '$v7', '$v7' = ANY (uuidv7_from_public_all('$public_id'))" | tr '|' ' ')
in_third=$(PGDATABASE=third sql <<<"SET uuidv7.public_id_scheme = ff1; SELECT uuidv7_from_public('$public_id') = '$v7'")
check "a public id of postgres does not decode to its v7 in a database with a key of its own, and does in one that shares *" \
	"$in_other $in_third" "f f t"
fps=$(for db in postgres other; do PGDATABASE=$db psql_q "SELECT array_to_string(fingerprints, ',') FROM uuidv7_public_id_state()"; done | tr '\n' ' ')
check "each database sees the fingerprints of its own keys only" "$(grep -cE '^[0-9a-f]{8},[0-9a-f]{8} [0-9a-f]{8} $' <<<"$fps")" 1

echo "== a plain role's statements are logged as any other's"
PGUSER=regress_app sql_errors <<<"/* public_id_keys */ SELECT 1 AS public_id_keys; SELECT 1/0 AS public_id_keys;" >/dev/null
sleep 1
check "statements of a role that name public_id_keys are in the log, their error too" \
	"$(cat "$CLUSTER_DIR"/data/log/*.log | grep -cE 'statement: /\* public_id_keys \*/ SELECT 1 AS public_id_keys|STATEMENT:  SELECT 1/0 AS public_id_keys')" 2

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

echo "== no key's bytes anywhere but the key file"
psql_q "CHECKPOINT" >/dev/null
sleep 1
views=$(PGUSER=regress_monitor sql_errors <<'SQL'
SELECT string_agg(coalesce(query, ''), ' ') FROM pg_stat_activity;
SELECT string_agg(name || '=' || coalesce(setting, ''), ' ') FROM pg_settings;
SQL
)
views=$views$'\n'$(sql_errors <<<"SELECT string_agg(name || '=' || coalesce(setting, ''), ' ') FROM pg_file_settings")
if [[ $preload == *pg_stat_statements* ]]; then
	views=$views$'\n'$(PGUSER=regress_monitor sql_errors <<<"SELECT string_agg(query, ' ') FROM pg_stat_statements")
fi
check "pg_stat_activity, pg_settings, pg_file_settings, pg_stat_statements ($preload) hold no key" "$(leaks <<<"$views")" 0
found=$(/usr/bin/python3 - "$CLUSTER_DIR/data" "$CLUSTER_DIR/data/uuidv7.keys" "$KEY1" "$KEY2" "$KEY3" <<'PY'
import os, sys
top, keyfile, keys = sys.argv[1], sys.argv[2], sys.argv[3:]
needles = [k.encode() for k in keys] + [k.upper().encode() for k in keys] + [bytes.fromhex(k) for k in keys]
files = hits = control = 0
for root, _, names in os.walk(top):
    for name in names:
        path = os.path.join(root, name)
        if not os.path.isfile(path):
            continue
        data = open(path, "rb").read()
        found = sum(n in data for n in needles)
        if path == keyfile:
            control = found  # (the search finds them where they are)
            continue
        files += 1
        hits += found
        if found:
            print("key bytes in", os.path.relpath(path, top), file=sys.stderr)
print(files, hits, control)
PY
)
check "no key (hex, either case, or raw bytes) in any of the data directory's $(cut -d' ' -f1 <<<"$found") files but the key file, logs ($destinations) among them" \
	"$(cut -d' ' -f2,3 <<<"$found")" "0 3"

echo "== without preloading"
cluster_stop
cluster_init uuidv7-public-id-late "uuidv7.public_id_key_file = 'uuidv7.keys'"
write_keys "* $KEY1"
cluster_run
late=$(sql_errors <<<"CREATE EXTENSION uuidv7; SELECT uuidv7_to_public(uuidv7_generate());")
late=$late$'\n'$(sql_errors <<<"SELECT severity || ' ' || object || ': ' || problem FROM uuidv7_doctor() WHERE object LIKE 'uuidv7.public_id%'")
echo "$late" | sed 's/^/    /'
check "not preloaded: the functions refuse, saying why, and so does the doctor" \
	"$(grep -c 'ERROR:  public ids need uuidv7 in shared_preload_libraries' <<<"$late") $(grep -c '^error uuidv7.public_id_key_file: a key file is set (uuidv7.keys) but uuidv7 is not in shared_preload_libraries' <<<"$late") $(leaks <<<"$late")" "1 1 0"

echo "== built without OpenSSL: ff1 refused, never replaced; uuidv47 works"
cluster_stop
mkdir "$work/nossl-build"
build_copy_and_install "$work/nossl-build" WITHOUT_OPENSSL=1 DESTDIR="$work/nossl-server" >/dev/null
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
