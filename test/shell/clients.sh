#!/usr/bin/env bash
# test/shell/clients.sh: what drivers and clients see.  With psycopg 3 (Debian's
# python3-psycopg) and node-postgres (pg, from npm):
#
# - an aggregate over a uuid7 column cast to uuid, array_agg(id::uuid),
#   arrives as a list of UUIDs (the uncast uuid7[] is a type drivers do not
#   know: shown, not relied on);
# - a parameter the server types as uuid7 (a prepared statement inserting
#   into the column) and binary COPY in and out both work, and the domain
#   still refuses a version 4 UUID through each of them;
# - ids made in the client, by node's uuid package (v7()) and by a Python
#   generator written to RFC 9562, are accepted by the domain, carry the
#   time they were made (within a second of the row's clock_timestamp()) and
#   sort with ids made by the server by millisecond; a version 4 id is
#   refused with 23514 and a detail that names its version.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
find_pg_config

/usr/bin/python3 -c 'import psycopg' 2>/dev/null || apt_install python3-psycopg
command -v npm >/dev/null || apt_install nodejs npm

work=$(mktemp -d /tmp/uuidv7-clients.XXXXXX)
chmod 755 "$work"
at_exit 'rm -rf "$work"'
(cd "$work" && npm install --silent --no-audit --no-fund pg@8 uuid@11 >/dev/null)

cluster_start uuidv7-clients
"$PG_BINDIR/psql" -X -q -v ON_ERROR_STOP=1 <<'SQL'
SET client_min_messages = warning;
CREATE EXTENSION uuidv7;
CREATE TABLE items (id uuid7 PRIMARY KEY DEFAULT uuidv7_generate(), source text NOT NULL, n int,
	stored_at timestamptz NOT NULL DEFAULT clock_timestamp());
SQL

echo "== psycopg 3"
/usr/bin/python3 - <<'PY'
import os, time, uuid, psycopg
from psycopg import errors

def rfc9562_v7():
    """A UUIDv7 as RFC 9562 section 5.7 lays it out: 48 bits of Unix
    milliseconds, version 7, 12 random bits, variant 0b10, 62 random bits."""
    ms = time.time_ns() // 1_000_000
    rand = int.from_bytes(os.urandom(10), "big")
    value = (ms << 80) | (0x7 << 76) | ((rand >> 68) & 0xFFF) << 64 | (0b10 << 62) | (rand & ((1 << 62) - 1))
    return uuid.UUID(int=value)

failures = []
def check(what, ok):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)

with psycopg.connect(autocommit=True) as conn:
    # ids from the server and from this client, interleaved over a few milliseconds
    for i in range(200):
        conn.execute("INSERT INTO items (source, n) VALUES ('server', %s)", [i])
        conn.execute("INSERT INTO items (id, source, n) VALUES (%s, 'python', %s)", [rfc9562_v7(), i])

    ids = conn.execute("SELECT array_agg(id::uuid ORDER BY id) FROM items").fetchone()[0]
    check("array_agg(id::uuid) arrives as a list of UUIDs",
          isinstance(ids, list) and len(ids) == 400 and all(isinstance(i, uuid.UUID) for i in ids))
    raw = conn.execute("SELECT array_agg(id) FROM items").fetchone()[0]
    print(f"     (uncast, array_agg(id) of type uuid7[] arrives as {type(raw).__name__})")

    # a parameter the server types as uuid7: the column's type, prepared
    v7 = rfc9562_v7()
    conn.execute("INSERT INTO items (id, source) VALUES (%s, 'prepared')", [str(v7)], prepare=True)
    ptype = conn.execute("SELECT pg_catalog.format_type(parameter_types[1], NULL) FROM pg_prepared_statements "
                         "WHERE statement LIKE 'INSERT INTO items (id, source) VALUES ($1%%'").fetchone()
    check(f"a prepared parameter typed {ptype[0] if ptype else None} takes a v7 id",
          ptype is not None and ptype[0] == "uuid7"
          and conn.execute("SELECT count(*) FROM items WHERE id = %s", [v7]).fetchone()[0] == 1)
    v4 = uuid.uuid4()
    try:
        conn.execute("INSERT INTO items (id, source) VALUES (%s, 'prepared')", [str(v4)], prepare=True)
        check("a prepared uuid7 parameter refuses a v4 id", False)
    except errors.CheckViolation as e:
        check("a prepared uuid7 parameter refuses a v4 id with 23514 naming version 4",
              e.sqlstate == "23514" and "version is 4" in (e.diag.message_detail or ""))

    # binary COPY in and out
    rows = [(rfc9562_v7(), "copy", n) for n in range(50)]
    with conn.cursor() as cur:
        with cur.copy("COPY items (id, source, n) FROM STDIN (FORMAT BINARY)") as copy:
            copy.set_types(["uuid", "text", "int4"])
            for r in rows:
                copy.write_row(r)
        check("binary COPY FROM loads v7 ids into the uuid7 column",
              conn.execute("SELECT count(*) FROM items WHERE source = 'copy'").fetchone()[0] == 50)
        out = []
        with cur.copy("COPY (SELECT id FROM items WHERE source = 'copy' ORDER BY id) TO STDOUT (FORMAT BINARY)") as copy:
            copy.set_types(["uuid"])
            out = [row[0] for row in copy.rows()]
        check("binary COPY TO gives the same UUIDs back", sorted(out) == sorted(r[0] for r in rows))
        try:
            with cur.copy("COPY items (id, source) FROM STDIN (FORMAT BINARY)") as copy:
                copy.set_types(["uuid", "text"])
                copy.write_row((uuid.uuid4(), "copy-v4"))
            check("binary COPY refuses a v4 id", False)
        except errors.CheckViolation as e:
            check("binary COPY refuses a v4 id with 23514", e.sqlstate == "23514")

    # by millisecond, every id sorts with the others: no id of a later
    # millisecond sorts before one of an earlier millisecond
    bad = conn.execute("""
        SELECT count(*) FROM (
            SELECT uuidv7_unix_ms(id) AS ms,
                   max(uuidv7_unix_ms(id)) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS before
            FROM items) s
        WHERE before > ms""").fetchone()[0]
    # and the client's ids carry the time they were made
    off = conn.execute("""SELECT count(*) FROM items WHERE source = 'python'
                          AND abs(extract(epoch FROM uuidv7_timestamp(id) - stored_at)) > 1""").fetchone()[0]
    check("python and server ids sort together by millisecond, with the client's time", bad == 0 and off == 0)

