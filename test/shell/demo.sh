#!/usr/bin/env bash
# test/shell/demo.sh: the main job's SQL (test/demo.sql, what test/demo.sh runs)
# still runs on this server and shows what it says: the early row moved out
# of the DEFAULT partition into its month, the old months detached, a day's
# query pruned to one partition at plan time and read through its index, an
# id's base32 form read back.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
find_pg_config

out=$(mktemp /tmp/uuidv7-demo.XXXXXX)
at_exit 'rm -f "$out"'
cluster_start uuidv7-demo
"$PG_BINDIR/psql" -X -f "$TOP/test/demo.sql" >"$out" 2>&1 || { cat "$out"; exit 1; }
cat "$out"

# the plan: its lines between the EXPLAIN's header and the next blank line
plan=$(awk '/QUERY PLAN/ { inside = 1; next } inside && /^$/ { exit } inside' "$out")
scanned=$(grep -oE 'on orders_p[0-9_]+' <<<"$plan" | sort -u | wc -l)
moved=$(grep -cE '^ public\.orders_p[0-9_]+ +\| t +\| +1$' "$out" || true)
detached=$(grep -cE '^ public\.orders_p[0-9_]+ +\| detached$' "$out" || true)
in_default=$(grep -E '^ orders_default ' "$out" | awk -F'|' '{ gsub(/ /, "", $4); print $4 }')
[ "$scanned" -eq 1 ] && grep -q 'Index' <<<"$plan" && ! grep -q 'Subplans Removed' <<<"$plan" &&
	[ "$moved" -eq 1 ] && [ "$detached" -eq 6 ] && [ "$in_default" = 0 ] &&
	grep -qE '^ [0-9a-f-]{36} \| t$' "$out"
