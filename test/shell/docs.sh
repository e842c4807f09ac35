#!/usr/bin/env bash
# test/shell/docs.sh: the documentation's examples are tests.  Every ```sql
# block of README.md and of each page of docs/ runs, in the page's order, in one psql session
# on a fresh database of a cluster with uuidv7 preloaded, as a reader pasting
# them would; the first error fails the page.  Where a block is followed by
# an output block (``` with no language, only blank lines between), psql's
# output must be that (trailing blanks aside).  A block that cannot run here
# says why in the comment right above it, <!-- needs: WHAT -->, and is
# counted as skipped (WHAT: citus, pg_cron, restart, a client...; a step
# the suite's cluster is made with, such as the public-id key file, says
# so; "PostgreSQL 14 or later" runs on those majors).  With DOCS_EDITION=sql
# (test/shell/sql_edition.sh) the pages run on the SQL edition too, but for a page
# marked <!-- the C edition only --> and the blocks that need "the C edition".  A
# block whose output shows an ERROR is expected to fail that way: it runs
# with errors reported tersely, and the page goes on.
#
# Then the reference: every function, type, domain, aggregate and setting of
# uuidv7 and uuidv7_time_ops (from the catalog of a database with both), every
# function of the SQL edition (from its assembled script) and every SQLSTATE
# the sources raise must appear in README.md's Reference section.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
find_pg_config