raise SystemExit(1 if failures else 0)
PY

echo "== node-postgres"
cat >"$work/clients.js" <<'JS'
const { Client } = require('pg');
const { v7, v4 } = require('uuid');

const failures = [];
function check(what, ok) {
	console.log((ok ? 'ok   ' : 'FAIL ') + what);
	if (!ok) failures.push(what);
}

(async () => {
	const client = new Client({ host: process.env.PGHOST, port: process.env.PGPORT,
		user: process.env.PGUSER, database: process.env.PGDATABASE });
	await client.connect();
	for (let i = 0; i < 200; i++) {
		await client.query("INSERT INTO items (source, n) VALUES ('server', $1)", [i]);
		await client.query("INSERT INTO items (id, source, n) VALUES ($1, 'node', $2)", [v7(), i]);
	}
	const uuidRe = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
	const cast = await client.query("SELECT array_agg(id::uuid ORDER BY id) AS ids FROM items WHERE source = 'node'");
	const ids = cast.rows[0].ids;
	check('array_agg(id::uuid) arrives as an array of UUID strings',
		Array.isArray(ids) && ids.length === 200 && ids.every((s) => uuidRe.test(s)));
	const raw = await client.query('SELECT array_agg(id) AS ids FROM items');
	console.log(`     (uncast, array_agg(id) of type uuid7[] arrives as ${Array.isArray(raw.rows[0].ids) ? 'an array' : typeof raw.rows[0].ids})`);

	// a named (prepared) statement whose parameter the server types as uuid7
	const id = v7();
	await client.query({ name: 'ins', text: "INSERT INTO items (id, source) VALUES ($1, 'prepared-node')", values: [id] });
	const found = await client.query('SELECT count(*)::int AS n FROM items WHERE id = $1', [id]);
	check('a prepared uuid7 parameter takes a v7 id from uuid.v7()', found.rows[0].n === 1);
	try {
		await client.query({ name: 'ins', text: "INSERT INTO items (id, source) VALUES ($1, 'prepared-node')", values: [v4()] });
		check('a v4 id from uuid.v4() is refused', false);
	} catch (e) {
		check('a v4 id from uuid.v4() is refused with 23514 naming version 4',
			e.code === '23514' && /version is 4/.test(e.detail || ''));
	}
	const bad = await client.query(`
		SELECT count(*)::int AS n FROM (
			SELECT uuidv7_unix_ms(id) AS ms,
				   max(uuidv7_unix_ms(id)) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS before
			FROM items) s
		WHERE before > ms`);
	const off = await client.query(`SELECT count(*)::int AS n FROM items WHERE source = 'node'
		AND abs(extract(epoch FROM uuidv7_timestamp(id) - stored_at)) > 1`);
	check('node ids sort with server ids by millisecond, with the client\'s time', bad.rows[0].n === 0 && off.rows[0].n === 0);
	await client.end();
	process.exit(failures.length ? 1 : 0);
})().catch((e) => { console.error(e); process.exit(1); });
JS
(cd "$work" && node clients.js)
