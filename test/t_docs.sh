#!/usr/bin/env bash
# test/t_docs.sh: the documentation's examples are tests.  Every ```sql
# block of each page of docs/ runs, in the page's order, in one psql session
# on a fresh database of a cluster with uuidv7 preloaded, as a reader pasting
# them would; the first error fails the page.  Where a block is followed by
# an output block (``` with no language, only blank lines between), psql's
# output must be that (trailing blanks aside).  A block that cannot run here
# says why in the comment right above it, <!-- needs: WHAT -->, and is
# counted as skipped (WHAT: citus, pg_cron, restart, a client...).
#
# (README.md joins the pages checked as it is rewritten by task: issue #33.)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
find_pg_config

pages=("$TOP"/docs/*.md)
[ -e "${pages[0]}" ] || { echo "no pages in docs/"; exit 77; }

cluster_start uuidv7-docs "shared_preload_libraries = 'uuidv7'"
work=$(mktemp -d /tmp/uuidv7-docs.XXXXXX)
chmod 755 "$work"
trap 'cluster_stop_all; rm -rf "$work"' EXIT

status=0
for page in "${pages[@]}"; do
	name=$(basename "$page" .md)
	db="docs_${name//-/_}"
	# the page's blocks as one psql script, each block's output marked
	/usr/bin/python3 - "$page" "$work/$name" <<'PY'
import json, re, sys

page, out = sys.argv[1], sys.argv[2]
lines = open(page, encoding="utf-8").read().split("\n")
blocks, i = [], 0
while i < len(lines):
    if lines[i].strip() == "```sql":
        j = i + 1
        while lines[j].strip() != "```":
            j += 1
        above = lines[i - 1].strip() if i > 0 else ""
        need = re.fullmatch(r"<!-- needs: (.+) -->", above)
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
        f.write(f"\\echo '@@block {n}'\n{b['sql']}\n")
    f.write("\\echo '@@end'\n")
PY
	psql_q "CREATE DATABASE $db" >/dev/null
	rc=0
	"$PG_BINDIR/psql" -X -q -v ON_ERROR_STOP=1 -P pager=off -d "$db" -f "$work/$name.sql" \
		>"$work/$name.out" 2>&1 || rc=$?
	/usr/bin/python3 - "$page" "$work/$name" "$rc" <<'PY' || status=1
import json, sys

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
    return "\n".join(l.rstrip() for l in text.strip("\n").split("\n")).strip("\n")

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
exit $status