pages=("$TOP"/README.md "$TOP"/docs/*.md)
edition=${DOCS_EDITION:-c}

work=$(mktemp -d /tmp/uuidv7-docs.XXXXXX)
chmod 755 "$work"
at_exit 'rm -rf "$work"'
if [ "$edition" = c ]; then
	# (with a key file for public ids, as docs/public-ids.md sets one up: a
	# fixed key, where a reader makes a random one)
	cluster_init uuidv7-docs "shared_preload_libraries = 'uuidv7'" "uuidv7.public_id_key_file = 'uuidv7.keys'"
	printf '# the suite'"'"'s key\n* 2b7e151628aed2a6abf7158809cf4f3c\n' >"$CLUSTER_DIR/data/uuidv7.keys"
	chmod 600 "$CLUSTER_DIR/data/uuidv7.keys"
	[ "$(id -u)" -eq 0 ] && chown "$PG_OS_USER" "$CLUSTER_DIR/data/uuidv7.keys"
	cluster_run
else
	# DOCS_EDITION=sql: on the running cluster of PGHOST and PGPORT, where the
	# SQL edition is installed (test/shell/sql_edition.sh), the pages that are
	# not for the C edition only, without the blocks that need it
	for page in "${pages[@]}"; do
		grep -q '^<!-- the C edition only -->' "$page" && echo "docs: $page: the C edition only"
	done
	mapfile -t pages < <(grep -L '^<!-- the C edition only -->' "${pages[@]}")
fi

status=0
for page in "${pages[@]}"; do
	name=$(basename "$page" .md)
	db="docs_${name//-/_}"
	db=${db,,}
	# the page's blocks as one psql script, each block's output marked
	/usr/bin/python3 - "$page" "$work/$name" "$PG_MAJOR" "$edition" <<'PY'
import json, re, sys

page, out, major, edition = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
lines = open(page, encoding="utf-8").read().split("\n")
blocks, i = [], 0
while i < len(lines):
    if lines[i].strip() == "```sql":
        j = i + 1
        while lines[j].strip() != "```":
            j += 1
        above = lines[i - 1].strip() if i > 0 else ""
        need = re.fullmatch(r"<!-- needs: (.+) -->", above)
        # (a block for newer servers only says which: "PostgreSQL 14 or later")
        newer = need and re.fullmatch(r"PostgreSQL ([0-9]+) or later", need.group(1))
        if newer and major >= int(newer.group(1)):
            need = None
        # (and one for the C edition, "the C edition (...)", runs there)
        if need and edition == "c" and need.group(1).startswith("the C edition"):
            need = None
        block = {"line": i + 1, "sql": "\n".join(lines[i + 1:j]), "needs": need.group(1) if need else None,
                 "output": None}
        k = j + 1
        while k < len(lines) and lines[k].strip() == "":
            k += 1
        if k < len(lines) and lines[k].strip() == "```":
            m = k + 1
            while lines[m].strip() != "```":
                m += 1
            block["output"] = "\n".join(lines[k + 1:m])
            j = m
        blocks.append(block)
        i = j + 1
    else:
        i += 1
json.dump(blocks, open(out + ".json", "w"))
with open(out + ".sql", "w") as f:
    for n, b in enumerate(blocks):
        if b["needs"]:
            continue
        # (a block whose output shows an error runs on past it, its errors
        # without their context, as the page shows them)
        errs = b["output"] is not None and "ERROR:" in b["output"]
        f.write(f"\\echo '@@block {n}'\n")
        f.write("\\set ON_ERROR_STOP off\n\\set VERBOSITY terse\n" if errs else "")
        f.write(f"{b['sql']}\n")
        f.write("\\set ON_ERROR_STOP on\n\\set VERBOSITY default\n" if errs else "")
    f.write("\\echo '@@end'\n")
PY
	db=${db}_$edition
	PGOPTIONS="-c client_min_messages=warning" psql_q "DROP DATABASE IF EXISTS $db" >/dev/null
	psql_q "CREATE DATABASE $db" >/dev/null
	# (pages count periods from now() in statements apart, as a reader's
	# session would: none begins within a minute of a day's turn in UTC,
	# the zone of their examples, on the server's clock, which would change
	# what they print)
	psql_q "DO \$\$ BEGIN PERFORM pg_sleep(extract(epoch FROM t - clock_timestamp())) FROM date_trunc('day', clock_timestamp() + interval '1 minute', 'UTC') AS t WHERE t > clock_timestamp(); END \$\$" >/dev/null
	rc=0
	"$PG_BINDIR/psql" -X -q -v ON_ERROR_STOP=1 -P pager=off -d "$db" -f "$work/$name.sql" \
		>"$work/$name.out" 2>&1 || rc=$?
	/usr/bin/python3 - "$page" "$work/$name" "$rc" <<'PY' || status=1
import json, re, sys

page, base, rc = sys.argv[1], sys.argv[2], int(sys.argv[3])
blocks = json.load(open(base + ".json"))
outputs, current = {}, None
for line in open(base + ".out", encoding="utf-8").read().split("\n"):
    if line.startswith("@@block "):
        current = int(line.split()[1])
        outputs[current] = []
    elif line == "@@end":
        current = None
    elif current is not None:
        outputs[current].append(line)

def norm(text):
    # (psql names the script and line of an error, and a terse error its
    # position: a reader's psql shows them otherwise)
    return "\n".join(re.sub(r" at character [0-9]+$", "", re.sub(r"^psql:[^:]*:[0-9]+: ", "", l.rstrip()))
                     for l in text.strip("\n").split("\n")).strip("\n")

ran = compared = 0
skipped, failed = [], []
for n, b in enumerate(blocks):
    where = f"{page}:{b['line']}"
    if b["needs"]:
        skipped.append(f"{where} ({b['needs']})")
        continue
    if n not in outputs:
        failed.append(f"{where}: not reached")
        continue
    ran += 1
    got = "\n".join(outputs[n])
    if rc != 0 and n == max(outputs):
        failed.append(f"{where}: failed:\n{got}")
        continue
    if b["output"] is not None:
        compared += 1
        if norm(got) != norm(b["output"]):
            failed.append(f"{where}: output differs\n--- page\n{norm(b['output'])}\n--- psql\n{norm(got)}")
print(f"docs: {page}: {ran} blocks run, {compared} outputs compared, {len(skipped)} skipped")
for s in skipped:
    print(f"  skipped {s}")
for f in failed:
    print(f"  FAILED {f}")
sys.exit(1 if failed or rc != 0 else 0)
PY
done

[ "$edition" = c ] || exit $status

# the reference against the catalog, the SQL edition's script and the sources
psql_q "CREATE DATABASE docs_reference" >/dev/null
"$PG_BINDIR/psql" -X -q -At -v ON_ERROR_STOP=1 -d docs_reference >"$work/catalog.txt" <<'SQL'
SET client_min_messages = warning;
CREATE EXTENSION uuidv7;
CREATE EXTENSION uuidv7_time_ops;
SELECT DISTINCT CASE d.classid WHEN 'pg_proc'::regclass THEN 'function ' || p.proname
							   ELSE 'type ' || t.typname END
FROM pg_depend d
	LEFT JOIN pg_proc p ON d.classid = 'pg_proc'::regclass AND p.oid = d.objid
	LEFT JOIN pg_type t ON d.classid = 'pg_type'::regclass AND t.oid = d.objid
WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
	AND d.refobjid IN (SELECT oid FROM pg_extension WHERE extname IN ('uuidv7', 'uuidv7_time_ops'))
	AND (p.oid IS NOT NULL OR (t.oid IS NOT NULL AND t.typname !~ '^_'))
UNION
SELECT 'setting ' || name FROM pg_settings WHERE name LIKE 'uuidv7.%';
SQL
/usr/bin/python3 - "$TOP" "$("$PG_CONFIG" --includedir-server)/utils/errcodes.h" "$work/catalog.txt" <<'PY' || status=1
import re, subprocess, sys, pathlib

top, errcodes_h, catalog = pathlib.Path(sys.argv[1]), sys.argv[2], sys.argv[3]
readme = (top / "README.md").read_text()
ref = readme[readme.index("\n## Reference\n") + 1:]
ref = ref[:re.search(r"^## ", ref[3:], re.M).start() + 3]
listed = [line for line in open(catalog).read().split("\n") if line.strip()]
# the SQL edition's functions, from its script as make assembles it
makefile = (top / "Makefile").read_text()
sources = [w for w in re.search(r"UUIDV7_SOURCES = \$\(addprefix src/,(.*?)\)\n", makefile, re.S).group(1).split()
		   if w != "\\"]
script = subprocess.run(["awk", "-f", str(top / "src/assemble.awk"), "-v", "edition=sql"] +
						[str(top / "src" / f) for f in sources], capture_output=True, text=True, check=True).stdout
listed += ["SQL edition function " + n for n in
		   sorted(set(re.findall(r"^CREATE (?:FUNCTION|PROCEDURE|AGGREGATE) ([a-z_0-9]+)\(", script, re.M)))]
missing = [item for item in listed if "`" + item.split()[-1] not in ref]
# the SQLSTATEs the C and SQL sources raise, in the Errors table
codes = {m.group(1): "".join(m.groups()[1:]) for m in re.finditer(
	r"#define (ERRCODE_[A-Z_0-9]+)\s+MAKE_SQLSTATE\('(.)','(.)','(.)','(.)','(.)'\)", open(errcodes_h).read())}
raised = set()
for f in (top / "src").glob("*.c"):
	raised |= {codes[c] for c in re.findall(r"errcode\((ERRCODE_[A-Z_0-9]+)\)", f.read_text())}
for f in (top / "src").glob("*.sql"):
	for c in re.findall(r"ERRCODE\s*=\s*'([A-Za-z0-9_]+)'", f.read_text()):
		raised.add(c if re.fullmatch(r"[0-9A-Z]{5}", c) else codes["ERRCODE_" + c.upper()])
errors = ref[ref.index("### Errors"):]
missing += ["SQLSTATE " + c for c in sorted(raised) if c not in errors]
print(f"docs: reference: {len(listed)} objects and settings, {len(raised)} SQLSTATEs checked")
for m in missing:
	print(f"  FAILED not in README.md's reference: {m}")
sys.exit(1 if missing else 0)
PY
exit $status
